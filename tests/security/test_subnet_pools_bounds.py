"""Issue 19, finding 11: a subnet of thousands of single-address allocation
pools made each port create re-parse every pool in its write transaction;
they are now parsed once per subnet (and still allocated in their order,
the lowest free address when allocation is not dense). Neutron keeps no
limit on the number of pools, so none is added. Subnets of prefix length 0
(``0.0.0.0/0``, ``::/0``) are refused as neutron refuses them
(``_validate_subnet_cidr``)."""

import ipaddress
import json

import pytest

from occli.localcloud.network import subnets
from tests.unit.localcloud.network_harness import Neutron
from tests.unit.localcloud.network_harness import error
from tests.unit.localcloud.network_harness import make_cloud

POOLS = 2000


@pytest.fixture
def neutron(tmp_path):
    cloud = make_cloud(tmp_path / "data")
    yield Neutron(cloud)
    cloud.close()


def _single_pools(cidr, count):
    """``count`` one-address pools, every other address from the third."""
    net = ipaddress.ip_network(cidr)
    first = net.network_address + 2
    return [{"start": str(first + 2 * i), "end": str(first + 2 * i)} for i in range(count)]


def _subnet(neutron, cidr, pools, version=4):
    net = neutron.create("networks", "network", {"name": "many"})
    subnet = neutron.create(
        "subnets",
        "subnet",
        {"network_id": net["id"], "cidr": cidr, "ip_version": version, "allocation_pools": pools},
    )
    return net, subnet


def _port(neutron, net):
    return neutron.create("ports", "port", {"network_id": net["id"]})["fixed_ips"][0]["ip_address"]


class _CountingJson:
    """``json`` for the subnets module, counting decodes of one text."""

    def __init__(self, text):
        self.text, self.decoded = text, 0

    def loads(self, value):
        if value == self.text:
            self.decoded += 1
        return json.loads(value)

    dumps = staticmethod(json.dumps)


def test_the_pools_are_parsed_once_per_subnet(neutron, monkeypatch):
    pools = _single_pools("10.20.0.0/16", POOLS)
    net, subnet = _subnet(neutron, "10.20.0.0/16", pools)
    with neutron.cloud.store.read() as db:
        (stored,) = db.execute(
            "SELECT allocation_pools FROM network_subnets WHERE id = ?", (subnet["id"],)
        ).fetchone()
    counting = _CountingJson(stored)
    monkeypatch.setattr(subnets, "json", counting)
    addresses = [_port(neutron, net) for _ in range(20)]
    assert counting.decoded == 1
    # the pools' order, one address each
    assert addresses == [p["start"] for p in pools[:20]]


def test_a_freed_address_is_found_again(neutron):
    pools = _single_pools("10.21.0.0/16", 50)
    net, _ = _subnet(neutron, "10.21.0.0/16", pools)
    ports = [neutron.create("ports", "port", {"network_id": net["id"]}) for _ in range(5)]
    assert neutron.delete("/ports/" + ports[1]["id"]).status == 204
    # not dense any more: the lowest free address, the freed one
    assert _port(neutron, net) == pools[1]["start"]
    assert _port(neutron, net) == pools[5]["start"]


def test_ipv6_pools(neutron):
    pools = [{"start": "fd00::10", "end": "fd00::11"}, {"start": "fd00::5", "end": "fd00::5"}]
    net, _ = _subnet(neutron, "fd00::/64", pools, version=6)
    assert [_port(neutron, net) for _ in range(3)] == ["fd00::10", "fd00::11", "fd00::5"]
    full = neutron.post("/ports", {"port": {"network_id": net["id"]}})
    assert full.status == 409
    assert error(full)[0] == "IpAddressGenerationFailure"


@pytest.mark.parametrize("cidr,version", [("0.0.0.0/0", 4), ("::/0", 6)])
def test_prefix_length_zero_is_refused(neutron, cidr, version):
    net = neutron.create("networks", "network", {"name": "all"})
    result = neutron.post(
        "/subnets", {"subnet": {"network_id": net["id"], "cidr": cidr, "ip_version": version}}
    )
    assert result.status == 400
    assert error(result) == (
        "InvalidInput",
        "Invalid input for operation: 0 is not allowed as CIDR prefix length.",
    )
    assert neutron.get("/subnets?network_id=" + net["id"]).json()["subnets"] == []
