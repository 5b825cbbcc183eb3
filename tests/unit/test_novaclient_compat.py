"""novaclient's argument names and return types on occli's managers
(issue 15), against a mocked cloud (requests-mock)."""

import types
from urllib.parse import parse_qs
from urllib.parse import urlparse

import pytest

from occli import base
from occli.v2.compute import servers as servers_api

from .fakes import COMPUTE

SID = "9168b536-cd40-4630-b43f-b259807c6e87"
IMAGE_ID = "70a599e0-31e7-49b7-b260-868f441e862b"
HDR = {"x-openstack-request-id": "req-1"}


def server(sid=SID, name="vm1"):
    return {"id": sid, "name": name, "status": "ACTIVE"}


def body_of(mock, method="POST", part="/servers"):
    sent = [
        r
        for r in mock.request_history
        if r.method == method and r.url.split("?")[0].endswith(part)
    ]
    return sent[-1].json()


def query(request):
    return parse_qs(urlparse(request.url).query)


@pytest.fixture
def m(mock_cloud):
    return mock_cloud.mock


@pytest.fixture
def boot(m):
    return m.post(
        COMPUTE + "/servers",
        status_code=202,
        headers=HDR,
        json={"server": {"id": SID, "adminPass": "x"}},
    )


# -- lists --------------------------------------------------------------


def test_servers_list_is_a_list_with_request_ids(client, m):
    m.get(
        COMPUTE + "/servers/detail",
        headers=HDR,
        json={"servers": [server(), server("id-2", "vm2")]},
    )
    got = client.servers.list()
    assert isinstance(got, list) and isinstance(got, base.ListWithMeta)
    assert got[0].name == "vm1" and len(got) == 2
    assert got.request_ids == ["req-1"]


def test_list_with_meta_has_the_request_id_of_each_page(client, m):
    m.get(
        COMPUTE + "/servers/detail",
        [
            {
                "headers": {"x-openstack-request-id": "req-a"},
                "json": {
                    "servers": [server()],
                    "servers_links": [
                        {"rel": "next", "href": COMPUTE + "/servers/detail?marker=" + SID}
                    ],
                },
            },
            {"headers": {"x-openstack-request-id": "req-b"}, "json": {"servers": []}},
        ],
    )
    got = client.servers.list()
    assert [s.id for s in got] == [SID]
    assert got.request_ids == ["req-a", "req-b"]


def test_servers_iter_and_pages_stay_lazy(client, m):
    listing = m.get(COMPUTE + "/servers/detail", json={"servers": [server()]})
    lazy = client.servers.iter(search_opts={"name": "vm1"})
    assert isinstance(lazy, types.GeneratorType)
    assert listing.call_count == 0
    assert [s.id for s in lazy] == [SID]
    assert client.servers.list_iter == client.servers.iter
    assert [len(p) for p in client.servers.pages()] == [1]


def test_servers_list_search_opts_and_novaclient_positional_order(client, m):
    listing = m.get(COMPUTE + "/servers", json={"servers": []})
    got = client.servers.list(
        False, {"status": "ACTIVE", "all_tenants": True, "host": None}, "mark", 5
    )
    assert got == [] and got.request_ids == []
    assert query(listing.last_request) == {
        "status": ["ACTIVE"],
        "all_tenants": ["true"],
        "marker": ["mark"],
        "limit": ["5"],
    }


def test_aggregates_keypairs_services_hypervisors_lists(client, m):
    m.get(COMPUTE + "/os-aggregates", headers=HDR, json={"aggregates": [{"id": 1, "name": "a"}]})
    m.get(COMPUTE + "/os-keypairs", headers=HDR, json={"keypairs": [{"keypair": {"name": "k"}}]})
    m.get(COMPUTE + "/os-services", headers=HDR, json={"services": [{"id": 1, "host": "h"}]})
    m.get(
        COMPUTE + "/os-hypervisors/detail",
        headers=HDR,
        json={"hypervisors": [{"id": 1, "hypervisor_hostname": "h"}]},
    )
    for manager, first in (
        (client.aggregates, "a"),
        (client.keypairs, "k"),
        (client.services, "h"),
        (client.hypervisors, "h"),
    ):
        got = manager.list()
        assert isinstance(got, base.ListWithMeta), manager
        assert got.request_ids == ["req-1"]
        item = got[0]
        assert first in (
            getattr(item, "name", None),
            getattr(item, "host", None),
            getattr(item, "hypervisor_hostname", None),
        )
        assert isinstance(manager.iter(), types.GeneratorType)


def test_keypairs_list_takes_novaclient_positional_order(client, m):
    listing = m.get(COMPUTE + "/os-keypairs", json={"keypairs": []})
    client.keypairs.list(None, None, 3)
    assert query(listing.last_request) == {"limit": ["3"]}


def test_flavors_list_all_and_find(client, m):
    m.get(
        COMPUTE + "/flavors/detail",
        headers=HDR,
        json={"flavors": [{"id": "1", "name": "m1.tiny"}, {"id": "2", "name": "m1.small"}]},
    )
    got = client.flavors.list()
    assert isinstance(got, base.ListWithMeta) and got[1].name == "m1.small"
    assert client.flavors.list()[0].name == "m1.tiny"
    assert got.request_ids == ["req-1"]
    assert client.flavors.find(name="m1.small").id == "2"
    assert [f.id for f in client.flavors.iter()] == ["1", "2"]


def test_hypervisors_search(client, m):
    m.get(
        COMPUTE + "/os-hypervisors",
        json={"hypervisors": [{"id": 1, "hypervisor_hostname": "host1"}]},
    )
    got = client.hypervisors.search("host")
    assert [h.hypervisor_hostname for h in got] == ["host1"]
    assert query(m.last_request)["hypervisor_hostname_pattern"] == ["host"]


# -- servers.create -----------------------------------------------------


def test_create_takes_novaclient_names(client, boot):
    got = client.servers.create(
        "vm",
        IMAGE_ID,
        "1",
        meta={"a": "b"},
        userdata="#!/bin/sh",
        key_name="k",
        availability_zone="nova",
        security_groups=["default"],
        nics=[{"net-id": "n1"}],
        scheduler_hints={"group": "g"},
        config_drive=True,
        admin_pass="pw",
        min_count=1,
        max_count=1,
        access_ip_v4="10.0.0.1",
        disk_config="AUTO",
    )
    assert isinstance(got, servers_api.Server) and got.id == SID
    assert got.request_ids == ["req-1"]
    sent = boot.last_request.json()
    srv = sent["server"]
    assert srv["metadata"] == {"a": "b"}
    assert srv["user_data"] == "IyEvYmluL3No"
    assert srv["networks"] == [{"uuid": "n1"}]
    assert srv["security_groups"] == [{"name": "default"}]
    assert srv["adminPass"] == "pw" and srv["OS-DCF:diskConfig"] == "AUTO"
    assert sent["os:scheduler_hints"] == {"group": "g"}


def test_create_takes_novaclient_positional_arguments(client, boot):
    # novaclient: create(name, image, flavor, meta, files, reservation_id,
    #                    min_count, max_count, security_groups, userdata, …)
    client.servers.create(
        "vm", IMAGE_ID, "1", {"a": "b"}, None, False, 1, 2, ["web"], "data", "key"
    )
    srv = boot.last_request.json()["server"]
    assert srv["metadata"] == {"a": "b"} and srv["min_count"] == 1
    assert srv["max_count"] == 2 and srv["key_name"] == "key"
    assert srv["security_groups"] == [{"name": "web"}]
    assert "return_reservation_id" not in srv


def test_create_reservation_id_returns_it(client, m):
    m.post(COMPUTE + "/servers", status_code=202, json={"reservation_id": "r-123"})
    assert client.servers.create("vm", IMAGE_ID, "1", reservation_id=True, min_count=2) == "r-123"
    assert m.last_request.json()["server"]["return_reservation_id"] is True


def test_create_refuses_a_name_and_its_alias(client, boot):
    with pytest.raises(TypeError, match="meta"):
        client.servers.create("vm", IMAGE_ID, "1", meta={}, metadata={})
    with pytest.raises(TypeError, match="multiple values"):
        client.servers.create("vm", IMAGE_ID, "1", {"a": "b"}, meta={})
    assert boot.call_count == 0


def test_check_create_takes_novaclient_names(client, boot):
    from occli import exceptions

    with pytest.raises(exceptions.ValidationError):
        client.servers.check_create(meta={"k" * 300: "v"})
    assert boot.call_count == 0


# -- servers: other methods ---------------------------------------------


@pytest.fixture
def action(m):
    return m.post(COMPUTE + "/servers/%s/action" % SID, status_code=202, headers=HDR)


@pytest.mark.parametrize(
    "call, expected",
    [
        (lambda s: s.reboot(SID, "HARD"), {"reboot": {"type": "HARD"}}),
        (lambda s: s.reboot(SID, reboot_type="SOFT"), {"reboot": {"type": "SOFT"}}),
        (lambda s: s.reboot(SID), {"reboot": {"type": "SOFT"}}),
        (lambda s: s.reboot(SID, hard=True), {"reboot": {"type": "HARD"}}),
        (lambda s: s.stop(SID), {"os-stop": None}),
        (lambda s: s.start(SID), {"os-start": None}),
        (lambda s: s.pause(SID), {"pause": None}),
        (lambda s: s.lock(SID), {"lock": None}),
        (lambda s: s.resize(SID, "2"), {"resize": {"flavorRef": "2"}}),
        (lambda s: s.confirm_resize(SID), {"confirmResize": None}),
    ],
)
def test_actions_take_novaclient_arguments(client, action, call, expected):
    got = call(client.servers)
    assert action.last_request.json() == expected
    assert got.request_ids == ["req-1"]


def test_rebuild_takes_novaclient_names(client, m):
    m.post(COMPUTE + "/servers/%s/action" % SID, status_code=202, json={"server": server()})
    got = client.servers.rebuild(SID, IMAGE_ID, password="pw", meta={"a": "b"}, name="new")
    assert got.id == SID
    assert m.last_request.json() == {
        "rebuild": {"imageRef": IMAGE_ID, "adminPass": "pw", "metadata": {"a": "b"}, "name": "new"}
    }
    with pytest.raises(TypeError):
        client.servers.rebuild(SID, IMAGE_ID, bogus=1)


def test_create_image_takes_image_name(client, m):
    m.post(COMPUTE + "/servers/%s/action" % SID, status_code=202, json={"image_id": IMAGE_ID})
    assert client.servers.create_image(SID, image_name="snap", metadata={"a": "b"}) == IMAGE_ID
    assert m.last_request.json() == {"createImage": {"name": "snap", "metadata": {"a": "b"}}}
    assert client.servers.create_image(SID, "snap2") == IMAGE_ID


def test_update_set_meta_delete_meta(client, m):
    m.put(COMPUTE + "/servers/" + SID, json={"server": server(name="new")})
    m.post(COMPUTE + "/servers/%s/metadata" % SID, json={"metadata": {"a": "b"}})
    deleted = m.delete(COMPUTE + "/servers/%s/metadata/a" % SID, status_code=204)
    assert client.servers.update(SID, name="new").name == "new"
    assert client.servers.set_meta(SID, {"a": "b"}) == {"a": "b"}
    client.servers.delete_meta(SID, ["a"])
    assert deleted.call_count == 1


def test_get_console_output_is_text(client, m):
    m.post(COMPUTE + "/servers/%s/action" % SID, json={"output": "log"})
    assert client.servers.get_console_output(SID, length=5) == "log"
    assert m.last_request.json() == {"os-getConsoleOutput": {"length": 5}}


# -- aggregates ---------------------------------------------------------


def test_aggregate_update_takes_novaclient_values(client, m):
    put = m.put(COMPUTE + "/os-aggregates/1", json={"aggregate": {"id": 1, "name": "new"}})
    assert client.aggregates.update(1, {"name": "new"}).name == "new"
    assert put.last_request.json() == {"aggregate": {"name": "new"}}
    client.aggregates.update(1, values={"availability_zone": "az"})
    assert put.last_request.json() == {"aggregate": {"availability_zone": "az"}}
    client.aggregates.update(1, "occli-style")
    assert put.last_request.json() == {"aggregate": {"name": "occli-style"}}
    with pytest.raises(ValueError):
        client.aggregates.update(1, {"hosts": []})


def test_aggregate_actions(client, m):
    act = m.post(
        COMPUTE + "/os-aggregates/1/action", json={"aggregate": {"id": 1, "hosts": ["h"]}}
    )
    assert client.aggregates.add_host(1, "h").hosts == ["h"]
    client.aggregates.set_metadata(1, {"k": "v"})
    assert act.last_request.json() == {"set_metadata": {"metadata": {"k": "v"}}}
    client.aggregates.remove_host(1, "h")
    assert act.last_request.json() == {"remove_host": {"host": "h"}}


def test_renamed_helper():
    options = {"meta": 1, "key_name": "k"}
    assert base.renamed(options, {"meta": "metadata"}, "f") == {"metadata": 1, "key_name": "k"}
    with pytest.raises(TypeError):
        base.renamed({"meta": 1, "metadata": 2}, {"meta": "metadata"}, "f")


def test_dict_and_str_with_meta(client, m):
    m.post(COMPUTE + "/servers/%s/metadata" % SID, headers=HDR, json={"metadata": {"a": "b"}})
    got = client.servers.set_meta(SID, {"a": "b"})
    assert isinstance(got, dict) and got.request_ids == ["req-1"]
    m.post(COMPUTE + "/servers/%s/action" % SID, headers=HDR, json={"output": "log"})
    out = client.servers.get_console_output(SID)
    assert isinstance(out, str) and out.request_ids == ["req-1"]
    m.post(COMPUTE + "/servers/%s/action" % SID, headers=HDR, json={"image_id": IMAGE_ID})
    image = client.servers.create_image(SID, "snap")
    assert image == IMAGE_ID and image.request_ids == ["req-1"]
