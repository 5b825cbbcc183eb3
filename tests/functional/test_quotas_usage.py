"""Quotas, usage, limits and the usage audit log end to end: the real
``occli`` CLI (in-process) against a private local cloud over HTTP, as the
demo member (``local``) and the admin (``local-admin``).

The failure paths are the point: a member's 403s, the 403 of a create,
resize or metadata change over quota, and limits a microversion removed
refused before any request (the cloud's access log shows none).
"""

import os
import uuid

import pytest

from tests.functional.harness import as_json
from tests.functional.harness import ok
from tests.functional.harness import point_client_at
from tests.functional.harness import start_localcloud

IMAGE = "cirros-0.6.2-x86_64-disk"
ADMIN_ID = "0" * 32  # any other project: nova's policy refuses first


@pytest.fixture(scope="module")
def quota_cloud():
    running = start_localcloud()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def demo(quota_cloud):
    """The demo project's ID (the admin names it so; names need keystone's
    admin API in the client)."""
    with quota_cloud.cloud.store.read() as db:
        return quota_cloud.cloud.identity.project_id(db, "demo")


@pytest.fixture
def occli(quota_cloud, demo, monkeypatch, tmp_path, run_occli):
    """``occli(*argv, cloud=…)``; puts the demo project's quotas and the
    default class back and deletes every server afterwards."""
    point_client_at(quota_cloud, monkeypatch, tmp_path / "occli-cache")

    def run(*argv, cloud="local"):
        return run_occli("--os-cloud", cloud, *(demo if a == "DEMO" else a for a in argv))

    yield run
    ok(run("quota", "delete", "DEMO", cloud="local-admin"))
    ok(run("quota", "set", "--class", "default", "--key-pairs", "100", cloud="local-admin"))
    for server in as_json(
        run("server", "list", "--all-projects", "-f", "json", cloud="local-admin")
    ):
        ok(
            run(
                "server",
                "delete",
                server["ID"],
                "--wait",
                "--wait-interval",
                "0.05",
                cloud="local-admin",
            )
        )


def limits(occli, *argv, cloud="local", version=None):
    pin = ("--os-compute-api-version", version) if version else ()
    return {
        r["Resource"]: r
        for r in as_json(occli(*pin, "quota", "show", *argv, "-f", "json", cloud=cloud))
    }


def boot(occli, name, *extra, cloud="local"):
    return occli(
        "server",
        "create",
        name,
        "--image",
        IMAGE,
        "--nic",
        "none",
        "--wait",
        "--wait-interval",
        "0.05",
        *extra,
        cloud=cloud,
    )


def access_log(cloud):
    with open(os.path.join(cloud.data_dir, "access.log")) as f:
        return f.read().splitlines()


def test_a_member_reads_its_quotas_and_nothing_else(occli):
    mine = limits(occli, "--usage")
    assert mine["instances"] == {"Resource": "instances", "Limit": 10, "In Use": 0, "Reserved": 0}
    assert limits(occli, "--default")["key-pairs"]["Limit"] == 100
    for argv in (
        ("quota", "show", ADMIN_ID),
        ("quota", "set", "DEMO", "--instances", "1"),
        ("quota", "delete", "demo"),
        ("quota", "show", "--class", "default"),
        ("usage", "list"),
        ("usage", "audit"),
        ("limits", "show", "--project", "demo"),
    ):
        code, out, err = occli(*argv)
        assert code == 1, argv
        assert "Policy doesn't allow os_compute_api:" in err, (argv, err)
        assert "(HTTP 403)" in err
    assert limits(occli)["instances"]["Limit"] == 10


def test_instances_quota_trims_then_refuses(occli):
    ok(occli("quota", "set", "DEMO", "--instances", "3", cloud="local-admin"))
    ok(boot(occli, "q", "--flavor", "m1.tiny", "--min", "1", "--max", "5"))
    names = sorted(s["Name"] for s in as_json(occli("server", "list", "-f", "json")))
    assert names == ["q-1", "q-2", "q-3"]
    code, out, err = boot(occli, "over", "--flavor", "m1.tiny", "--min", "2", "--max", "3")
    assert code == 1
    assert (
        "Quota exceeded for instances: Requested 2-3, but already used 3 of 3 instances (HTTP 403)"
    ) in err
    usage = limits(occli, "--usage")["instances"]
    assert (usage["Limit"], usage["In Use"]) == (3, 3)
    # nova's message when the limit is lowered under the usage
    code, out, err = occli("quota", "set", "DEMO", "--instances", "2", cloud="local-admin")
    assert code == 1
    assert (
        "Quota limit 2 for instances must be greater than or equal to already used and reserved 3."
    ) in err
    ok(occli("quota", "set", "DEMO", "--instances", "2", "--force", cloud="local-admin"))


def test_cores_and_ram_quotas(occli):
    ok(occli("quota", "set", "DEMO", "--cores", "3", "--ram", "8000", cloud="local-admin"))
    ok(boot(occli, "wide", "--flavor", "m1.medium"))  # 2 vCPUs, 4 GiB
    code, out, err = boot(occli, "wider", "--flavor", "m1.medium")
    assert code == 1
    assert (
        "Quota exceeded for cores, ram: Requested 2, 4096, but already "
        "used 2, 4096 of 3, 8000 cores, ram (HTTP 403)"
    ) in err
    # a resize over quota is refused, the server untouched
    code, out, err = occli("server", "resize", "wide", "--flavor", "m1.large")
    assert code == 1
    assert (
        "Quota exceeded for cores, ram: Requested 2, 4096, but already "
        "used 2, 4096 of 3, 8000 cores, ram (HTTP 403)"
    ) in err
    shown = as_json(occli("server", "show", "wide", "-f", "json"))
    assert shown["status"] == "ACTIVE"
    limits_shown = {
        r["Name"]: r["Value"] for r in as_json(occli("limits", "show", "--absolute", "-f", "json"))
    }
    assert (
        limits_shown["max_total_cores"],
        limits_shown["total_cores_used"],
        limits_shown["max_total_ram_size"],
        limits_shown["total_ram_used"],
    ) == (3, 2, 8000, 4096)


def test_metadata_and_key_pair_quotas(occli, tmp_path):
    ok(
        occli(
            "quota",
            "set",
            "DEMO",
            "--metadata-items",
            "1",
            "--key-pairs",
            "1",
            cloud="local-admin",
        )
    )
    code, out, err = boot(
        occli, "meta", "--flavor", "m1.tiny", "--property", "a=1", "--property", "b=2"
    )
    assert code == 1
    assert "Maximum number of metadata items exceeds 1 (HTTP 403)" in err
    ok(boot(occli, "meta", "--flavor", "m1.tiny", "--property", "a=1"))
    code, out, err = occli("server", "set", "meta", "--property", "b=2")
    assert code == 1
    assert "Maximum number of metadata items exceeds 1" in err
    key = tmp_path / "id.pub"
    key.write_text(
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG8Bo9d8gkRYyT1tRKc6fPXvLZdJUBwr3x4ZNaGi8S0M quota\n"
    )
    first, second = ("q-" + uuid.uuid4().hex[:6] for _ in range(2))
    ok(occli("keypair", "create", "--public-key", str(key), first))
    try:
        code, out, err = occli("keypair", "create", "--public-key", str(key), second)
        assert code == 1
        assert "Quota exceeded, too many key pairs. (HTTP 403)" in err
    finally:
        ok(occli("keypair", "delete", first))


def test_removed_limits_are_refused_before_any_request(occli, quota_cloud):
    before = len(access_log(quota_cloud))
    code, out, err = occli("quota", "set", "DEMO", "--injected-files", "2", cloud="local-admin")
    assert code == 1
    assert err.strip().endswith(
        "The --injected-files quota (removed in compute API 2.57) requires "
        "compute API version between 2.1 and 2.56 (in use: 2.96); pin a "
        "version with --os-compute-api-version."
    )
    code, out, err = occli(
        "--os-compute-api-version",
        "2.57",
        "quota",
        "set",
        "DEMO",
        "--fixed-ips",
        "2",
        cloud="local-admin",
    )
    assert code == 1
    assert (
        "The --fixed-ips quota (removed in compute API 2.36) requires "
        "compute API version between 2.1 and 2.35 (in use: 2.57); change "
        "--os-compute-api-version."
    ) in err
    assert not [line for line in access_log(quota_cloud)[before:] if "/os-quota-sets" in line]
    # below those versions they are set, and shown
    ok(
        occli(
            "--os-compute-api-version",
            "2.35",
            "quota",
            "set",
            "DEMO",
            "--injected-files",
            "2",
            "--floating-ips",
            "4",
            cloud="local-admin",
        )
    )
    # nova's own rows (without --compute Neutron's floating_ips fill the row, as OSC)
    shown = limits(occli, "--compute", version="2.35")
    assert (shown["injected-files"]["Limit"], shown["floating_ips"]["Limit"]) == (2, 4)
    # unpinned, read at 2.56 as OSC reads them; at 2.57 nova has none:
    # openstacksdk's null row, as OSC prints it
    assert limits(occli)["injected-files"]["Limit"] == 2
    assert limits(occli, version="2.57")["injected_files"]["Limit"] is None


def test_usage_errors_cost_no_request(occli, quota_cloud):
    before = len(access_log(quota_cloud))
    for argv in (
        ("quota", "set", "DEMO"),
        ("quota", "set", "DEMO", "--cores", "-5"),
        ("quota", "show", "--class", "--usage"),
        ("usage", "show", "--start", "2024-02-01", "--end", "2024-01-01"),
        ("limits", "show", "--absolute", "--rate"),
    ):
        code, out, err = occli(*argv)
        assert code == 2, (argv, err)
    assert not [
        line for line in access_log(quota_cloud)[before:] if "/os-" in line or "/limits" in line
    ]


def test_quota_classes_hold_the_defaults(occli):
    ok(occli("quota", "set", "--class", "default", "--key-pairs", "7", cloud="local-admin"))
    assert limits(occli, "--class", "default", cloud="local-admin")["key-pairs"]["Limit"] == 7
    assert limits(occli)["key-pairs"]["Limit"] == 7
    assert limits(occli, "--default")["key-pairs"]["Limit"] == 7
    ok(occli("quota", "set", "DEMO", "--key-pairs", "9", cloud="local-admin"))
    assert limits(occli)["key-pairs"]["Limit"] == 9
    ok(occli("quota", "delete", "DEMO", cloud="local-admin"))
    assert limits(occli)["key-pairs"]["Limit"] == 7


def test_limits_show(occli):
    ok(boot(occli, "counted", "--flavor", "m1.tiny"))
    absolute = {r["Name"]: r["Value"] for r in as_json(occli("limits", "show", "-f", "json"))}
    # OSC 10.5's names: openstacksdk's attribute and its aka; Cinder's too
    assert absolute["instances_used"] == absolute["total_instances_used"] == 1
    assert absolute["max_total_volumes"] >= 0
    assert as_json(occli("limits", "show", "--rate", "-f", "json")) == []
    admin_view = {
        r["Name"]: r["Value"]
        for r in as_json(
            occli("limits", "show", "--project", "DEMO", "-f", "json", cloud="local-admin")
        )
    }
    assert admin_view["total_instances_used"] == 1
    assert admin_view["total_volumes_used"] == absolute["total_volumes_used"]
    # read at compute API 2.1 as OSC reads them, unless pinned later
    ok(occli("limits", "show", "--reserved"))
    code, out, err = occli("--os-compute-api-version", "2.75", "limits", "show", "--reserved")
    assert code == 1
    assert "requires compute API version between 2.1 and 2.74" in err
    ok(occli("--os-compute-api-version", "2.74", "limits", "show", "--reserved"))


def test_usage_counts_server_hours(occli, demo):
    # deleted servers still count for the time they ran: other tests' too
    before = len(as_json(occli("usage", "show", "-f", "json"))["Servers"])
    ok(boot(occli, "used", "--flavor", "m1.small"))
    shown = as_json(occli("usage", "show", "-f", "json"))
    assert shown["Project"] == demo
    assert len(shown["Servers"]) == before + 1
    assert shown["RAM MB-Hours"] >= 0
    listed = {
        r["Project"]: r for r in as_json(occli("usage", "list", "-f", "json", cloud="local-admin"))
    }
    assert len(listed[demo]["Servers"]) == before + 1
    table = ok(occli("usage", "list", cloud="local-admin"))
    assert table.startswith("Usage from ")
    code, out, err = occli("usage", "show", "--project", ADMIN_ID)
    assert code == 1
    assert "os-simple-tenant-usage:show" in err
    # a deleted server is still reported, terminated
    ok(occli("server", "delete", "used", "--wait", "--wait-interval", "0.05"))
    assert len(as_json(occli("usage", "show", "-f", "json"))["Servers"]) == (before + 1)


def test_usage_audit(occli):
    shown = as_json(occli("usage", "audit", "-f", "json", cloud="local-admin"))
    assert shown["Hosts Not Run"][0] == "host1"
    assert shown["Hosts"] == len(shown["Hosts Not Run"])
    assert shown["Overall Status"] == "0 of %d hosts done. 0 errors." % (shown["Hosts"])
    old = as_json(
        occli(
            "usage", "audit", "--before", "2012-07-01 00:00:00", "-f", "json", cloud="local-admin"
        )
    )
    assert (old["Period Beginning"], old["Period Ending"]) == (
        "2012-05-01 00:00:00",
        "2012-06-01 00:00:00",
    )
    code, out, err = occli("usage", "audit", "--before", "yesterday", cloud="local-admin")
    assert code == 1
    assert "Invalid timestamp for date yesterday (HTTP 400)" in err
