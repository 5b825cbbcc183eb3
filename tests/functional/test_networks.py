"""Network commands against the local cloud's Neutron (demo user, cloud
``local``): the boot-with-a-network and floating IP tour, security
groups, and their failure paths with their exit codes."""

import uuid

import pytest

from occli.client import Client
from tests.functional.harness import IMAGE
from tests.functional.harness import as_json
from tests.functional.harness import ok

WAIT = ("--wait", "--wait-interval", "0.1")


@pytest.fixture
def occli(occli_env, run_occli):
    return run_occli


def unique(prefix):
    return "%s-%s" % (prefix, uuid.uuid4().hex[:8])


@pytest.fixture
def vm(occli):
    """An ACTIVE server on ``private`` (``--network private``), deleted after."""
    shown = as_json(
        occli(
            "server", "create", unique("net"), "--image", IMAGE, "--flavor", "m1.tiny",
            "--network", "private", *WAIT, "-f", "json",
        )
    )  # fmt: skip
    yield shown
    occli("server", "delete", shown["id"], *WAIT)


def test_network_list_show_and_subnets(occli):
    rows = as_json(occli("network", "list", "-f", "json"))
    names = {r["Name"] for r in rows}
    assert {"private", "public"} <= names
    external = as_json(occli("network", "list", "--external", "-f", "json"))
    assert [r["Name"] for r in external] == ["public"]
    private = as_json(occli("network", "show", "private", "-f", "json"))
    assert private["router:external"] is False
    subnets = as_json(occli("subnet", "list", "--network", "private", "-f", "json"))
    assert [s["ID"] for s in subnets] == private["subnets"]
    assert subnets[0]["Network"] == private["id"]


def test_server_on_a_named_network_gets_a_port(occli, vm):
    assert list(vm["addresses"]) == ["private"]
    (address,) = vm["addresses"]["private"]  # OSC's shape: addresses as text
    ports = as_json(occli("port", "list", "--server", vm["id"], "-f", "json"))
    assert len(ports) == 1
    assert ports[0]["Fixed IP Addresses"][0]["ip_address"] == address
    port = as_json(occli("port", "show", ports[0]["ID"], "-f", "json"))
    assert port["device_id"] == vm["id"]
    found = as_json(occli("server", "list", "--ip", address.replace(".", r"\."), "-f", "json"))
    assert vm["id"] in [r["ID"] for r in found]


def test_floating_ip_tour(occli, vm):
    fip = as_json(occli("floating", "ip", "create", "public", "-f", "json"))
    address = fip["floating_ip_address"]
    try:
        ok(occli("server", "add", "floating", "ip", vm["name"], address))
        shown = as_json(occli("floating", "ip", "show", address, "-f", "json"))
        port = as_json(occli("port", "list", "--server", vm["id"], "-f", "json"))[0]
        assert shown["port_id"] == port["ID"]
        assert shown["fixed_ip_address"] == vm["addresses"]["private"][0]
        addresses = as_json(occli("server", "show", vm["id"], "-f", "json"))["addresses"]
        assert address in addresses["private"]
        ok(occli("server", "remove", "floating", "ip", vm["name"], address))
        assert as_json(occli("floating", "ip", "show", address, "-f", "json"))["port_id"] is None
        code, out, err = occli("server", "remove", "floating", "ip", vm["name"], address)
        assert code == 1
        assert "is not associated with server" in err
    finally:
        ok(occli("floating", "ip", "delete", address))
    code, out, err = occli("floating", "ip", "show", address)
    assert code == 1
    assert "No floating IP with an address or ID of '%s'" % address in err


def test_unknown_network_and_group_fail_before_the_boot(occli):
    name = unique("never")
    for option in (
        ["--network", "nosuch"],
        ["--nic", "net-id=nosuch"],
        ["--port", "nosuch"],
        ["--security-group", "nosuch"],
    ):
        code, out, err = occli(
            "server", "create", name, "--image", IMAGE, "--flavor", "m1.tiny", *option
        )
        assert code == 1, option
        assert "with a name or ID of 'nosuch' exists" in err
    code, out, err = occli(
        "server", "create", name, "--image", IMAGE, "--flavor", "m1.tiny",
        "--network", "private", "--nic", "none",
    )  # fmt: skip
    assert code == 2
    assert err.strip() == (
        "--nic none cannot be combined with other --nic, --network or --port options."
    )
    assert as_json(occli("server", "list", "--name", name, "-f", "json")) == []


def test_security_group_and_rules(occli):
    name = unique("web")
    group = as_json(
        occli("security", "group", "create", name, "--description", "web", "-f", "json")
    )
    try:
        rule = as_json(
            occli(
                "security", "group", "rule", "create", name, "--protocol", "tcp",
                "--dst-port", "8000:8080", "-f", "json",
            )
        )  # fmt: skip
        assert (rule["port_range_min"], rule["port_range_max"]) == (8000, 8080)
        assert rule["remote_ip_prefix"] == "0.0.0.0/0"
        rules = as_json(occli("security", "group", "rule", "list", name, "-f", "json"))
        assert {r["Direction"] for r in rules} == {"ingress", "egress"}
        assert [r["Port Range"] for r in rules if r["ID"] == rule["id"]] == ["8000:8080"]
        code, out, err = occli("security", "group", "rule", "create", name, "--dst-port", "22")
        assert code == 2
        assert "needs a protocol with ports" in err
        ok(occli("security", "group", "rule", "delete", rule["id"]))
        listed = as_json(occli("security", "group", "list", "-f", "json"))
        assert group["id"] in [g["ID"] for g in listed]
        assert "default" in [g["Name"] for g in listed]
    finally:
        ok(occli("security", "group", "delete", name))
    code, out, err = occli("security", "group", "show", name)
    assert code == 1


def test_a_group_in_use_cannot_be_deleted(occli):
    name = unique("inuse")
    ok(occli("security", "group", "create", name))
    server = as_json(
        occli(
            "server", "create", unique("sg"), "--image", IMAGE, "--flavor", "m1.tiny",
            "--network", "private", "--security-group", name, *WAIT, "-f", "json",
        )
    )  # fmt: skip
    try:
        assert [g["name"] for g in server["security_groups"]] == [name]
        code, out, err = occli("security", "group", "delete", name)
        assert code == 1
        assert "in use" in err and "(HTTP 409)" in err
    finally:
        ok(occli("server", "delete", server["id"], *WAIT))
    ok(occli("security", "group", "delete", name))


def _addresses(occli, server_id):
    shown = as_json(occli("server", "show", server_id, "-f", "json"))
    return sorted(a for addrs in shown["addresses"].values() for a in addrs)


def test_add_and_remove_network_fixed_ip_and_port(occli, vm):
    first = vm["addresses"]["private"][0]
    ok(occli("server", "add", "network", vm["name"], "private", "--tag", "second"))
    ports = as_json(occli("port", "list", "--server", vm["id"], "-f", "json"))
    assert len(ports) == 2
    # choosing the address on private is its owner's, the admin's: Nova's
    # port create obeys Neutron's policy (Nova's 403, exit 1)
    code, out, err = occli(
        "server", "add", "fixed", "ip", vm["name"], "private", "--fixed-ip-address", "10.0.9.9"
    )  # fmt: skip
    assert code == 1
    assert "is disallowed by policy" in err and "(HTTP 403)" in err
    ok(
        occli(
            "--os-cloud", "local-admin",
            "server", "add", "fixed", "ip", vm["id"], "private", "--fixed-ip-address", "10.0.9.9",
        )
    )  # fmt: skip
    assert "10.0.9.9" in _addresses(occli, vm["id"])
    ok(occli("server", "remove", "fixed", "ip", vm["name"], "10.0.9.9"))
    assert "10.0.9.9" not in _addresses(occli, vm["id"])
    code, out, err = occli("server", "remove", "fixed", "ip", vm["name"], "10.0.9.9")
    assert code == 1
    assert "has no fixed IP 10.0.9.9" in err
    # a port Nova made for the network is deleted when detached
    second = [p for p in ports if p["Fixed IP Addresses"][0]["ip_address"] != first][0]
    ok(occli("server", "remove", "port", vm["name"], second["ID"]))
    assert _addresses(occli, vm["id"]) == [first]
    assert occli("port", "show", second["ID"])[0] == 1
    # a port made by the user is attached by name, and kept when detached
    client = Client(cloud="local")
    name = unique("own-port")
    own = client.ports.create(client.networks.find_resource("private"), name=name)
    try:
        ok(occli("server", "add", "port", vm["name"], name))
        assert own.fixed_ips[0]["ip_address"] in _addresses(occli, vm["id"])
        ok(occli("server", "remove", "port", vm["name"], name))
        assert as_json(occli("port", "show", name, "-f", "json"))["device_id"] == ""
    finally:
        client.ports.delete(own)
    ok(occli("server", "remove", "network", vm["name"], "private"))
    assert _addresses(occli, vm["id"]) == []
    code, out, err = occli("server", "remove", "network", vm["name"], "private")
    assert code == 1
    assert "has no port on network private" in err


def test_add_and_remove_security_group(occli, vm):
    name = unique("extra")
    ok(occli("security", "group", "create", name))
    try:
        ok(occli("server", "add", "security", "group", vm["name"], name))
        shown = as_json(occli("server", "show", vm["id"], "-f", "json"))
        assert {g["name"] for g in shown["security_groups"]} == {"default", name}
        ok(occli("server", "remove", "security", "group", vm["name"], name))
        shown = as_json(occli("server", "show", vm["id"], "-f", "json"))
        assert [g["name"] for g in shown["security_groups"]] == ["default"]
        code, out, err = occli("server", "add", "security", "group", vm["name"], "nosuch")
        assert code == 1
        assert "No security group with a name or ID of 'nosuch' exists." in err
    finally:
        ok(occli("security", "group", "delete", name))


def test_nic_fixed_ip_and_tag_a_port_in_use_and_no_security_group(occli):
    """--nic with a name, a fixed address and a tag (accepted; its body is
    tests/unit/test_server_create_network.py's); the port of one server
    given to another (Nova's 409, exit 1) and a taken address (400);
    --no-security-group (Nova still applies the project's default group to
    the ports it makes). Choosing an address on ``private`` is its owner's,
    the admin's (Neutron's policy, which Nova's port creates obey)."""

    def admin(*argv):
        return occli("--os-cloud", "local-admin", *argv)

    first = as_json(
        admin(
            "server", "create", unique("nic"), "--image", IMAGE, "--flavor", "m1.tiny",
            "--nic", "net-id=private,v4-fixed-ip=10.0.7.7,tag=data", "--no-security-group",
            *WAIT, "-f", "json",
        )
    )  # fmt: skip
    try:
        assert first["addresses"]["private"] == ["10.0.7.7"]
        (port,) = as_json(admin("port", "list", "--server", first["id"], "-f", "json"))
        shown = as_json(admin("port", "show", port["ID"], "-f", "json"))
        (group,) = shown["security_group_ids"]  # OSC's name of Neutron's security_groups
        default = as_json(admin("security", "group", "show", group, "-f", "json"))
        assert (default["name"], default["project_id"]) == ("default", shown["project_id"])
        name = unique("never")
        code, out, err = admin(
            "server", "create", name, "--image", IMAGE, "--flavor", "m1.tiny",
            "--port", port["ID"],
        )  # fmt: skip
        assert code == 1
        assert "Port %s is still in use." % port["ID"] in err and "(HTTP 409)" in err
        code, out, err = admin(
            "server", "create", name, "--image", IMAGE, "--flavor", "m1.tiny",
            "--nic", "net-id=private,v4-fixed-ip=10.0.7.7",
        )  # fmt: skip
        assert code == 1
        assert "10.0.7.7 is already in use" in err and "(HTTP 400)" in err
        assert as_json(admin("server", "list", "--name", name, "-f", "json")) == []
    finally:
        ok(admin("server", "delete", first["id"], *WAIT))
