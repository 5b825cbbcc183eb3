"""Flavors, hypervisors, compute services, key pairs and availability
zones end to end: the occli CLI (in-process) against a fresh local cloud
per test (2 compute hosts, occli.testing's ``local_cloud``), as the admin
(cloud ``local-admin``) and as a member (``local``, user demo), failure
paths included."""

import base64
import json
import os
import re
import shutil
import subprocess

import pytest

from occli import exceptions

CIRROS = "cirros-0.6.2-x86_64-disk"
_REQUEST_ID = re.compile(r" \(Request-ID: req-[0-9a-f-]+\)")
pytestmark = pytest.mark.local_cloud(compute_hosts=2)


@pytest.fixture
def occli(local_cloud, run_occli):
    """``occli(*argv, cloud="local-admin")`` → (exit code, stdout, stderr)."""

    def run(*argv, cloud="local-admin"):
        return run_occli("--os-cloud", cloud, *argv)

    return run


def ok(occli, *argv, **kw):
    code, out, err = occli(*argv, **kw)
    assert code == 0, err
    return json.loads(out) if "json" in argv else out


def fails(occli, *argv, code=1, **kw):
    """stderr of a command that must fail, without request ids."""
    got, out, err = occli(*argv, **kw)
    assert got == code, (out, err)
    # a policy refusal's advice (tests/unit/test_newcomer.py checks it)
    err = err.replace(exceptions.POLICY_HINT, "")
    return _REQUEST_ID.sub("", err).strip()


def boot(occli, flavor="m1.tiny", cloud="local-admin", name="vm"):
    return ok(
        occli,
        "server",
        "create",
        name,
        "--image",
        CIRROS,
        "--flavor",
        flavor,
        "--nic",
        "none",
        "--wait",
        "--wait-interval",
        "0.05",
        "-f",
        "json",
        cloud=cloud,
    )


def demo_project(local_cloud):
    return local_cloud.client().session.get_project_id()


# -- flavors ----------------------------------------------------------------------


def test_private_flavor_access_end_to_end(occli, local_cloud):
    created = ok(
        occli,
        "flavor",
        "create",
        "gold",
        "--id",
        "gold",
        "--ram",
        "1024",
        "--disk",
        "2",
        "--vcpus",
        "2",
        "--private",
        "--project",
        "demo",
        "--property",
        "hw:cpu_policy=shared",
        "--description",
        "for demo",
        "-f",
        "json",
    )
    assert created["os-flavor-access:is_public"] is False
    assert created["properties"] == {"hw:cpu_policy": "shared"}
    assert created["access_project_ids"] == [demo_project(local_cloud)]
    assert created["description"] == "for demo"
    # demo may use it: show, list, boot
    shown = ok(occli, "flavor", "show", "gold", "-f", "json", cloud="local")
    assert shown["access_project_ids"] is None  # admin-only: null, as OSC
    assert "gold" in [r["ID"] for r in ok(occli, "flavor", "list", "-f", "json", cloud="local")]
    server = boot(occli, "gold", cloud="local")
    assert server["flavor"]["original_name"] == "gold"
    # without access: neither seen nor booted
    ok(occli, "flavor", "unset", "gold", "--project", "demo")
    assert fails(occli, "flavor", "show", "gold", cloud="local") == (
        "No flavor with a name or ID of 'gold' exists. (HTTP 404)"
    )
    assert "gold" not in [
        r["ID"] for r in ok(occli, "flavor", "list", "-f", "json", cloud="local")
    ]
    code, out, err = occli(
        "server",
        "create",
        "vm2",
        "--image",
        CIRROS,
        "--flavor",
        "gold",
        "--nic",
        "none",
        cloud="local",
    )
    assert code == 1 and "gold" in err
    # the admin gives it a new description, other properties
    ok(
        occli,
        "flavor",
        "set",
        "gold",
        "--description",
        "none left",
        "--no-property",
        "--property",
        "hw:numa_nodes=1",
    )
    again = ok(occli, "flavor", "show", "gold", "-f", "json")
    assert (again["description"], again["properties"], again["access_project_ids"]) == (
        "none left",
        {"hw:numa_nodes": "1"},
        [],
    )
    # the server runs on it after the flavor is deleted
    ok(occli, "flavor", "delete", "gold")
    assert fails(occli, "flavor", "show", "gold").startswith(
        "No flavor with a name or ID of 'gold'"
    )
    assert (
        ok(occli, "server", "show", server["id"], "-f", "json", cloud="local")["status"]
        == "ACTIVE"
    )


def test_flavor_commands_refused_to_members(occli):
    assert fails(occli, "flavor", "create", "x", cloud="local") == (
        "Policy doesn't allow os_compute_api:os-flavor-manage:create to be performed. (HTTP 403)"
    )
    assert fails(occli, "flavor", "set", "m1.tiny", "--property", "a=b", cloud="local") == (
        "Policy doesn't allow os_compute_api:os-flavor-extra-specs:create "
        "to be performed. (HTTP 403)"
    )
    assert fails(occli, "flavor", "delete", "m1.tiny", cloud="local") == (
        "Failed to delete flavor m1.tiny: Policy doesn't allow "
        "os_compute_api:os-flavor-manage:delete to be performed. (HTTP 403)"
    )


def test_flavor_create_errors(occli):
    ok(occli, "flavor", "create", "dup", "--id", "dup")
    assert fails(occli, "flavor", "create", "dup") == (
        "Flavor with name dup already exists. (HTTP 409)"
    )
    assert fails(occli, "flavor", "create", "other", "--id", "dup") == (
        "Flavor with ID dup already exists. (HTTP 409)"
    )
    assert "--project is only allowed with --private" in fails(
        occli, "flavor", "create", "p", "--project", "demo", code=2
    )
    assert fails(occli, "flavor", "create", "p", "--private", "--project", "nosuch") == (
        "No project with a name or ID of 'nosuch' exists. (HTTP 404)"
    )
    # a refused property leaves no flavor behind
    assert fails(occli, "flavor", "create", "spec", "--property", "hw:cpu_policy=bogus") == (
        "Validation failed; 'bogus' is not one of: dedicated, shared, mixed. (HTTP 400)"
    )
    assert "spec" not in [r["Name"] for r in ok(occli, "flavor", "list", "--all", "-f", "json")]
    assert fails(occli, "flavor", "set", "m1.tiny", "--project", "demo") == (
        "Cannot set access for a public flavor."
    )
    assert fails(
        occli, "--os-compute-api-version", "2.54", "flavor", "set", "m1.tiny", "--description", "d"
    ).startswith("A flavor --description requires compute API version 2.55")


def test_flavor_list_options(occli):
    ok(occli, "flavor", "create", "hidden", "--private", "--ram", "128")
    auto = ok(
        occli,
        "flavor",
        "create",
        "auto",
        "--id",
        "auto",
        "--ram",
        "100000",
        "--disk",
        "5",
        "--swap",
        "512",
        "--rxtx-factor",
        "2.0",
        "-f",
        "json",
    )
    assert len(auto["id"]) == 36 and auto["swap"] == 512
    public = [r["Name"] for r in ok(occli, "flavor", "list", "-f", "json")]
    assert "auto" in public and "hidden" not in public
    assert [r["Name"] for r in ok(occli, "flavor", "list", "--private", "-f", "json")] == [
        "hidden"
    ]
    assert {"hidden", "auto"} <= {
        r["Name"] for r in ok(occli, "flavor", "list", "--all", "-f", "json")
    }
    big = ok(occli, "flavor", "list", "--min-ram", "16384", "--long", "-f", "json")
    assert sorted((r["Name"], r["Swap"], r["RXTX Factor"]) for r in big) == [
        ("auto", 512, 2.0),
        ("m1.xlarge", 0, 1.0),
    ]
    by_ram = ok(occli, "flavor", "list", "--sort", "memory_mb:desc", "-f", "json")
    assert by_ram[0]["Name"] == "auto"
    assert "--sort must be one of" in fails(occli, "flavor", "list", "--sort", "ram", code=2)


def test_zero_disk_flavors_boot_volumes_only_for_members(occli):
    ok(occli, "flavor", "create", "zero", "--ram", "256")
    code, out, err = occli(
        "server",
        "create",
        "z",
        "--image",
        CIRROS,
        "--flavor",
        "zero",
        "--nic",
        "none",
        cloud="local",
    )
    assert code == 1
    assert "Only volume-backed servers are allowed for flavors with zero disk. (HTTP 403)" in err
    assert boot(occli, "zero")["status"] == "ACTIVE"


# -- hypervisors --------------------------------------------------------------


def test_hypervisors_end_to_end(occli):
    server = boot(occli)
    host = server["OS-EXT-SRV-ATTR:host"]
    rows = ok(occli, "hypervisor", "list", "--matching", host, "-f", "json")
    assert [r["Hypervisor Hostname"] for r in rows] == [host]
    assert rows[0]["Hypervisor Type"] == "QEMU"
    long = ok(
        occli, "--os-compute-api-version", "2.87", "hypervisor", "list", "--long", "-f", "json"
    )
    assert sum(r["vCPUs Used"] for r in long) == 1
    shown = ok(occli, "hypervisor", "show", host, "-f", "json")
    assert "servers" not in shown  # as OSC: with -c servers only
    assert ok(occli, "hypervisor", "show", host, "-f", "json", "-c", "servers") == {
        "servers": ["%s (%s)" % (server["id"], server["OS-EXT-SRV-ATTR:instance_name"])]
    }
    assert shown["uptime"].endswith("min") and shown["users"] == "0"
    old = ok(occli, "--os-compute-api-version", "2.1", "hypervisor", "show", host, "-f", "json")
    assert old["running_vms"] == 1
    assert "load_average" in old
    stats = ok(occli, "hypervisor", "stats", "show", "-f", "json")
    assert (stats["count"], stats["running_vms"]) == (2, 1)
    assert fails(
        occli, "--os-compute-api-version", "2.88", "hypervisor", "stats", "show"
    ).startswith("Hypervisor statistics requires compute API version between 2.1 and 2.87")
    assert fails(occli, "hypervisor", "list", "--matching", "nomatch") == (
        "No hypervisor matching 'nomatch' could be found. (HTTP 404)"
    )
    assert fails(occli, "hypervisor", "list", cloud="local") == (
        "Policy doesn't allow os_compute_api:os-hypervisors:list-detail to "
        "be performed. (HTTP 403)"
    )
    assert fails(occli, "hypervisor", "stats", "show", cloud="local") == (
        "Policy doesn't allow os_compute_api:os-hypervisors:statistics to be performed. (HTTP 403)"
    )


# -- compute services -----------------------------------------------------------


def test_compute_service_list_long_and_delete(occli):
    server = boot(occli)
    busy = server["OS-EXT-SRV-ATTR:host"]
    idle = "host2" if busy == "host1" else "host1"
    ok(
        occli,
        "compute",
        "service",
        "set",
        idle,
        "nova-compute",
        "--disable",
        "--disable-reason",
        "retiring",
    )
    rows = {
        r["Host"]: r
        for r in ok(
            occli,
            "compute",
            "service",
            "list",
            "--service",
            "nova-compute",
            "--long",
            "-f",
            "json",
        )
    }
    assert (rows[idle]["Disabled Reason"], rows[idle]["Forced Down"]) == ("retiring", False)
    assert rows[busy]["Updated At"]
    short = ok(occli, "compute", "service", "list", "-f", "json")
    assert "Disabled Reason" not in short[0]
    assert fails(occli, "compute", "service", "delete", rows[busy]["ID"]) == (
        "Failed to delete compute service %s: Unable to delete compute "
        "service that is hosting instances. Migrate or delete the instances "
        "first. (HTTP 409)" % rows[busy]["ID"]
    )
    assert fails(occli, "compute", "service", "delete", rows[idle]["ID"], cloud="local") == (
        "Failed to delete compute service %s: Policy doesn't allow "
        "os_compute_api:os-services:delete to be performed. (HTTP 403)" % rows[idle]["ID"]
    )
    assert ok(occli, "compute", "service", "delete", rows[idle]["ID"]) == ""
    hosts = [r["Host"] for r in ok(occli, "compute", "service", "list", "-f", "json")]
    assert idle not in hosts and busy in hosts
    assert [r["Hypervisor Hostname"] for r in ok(occli, "hypervisor", "list", "-f", "json")] == [
        busy
    ]
    # before 2.53 the integer id
    old = ok(
        occli,
        "--os-compute-api-version",
        "2.1",
        "compute",
        "service",
        "list",
        "--service",
        "nova-scheduler",
        "-f",
        "json",
    )
    assert (
        ok(
            occli,
            "--os-compute-api-version",
            "2.1",
            "compute",
            "service",
            "delete",
            str(old[0]["ID"]),
        )
        == ""
    )


# -- key pairs ------------------------------------------------------------------


def test_keypair_create_prints_a_usable_private_key(occli, tmp_path):
    code, out, err = occli("keypair", "create", "k1", cloud="local")
    assert code == 0, err
    assert out.startswith("-----BEGIN") and out.endswith("KEY-----\n")
    key = tmp_path / "k1.pem"
    key.write_text(out)
    os.chmod(key, 0o600)
    public = ok(occli, "keypair", "show", "k1", "--public-key", cloud="local")
    assert public.endswith(" Generated-by-Nova\n")
    if shutil.which("ssh-keygen"):
        derived = subprocess.run(
            ["ssh-keygen", "-y", "-f", str(key)], capture_output=True, text=True, check=True
        )
        assert derived.stdout.split()[:2] == public.split()[:2]
    shown = ok(occli, "keypair", "show", "k1", "-f", "json", cloud="local")
    assert shown["type"] == "ssh" and "public_key" not in shown
    created = ok(occli, "keypair", "create", "k2", "-f", "json", cloud="local")
    assert created["private_key"].startswith("-----BEGIN")


def test_keypair_create_x509(occli, tmp_path):
    code, out, err = occli("keypair", "create", "cert", "--type", "x509", cloud="local")
    assert code == 0, err
    bundle = base64.b64decode(out)
    pkcs12 = pytest.importorskip("cryptography.hazmat.primitives.serialization.pkcs12")
    key, cert, _ = pkcs12.load_key_and_certificates(bundle, b"")
    assert key.key_size == 2048
    listed = ok(occli, "keypair", "list", "-f", "json", cloud="local")
    assert {"Name": "cert", "Fingerprint": listed[0]["Fingerprint"], "Type": "x509"} in listed
    assert fails(
        occli,
        "--os-compute-api-version",
        "2.1",
        "keypair",
        "create",
        "c2",
        "--type",
        "x509",
        cloud="local",
    ) == (
        "Key type requires compute API version 2.2 or later (in use: 2.1); "
        "change --os-compute-api-version."
    )


def test_keypairs_of_another_user(occli, tmp_path):
    public = tmp_path / "id.pub"
    for name in ("a", "b", "c"):
        occli("keypair", "create", name, cloud="local")
    public.write_text(ok(occli, "keypair", "show", "a", "--public-key", cloud="local"))
    rows = ok(occli, "keypair", "list", "--user", "demo", "-f", "json")
    assert [r["Name"] for r in rows] == ["a", "b", "c"]
    assert [
        r["Name"]
        for r in ok(
            occli,
            "keypair",
            "list",
            "--user",
            "demo",
            "--limit",
            "1",
            "--marker",
            "a",
            "-f",
            "json",
        )
    ] == ["b"]
    assert ok(occli, "keypair", "list", "-f", "json") == []
    shown = ok(occli, "keypair", "show", "b", "--user", "demo", "-f", "json")
    assert shown["name"] == "b"
    ok(occli, "keypair", "create", "imported", "--public-key", str(public), "--user", "demo")
    ok(occli, "keypair", "delete", "c", "--user", "demo")
    assert [r["Name"] for r in ok(occli, "keypair", "list", "-f", "json", cloud="local")] == [
        "a",
        "b",
        "imported",
    ]
    assert fails(occli, "keypair", "list", "--user", "admin", cloud="local") == (
        "Policy doesn't allow os_compute_api:os-keypairs:index to be performed. (HTTP 403)"
    )
    assert fails(occli, "keypair", "show", "a", "--user", "nosuch") == (
        "No user with a name or ID of 'nosuch' exists. (HTTP 404)"
    )


# -- availability zones ---------------------------------------------------------


def test_availability_zone_list_long(occli):
    ok(occli, "compute", "service", "set", "host2", "nova-compute", "--disable")
    rows = ok(occli, "availability", "zone", "list", "--long", "-f", "json")
    assert {
        "Zone Name": "nova",
        "Zone Status": "available",
        "Zone Resource": "",
        "Host Name": "host1",
        "Service Name": "nova-compute",
        "Service Status": "enabled up",
    } in rows
    assert "host2" not in [r["Host Name"] for r in rows]
    assert {
        ("internal", "controller", "nova-scheduler"),
        ("internal", "controller", "nova-conductor"),
    } <= {(r["Zone Name"], r["Host Name"], r["Service Name"]) for r in rows}
    assert fails(occli, "availability", "zone", "list", "--long", cloud="local") == (
        "Policy doesn't allow os_compute_api:os-availability-zone:detail to "
        "be performed. (HTTP 403)"
    )
    assert ok(occli, "availability", "zone", "list", "--compute", "-f", "json", cloud="local") == [
        {"Zone Name": "nova", "Zone Status": "available"}
    ]
    # as OSC: Neutron's zones (of networks and routers) and Cinder's too
    rows = ok(occli, "availability", "zone", "list", "--long", "-f", "json", cloud="local-admin")
    assert {r["Zone Resource"] for r in rows} == {"", "network", "router"}
    volume = ok(occli, "availability", "zone", "list", "--volume", "-f", "json", cloud="local")
    assert volume == [{"Zone Name": "nova", "Zone Status": "available"}]
