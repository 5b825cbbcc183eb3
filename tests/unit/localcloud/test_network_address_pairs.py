"""A port's ``allowed_address_pairs`` on the local Neutron (neutron-lib's
``allowedaddresspairs`` definition and validator, neutron's
``allowedaddresspairs_db.py`` and ml2's port-security checks): stored on
create and update, a pair without a MAC taking the port's, at most 10,
refused without port security (409), set by the network's owner only;
against neutron-lib's port-create sample
(tests/fixtures/network/ports/port-create-{request,response}.json)."""

import json
import pathlib

import pytest

from tests.unit.localcloud.network_harness import PRIVATE
from tests.unit.localcloud.network_harness import error

SAMPLES = pathlib.Path(__file__).parents[2] / "fixtures" / "network" / "ports"
NEED_SECURITY = (
    "AddressPairAndPortSecurityRequired",
    "Port Security must be enabled in order to have allowed address pairs on a port.",
)


def sample(name):
    return json.loads((SAMPLES / name).read_text())["port"]


def _network(neutron, user="demo"):
    return neutron.create("networks", "network", {"name": "aap"}, user=user)["id"]


def test_the_samples_pairs(neutron):
    request = sample("port-create-request.json")
    body = {
        "network_id": _network(neutron),
        "name": request["name"],
        "allowed_address_pairs": request["allowed_address_pairs"],
    }
    port = neutron.create("ports", "port", body)
    assert (
        port["allowed_address_pairs"]
        == sample("port-create-response.json")["allowed_address_pairs"]
    )
    shown = neutron.get("/ports/" + port["id"]).json()["port"]
    assert shown["allowed_address_pairs"] == request["allowed_address_pairs"]
    (listed,) = [p for p in neutron.get("/ports").json()["ports"] if p["id"] == port["id"]]
    assert listed["allowed_address_pairs"] == request["allowed_address_pairs"]


def test_a_pair_without_mac_takes_the_ports(neutron):
    port = neutron.create(
        "ports",
        "port",
        {
            "network_id": _network(neutron),
            "allowed_address_pairs": [{"ip_address": "10.0.0.0/24"}, {"ip_address": "fd00::5"}],
        },
    )
    mac = port["mac_address"]
    assert port["allowed_address_pairs"] == [
        {"mac_address": mac, "ip_address": "10.0.0.0/24"},
        {"mac_address": mac, "ip_address": "fd00::5"},
    ]


def test_update_replaces_and_clears(neutron):
    port = neutron.create("ports", "port", {"network_id": _network(neutron)})
    assert port["allowed_address_pairs"] == []
    pair = {"ip_address": "192.0.2.7", "mac_address": "fa:16:3e:00:00:01"}
    updated = neutron.put("/ports/" + port["id"], {"port": {"allowed_address_pairs": [pair]}})
    assert updated.status == 200, updated.body
    assert updated.json()["port"]["allowed_address_pairs"] == [pair]
    assert updated.json()["port"]["revision_number"] == port["revision_number"] + 1
    cleared = neutron.put("/ports/" + port["id"], {"port": {"allowed_address_pairs": None}})
    assert cleared.json()["port"]["allowed_address_pairs"] == []
    assert neutron.get("/ports/" + port["id"]).json()["port"]["allowed_address_pairs"] == []


def test_pairs_go_with_their_port(neutron):
    port = neutron.create(
        "ports",
        "port",
        {"network_id": _network(neutron), "allowed_address_pairs": [{"ip_address": "10.1.1.1"}]},
    )
    assert neutron.delete("/ports/" + port["id"]).status == 204
    with neutron.cloud.store.read() as db:
        left = db.execute(
            "SELECT COUNT(*) FROM network_port_address_pairs WHERE port_id = ?", (port["id"],)
        ).fetchone()[0]
    assert left == 0


def test_at_most_ten(neutron):
    network = _network(neutron)
    pairs = [{"ip_address": "10.2.0.%d" % i} for i in range(11)]
    refused = neutron.post(
        "/ports", {"port": {"network_id": network, "allowed_address_pairs": pairs}}
    )
    assert refused.status == 400
    assert error(refused) == (
        "AllowedAddressPairExhausted",
        "The number of allowed address pair exceeds the maximum 10.",
    )
    assert neutron.get("/ports?network_id=" + network).json()["ports"] == []
    port = neutron.create(
        "ports", "port", {"network_id": network, "allowed_address_pairs": pairs[:10]}
    )
    assert len(port["allowed_address_pairs"]) == 10


@pytest.mark.parametrize(
    ("pairs", "kind", "message"),
    [
        ("x", "HTTPBadRequest", "Allowed address pairs must be a list."),
        (
            ["x"],
            "HTTPBadRequest",
            "Invalid input for allowed_address_pairs. Reason: 'x' is not a dictionary.",
        ),
        (
            [{"mac_address": "fa:16:3e:00:00:01"}],
            "AllowedAddressPairsMissingIP",
            "AllowedAddressPair must contain ip_address",
        ),
        (
            [{"ip_address": "10.0.0.9"}, {"ip_address": "10.0.0.9"}],
            "DuplicateAddressPairInRequest",
            "Request contains duplicate address pair: mac_address None ip_address 10.0.0.9.",
        ),
        (
            [{"ip_address": "10.0.0.9", "mac_address": "zz"}],
            "HTTPBadRequest",
            "'zz' is not a valid MAC address",
        ),
        (
            [{"ip_address": "10.0.0.9", "color": "red"}],
            "HTTPBadRequest",
            "Unrecognized attribute(s) 'color'",
        ),
        (
            [{"ip_address": "10.0.0.300"}],
            "HTTPBadRequest",
            "'10.0.0.300' is not a valid IP address",
        ),
        (
            [{"ip_address": "10.0.0.0/33"}],
            "HTTPBadRequest",
            "'10.0.0.0/33' is not a valid IP subnet",
        ),
        (
            [{"ip_address": "224.0.0.5"}],
            "HTTPBadRequest",
            "IP 224.0.0.5 is a multicast address, which is not supported.",
        ),
        (
            [{"ip_address": "224.0.0.0/24"}],
            "HTTPBadRequest",
            "Subnet 224.0.0.0/24 overlaps with multicast range 224.0.0.0/4, which is not "
            "supported.",
        ),
        (
            [{"ip_address": "10.0.0.9", "mac_address": "01:00:5e:00:00:01"}],
            "HTTPBadRequest",
            "MAC address 01:00:5e:00:00:01 is a multicast address, which is not supported.",
        ),
    ],
)
def test_bad_pairs(neutron, pairs, kind, message):
    port = neutron.create("ports", "port", {"network_id": _network(neutron)})
    for method, path, body in (
        ("PUT", "/ports/" + port["id"], {"port": {"allowed_address_pairs": pairs}}),
        (
            "POST",
            "/ports",
            {"port": {"network_id": port["network_id"], "allowed_address_pairs": pairs}},
        ),
    ):
        refused = neutron.call(method, path, json=body)
        assert refused.status == 400, (method, refused.body)
        assert error(refused) == (kind, message)
    assert len(neutron.get("/ports?network_id=" + port["network_id"]).json()["ports"]) == 1
    assert neutron.get("/ports/" + port["id"]).json()["port"]["allowed_address_pairs"] == []


def test_a_mac_filled_in_that_repeats_a_pair(neutron):
    port = neutron.create("ports", "port", {"network_id": _network(neutron)})
    pairs = [
        {"ip_address": "10.0.0.9"},
        {"ip_address": "10.0.0.9", "mac_address": port["mac_address"]},
    ]
    refused = neutron.put("/ports/" + port["id"], {"port": {"allowed_address_pairs": pairs}})
    assert refused.status == 400
    assert error(refused) == (
        "DuplicateAddressPairInRequest",
        "Request contains duplicate address pair: mac_address %s ip_address 10.0.0.9."
        % port["mac_address"],
    )


def test_refused_without_port_security(neutron):
    network = _network(neutron)
    pair = [{"ip_address": "10.3.0.1"}]
    refused = neutron.post(
        "/ports",
        {
            "port": {
                "network_id": network,
                "port_security_enabled": False,
                "allowed_address_pairs": pair,
            }
        },
    )
    assert refused.status == 409
    assert error(refused) == NEED_SECURITY
    assert neutron.get("/ports?network_id=" + network).json()["ports"] == []
    bare = neutron.create(
        "ports",
        "port",
        {"network_id": network, "port_security_enabled": False, "allowed_address_pairs": []},
    )
    refused = neutron.put("/ports/" + bare["id"], {"port": {"allowed_address_pairs": pair}})
    assert (refused.status, error(refused)) == (409, NEED_SECURITY)
    paired = neutron.create(
        "ports", "port", {"network_id": network, "allowed_address_pairs": pair}
    )
    refused = neutron.put("/ports/" + paired["id"], {"port": {"port_security_enabled": False}})
    assert (refused.status, error(refused)) == (409, NEED_SECURITY)
    assert neutron.get("/ports/" + paired["id"]).json()["port"]["port_security_enabled"] is True
    # dropping the pairs in the same request is allowed
    both = neutron.put(
        "/ports/" + paired["id"],
        {
            "port": {
                "port_security_enabled": False,
                "allowed_address_pairs": [],
                "security_groups": [],
            }
        },
    )
    assert both.status == 200, both.body
    assert both.json()["port"]["allowed_address_pairs"] == []
    assert both.json()["port"]["port_security_enabled"] is False


def test_only_the_networks_owner_sets_them(neutron):
    pair = [{"ip_address": "10.0.0.77"}]
    refused = neutron.post(
        "/ports", {"port": {"network_id": PRIVATE, "allowed_address_pairs": pair}}
    )
    assert refused.status == 403
    assert error(refused) == (
        "PolicyNotAuthorized",
        "(rule:create_port and (rule:create_port:allowed_address_pairs and "
        "(rule:create_port:allowed_address_pairs:ip_address))) is disallowed by policy",
    )
    port = neutron.create("ports", "port", {"network_id": PRIVATE})
    refused = neutron.put("/ports/" + port["id"], {"port": {"allowed_address_pairs": pair}})
    assert refused.status == 403
    assert error(refused)[1] == (
        "(rule:update_port and (rule:update_port:allowed_address_pairs and "
        "(rule:update_port:allowed_address_pairs:ip_address))) is disallowed by policy"
    )
    assert neutron.get("/ports/" + port["id"]).json()["port"]["allowed_address_pairs"] == []
    admin = neutron.put(
        "/ports/" + port["id"], {"port": {"allowed_address_pairs": pair}}, user="admin"
    )
    assert admin.status == 200, admin.body
