"""A subnet's IPv6 modes on the local Neutron (neutron-lib's subnet
definition, neutron's ``_validate_subnet``/``_validate_ipv6_attributes``)
and the addresses a port takes by itself: one of the first IPv4 subnet and
the EUI-64 address of its MAC on a SLAAC subnet, as Neutron 29 gave them
(tests/fixtures/network/realcloud/neutron-29-networks.json's
``port_on_net``)."""

import ipaddress

import pytest

from tests.unit.localcloud.network_harness import error


def _network(neutron):
    return neutron.create("networks", "network", {"name": "v6"})["id"]


def _subnet(neutron, net, cidr, version, **extra):
    body = {"network_id": net, "cidr": cidr, "ip_version": version, **extra}
    return neutron.create("subnets", "subnet", body)


def test_modes_are_kept_and_shown(neutron):
    net = _network(neutron)
    made = _subnet(neutron, net, "fd00:1::/64", 6, ipv6_ra_mode="slaac", ipv6_address_mode="slaac")
    assert (made["ipv6_ra_mode"], made["ipv6_address_mode"]) == ("slaac", "slaac")
    shown = neutron.get("/subnets/" + made["id"]).json()["subnet"]
    assert (shown["ipv6_ra_mode"], shown["ipv6_address_mode"]) == ("slaac", "slaac")
    plain = _subnet(neutron, net, "10.1.0.0/24", 4)
    assert (plain["ipv6_ra_mode"], plain["ipv6_address_mode"]) == (None, None)


def test_a_port_takes_one_v4_address_and_its_eui64(neutron):
    net = _network(neutron)
    v4 = _subnet(neutron, net, "10.1.0.0/24", 4)
    v6 = _subnet(neutron, net, "fd00:1::/64", 6, ipv6_address_mode="slaac")
    _subnet(neutron, net, "10.2.0.0/24", 4)
    port = neutron.create("ports", "port", {"network_id": net, "mac_address": "fa:16:3e:eb:fb:51"})
    ips = port["fixed_ips"]
    assert [ip["subnet_id"] for ip in ips] == [v4["id"], v6["id"]]
    assert ips[1]["ip_address"] == "fd00:1::f816:3eff:feeb:fb51"
    assert ipaddress.ip_address(ips[0]["ip_address"]) in ipaddress.ip_network("10.1.0.0/24")


@pytest.mark.parametrize(
    "version, cidr, extra, message",
    [
        (
            4,
            "10.3.0.0/24",
            {"ipv6_ra_mode": "slaac"},
            "Invalid input for operation: ipv6_ra_mode is not valid when ip_version is 4.",
        ),
        (
            6,
            "fd00:3::/64",
            {"ipv6_ra_mode": "slaac", "ipv6_address_mode": "dhcpv6-stateful"},
            "Invalid input for operation: ipv6_ra_mode set to 'slaac' with ipv6_address_mode "
            "set to 'dhcpv6-stateful' is not valid. If both attributes are set, they must be "
            "the same value.",
        ),
        (
            6,
            "fd00:3::/64",
            {"ipv6_address_mode": "slaac", "enable_dhcp": False},
            "Invalid input for operation: ipv6_ra_mode or ipv6_address_mode cannot be set when "
            "enable_dhcp is set to False.",
        ),
    ],
)
def test_bad_modes(neutron, version, cidr, extra, message):
    body = {"network_id": _network(neutron), "cidr": cidr, "ip_version": version, **extra}
    refused = neutron.post("/subnets", {"subnet": body})
    assert refused.status == 400
    assert error(refused) == ("InvalidInput", message)


def test_an_unknown_mode(neutron):
    body = {"network_id": _network(neutron), "cidr": "fd00:4::/64", "ip_version": 6}
    refused = neutron.post("/subnets", {"subnet": dict(body, ipv6_ra_mode="radvd")})
    assert error(refused) == (
        "HTTPBadRequest",
        "Invalid input for ipv6_ra_mode. Reason: radvd is not in valid_values.",
    )


def test_an_ipv6_subnets_default_gateway_is_its_own_address(neutron):
    made = _subnet(neutron, _network(neutron), "fd00:5::/64", 6)
    assert made["gateway_ip"] == "fd00:5::"
    pool = {"start": "fd00:5::1", "end": "fd00:5::ffff:ffff:ffff:ffff"}
    assert made["allocation_pools"] == [pool]
