"""``OS::Heat::WaitCondition`` and ``OS::Heat::WaitConditionHandle`` in
stacks run by the local engine: signals counted, failures and timeouts
with Heat's texts, the TOKEN_SIGNAL attributes."""

import json
import time
from typing import Any

import pytest
import requests

from occli.localcloud.orchestration.engine import stacks
from occli.localcloud.orchestration.engine.resources.openstack.heat import wait_condition_handle
from tests.unit.localcloud.heat import harness


@pytest.fixture(scope="module")
def cloud():
    fixture = harness.start()
    yield fixture
    fixture.stop()


@pytest.fixture
def ctx(cloud):
    return harness.context(cloud)


def tmpl(count=1, timeout=60, transport=None):
    handle: dict[str, Any] = {"type": "OS::Heat::WaitConditionHandle"}
    if transport:
        handle["properties"] = {"signal_transport": transport}
    return {
        "heat_template_version": "2018-08-31",
        "resources": {
            "handle": handle,
            "wait": {
                "type": "OS::Heat::WaitCondition",
                "properties": {
                    "handle": {"get_resource": "handle"},
                    "count": count,
                    "timeout": timeout,
                },
            },
        },
        "outputs": {
            "data": {"value": {"get_attr": ["wait", "data"]}},
            "curl": {"value": {"get_attr": ["handle", "curl_cli"]}},
            "token": {"value": {"get_attr": ["handle", "token"]}},
            "endpoint": {"value": {"get_attr": ["handle", "endpoint"]}},
        },
    }


def start(cloud, ctx, name, template):
    engine = harness.engine(cloud)
    return engine.create_stack(ctx, name, template, {}, {}, {}, {"disable_rollback": True})["id"]


def handle_created(cloud, stack_id):
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        found = harness.resources(cloud, stack_id).get("handle")
        if found and found["status"] == "COMPLETE":
            return found
        time.sleep(0.02)
    raise AssertionError("the handle was never created")


def outputs(cloud, ctx, stack_id):
    with cloud.cloud.store.read() as db:
        found = harness.engine(cloud).outputs(db, ctx, harness.row(cloud, stack_id))
    return {o["output_key"]: o.get("output_value") for o in found}


def test_count_success_signals_complete_the_wait(cloud, ctx):
    stack_id = start(cloud, ctx, "waits", tmpl(count=2))
    handle_created(cloud, stack_id)
    engine = harness.engine(cloud)
    assert engine.signal(ctx, stack_id, "handle", {"data": "one"}) == (
        "status:SUCCESS reason:Signal 1 received"
    )
    assert harness.row(cloud, stack_id)["status"] == "IN_PROGRESS"  # 1 of 2
    engine.signal(
        ctx, stack_id, "handle", {"status": "SUCCESS", "reason": "r2", "data": "two", "id": "x"}
    )
    row = harness.wait(cloud, stack_id)
    assert (row["action"], row["status"]) == ("CREATE", "COMPLETE"), row["status_reason"]
    out = outputs(cloud, ctx, stack_id)
    assert json.loads(out["data"]) == {"1": "one", "x": "two"}
    handle = harness.resources(cloud, stack_id)["handle"]
    with cloud.cloud.store.read() as db:
        assert stacks.metadata(db, handle["id"]) == {
            "1": {"data": "one", "reason": "Signal 1 received", "status": "SUCCESS"},
            "x": {"data": "two", "reason": "r2", "status": "SUCCESS"},
        }


def test_token_signal_attributes(cloud, ctx):
    stack_id = start(cloud, ctx, "tokens", tmpl())
    handle = handle_created(cloud, stack_id)
    out = outputs(cloud, ctx, stack_id)
    path = "/orchestration/v1/%s/stacks/tokens/%s/resources/handle/signal" % (
        ctx.project_id,
        stack_id,
    )
    assert out["endpoint"].endswith(path)
    assert out["curl"] == (
        "curl -i -X POST -H 'X-Auth-Token: %s' -H 'Content-Type: application/json' "
        "-H 'Accept: application/json' %s" % (out["token"], out["endpoint"])
    )
    with cloud.cloud.store.read() as db:
        data = stacks.data(db, handle["id"])
        assert "token" in stacks.redacted_keys(db, handle["id"])
    assert wait_condition_handle.token_matches(data, out["token"])
    assert not wait_condition_handle.token_matches(data, out["token"] + "x")
    assert not wait_condition_handle.token_matches({}, out["token"])
    harness.engine(cloud).signal(ctx, stack_id, "handle", None)
    assert harness.wait(cloud, stack_id)["status"] == "COMPLETE"


def test_failure_signal_fails_the_wait_with_its_reason(cloud, ctx):
    stack_id = start(cloud, ctx, "waitfail", tmpl(count=3))
    handle_created(cloud, stack_id)
    harness.engine(cloud).signal(
        ctx, stack_id, "handle", {"status": "FAILURE", "reason": "no disk"}
    )
    row = harness.wait(cloud, stack_id)
    assert (row["action"], row["status"]) == ("CREATE", "FAILED")
    assert "WaitConditionFailure" in row["status_reason"]
    assert "no disk" in row["status_reason"]


def test_invalid_signal_is_refused(cloud, ctx):
    stack_id = start(cloud, ctx, "waitbad", tmpl())
    handle_created(cloud, stack_id)
    with pytest.raises(ValueError) as caught:
        harness.engine(cloud).signal(ctx, stack_id, "handle", {"status": "MAYBE"})
    assert str(caught.value) == "Metadata format invalid"
    harness.engine(cloud).delete_stack(ctx, stack_id)
    assert harness.wait(cloud, stack_id, action="DELETE")["status"] == "COMPLETE"


def test_timeout_counts_what_arrived(cloud, ctx):
    stack_id = start(cloud, ctx, "waittimeout", tmpl(count=2, timeout=1))
    handle_created(cloud, stack_id)
    harness.engine(cloud).signal(ctx, stack_id, "handle", {"reason": "first"})
    row = harness.wait(cloud, stack_id)
    assert (row["action"], row["status"]) == ("CREATE", "FAILED")
    assert "WaitConditionTimeout" in row["status_reason"]
    assert "1 of 2 received - first" in row["status_reason"]


def test_no_signal_handle_is_signalled_by_itself(cloud, ctx):
    row = harness.wait(cloud, start(cloud, ctx, "waitnone", tmpl(transport="NO_SIGNAL")))
    assert row["status"] == "COMPLETE", row["status_reason"]
    out = outputs(cloud, ctx, row["id"])
    assert out["curl"] is None and out["token"] is None


def test_handle_must_be_a_wait_condition_handle(cloud, ctx):
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "other": {"type": "OS::Heat::TestResource"},
            "wait": {
                "type": "OS::Heat::WaitCondition",
                "properties": {"handle": {"get_resource": "other"}, "timeout": 5},
            },
        },
    }
    row = harness.wait(cloud, start(cloud, ctx, "waitwrong", template))
    assert row["status"] == "FAILED"
    assert "other is not a valid wait condition handle." in row["status_reason"]


def test_the_handles_own_token_signals_it_over_http_and_nothing_else(cloud, ctx):
    first = start(cloud, ctx, "curl-one", tmpl())
    second = start(cloud, ctx, "curl-two", tmpl())
    handle_created(cloud, first)
    handle_created(cloud, second)
    one, two = outputs(cloud, ctx, first), outputs(cloud, ctx, second)
    json_headers = {"Content-Type": "application/json", "Accept": "application/json"}

    def post(url, token, body):
        return requests.post(
            url, headers=dict(json_headers, **{"X-Auth-Token": token}), json=body, timeout=10
        )

    # another handle's token, a wrong one, none: Keystone's 401, nothing signalled
    assert post(one["endpoint"], two["token"], {"status": "SUCCESS"}).status_code == 401
    assert post(one["endpoint"], one["token"] + "x", {"status": "SUCCESS"}).status_code == 401
    assert requests.post(one["endpoint"], json={}, timeout=10).status_code == 401
    # the token does not open the stack's other routes
    stack_url = one["endpoint"].rsplit("/resources/", 1)[0]
    assert (
        requests.get(stack_url, headers={"X-Auth-Token": one["token"]}, timeout=10).status_code
        == 401
    )
    assert harness.row(cloud, first)["status"] == "IN_PROGRESS"
    # the handle's own token, as its curl_cli sends it
    answer = post(one["endpoint"], one["token"], {"status": "SUCCESS", "data": "hi"})
    assert (answer.status_code, answer.text) == (200, "null")
    row = harness.wait(cloud, first)
    assert (row["action"], row["status"]) == ("CREATE", "COMPLETE"), row["status_reason"]
    assert json.loads(outputs(cloud, ctx, first)["data"]) == {"1": "hi"}
    assert harness.row(cloud, second)["status"] == "IN_PROGRESS"
    harness.engine(cloud).delete_stack(ctx, second)
    harness.wait(cloud, second)
