"""Nova over the local Neutron: a server's ports, ``networks`` and
``security_groups`` at boot, os-interface, the network actions, the
proxies gone at 2.36, and older data directories. Answers of real nova 34
are replayed from tests/fixtures/compute/realcloud/nova-34-networks.json."""

import json
import pathlib

import pytest

from occli.localcloud.cloud import Config
from occli.localcloud.cloud import LocalCloud
from tests.unit.localcloud.compute_harness import Nova
from tests.unit.localcloud.compute_harness import fault
from tests.unit.localcloud.network_harness import PRIVATE
from tests.unit.localcloud.network_harness import Neutron
from tests.unit.localcloud.network_harness import make_cloud

REAL = json.loads(
    (
        pathlib.Path(__file__).parents[2] / "fixtures/compute/realcloud/nova-34-networks.json"
    ).read_text()
)["exchanges"]


@pytest.fixture
def env(tmp_path):
    cloud = make_cloud(tmp_path / "data")
    nova = Nova(cloud)
    nova.tokens["alt"] = nova.client.token("alt")
    yield nova, Neutron(cloud)
    cloud.close()


def _ports(neutron, server_id, user="demo"):
    return neutron.get("/ports?device_id=" + server_id, user=user).json()["ports"]


def _replay(nova, name, **values):
    exchange = REAL[name]
    request = exchange["request"]
    body = request.get("body")
    if body is not None:
        body = json.loads(
            json.dumps(body).replace("{flavor}", "1").replace("{image}", values.get("image", ""))
        )
    path = request["path"].replace("{server_id}", values.get("server_id", ""))
    result = nova.call(request["method"], path, json=body, version=request["version"])
    assert (result.status, result.json()) == (exchange["status"], exchange["body"]), name


# -- boot and delete -----------------------------------------------------------------


def test_a_servers_port_is_a_neutron_port(env):
    nova, neutron = env
    server_id = nova.create()
    server = nova.show(server_id, version="2.47")
    (port,) = _ports(neutron, server_id)
    assert port["device_owner"] == "compute:nova"
    assert port["status"] == "ACTIVE"
    assert port["project_id"] == neutron.project_id("demo")
    (address,) = server["addresses"]["private"]
    assert address["addr"] == port["fixed_ips"][0]["ip_address"] == "10.0.0.3"
    assert address["OS-EXT-IPS-MAC:mac_addr"] == port["mac_address"]
    admin_port = neutron.get("/ports/" + port["id"], user="admin").json()["port"]
    assert (
        admin_port["binding:host_id"] == nova.show(server_id, user="admin")["OS-EXT-SRV-ATTR:host"]
    )
    (group,) = port["security_groups"]
    assert neutron.get("/security-groups/" + group).json()["security_group"]["name"] == "default"
    assert server["security_groups"] == [{"name": "default"}]
    assert nova.get("/servers/%s/ips" % server_id).json()["addresses"]["private"] == [
        {"addr": "10.0.0.3", "version": 4}
    ]
    assert nova.delete("/servers/" + server_id).status == 204
    assert _ports(neutron, server_id) == []


def test_a_users_port_is_bound_then_unbound(env):
    nova, neutron = env
    port = neutron.create("ports", "port", {"network_id": PRIVATE, "name": "mine"})
    server_id = nova.create(networks=[{"port": port["id"]}])
    bound = neutron.get("/ports/" + port["id"]).json()["port"]
    assert (bound["device_id"], bound["device_owner"]) == (server_id, "compute:nova")
    assert (
        nova.show(server_id)["addresses"]["private"][0]["addr"]
        == (port["fixed_ips"][0]["ip_address"])
    )
    in_use = nova.create(expect=409, networks=[{"port": port["id"]}])
    assert fault(in_use) == (
        "conflictingRequest",
        409,
        "Port %s is still in use." % port["id"],
    )
    nova.delete("/servers/" + server_id)
    kept = neutron.get("/ports/" + port["id"]).json()["port"]
    assert (kept["device_id"], kept["device_owner"], kept["name"]) == ("", "", "mine")


def test_networks_checks(env):
    nova, neutron = env
    _replay(nova, "create_unknown_network", image=nova.show(nova.create())["image"]["id"])
    alt_port = neutron.create("ports", "port", {"network_id": PRIVATE}, user="alt")
    foreign = nova.create(expect=400, networks=[{"port": alt_port["id"]}])
    assert fault(foreign)[2] == "Port id %s could not be found." % alt_port["id"]
    # choosing the address is the network owner's (private: the admin's)
    first = nova.create(user="admin", networks=[{"uuid": PRIVATE, "fixed_ip": "10.0.4.4"}])
    taken = nova.create(expect=400, networks=[{"uuid": PRIVATE, "fixed_ip": "10.0.4.4"}])
    assert fault(taken)[2] == "Fixed IP address 10.0.4.4 is already in use on instance %s." % (
        first
    )
    public = nova.create(expect=403, networks=[{"uuid": neutron.public()}])
    assert fault(public)[2] == (
        "It is not allowed to create an interface on external network %s" % neutron.public()
    )
    bare = neutron.create("networks", "network", {"name": "bare"})
    no_subnet = nova.create(expect=400, networks=[{"uuid": bare["id"]}])
    assert fault(no_subnet)[2] == (
        "Network %s requires a subnet in order to boot instances on." % bare["id"]
    )
    # two networks to choose from: auto (and no networks) is ambiguous
    for extra in ({"version": "2.37", "networks": "auto"}, {}):
        ambiguous = nova.create(expect=409, **extra)
        assert fault(ambiguous)[2] == (
            "More than one possible network found. Specify network ID(s) to select which "
            "one(s) to connect to."
        )
    # none: no port
    portless = nova.create(version="2.37", networks="none")
    assert _ports(neutron, portless) == []
    # nothing was left by the refused creates (one for the image id, one
    # made; the admin's is not listed)
    assert len(nova.get("/servers").json()["servers"]) == 2


def test_several_servers_get_a_port_each(env):
    nova, neutron = env
    result = nova.post(
        "/servers",
        {
            "server": {
                "name": "many",
                "flavorRef": "1",
                "imageRef": nova.show(nova.create())["image"]["id"],
                "min_count": 3,
            }
        },
    )
    assert result.status == 202
    servers = nova.get("/servers/detail?name=many").json()["servers"]
    addresses = {s["addresses"]["private"][0]["addr"] for s in servers}
    assert len(servers) == 3 and len(addresses) == 3


def test_security_groups_at_boot(env):
    nova, neutron = env
    _replay(nova, "create_unknown_security_group", image=nova.show(nova.create())["image"]["id"])
    web = neutron.create("security-groups", "security_group", {"name": "web"})
    server_id = nova.create(security_groups=[{"name": "web"}, {"name": web["id"]}])
    (port,) = _ports(neutron, server_id)
    assert port["security_groups"] == [web["id"]]
    assert nova.show(server_id)["security_groups"] == [{"name": "web"}]
    alt_group = neutron.create("security-groups", "security_group", {"name": "alts"}, user="alt")
    refused = nova.create(expect=400, security_groups=[{"name": alt_group["id"]}])
    assert fault(refused)[2] == (
        "Unable to find security_group with name or id '%s'" % alt_group["id"]
    )


def test_neutron_changes_reach_the_server(env):
    nova, neutron = env
    server_id = nova.create()
    (port,) = _ports(neutron, server_id)
    fip = neutron.create(
        "floatingips",
        "floatingip",
        {"floating_network_id": neutron.public(), "port_id": port["id"]},
    )
    entries = nova.show(server_id)["addresses"]["private"]
    assert [(e["addr"], e["OS-EXT-IPS:type"]) for e in entries] == [
        ("10.0.0.3", "fixed"),
        (fip["floating_ip_address"], "floating"),
    ]
    neutron.put("/floatingips/" + fip["id"], {"floatingip": {"port_id": None}})
    assert len(nova.show(server_id)["addresses"]["private"]) == 1
    neutron.put("/floatingips/" + fip["id"], {"floatingip": {"port_id": port["id"]}})
    neutron.delete("/floatingips/" + fip["id"])
    assert len(nova.show(server_id)["addresses"]["private"]) == 1
    neutron.delete("/ports/" + port["id"])
    assert nova.show(server_id)["addresses"] == {}


# -- os-interface --------------------------------------------------------------------


def test_interfaces(env):
    nova, neutron = env
    server_id = nova.create()
    base = "/servers/%s/os-interface" % server_id
    (listed,) = nova.get(base).json()["interfaceAttachments"]
    (port,) = _ports(neutron, server_id)
    assert listed == {
        "net_id": PRIVATE,
        "port_id": port["id"],
        "mac_addr": port["mac_address"],
        "port_state": "ACTIVE",
        "fixed_ips": port["fixed_ips"],
    }
    made = nova.post(
        base,
        {
            "interfaceAttachment": {
                "net_id": PRIVATE,
                "fixed_ips": [{"ip_address": "10.0.3.3"}],
                "tag": "second",
            }
        },
        user="admin",  # choosing the address is the network owner's
        version="2.70",
    )
    assert made.status == 200, made.body
    attachment = made.json()["interfaceAttachment"]
    assert attachment["fixed_ips"][0]["ip_address"] == "10.0.3.3"
    assert attachment["tag"] == "second"
    shown = nova.get(base + "/" + attachment["port_id"], version="2.70").json()
    assert shown["interfaceAttachment"]["tag"] == "second"
    assert "tag" not in nova.get(base + "/" + attachment["port_id"]).json()["interfaceAttachment"]
    assert len(nova.show(server_id)["addresses"]["private"]) == 2
    # a user's port
    own = neutron.create("ports", "port", {"network_id": PRIVATE})
    assert nova.post(base, {"interfaceAttachment": {"port_id": own["id"]}}).status == 200
    assert nova.delete(base + "/" + own["id"]).status == 202
    assert neutron.get("/ports/" + own["id"]).json()["port"]["device_id"] == ""
    # nova's own port goes
    assert nova.delete(base + "/" + attachment["port_id"]).status == 202
    assert neutron.get("/ports/" + attachment["port_id"]).status == 404
    assert len(nova.show(server_id)["addresses"]["private"]) == 1


def test_interface_refusals(env):
    nova, neutron = env
    server_id = nova.create()
    other = nova.create()
    base = "/servers/%s/os-interface" % server_id
    both = nova.post(base, {"interfaceAttachment": {"net_id": PRIVATE, "port_id": PRIVATE}})
    assert fault(both) == ("badRequest", 400, "Must not input both network_id and port_id")
    ip_only = nova.post(base, {"interfaceAttachment": {"fixed_ips": [{"ip_address": "10.0.9.1"}]}})
    assert fault(ip_only)[2] == "Must input network_id when request IP address"
    tag_early = nova.post(
        base, {"interfaceAttachment": {"net_id": PRIVATE, "tag": "t"}}, version="2.48"
    )
    assert tag_early.status == 400
    (other_port,) = _ports(neutron, other)
    not_mine = nova.get(base + "/" + other_port["id"])
    assert fault(not_mine) == (
        "itemNotFound",
        404,
        "Instance %s does not have a port with id %s" % (server_id, other_port["id"]),
    )
    in_use = nova.post(base, {"interfaceAttachment": {"port_id": other_port["id"]}})
    assert fault(in_use) == (
        "conflictingRequest",
        409,
        "Port %s is still in use." % other_port["id"],
    )
    unknown = nova.post(
        base, {"interfaceAttachment": {"net_id": "4fd44f30-0000-4a4b-a2b0-0e6c2dbd2a4b"}}
    )
    assert fault(unknown)[:2] == ("itemNotFound", 404)
    assert nova.action(server_id, {"lock": None}).status == 202
    locked = nova.post(base, {"interfaceAttachment": {"net_id": PRIVATE}})
    assert fault(locked) == ("conflictingRequest", 409, "Instance %s is locked" % server_id)
    # detaching another server's port changes nothing (nova's compute logs it)
    detached = nova.delete(
        "/servers/%s/os-interface/%s" % (server_id, other_port["id"]), user="admin"
    )
    assert detached.status == 202
    assert len(_ports(neutron, other)) == 1
    assert nova.get("/servers/%s/os-interface" % server_id, user="alt").status == 404


# -- actions -------------------------------------------------------------------------


def test_floating_ip_actions(env):
    nova, neutron = env
    server_id = nova.create()
    fip = neutron.create("floatingips", "floatingip", {"floating_network_id": neutron.public()})
    address = fip["floating_ip_address"]
    assert nova.action(server_id, {"addFloatingIp": {"address": address}}).status == 202
    types = [e["OS-EXT-IPS:type"] for e in nova.show(server_id)["addresses"]["private"]]
    assert types == ["fixed", "floating"]
    assert neutron.get("/floatingips/" + fip["id"]).json()["floatingip"]["status"] == "ACTIVE"
    other = nova.create()
    refused = nova.action(other, {"removeFloatingIp": {"address": address}})
    assert fault(refused) == (
        "conflictingRequest",
        409,
        "Floating IP %s is not associated with instance %s." % (address, other),
    )
    assert nova.action(server_id, {"removeFloatingIp": {"address": address}}).status == 202
    assert len(nova.show(server_id)["addresses"]["private"]) == 1
    unknown = nova.action(server_id, {"addFloatingIp": {"address": "172.24.4.250"}})
    assert fault(unknown) == ("itemNotFound", 404, "floating IP not found")
    wrong_fixed = nova.action(
        server_id, {"addFloatingIp": {"address": address, "fixed_address": "10.0.99.9"}}
    )
    assert fault(wrong_fixed)[2] == "Specified fixed address not assigned to instance"
    for name in ("add_floating_ip_2_44", "remove_floating_ip_2_44", "add_fixed_ip_2_44"):
        _replay(nova, name, server_id=server_id)


def test_fixed_ip_actions(env):
    nova, neutron = env
    server_id = nova.create()
    # changing fixed IPs is the network owner's (private: the admin's)
    added = nova.action(server_id, {"addFixedIp": {"networkId": PRIVATE}}, user="admin")
    assert added.status == 202
    (port,) = _ports(neutron, server_id)
    addresses = [ip["ip_address"] for ip in port["fixed_ips"]]
    assert len(addresses) == 2
    assert len(nova.show(server_id)["addresses"]["private"]) == 2
    removed = nova.action(server_id, {"removeFixedIp": {"address": addresses[1]}}, user="admin")
    assert removed.status == 202
    assert len(nova.show(server_id)["addresses"]["private"]) == 1
    missing = nova.action(server_id, {"removeFixedIp": {"address": "10.0.99.9"}})
    assert fault(missing) == (
        "badRequest",
        400,
        "Instance %s does not have fixed IP '10.0.99.9'." % server_id,
    )


def test_security_group_actions(env):
    nova, neutron = env
    server_id = nova.create()
    web = neutron.create("security-groups", "security_group", {"name": "web"})
    assert nova.action(server_id, {"addSecurityGroup": {"name": "web"}}).status == 202
    (port,) = _ports(neutron, server_id)
    assert web["id"] in port["security_groups"]
    assert {g["name"] for g in nova.show(server_id)["security_groups"]} == {"default", "web"}
    assert nova.action(server_id, {"removeSecurityGroup": {"name": "web"}}).status == 202
    assert nova.show(server_id)["security_groups"] == [{"name": "default"}]
    again = nova.action(server_id, {"removeSecurityGroup": {"name": "web"}})
    assert fault(again) == (
        "itemNotFound",
        404,
        "Security group web not associated with the instance %s" % server_id,
    )
    unknown = nova.action(server_id, {"addSecurityGroup": {"name": "nosuch"}})
    assert fault(unknown) == (
        "itemNotFound",
        404,
        "Security group nosuch is not found for project %s" % neutron.project_id("demo"),
    )
    portless = nova.create(version="2.37", networks="none")
    no_ports = nova.action(portless, {"addSecurityGroup": {"name": "web"}})
    assert fault(no_ports)[2] == (
        "instance_id %s could not be found as device id on any ports" % portless
    )
    assert nova.action(server_id, {"addSecurityGroup": {}}).status == 400


# -- the proxies (until 2.35) -------------------------------------------------------------


def test_floating_ip_proxies(env):
    nova, neutron = env
    pools = nova.get("/os-floating-ip-pools").json()
    assert pools == {"floating_ip_pools": [{"name": "public"}]}
    made = nova.post("/os-floating-ips", {"pool": "public"}).json()["floating_ip"]
    assert made["pool"] == "public" and made["ip"].startswith("172.24.4.")
    assert (made["fixed_ip"], made["instance_id"]) == (None, None)
    server_id = nova.create()
    nova.action(server_id, {"addFloatingIp": {"address": made["ip"]}})
    shown = nova.get("/os-floating-ips/" + made["id"]).json()["floating_ip"]
    assert shown["instance_id"] == server_id and shown["fixed_ip"] == "10.0.0.3"
    assert [f["id"] for f in nova.get("/os-floating-ips").json()["floating_ips"]] == [made["id"]]
    assert nova.get("/os-floating-ips", user="admin").json()["floating_ips"] == []
    no_pool = nova.post("/os-floating-ips", {"pool": "nosuch"})
    assert fault(no_pool) == ("itemNotFound", 404, "Floating IP pool not found.")
    assert nova.delete("/os-floating-ips/" + made["id"]).status == 202
    assert len(nova.show(server_id)["addresses"]["private"]) == 1
    gone = nova.get("/os-floating-ips/" + made["id"])
    assert fault(gone)[2] == "Floating IP not found for ID %s" % made["id"]
    _replay(nova, "floating_ip_pools_2_36")


def test_security_group_proxies(env):
    nova, _ = env
    made = nova.post(
        "/os-security-groups", {"security_group": {"name": "web", "description": "www"}}
    )
    assert made.status == 200
    group = made.json()["security_group"]
    assert (group["name"], group["description"], group["rules"]) == ("web", "www", [])
    rule = nova.post(
        "/os-security-group-rules",
        {
            "security_group_rule": {
                "parent_group_id": group["id"],
                "ip_protocol": "tcp",
                "from_port": 22,
                "to_port": 22,
                "cidr": "10.0.0.0/24",
            }
        },
    ).json()["security_group_rule"]
    assert rule == {
        "id": rule["id"],
        "parent_group_id": group["id"],
        "ip_protocol": "tcp",
        "from_port": 22,
        "to_port": 22,
        "group": {},
        "ip_range": {"cidr": "10.0.0.0/24"},
    }
    again = nova.post(
        "/os-security-group-rules",
        {
            "security_group_rule": {
                "parent_group_id": group["id"],
                "ip_protocol": "tcp",
                "from_port": 22,
                "to_port": 22,
                "cidr": "10.0.0.0/24",
            }
        },
    )
    assert fault(again)[2] == "This rule already exists in group %s" % group["id"]
    shown = nova.get("/os-security-groups/" + group["id"]).json()["security_group"]
    assert [r["id"] for r in shown["rules"]] == [rule["id"]]
    renamed = nova.put(
        "/os-security-groups/" + group["id"],
        {"security_group": {"name": "www", "description": "d"}},
    )
    assert renamed.json()["security_group"]["name"] == "www"
    server_id = nova.create(security_groups=[{"name": "www"}])
    listed = nova.get("/servers/%s/os-security-groups" % server_id).json()["security_groups"]
    assert [g["name"] for g in listed] == ["www"]
    # not a proxy: still there after 2.35 (nova's ServerSecurityGroupController)
    latest = nova.get("/servers/%s/os-security-groups" % server_id, version="2.96")
    assert latest.json()["security_groups"] == listed
    in_use = nova.delete("/os-security-groups/" + group["id"])
    assert fault(in_use) == ("badRequest", 400, "Security Group %s in use." % group["id"])
    assert nova.delete("/os-security-group-rules/" + rule["id"]).status == 202
    nova.delete("/servers/" + server_id)
    assert nova.delete("/os-security-groups/" + group["id"]).status == 202
    assert nova.get("/os-security-groups/" + group["id"]).status == 404
    assert nova.get("/os-security-groups/" + group["id"], version="2.36").status == 404
    _replay(nova, "security_group_bad_id_2_35")


def test_network_proxy(env):
    nova, _ = env
    listed = nova.get("/os-networks").json()["networks"]
    assert {n["label"] for n in listed} == {"private", "public"}
    shown = nova.get("/os-networks/" + PRIVATE).json()["network"]
    assert shown["id"] == PRIVATE and shown["label"] == "private" and shown["cidr"] is None
    assert fault(nova.get("/os-networks/nope")) == ("itemNotFound", 404, "Network not found")
    assert nova.get("/os-networks", version="2.36").status == 404


def test_proxy_policy_is_after_the_version(env):
    nova, _ = env
    body = {"security_group": {"name": "x", "description": "y"}}
    assert nova.post("/os-security-groups", body, version="2.36").status == 404


# -- older data directories ---------------------------------------------------------------


def test_servers_of_older_data_directories_get_ports(tmp_path):
    cloud = make_cloud(tmp_path / "data")
    nova = Nova(cloud)
    server_id = nova.create()
    legacy = [{"network": "private", "addr": "10.0.0.77", "mac": "fa:16:3e:aa:bb:cc"}]
    with cloud.store.transaction() as db:
        db.execute("DELETE FROM network_ports WHERE device_id = ?", (server_id,))
        db.execute("UPDATE servers SET ports = ? WHERE id = ?", (json.dumps(legacy), server_id))
    cloud.close()
    reopened = LocalCloud(Config(data_dir=str(tmp_path / "data"), build_time=0))
    try:
        neutron = Neutron(reopened)
        (port,) = _ports(neutron, server_id)
        assert port["mac_address"] == "fa:16:3e:aa:bb:cc"
        assert port["fixed_ips"][0]["ip_address"] == "10.0.0.77"
        (entry,) = Nova(reopened).show(server_id)["addresses"]["private"]
        assert entry["addr"] == "10.0.0.77"
    finally:
        reopened.close()


def test_a_reclaimed_servers_ports_are_released(tmp_path, clock):
    cloud = make_cloud(tmp_path / "data", reclaim_instance_interval=60)
    try:
        nova, neutron = Nova(cloud), Neutron(cloud)
        port = neutron.create("ports", "port", {"network_id": PRIVATE})
        server_id = nova.create(networks=[{"port": port["id"]}])
        nova.show(server_id)
        assert nova.delete("/servers/" + server_id).status == 204
        # soft-deleted: still bound (restorable)
        assert neutron.get("/ports/" + port["id"]).json()["port"]["device_id"] == server_id
        clock.advance(61)
        assert nova.get("/servers/" + server_id).status == 404
        again = nova.create(networks=[{"port": port["id"]}])
        assert neutron.get("/ports/" + port["id"]).json()["port"]["device_id"] == again
        assert neutron.get("/ports?device_id=" + server_id).json()["ports"] == []
    finally:
        cloud.close()
