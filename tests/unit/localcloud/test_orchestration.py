"""Heat software configs/deployments of the local cloud (CONTRACT.md §4)."""

import json
import os
import time

import pytest
import requests

from occli.localcloud.orchestration.api.service import OrchestrationService
from occli.localcloud.orchestration.config_io import normalise_ios
from occli.localcloud.orchestration.signals import apply_signal
from occli.localcloud.orchestration.signals import parse_signal_url
from occli.localcloud.orchestration.signals import write_signal
from tests.unit.localcloud.heat_swift_harness import make_temp_url

FIXTURES = os.path.join(
    os.path.dirname(__file__), os.pardir, os.pardir, "fixtures", "orchestration"
)


def sample(*parts):
    """An orchestration sample; the list sample's trailing comma is stripped."""
    with open(os.path.join(FIXTURES, *parts)) as f:
        text = f.read()
    return json.loads(text.replace('",\n    }]', '"\n    }]'))


def same_shape(actual, expected, path="$"):
    """Same keys (recursively) and JSON value types as ``expected``."""
    if isinstance(expected, dict):
        assert isinstance(actual, dict), path
        assert set(actual) == set(expected), (path, set(actual) ^ set(expected))
        for key in expected:
            same_shape(actual[key], expected[key], "%s.%s" % (path, key))
    elif isinstance(expected, list):
        assert isinstance(actual, list), path
        if expected and actual:
            for item in actual:
                same_shape(item, expected[0], path + "[]")
    elif isinstance(expected, bool) or expected is None:
        assert type(actual) is type(expected), (path, actual, expected)
    elif isinstance(expected, (int, float)):
        assert isinstance(actual, (int, float)) and not isinstance(actual, bool), (path, actual)
    else:
        assert isinstance(actual, str), (path, actual)


def drop_nulls(io_list):
    return [{k: v for k, v in i.items() if v is not None} for i in io_list]


def heat(user, method, path, **kwargs):
    return requests.request(method, user.heat + path, headers=user.headers, **kwargs)


def create_config(user, **body):
    body.setdefault("name", "cfg")
    resp = heat(user, "POST", "/software_configs", json=body)
    assert resp.status_code == 200, resp.text
    return resp.json()["software_config"]


def create_deployment(user, config_id, **body):
    body.setdefault("server_id", "server-1")
    resp = heat(user, "POST", "/software_deployments", json={"config_id": config_id, **body})
    assert resp.status_code == 200, resp.text
    return resp.json()["software_deployment"]


def assert_heat_error(resp, status, type_, message=None):
    assert resp.status_code == status, resp.text
    body = resp.json()
    assert set(body) == {"code", "title", "explanation", "error"}
    assert body["code"] == status
    assert body["error"]["type"] == type_
    assert body["error"]["traceback"] is None
    if message is not None:
        assert body["error"]["message"] == message


# -- framework ---------------------------------------------------------------


def test_versions(env):
    resp = requests.get(env.url + "/orchestration/")
    assert resp.status_code == 300
    same_shape(resp.json(), sample("versions", "versions-list-response.json"))
    assert resp.json()["versions"][0]["links"][0]["href"] == (env.url + "/orchestration/v1/")


def test_auth_and_project_checks(env):
    resp = requests.get(env.demo.heat + "/software_configs")
    assert resp.status_code == 401
    assert resp.json()["error"]["title"] == "Unauthorized"
    resp = requests.get(env.admin.heat + "/software_configs", headers=env.demo.headers)
    assert_heat_error(resp, 403, "HTTPForbidden")
    assert resp.json()["title"] == "Forbidden"
    resp = requests.get(env.demo.heat + "/software_configs", headers=env.admin.headers)
    assert resp.status_code == 200
    assert_heat_error(heat(env.demo, "GET", "/nothing"), 404, "HTTPNotFound")
    assert_heat_error(
        heat(env.demo, "POST", "/software_configs", data=b"{oops"), 400, "HTTPBadRequest"
    )


# -- software configs --------------------------------------------------------


def test_config_create_normalises_like_heat(env):
    request = sample("software-configs", "config-create-request.json")
    resp = heat(env.demo, "POST", "/software_configs", json=request)
    assert resp.status_code == 200
    config = resp.json()["software_config"]
    assert config["options"] == {}
    assert config["inputs"] == [
        {"name": "foo", "type": "String"},
        {"name": "bar", "type": "String"},
    ]
    assert config["outputs"] == [{"name": "result", "type": "String", "error_output": False}]
    assert "updated_time" not in config

    expected = sample("software-configs", "config-create-response.json")
    expected["software_config"]["options"] = {}
    for key in ("inputs", "outputs"):
        expected["software_config"][key] = drop_nulls(expected["software_config"][key])
    same_shape(resp.json(), expected)
    shown = heat(env.demo, "GET", "/software_configs/" + config["id"]).json()
    assert shown == resp.json()
    show_sample = sample("software-configs", "config-show-response.json")
    show_sample["software_config"].update(
        options={},
        inputs=expected["software_config"]["inputs"],
        outputs=expected["software_config"]["outputs"],
    )
    same_shape(shown, show_sample)


def test_config_io_rules():
    ins, outs = normalise_ios(
        [
            {"name": "a"},
            {
                "name": "b",
                "type": "Number",
                "default": "5",
                "replace_on_change": True,
                "description": "d",
            },
            {
                "name": "c",
                "type": "Boolean",
                "default": "TRUE",
                "replace_on_change": False,
                "value": None,
            },
            {"name": "d", "type": "CommaDelimitedList", "default": "x, y"},
            {"name": "e", "type": "Json", "default": '{"k": 1}', "value": 3},
            {"name": "f", "type": "String", "default": 7},
            {"name": "g", "type": "Number", "default": ""},
            {"name": "h", "default": [1]},
        ],
        [
            {"name": "o", "error_output": "true", "description": None},
            {"name": "p", "type": "Json"},
        ],
    )
    assert ins == [
        {"name": "a", "type": "String"},
        {
            "name": "b",
            "description": "d",
            "type": "Number",
            "default": 5,
            "replace_on_change": True,
        },
        {"name": "c", "type": "Boolean", "default": True, "value": None},
        {"name": "d", "type": "CommaDelimitedList", "default": ["x", "y"]},
        {"name": "e", "type": "Json", "default": {"k": 1}, "value": 3},
        {"name": "f", "type": "String", "default": "7"},
        {"name": "g", "type": "Number", "default": ""},
        {"name": "h", "type": "String", "default": [1]},
    ]
    assert outs == [
        {"name": "o", "type": "String", "error_output": True},
        {"name": "p", "type": "Json", "error_output": False},
    ]
    assert normalise_ios(None, None) == ([], [])


@pytest.mark.parametrize(
    "inputs,outputs,status,type_,fragment",
    [
        ([{"type": "String"}], [], 400, "ValueError", "name not assigned"),
        (
            [{"name": "a", "type": "Float"}],
            [],
            400,
            "ValueError",
            '"Float" is not an allowed value',
        ),
        ([{"name": "a", "type": "Number", "default": "abc"}], [], 400, "ValueError", "default"),
        (
            [{"name": "a", "type": "Boolean", "default": "yes"}],
            [],
            400,
            "ValueError",
            "not a valid boolean",
        ),
        ([{"name": "a", "bogus": 1}], [], 400, "ValueError", "Unknown Property bogus"),
        ([], [{"name": "o", "value": 1}], 400, "ValueError", "Unknown Property value"),
        ([], [{"description": "x"}], 400, "ValueError", "name not assigned"),
        ({"name": "a"}, [], 500, "TypeError", "must be in a list"),
        (["a"], [], 500, "TypeError", "must be a dict"),
        ([], "o", 500, "TypeError", "must be in a list"),
    ],
)
def test_config_validation_errors(env, inputs, outputs, status, type_, fragment):
    resp = heat(
        env.demo,
        "POST",
        "/software_configs",
        json={"name": "x", "inputs": inputs, "outputs": outputs},
    )
    assert_heat_error(resp, status, type_)
    assert fragment in resp.json()["error"]["message"]


def test_config_list_order_paging_and_admin_view(env):
    alt = env.alt
    ids = [create_config(alt, name="l%d" % i, group="script", config="x")["id"] for i in range(4)]
    resp = heat(alt, "GET", "/software_configs")
    listed = resp.json()["software_configs"]
    assert [c["id"] for c in listed] == ids[::-1]
    list_sample = sample("software-configs", "configs-list-response.json")
    same_shape(resp.json(), list_sample)

    page = heat(alt, "GET", "/software_configs", params={"limit": 2, "marker": ids[3]}).json()
    assert [c["id"] for c in page["software_configs"]] == [ids[2], ids[1]]
    assert heat(alt, "GET", "/software_configs", params={"limit": 0}).json() == {
        "software_configs": []
    }
    for bad in ("-1", "x"):
        assert_heat_error(
            heat(alt, "GET", "/software_configs", params={"limit": bad}), 400, "ValueError"
        )

    demo_ids = {
        c["id"] for c in heat(env.demo, "GET", "/software_configs").json()["software_configs"]
    }
    assert not demo_ids & set(ids)
    admin_view = heat(env.admin, "GET", "/software_configs").json()
    mine = [c for c in admin_view["software_configs"] if c["id"] in ids]
    assert len(mine) == 4
    assert all(c["project"] == alt.project for c in mine)


def test_config_show_and_delete(env):
    config = create_config(env.demo)
    resp = heat(env.alt, "GET", "/software_configs/" + config["id"])
    assert_heat_error(resp, 404, "NotFound", "Software config with id %s not found" % config["id"])
    assert heat(env.admin, "GET", "/software_configs/" + config["id"]).status_code == 200
    resp = heat(env.demo, "DELETE", "/software_configs/" + config["id"])
    assert resp.status_code == 204 and resp.content == b""
    assert_heat_error(heat(env.demo, "GET", "/software_configs/" + config["id"]), 404, "NotFound")
    assert_heat_error(
        heat(env.demo, "DELETE", "/software_configs/" + config["id"]), 404, "NotFound"
    )


def test_referenced_config_cannot_be_deleted(env):
    config = create_config(env.demo)
    deployment = create_deployment(env.demo, config["id"])
    resp = heat(env.demo, "DELETE", "/software_configs/" + config["id"])
    assert_heat_error(
        resp,
        500,
        "InvalidRestrictedAction",
        "Software config with id %s can not be deleted as it is referenced." % config["id"],
    )
    heat(env.demo, "DELETE", "/software_deployments/" + deployment["id"])
    assert heat(env.demo, "DELETE", "/software_configs/" + config["id"]).status_code == 204


def test_per_project_caps(env, monkeypatch):
    used_configs = len(heat(env.alt, "GET", "/software_configs").json()["software_configs"])
    monkeypatch.setattr(OrchestrationService, "max_software_configs_per_tenant", used_configs + 1)
    config = create_config(env.alt)
    resp = heat(env.alt, "POST", "/software_configs", json={"name": "over"})
    assert_heat_error(resp, 400, "RequestLimitExceeded")
    assert "maximum software configs per tenant" in resp.json()["error"]["message"]
    monkeypatch.setattr(OrchestrationService, "max_software_configs_per_tenant", 0)
    create_config(env.admin)

    used = len(heat(env.alt, "GET", "/software_deployments").json()["software_deployments"])
    monkeypatch.setattr(OrchestrationService, "max_software_deployments_per_tenant", used + 1)
    create_deployment(env.alt, config["id"])
    resp = heat(
        env.alt,
        "POST",
        "/software_deployments",
        json={"config_id": config["id"], "server_id": "s"},
    )
    assert_heat_error(resp, 400, "RequestLimitExceeded")


# -- software deployments ----------------------------------------------------


def test_deployment_create_quirks(env):
    config = create_config(env.demo)
    request = sample("software-deployments", "deployment-create-request.json")
    request["config_id"] = config["id"]
    # the sample's stack user project is not the caller's: 403 here
    request["stack_user_project_id"] = env.demo.project
    resp = heat(env.demo, "POST", "/software_deployments", json=request)
    assert resp.status_code == 200
    deployment = resp.json()["software_deployment"]
    assert "updated_time" not in deployment
    assert deployment["output_values"] is None
    assert deployment["status_reason"] == "Deploy data available"
    expected = sample("software-deployments", "deployment-create-response.json")
    del expected["software_deployment"]["updated_time"]
    same_shape(resp.json(), expected)

    bare = create_deployment(env.demo, config["id"])
    assert bare["status_reason"] == "None"
    assert bare["action"] is None and bare["status"] is None

    resp = heat(
        env.demo, "POST", "/software_deployments", json={"config_id": "nope", "server_id": "s"}
    )
    assert_heat_error(resp, 400, "Invalid", "Config with id nope not found")
    resp = heat(
        env.demo,
        "POST",
        "/software_deployments",
        json={"config_id": config["id"], "server_id": "s", "stack_user_project_id": "p" * 65},
    )
    assert_heat_error(resp, 400, "Invalid")
    assert create_deployment(env.admin, config["id"], stack_user_project_id="p" * 64)


def test_deployment_update_show_delete(env):
    config = create_config(env.demo)
    other = create_config(env.demo, name="other")
    deployment = create_deployment(
        env.demo,
        config["id"],
        action="CREATE",
        status="IN_PROGRESS",
        status_reason="Deploy data available",
    )
    path = "/software_deployments/" + deployment["id"]
    update = sample("software-deployments", "deployment-update-request.json")
    update.update(status=None, action="", input_values={}, config_id=other["id"])
    resp = heat(env.demo, "PUT", path, json=update)
    assert resp.status_code == 200
    updated = resp.json()["software_deployment"]
    assert updated["status"] == "IN_PROGRESS"  # nothing derived from outputs
    assert updated["action"] == "CREATE"  # falsy and null values ignored
    assert updated["input_values"] is None
    assert updated["config_id"] == other["id"]
    assert updated["output_values"] == update["output_values"]
    assert updated["status_reason"] == "Outputs received"
    assert "updated_time" in updated
    same_shape(resp.json(), sample("software-deployments", "deployment-update-response.json"))
    resp = heat(env.demo, "GET", path)
    assert resp.json()["software_deployment"] == updated
    show = sample("software-deployments", "deployment-show-response.json")
    show["software_deployment"]["output_values"] = update["output_values"]
    same_shape(resp.json(), show)

    assert_heat_error(heat(env.demo, "PUT", path, json={"config_id": "zz"}), 400, "Invalid")
    assert_heat_error(
        heat(env.alt, "GET", path),
        404,
        "NotFound",
        "Deployment with id %s not found" % deployment["id"],
    )
    assert heat(env.demo, "DELETE", path).status_code == 204
    assert_heat_error(heat(env.demo, "GET", path), 404, "NotFound")
    assert_heat_error(heat(env.demo, "DELETE", path), 404, "NotFound")


def test_deployment_list_and_stack_user_project_visibility(env):
    """Only an admin may name another project as stack user project
    (tests/security/test_heat_stack_user_project.py); it sees the
    deployment."""
    config = create_config(env.demo)
    first = create_deployment(
        env.demo, config["id"], server_id="vis-1", action="CREATE", status="IN_PROGRESS"
    )
    second = create_deployment(
        env.demo, config["id"], server_id="vis-1", stack_user_project_id=env.demo.project
    )
    shared = create_deployment(
        env.admin, config["id"], server_id="vis-1", stack_user_project_id=env.alt.project
    )
    create_deployment(env.demo, config["id"], server_id="vis-2")
    list_sample = sample("software-deployments", "deployments-list-response.json")
    heat(
        env.demo,
        "PUT",
        "/software_deployments/" + first["id"],
        json={
            "status": "COMPLETE",
            "status_reason": "Outputs received",
            "output_values": list_sample["software_deployments"][0]["output_values"],
        },
    )
    resp = heat(env.demo, "GET", "/software_deployments", params={"server_id": "vis-1"})
    listed = resp.json()["software_deployments"]
    assert [d["id"] for d in listed] == [first["id"], second["id"]]
    same_shape({"software_deployments": listed[:1]}, list_sample)

    alt_view = heat(env.alt, "GET", "/software_deployments", params={"server_id": "vis-1"}).json()
    assert [d["id"] for d in alt_view["software_deployments"]] == [shared["id"]]
    assert heat(env.alt, "GET", "/software_deployments/" + shared["id"]).status_code == 200
    assert heat(env.alt, "GET", "/software_deployments/" + first["id"]).status_code == 404


def test_metadata_orders_by_config_name_then_creation(env):
    def config(name):
        return create_config(
            env.demo,
            name=name,
            group="script",
            config="#!/bin/sh",
            inputs=[{"name": "foo", "value": name}],
            outputs=[{"name": "result"}],
        )

    b = config("b")
    a_late = config("a")  # older config, deployed last
    a_early = config("a")  # newer config, deployed first
    server = "meta-server"
    for cfg in (b, a_early, a_late):
        create_deployment(env.demo, cfg["id"], server_id=server)
    create_deployment(env.demo, config("0")["id"], server_id="elsewhere")
    resp = heat(env.demo, "GET", "/software_deployments/metadata/" + server)
    assert resp.status_code == 200
    metadata = resp.json()["metadata"]
    assert [m["id"] for m in metadata] == [a_early["id"], a_late["id"], b["id"]]
    assert (
        metadata[0]
        == heat(env.demo, "GET", "/software_configs/" + a_early["id"]).json()["software_config"]
    )
    expected = sample("software-deployments", "deployment-metadata-response.json")
    for item in expected["metadata"]:
        del item["updated_time"]  # documented sample defect
        item["options"] = {}
        item["inputs"] = drop_nulls(item["inputs"])
        item["outputs"] = drop_nulls(item["outputs"])
    same_shape(resp.json(), expected)
    assert heat(env.demo, "GET", "/software_deployments/metadata/none").json() == {"metadata": []}


# -- signals -----------------------------------------------------------------

CONFIG = {
    "outputs": [
        {"name": "result", "error_output": False},
        {"name": "failure", "error_output": True},
        {"name": "other_error", "error_output": True},
    ]
}


def test_apply_signal_ignored_unless_in_progress():
    for status in ("COMPLETE", "FAILED", None):
        assert apply_signal({"status": status}, CONFIG, {"deploy_status_code": 1}) == {}


def test_apply_signal_success_stores_declared_outputs_only():
    changes = apply_signal(
        {"status": "IN_PROGRESS", "output_values": {"kept": 1, "result": 0}},
        CONFIG,
        {"result": "r", "undeclared": "x", "deploy_stdout": "out", "deploy_status_code": "0"},
    )
    assert changes == {
        "status": "COMPLETE",
        "status_reason": "Outputs received",
        "output_values": {
            "kept": 1,
            "result": "r",
            "deploy_stdout": "out",
            "deploy_stderr": None,
            "deploy_status_code": "0",
        },
    }


@pytest.mark.parametrize("code", [None, 0, "0", "", False])
def test_apply_signal_zero_like_status_codes_succeed(code):
    details = {} if code is None else {"deploy_status_code": code}
    changes = apply_signal({"status": "IN_PROGRESS"}, CONFIG, details)
    assert changes["status"] == "COMPLETE"
    assert changes["output_values"]["deploy_status_code"] == code


def test_apply_signal_non_zero_status_code_fails():
    changes = apply_signal({"status": "IN_PROGRESS"}, CONFIG, {"deploy_status_code": 3})
    assert changes["status"] == "FAILED"
    assert changes["status_reason"] == (
        "deploy_status_code : Deployment exited with non-zero status code: 3"
    )
    assert changes["output_values"] == {
        "deploy_stdout": None,
        "deploy_stderr": None,
        "deploy_status_code": 3,
    }


def test_apply_signal_error_outputs_fail_and_reasons_are_joined():
    changes = apply_signal(
        {"status": "IN_PROGRESS"},
        CONFIG,
        {"deploy_status_code": 2, "other_error": "bad", "failure": None, "result": "r"},
    )
    assert changes["status"] == "FAILED"
    assert changes["status_reason"] == (
        "deploy_status_code : Deployment exited with non-zero status code: 2"
        ", failure : None, other_error : bad"
    )
    assert changes["output_values"]["failure"] is None
    assert changes["output_values"]["result"] == "r"


def test_apply_signal_with_no_details():
    changes = apply_signal({"status": "IN_PROGRESS"}, {"outputs": None}, None)
    assert changes["status"] == "COMPLETE"
    assert changes["output_values"] == dict.fromkeys(
        ("deploy_stdout", "deploy_stderr", "deploy_status_code")
    )


def test_parse_signal_url():
    assert parse_signal_url("http://h:1/object-store/v1/AUTH_p/c/o?temp_url_sig=x") == (
        "AUTH_p",
        "c",
        "o",
    )
    assert parse_signal_url("http://h/v1/AUTH_p/c/o%20x") == ("AUTH_p", "c", "o x")
    assert parse_signal_url("http://h/v1/signal/arn") is None
    assert parse_signal_url(None) is None


def signal_setup(env, container, outputs):
    """A derived config + IN_PROGRESS deployment signalled via a temp URL."""
    demo = env.demo
    put_url = make_temp_url(env, demo, container, "signal", path_form="full")
    assert requests.put(put_url, data=b"").status_code == 201
    config = create_config(
        demo,
        name="derived",
        group="script",
        inputs=[
            {"name": "deploy_signal_transport", "value": "TEMP_URL_SIGNAL"},
            {"name": "deploy_signal_id", "value": put_url},
            {"name": "deploy_signal_verb", "value": "PUT"},
        ],
        outputs=outputs,
    )
    deployment = create_deployment(
        demo,
        config["id"],
        action="CREATE",
        status="IN_PROGRESS",
        status_reason="Deploy data available",
    )
    return put_url, "/software_deployments/" + deployment["id"]


def get_deployment(env, path):
    resp = heat(env.demo, "GET", path)
    assert resp.status_code == 200, resp.text
    return resp.json()["software_deployment"]


def test_temp_url_signal_completes_deployment(env):
    put_url, path = signal_setup(env, "sig-ok", [{"name": "result"}])
    assert get_deployment(env, path)["status"] == "IN_PROGRESS"  # empty object
    signal = {
        "result": "done",
        "extra": 1,
        "deploy_stdout": "ok",
        "deploy_stderr": "",
        "deploy_status_code": 0,
    }
    assert requests.put(put_url, data=json.dumps(signal)).status_code == 201
    deployment = get_deployment(env, path)
    assert deployment["status"] == "COMPLETE"
    assert deployment["status_reason"] == "Outputs received"
    assert deployment["output_values"] == {
        "result": "done",
        "deploy_stdout": "ok",
        "deploy_stderr": "",
        "deploy_status_code": 0,
    }
    assert "updated_time" in deployment

    failing = {"deploy_status_code": 1}
    requests.put(put_url, data=json.dumps(failing))
    assert get_deployment(env, path) == deployment  # no longer IN_PROGRESS


def test_temp_url_signal_with_error_output_fails_deployment(env):
    put_url, path = signal_setup(
        env, "sig-fail", [{"name": "result"}, {"name": "err", "error_output": True}]
    )
    requests.put(put_url, data=json.dumps({"err": "disk full", "deploy_status_code": 4}))
    deployment = get_deployment(env, path)
    assert deployment["status"] == "FAILED"
    assert deployment["status_reason"] == (
        "deploy_status_code : Deployment exited with non-zero status code: 4, err : disk full"
    )
    assert deployment["output_values"]["err"] == "disk full"


def test_signal_older_than_last_update_is_not_applied(env):
    put_url, path = signal_setup(env, "sig-old", [{"name": "result"}])
    requests.put(put_url, data=json.dumps({"result": "first"}))
    time.sleep(0.01)
    resp = heat(env.demo, "PUT", path, json={"status_reason": "re-armed"})
    assert resp.json()["software_deployment"]["status"] == "IN_PROGRESS"
    deployment = get_deployment(env, path)
    assert deployment["status"] == "IN_PROGRESS"
    assert deployment["output_values"] is None

    requests.put(put_url, data=json.dumps({"result": "second"}))
    deployment = get_deployment(env, path)
    assert deployment["status"] == "COMPLETE"
    assert deployment["output_values"]["result"] == "second"

    resp = heat(env.demo, "PUT", path, json={"status": "IN_PROGRESS"})
    assert resp.json()["software_deployment"]["status"] == "IN_PROGRESS"
    assert get_deployment(env, path)["status"] == "IN_PROGRESS"


def test_signal_write_is_conditional_on_the_row_as_read(env):
    """A poll writes through its own transaction, only onto the deployment
    it read: a second poll of the same stale row, or one after an update,
    changes nothing and gets the stored row back."""
    _, path = signal_setup(env, "sig-race", [{"name": "result"}])
    deployment_id = path.rsplit("/", 1)[1]

    def read():
        with env.cloud.store.transaction() as db:
            return db.execute(
                "SELECT * FROM heat_software_deployments WHERE id = ?", (deployment_id,)
            ).fetchone()

    def signal(row, result, ts):
        return write_signal(
            env.cloud.store,
            row,
            {
                "status": "COMPLETE",
                "status_reason": "Outputs received",
                "output_values": {"result": result},
            },
            ts,
        )

    stale = read()
    first = signal(stale, "first", stale["created_at"] + 1)
    assert first["status"] == "COMPLETE"
    assert dict(signal(stale, "twice", stale["created_at"] + 2)) == dict(first)

    heat(env.demo, "PUT", path, json={"status": "IN_PROGRESS"})
    armed = read()
    heat(env.demo, "PUT", path, json={"status_reason": "updated meanwhile"})
    after = signal(armed, "late", armed["updated_at"] + 1)
    assert after["status"] == "IN_PROGRESS"
    assert after["status_reason"] == "updated meanwhile"
    assert json.loads(after["output_values"]) == {"result": "first"}


def test_signal_only_for_temp_url_transport(env):
    put_url = make_temp_url(env, env.demo, "sig-none", "signal")
    requests.put(put_url, data=json.dumps({"deploy_status_code": 0}))
    config = create_config(
        env.demo,
        inputs=[
            {"name": "deploy_signal_transport", "value": "HEAT_SIGNAL"},
            {"name": "deploy_signal_id", "value": put_url},
        ],
    )
    deployment = create_deployment(env.demo, config["id"], status="IN_PROGRESS")
    assert (
        get_deployment(env, "/software_deployments/" + deployment["id"])["status"] == "IN_PROGRESS"
    )


# -- template validation (POST /validate) ------------------------------------


def test_validate_a_software_config_template_like_heatclient_sends(env):
    """heatclient's ``software config create`` validates first."""
    template = {
        "heat_template_version": "2013-05-23",
        "resources": {
            "cfg": {
                "type": "OS::Heat::SoftwareConfig",
                "properties": {
                    "group": "script",
                    "config": "#!/bin/sh\n",
                    "inputs": [],
                    "outputs": [],
                    "options": {},
                },
            }
        },
    }
    resp = heat(env.demo, "POST", "/validate", json={"template": template})
    assert resp.status_code == 200, resp.text
    assert resp.json() == {
        "Description": "No description",
        "Parameters": {},
        "Environment": {
            "parameters": {},
            "resource_registry": {"resources": {}},
            "parameter_defaults": {},
            "event_sinks": [],
        },
    }
    text = (
        "heat_template_version: 2018-08-31\ndescription: d\n"
        "parameters:\n  p: {type: string, default: x}\n"
        "resources:\n  s: {type: OS::Nova::Server}\n"
    )
    resp = heat(env.demo, "POST", "/validate", json={"template": text})
    assert resp.status_code == 200, resp.text
    assert resp.json()["Description"] == "d"
    assert resp.json()["Parameters"]["p"]["Default"] == "x"


@pytest.mark.parametrize(
    "body, message",
    [
        # a missing version (InvalidTemplateVersion) and property values (not
        # checked by /validate) as the real Heat answers them:
        # tests/unit/localcloud/heat/test_realcloud_replay_api.py
        ({}, "No template specified"),
        (
            {"template": {"heat_template_version": "2013-05-23", "bogus": 1}},
            "The template section is invalid: bogus",
        ),
        (
            {
                "template": {
                    "heat_template_version": "2013-05-23",
                    "resources": {
                        "c": {"type": "OS::Heat::SoftwareConfig", "properties": {"nope": 1}}
                    },
                }
            },
            "Property error: resources.c.properties: Unknown Property nope",
        ),
    ],
)
def test_validate_rejections_are_400(env, body, message):
    resp = heat(env.demo, "POST", "/validate", json=body)
    assert_heat_error(resp, 400, "HTTPBadRequest", message)
