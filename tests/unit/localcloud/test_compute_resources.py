"""Flavors, keypairs, services, hypervisors, availability zones, limits."""

import base64
import hashlib
import struct

import pytest

from occli.localcloud.compute import keypairs
from occli.localcloud.microversions import APIVersion
from tests.unit.localcloud.compute_harness import fault


def _ssh_key(comment="me@host"):
    blob = b"".join(struct.pack(">I", len(part)) + part for part in (b"ssh-ed25519", b"k" * 32))
    return "ssh-ed25519 %s %s" % (base64.b64encode(blob).decode(), comment), blob


# -- flavors ------------------------------------------------------------------


def test_seeded_flavors(nova):
    flavors = nova.get("/flavors/detail").json()["flavors"]
    assert [(f["id"], f["name"], f["ram"], f["disk"], f["vcpus"]) for f in flavors] == [
        ("1", "m1.tiny", 512, 1, 1),
        ("2", "m1.small", 2048, 20, 1),
        ("3", "m1.medium", 4096, 40, 2),
        ("4", "m1.large", 8192, 80, 4),
        ("5", "m1.xlarge", 16384, 160, 8),
    ]


@pytest.mark.parametrize(
    "version,swap,extra",
    [("2.1", "", False), ("2.60", "", False), ("2.61", "", True), ("2.75", 0, True)],
)
def test_flavor_fields_by_version(nova, version, swap, extra):
    flavor = nova.get("/flavors/1", version=version).json()["flavor"]
    assert flavor["swap"] == swap
    assert ("extra_specs" in flavor) is extra
    assert ("description" in flavor) is (APIVersion(version) >= "2.55")


def test_flavor_description_in_list_from_2_55(nova):
    assert "description" not in nova.get("/flavors").json()["flavors"][0]
    assert nova.get("/flavors", version="2.55").json()["flavors"][0]["description"] is None


def test_flavor_paging_and_errors(nova):
    page = nova.get("/flavors?limit=2").json()
    assert [f["id"] for f in page["flavors"]] == ["1", "2"]
    assert "marker=2" in page["flavors_links"][0]["href"]
    rest = nova.get("/flavors?limit=3&marker=2").json()
    assert [f["id"] for f in rest["flavors"]] == ["3", "4", "5"]
    assert "flavors_links" in rest
    assert "flavors_links" not in nova.get("/flavors?limit=4&marker=2").json()
    assert nova.get("/flavors?marker=99").status == 400
    assert [f["id"] for f in nova.get("/flavors?minRam=8192").json()["flavors"]] == ["4", "5"]
    result = nova.get("/flavors/42")
    assert fault(result) == ("itemNotFound", 404, "Flavor 42 could not be found.")


# -- keypairs -----------------------------------------------------------------


def test_import_keypair_fingerprint_and_codes(nova):
    public, blob = _ssh_key()
    digest = hashlib.md5(blob).hexdigest()
    expected = ":".join(digest[i : i + 2] for i in range(0, 32, 2))
    old = nova.post("/os-keypairs", {"keypair": {"name": "k1", "public_key": public}})
    assert old.status == 200
    body = old.json()["keypair"]
    assert body["fingerprint"] == expected
    assert "type" not in body and "private_key" not in body
    new = nova.post(
        "/os-keypairs",
        {"keypair": {"name": "k2", "public_key": public, "type": "ssh"}},
        version="2.2",
    )
    assert new.status == 201 and new.json()["keypair"]["type"] == "ssh"
    dup = nova.post("/os-keypairs", {"keypair": {"name": "k1", "public_key": public}})
    assert fault(dup) == ("conflictingRequest", 409, "Key pair 'k1' already exists.")
    bad = nova.post("/os-keypairs", {"keypair": {"name": "k3", "public_key": "ssh-rsa xx"}})
    assert fault(bad)[1:] == (400, "Keypair data is invalid: failed to generate fingerprint")
    assert nova.delete("/os-keypairs/k1").status == 202
    assert nova.delete("/os-keypairs/k2", version="2.2").status == 204
    assert nova.delete("/os-keypairs/k2").status == 404


def test_keypair_list_show_and_paging(nova):
    public, _ = _ssh_key()
    for name in ("b", "a", "c"):
        nova.post("/os-keypairs", {"keypair": {"name": name, "public_key": public}})
    listed = nova.get("/os-keypairs").json()
    assert [k["keypair"]["name"] for k in listed["keypairs"]] == ["a", "b", "c"]
    assert "keypairs_links" not in nova.get("/os-keypairs?limit=1").json()
    page = nova.get("/os-keypairs?limit=2", version="2.35").json()
    assert [k["keypair"]["name"] for k in page["keypairs"]] == ["a", "b"]
    assert "marker=b" in page["keypairs_links"][0]["href"]
    shown = nova.get("/os-keypairs/a").json()["keypair"]
    assert {"id", "created_at", "deleted", "user_id"} <= set(shown)
    assert nova.get("/os-keypairs", user="admin").json()["keypairs"] == []
    assert fault(nova.get("/os-keypairs/zz"))[0] == "itemNotFound"


def test_keypair_names_and_public_key_rules(nova):
    public, _ = _ssh_key()
    dotted = {"keypair": {"name": "me@x.y", "public_key": public}}
    assert nova.post("/os-keypairs", dotted, version="2.91").status == 400
    assert nova.post("/os-keypairs", dotted, version="2.92").status == 201
    no_key = {"keypair": {"name": "gen"}}
    assert nova.post("/os-keypairs", no_key, version="2.92").status == 400


def test_keypair_user_id_needs_admin(nova):
    public, _ = _ssh_key()
    body = {"keypair": {"name": "k", "public_key": public, "user_id": "someone"}}
    assert nova.post("/os-keypairs", body, version="2.10").status == 403
    created = nova.post("/os-keypairs", body, version="2.10", user="admin")
    assert created.json()["keypair"]["user_id"] == "someone"
    listed = nova.get("/os-keypairs?user_id=someone", version="2.10", user="admin").json()[
        "keypairs"
    ]
    assert [k["keypair"]["name"] for k in listed] == ["k"]


def test_generated_keypair(nova):
    if keypairs.generate_ssh_keypair() is None:
        pytest.skip("neither cryptography nor ssh-keygen available")
    result = nova.post("/os-keypairs", {"keypair": {"name": "gen"}}, version="2.2")
    assert result.status == 201
    body = result.json()["keypair"]
    assert body["private_key"].startswith("-----BEGIN")
    assert body["public_key"].startswith("ssh-rsa ")
    assert body["fingerprint"] == keypairs.ssh_fingerprint(body["public_key"])
    server = nova.show(nova.create(key_name="gen"))
    assert server["key_name"] == "gen"


def test_generation_falls_back_and_reports_unavailability(nova, monkeypatch):
    monkeypatch.setattr(
        keypairs, "_generate_with_cryptography", lambda: (_ for _ in ()).throw(ImportError())
    )
    monkeypatch.setattr(keypairs.shutil, "which", lambda name: None)
    result = nova.post("/os-keypairs", {"keypair": {"name": "gen"}})
    assert result.status == 400
    assert "import a public_key" in fault(result)[2]


# -- services, hypervisors, zones -------------------------------------------


def test_services_are_admin_only_and_versioned(nova):
    assert nova.get("/os-services").status == 403
    services = nova.get("/os-services", user="admin").json()["services"]
    assert [(s["binary"], s["host"], s["zone"]) for s in services] == [
        ("nova-scheduler", "controller", "internal"),
        ("nova-conductor", "controller", "internal"),
        ("nova-compute", "host1", "nova"),
        ("nova-compute", "host2", "nova"),
        ("nova-compute", "host3", "nova"),
    ]
    assert all(isinstance(s["id"], int) for s in services)
    assert "forced_down" not in services[0]
    new = nova.get("/os-services", user="admin", version="2.53").json()["services"]
    assert all(len(s["id"]) == 36 for s in new)
    assert new[0]["forced_down"] is False
    computes = nova.get("/os-services?binary=nova-compute&host=host2", user="admin").json()[
        "services"
    ]
    assert [s["host"] for s in computes] == ["host2"]


def test_hypervisors(nova):
    assert nova.get("/os-hypervisors").status == 403
    nova.create()
    plain = nova.get("/os-hypervisors", user="admin").json()["hypervisors"]
    assert [h["hypervisor_hostname"] for h in plain] == ["host1", "host2", "host3"]
    assert [h["id"] for h in plain] == [1, 2, 3]
    detail = nova.get("/os-hypervisors/detail", user="admin").json()["hypervisors"]
    assert detail[0]["running_vms"] == 1 and detail[1]["running_vms"] == 0
    assert isinstance(detail[0]["cpu_info"], str)
    assert isinstance(
        nova.get("/os-hypervisors/detail", user="admin", version="2.28").json()["hypervisors"][0][
            "cpu_info"
        ],
        dict,
    )
    assert "hypervisors_links" not in nova.get("/os-hypervisors?limit=1", user="admin").json()
    paged = nova.get("/os-hypervisors?limit=1", user="admin", version="2.33").json()
    assert "marker=1" in paged["hypervisors_links"][0]["href"]
    new = nova.get(
        "/os-hypervisors/detail?with_servers=true", user="admin", version="2.88"
    ).json()["hypervisors"]
    assert len(new[0]["id"]) == 36 and "running_vms" not in new[0]
    # from 2.75 a hypervisor without servers shows an empty list
    assert len(new[0]["servers"]) == 1 and new[1]["servers"] == []
    shown = nova.get("/os-hypervisors/%s" % new[0]["id"], user="admin", version="2.53")
    assert shown.json()["hypervisor"]["hypervisor_hostname"] == "host1"


def test_availability_zones(nova):
    zones = nova.get("/os-availability-zone").json()["availabilityZoneInfo"]
    assert zones == [{"zoneName": "nova", "zoneState": {"available": True}, "hosts": None}]
    assert nova.get("/os-availability-zone/detail").status == 403
    detail = nova.get("/os-availability-zone/detail", user="admin").json()["availabilityZoneInfo"]
    by_name = {z["zoneName"]: z for z in detail}
    assert set(by_name) == {"internal", "nova"}
    assert set(by_name["nova"]["hosts"]) == {"host1", "host2", "host3"}
    assert set(by_name["internal"]["hosts"]["controller"]) == {"nova-scheduler", "nova-conductor"}


# -- limits -------------------------------------------------------------------


def test_limits_keys_by_version_and_usage(nova):
    nova.create(flavorRef="2")
    nova.create(flavorRef="3")
    absolute = nova.get("/limits").json()["limits"]["absolute"]
    assert (
        absolute["totalInstancesUsed"],
        absolute["totalCoresUsed"],
        absolute["totalRAMUsed"],
    ) == (2, 3, 6144)
    assert "maxPersonality" in absolute and "maxSecurityGroups" in absolute
    assert (
        "maxSecurityGroups" not in nova.get("/limits", version="2.36").json()["limits"]["absolute"]
    )
    assert "maxImageMeta" not in nova.get("/limits", version="2.39").json()["limits"]["absolute"]
    assert "maxPersonality" not in nova.get("/limits", version="2.57").json()["limits"]["absolute"]
    assert (
        nova.get("/limits", user="admin").json()["limits"]["absolute"]["totalInstancesUsed"] == 0
    )
    demo = nova.project_id("demo")
    assert (
        nova.get("/limits?tenant_id=" + demo, user="admin").json()["limits"]["absolute"][
            "totalInstancesUsed"
        ]
        == 2
    )
    assert nova.get("/limits?tenant_id=" + nova.project_id("admin")).status == 403


def test_hypervisor_show_needs_a_uuid_from_2_53(nova):
    # nova _validate_id: 400 "Invalid uuid <id>" at 2.53+, not a 404
    result = nova.get("/os-hypervisors/1", user="admin", version="2.53")
    assert result.status == 400, result.body
    assert fault(result)[2] == "Invalid uuid 1"
    assert nova.get("/os-hypervisors/1", user="admin", version="2.52").status == 200
    missing = nova.get("/os-hypervisors/%s" % ("0" * 32), user="admin", version="2.53")
    assert missing.status == 404
