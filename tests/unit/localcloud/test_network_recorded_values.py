"""The values (not only the shapes) the real Neutron 29 answered in
``tests/fixtures/network/realcloud/neutron-29-{cidrs,port_security}.json``,
asked of the local Neutron: a CIDR with host bits stored and derived as
Neutron does, and a network's ``port_security_enabled`` kept and inherited
(issue 23)."""

import pytest

from tests.unit.fakes import load_fixture


def _recorded(case, exchange):
    data = load_fixture("network", "realcloud", "neutron-29-%s.json" % case)
    return data["exchanges"][exchange]


def _values(subnet):
    """A subnet's CIDR, gateway and pools (neutron lists the pools in its
    database's order: compared as a set)."""
    pools = sorted((p["start"], p["end"]) for p in subnet["allocation_pools"])
    return subnet["cidr"], subnet["gateway_ip"], pools


@pytest.mark.parametrize(
    "exchange", ["subnet_v4_host_bits", "subnet_v6_host_bits", "subnet_v4_host_bits_gateway"]
)
def test_a_cidr_with_host_bits_is_stored_as_neutron_stores_it(neutron, exchange):
    real = _recorded("cidrs", exchange)
    net = neutron.create("networks", "network", {"name": "hostbits"})
    body = dict(real["request"]["body"]["subnet"], network_id=net["id"])
    created = neutron.create("subnets", "subnet", body)
    want = _values(real["body"]["subnet"])
    assert _values(created) == want
    assert _values(neutron.get("/subnets/" + created["id"]).json()["subnet"]) == want
    for cidr in (body["cidr"], want[0]):  # the filter converts as the create
        listed = neutron.get("/subnets?cidr=" + cidr).json()["subnets"]
        assert [s["id"] for s in listed] == [created["id"]]


def test_a_networks_port_security_is_kept_and_inherited(neutron):
    created = neutron.create(
        "networks", "network", {"name": "insecure", "port_security_enabled": False}
    )
    assert (
        _recorded("port_security", "net_create_insecure")["body"]["network"][
            "port_security_enabled"
        ]
        is created["port_security_enabled"]
        is False
    )
    assert (
        neutron.get("/networks/" + created["id"]).json()["network"]["port_security_enabled"]
        is False
    )
    neutron.create(
        "subnets",
        "subnet",
        {"network_id": created["id"], "ip_version": 4, "cidr": "10.60.0.0/24"},
    )
    inherited = neutron.create("ports", "port", {"network_id": created["id"]})
    real = _recorded("port_security", "port_inherits")["body"]["port"]
    assert (
        (inherited["port_security_enabled"], inherited["security_groups"])
        == (
            real["port_security_enabled"],
            real["security_groups"],
        )
        == (False, [])
    )
    own = neutron.create(
        "ports", "port", {"network_id": created["id"], "port_security_enabled": True}
    )
    assert own["port_security_enabled"] is True
    assert len(own["security_groups"]) == 1  # the project's default group
    updated = neutron.put(
        "/networks/" + created["id"], {"network": {"port_security_enabled": True}}
    ).json()["network"]
    assert updated["port_security_enabled"] is True
    later = neutron.create("ports", "port", {"network_id": created["id"]})
    assert later["port_security_enabled"] is True
    assert (
        neutron.get("/ports/" + inherited["id"]).json()["port"]["port_security_enabled"] is False
    )


RULE_VALUES = (
    "ethertype",
    "protocol",
    "port_range_min",
    "port_range_max",
    "remote_ip_prefix",
    "normalized_cidr",
)


@pytest.mark.parametrize(
    "exchange",
    [
        "rule_icmp_ok",
        "rule_prefix_host_bits",
        "rule_prefix_address_only",
        "rule_protocol_ip",
        "rule_protocol_upper",
        "rule_full_port_range",
        "rule_ipv6_legacy_icmp",
        "rule_ports_as_text",
    ],
)
def test_a_rule_is_stored_as_neutron_converts_it(neutron, exchange):
    """The prefix as sent (with its mask) beside its normalized CIDR, the
    protocol and ports as neutron's converters and canonical forms make
    them."""
    real = _recorded("security_groups", exchange)
    group = neutron.create("security-groups", "security_group", {"name": "web"})
    body = dict(real["request"]["body"]["security_group_rule"], security_group_id=group["id"])
    created = neutron.create("security-group-rules", "security_group_rule", body)
    want = {k: real["body"]["security_group_rule"][k] for k in RULE_VALUES}
    assert {k: created[k] for k in RULE_VALUES} == want
    shown = neutron.get("/security-group-rules/" + created["id"]).json()["security_group_rule"]
    assert {k: shown[k] for k in RULE_VALUES} == want


def test_a_rule_goes_with_its_remote_group(neutron):
    group = neutron.create("security-groups", "security_group", {"name": "web"})
    remote = neutron.create("security-groups", "security_group", {"name": "remote"})
    rule = neutron.create(
        "security-group-rules",
        "security_group_rule",
        {
            "security_group_id": group["id"],
            "direction": "ingress",
            "protocol": "tcp",
            "remote_group_id": remote["id"],
        },
    )
    assert neutron.delete("/security-groups/" + remote["id"]).status == 204
    assert _recorded("security_groups", "rule_gone_with_remote")["status"] == 404
    assert neutron.get("/security-group-rules/" + rule["id"]).status == 404
    rules = neutron.get("/security-groups/" + group["id"]).json()["security_group"]
    assert rule["id"] not in [r["id"] for r in rules["security_group_rules"]]


def test_a_network_devices_port_has_no_port_security(neutron):
    """A router gateway's port, as the recorded one (``is_port_trusted``)."""
    real = _recorded("external", "router_gateway_port")["body"]["ports"][0]
    router = neutron.create(
        "routers", "router", {"external_gateway_info": {"network_id": neutron.public()}}
    )
    query = "device_id=%s&device_owner=network:router_gateway" % router["id"]
    (port,) = neutron.get("/ports?" + query, user="admin").json()["ports"]
    assert (
        (port["port_security_enabled"], port["security_groups"])
        == (
            real["port_security_enabled"],
            real["security_groups"],
        )
        == (False, [])
    )
