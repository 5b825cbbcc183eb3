"""``client.instance_action`` (requests-mock; api-ref samples in
tests/fixtures/compute/os-instance-actions/) and the ``server event``
commands over it."""

import copy
import json

import pytest
from keystoneauth1 import session

from occli import exceptions
from occli.client import Client

from . import fakes
from .fakes import COMPUTE
from .fakes import requests_to

SAMPLES = ("compute", "os-instance-actions")


def sample(*parts):
    return copy.deepcopy(fakes.load_fixture(*SAMPLES, *parts))


def at(version):
    return Client(session=session.Session(auth=fakes.password_auth()), compute_api_version=version)


def _server_of(body):
    actions = body.get("instanceActions") or [body["instanceAction"]]
    return actions[0]["instance_uuid"]


def test_list_before_2_58(mock_cloud):
    body = sample("instance-actions-list-resp.json")
    server = _server_of(body)
    mock_cloud.mock.get(COMPUTE + "/servers/%s/os-instance-actions" % server, json=body)
    found = at("2.1").instance_action.list(server)
    assert [a.request_id for a in found] == [a["request_id"] for a in body["instanceActions"]]
    assert found[0].id == body["instanceActions"][0]["request_id"]


def test_list_follows_the_next_link(mock_cloud):
    first = sample("v2.58", "instance-actions-list-with-limit-resp.json")
    server = _server_of(first)
    url = COMPUTE + "/servers/%s/os-instance-actions" % server
    rest = sample("v2.58", "instance-actions-list-with-marker-resp.json")
    marker = first["instanceActions"][0]["request_id"]
    mock_cloud.mock.get(url, json=first)
    mock_cloud.mock.get(url + "?marker=" + marker, json=rest)
    found = at("2.58").instance_action.list(server)
    assert [a.action for a in found] == ["stop", "create"]
    sent = requests_to(mock_cloud.mock, "GET", "/os-instance-actions")
    assert [r.qs.get("marker") for r in sent] == [None, [marker]]


def test_list_sends_the_filters(mock_cloud):
    body = sample("v2.66", "instance-actions-list-with-changes-before.json")
    server = _server_of(body)
    mock_cloud.mock.get(COMPUTE + "/servers/%s/os-instance-actions" % server, json=body)
    at("2.66").instance_action.list(
        server,
        limit=5,
        marker="req-1",
        changes_since="2018-04-25T01:26:29Z",
        changes_before="2018-04-25T01:26:36Z",
    )
    (request,) = requests_to(mock_cloud.mock, "GET", "/os-instance-actions")
    assert request.qs == {
        "limit": ["5"],
        "marker": ["req-1"],
        "changes-since": ["2018-04-25t01:26:29z"],
        "changes-before": ["2018-04-25t01:26:36z"],
    }


@pytest.mark.parametrize(
    "version,kwargs,needed",
    [
        ("2.57", {"limit": 1}, "2.58"),
        ("2.57", {"marker": "req-1"}, "2.58"),
        ("2.57", {"changes_since": "2018-04-25T01:26:29Z"}, "2.58"),
        ("2.65", {"changes_before": "2018-04-25T01:26:29Z"}, "2.66"),
    ],
)
def test_list_gates(mock_cloud, version, kwargs, needed):
    with pytest.raises(exceptions.UnsupportedVersion, match=needed + " or later"):
        at(version).instance_action.list("x", **kwargs)
    assert not requests_to(mock_cloud.mock, "GET", "/os-instance-actions")


@pytest.mark.parametrize(
    "kwargs",
    [
        {"limit": -1},
        {"changes_since": "yesterday"},
        {"changes_since": "2020-01-02T00:00:00Z", "changes_before": "2020-01-01T00:00:00Z"},
    ],
)
def test_list_refuses_bad_values(mock_cloud, kwargs):
    with pytest.raises(exceptions.ValidationError):
        at("2.66").instance_action.list("x", **kwargs)


@pytest.mark.parametrize("folder", [(), ("v2.51",), ("v2.62",), ("v2.84",)])
def test_get_returns_the_action_with_its_events(mock_cloud, folder):
    body = sample(*folder, "instance-action-get-resp.json")
    action = body["instanceAction"]
    mock_cloud.mock.get(
        COMPUTE
        + "/servers/%s/os-instance-actions/%s" % (action["instance_uuid"], action["request_id"]),
        json=body,
    )
    found = at("2.84").instance_action.get(action["instance_uuid"], action["request_id"])
    assert found.to_dict() == action
    assert found.events[0]["event"] == action["events"][0]["event"]


def test_event_show_command(cli, mock_cloud):
    body = sample("v2.84", "instance-action-get-non-admin-resp.json")
    action = body["instanceAction"]
    server = action["instance_uuid"]
    mock_cloud.mock.get(
        COMPUTE + "/servers/%s" % server, json={"server": {"id": server, "name": "vm1"}}
    )
    mock_cloud.mock.get(
        COMPUTE + "/servers/%s/os-instance-actions/%s" % (server, action["request_id"]),
        json=body,
    )
    code, out, err = cli(
        "--os-compute-api-version", "2.84", "server", "event", "show", server,
        action["request_id"], "-f", "json",
    )  # fmt: skip
    assert code == 0, err
    shown = json.loads(out)
    assert shown["events"] == action["events"]
    assert shown["action"] == "stop"


def test_event_list_usage_errors_before_any_request(cli, mock_cloud):
    code, _, err = cli(
        "--os-compute-api-version", "2.66", "server", "event", "list", "vm1",
        "--changes-since", "not-a-time",
    )  # fmt: skip
    assert code == 2
    assert "--changes-since" in err
    assert not requests_to(mock_cloud.mock, "GET", "/servers")
