"""The novaclient 18 SDK surface of issue 22 against a mocked cloud
(requests-mock): lazy loading, ``Client(version, …)``, the Server and Flavor
attributes and methods, ``flavor_access``, ``glance`` and ``neutron``."""

import pytest

from .fakes import COMPUTE
from .fakes import requests_to

SID = "9168b536-cd40-4630-b43f-b259807c6e87"
HDR = {"x-openstack-request-id": "req-1"}


@pytest.fixture
def m(mock_cloud):
    return mock_cloud.mock


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
