"""``availability zone list`` and ``security group rule list`` as OSC 10.5
builds them (openstackclient/common/availability_zone.py,
openstackclient/network/v2/security_group_rule.py): Nova's, Neutron's and
Cinder's zones in that order, and the rule's IP and port ranges OSC
derives, in-process against requests-mock."""

import json

from .fakes import COMPUTE
from .fakes import NETWORK
from .fakes import VOLUME
from .fakes import requests_to

V2 = NETWORK + "/v2.0"
NOVA_ZONES = {"availabilityZoneInfo": [{"zoneName": "nova", "zoneState": {"available": True}}]}
NEUTRON_ZONES = {
    "availability_zones": [
        {"name": "az-net", "resource": "network", "state": "available"},
        {"name": "az-router", "resource": "router", "state": "unavailable"},
    ]
}
CINDER_ZONE = {"zoneName": "az-vol", "zoneState": {"available": False}}
CINDER_ZONES = {"availabilityZoneInfo": [CINDER_ZONE]}
EXTENSION = {"extension": {"alias": "availability_zone", "name": "Availability Zone"}}


def _zones(m):
    m.get(COMPUTE + "/os-availability-zone", json=NOVA_ZONES)
    m.get(V2 + "/extensions/availability_zone", json=EXTENSION)
    m.get(V2 + "/availability_zones", json=NEUTRON_ZONES)
    m.get(VOLUME + "/os-availability-zone", json=CINDER_ZONES)


def test_availability_zone_list_shows_every_services_zones(cli, mock_cloud):
    _zones(mock_cloud.mock)
    code, out, err = cli("availability", "zone", "list", "-f", "json")
    assert code == 0, err
    assert json.loads(out) == [
        {"Zone Name": "nova", "Zone Status": "available"},
        {"Zone Name": "az-net", "Zone Status": "available"},
        {"Zone Name": "az-router", "Zone Status": "not available"},
        {"Zone Name": "az-vol", "Zone Status": "not available"},
    ]


def test_availability_zone_list_long_gives_neutrons_resource(cli, mock_cloud):
    _zones(mock_cloud.mock)
    code, out, err = cli("availability", "zone", "list", "--network", "--long", "-f", "json")
    assert code == 0, err
    assert [(r["Zone Name"], r["Zone Resource"], r["Host Name"]) for r in json.loads(out)] == [
        ("az-net", "network", ""),
        ("az-router", "router", ""),
    ]
    assert not requests_to(mock_cloud.mock, "GET", "/os-availability-zone")


def test_availability_zone_list_skips_a_neutron_without_zones(cli, mock_cloud):
    m = mock_cloud.mock
    _zones(m)
    m.get(V2 + "/extensions/availability_zone", status_code=404, json={})
    code, out, err = cli("availability", "zone", "list", "--network", "--volume", "-f", "json")
    assert code == 0, err
    assert json.loads(out) == [{"Zone Name": "az-vol", "Zone Status": "not available"}]
    assert not requests_to(m, "GET", "/v2.0/availability_zones")


def _rule(**fields):
    rule = {
        "id": "r1",
        "protocol": None,
        "ethertype": "IPv4",
        "remote_ip_prefix": None,
        "port_range_min": None,
        "port_range_max": None,
        "direction": "ingress",
        "remote_group_id": None,
        "remote_address_group_id": None,
        "security_group_id": "g1",
    }
    return dict(rule, **fields)


def test_security_group_rule_list_ranges_as_osc(cli, mock_cloud):
    rules = [
        _rule(),
        _rule(ethertype="IPv6", protocol="tcp", port_range_min=22, port_range_max=24),
        _rule(protocol="icmp", port_range_min=3, port_range_max=0),
        _rule(protocol="ipv6-icmp", ethertype="IPv6", port_range_min=128, port_range_max=1),
        _rule(protocol="udp", remote_ip_prefix="10.0.0.0/8", port_range_max=53),
    ]
    mock_cloud.mock.get(V2 + "/security-group-rules", json={"security_group_rules": rules})
    code, out, err = cli("security", "group", "rule", "list", "-f", "json")
    assert code == 0, err
    shown = json.loads(out)
    assert [(r["IP Range"], r["Port Range"]) for r in shown] == [
        ("0.0.0.0/0", ""),
        ("::/0", "22:24"),
        ("0.0.0.0/0", "type=3"),
        ("::/0", "type=128:code=1"),
        ("10.0.0.0/8", "53:53"),
    ]
    assert list(shown[0]) == [
        "ID",
        "IP Protocol",
        "Ethertype",
        "IP Range",
        "Port Range",
        "Direction",
        "Remote Security Group",
        "Remote Address Group",
        "Security Group",
    ]
