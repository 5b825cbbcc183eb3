"""Flavors, images, keypairs, compute services and hypervisors: the real CLI
against a fresh local cloud per test (occli.testing's ``local_cloud``)."""

from tests.functional.harness import as_json
from tests.functional.harness import ok

CIRROS = "cirros-0.6.2-x86_64-disk"
PUBLIC_KEY = (
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGq8bm9x4K1aTtN2Vf4sWm3o6rHqG0Jm8n1qkYx6oO2V occli@test"
)


def test_flavor_and_image_commands(local_cloud, run_occli):
    flavors = as_json(run_occli("flavor", "list", "-f", "json"))
    assert [f["Name"] for f in flavors][:2] == ["m1.tiny", "m1.small"]
    tiny = as_json(run_occli("flavor", "show", "m1.tiny", "-f", "json"))
    assert tiny["ram"] == 512 and tiny["vcpus"] == 1
    images = as_json(run_occli("image", "list", "--long", "-f", "json"))
    cirros = [i for i in images if i["Name"] == CIRROS]
    assert cirros and cirros[0]["Status"] == "active"
    shown = as_json(run_occli("image", "show", CIRROS, "-f", "json"))
    assert shown["id"] == cirros[0]["ID"]
    code, out, err = run_occli("image", "show", "no-such-image")
    assert code == 1 and "(HTTP 404)" in err


def test_keypair_lifecycle(local_cloud, run_occli, tmp_path):
    pub = tmp_path / "id.pub"
    pub.write_text(PUBLIC_KEY + "\n")
    created = as_json(
        run_occli("keypair", "create", "imported", "--public-key", str(pub), "-f", "json")
    )
    assert created["name"] == "imported" and created["fingerprint"]
    key_file = tmp_path / "generated.pem"
    ok(run_occli("keypair", "create", "generated", "--private-key", str(key_file)))
    assert "PRIVATE KEY" in key_file.read_text()
    names = {k["Name"] for k in as_json(run_occli("keypair", "list", "-f", "json"))}
    assert {"imported", "generated"} <= names
    shown = as_json(run_occli("keypair", "show", "imported", "-f", "json"))
    assert shown["name"] == "imported" and "public_key" not in shown
    # as OpenStackClient: the public key only with --public-key
    assert ok(run_occli("keypair", "show", "imported", "--public-key")) == PUBLIC_KEY + "\n"
    code, _, err = run_occli("keypair", "create", "imported", "--public-key", str(pub))
    assert code == 1 and "(HTTP 409)" in err
    ok(run_occli("keypair", "delete", "imported", "generated"))
    names = {k["Name"] for k in as_json(run_occli("keypair", "list", "-f", "json"))}
    assert not {"imported", "generated"} & names


def test_admin_views_of_the_compute_hosts(local_cloud, run_occli):
    services = as_json(
        run_occli(
            "--os-cloud",
            "local-admin",
            "compute",
            "service",
            "list",
            "--service",
            "nova-compute",
            "-f",
            "json",
        )
    )
    hosts = sorted(s["Host"] for s in services)
    assert hosts == ["host1", "host2", "host3"]
    hypervisors = as_json(
        run_occli("--os-cloud", "local-admin", "hypervisor", "list", "-f", "json")
    )
    assert sorted(h["Hypervisor Hostname"] for h in hypervisors) == hosts
    code, _, err = run_occli("hypervisor", "list")
    assert code == 1 and "(HTTP 403)" in err
