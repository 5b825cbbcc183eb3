"""The novaclient 18 SDK surface of issue 22 against a mocked cloud
(requests-mock): lazy loading, ``Client(version, …)``, the Server and Flavor
attributes and methods, ``flavor_access``, ``glance`` and ``neutron``."""

import pytest

from .fakes import COMPUTE
from .fakes import IMAGE
from .fakes import NETWORK
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

    seen: dict[str, object] = {}

    def resolve(cloud=None, overrides=None):
        seen.update(overrides or {})
        raise RuntimeError("stop")

    monkeypatch.setattr(config, "resolve", resolve)
    with pytest.raises(RuntimeError):
        client.Client("2.1", "alice", "pw", "p-id", "http://k/v3", endpoint_type="internalURL")
    assert seen["username"] == "alice" and seen["password"] == "pw"
    assert seen["project_id"] == "p-id" and seen["auth_url"] == "http://k/v3"
    assert seen["compute_api_version"] == "2.1" and seen["interface"] == "internal"


# -- Flavor and flavor_access -------------------------------------------

FLAVOR = {
    "id": "f1",
    "name": "m1.small",
    "OS-FLV-EXT-DATA:ephemeral": 5,
    "os-flavor-access:is_public": False,
}


def test_flavor_accessors_and_methods(client, m):
    m.get(COMPUTE + "/flavors/f1", json={"flavor": FLAVOR})
    m.get(
        COMPUTE + "/flavors/f1/os-extra_specs",
        headers=HDR,
        json={"extra_specs": {"hw:cpu_policy": "dedicated"}},
    )
    m.post(COMPUTE + "/flavors/f1/os-extra_specs", json={"extra_specs": {"a": "1"}})
    unset = m.delete(COMPUTE + "/flavors/f1/os-extra_specs/a", status_code=200, headers=HDR)
    unset_b = m.delete(COMPUTE + "/flavors/f1/os-extra_specs/b", status_code=200)
    deleted = m.delete(COMPUTE + "/flavors/f1", status_code=202)
    flavor = client.flavors.get("f1")
    assert flavor.ephemeral == 5 and flavor.is_public is False
    keys = flavor.get_keys()
    assert keys == {"hw:cpu_policy": "dedicated"} and keys.request_ids == ["req-1"]
    assert flavor.set_keys({"a": "1"}) == {"a": "1"}
    assert m.request_history[-1].json() == {"extra_specs": {"a": "1"}}
    assert flavor.unset_keys(["a", "b"]).request_ids == ["req-1"]
    assert unset.called and unset_b.called
    flavor.delete()
    assert deleted.called
    bare = client.flavors.resource_class(client.flavors, {"id": "f2"}, loaded=True)
    assert bare.ephemeral == "N/A" and bare.is_public == "N/A"  # as novaclient


def test_flavor_access_manager_as_novaclient(client, m):
    entry = {"flavor_id": "f1", "tenant_id": "p1"}
    m.get(COMPUTE + "/flavors/f1/os-flavor-access", headers=HDR, json={"flavor_access": [entry]})
    action = m.post(COMPUTE + "/flavors/f1/action", json={"flavor_access": [entry]})
    listed = client.flavor_access.list(flavor="f1")
    assert [(a.flavor_id, a.tenant_id) for a in listed] == [("f1", "p1")]
    assert listed.request_ids == ["req-1"]
    added = client.flavor_access.add_tenant_access("f1", "p1")
    assert action.last_request.json() == {"addTenantAccess": {"tenant": "p1"}}
    assert added[0].tenant_id == "p1"
    client.flavor_access.remove_tenant_access("f1", "p1")
    assert action.last_request.json() == {"removeTenantAccess": {"tenant": "p1"}}
    with pytest.raises(NotImplementedError):
        client.flavor_access.list()


# -- servers -----------------------------------------------------------


def test_server_networks_as_novaclient(client, m):
    addresses = {
        "public": [{"addr": "172.24.4.9", "version": 4}],
        "private": [{"addr": "10.0.0.3", "version": 4}, {"addr": "fd00::3", "version": 6}],
    }
    m.get(COMPUTE + "/servers/" + SID, json={"server": {"id": SID, "addresses": addresses}})
    networks = client.servers.get(SID).networks
    assert networks == {"private": ["10.0.0.3", "fd00::3"], "public": ["172.24.4.9"]}
    assert list(networks) == ["private", "public"]
    bare = client.servers.resource_class(client.servers, {"id": SID}, loaded=True)
    assert bare.networks == {}


def test_server_interfaces_as_novaclient(client, m):
    url = COMPUTE + "/servers/%s/os-interface" % SID
    m.get(url, headers=HDR, json={"interfaceAttachments": [{"port_id": "p1", "net_id": "n1"}]})
    attach = m.post(url, json={"interfaceAttachment": {"port_id": "p2", "net_id": "n1"}})
    detach = m.delete(url + "/p2", status_code=202)
    server = client.servers.resource_class(client.servers, {"id": SID}, loaded=True)
    listed = server.interface_list()
    assert [i.port_id for i in listed] == ["p1"] and listed.request_ids == ["req-1"]
    assert client.servers.interface_list(SID)[0].net_id == "n1"
    server.interface_attach(None, "n1", "10.0.0.7")
    assert attach.last_request.json() == {
        "interfaceAttachment": {"net_id": "n1", "fixed_ips": [{"ip_address": "10.0.0.7"}]}
    }
    server.interface_detach("p2")
    assert detach.called


def test_consoles_answer_novaclient_shapes(client, m):
    console = {"protocol": "vnc", "type": "novnc", "url": "http://c/vnc?token=t"}
    remote = m.post(
        COMPUTE + "/servers/%s/remote-consoles" % SID,
        headers=HDR,
        json={"remote_console": console},
    )
    answer = client.servers.get_vnc_console(SID, "novnc")
    assert answer == {"remote_console": console} and answer.request_ids == ["req-1"]
    assert remote.last_request.json() == {"remote_console": {"protocol": "vnc", "type": "novnc"}}
    server = client.servers.resource_class(client.servers, {"id": SID}, loaded=True)
    server.get_serial_console("serial")
    assert remote.last_request.json()["remote_console"]["protocol"] == "serial"
    server.get_mks_console()
    assert remote.last_request.json()["remote_console"] == {"protocol": "mks", "type": "webmks"}


def test_consoles_before_2_6_answer_the_console_key(sess, m):
    from occli import client

    nova = client.Client("2.5", session=sess)
    legacy = {"type": "spice-html5", "url": "http://c/spice"}
    action = m.post(COMPUTE + "/servers/%s/action" % SID, json={"console": legacy})
    assert nova.servers.get_spice_console(SID, "spice-html5") == {"console": legacy}
    assert action.last_request.json() == {"os-getSPICEConsole": {"type": "spice-html5"}}


# -- glance and neutron ------------------------------------------------

IMAGE_ID = "70a599e0-31e7-49b7-b260-868f441e862b"


def test_glance_find_image_by_id_name_and_errors(client, m):
    from occli import exceptions

    image = {"id": IMAGE_ID, "name": "cirros"}
    by_id = m.get(IMAGE + "/v2/images/" + IMAGE_ID, json=image)
    m.get(IMAGE + "/v2/images?name=cirros", json={"images": [image]})
    m.get(IMAGE + "/v2/images?name=none", json={"images": []})
    m.get(IMAGE + "/v2/images?name=twice", json={"images": [image, dict(image, id="x")]})
    assert client.glance.find_image(IMAGE_ID).name == "cirros" and by_id.called
    assert client.glance.find_image("cirros").id == IMAGE_ID
    with pytest.raises(exceptions.NotFound, match="No Image matching none."):
        client.glance.find_image("none")
    with pytest.raises(exceptions.NoUniqueMatch, match="Multiple image matches found for 'twice'"):
        client.glance.find_image("twice")
    with pytest.raises(exceptions.NotFound, match=r"Unable to find image\(s\): none"):
        client.glance.find_images(["cirros", "none"])


def test_glance_list_is_a_list_of_every_image(client, m):
    m.get(IMAGE + "/v2/images", json={"images": [{"id": IMAGE_ID, "name": "cirros"}]})
    listed = client.glance.list()
    assert isinstance(listed, list) and [i.name for i in listed] == ["cirros"]


def test_neutron_find_network(client, m):
    from occli import exceptions

    m.get(NETWORK + "/v2.0/networks?name=private", json={"networks": [{"id": "n1"}]})
    m.get(NETWORK + "/v2.0/networks?name=none", json={"networks": []})
    assert client.neutron.find_network("private").id == "n1"
    with pytest.raises(exceptions.NotFound, match="No Network matching none."):
        client.neutron.find_network("none")


# -- list() on every manager ---------------------------------------------


def test_every_managers_list_returns_a_list_with_request_ids():
    import importlib
    import typing

    from occli import base
    from occli.client import Client

    listing = []
    for name, path in Client.builtin_managers().items():
        module, _, cls = path.partition(":")
        manager = getattr(importlib.import_module(module), cls)
        if callable(getattr(manager, "list", None)):
            listing.append(name)
            returns = typing.get_type_hints(manager.list)["return"]
            assert returns is base.ListWithMeta, name
    assert {"images", "networks", "volumes", "stacks", "image_members"} <= set(listing)


def test_image_members_list_carries_its_request_id(client, m):
    m.get(
        IMAGE + "/v2/images/%s/members" % IMAGE_ID,
        headers=HDR,
        json={"members": [{"member_id": "p1", "status": "accepted"}]},
    )
    from occli import base

    members = client.image_members.list(IMAGE_ID)
    assert isinstance(members, base.ListWithMeta) and members.request_ids == ["req-1"]
    assert members[0].member_id == "p1"


def test_client_is_a_context_manager_as_novaclient(sess):
    from occli import client

    with client.Client("2.1", session=sess) as nova:
        assert nova.requested_compute_version == "2.1"
    assert nova.session is sess  # a given session is the caller's, kept open


def test_create_takes_image_and_flavor_by_keyword_as_novaclient(client, m):
    boot = m.post(COMPUTE + "/servers", status_code=202, json={"server": {"id": SID}})
    client.servers.create("vm1", flavor="f1", block_device_mapping_v2=[{"uuid": "v1"}])
    sent = boot.last_request.json()["server"]
    assert sent["flavorRef"] == "f1" and "imageRef" not in sent


def test_leaving_the_with_block_closes_the_session_the_client_made(
    mock_cloud, monkeypatch, tmp_path
):
    from occli import client

    from .fakes import AUTH_URL
    from .fakes import PASSWORD

    monkeypatch.setenv("OS_CLIENT_CONFIG_FILE", str(tmp_path / "none.yaml"))
    closed = []
    with client.Client(
        "2.1",
        "admin",
        PASSWORD,
        None,
        AUTH_URL,
        project_name="admin",
        user_domain_id="default",
        project_domain_id="default",
    ) as nova:
        monkeypatch.setattr(nova.session.session, "close", lambda: closed.append(True))
    assert closed == [True]
