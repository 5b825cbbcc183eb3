"""``volume set/unset/revert/summary`` and ``volume snapshot set/unset``
in-process against requests-mock: the requests OSC's options make (each
its own, a failure reported while the others still run), the
microversions they need, usage errors before any request."""

import copy
import json

import pytest

from .fakes import VOLUME
from .fakes import load_fixture
from .fakes import requests_to

VOLUME_ID = "f7223234-1afc-4d19-bfa3-d19deb6235ef"
SNAPSHOT_ID = "3fbbcccf-d058-4502-8844-6feeffdf4cb5"
ACTION = VOLUME + "/volumes/%s/action" % VOLUME_ID


@pytest.fixture
def volume(mock_cloud):
    body = copy.deepcopy(load_fixture("volume", "volumes", "volume-show-response.json"))
    body["volume"].update(id=VOLUME_ID, name="data", size=1)
    mock_cloud.mock.get(VOLUME + "/volumes/" + VOLUME_ID, json=body)
    mock_cloud.mock.get(VOLUME + "/volumes/detail?name=data", json={"volumes": [body["volume"]]})
    return body["volume"]


@pytest.fixture
def snapshot(mock_cloud):
    snap = {"id": SNAPSHOT_ID, "name": "snap", "volume_id": VOLUME_ID, "status": "available"}
    mock_cloud.mock.get(VOLUME + "/snapshots/" + SNAPSHOT_ID, json={"snapshot": snap})
    mock_cloud.mock.get(VOLUME + "/snapshots/detail?name=snap", json={"snapshots": [snap]})
    return snap


def _actions(m):
    return [
        (r.json(), r.headers.get("OpenStack-API-Version"))
        for r in requests_to(m, "POST", "/action")
    ]


def test_set_sends_one_action_per_option(cli, mock_cloud, volume):
    m = mock_cloud.mock
    m.post(ACTION, status_code=202)
    code, out, err = cli(
        "volume", "set", "data", "--size", "2", "--type", "gold", "--migration-policy",
        "on-demand", "--state", "error", "--detached", "--bootable", "--read-only",
        "--image-property", "os_type=linux",
    )  # fmt: skip
    assert code == 0, err
    assert _actions(m) == [
        ({"os-extend": {"new_size": 2}}, "volume 3.42"),
        ({"os-set_image_metadata": {"metadata": {"os_type": "linux"}}}, "volume 3.0"),
        ({"os-reset_status": {"status": "error"}}, "volume 3.0"),
        ({"os-reset_status": {"attach_status": "detached"}}, "volume 3.0"),
        ({"os-set_bootable": {"bootable": True}}, "volume 3.0"),
        ({"os-update_readonly_flag": {"readonly": True}}, "volume 3.0"),
        ({"os-retype": {"new_type": "gold", "migration_policy": "on-demand"}}, "volume 3.0"),
    ]


def test_set_properties_name_and_no_property(cli, mock_cloud, volume):
    m = mock_cloud.mock
    m.put(VOLUME + "/volumes/" + VOLUME_ID, json={"volume": volume})
    m.post(VOLUME + "/volumes/%s/metadata" % VOLUME_ID, json={"metadata": {"k": "v"}})
    m.post(ACTION, status_code=202)
    code, out, err = cli(
        "volume", "set", "data", "--no-property", "--property", "k=v", "--name", "new",
        "--non-bootable", "--read-write",
    )  # fmt: skip
    assert code == 0, err
    puts = [r.json() for r in requests_to(m, "PUT", "/volumes/" + VOLUME_ID)]
    assert puts == [{"volume": {"metadata": {}}}, {"volume": {"name": "new"}}]
    assert requests_to(m, "POST", "/metadata")[0].json() == {"metadata": {"k": "v"}}
    assert [a for a, _v in _actions(m)] == [
        {"os-set_bootable": {"bootable": False}},
        {"os-update_readonly_flag": {"readonly": False}},
    ]


def test_set_reports_a_failure_and_still_makes_the_rest(cli, mock_cloud, volume):
    m = mock_cloud.mock
    fault = {"badRequest": {"code": 400, "message": "Invalid volume: " + "refused"}}

    def answer(request, context):
        context.status_code = 400 if "os-retype" in request.json() else 202
        return fault if context.status_code == 400 else None

    m.post(ACTION, json=answer)
    m.put(VOLUME + "/volumes/" + VOLUME_ID, json={"volume": volume})
    code, out, err = cli("volume", "set", "data", "--type", "gold", "--name", "n")
    assert code == 1
    assert "Failed to set volume type: " in err and "refused" in err
    assert "One or more of the set operations failed" in err
    assert requests_to(m, "PUT", "/volumes/" + VOLUME_ID)[0].json() == {"volume": {"name": "n"}}


@pytest.mark.parametrize(
    "argv, message",
    [
        (["volume", "set", "data"], "Nothing to set"),
        (["volume", "set", "data", "--migration-policy", "never"], "without '--type'"),
        (["volume", "set", "data", "--bootable", "--non-bootable"], "not allowed with"),
        (["volume", "set", "data", "--read-only", "--read-write"], "not allowed with"),
        (["volume", "set", "data", "--state", "happy"], "invalid choice"),
        (["volume", "unset", "data"], "Nothing to unset"),
        (["volume", "snapshot", "set", "snap"], "Nothing to set"),
        (["volume", "snapshot", "unset", "snap"], "Nothing to unset"),
    ],
)
def test_usage_errors_make_no_request(cli, mock_cloud, argv, message):
    code, out, err = cli(*argv)
    assert code == 2
    assert message in err
    assert not [r for r in mock_cloud.mock.request_history if "/volume/" in r.url]


def test_set_size_must_grow(cli, mock_cloud, volume):
    code, out, err = cli("volume", "set", "data", "--size", "1")
    assert code == 2 and "New size must be greater than 1 GB" in err
    assert not requests_to(mock_cloud.mock, "POST", "/action")


def test_unset(cli, mock_cloud, volume):
    m = mock_cloud.mock
    m.delete(VOLUME + "/volumes/%s/metadata/k" % VOLUME_ID)
    m.post(ACTION, status_code=200)
    code, out, err = cli(
        "volume", "unset", "data", "--property", "k", "--image-property", "os_type",
    )  # fmt: skip
    assert code == 0, err
    assert requests_to(m, "DELETE", "/metadata/k")
    assert _actions(m) == [({"os-unset_image_metadata": {"key": "os_type"}}, "volume 3.0")]


def test_revert_to_the_snapshot_at_340(cli, mock_cloud, snapshot):
    m = mock_cloud.mock
    m.post(ACTION, status_code=202)
    code, out, err = cli("volume", "revert", "snap")
    assert code == 0, err
    assert _actions(m) == [({"revert": {"snapshot_id": SNAPSHOT_ID}}, "volume 3.40")]


def test_summary(cli, mock_cloud):
    m = mock_cloud.mock
    summary = {"total_count": 2, "total_size": 5, "metadata": {"tier": ["gold"]}}
    m.get(VOLUME + "/volumes/summary", json={"volume-summary": summary})
    code, out, err = cli("volume", "summary", "--all-projects", "-f", "json")
    assert code == 0, err
    assert json.loads(out) == {"Total Count": 2, "Total Size": 5, "Metadata": {"tier": ["gold"]}}
    assert m.last_request.qs == {"all_tenants": ["1"]}
    assert m.last_request.headers["OpenStack-API-Version"] == "volume 3.36"


def test_snapshot_set_and_unset(cli, mock_cloud, snapshot):
    m = mock_cloud.mock
    meta = VOLUME + "/snapshots/%s/metadata" % SNAPSHOT_ID
    m.put(meta, json={"metadata": {"a": "1"}})
    m.put(VOLUME + "/snapshots/" + SNAPSHOT_ID, json={"snapshot": snapshot})
    code, out, err = cli(
        "volume", "snapshot", "set", "snap", "--no-property", "--property", "a=1",
        "--name", "renamed",
    )  # fmt: skip
    assert code == 0, err
    assert requests_to(m, "PUT", "/metadata")[0].json() == {"metadata": {"a": "1"}}
    assert requests_to(m, "PUT", "/snapshots/" + SNAPSHOT_ID)[-1].json() == {
        "snapshot": {"name": "renamed"}
    }
    m.post(meta, json={"metadata": {"a": "1", "b": "2"}})
    assert cli("volume", "snapshot", "set", "snap", "--property", "b=2")[0] == 0
    assert requests_to(m, "POST", "/metadata")[0].json() == {"metadata": {"b": "2"}}
    m.delete(meta + "/a")
    code, out, err = cli("volume", "snapshot", "unset", "snap", "--property", "a")
    assert code == 0, err
    assert requests_to(m, "DELETE", "/metadata/a")
