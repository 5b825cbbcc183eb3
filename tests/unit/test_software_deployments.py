"""Software deployment manager, deploy/signal/delete workflow and commands."""

import json
import types
from urllib.parse import parse_qs
from urllib.parse import urlparse

import pytest

from occli import exceptions
from occli.v2.object_store import object_store
from occli.v2.orchestration import software_deployments as sd_module

from .fakes import COMPUTE
from .fakes import HEAT
from .fakes import PROJECT_ID
from .fakes import SWIFT
from .fakes import load_fixture
from .fakes import requests_to
from .test_software_configs import HEAT_404
from .test_software_configs import load_sample

SERVER_ID = "0e44cc9c-e052-415d-afbf-469b0d384170"  # server-get-resp.json
SERVER_NAME = "new-server-test"
CONFIG_ID = "ddee7aca-aa32-4335-8265-d436b20db4f1"  # config-show-response
DERIVED_ID = "8da95794-2ad9-4979-8ae5-739ce314c5cd"
DEPLOYMENT_ID = "ef422fa5-719a-419e-a10c-72e3a367b0b8"
KEY = "fixedkeyfixedkeyfixedkeyfixedkey"
NOW = 1700000000
UUIDS = ["11111111-1111-4111-8111-111111111111", "22222222-2222-4222-8222-222222222222"]
CONTAINER = "web-" + UUIDS[0]
OBJECT = UUIDS[1]
SWIFT_PATH = "/swift/v1/AUTH_" + PROJECT_ID
SIGNAL_URL = "%s/%s/%s?temp_url_sig=abc&temp_url_expires=%d" % (
    SWIFT,
    CONTAINER,
    OBJECT,
    NOW + 3600,
)
DEPLOYMENT_URL = HEAT + "/software_deployments/" + DEPLOYMENT_ID


def source_config():
    return load_sample("software-configs", "config-show-response.json")["software_config"]


def deployment(status="IN_PROGRESS", **fields):
    body = load_sample("software-deployments", "deployment-create-response.json")[
        "software_deployment"
    ]
    body.update(status=status, config_id=DERIVED_ID, server_id=SERVER_ID, **fields)
    return {"software_deployment": body}


def derived_config(
    transport="TEMP_URL_SIGNAL",
    signal_url=SIGNAL_URL,
    verb="PUT",
    server_id=SERVER_ID,
    outputs=None,
):
    inputs = [
        {"name": "foo", "type": "String", "value": "x"},
        {"name": "deploy_server_id", "type": "String", "value": server_id},
        {"name": "deploy_action", "type": "String", "value": "CREATE"},
        {"name": "deploy_signal_transport", "type": "String", "value": transport},
    ]
    if signal_url:
        inputs += [
            {"name": "deploy_signal_id", "type": "String", "value": signal_url},
            {"name": "deploy_signal_verb", "type": "String", "value": verb},
        ]
    return {
        "software_config": {
            "id": DERIVED_ID,
            "name": "web",
            "group": "script",
            "config": "",
            "inputs": inputs,
            "options": {},
            "outputs": outputs or [{"name": "result", "type": "String", "error_output": False}],
        }
    }


@pytest.fixture
def fixed(monkeypatch):
    """Deterministic uuids, key and clock for the deploy workflow."""
    ids = iter(UUIDS)
    monkeypatch.setattr(sd_module, "uuid", types.SimpleNamespace(uuid4=lambda: next(ids)))
    monkeypatch.setattr(
        object_store, "uuid", types.SimpleNamespace(uuid4=lambda: types.SimpleNamespace(hex=KEY))
    )
    monkeypatch.setattr(object_store.time, "time", lambda: NOW + 0.5)


@pytest.fixture
def cloud(mock_cloud):
    m = mock_cloud.mock
    server = load_fixture("compute", "servers", "server-get-resp.json")
    m.get(COMPUTE + "/servers/" + SERVER_ID, json=server)
    m.get(COMPUTE + "/servers/detail", json={"servers": [server["server"]]})
    m.get(
        HEAT + "/software_configs/" + CONFIG_ID,
        json=load_sample("software-configs", "config-show-response.json"),
    )
    m.get(HEAT + "/software_configs/" + DERIVED_ID, json=derived_config())
    m.post(HEAT + "/software_configs", json=derived_config())
    m.post(HEAT + "/software_deployments", json=deployment())
    m.get(DEPLOYMENT_URL, json=deployment())
    m.head(SWIFT, status_code=204)
    m.post(SWIFT, status_code=204)
    m.put(SWIFT + "/" + CONTAINER, status_code=201)
    m.put(SWIFT + "/" + CONTAINER + "/" + OBJECT, status_code=201)
    return m


def sent_json(m, method, part, index=0):
    return requests_to(m, method, part)[index].json()


# -- plain manager -------------------------------------------------------------


def test_list_parses_the_sample(client, mock_cloud):
    sample = load_sample("software-deployments", "deployments-list-response.json")
    mock_cloud.mock.get(HEAT + "/software_deployments", json=sample)
    got = list(client.software_deployments.list(server_id="srv"))
    assert [d.to_dict() for d in got] == sample["software_deployments"]
    assert got[0].output_values["result"].startswith("The file /tmp/barmy")
    assert requests_to(mock_cloud.mock, "GET", "/software_deployments")[0].qs == {
        "server_id": ["srv"]
    }


def test_list_all(client, mock_cloud):
    mock_cloud.mock.get(HEAT + "/software_deployments", json={"software_deployments": []})
    assert list(client.software_deployments.list()) == []
    assert requests_to(mock_cloud.mock, "GET", "/software_deployments")[0].qs == {}


def test_get_parses_the_sample(client, mock_cloud):
    sample = load_sample("software-deployments", "deployment-show-response.json")
    dep_id = sample["software_deployment"]["id"]
    mock_cloud.mock.get(HEAT + "/software_deployments/" + dep_id, json=sample)
    got = client.software_deployments.get(dep_id)
    assert got.to_dict() == sample["software_deployment"]
    assert got.status == "IN_PROGRESS"


def test_get_not_found(client, mock_cloud):
    mock_cloud.mock.get(
        HEAT + "/software_deployments/nosuch",
        status_code=404,
        json=dict(
            HEAT_404, error=dict(HEAT_404["error"], message="Deployment with id nosuch not found")
        ),
    )
    with pytest.raises(exceptions.NotFound) as err:
        client.software_deployments.get("nosuch")
    assert str(err.value) == "Deployment with id nosuch not found (HTTP 404)"


def test_create_sends_the_sample_request(client, mock_cloud):
    request = load_sample("software-deployments", "deployment-create-request.json")
    response = load_sample("software-deployments", "deployment-create-response.json")
    mock_cloud.mock.post(HEAT + "/software_deployments", json=response)
    got = client.software_deployments.create(
        request["config_id"],
        request["server_id"],
        action=request["action"],
        status=request["status"],
        status_reason=request["status_reason"],
        stack_user_project_id=request["stack_user_project_id"],
    )
    assert got.to_dict() == response["software_deployment"]
    assert sent_json(mock_cloud.mock, "POST", "/software_deployments") == dict(
        request, input_values={}
    )


def test_create_defaults(client, mock_cloud):
    mock_cloud.mock.post(HEAT + "/software_deployments", json=deployment())
    client.software_deployments.create("cfg", "srv", input_values={"a": 1})
    assert sent_json(mock_cloud.mock, "POST", "/software_deployments") == {
        "config_id": "cfg",
        "server_id": "srv",
        "input_values": {"a": 1},
        "action": "CREATE",
        "status": "COMPLETE",
        "status_reason": "",
    }


def test_update_sends_the_sample_request(client, mock_cloud):
    request = load_sample("software-deployments", "deployment-update-request.json")
    response = load_sample("software-deployments", "deployment-update-response.json")
    dep_id = response["software_deployment"]["id"]
    mock_cloud.mock.put(HEAT + "/software_deployments/" + dep_id, json=response)
    got = client.software_deployments.update(dep_id, **request)
    assert got.status == "COMPLETE"
    assert got.output_values == request["output_values"]
    assert sent_json(mock_cloud.mock, "PUT", dep_id) == request


def test_metadata_parses_the_sample(client, mock_cloud):
    sample = load_sample("software-deployments", "deployment-metadata-response.json")
    mock_cloud.mock.get(HEAT + "/software_deployments/metadata/" + SERVER_ID, json=sample)
    got = client.software_deployments.metadata(SERVER_ID)
    assert got == sample["metadata"]
    assert [c["id"] for c in got] == [
        "3d5ec2a8-7004-43b6-a7f6-542bdbe9d434",
        "8da95794-2ad9-4979-8ae5-739ce314c5cd",
    ]


def test_versions_sample_is_heats_version_document():
    sample = load_sample("versions", "versions-list-response.json")
    assert [v["id"] for v in sample["versions"]] == ["v1.0"]


def test_plain_delete_when_keeping_everything(client, mock_cloud):
    mock_cloud.mock.delete(DEPLOYMENT_URL, status_code=204)
    client.software_deployments.delete(DEPLOYMENT_ID, keep_config=True, keep_signal=True)
    assert [r.method for r in mock_cloud.mock.request_history if "/software_" in r.url] == [
        "DELETE"
    ]


# -- derived config -------------------------------------------------------------


def test_build_derived_config_exact_inputs():
    source = source_config()
    got = sd_module.build_derived_config(
        source,
        "web",
        {"foo": "v1", "extra": "v3"},
        "srv",
        "UPDATE",
        "TEMP_URL_SIGNAL",
        signal_id="http://signal",
    )
    assert got == {
        "name": "web",
        "group": "script",
        "config": source["config"],
        "options": {},
        "outputs": source["outputs"],
        "inputs": [
            {"default": None, "type": "String", "name": "foo", "description": None, "value": "v1"},
            {"default": None, "type": "String", "name": "bar", "description": None, "value": None},
            {"name": "extra", "type": "String", "value": "v3"},
            {
                "name": "deploy_server_id",
                "description": "ID of the server being deployed to",
                "type": "String",
                "value": "srv",
            },
            {
                "name": "deploy_action",
                "description": "Name of the current action being deployed",
                "type": "String",
                "value": "UPDATE",
            },
            {
                "name": "deploy_signal_transport",
                "description": "How the server should signal to heat with the "
                "deployment output values.",
                "type": "String",
                "value": "TEMP_URL_SIGNAL",
            },
            {
                "name": "deploy_signal_id",
                "description": "ID of signal to use for signaling output values",
                "type": "String",
                "value": "http://signal",
            },
            {
                "name": "deploy_signal_verb",
                "description": "HTTP verb to use for signaling output values",
                "type": "String",
                "value": "PUT",
            },
        ],
    }
    assert source == source_config()  # not modified


def test_build_derived_config_defaults_and_no_signal():
    source = {"inputs": [{"name": "a", "default": 5}]}
    got = sd_module.build_derived_config(source, "n", None, "srv", "CREATE", "NO_SIGNAL")
    assert got["group"] == "Heat::Ungrouped"
    assert got["config"] == "" and got["options"] == {} and got["outputs"] == []
    assert [(i["name"], i["value"]) for i in got["inputs"]] == [
        ("a", 5),
        ("deploy_server_id", "srv"),
        ("deploy_action", "CREATE"),
        ("deploy_signal_transport", "NO_SIGNAL"),
    ]
    empty = sd_module.build_derived_config(None, "n", {}, "s", "CREATE", "NO_SIGNAL")
    assert len(empty["inputs"]) == 3


@pytest.mark.parametrize("transport", ["ZAQAR_SIGNAL", "CFN_SIGNAL", "HEAT_SIGNAL", "bogus"])
def test_unsupported_transports(transport):
    with pytest.raises(exceptions.CommandError) as err:
        sd_module.build_derived_config({}, "n", {}, "s", "CREATE", transport)
    assert "Unsupported signal transport %s" % transport in str(err.value)


# -- deploy ---------------------------------------------------------------------


def test_deploy_temp_url_signal(client, cloud, fixed):
    got = client.software_deployments.deploy(
        SERVER_NAME, CONFIG_ID, name="web", input_values={"foo": "fooooo", "extra": "x"}
    )
    assert got.id == DEPLOYMENT_ID

    swift = [
        (r.method, r.url.split("?")[0]) for r in cloud.request_history if r.url.startswith(SWIFT)
    ]
    assert swift == [
        ("PUT", SWIFT + "/" + CONTAINER),
        ("HEAD", SWIFT),
        ("POST", SWIFT),
        ("PUT", SWIFT + "/" + CONTAINER + "/" + OBJECT),
    ]
    assert requests_to(cloud, "POST", SWIFT)[0].headers["X-Account-Meta-Temp-URL-Key"] == KEY
    assert requests_to(cloud, "PUT", OBJECT)[0].body in (b"", None)

    derived = sent_json(cloud, "POST", "/software_configs")
    inputs = {i["name"]: i["value"] for i in derived["inputs"]}
    signal_url = inputs.pop("deploy_signal_id")
    assert inputs == {
        "foo": "fooooo",
        "bar": None,
        "extra": "x",
        "deploy_server_id": SERVER_ID,
        "deploy_action": "CREATE",
        "deploy_signal_transport": "TEMP_URL_SIGNAL",
        "deploy_signal_verb": "PUT",
    }
    assert derived["name"] == "web" and derived["group"] == "script"
    assert derived["outputs"] == source_config()["outputs"]

    parsed = urlparse(signal_url)
    path = SWIFT_PATH + "/" + CONTAINER + "/" + OBJECT
    assert signal_url.startswith(SWIFT + "/" + CONTAINER + "/" + OBJECT + "?")
    expires = NOW + 3600
    assert parse_qs(parsed.query) == {
        "temp_url_expires": [str(expires)],
        "temp_url_sig": [object_store.temp_url_signature(KEY, "PUT", expires, path)],
    }

    assert sent_json(cloud, "POST", "/software_deployments") == {
        "config_id": DERIVED_ID,
        "server_id": SERVER_ID,
        "input_values": {"foo": "fooooo", "extra": "x"},
        "action": "CREATE",
        "status": "IN_PROGRESS",
        "status_reason": "Deploy data available",
    }


def test_deploy_uses_existing_key_given_container_and_timeout(client, cloud, fixed):
    cloud.head(SWIFT, status_code=204, headers={"X-Account-Meta-Temp-URL-Key": "existing"})
    cloud.put(SWIFT + "/mine", status_code=202)
    cloud.put(SWIFT + "/mine/" + UUIDS[0], status_code=201)
    client.software_deployments.deploy(SERVER_ID, CONFIG_ID, timeout=5, container="mine")
    assert not requests_to(cloud, "POST", SWIFT)
    derived = sent_json(cloud, "POST", "/software_configs")
    assert derived["name"] == "a-config-we5zpvyu7b5o"  # the source's name
    url = {i["name"]: i["value"] for i in derived["inputs"]}["deploy_signal_id"]
    query = parse_qs(urlparse(url).query)
    assert query["temp_url_expires"] == [str(NOW + 300)]
    assert query["temp_url_sig"] == [
        object_store.temp_url_signature(
            "existing", "PUT", NOW + 300, SWIFT_PATH + "/mine/" + UUIDS[0]
        )
    ]


def test_deploy_generated_container_name_needs_no_url_escape(client, cloud, fixed):
    """Heat reads the signal object from the temp URL path as it is (no
    unquoting), so a generated container keeps to unreserved characters."""
    cloud.head(SWIFT, status_code=204, headers={"X-Account-Meta-Temp-URL-Key": "existing"})
    container = "d-ploy-ment-a-b-q-x-y-" + UUIDS[0]
    cloud.put(SWIFT + "/" + container, status_code=201)
    cloud.put(SWIFT + "/" + container + "/" + UUIDS[1], status_code=201)
    client.software_deployments.deploy(SERVER_ID, CONFIG_ID, name="déploy ment/a%b?q#x y")
    derived = sent_json(cloud, "POST", "/software_configs")
    assert derived["name"] == "déploy ment/a%b?q#x y"
    url = {i["name"]: i["value"] for i in derived["inputs"]}["deploy_signal_id"]
    assert urlparse(url).path == SWIFT_PATH + "/" + container + "/" + UUIDS[1]


def test_deploy_no_signal(client, cloud, fixed):
    cloud.post(
        HEAT + "/software_deployments",
        json=deployment("COMPLETE", status_reason="Not waiting for outputs signal"),
    )
    got = client.software_deployments.deploy(
        SERVER_ID, CONFIG_ID, name="web", action="UPDATE", signal_transport="NO_SIGNAL"
    )
    assert got.status == "COMPLETE"
    assert not [r for r in cloud.request_history if r.url.startswith(SWIFT)]
    derived = sent_json(cloud, "POST", "/software_configs")
    assert [i["name"] for i in derived["inputs"]][-3:] == [
        "deploy_server_id",
        "deploy_action",
        "deploy_signal_transport",
    ]
    assert sent_json(cloud, "POST", "/software_deployments") == {
        "config_id": DERIVED_ID,
        "server_id": SERVER_ID,
        "input_values": {},
        "action": "UPDATE",
        "status": "COMPLETE",
        "status_reason": "Not waiting for outputs signal",
    }


def test_deploy_config_by_name(client, cloud, fixed):
    cloud.get(HEAT + "/software_configs/a-config-we5zpvyu7b5o", status_code=404, json=HEAT_404)
    cloud.get(
        HEAT + "/software_configs",
        json=load_sample("software-configs", "configs-list-response.json"),
    )
    client.software_deployments.deploy(
        SERVER_ID, "a-config-we5zpvyu7b5o", signal_transport="NO_SIGNAL"
    )
    derived = sent_json(cloud, "POST", "/software_configs")
    assert derived["config"] == source_config()["config"]


def test_deploy_rejects_unknown_transport_before_any_request(client, cloud):
    with pytest.raises(exceptions.CommandError):
        client.software_deployments.deploy(SERVER_ID, CONFIG_ID, signal_transport="ZAQAR_SIGNAL")
    assert not [
        r for r in cloud.request_history if "/software_" in r.url or r.url.startswith(SWIFT)
    ]


def test_deploy_cleans_up_when_the_deployment_fails(client, cloud, fixed):
    cloud.post(
        HEAT + "/software_deployments",
        status_code=400,
        json={
            "code": 400,
            "title": "Bad Request",
            "explanation": "",
            "error": {"type": "Invalid", "message": "nope"},
        },
    )
    cloud.delete(HEAT + "/software_configs/" + DERIVED_ID, status_code=204)
    cloud.delete(SWIFT + "/" + CONTAINER + "/" + OBJECT, status_code=204)
    with pytest.raises(exceptions.BadRequest):
        client.software_deployments.deploy(SERVER_ID, CONFIG_ID, name="web")
    assert requests_to(cloud, "DELETE", "/software_configs/" + DERIVED_ID)
    assert requests_to(cloud, "DELETE", OBJECT)


def test_deploy_unknown_server(client, cloud):
    cloud.get(COMPUTE + "/servers/detail", json={"servers": []})
    with pytest.raises(exceptions.NotFound):
        client.software_deployments.deploy("nosuch", CONFIG_ID)
    assert not requests_to(cloud, "POST", "/software_")


# -- signal ---------------------------------------------------------------------


def test_signal_puts_the_agent_payload_to_the_temp_url(client, cloud):
    cloud.get(
        DEPLOYMENT_URL,
        [
            {"json": deployment()},
            {"json": deployment("COMPLETE", status_reason="Outputs received")},
        ],
    )
    cloud.put(SWIFT + "/" + CONTAINER + "/" + OBJECT, status_code=201)
    got = client.software_deployments.signal(
        DEPLOYMENT_ID, status_code=0, stdout="out", stderr="err", outputs={"result": "42"}
    )
    assert got.status == "COMPLETE"
    put = requests_to(cloud, "PUT", OBJECT)[0]
    assert put.url == SIGNAL_URL
    assert "X-Auth-Token" not in put.headers
    assert put.json() == {
        "result": "42",
        "deploy_status_code": 0,
        "deploy_stdout": "out",
        "deploy_stderr": "err",
    }
    # after the PUT, a GET makes heat apply the signal
    methods = [
        (r.method, r.url.split("?")[0])
        for r in cloud.request_history
        if r.url.startswith(HEAT) or OBJECT in r.url
    ]
    assert methods == [
        ("GET", DEPLOYMENT_URL),
        ("GET", HEAT + "/software_configs/" + DERIVED_ID),
        ("PUT", SIGNAL_URL.split("?")[0]),
        ("GET", DEPLOYMENT_URL),
    ]


def test_signal_explicit_arguments_win_over_outputs(client, cloud):
    cloud.put(SWIFT + "/" + CONTAINER + "/" + OBJECT, status_code=201)
    client.software_deployments.signal(
        DEPLOYMENT_ID, status_code=3, outputs={"deploy_status_code": 0}
    )
    assert requests_to(cloud, "PUT", OBJECT)[0].json()["deploy_status_code"] == 3


def test_signal_refuses_a_settled_deployment(client, cloud):
    cloud.get(DEPLOYMENT_URL, json=deployment("COMPLETE"))
    with pytest.raises(sd_module.SignalError) as err:
        client.software_deployments.signal(DEPLOYMENT_ID)
    assert "is COMPLETE: only an IN_PROGRESS deployment" in str(err.value)


def test_signal_refuses_no_signal(client, cloud):
    cloud.get(
        HEAT + "/software_configs/" + DERIVED_ID, json=derived_config("NO_SIGNAL", signal_url=None)
    )
    with pytest.raises(sd_module.SignalError) as err:
        client.software_deployments.signal(DEPLOYMENT_ID)
    assert "uses NO_SIGNAL" in str(err.value)


@pytest.mark.parametrize(
    "transport, verb",
    [
        ("CFN_SIGNAL", "POST"),
        ("TEMP_URL_SIGNAL", "POST"),
        ("ZAQAR_SIGNAL", "PUT"),
        ("HEAT_SIGNAL", "PUT"),
    ],
)
def test_signal_refuses_other_transports(client, cloud, transport, verb):
    cloud.get(HEAT + "/software_configs/" + DERIVED_ID, json=derived_config(transport, verb=verb))
    with pytest.raises(sd_module.SignalError) as err:
        client.software_deployments.signal(DEPLOYMENT_ID)
    assert "can only signal TEMP_URL_SIGNAL" in str(err.value)
    assert not requests_to(cloud, "PUT", OBJECT)


def test_signal_rejected_temp_url(client, cloud):
    cloud.put(
        SWIFT + "/" + CONTAINER + "/" + OBJECT,
        status_code=401,
        text="401 Unauthorized: Temp URL invalid\n",
    )
    with pytest.raises(exceptions.Unauthorized) as err:
        client.software_deployments.signal(DEPLOYMENT_ID)
    assert "Temp URL invalid" in str(err.value)
    assert "temp_url_sig" not in (err.value.url or "")


# -- delete ----------------------------------------------------------------------


@pytest.fixture
def deletable(cloud):
    cloud.delete(DEPLOYMENT_URL, status_code=204)
    cloud.delete(HEAT + "/software_configs/" + DERIVED_ID, status_code=204)
    cloud.delete(SWIFT + "/" + CONTAINER + "/" + OBJECT, status_code=204)
    cloud.delete(SWIFT + "/" + CONTAINER, status_code=204)
    return cloud


def _deletes(m):
    return [r.url for r in m.request_history if r.method == "DELETE"]


def test_delete_removes_deployment_then_config_and_signal(client, deletable):
    client.software_deployments.delete(DEPLOYMENT_ID)
    assert _deletes(deletable) == [
        DEPLOYMENT_URL,
        SWIFT + "/" + CONTAINER + "/" + OBJECT,
        SWIFT + "/" + CONTAINER,
        HEAT + "/software_configs/" + DERIVED_ID,
    ]


def test_delete_keep_config(client, deletable):
    client.software_deployments.delete(DEPLOYMENT_ID, keep_config=True)
    assert _deletes(deletable) == [
        DEPLOYMENT_URL,
        SWIFT + "/" + CONTAINER + "/" + OBJECT,
        SWIFT + "/" + CONTAINER,
    ]


def test_delete_keep_signal(client, deletable):
    client.software_deployments.delete(DEPLOYMENT_ID, keep_signal=True)
    assert _deletes(deletable) == [DEPLOYMENT_URL, HEAT + "/software_configs/" + DERIVED_ID]


def test_delete_keeps_a_user_container_and_a_non_empty_one(client, deletable):
    url = "%s/mine/%s?temp_url_sig=a&temp_url_expires=1" % (SWIFT, OBJECT)
    deletable.get(HEAT + "/software_configs/" + DERIVED_ID, json=derived_config(signal_url=url))
    deletable.delete(SWIFT + "/mine/" + OBJECT, status_code=404, text="gone")
    client.software_deployments.delete(DEPLOYMENT_ID)
    assert _deletes(deletable) == [
        DEPLOYMENT_URL,
        SWIFT + "/mine/" + OBJECT,
        HEAT + "/software_configs/" + DERIVED_ID,
    ]
    deletable.reset_mock()
    deletable.delete(SWIFT + "/" + CONTAINER, status_code=409, text="busy")
    deletable.get(HEAT + "/software_configs/" + DERIVED_ID, json=derived_config())
    client.software_deployments.delete(DEPLOYMENT_ID)
    assert HEAT + "/software_configs/" + DERIVED_ID in _deletes(deletable)


def test_delete_never_touches_a_shared_source_config(client, deletable):
    deletable.get(
        HEAT + "/software_configs/" + DERIVED_ID, json=derived_config(server_id="another-server")
    )
    client.software_deployments.delete(DEPLOYMENT_ID)
    assert _deletes(deletable) == [DEPLOYMENT_URL]


def test_delete_with_a_missing_config(client, deletable):
    deletable.get(HEAT + "/software_configs/" + DERIVED_ID, status_code=404, json=HEAT_404)
    client.software_deployments.delete(DEPLOYMENT_ID)
    assert _deletes(deletable) == [DEPLOYMENT_URL]


def test_delete_survives_a_config_that_cannot_be_deleted(client, deletable, caplog):
    deletable.delete(
        HEAT + "/software_configs/" + DERIVED_ID,
        status_code=500,
        json={
            "code": 500,
            "title": "Internal Server Error",
            "explanation": "",
            "error": {
                "type": "InvalidRestrictedAction",
                "message": "can not be deleted as it is referenced.",
            },
        },
    )
    client.software_deployments.delete(DEPLOYMENT_ID)
    assert "was not deleted" in caplog.text


# -- commands --------------------------------------------------------------------


def test_deployment_list_command(cli, cloud):
    sample = load_sample("software-deployments", "deployments-list-response.json")
    cloud.get(HEAT + "/software_deployments", json=sample)
    code, out, err = cli(
        "software", "deployment", "list", "--server", SERVER_NAME, "--long", "-f", "json"
    )
    assert code == 0, err
    assert json.loads(out) == [
        {
            "ID": DEPLOYMENT_ID,
            "Config ID": "8da95794-2ad9-4979-8ae5-739ce314c5cd",
            "Server ID": "ec14c864-096e-4e27-bb8a-2c2b4dc6f3f5",
            "Action": "CREATE",
            "Status": "COMPLETE",
            "Creation Time": "2015-01-31T15:12:36Z",
            "Status Reason": "Outputs received",
        }
    ]
    assert requests_to(cloud, "GET", "/software_deployments")[0].qs == {"server_id": [SERVER_ID]}


def test_deployment_show_command(cli, cloud):
    code, out, err = cli("software", "deployment", "show", DEPLOYMENT_ID, "-f", "json")
    assert code == 0, err
    shown = json.loads(out)
    assert list(shown) == [
        "id",
        "server_id",
        "config_id",
        "creation_time",
        "updated_time",
        "status",
        "status_reason",
        "input_values",
        "action",
    ]
    code, out, err = cli("software", "deployment", "show", DEPLOYMENT_ID, "--long", "-f", "json")
    assert "output_values" in json.loads(out)


def test_deployment_create_command(cli, cloud, fixed):
    code, out, err = cli(
        "software",
        "deployment",
        "create",
        "web",
        "--config",
        CONFIG_ID,
        "--server",
        SERVER_NAME,
        "--input-value",
        "foo=1",
        "--input-value",
        "baz=2",
        "--action",
        "UPDATE",
        "--signal-timeout",
        "2",
        "-f",
        "json",
    )
    assert code == 0, err
    assert json.loads(out)["status"] == "IN_PROGRESS"
    derived = sent_json(cloud, "POST", "/software_configs")
    inputs = {i["name"]: i["value"] for i in derived["inputs"]}
    assert inputs["foo"] == "1" and inputs["baz"] == "2"
    assert inputs["deploy_action"] == "UPDATE"
    assert parse_qs(urlparse(inputs["deploy_signal_id"]).query)["temp_url_expires"] == [
        str(NOW + 120)
    ]
    assert sent_json(cloud, "POST", "/software_deployments")["action"] == "UPDATE"


def test_deployment_create_container_option(cli, cloud, fixed):
    cloud.put(SWIFT + "/box", status_code=201)
    cloud.put(SWIFT + "/box/" + UUIDS[0], status_code=201)
    code, out, err = cli(
        "software",
        "deployment",
        "create",
        "web",
        "--config",
        CONFIG_ID,
        "--server",
        SERVER_ID,
        "--container",
        "box",
    )
    assert code == 0, err
    assert requests_to(cloud, "PUT", SWIFT + "/box/" + UUIDS[0])


def test_deployment_create_usage_errors(cli, cloud):
    code, out, err = cli(
        "software",
        "deployment",
        "create",
        "web",
        "--config",
        CONFIG_ID,
        "--server",
        SERVER_ID,
        "--signal-transport",
        "ZAQAR_SIGNAL",
    )
    assert code == 2
    code, out, err = cli(
        "software",
        "deployment",
        "create",
        "web",
        "--config",
        CONFIG_ID,
        "--server",
        SERVER_ID,
        "--signal-transport",
        "NO_SIGNAL",
        "--container",
        "c",
    )
    assert code == 2 and "--container is only used" in err
    code, out, err = cli(
        "software",
        "deployment",
        "create",
        "web",
        "--config",
        CONFIG_ID,
        "--server",
        SERVER_ID,
        "--input-value",
        "novalue",
    )
    assert code == 2 and "--input-value expects KEY=VALUE" in err
    assert not requests_to(cloud, "POST", "/software_")


def test_deployment_create_wait_until_complete(cli, cloud, fixed):
    cloud.get(
        DEPLOYMENT_URL,
        [
            {"json": deployment()},
            {"json": deployment()},
            {"json": deployment("COMPLETE", output_values={"result": "ok"})},
        ],
    )
    code, out, err = cli(
        "software",
        "deployment",
        "create",
        "web",
        "--config",
        CONFIG_ID,
        "--server",
        SERVER_ID,
        "--wait",
        "--wait-interval",
        "0",
        "-f",
        "json",
    )
    assert code == 0, err
    shown = json.loads(out)
    assert shown["status"] == "COMPLETE"
    assert shown["output_values"] == {"result": "ok"}
    assert len(requests_to(cloud, "GET", DEPLOYMENT_URL)) == 3


def test_deployment_create_wait_failed_exits_1_with_the_reason(cli, cloud, fixed):
    reason = "deploy_status_code : Deployment exited with non-zero status code: 2"
    cloud.get(DEPLOYMENT_URL, json=deployment("FAILED", status_reason=reason))
    code, out, err = cli(
        "software",
        "deployment",
        "create",
        "web",
        "--config",
        CONFIG_ID,
        "--server",
        SERVER_ID,
        "--wait",
        "--wait-interval",
        "0",
    )
    assert code == 1
    assert "Deployment %s FAILED: %s" % (DEPLOYMENT_ID, reason) in err


def test_deployment_create_wait_timeout(cli, cloud, fixed):
    code, out, err = cli(
        "software",
        "deployment",
        "create",
        "web",
        "--config",
        CONFIG_ID,
        "--server",
        SERVER_ID,
        "--wait",
        "--wait-interval",
        "0.01",
        "--wait-timeout",
        "0.05",
    )
    assert code == 1
    assert "Timed out" in err and "IN_PROGRESS" in err


def test_deployment_metadata_show_command(cli, cloud):
    sample = load_sample("software-deployments", "deployment-metadata-response.json")
    cloud.get(HEAT + "/software_deployments/metadata/" + SERVER_ID, json=sample)
    code, out, err = cli("software", "deployment", "metadata", "show", SERVER_NAME)
    assert code == 0, err
    assert json.loads(out) == sample["metadata"]


def test_metadata_show_writes_to_the_app_stdout(app_run, cloud, capsys):
    sample = load_sample("software-deployments", "deployment-metadata-response.json")
    cloud.get(HEAT + "/software_deployments/metadata/" + SERVER_ID, json=sample)
    code, out, err = app_run("software", "deployment", "metadata", "show", SERVER_NAME)
    assert (code, err) == (0, "")
    assert json.loads(out) == sample["metadata"]
    assert capsys.readouterr() == ("", "")


OUTPUTS = {
    "deploy_stdout": "\n".join("line %d" % i for i in range(15)),
    "deploy_stderr": "",
    "deploy_status_code": 0,
    "result": "42",
    "data": {"a": [1, 2]},
}


def test_output_show_one(cli, cloud):
    cloud.get(DEPLOYMENT_URL, json=deployment("COMPLETE", output_values=OUTPUTS))
    code, out, err = cli(
        "software", "deployment", "output", "show", DEPLOYMENT_ID, "result", "-f", "value"
    )
    assert (code, out) == (0, "42\n"), err
    code, out, err = cli(
        "software", "deployment", "output", "show", DEPLOYMENT_ID, "data", "-f", "json"
    )
    assert json.loads(out) == {"data": {"a": [1, 2]}}


def test_output_show_all_truncates_logs_in_tables_unless_long(cli, cloud):
    cloud.get(DEPLOYMENT_URL, json=deployment("COMPLETE", output_values=OUTPUTS))
    code, out, err = cli("software", "deployment", "output", "show", DEPLOYMENT_ID, "--all")
    assert code == 0, err
    assert "line 4 " not in out and "line 5" in out and "line 14" in out
    assert "(truncated, view all with --long)" in out
    code, out, err = cli(
        "software", "deployment", "output", "show", DEPLOYMENT_ID, "--all", "--long"
    )
    assert "line 0" in out and "truncated" not in out
    code, out, err = cli(
        "software", "deployment", "output", "show", DEPLOYMENT_ID, "--all", "-f", "json"
    )
    assert json.loads(out) == OUTPUTS


def test_output_show_errors(cli, cloud):
    cloud.get(DEPLOYMENT_URL, json=deployment("COMPLETE", output_values=OUTPUTS))
    code, out, err = cli("software", "deployment", "output", "show", DEPLOYMENT_ID)
    assert code == 2 and "either an <output> name or --all" in err
    code, out, err = cli("software", "deployment", "output", "show", DEPLOYMENT_ID, "x", "--all")
    assert code == 2 and "either an <output> name or --all" in err
    code, out, err = cli("software", "deployment", "output", "show", DEPLOYMENT_ID, "nosuch")
    assert code == 1
    assert "Output nosuch does not exist in deployment" in err


def test_signal_command(cli, cloud, tmp_path):
    cloud.get(
        DEPLOYMENT_URL, [{"json": deployment()}, {"json": deployment("FAILED", status_reason="x")}]
    )
    cloud.put(SWIFT + "/" + CONTAINER + "/" + OBJECT, status_code=201)
    stdout = tmp_path / "out.txt"
    stdout.write_text("hello\n")
    code, out, err = cli(
        "software",
        "deployment",
        "signal",
        DEPLOYMENT_ID,
        "--status-code",
        "2",
        "--stdout",
        str(stdout),
        "--output",
        "result=r",
        "--output",
        "x=",
        "-f",
        "json",
    )
    assert code == 0, err
    assert json.loads(out)["status"] == "FAILED"
    assert requests_to(cloud, "PUT", OBJECT)[0].json() == {
        "result": "r",
        "x": "",
        "deploy_status_code": 2,
        "deploy_stdout": "hello\n",
        "deploy_stderr": "",
    }


def test_signal_command_errors(cli, cloud):
    code, out, err = cli(
        "software", "deployment", "signal", DEPLOYMENT_ID, "--stdout", "-", "--stderr", "-"
    )
    assert code == 2 and "Only one of --stdout and --stderr" in err
    cloud.get(DEPLOYMENT_URL, json=deployment("COMPLETE"))
    code, out, err = cli("software", "deployment", "signal", DEPLOYMENT_ID)
    assert code == 1 and "only an IN_PROGRESS deployment" in err


def test_delete_command(cli, deletable):
    deletable.get(HEAT + "/software_deployments/nosuch", status_code=404, json=HEAT_404)
    code, out, err = cli(
        "software", "deployment", "delete", DEPLOYMENT_ID, "nosuch", "--keep-config"
    )
    assert code == 1
    assert err.strip().splitlines() == [
        "Failed to delete deployment nosuch: Software config with id nosuch not found (HTTP 404)"
    ]
    assert DEPLOYMENT_URL in _deletes(deletable)
    assert HEAT + "/software_configs/" + DERIVED_ID not in _deletes(deletable)
