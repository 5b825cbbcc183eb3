"""Custom constraints checked against the local services, with Heat's texts
(custom_constraints.py)."""

import pytest

from occli.localcloud.orchestration.engine import custom_constraints
from occli.localcloud.orchestration.engine import environment
from occli.localcloud.orchestration.engine.clients import Clients
from tests.unit.localcloud.heat import harness


@pytest.fixture(scope="module")
def fixture():
    cloud = harness.start()
    yield cloud
    cloud.stop()


@pytest.fixture(scope="module")
def clients(fixture):
    return Clients(fixture.cloud.wsgi, harness.context(fixture))


@pytest.fixture(scope="module")
def alt_clients(fixture):
    return Clients(fixture.cloud.wsgi, harness.context(fixture, "local-alt"))


def refusal(name, value, clients, env=None):
    with pytest.raises(ValueError) as info:
        custom_constraints.check(name, value, clients, env)
    return str(info.value)


def test_nova_flavor_by_id_or_name(fixture, clients):
    flavor_id = fixture.seed_flavor("cc.flavor")
    custom_constraints.check("nova.flavor", "cc.flavor", clients)
    custom_constraints.check("nova.flavor", flavor_id, clients)
    assert refusal("nova.flavor", "cc.nope", clients) == (
        "Error validating value 'cc.nope': No Flavor matching {'name': 'cc.nope'}. (HTTP 404)"
    )


def test_nova_keypair(clients):
    public = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGnUm3zmF3rTjdPZLv1qeYNg9WHVKl+Cu4pmmKBmvc6B t"
    clients.post("compute", "/os-keypairs", {"keypair": {"name": "cc-key", "public_key": public}})
    custom_constraints.check("nova.keypair", "cc-key", clients)
    custom_constraints.check("nova.keypair", "", clients)  # heat skips an empty key
    assert refusal("nova.keypair", "cc-nokey", clients) == (
        "Error validating value 'cc-nokey': The Key (cc-nokey) could not be found."
    )


def test_nova_server(clients):
    missing = "8d3a1c52-6a57-4a6b-9d5e-0b8f1b2f6a11"
    assert refusal("nova.server", missing, clients) == (
        "Error validating value '%s': The Server (%s) could not be found." % (missing, missing)
    )


def test_glance_image_by_name_or_id(fixture, clients):
    image = fixture.seed_image("cc-image")
    custom_constraints.check("glance.image", "cc-image", clients)
    custom_constraints.check("glance.image", image["id"], clients)
    assert refusal("glance.image", "cc-noimage", clients) == (
        "Error validating value 'cc-noimage': No images matching {'name': 'cc-noimage'}."
    )
    fixture.seed_image("cc-twin")
    fixture.seed_image("cc-twin")
    assert refusal("glance.image", "cc-twin", clients) == (
        "Error validating value 'cc-twin': No images unique match found for {'name': 'cc-twin'}."
    )


def test_private_image_of_another_project_is_not_found(fixture, clients, alt_clients):
    image = fixture.seed_image("cc-private", visibility="private", owner="demo")
    custom_constraints.check("glance.image", image["id"], clients)
    assert "No images matching" in refusal("glance.image", image["id"], alt_clients)


def test_neutron_lookups(clients):
    net = clients.post("network", "/v2.0/networks", {"network": {"name": "cc-net"}}).body
    net_id = net["network"]["id"]
    subnet = clients.post(
        "network",
        "/v2.0/subnets",
        {"subnet": {"network_id": net_id, "cidr": "10.77.0.0/24", "ip_version": 4}},
    ).body["subnet"]
    port = clients.post("network", "/v2.0/ports", {"port": {"network_id": net_id}}).body["port"]
    group = clients.post(
        "network", "/v2.0/security-groups", {"security_group": {"name": "cc-group"}}
    ).body["security_group"]
    custom_constraints.check("neutron.network", "cc-net", clients)
    custom_constraints.check("neutron.network", net_id, clients)
    custom_constraints.check("neutron.subnet", subnet["id"], clients)
    custom_constraints.check("neutron.port", port["id"], clients)
    custom_constraints.check("neutron.security_group", "cc-group", clients)
    custom_constraints.check("neutron.security_group", group["id"], clients)
    assert refusal("neutron.network", "cc-nonet", clients) == (
        "Error validating value 'cc-nonet': Unable to find network with name or id 'cc-nonet'"
    )
    assert refusal("neutron.security_group", "cc-nogroup", clients) == (
        "Error validating value 'cc-nogroup': "
        "Unable to find security_group with name or id 'cc-nogroup'"
    )
    clients.post("network", "/v2.0/networks", {"network": {"name": "cc-net"}})
    assert refusal("neutron.network", "cc-net", clients) == (
        "Error validating value 'cc-net': Multiple network matches found for name 'cc-net',"
        " use an ID to be more specific."
    )


def test_cinder_lookups(clients):
    volume = clients.post("volumev3", "/volumes", {"volume": {"size": 1, "name": "cc-vol"}})
    volume_id = volume.body["volume"]["id"]
    custom_constraints.check("cinder.volume", volume_id, clients)
    assert refusal("cinder.volume", "cc-novol", clients) == (
        "Error validating value 'cc-novol': The Volume (cc-novol) could not be found."
    )
    assert refusal("cinder.snapshot", "cc-nosnap", clients) == (
        "Error validating value 'cc-nosnap': The VolumeSnapshot (cc-nosnap) could not be found."
    )
    types = clients.get("volumev3", "/types").body["volume_types"]
    assert types, "the local Cinder has a default volume type"
    custom_constraints.check("cinder.vtype", types[0]["name"], clients)
    custom_constraints.check("cinder.vtype", types[0]["id"], clients)
    assert refusal("cinder.vtype", "cc-notype", clients) == (
        "Error validating value 'cc-notype': The VolumeType (cc-notype) could not be found."
    )


def test_a_value_is_one_path_segment(clients):
    # GET /servers/detail answers a list: "detail" is still no server
    assert refusal("nova.server", "detail", clients) == (
        "Error validating value 'detail': The Server (detail) could not be found."
    )
    assert "No Flavor matching" in refusal("nova.flavor", "detail", clients)
    assert "could not be found" in refusal("nova.keypair", "../os-keypairs", clients)
    public = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGnUm3zmF3rTjdPZLv1qeYNg9WHVKl+Cu4pmmKBmvc6B t"
    clients.post(
        "compute", "/os-keypairs", {"keypair": {"name": "cc spaced", "public_key": public}}
    )
    custom_constraints.check("nova.keypair", "cc spaced", clients)


@pytest.mark.parametrize(
    ("name", "good", "bad", "message"),
    [
        ("ip_addr", ["10.0.0.1", "fe80::1"], ["10.0.0.300", "", 5], "Invalid IP address"),
        (
            "mac_addr",
            ["fa:16:3e:00:00:01", "FA-16-3E-00-00-01", "fa16.3e00.0001"],
            ["fa:16:3e:00:00", "zz:16:3e:00:00:01"],
            "Invalid MAC address.",
        ),
        ("net_cidr", ["10.0.0.0/24", "10.0.0.1/24", "fd00::/64"], [], None),
        (
            "iso_8601",
            ["2024-02-29", "2024-02-29T10:11:12Z", "2024-02-29T10:11:12+02:00"],
            [],
            None,
        ),
    ],
)
def test_common_constraints(name, good, bad, message):
    for value in good:
        custom_constraints.check(name, value, None)  # type: ignore[arg-type]
    for value in bad:
        assert refusal(name, value, None) == "Error validating value '%s': %s" % (value, message)


@pytest.mark.parametrize("value", ["10.0.0/24", "10.0.0.0", " 10.0.0.0/24", "10.0.0.0/33"])
def test_net_cidr_refusals(value):
    assert refusal("net_cidr", value, None) == (
        "Error validating value '%s': '%s' is not a valid IP subnet" % (value, value)
    )


def test_iso_8601_refusal_has_no_detail():
    assert refusal("iso_8601", "yesterday", None) == "Error validating value 'yesterday'"


def test_timezone_and_json_string():
    custom_constraints.check("timezone", "", None)
    assert refusal("timezone", "Mars/Olympus", None).startswith(
        "Error validating value 'Mars/Olympus': Invalid timezone: "
    )
    custom_constraints.check("json_string", '{"a": 1}', None)
    assert refusal("json_string", "{oops", None).startswith(
        "Error validating value '{oops': JSON string {oops is invalid: "
    )


def test_unknown_constraint_and_plugin_constraints():
    assert refusal("no.such", "x", None) == '"x" does not validate no.such (constraint not found)'
    global_env = environment.Environment(user_env=False)

    def even(value, clients):
        if int(value) % 2:
            raise ValueError("%s is odd" % value)

    global_env.register_constraint("test.even", even)
    env = environment.Environment({}, global_env=global_env)
    custom_constraints.check("test.even", 2, None, env)
    assert refusal("test.even", 3, None, env) == "Error validating value '3': 3 is odd"
    assert "test.even" in custom_constraints.names(env)
    assert "nova.flavor" in custom_constraints.names()
