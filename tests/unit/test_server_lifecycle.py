"""Shelve, rescue, state, password, crash dump, diagnostics and topology SDK
methods (requests-mock; the bodies are the upstream api-ref samples in
tests/fixtures/compute/os-shelve, os-rescue, os-admin-actions,
os-server-diagnostics and os-server-topology)."""

import copy

import pytest
from keystoneauth1 import session

from occli import exceptions
from occli.client import Client
from occli.v2.compute import server_lifecycle

from . import fakes
from .fakes import COMPUTE
from .fakes import requests_to

SERVER = "9128d044-7b61-403e-b766-7547076ff6c1"
ACTION = "/servers/%s/action" % SERVER
REQUEST_ID = {"x-openstack-request-id": "req-1"}


def sample(*parts):
    return copy.deepcopy(fakes.load_fixture("compute", *parts))


def at(version):
    return Client(session=session.Session(auth=fakes.password_auth()), compute_api_version=version)


def sent(mock_cloud):
    return requests_to(mock_cloud.mock, "POST", ACTION)[-1].json()


@pytest.fixture
def actions(mock_cloud):
    mock_cloud.mock.post(COMPUTE + ACTION, status_code=202, text="")
    return mock_cloud


@pytest.mark.parametrize(
    "version,call,path",
    [
        ("2.1", lambda s: s.shelve(SERVER), ("os-shelve", "os-shelve.json")),
        ("2.1", lambda s: s.shelve_offload(SERVER), ("os-shelve", "os-shelve-offload.json")),
        ("2.1", lambda s: s.unshelve(SERVER), ("os-shelve", "os-unshelve.json")),
        (
            "2.77",
            lambda s: s.unshelve(SERVER, availability_zone="us-west"),
            ("os-shelve", "v2.77", "os-unshelve-az.json"),
        ),
        (
            "2.91",
            lambda s: s.unshelve(SERVER, availability_zone="nova", host="host01"),
            ("os-shelve", "v2.91", "os-unshelve-az-host.json"),
        ),
        (
            "2.91",
            lambda s: s.unshelve(SERVER, availability_zone=server_lifecycle.NO_ZONE),
            ("os-shelve", "v2.91", "os-unshelve-unpin-az.json"),
        ),
        (
            "2.91",
            lambda s: s.unshelve(
                SERVER, availability_zone=server_lifecycle.NO_ZONE, host="host01"
            ),
            ("os-shelve", "v2.91", "os-unshelve-host-and-unpin-az.json"),
        ),
        (
            "2.1",
            lambda s: s.reset_state(SERVER, "active"),
            ("os-admin-actions", "admin-actions-reset-server-state.json"),
        ),
        ("2.1", lambda s: s.unrescue(SERVER), ("os-rescue", "server-unrescue-req.json")),
    ],
)
def test_actions_send_the_samples(actions, version, call, path):
    call(at(version).servers)
    assert sent(actions) == sample(*path)


def test_unshelve_az_sample_matches_the_2_77_sample_az(actions):
    expected = sample("os-shelve", "v2.77", "os-unshelve-az.json")
    zone = expected["unshelve"]["availability_zone"]
    at("2.77").servers.unshelve(SERVER, availability_zone=zone)
    assert sent(actions) == expected


@pytest.mark.parametrize(
    "version,kwargs,needed",
    [
        ("2.76", {"availability_zone": "nova"}, "2.77"),
        ("2.90", {"host": "host01"}, "2.91"),
        ("2.90", {"availability_zone": server_lifecycle.NO_ZONE}, "2.91"),
    ],
)
def test_unshelve_gates(actions, version, kwargs, needed):
    with pytest.raises(exceptions.UnsupportedVersion, match=needed + " or later"):
        at(version).servers.unshelve(SERVER, **kwargs)
    assert not requests_to(actions.mock, "POST", ACTION)


def test_rescue_sends_the_sample_and_returns_the_password(mock_cloud):
    mock_cloud.mock.post(
        COMPUTE + ACTION, json=sample("os-rescue", "server-rescue.json"), headers=REQUEST_ID
    )
    request = sample("os-rescue", "server-rescue-req-with-image-ref.json")["rescue"]
    result = at("2.1").servers.rescue(
        SERVER, password=request["adminPass"], image=request["rescue_image_ref"]
    )
    assert sent(mock_cloud) == sample("os-rescue", "server-rescue-req-with-image-ref.json")
    assert result.body == {"adminPass": "MySecretPass"}
    assert result.request_ids == ["req-1"]


def test_rescue_without_arguments_sends_null(mock_cloud):
    mock_cloud.mock.post(COMPUTE + ACTION, json={"adminPass": "generated"})
    at("2.1").servers.rescue(SERVER)
    assert sent(mock_cloud) == {"rescue": None}


def test_reset_state_refuses_other_states(actions):
    with pytest.raises(exceptions.ValidationError, match="active or error"):
        at("2.1").servers.reset_state(SERVER, "paused")
    assert not requests_to(actions.mock, "POST", ACTION)


def test_change_password(actions):
    at("2.1").servers.change_password(SERVER, "n3w")
    assert sent(actions) == {"changePassword": {"adminPass": "n3w"}}
    with pytest.raises(exceptions.ValidationError):
        at("2.1").servers.change_password(SERVER, "")


def test_trigger_crash_dump_needs_2_17(actions):
    with pytest.raises(exceptions.UnsupportedVersion, match="2.17 or later"):
        at("2.16").servers.trigger_crash_dump(SERVER)
    at("2.17").servers.trigger_crash_dump(SERVER)
    assert sent(actions) == {"trigger_crash_dump": None}


@pytest.mark.parametrize("version,folder", [("2.1", ()), ("2.48", ("v2.48",))])
def test_diagnostics(mock_cloud, version, folder):
    body = sample("os-server-diagnostics", *folder, "server-diagnostics-get-resp.json")
    mock_cloud.mock.get(
        COMPUTE + "/servers/%s/diagnostics" % SERVER, json=body, headers=REQUEST_ID
    )
    found = at(version).servers.diagnostics(SERVER)
    assert dict(found) == body
    assert found.request_ids == ["req-1"]


def test_topology(mock_cloud):
    body = sample("os-server-topology", "v2.78", "servers-topology-resp.json")
    mock_cloud.mock.get(COMPUTE + "/servers/%s/topology" % SERVER, json=body)
    assert dict(at("2.78").servers.topology(SERVER)) == body
    with pytest.raises(exceptions.UnsupportedVersion, match="2.78 or later"):
        at("2.77").servers.topology(SERVER)


def test_server_resources_delegate(actions):
    from occli.v2.compute.servers import Server

    server = Server(at("2.1").servers, {"id": SERVER})
    server.shelve()
    assert sent(actions) == {"shelve": None}


def test_conflict_is_raised_with_novas_text(mock_cloud):
    text = "Cannot 'shelve' instance %s while it is in vm_state rescued" % SERVER
    mock_cloud.mock.post(
        COMPUTE + ACTION,
        status_code=409,
        json={"conflictingRequest": {"code": 409, "message": text}},
    )
    with pytest.raises(exceptions.Conflict, match="vm_state rescued"):
        at("2.1").servers.shelve(SERVER)
