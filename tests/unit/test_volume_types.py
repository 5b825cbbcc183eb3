"""``client.volume_types`` and ``volume type …`` against requests-mock on
Cinder's api-ref samples (tests/fixtures/volume/volume_type/): the
requests made, OSC's columns, and the refusals made before any request."""

import json

import pytest

from .fakes import AUTH_URL
from .fakes import VOLUME
from .fakes import load_fixture
from .fakes import requests_to

TYPE_ID = "6685584b-1eac-4da6-b5c3-555430cf68ff"
PROJECT = "f270b245cb11498ca4031deb7e141cfa"
TYPES = VOLUME + "/types"


def sample(name):
    return load_fixture("volume", "volume_type", name)


def no_cloud_request(mock):
    return not [r for r in mock.request_history if "/identity/" not in r.url]


@pytest.fixture
def cinder(mock_cloud):
    """The sample type ``vol-type-001`` (TYPE_ID), found by id or name."""
    m = mock_cloud.mock
    m.get(TYPES + "/" + TYPE_ID, json=sample("volume-type-show-response.json"))
    listed = sample("volume-types-list-response.json")
    listed["volume_types"][1]["id"] = TYPE_ID
    m.get(TYPES, json=listed)
    return m


@pytest.fixture
def keystone(mock_cloud):
    """Project ``alt`` (id PROJECT), found by name after a 404 by id."""
    m = mock_cloud.mock
    m.get(AUTH_URL + "/projects/alt", status_code=404, json={"error": {"code": 404}})
    m.get(
        AUTH_URL + "/projects?name=alt",
        json={"projects": [{"id": PROJECT, "name": "alt", "domain_id": "default"}]},
    )
    return m


def test_manager_calls(client, cinder):
    cinder.post(TYPES, json=sample("volume-type-create-response.json"))
    cinder.put(TYPES + "/" + TYPE_ID, json=sample("volume-type-update-response.json"))
    cinder.delete(TYPES + "/" + TYPE_ID, status_code=202)
    cinder.get(TYPES + "/default", json=sample("volume-type-default-response.json"))
    cinder.post(
        TYPES + "/" + TYPE_ID + "/extra_specs",
        json=sample("volume-type-extra-specs-create-update-response.json"),
    )
    cinder.get(
        TYPES + "/" + TYPE_ID + "/os-volume-type-access",
        json=sample("volume-type-access-list-response.json"),
    )
    cinder.post(TYPES + "/" + TYPE_ID + "/action", status_code=202)
    cinder.delete(TYPES + "/" + TYPE_ID + "/extra_specs/key1", status_code=202)
    request = sample("volume-type-create-request.json")["volume_type"]
    created = client.volume_types.create(
        request["name"],
        description=request["description"],
        extra_specs=request["extra_specs"],
    )
    assert created.name == "vol-type-001"
    assert requests_to(cinder, "POST", "/types")[0].json() == {"volume_type": request}
    names = [t.name for t in client.volume_types.list()]
    assert names == ["vol-type-002", "vol-type-001", "__DEFAULT__"]
    assert client.volume_types.default().name == "vol-type-001"
    client.volume_types.update(TYPE_ID, name="vol-type-001", is_public=True)
    assert requests_to(cinder, "PUT", "/types/")[0].json() == {
        "volume_type": {"name": "vol-type-001", "is_public": True}
    }
    specs = sample("volume-type-extra-specs-create-update-request.json")["extra_specs"]
    assert client.volume_types.set_extra_specs(TYPE_ID, specs) == specs
    client.volume_types.unset_extra_specs(TYPE_ID, ["key1"])
    access = client.volume_types.list_access(TYPE_ID)
    assert access == sample("volume-type-access-list-response.json")["volume_type_access"]
    client.volume_types.add_project_access(TYPE_ID, PROJECT)
    client.volume_types.remove_project_access(TYPE_ID, PROJECT)
    actions = [r.json() for r in requests_to(cinder, "POST", "/action")]
    assert actions == [
        {"addProjectAccess": {"project": PROJECT}},
        sample("volume-type-access-delete-request.json"),
    ]
    client.volume_types.delete(TYPE_ID)
    assert requests_to(cinder, "DELETE", "/types/" + TYPE_ID)


def test_list_visibility_queries(client, cinder):
    client.volume_types.list(is_public=False)
    client.volume_types.list(is_public=None)
    client.volume_types.list()
    queries = [r.qs.get("is_public") for r in requests_to(cinder, "GET", "/types")]
    assert queries == [["false"], ["none"], None]


def test_list_columns(cli, cinder):
    code, out, err = cli("volume", "type", "list", "-f", "json")
    assert code == 0, err
    rows = json.loads(out)
    assert list(rows[0]) == ["ID", "Name", "Is Public"]
    assert rows[1] == {"ID": TYPE_ID, "Name": "vol-type-001", "Is Public": True}
    code, out, err = cli("volume", "type", "list", "--long", "--private", "-f", "json")
    assert code == 0, err
    long = json.loads(out)[0]
    assert list(long) == ["ID", "Name", "Is Public", "Description", "Properties"]
    assert long["Properties"] == {"capabilities": "gpu"}
    assert requests_to(cinder, "GET", "/types")[-1].qs["is_public"] == ["false"]


def test_list_default(cli, cinder):
    cinder.get(TYPES + "/default", json=sample("volume-type-default-response.json"))
    code, out, err = cli("volume", "type", "list", "--default", "-f", "json")
    assert code == 0, err
    assert [r["Name"] for r in json.loads(out)] == ["vol-type-001"]


def test_show_a_private_type_lists_its_projects(cli, cinder):
    body = sample("volume-type-show-response.json")
    body["volume_type"]["is_public"] = False
    body["volume_type"]["os-volume-type-access:is_public"] = False
    cinder.get(TYPES + "/" + TYPE_ID, json=body)
    cinder.get(
        TYPES + "/" + TYPE_ID + "/os-volume-type-access",
        json=sample("volume-type-access-list-response.json"),
    )
    code, out, err = cli("volume", "type", "show", TYPE_ID, "-f", "json")
    assert code == 0, err
    shown = json.loads(out)
    assert sorted(shown) == [
        "access_project_ids",
        "description",
        "id",
        "is_public",
        "name",
        "properties",
    ]
    assert shown["access_project_ids"] == ["6f70656e737461636b20342065766572"]
    assert shown["properties"] == {"capabilities": "gpu"}


def test_create_private_with_project_and_properties(cli, cinder, keystone):
    cinder.post(TYPES, json=sample("volume-type-create-response.json"))
    cinder.post(TYPES + "/6d0ff92a-0007-4780-9ece-acfe5876966a/action", status_code=202)
    code, out, err = cli(
        "volume", "type", "create", "vol-type-001", "--private", "--project", "alt",
        "--property", "capabilities=gpu", "--multiattach", "--availability-zone", "nova",
        "-f", "json",
    )  # fmt: skip
    assert code == 0, err
    assert sorted(json.loads(out)) == ["description", "id", "is_public", "name", "properties"]
    assert requests_to(cinder, "POST", "/types")[0].json() == {
        "volume_type": {
            "name": "vol-type-001",
            "os-volume-type-access:is_public": False,
            "extra_specs": {
                "capabilities": "gpu",
                "multiattach": "<is> True",
                "RESKEY:availability_zones": "nova",
            },
        }
    }
    assert requests_to(cinder, "POST", "/action")[0].json() == {
        "addProjectAccess": {"project": PROJECT}
    }


def test_set_and_unset(cli, cinder, keystone):
    path = TYPES + "/" + TYPE_ID
    cinder.put(path, json=sample("volume-type-update-response.json"))
    cinder.post(path + "/extra_specs", json={"extra_specs": {"a": "b"}})
    cinder.post(path + "/action", status_code=202)
    cinder.delete(path + "/extra_specs/a", status_code=202)
    code, out, err = cli(
        "volume", "type", "set", "vol-type-001", "--name", "gold", "--private",
        "--property", "a=b", "--project", "alt",
    )  # fmt: skip
    assert code == 0 and out == "", err
    assert requests_to(cinder, "PUT", "/types/")[0].json() == {
        "volume_type": {"name": "gold", "is_public": False}
    }
    assert requests_to(cinder, "POST", "/extra_specs")[0].json() == {"extra_specs": {"a": "b"}}
    code, out, err = cli(
        "volume", "type", "unset", "vol-type-001", "--property", "a", "--project", "alt"
    )
    assert code == 0, err
    assert requests_to(cinder, "DELETE", "/extra_specs/a")
    assert requests_to(cinder, "POST", "/action")[-1].json() == {
        "removeProjectAccess": {"project": PROJECT}
    }


def test_delete_reports_cinders_refusal(cli, cinder):
    cinder.delete(
        TYPES + "/" + TYPE_ID,
        status_code=400,
        json={"badRequest": {"code": 400, "message": "Target volume type is still in use."}},
    )
    code, out, err = cli("volume", "type", "delete", "vol-type-001")
    assert code == 1
    assert "Target volume type is still in use." in err


@pytest.mark.parametrize(
    "argv, message",
    [
        (["volume", "type", "create", "x", "--project", "alt"],
         "--project is only allowed with --private"),
        (["volume", "type", "create", " "], "name must be 1 to 255 characters"),
        (["volume", "type", "create", "x", "--property", "a key=v"], "Property key 'a key'"),
        (["volume", "type", "create", "x", "--public", "--private"], "not allowed with argument"),
        (["volume", "type", "list", "--default", "--private"], "not allowed with argument"),
        (["volume", "type", "set", "x"], "Nothing to set"),
        (["volume", "type", "unset", "x"], "Nothing to unset"),
    ],
)  # fmt: skip
def test_refusals_before_any_request(cli, mock_cloud, argv, message):
    code, out, err = cli(*argv)
    assert code == 2
    assert message in err
    assert no_cloud_request(mock_cloud.mock)
