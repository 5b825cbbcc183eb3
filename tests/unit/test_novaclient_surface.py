"""The novaclient 18 SDK surface of issue 22 against a mocked cloud
(requests-mock): lazy loading, ``Client(version, …)``, the Server and Flavor
attributes and methods, ``flavor_access``, ``glance`` and ``neutron``."""

import pytest

from .fakes import COMPUTE
from .fakes import password_auth
from .fakes import requests_to

SID = "9168b536-cd40-4630-b43f-b259807c6e87"
HDR = {"x-openstack-request-id": "req-1"}


@pytest.fixture
def m(mock_cloud):
    return mock_cloud.mock


@pytest.fixture
def sess(mock_cloud):
    from keystoneauth1 import session

    return session.Session(auth=password_auth())


# -- lazy loading --------------------------------------------------------


def test_a_created_server_lazy_loads_a_missing_attribute_once(client, m):
    m.post(
        COMPUTE + "/servers",
        status_code=202,
        headers=HDR,
        json={"server": {"id": SID, "adminPass": "pw"}},
    )
    m.get(
        COMPUTE + "/servers/" + SID,
        headers={"x-openstack-request-id": "req-2"},
        json={"server": {"id": SID, "name": "vm1", "status": "BUILD"}},
    )
    created = client.servers.create("vm1", "img", "flv")
    assert not created.is_loaded()
    assert created.name == "vm1" and created.status == "BUILD"
    assert created.adminPass == "pw"  # kept: the GET lacks it
    assert created.is_loaded() and created.request_ids == ["req-1", "req-2"]
    with pytest.raises(AttributeError):
        _ = created.no_such_field
    assert len(requests_to(m, "GET", "/servers/" + SID)) == 1


def test_listed_and_got_resources_never_lazy_load(client, m):
    m.get(COMPUTE + "/servers/detail", json={"servers": [{"id": SID, "name": "vm1"}]})
    m.get(COMPUTE + "/servers/" + SID, json={"server": {"id": SID, "name": "vm1"}})
    listed = client.servers.list()[0]
    streamed = next(iter(client.servers.iter()))
    got = client.servers.get(SID)
    for resource in (listed, streamed, got):
        assert resource.is_loaded()
        with pytest.raises(AttributeError):
            _ = resource.description
    assert len(requests_to(m, "GET", "/servers/" + SID)) == 1  # the get() only


def test_set_loaded_turns_lazy_loading_off(client, m):
    m.post(COMPUTE + "/servers", status_code=202, json={"server": {"id": SID}})
    created = client.servers.create("vm1", "img", "flv")
    created.set_loaded(True)
    with pytest.raises(AttributeError):
        _ = created.name
    assert requests_to(m, "GET", "/servers/" + SID) == []


def test_a_resource_whose_get_needs_more_than_its_id_does_not_load(client, m):
    m.post(
        COMPUTE + "/servers/%s/os-interface" % SID,
        json={"interfaceAttachment": {"port_id": "p1", "id": "p1"}},
    )
    attached = client.interface_attachments.create(SID, port="p1")
    with pytest.raises(AttributeError):
        _ = attached.tag
    assert requests_to(m, "GET", "/os-interface") == []


# -- Client(version, …) --------------------------------------------------


def test_client_version_first_pins_the_compute_microversion(sess, m):
    from occli import api_versions
    from occli import client

    assert client.Client("2.1", session=sess).api_version("compute") == "2.1"
    pinned = client.Client(api_versions.APIVersion("2.53"), session=sess)
    assert str(pinned.api_version("compute")) == "2.53"
    assert client.Client("2", session=sess).api_version("compute") == "2.1"
    assert requests_to(m, "GET", "/compute/") == []  # no discovery
    assert client.Client("2.latest", session=sess).pinned_compute_version() is None


def test_client_keeps_occli_session_forms(sess):
    from occli import client

    assert client.Client(sess).session is sess
    assert client.Client(session=sess).session is sess
    with pytest.raises(TypeError):
        client.Client(sess, session=sess)
    with pytest.raises(TypeError):
        client.Client("2.1", session=sess, compute_api_version="2.5")


def test_client_positional_credentials_as_novaclient(monkeypatch):
    from occli import client
    from occli import config

    seen = {}

    def resolve(cloud=None, overrides=None):
        seen.update(overrides or {})
        raise RuntimeError("stop")

    monkeypatch.setattr(config, "resolve", resolve)
    with pytest.raises(RuntimeError):
        client.Client("2.1", "alice", "pw", "p-id", "http://k/v3", endpoint_type="internalURL")
    assert seen["username"] == "alice" and seen["password"] == "pw"
    assert seen["project_id"] == "p-id" and seen["auth_url"] == "http://k/v3"
    assert seen["compute_api_version"] == "2.1" and seen["interface"] == "internal"
