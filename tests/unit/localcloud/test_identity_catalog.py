"""Keystone's catalog as data in the local cloud: regions, services and
endpoints seeded from the registry, their admin API (keystone/api/
regions.py, services.py, endpoints.py; texts of keystone/exception.py) and
the token catalog built from the enabled rows (keystone/catalog/backends/
sql.py ``get_v3_catalog``)."""

import json
import os
import re

import pytest

from occli.localcloud import registry
from occli.localcloud.identity import catalog
from tests.unit.localcloud.wsgi_client import BASE
from tests.unit.localcloud.wsgi_client import Client
from tests.unit.localcloud.wsgi_client import make_cloud

ADMIN_SCOPE = {"project": {"name": "admin", "domain": {"id": "default"}}}
RECORDING = os.path.join(
    os.path.dirname(__file__), "..", "..", "fixtures", "identity", "realcloud"
)
REAL_BASE = "http://127.0.0.1:5000"
# the services of the test cloud (wsgi_client.make_cloud): its catalog
# lists theirs only, as keystone's lists what is served
SERVED = ("identity", "image")


class Caller:
    """A client calling with one user's token."""

    def __init__(self, client, user, **kw):
        self.client = client
        self.token = client.token(user, **kw)

    def __call__(self, method, path, json=None):
        return self.client.request(method, path, json=json, token=self.token)


@pytest.fixture
def admin(client):
    return Caller(client, "admin", scope=ADMIN_SCOPE)


@pytest.fixture
def demo(client):
    return Caller(client, "demo")


def demo_project(client):
    with client.cloud.store.read() as db:
        return client.cloud.identity.project_id(db, "demo")


def token_catalog(client, user="demo", **kw):
    result = client.authenticate(user, **kw)
    assert result.status == 201, result.body
    return result.json()["token"]["catalog"]


def catalog_urls(entries):
    return {(s["type"], e["interface"]): e["url"] for s in entries for e in s["endpoints"]}


def error(result, status):
    assert result.status == status, result.body
    return result.json()["error"]["message"]


def new_service(admin, **fields):
    body = {"service": dict({"type": "thing", "name": "things"}, **fields)}
    result = admin("POST", "/v3/services", body)
    assert result.status == 201, result.body
    return result.json()["service"]


def new_endpoint(admin, service_id, **fields):
    body = {
        "endpoint": dict(
            {"service_id": service_id, "interface": "public", "url": "http://things.test/v1"},
            **fields,
        )
    }
    result = admin("POST", "/v3/endpoints", body)
    assert result.status == 201, result.body
    return result.json()["endpoint"]


# -- the seeded rows and the token's catalog ------------------------------------


def test_the_registry_is_seeded_as_services_endpoints_and_a_region(admin):
    services = admin("GET", "/v3/services").json()["services"]
    assert [(s["type"], s["name"]) for s in services] == [
        (t, n) for t, n, _p in registry.catalog_entries(SERVED)
    ]
    assert "compute" not in [s["type"] for s in services]
    image = next(s for s in services if s["type"] == "image")
    assert image == {
        "id": catalog.stable_id("service", "image"),
        "type": "image",
        "name": "glance",
        "enabled": True,
        "links": {"self": BASE + "/v3/services/" + image["id"]},
    }
    endpoints = admin("GET", "/v3/endpoints?service_id=" + image["id"]).json()["endpoints"]
    assert sorted(e["interface"] for e in endpoints) == ["admin", "internal", "public"]
    public = next(e for e in endpoints if e["interface"] == "public")
    assert public == {
        "id": catalog.stable_id("endpoint", "image", "public"),
        "interface": "public",
        "region_id": "RegionOne",
        "region": "RegionOne",
        "service_id": image["id"],
        "url": "$(public_endpoint)s/image",
        "enabled": True,
        "links": {"self": BASE + "/v3/endpoints/" + public["id"]},
    }
    admins = admin("GET", "/v3/endpoints?interface=admin").json()["endpoints"]
    assert sorted(e["url"] for e in admins) == sorted(
        "$(public_endpoint)s" + path for _t, _n, path in registry.catalog_entries(SERVED)
    )
    regions = admin("GET", "/v3/regions").json()["regions"]
    assert regions == [
        {
            "id": "RegionOne",
            "description": "",
            "parent_region_id": None,
            "links": {"self": BASE + "/v3/regions/RegionOne"},
        }
    ]


def test_the_token_catalog_is_built_from_the_rows(client, admin):
    # a project-bound endpoint (as Heat's): $(project_id)s is the token's
    thing = new_service(admin)
    new_endpoint(
        admin, thing["id"], interface="internal", url="http://things.test/t/$(project_id)s"
    )
    entries = token_catalog(client)
    served = [t for t, _n, _p in registry.catalog_entries(SERVED)]
    assert [s["type"] for s in entries] == served + ["thing"]
    urls = catalog_urls(entries)
    assert urls[("image", "public")] == BASE + "/image"
    assert urls[("thing", "internal")] == "http://things.test/t/" + demo_project(client)
    endpoint = entries[0]["endpoints"][0]
    assert set(endpoint) == {"id", "interface", "region", "region_id", "url"}
    assert endpoint["region"] == endpoint["region_id"] == "RegionOne"


def test_a_domain_token_gets_no_project_bound_endpoint(client, admin):
    thing = new_service(admin)
    new_endpoint(admin, thing["id"], url="http://things.test/t/$(project_id)s")
    entries = token_catalog(client, "admin", scope={"domain": {"name": "Default"}})
    bound = next(s for s in entries if s["type"] == "thing")
    assert bound["endpoints"] == []
    assert catalog_urls(entries)[("image", "public")] == BASE + "/image"


def test_a_disabled_endpoint_leaves_new_catalogs_and_comes_back(client, admin):
    endpoint_id = catalog.stable_id("endpoint", "image", "public")
    token = client.token("demo")
    result = admin("PATCH", "/v3/endpoints/" + endpoint_id, {"endpoint": {"enabled": False}})
    assert result.status == 200, result.body
    assert result.json()["endpoint"]["enabled"] is False
    assert ("image", "public") not in catalog_urls(token_catalog(client))
    assert ("image", "internal") in catalog_urls(token_catalog(client))
    # the catalog is data: Glance still answers on its path
    assert client.get("/image/v2/images", token=token).status == 200
    listed = client.get("/v3/auth/catalog", token=token).json()["catalog"]
    assert ("image", "public") not in catalog_urls(listed)
    admin("PATCH", "/v3/endpoints/" + endpoint_id, {"endpoint": {"enabled": True}})
    assert catalog_urls(token_catalog(client))[("image", "public")] == BASE + "/image"


def test_a_disabled_service_leaves_the_catalog_with_its_endpoints(client, admin):
    service_id = catalog.stable_id("service", "image")
    result = admin("PATCH", "/v3/services/" + service_id, {"service": {"enabled": False}})
    assert result.json()["service"]["enabled"] is False
    assert "image" not in [s["type"] for s in token_catalog(client)]
    # its endpoints stay enabled rows
    endpoints = admin("GET", "/v3/endpoints?service_id=" + service_id).json()["endpoints"]
    assert [e["enabled"] for e in endpoints] == [True, True, True]


def test_a_deleted_endpoint_stays_deleted_after_a_restart(tmp_path):
    cloud = make_cloud(tmp_path / "data")
    endpoint_id = catalog.stable_id("endpoint", "image", "public")
    try:
        client = Client(cloud)
        admin = Caller(client, "admin", scope=ADMIN_SCOPE)
        assert admin("DELETE", "/v3/endpoints/" + endpoint_id).status == 204
    finally:
        cloud.close()
    cloud = make_cloud(tmp_path / "data")
    try:
        client = Client(cloud)
        admin = Caller(client, "admin", scope=ADMIN_SCOPE)
        message = error(admin("GET", "/v3/endpoints/" + endpoint_id), 404)
        assert message == "Could not find endpoint: %s." % endpoint_id
        assert ("image", "public") not in catalog_urls(token_catalog(client))
        assert ("image", "admin") in catalog_urls(token_catalog(client))
    finally:
        cloud.close()


def test_a_deleted_service_takes_its_endpoints(client, admin):
    service_id = catalog.stable_id("service", "image")
    assert admin("DELETE", "/v3/services/" + service_id).status == 204
    assert admin("GET", "/v3/endpoints?service_id=" + service_id).json()["endpoints"] == []
    assert "image" not in [s["type"] for s in token_catalog(client)]
    message = error(admin("GET", "/v3/services/" + service_id), 404)
    assert message == "Could not find service: %s." % service_id


def test_a_new_service_and_endpoint_join_the_catalog(client, admin):
    service = new_service(admin, description="Things")
    assert (service["type"], service["name"], service["description"]) == (
        "thing",
        "things",
        "Things",
    )
    endpoint = new_endpoint(
        admin, service["id"], url="http://things.test/v1/$(project_id)s", region="RegionTwo"
    )
    # keystone's v2 compatibility: "region" names a region, created if missing
    assert endpoint["region_id"] == endpoint["region"] == "RegionTwo"
    assert admin("GET", "/v3/regions/RegionTwo").status == 200
    entries = token_catalog(client)
    assert entries[-1]["type"] == "thing" and entries[-1]["name"] == "things"
    url = catalog_urls(entries)[("thing", "public")]
    assert url == "http://things.test/v1/" + demo_project(client)
    assert admin("GET", "/v3/services?type=thing").json()["services"] == [service]
    assert admin("GET", "/v3/services?name=things").json()["services"] == [service]
    assert admin("GET", "/v3/services?name=nope").json()["services"] == []


def test_an_endpoint_keystone_cannot_format_is_left_out(client, admin):
    service = new_service(admin)
    new_endpoint(admin, service["id"], url="http://$(compute_host)s:8774/v2")
    thing = next(s for s in token_catalog(client) if s["type"] == "thing")
    assert thing["endpoints"] == []


def test_an_endpoint_update_moves_it(client, admin):
    endpoint_id = catalog.stable_id("endpoint", "image", "public")
    admin("POST", "/v3/regions", {"region": {"id": "RegionTwo"}})
    body = {"endpoint": {"url": "http://images.test/image", "region_id": "RegionTwo"}}
    result = admin("PATCH", "/v3/endpoints/" + endpoint_id, body)
    assert result.status == 200, result.body
    assert result.json()["endpoint"]["region"] == "RegionTwo"
    assert admin("GET", "/v3/endpoints?region_id=RegionTwo").json()["endpoints"][0]["id"] == (
        endpoint_id
    )
    image = next(s for s in token_catalog(client) if s["type"] == "image")
    public = next(e for e in image["endpoints"] if e["interface"] == "public")
    assert (public["url"], public["region"]) == ("http://images.test/image", "RegionTwo")


# -- regions ------------------------------------------------------------------------


def test_regions_create_update_and_delete_with_children(admin, demo):
    result = admin("POST", "/v3/regions", {"region": {"id": "Parent", "description": "p"}})
    assert result.status == 201, result.body
    result = admin("PUT", "/v3/regions/Child", {"region": {"parent_region_id": "Parent"}})
    assert result.status == 201 and result.json()["region"]["parent_region_id"] == "Parent"
    generated = admin("POST", "/v3/regions", {"region": {}}).json()["region"]
    assert len(generated["id"]) == 32 and generated["description"] == ""
    listed = demo("GET", "/v3/regions?parent_region_id=Parent").json()["regions"]
    assert [r["id"] for r in listed] == ["Child"]
    assert demo("GET", "/v3/regions/Child").json()["region"]["parent_region_id"] == "Parent"
    result = admin("PATCH", "/v3/regions/Child", {"region": {"description": None}})
    assert result.json()["region"]["description"] == ""
    assert admin("DELETE", "/v3/regions/Parent").status == 204
    assert error(admin("GET", "/v3/regions/Child"), 404) == "Could not find region: Child."


def test_region_refusals(admin):
    message = error(admin("POST", "/v3/regions", {"region": {"id": "RegionOne"}}), 409)
    assert message == "Conflict occurred attempting to store region - Duplicate ID, RegionOne.."
    message = error(admin("PUT", "/v3/regions/A", {"region": {"id": "B"}}), 400)
    assert message == 'Conflicting region IDs specified: "A" != "B"'
    body = {"region": {"id": "Orphan", "parent_region_id": "Nowhere"}}
    assert error(admin("POST", "/v3/regions", body), 404) == "Could not find region: Nowhere."
    body = {"region": {"id": "RegionOne"}}
    assert error(admin("PATCH", "/v3/regions/Nowhere", body), 400) == "Cannot change ID"
    body = {"region": {"description": "x"}}
    assert error(admin("PATCH", "/v3/regions/Nowhere", body), 404) == (
        "Could not find region: Nowhere."
    )
    assert error(admin("DELETE", "/v3/regions/Nowhere"), 404) == "Could not find region: Nowhere."
    message = error(admin("DELETE", "/v3/regions/RegionOne"), 403)
    assert message == (
        "Unable to delete region RegionOne because it or its child regions have"
        " associated endpoints."
    )
    message = error(admin("POST", "/v3/regions", {"region": {"id": 7}}), 400)
    assert message.startswith("Invalid input for field/attribute id. Value: 7.")


def test_a_child_region_with_endpoints_keeps_its_parent(admin):
    admin("POST", "/v3/regions", {"region": {"id": "Top"}})
    admin("POST", "/v3/regions", {"region": {"id": "Low", "parent_region_id": "Top"}})
    new_endpoint(admin, new_service(admin)["id"], region_id="Low")
    message = error(admin("DELETE", "/v3/regions/Top"), 403)
    assert message == (
        "Unable to delete region Top because it or its child regions have associated endpoints."
    )
    assert admin("GET", "/v3/regions/Low").status == 200


def test_a_parent_region_cycle_is_refused(admin):
    admin("POST", "/v3/regions", {"region": {"id": "One"}})
    admin("POST", "/v3/regions", {"region": {"id": "Two", "parent_region_id": "One"}})
    admin("POST", "/v3/regions", {"region": {"id": "Three", "parent_region_id": "Two"}})
    for region_id, parent in (("One", "Three"), ("One", "One")):
        body = {"region": {"parent_region_id": parent}}
        message = error(admin("PATCH", "/v3/regions/" + region_id, body), 400)
        assert message == (
            "The specified parent region %s would create a circular region hierarchy." % region_id
        )
    assert admin("GET", "/v3/regions/One").json()["region"]["parent_region_id"] is None


# -- refusals of services and endpoints ------------------------------------------


def test_service_and_endpoint_not_found(admin):
    for method, body in (
        ("GET", None),
        ("PATCH", {"service": {"name": "x"}}),
        ("DELETE", None),
    ):
        message = error(admin(method, "/v3/services/nope", body), 404)
        assert message == "Could not find service: nope."
    for method, body in (
        ("GET", None),
        ("PATCH", {"endpoint": {"enabled": False}}),
        ("DELETE", None),
    ):
        message = error(admin(method, "/v3/endpoints/nope", body), 404)
        assert message == "Could not find endpoint: nope."


def test_endpoint_body_refusals(admin):
    service_id = new_service(admin)["id"]
    tail = (
        " The server could not comply with the request since it is either malformed or"
        " otherwise incorrect. The client is assumed to be in error."
    )
    body = {"endpoint": {"service_id": "nope", "interface": "public", "url": "http://a.test"}}
    message = error(admin("POST", "/v3/endpoints", body), 400)
    assert message == "Expecting to find endpoint service_id in service table." + tail
    body["endpoint"].update(service_id=service_id, region_id="Nowhere")
    message = error(admin("POST", "/v3/endpoints", body), 400)
    assert message == "Expecting to find endpoint region_id in region table." + tail
    body = {"endpoint": {"service_id": service_id, "interface": "public", "url": "http://$(x)s"}}
    message = error(admin("POST", "/v3/endpoints", body), 400)
    assert message == "Cannot create an endpoint with an invalid URL: http://$(x)s."
    body["endpoint"].update(url="http://a.test", interface="outside")
    message = error(admin("POST", "/v3/endpoints", body), 400)
    assert message.startswith("Invalid input for field/attribute interface. Value: outside.")
    body = {"endpoint": {"service_id": service_id, "interface": "public"}}
    message = error(admin("POST", "/v3/endpoints", body), 400)
    assert message.endswith(". 'url' is a required property")
    endpoint_id = catalog.stable_id("endpoint", "image", "public")
    body = {"endpoint": {"id": "other"}}
    assert error(admin("PATCH", "/v3/endpoints/" + endpoint_id, body), 400) == "Cannot change ID"
    body = {"endpoint": {"enabled": "no"}}
    message = error(admin("PATCH", "/v3/endpoints/" + endpoint_id, body), 400)
    assert message == (
        "Invalid input for field/attribute enabled. Value: no. 'no' is not of type 'boolean'"
    )
    message = error(admin("PATCH", "/v3/endpoints/" + endpoint_id, {"endpoint": {}}), 400)
    assert message == (
        "Invalid input for field/attribute endpoint. Value: {}. {} should be non-empty"
    )


def test_service_body_refusals(admin):
    message = error(admin("POST", "/v3/services", {"service": {"name": "x"}}), 400)
    assert message == (
        "Invalid input for field/attribute service. Value: {'name': 'x'}."
        " 'type' is a required property"
    )
    message = error(admin("POST", "/v3/services", {"type": "x"}), 400)
    assert message == "'service' is a required property"
    service_id = catalog.stable_id("service", "image")
    body = {"service": {"id": "other"}}
    assert error(admin("PATCH", "/v3/services/" + service_id, body), 400) == "Cannot change ID"
    body = {"service": {"enabled": 1}}
    message = error(admin("PATCH", "/v3/services/" + service_id, body), 400)
    assert message.startswith("Invalid input for field/attribute enabled. Value: 1.")


@pytest.mark.parametrize(
    "method, path, body",
    [
        ("GET", "/v3/services", None),
        ("POST", "/v3/services", {"service": {"type": "x"}}),
        ("GET", "/v3/services/" + catalog.stable_id("service", "image"), None),
        ("PATCH", "/v3/services/" + catalog.stable_id("service", "image"), {"service": {}}),
        ("DELETE", "/v3/services/" + catalog.stable_id("service", "image"), None),
        ("GET", "/v3/endpoints", None),
        ("GET", "/v3/endpoints/" + catalog.stable_id("endpoint", "image", "public"), None),
        ("DELETE", "/v3/endpoints/" + catalog.stable_id("endpoint", "image", "public"), None),
        ("POST", "/v3/regions", {"region": {"id": "Mine"}}),
        ("PUT", "/v3/regions/Mine", {"region": {}}),
        ("PATCH", "/v3/regions/RegionOne", {"region": {"description": "x"}}),
        ("DELETE", "/v3/regions/RegionOne", None),
    ],
)
def test_members_may_not_manage_the_catalog(demo, admin, method, path, body):
    action = {"GET": "get", "POST": "create", "PUT": "create", "PATCH": "update"}.get(
        method, "delete"
    )
    resource = path.split("/")[2][:-1]
    if method == "GET" and path.count("/") == 2:
        action, resource = "list", path.split("/")[2]
    if body == {"service": {}}:  # keystone: the schema first
        assert demo(method, path, body).status == 400
        return
    message = error(demo(method, path, body), 403)
    assert message == "You are not authorized to perform the requested action: identity:%s_%s." % (
        action,
        resource,
    )
    assert admin("GET", "/v3/services/" + catalog.stable_id("service", "image")).status == 200
    assert admin("GET", "/v3/regions/RegionOne").status == 200
    assert admin("GET", "/v3/regions/Mine").status == 404


# -- replayed: what the real Keystone 30 answered ------------------------------------


def _recorded():
    with open(os.path.join(RECORDING, "keystone-30-catalog.json")) as f:
        return json.load(f)["exchanges"]


def _local(value, ids):
    """A recorded value with the real cloud's ids and URL made the local
    cloud's."""
    text = json.dumps(value).replace(REAL_BASE, BASE)
    for real, local in ids.items():
        text = text.replace(real, local)
    return json.loads(text)


def test_the_catalog_api_answers_as_the_recorded_keystone(client, admin):
    """Each recorded request, in order, against the local cloud: the same
    status and the same body (ids mapped as the creations give them),
    but for keystone's 500 on a body without ``service`` (a 400 here)."""
    ids = {}
    for item in _recorded():
        request = item["request"]
        if request["path"] == "/v3/auth/tokens":
            (entry,) = item["body"]["catalog_entry"]
            real_project = re.search("/v1/([0-9a-f]{32})", json.dumps(entry)).group(1)
            with client.cloud.store.read() as db:
                ids[real_project] = client.cloud.identity.project_id(db, "admin")
            expected = _local(entry, ids)
            local = token_catalog(client, "admin", scope=ADMIN_SCOPE)
            assert [s for s in local if s["id"] == expected["id"]] == [expected]
            continue
        path = _local(request["path"], ids)
        result = admin(request["method"], path, _local(request["body"], ids))
        if item["status"] == 500:
            assert error(result, 400) == "'service' is a required property"
            continue
        assert result.status == item["status"], (request, result.body)
        if item["body"] is None:
            continue
        body = result.json()
        if request["method"] == "POST" and item["status"] == 201:
            ((key, created),) = body.items()
            ids[item["body"][key]["id"]] = created["id"]
        assert body == _local(item["body"], ids), request


def test_a_system_reader_reads_services_and_endpoints_but_writes_nothing(client, admin):
    """keystone's ``rule:admin_or_system_reader`` for get/list, admin for
    the writes (keystone/common/policies/service.py, endpoint.py)."""
    name = "catalog-reader"
    created = admin("POST", "/v3/users", {"user": {"name": name, "password": "s3cret-pass"}})
    user_id = created.json()["user"]["id"]
    (reader,) = admin("GET", "/v3/roles?name=reader").json()["roles"]
    granted = admin("PUT", "/v3/system/users/%s/roles/%s" % (user_id, reader["id"]))
    assert granted.status == 204, granted.body
    system = Caller(client, name, password="s3cret-pass", scope={"system": {"all": True}})
    service_id = catalog.stable_id("service", "image")
    endpoint_id = catalog.stable_id("endpoint", "image", "public")
    for path in ("/v3/services", "/v3/services/" + service_id, "/v3/endpoints"):
        assert system("GET", path).status == 200, path
    assert system("GET", "/v3/endpoints/" + endpoint_id).json()["endpoint"]["id"] == endpoint_id
    message = error(system("DELETE", "/v3/endpoints/" + endpoint_id), 403)
    assert message.endswith("identity:delete_endpoint.")
    message = error(system("PATCH", "/v3/services/" + service_id, {"service": {"name": "x"}}), 403)
    assert message.endswith("identity:update_service.")
