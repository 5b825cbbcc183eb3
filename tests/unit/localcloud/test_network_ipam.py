"""Address allocation of the local Neutron: dense allocation takes the next
address in one lookup; after deletes a freed address is found again;
several pools are used in turn; pools may neither overlap nor hold the
gateway (neutron's 409s, texts from neutron-lib's exceptions)."""

import pytest

from tests.unit.localcloud.network_harness import PRIVATE
from tests.unit.localcloud.network_harness import error


def _address(neutron, network_id=PRIVATE):
    port = neutron.create("ports", "port", {"network_id": network_id})
    return port["id"], port["fixed_ips"][0]["ip_address"]


def test_dense_allocation_continues_past_the_allocated(neutron):
    addresses = [_address(neutron)[1] for _ in range(5)]
    # .1 is the gateway, .2 the DHCP port
    assert addresses == ["10.0.0.%d" % n for n in range(3, 8)]


def test_a_freed_address_is_reused_when_the_next_is_taken(neutron):
    ports = [_address(neutron) for _ in range(3)]
    assert neutron.delete("/ports/" + ports[0][0]).status == 204
    # the next by count (.5) is taken: the lowest free one (.3) is found
    assert _address(neutron)[1] == "10.0.0.3"
    assert _address(neutron)[1] == "10.0.0.6"


def _subnet(neutron, pools, gateway="10.9.9.1"):
    net = neutron.create("networks", "network", {"name": "pools"})
    body = {
        "network_id": net["id"],
        "cidr": "10.9.9.0/28",
        "ip_version": 4,
        "gateway_ip": gateway,
        "allocation_pools": [{"start": s, "end": e} for s, e in pools],
    }
    return net["id"], neutron.post("/subnets", {"subnet": body})


def test_several_pools_in_turn(neutron):
    net, made = _subnet(neutron, [("10.9.9.10", "10.9.9.11"), ("10.9.9.2", "10.9.9.3")])
    assert made.status == 201, made.body
    got = [_address(neutron, net)[1] for _ in range(4)]
    assert sorted(got) == ["10.9.9.10", "10.9.9.11", "10.9.9.2", "10.9.9.3"]
    assert neutron.post("/ports", {"port": {"network_id": net}}).status == 409


@pytest.mark.parametrize(
    "pools, gateway, kind, message",
    [
        (
            [("10.9.9.2", "10.9.9.4")],
            "10.9.9.3",
            "GatewayConflictWithAllocationPools",
            "Gateway ip 10.9.9.3 conflicts with allocation pool 10.9.9.2-10.9.9.4.",
        ),
        (
            [("10.9.9.2", "10.9.9.6"), ("10.9.9.5", "10.9.9.8")],
            "10.9.9.1",
            "OverlappingAllocationPools",
            "Found overlapping allocation pools: 10.9.9.2-10.9.9.6 10.9.9.5-10.9.9.8 for "
            "subnet 10.9.9.0/28.",
        ),
    ],
)
def test_bad_pools_are_refused(neutron, pools, gateway, kind, message):
    _, refused = _subnet(neutron, pools, gateway)
    assert refused.status == 409
    assert error(refused) == (kind, message)
