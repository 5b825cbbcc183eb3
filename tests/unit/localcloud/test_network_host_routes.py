"""A subnet's ``host_routes`` on the local Neutron: set on create, replaced
on update, checked as neutron-lib's ``validate_hostroutes`` and neutron's
``_validate_subnet`` do (``max_subnet_host_routes`` 20, the subnet's IP
version), with their texts."""

import pytest

from tests.unit.localcloud.network_harness import error

ROUTE = {"destination": "192.168.0.0/24", "nexthop": "10.6.0.254"}


def _subnet(neutron, **extra):
    net = neutron.create("networks", "network", {"name": "hr"})
    body = {"network_id": net["id"], "ip_version": 4, "cidr": "10.6.0.0/24", **extra}
    return neutron.create("subnets", "subnet", body)


def test_create_and_update(neutron):
    subnet = _subnet(neutron, host_routes=[ROUTE])
    assert subnet["host_routes"] == [ROUTE]
    assert neutron.get("/subnets/" + subnet["id"]).json()["subnet"]["host_routes"] == [ROUTE]
    other = {"destination": "0.0.0.0/0", "nexthop": "10.6.0.1"}
    updated = neutron.put("/subnets/" + subnet["id"], {"subnet": {"host_routes": [other, ROUTE]}})
    assert updated.status == 200, updated.body
    assert updated.json()["subnet"]["host_routes"] == [other, ROUTE]
    assert updated.json()["subnet"]["revision_number"] == subnet["revision_number"] + 1
    cleared = neutron.put("/subnets/" + subnet["id"], {"subnet": {"host_routes": None}})
    assert cleared.json()["subnet"]["host_routes"] == []
    assert neutron.get("/subnets/" + subnet["id"]).json()["subnet"]["host_routes"] == []


def test_the_limit_is_twenty(neutron):
    routes = [{"destination": "192.168.%d.0/24" % i, "nexthop": "10.6.0.9"} for i in range(21)]
    net = neutron.create("networks", "network", {"name": "hr"})
    body = {"network_id": net["id"], "ip_version": 4, "cidr": "10.6.0.0/24"}
    refused = neutron.post("/subnets", {"subnet": dict(body, host_routes=routes)})
    assert refused.status == 400
    assert error(refused) == (
        "HostRoutesExhausted",
        "Unable to complete operation for new subnet. The number of host routes exceeds "
        "the limit 20.",
    )
    assert neutron.get("/subnets?network_id=" + net["id"]).json()["subnets"] == []
    subnet = neutron.create("subnets", "subnet", dict(body, host_routes=routes[:20]))
    assert len(subnet["host_routes"]) == 20
    refused = neutron.put("/subnets/" + subnet["id"], {"subnet": {"host_routes": routes}})
    assert error(refused) == (
        "HostRoutesExhausted",
        "Unable to complete operation for %s. The number of host routes exceeds the limit 20."
        % subnet["id"],
    )
    assert len(neutron.get("/subnets/" + subnet["id"]).json()["subnet"]["host_routes"]) == 20


@pytest.mark.parametrize(
    ("routes", "reason"),
    [
        ("x", "Invalid data format for hostroute: 'x'"),
        (["x"], "Invalid input. 'x' must be a dictionary with keys: ['destination', 'nexthop']"),
        (
            [{"destination": "10.1.0.0/24"}],
            "Validation of dictionary's keys failed. Expected keys: {'destination', 'nexthop'} "
            "Provided keys: {'destination'}",
        ),
        (
            [{"destination": "10.1.0.1/24", "nexthop": "10.6.0.2"}],
            "'10.1.0.1/24' is not a valid CIDR",
        ),
        ([{"destination": "10.1.0.0", "nexthop": "10.6.0.2"}], "'10.1.0.0' is not a valid CIDR"),
        (
            [{"destination": "127.0.0.0/8", "nexthop": "10.6.0.2"}],
            "'127.0.0.0/8' is not a routable CIDR",
        ),
        (
            [{"destination": "10.1.0.0/24", "nexthop": "10.6.0.300"}],
            "'10.6.0.300' is not a valid IP address",
        ),
        (
            [ROUTE, dict(ROUTE)],
            "Duplicate hostroute '%s'" % (ROUTE,),
        ),
    ],
)
def test_bad_routes(neutron, routes, reason):
    subnet = _subnet(neutron)
    refused = neutron.put("/subnets/" + subnet["id"], {"subnet": {"host_routes": routes}})
    assert refused.status == 400
    assert error(refused) == (
        "HTTPBadRequest",
        "Invalid input for host_routes. Reason: %s." % reason,
    )
    assert neutron.get("/subnets/" + subnet["id"]).json()["subnet"]["host_routes"] == []


def test_routes_of_another_ip_version(neutron):
    subnet = _subnet(neutron)
    for route, key, value in (
        ({"destination": "10.1.0.0/24", "nexthop": "fd00::1"}, "nexthop", "fd00::1"),
        ({"destination": "fd00::/64", "nexthop": "10.6.0.5"}, "destination", "fd00::/64"),
    ):
        refused = neutron.put("/subnets/" + subnet["id"], {"subnet": {"host_routes": [route]}})
        assert refused.status == 400
        assert error(refused) == (
            "InvalidInput",
            "Invalid input for operation: %s '%s' does not match the ip_version '4'."
            % (key, value),
        )


def test_only_the_owner_changes_them(neutron):
    subnet = _subnet(neutron)
    refused = neutron.put(
        "/subnets/" + subnet["id"], {"subnet": {"host_routes": [ROUTE]}}, user="alt"
    )
    assert refused.status == 404
    assert neutron.get("/subnets/" + subnet["id"]).json()["subnet"]["host_routes"] == []
