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


# -- QoS specs (client.volume_qos, volume qos …) -------------------------------------------

QOS = VOLUME + "/qos-specs"
QOS_ID = "0388d6c6-d5d4-42a3-b289-95205c50dd15"


def qos_sample(name):
    return load_fixture("volume", "qos", name)


@pytest.fixture
def qos(mock_cloud):
    """The sample QoS specs ``reliability-spec`` (QOS_ID) with no
    associations, found by id or name."""
    m = mock_cloud.mock
    m.get(QOS + "/" + QOS_ID, json=qos_sample("qos-show-response.json"))
    listed = qos_sample("qos-list-response.json")
    listed["qos_specs"][0]["id"] = QOS_ID
    m.get(QOS, json=listed)
    m.get(QOS + "/" + QOS_ID + "/associations", json=qos_sample("qos_show_response.json"))
    return m


def test_qos_manager_calls(client, qos, cinder):
    qos.post(QOS, json=qos_sample("qos-create-response.json"))
    qos.put(QOS + "/" + QOS_ID, json=qos_sample("qos-update-response.json"))
    qos.put(QOS + "/" + QOS_ID + "/delete_keys", status_code=202)
    qos.delete(QOS + "/" + QOS_ID, status_code=202)
    for action in ("associate", "disassociate", "disassociate_all"):
        qos.get(QOS + "/" + QOS_ID + "/" + action, status_code=202)
    created = client.volume_qos.create("reliability-spec")
    assert created.consumer == "back-end"
    assert requests_to(qos, "POST", "/qos-specs")[0].json() == qos_sample(
        "qos-create-request.json"
    )
    client.volume_qos.set_keys(QOS_ID, qos_sample("qos-update-request.json")["qos_specs"])
    assert requests_to(qos, "PUT", QOS_ID)[0].json() == qos_sample("qos-update-request.json")
    client.volume_qos.unset_keys(QOS_ID, ["key1"])
    assert requests_to(qos, "PUT", "/delete_keys")[0].json() == qos_sample(
        "qos-unset-request.json"
    )
    assert client.volume_qos.get_associations(QOS_ID) == []
    client.volume_qos.associate(QOS_ID, TYPE_ID)
    client.volume_qos.disassociate(QOS_ID, TYPE_ID)
    client.volume_qos.disassociate_all(QOS_ID)
    gets = [r for r in requests_to(qos, "GET", "/qos-specs/") if "associat" in r.url]
    assert [r.qs.get("vol_type_id") for r in gets] == [None, [TYPE_ID], [TYPE_ID], None]
    client.volume_qos.delete(QOS_ID, force=True)
    assert requests_to(qos, "DELETE", QOS_ID)[0].qs == {"force": ["true"]}


def test_qos_list_and_show_columns(cli, qos):
    code, out, err = cli("volume", "qos", "list", "-f", "json")
    assert code == 0, err
    assert json.loads(out) == [
        {
            "ID": QOS_ID,
            "Name": "reliability-spec",
            "Consumer": "back-end",
            "Associations": [],
            "Properties": {},
        }
    ]
    qos.get(
        QOS + "/" + QOS_ID + "/associations",
        json={
            "qos_associations": [{"association_type": "volume_type", "name": "gold", "id": "x"}]
        },
    )
    code, out, err = cli("volume", "qos", "show", "reliability-spec", "-f", "json")
    assert code == 0, err
    shown = json.loads(out)
    assert sorted(shown) == ["associations", "consumer", "id", "name", "properties"]
    assert shown["associations"] == ["gold"]


def test_qos_create_set_unset_associate(cli, qos, cinder):
    qos.post(QOS, json=qos_sample("qos-create-response.json"))
    qos.get(
        QOS + "/599ef437-1c99-42ec-9fc6-239d0519fef1/associations",
        json=qos_sample("qos_show_response.json"),
    )
    code, out, err = cli(
        "volume", "qos", "create", "reliability-spec", "--property", "total_iops_sec=1000",
        "-f", "json",
    )  # fmt: skip
    assert code == 0, err
    assert sorted(json.loads(out)) == ["consumer", "id", "name", "properties"]
    assert requests_to(qos, "POST", "/qos-specs")[0].json() == {
        "qos_specs": {"name": "reliability-spec", "total_iops_sec": "1000", "consumer": "both"}
    }
    qos.put(QOS + "/" + QOS_ID, json={"qos_specs": {"a": "b"}})
    qos.put(QOS + "/" + QOS_ID + "/delete_keys", status_code=202)
    assert cli("volume", "qos", "set", "reliability-spec", "--property", "a=b")[0] == 0
    assert requests_to(qos, "PUT", QOS_ID)[0].json() == {"qos_specs": {"a": "b"}}
    assert cli("volume", "qos", "unset", QOS_ID, "--property", "a")[0] == 0
    assert requests_to(qos, "PUT", "/delete_keys")[0].json() == {"keys": ["a"]}
    qos.get(QOS + "/" + QOS_ID + "/associate", status_code=202)
    qos.get(QOS + "/" + QOS_ID + "/disassociate_all", status_code=202)
    assert cli("volume", "qos", "associate", QOS_ID, TYPE_ID)[0] == 0
    assert requests_to(qos, "GET", "/associate")[0].qs["vol_type_id"] == [TYPE_ID]
    assert cli("volume", "qos", "disassociate", QOS_ID, "--all")[0] == 0
    assert requests_to(qos, "GET", "/disassociate_all")


def test_qos_delete_in_use_fails(cli, qos):
    qos.delete(
        QOS + "/" + QOS_ID,
        status_code=400,
        json={"badRequest": {"code": 400, "message": "Qos specs still in use."}},
    )
    code, out, err = cli("volume", "qos", "delete", QOS_ID)
    assert code == 1 and "Qos specs still in use." in err
    assert requests_to(qos, "DELETE", QOS_ID)[0].qs == {"force": ["false"]}


@pytest.mark.parametrize(
    "argv, message",
    [
        (["volume", "qos", "create", " "], "name must be 1 to 255 characters"),
        (["volume", "qos", "create", "x", "--consumer", "middle"], "invalid choice"),
        (["volume", "qos", "set", "x"], "Nothing to set"),
        (["volume", "qos", "unset", "x"], "Nothing to unset"),
        (["volume", "qos", "disassociate", "x"], "Give one of --volume-type and --all"),
        (["volume", "qos", "disassociate", "x", "--all", "--volume-type", "t"],
         "Give one of --volume-type and --all"),
    ],
)  # fmt: skip
def test_qos_refusals_before_any_request(cli, mock_cloud, argv, message):
    code, out, err = cli(*argv)
    assert code == 2
    assert message in err
    assert no_cloud_request(mock_cloud.mock)
