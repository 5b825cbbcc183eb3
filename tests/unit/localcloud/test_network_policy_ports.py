"""Neutron's port policy (neutron/conf/policies/port.py) on a network the
caller does not own: the shared ``private`` one (the admin project's).
Users of a shared network get ports and choose a subnet; addresses,
``port_security_enabled``, MACs and the rest are the network owner's (and
the admins'). A refusal is neutron's 403 naming the whole rule as
oslo.policy prints it, and changes nothing."""

import pytest

from tests.unit.localcloud.network_harness import PRIVATE
from tests.unit.localcloud.network_harness import error

SUBNET = "6c2a6a0d-35fb-4e5c-8b35-1d7a4c9e2f10"


def _ports(neutron):
    return neutron.get("/ports", user="admin").json()["ports"]


def _refused(result, rule):
    assert result.status == 403, result.body
    assert error(result) == ("PolicyNotAuthorized", "%s is disallowed by policy" % rule)


@pytest.mark.parametrize(
    "body,rule",
    [
        (
            {"fixed_ips": [{"ip_address": "10.0.5.5"}]},
            "(rule:create_port and (rule:create_port:fixed_ips and"
            " (rule:create_port:fixed_ips:ip_address)))",
        ),
        (
            {"fixed_ips": [{"subnet_id": SUBNET, "ip_address": "10.0.5.5"}]},
            "(rule:create_port and (rule:create_port:fixed_ips and"
            " (rule:create_port:fixed_ips:subnet_id and rule:create_port:fixed_ips:ip_address)))",
        ),
        (
            {"port_security_enabled": False},
            "(rule:create_port and rule:create_port:port_security_enabled)",
        ),
        # any value given is checked: the attribute has no default
        (
            {"port_security_enabled": True},
            "(rule:create_port and rule:create_port:port_security_enabled)",
        ),
        # every attribute set is named, in neutron's attribute-map order;
        # a device_id left at its default ("") is not
        (
            {
                "port_security_enabled": False,
                "device_id": "vm-1",
                "fixed_ips": [{"ip_address": "10.0.5.5"}],
            },
            "(((rule:create_port and (rule:create_port:fixed_ips and"
            " (rule:create_port:fixed_ips:ip_address))) and rule:create_port:device_id)"
            " and rule:create_port:port_security_enabled)",
        ),
        (
            {"device_id": "", "port_security_enabled": False},
            "(rule:create_port and rule:create_port:port_security_enabled)",
        ),
        (
            {"mac_address": "fa:16:3e:00:00:02"},
            "(rule:create_port and rule:create_port:mac_address)",
        ),
        (
            {"device_owner": "network:router_interface"},
            "(rule:create_port and rule:create_port:device_owner)",
        ),
        (
            {"binding:host_id": "host1"},
            "(rule:create_port and rule:create_port:binding:host_id)",
        ),
    ],
)
def test_create_on_the_shared_network_refused(neutron, body, rule):
    before = _ports(neutron)
    result = neutron.post("/ports", {"port": {"network_id": PRIVATE, **body}})
    _refused(result, rule)
    assert _ports(neutron) == before


def test_a_subnet_alone_is_open_to_the_shared_networks_users(neutron):
    port = neutron.create(
        "ports", "port", {"network_id": PRIVATE, "fixed_ips": [{"subnet_id": SUBNET}]}
    )
    assert port["fixed_ips"][0]["subnet_id"] == SUBNET
    plain = neutron.create("ports", "port", {"network_id": PRIVATE, "device_id": "vm-1"})
    assert plain["device_id"] == "vm-1"


def test_malformed_fixed_ips_are_refused_before_the_policy(neutron):
    # neutron-lib's validate_fixed_ips runs first: 400, not 403
    result = neutron.post(
        "/ports", {"port": {"network_id": PRIVATE, "fixed_ips": [{"ip_address": "not-an-ip"}]}}
    )
    assert result.status == 400
    assert error(result) == (
        "HTTPBadRequest",
        "Invalid input for fixed_ips. Reason: 'not-an-ip' is not a valid IP address.",
    )
    twice = neutron.post(
        "/ports",
        {
            "port": {
                "network_id": PRIVATE,
                "fixed_ips": [{"ip_address": "10.0.5.5"}, {"ip_address": "10.0.5.5"}],
            }
        },
        user="admin",
    )
    assert (
        error(twice)[1] == "Invalid input for fixed_ips. Reason: Duplicate IP address '10.0.5.5'."
    )
    # a key neutron has no rule for fails the policy (oslo.policy: closed)
    _refused(
        neutron.post(
            "/ports", {"port": {"network_id": PRIVATE, "fixed_ips": [{"colour": "red"}]}}
        ),
        "(rule:create_port and (rule:create_port:fixed_ips and"
        " (rule:create_port:fixed_ips:colour)))",
    )


@pytest.mark.parametrize(
    "body,rule",
    [
        (
            {"fixed_ips": [{"ip_address": "10.0.5.6"}]},
            "(rule:update_port and (rule:update_port:fixed_ips and"
            " (rule:update_port:fixed_ips:ip_address)))",
        ),
        # update_port:fixed_ips itself is the network owner's
        (
            {"fixed_ips": [{"subnet_id": SUBNET}]},
            "(rule:update_port and (rule:update_port:fixed_ips and"
            " (rule:update_port:fixed_ips:subnet_id)))",
        ),
        (
            {"port_security_enabled": False},
            "(rule:update_port and rule:update_port:port_security_enabled)",
        ),
        (
            {"name": "n", "port_security_enabled": False},
            "(rule:update_port and rule:update_port:port_security_enabled)",
        ),
    ],
)
def test_update_on_the_shared_network_refused(neutron, body, rule):
    port = neutron.create("ports", "port", {"network_id": PRIVATE})
    before = _ports(neutron)
    _refused(neutron.put("/ports/" + port["id"], {"port": body}), rule)
    assert _ports(neutron) == before
    renamed = neutron.put("/ports/" + port["id"], {"port": {"name": "n"}})
    assert renamed.status == 200


def test_the_network_owner_and_admins_choose(neutron):
    mine = neutron.create("networks", "network", {"name": "mine"})
    subnet = neutron.create(
        "subnets", "subnet", {"network_id": mine["id"], "cidr": "10.8.0.0/24", "ip_version": 4}
    )
    port = neutron.create(
        "ports",
        "port",
        {
            "network_id": mine["id"],
            "fixed_ips": [{"subnet_id": subnet["id"], "ip_address": "10.8.0.9"}],
            "port_security_enabled": False,
        },
    )
    assert port["fixed_ips"][0]["ip_address"] == "10.8.0.9"
    assert port["port_security_enabled"] is False
    moved = neutron.put(
        "/ports/" + port["id"],
        {"port": {"fixed_ips": [{"ip_address": "10.8.0.10"}], "port_security_enabled": True}},
    ).json()["port"]
    assert (moved["fixed_ips"][0]["ip_address"], moved["port_security_enabled"]) == (
        "10.8.0.10",
        True,
    )
    shared = neutron.create(
        "ports",
        "port",
        {
            "network_id": PRIVATE,
            "fixed_ips": [{"ip_address": "10.0.5.7"}],
            "port_security_enabled": False,
        },
        user="admin",
    )
    assert shared["fixed_ips"][0]["ip_address"] == "10.0.5.7"


def test_the_network_owner_may_not_update_another_projects_port(neutron):
    """update_port is the port's project's (or an admin's); the network's
    owner sees and deletes the port but does not change it."""
    mine = neutron.create("networks", "network", {"name": "mine"})
    neutron.create(
        "subnets", "subnet", {"network_id": mine["id"], "cidr": "10.8.0.0/24", "ip_version": 4}
    )
    theirs = neutron.create(
        "ports",
        "port",
        {"network_id": mine["id"], "project_id": neutron.project_id("alt")},
        user="admin",
    )
    _refused(neutron.put("/ports/" + theirs["id"], {"port": {"name": "x"}}), "rule:update_port")
    assert neutron.get("/ports/" + theirs["id"]).json()["port"]["name"] == ""
    assert neutron.delete("/ports/" + theirs["id"]).status == 204
