"""Catalog managers and commands (requests-mock): ``client.identity_services``,
``client.endpoints``, ``client.regions``, and ``service …``, ``endpoint
…``, ``region …``, ``catalog list/show`` with OSC's options, columns and
formatting. The bodies are keystone's (keystone/api/services.py,
endpoints.py, regions.py: ``region`` repeats ``region_id``)."""

import json

import pytest

from occli import exceptions

from .fakes import BASE
from .fakes import IMAGE

IDENTITY = BASE + "/identity/v3"
SERVICE_ID = "5e2b4a52c8a54bd8b9c3b0d8a4b8e6f1"
ENDPOINT_ID = "8a1f9d0b7c6e4f3a9b2c1d0e9f8a7b6c"


def service_body(**fields):
    body = {
        "id": SERVICE_ID,
        "type": "image",
        "name": "glance",
        "enabled": True,
        "description": "Image service",
        "links": {"self": IDENTITY + "/services/" + SERVICE_ID},
    }
    body.update(fields)
    return body


def endpoint_body(**fields):
    body = {
        "id": ENDPOINT_ID,
        "interface": "public",
        "region_id": "RegionOne",
        "region": "RegionOne",
        "service_id": SERVICE_ID,
        "url": "http://images.test:9292",
        "enabled": True,
        "links": {"self": IDENTITY + "/endpoints/" + ENDPOINT_ID},
    }
    body.update(fields)
    return body


def region_body(region_id="RegionOne", **fields):
    body = {
        "id": region_id,
        "description": "",
        "parent_region_id": None,
        "links": {"self": IDENTITY + "/regions/" + region_id},
    }
    body.update(fields)
    return body


def not_found(kind, value):
    message = "Could not find %s: %s." % (kind, value)
    return {
        "status_code": 404,
        "json": {"error": {"code": 404, "title": "Not Found", "message": message}},
    }


@pytest.fixture
def keystone(mock_cloud):
    """One service (glance, type image), one endpoint of it, RegionOne."""
    m = mock_cloud.mock
    m.get(IDENTITY + "/services/" + SERVICE_ID, json={"service": service_body()})
    for value in ("image", "glance", "nosuch"):
        m.get(IDENTITY + "/services/" + value, **not_found("service", value))
    m.get(
        IDENTITY + "/services",
        json={"services": [service_body()], "links": {"next": None}},
    )
    m.get(IDENTITY + "/endpoints/" + ENDPOINT_ID, json={"endpoint": endpoint_body()})
    m.get(IDENTITY + "/endpoints", json={"endpoints": [endpoint_body()], "links": {}})
    m.get(IDENTITY + "/regions/RegionOne", json={"region": region_body()})
    m.get(IDENTITY + "/regions/Nowhere", **not_found("region", "Nowhere"))
    return m


def test_services_are_found_by_id_name_or_type(client, keystone):
    assert client.identity_services.find_resource(SERVICE_ID).name == "glance"
    keystone.get(
        IDENTITY + "/services?name=glance", json={"services": [service_body()], "links": {}}
    )
    assert client.identity_services.find_resource("glance").id == SERVICE_ID
    keystone.get(IDENTITY + "/services?name=image", json={"services": [], "links": {}})
    keystone.get(
        IDENTITY + "/services?type=image", json={"services": [service_body()], "links": {}}
    )
    assert client.identity_services.find_resource("image").id == SERVICE_ID
    assert keystone.last_request.qs == {"type": ["image"]}
    keystone.get(IDENTITY + "/services?name=nosuch", json={"services": [], "links": {}})
    keystone.get(IDENTITY + "/services?type=nosuch", json={"services": [], "links": {}})
    with pytest.raises(
        exceptions.NotFound, match="No service with a type, name or ID of 'nosuch'"
    ):
        client.identity_services.find_resource("nosuch")
    twice = [service_body(name="image"), service_body(id="other", name="image")]
    keystone.get(IDENTITY + "/services?name=image", json={"services": twice, "links": {}})
    with pytest.raises(
        exceptions.NoUniqueMatch, match="Multiple service matches found for 'image'"
    ):
        client.identity_services.find_resource("image")


def test_service_create_and_update_bodies(client, keystone):
    keystone.post(IDENTITY + "/services", status_code=201, json={"service": service_body()})
    client.identity_services.create("image", name="glance", description="d", enabled=False)
    assert keystone.last_request.json() == {
        "service": {"type": "image", "name": "glance", "description": "d", "enabled": False}
    }
    keystone.patch(IDENTITY + "/services/" + SERVICE_ID, json={"service": service_body()})
    client.identity_services.update(SERVICE_ID, enabled=False)
    assert keystone.last_request.json() == {"service": {"enabled": False}}
    with pytest.raises(exceptions.ValidationError):
        client.identity_services.update(SERVICE_ID)


def test_endpoint_and_region_bodies(client, keystone):
    keystone.post(IDENTITY + "/endpoints", status_code=201, json={"endpoint": endpoint_body()})
    client.endpoints.create(SERVICE_ID, "http://images.test", "public", region="RegionOne")
    assert keystone.last_request.json() == {
        "endpoint": {
            "service_id": SERVICE_ID,
            "url": "http://images.test",
            "interface": "public",
            "enabled": True,
            "region_id": "RegionOne",
        }
    }
    keystone.patch(IDENTITY + "/endpoints/" + ENDPOINT_ID, json={"endpoint": endpoint_body()})
    client.endpoints.update(ENDPOINT_ID, enabled=False, region="RegionTwo")
    assert keystone.last_request.json() == {
        "endpoint": {"enabled": False, "region_id": "RegionTwo"}
    }
    client.endpoints.list(service=SERVICE_ID, interface="admin", region="RegionOne")
    assert keystone.last_request.qs == {
        "service_id": [SERVICE_ID],
        "interface": ["admin"],
        "region_id": ["regionone"],
    }
    keystone.post(IDENTITY + "/regions", status_code=201, json={"region": region_body("East")})
    client.regions.create("East", description="d", parent_region="RegionOne")
    assert keystone.last_request.json() == {
        "region": {"id": "East", "description": "d", "parent_region_id": "RegionOne"}
    }
    keystone.get(IDENTITY + "/regions", json={"regions": [region_body()], "links": {}})
    client.regions.list(parent_region="RegionOne")
    assert keystone.last_request.qs == {"parent_region_id": ["regionone"]}


def test_service_commands(cli, keystone):
    code, out, err = cli("service", "show", "-f", "json", SERVICE_ID)
    assert code == 0, err
    assert json.loads(out) == {
        "id": SERVICE_ID,
        "name": "glance",
        "type": "image",
        "enabled": True,
        "description": "Image service",
    }
    code, out, err = cli("service", "list", "--long", "-f", "csv")
    assert code == 0, err
    assert out.splitlines() == [
        '"ID","Name","Type","Description","Enabled"',
        '"%s","glance","image","Image service",True' % SERVICE_ID,
    ]
    keystone.patch(IDENTITY + "/services/" + SERVICE_ID, json={"service": service_body()})
    code, out, err = cli("service", "set", "--disable", SERVICE_ID)
    assert (code, out) == (0, "")
    assert keystone.last_request.json() == {"service": {"enabled": False}}
    code, out, err = cli("service", "set", SERVICE_ID)
    assert code == 2 and "Nothing to change" in err
    keystone.post(IDENTITY + "/services", status_code=201, json={"service": service_body()})
    code, out, err = cli(
        "service", "create", "--name", "glance", "-f", "value", "-c", "id", "image"
    )
    assert (code, out) == (0, SERVICE_ID + "\n")
    assert keystone.last_request.json() == {
        "service": {"type": "image", "name": "glance", "enabled": True}
    }
    keystone.delete(IDENTITY + "/services/" + SERVICE_ID, status_code=204)
    code, out, err = cli("service", "delete", SERVICE_ID)
    assert (code, err) == (0, "")
    assert keystone.last_request.method == "DELETE"


def test_endpoint_commands(cli, keystone):
    code, out, err = cli("endpoint", "show", "-f", "json", ENDPOINT_ID)
    assert code == 0, err
    assert json.loads(out) == {
        "enabled": True,
        "id": ENDPOINT_ID,
        "interface": "public",
        "region": "RegionOne",
        "region_id": "RegionOne",
        "service_id": SERVICE_ID,
        "url": "http://images.test:9292",
        "service_name": "glance",
        "service_type": "image",
    }
    code, out, err = cli("endpoint", "list", "-f", "csv", "--interface", "public")
    assert code == 0, err
    assert out.splitlines() == [
        '"ID","Region","Service Name","Service Type","Enabled","Interface","URL"',
        '"%s","RegionOne","glance","image",True,"public","http://images.test:9292"' % ENDPOINT_ID,
    ]
    assert keystone.request_history[-1].qs == {"interface": ["public"]}
    keystone.patch(IDENTITY + "/endpoints/" + ENDPOINT_ID, json={"endpoint": endpoint_body()})
    code, out, err = cli("endpoint", "set", "--disable", "--url", "http://x.test", ENDPOINT_ID)
    assert (code, out) == (0, "")
    assert keystone.last_request.json() == {"endpoint": {"url": "http://x.test", "enabled": False}}
    code, out, err = cli("endpoint", "create", "--region", "Nowhere", SERVICE_ID, "public", "u")
    assert code == 1 and "Could not find region: Nowhere." in err
    code, out, err = cli("endpoint", "create", SERVICE_ID, "outside", "http://x.test")
    assert code == 2 and "invalid choice: 'outside'" in err
    keystone.delete(IDENTITY + "/endpoints/" + ENDPOINT_ID, status_code=204)
    keystone.delete(IDENTITY + "/endpoints/nope", **not_found("endpoint", "nope"))
    code, out, err = cli("endpoint", "delete", ENDPOINT_ID, "nope")
    assert code == 1
    assert "Failed to delete endpoint nope: Could not find endpoint: nope." in err


def test_region_commands(cli, keystone):
    code, out, err = cli("region", "show", "-f", "json", "RegionOne")
    assert code == 0, err
    assert json.loads(out) == {"region": "RegionOne", "description": "", "parent_region": None}
    keystone.get(
        IDENTITY + "/regions",
        json={"regions": [region_body(), region_body("East", parent_region_id="RegionOne")]},
    )
    code, out, err = cli("region", "list", "-f", "csv")
    assert out.splitlines() == [
        '"Region","Parent Region","Description"',
        '"RegionOne","",""',
        '"East","RegionOne",""',
    ]
    keystone.put(IDENTITY + "/regions/East", status_code=201)
    keystone.post(
        IDENTITY + "/regions",
        status_code=201,
        json={"region": region_body("East", parent_region_id="RegionOne", description="e")},
    )
    code, out, err = cli(
        "region", "create", "--parent-region", "RegionOne", "--description", "e", "East"
    )
    assert code == 0, err
    assert keystone.last_request.json() == {
        "region": {"id": "East", "description": "e", "parent_region_id": "RegionOne"}
    }
    message = (
        "Unable to delete region RegionOne because it or its child regions have"
        " associated endpoints."
    )
    keystone.delete(
        IDENTITY + "/regions/RegionOne",
        status_code=403,
        json={"error": {"code": 403, "title": "Forbidden", "message": message}},
    )
    code, out, err = cli("region", "delete", "RegionOne")
    assert code == 1 and message in err
    code, out, err = cli("region", "set", "RegionOne")
    assert code == 2 and "Nothing to change" in err


def test_catalog_list_and_show_read_the_token(cli):
    code, out, err = cli("catalog", "list", "-f", "json")
    assert code == 0, err
    listed = json.loads(out)
    assert [(s["Name"], s["Type"]) for s in listed][:2] == [
        ("keystone", "identity"),
        ("nova", "compute"),
    ]
    assert listed[0]["Endpoints"][0]["url"] == BASE + "/identity"
    code, out, err = cli("catalog", "list")
    assert code == 0, err
    lines = [line.split("|")[1:4] for line in out.splitlines() if line.startswith("|")]
    cells = [[cell.strip() for cell in line] for line in lines]
    assert cells[1:4] == [
        ["keystone", "identity", "RegionOne"],
        ["", "", "public: %s/identity" % BASE],
        ["", "", "RegionOne"],
    ]
    code, out, err = cli("catalog", "show", "glance")
    assert code == 0, err
    assert "| endpoints | RegionOne " in out and "|           |   public: %s " % IMAGE in out
    code, out, err = cli("catalog", "show", "-f", "json", "image")
    shown = json.loads(out)
    assert sorted(shown) == ["endpoints", "id", "name", "type"]
    assert shown["endpoints"][0]["url"] == IMAGE
    code, out, err = cli("catalog", "show", "nosuch")
    assert code == 1 and "service nosuch not found" in err
