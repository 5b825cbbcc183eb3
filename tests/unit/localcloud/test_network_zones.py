"""The local Neutron's availability zones (``availability_zone``,
``network_availability_zone``) and its extension list and show."""

import pytest

from occli.localcloud.network.api.extensions import EXTENSIONS
from tests.unit.localcloud.network_harness import Neutron
from tests.unit.localcloud.network_harness import error
from tests.unit.localcloud.network_harness import make_cloud

ZONES = [
    {"name": "nova", "resource": "network", "state": "available"},
    {"name": "nova", "resource": "router", "state": "available"},
]


@pytest.fixture
def neutron(tmp_path):
    cloud = make_cloud(tmp_path / "data")
    yield Neutron(cloud)
    cloud.close()


def test_every_project_lists_the_zone_of_networks_and_routers(neutron):
    for user in ("demo", "alt", "admin"):
        assert neutron.get("/availability_zones", user=user).json() == {
            "availability_zones": ZONES
        }


def test_zone_filters_and_fields(neutron):
    listed = neutron.get("/availability_zones?resource=router").json()["availability_zones"]
    assert listed == [ZONES[1]]
    assert neutron.get("/availability_zones?name=az9").json() == {"availability_zones": []}
    fields = neutron.get("/availability_zones?fields=resource&state=available").json()
    assert fields == {"availability_zones": [{"resource": "network"}, {"resource": "router"}]}
    result = neutron.get("/availability_zones?zone=nova")
    assert result.status == 400
    assert error(result)[1] == "['zone'] is invalid attribute for filtering"


def test_zones_are_not_paginated_or_sorted(neutron):
    # neutron creates the resource without pagination and sorting
    result = neutron.get("/availability_zones?limit=1&marker=nope&sort_key=x&sort_dir=up")
    assert result.status == 200, result.body
    assert result.json() == {"availability_zones": ZONES}


def test_network_zone_hints(neutron):
    network = neutron.create(
        "networks", "network", {"name": "az", "availability_zone_hints": ["nova"]}
    )
    assert network["availability_zone_hints"] == ["nova"]
    assert network["availability_zones"] == ["nova"]
    shown = neutron.get("/networks/%s" % network["id"]).json()["network"]
    assert shown["availability_zone_hints"] == ["nova"]
    plain = neutron.create("networks", "network", {"name": "plain"})
    assert plain["availability_zone_hints"] == []
    result = neutron.put(
        "/networks/%s" % network["id"], {"network": {"availability_zone_hints": []}}
    )
    assert result.status == 400
    assert error(result)[1] == "Cannot update read-only attribute availability_zone_hints"


def test_router_zone_hints(neutron):
    router = neutron.create(
        "routers", "router", {"name": "r", "availability_zone_hints": ["nova"]}
    )
    assert router["availability_zone_hints"] == ["nova"]
    assert router["availability_zones"] == ["nova"]
    plain = neutron.create("routers", "router", {"name": "plain"})
    assert plain["availability_zone_hints"] == [] and plain["availability_zones"] == ["nova"]
    result = neutron.post(
        "/routers", {"router": {"name": "bad", "availability_zone_hints": ["az9"]}}
    )
    assert result.status == 404
    assert error(result) == (
        "AvailabilityZoneNotFound",
        "AvailabilityZone az9 could not be found.",
    )
    assert neutron.get("/routers?name=bad").json()["routers"] == []
    result = neutron.put("/routers/%s" % router["id"], {"router": {"availability_zone_hints": []}})
    assert result.status == 400
    assert error(result)[1] == "Cannot update read-only attribute availability_zone_hints"


@pytest.mark.parametrize(
    ("hints", "status", "kind", "message"),
    [
        (
            ["az9"],
            404,
            "AvailabilityZoneNotFound",
            "AvailabilityZone az9 could not be found.",
        ),
        (
            ["nova", "nova"],
            400,
            "HTTPBadRequest",
            "Invalid input for availability_zone_hints. Reason: Duplicate items in the "
            "list: 'nova'.",
        ),
        (
            ["z%03d" % i for i in range(40)],
            400,
            "InvalidInput",
            "Invalid input for operation: Too many availability_zone_hints specified.",
        ),
        (
            "nova",
            400,
            "HTTPBadRequest",
            "Invalid input for availability_zone_hints. Reason: 'nova' is not a list.",
        ),
    ],
)
def test_network_zone_hint_refusals(neutron, hints, status, kind, message):
    result = neutron.post(
        "/networks", {"network": {"name": "bad-az", "availability_zone_hints": hints}}
    )
    assert result.status == status, result.body
    assert error(result) == (kind, message)
    assert neutron.get("/networks?name=bad-az").json()["networks"] == []


# -- extensions --------------------------------------------------------------------------


def test_an_extension_by_alias(neutron):
    result = neutron.get("/extensions/subnet_allocation")
    assert result.status == 200, result.body
    assert result.json() == {
        "extension": {
            "alias": "subnet_allocation",
            "name": "Subnet Allocation",
            "description": "Enables allocation of subnets from a subnet pool",
            "links": [],
            "updated": "2015-03-30T10:00:00-00:00",
        }
    }
    listed = neutron.get("/extensions").json()["extensions"]
    for extension in listed:
        one = neutron.get("/extensions/%s" % extension["alias"]).json()
        assert one == {"extension": extension}


def test_an_unknown_extension_is_neutrons_404(neutron):
    for alias in ("agent", "nope"):
        result = neutron.get("/extensions/%s" % alias)
        assert result.status == 404
        # pecan's own error body (as the realcloud recorded it)
        assert result.json() == {
            "message": "The resource could not be found.<br /><br />\n"
            "Extension with alias %s does not exist\n\n" % alias,
            "code": "404 Not Found",
            "title": "Not Found",
        }


def test_the_list_is_what_the_local_neutron_serves(neutron):
    """Each alias is backed: a route answers or a body carries its field;
    none is listed twice."""
    aliases = [e["alias"] for e in neutron.get("/extensions").json()["extensions"]]
    assert len(aliases) == len(set(aliases)) == len(EXTENSIONS)
    routes = {
        "router": "/routers",
        "security-group": "/security-groups",
        "quotas": "/quotas/%s" % neutron.project_id("demo"),
        "quota_details": "/quotas/%s/details" % neutron.project_id("demo"),
        "subnet_allocation": "/subnetpools",
        "address-scope": "/address-scopes",
        "availability_zone": "/availability_zones",
    }
    for alias, path in routes.items():
        assert alias in aliases
        assert neutron.get(path).status == 200, alias
    network = neutron.get("/networks?name=private").json()["networks"][0]
    fields = {
        "external-net": "router:external",
        "net-mtu": "mtu",
        "network_availability_zone": "availability_zone_hints",
        "project-id": "project_id",
        "standard-attr-revisions": "revision_number",
        "standard-attr-timestamp": "created_at",
        "standard-attr-description": "description",
        "standard-attr-tag": "tags",
    }
    for alias, field in fields.items():
        assert alias in aliases
        assert field in network, alias
    port = neutron.get("/ports", user="admin").json()["ports"][0]
    for alias, field in (
        ("allowed-address-pairs", "allowed_address_pairs"),
        ("binding", "binding:vnic_type"),
        ("port-security", "port_security_enabled"),
    ):
        assert alias in aliases
        assert field in port, alias
    router = neutron.create("routers", "router", {"name": "audit"})
    assert "router_availability_zone" in aliases and "availability_zone_hints" in router
    absent_ones = ("agent", "provider", "multi-provider", "rbac-policies", "extra_dhcp_opt")
    for absent in absent_ones + ("l2_adjacency",):
        assert absent not in aliases
