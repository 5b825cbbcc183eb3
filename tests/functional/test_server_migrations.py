"""Migration commands end to end: the real ``occli`` CLI (in-process)
against a local cloud over HTTP with 3 compute hosts, whose live
migrations stay running (``live_migration_time``) until aborted or forced.
"""

import uuid

import pytest

from tests.functional.harness import as_json
from tests.functional.harness import ok

IMAGE = "cirros-0.6.2-x86_64-disk"
pytestmark = pytest.mark.local_cloud(compute_hosts=3, live_migration_time=3600)


@pytest.fixture
def occli(local_cloud, run_occli):
    """``occli(*argv, cloud=…)`` → (exit code, stdout, stderr); admin by default."""

    def run(*argv, cloud="local-admin"):
        return run_occli("--os-cloud", cloud, *argv)

    return run


def boot(occli, cloud="local-admin"):
    name = "mig-" + uuid.uuid4().hex[:8]
    ok(
        occli(
            "server",
            "create",
            name,
            "--image",
            IMAGE,
            "--flavor",
            "m1.tiny",
            "--nic",
            "none",
            "--wait",
            "--wait-interval",
            "0.05",
            cloud=cloud,
        )
    )
    return name


def show(occli, name):
    return as_json(occli("server", "show", name, "-f", "json"))


def host(occli, name):
    return show(occli, name)["OS-EXT-SRV-ATTR:host"]


def migrations(occli, *extra):
    return as_json(occli("server", "migration", "list", "-f", "json", *extra))


def test_cold_migration_then_confirm_and_revert(occli):
    name = boot(occli)
    source = host(occli, name)
    ok(occli("server", "migrate", name, "--wait", "--wait-interval", "0.05"))
    assert show(occli, name)["status"] == "VERIFY_RESIZE"
    dest = host(occli, name)
    assert dest != source
    ok(occli("server", "resize", "confirm", name))
    assert show(occli, name)["status"] == "ACTIVE"
    ok(occli("server", "migrate", name, "--host", source))
    ok(occli("server", "migrate", "revert", name, "--wait", "--wait-interval", "0.05"))
    assert host(occli, name) == dest
    rows = migrations(occli, "--server", name)
    assert [(r["Type"], r["Status"]) for r in rows] == [
        ("migration", "reverted"),
        ("migration", "confirmed"),
    ]
    assert rows[1]["Source Compute"] == source and rows[1]["Dest Compute"] == dest


def test_live_migration_list_show_force_complete(occli):
    name = boot(occli)
    source = host(occli, name)
    ok(occli("server", "migrate", "--live-migration", "--block-migration", name))
    assert show(occli, name)["status"] == "MIGRATING"
    (row,) = migrations(occli, "--type", "live-migration", "--status", "running")
    shown = as_json(occli("server", "migration", "show", name, str(row["Id"]), "-f", "json"))
    assert shown["status"] == "running" and shown["source_compute"] == source
    # a migration may be named by its UUID too
    ok(occli("server", "migration", "force", "complete", name, row["UUID"]))
    assert show(occli, name)["status"] == "ACTIVE"
    assert host(occli, name) == row["Dest Compute"]
    assert migrations(occli, "--server", name)[0]["Status"] == "completed"


def test_live_migration_abort_keeps_the_host(occli):
    name = boot(occli)
    source = host(occli, name)
    ok(occli("server", "migrate", "--live-migration", "--host", "host3", name))
    (row,) = migrations(occli, "--server", name)
    ok(occli("server", "migration", "abort", name, str(row["Id"])))
    assert host(occli, name) == source
    assert migrations(occli, "--server", name)[0]["Status"] == "cancelled"
    code, _, err = occli("server", "migration", "show", name, str(row["Id"]))
    assert code == 1 and "is not in progress" in err


def test_evacuate_needs_a_down_service(occli):
    name = boot(occli)
    source = host(occli, name)
    code, _, err = occli("server", "evacuate", name)
    assert code == 1
    assert "Compute service of %s is still in use." % source in err
    ok(occli("compute", "service", "set", "--down", source, "nova-compute"))
    out = as_json(
        occli("server", "evacuate", name, "--wait", "--wait-interval", "0.05", "-f", "json")
    )
    assert out["OS-EXT-SRV-ATTR:host"] != source
    assert migrations(occli, "--type", "evacuation")[0]["Status"] == "done"


def test_evacuate_password_before_2_14(occli):
    name = boot(occli)
    source = host(occli, name)
    ok(occli("compute", "service", "set", "--down", source, "nova-compute"))
    result = occli(
        "--debug",
        "--os-compute-api-version",
        "2.13",
        "server",
        "evacuate",
        name,
        "--password",
        "Evac-Pass1",
        "-f",
        "json",
    )
    assert as_json(result)["adminPass"] == "Evac-Pass1"
    # the request and the answer are logged with the password masked
    assert "adminPass" in result[2] and "Evac-Pass1" not in result[2]


def test_member_is_refused(occli):
    name = boot(occli, cloud="local")
    code, _, err = occli("server", "migrate", name, cloud="local")
    assert code == 1
    assert "Policy doesn't allow os_compute_api:os-migrate-server:migrate to be performed." in err
    code, _, err = occli("server", "migration", "list", cloud="local")
    assert code == 1
    assert "os_compute_api:os-migrations:index" in err


def test_wrong_state_is_409(occli):
    name = boot(occli)
    ok(occli("server", "stop", name, "--wait", "--wait-interval", "0.05"))
    code, _, err = occli("server", "migrate", "--live-migration", name)
    assert code == 1
    assert "while it is in vm_state stopped" in err
    code, _, err = occli("server", "migration", "abort", name, "1")
    assert code == 1 and "invalid state for 'abort live migration'" in err


@pytest.mark.parametrize(
    "argv,message",
    [
        (("server", "migrate", "--block-migration", "x"), "--live-migration must be given"),
        (
            ("server", "migrate", "--live-migration", "--block-migration", "--shared-migration")
            + ("x",),
            "cannot be combined",
        ),
        (("server", "migration", "list", "--type", "teleport"), "invalid choice"),
        (("server", "migration", "show", "x"), "required"),
        (
            (
                "--os-compute-api-version",
                "2.13",
                "server",
                "evacuate",
                "--shared-storage",
                "--password",
                "p",
                "x",
            ),
            "--password cannot be set",
        ),
    ],
)
def test_usage_errors_exit_2(occli, argv, message):
    code, _, err = occli(*argv)
    assert code == 2 and message in err


def test_version_errors(occli):
    code, _, err = occli(
        "--os-compute-api-version", "2.55", "server", "migrate", "--host", "host2", "x"
    )
    assert code == 1 and "2.56 or later" in err
    code, _, err = occli(
        "--os-compute-api-version", "2.58", "server", "migration", "list", "--limit", "1"
    )
    assert code == 1 and "2.59 or later" in err
    code, _, err = occli(
        "--os-compute-api-version", "2.23", "server", "migration", "abort", "x", "1"
    )
    assert code == 1 and "2.24 or later" in err
    code, _, err = occli("server", "migrate", "--live-migration", "--disk-overcommit", "x")
    assert code == 1 and "--disk-overcommit requires compute API version between 2.1 and" in err
    code, _, err = occli(
        "--os-compute-api-version", "2.14", "server", "evacuate", "--shared-storage", "x"
    )
    assert code == 1 and "--shared-storage" in err


def test_list_paging_and_columns(occli):
    for _ in range(3):
        name = boot(occli)
        ok(occli("server", "migrate", name))
    rows = migrations(occli, "--limit", "2")
    assert len(rows) == 2
    rest = migrations(occli, "--marker", rows[-1]["UUID"])
    assert len(rest) == 1
    old = as_json(
        occli("--os-compute-api-version", "2.1", "server", "migration", "list", "-f", "json")
    )
    assert "UUID" not in old[0] and "Type" not in old[0]
    # the admin started them: its project (by name) has them all, demo's none
    assert len(migrations(occli, "--project", "admin", "--user", "admin")) == 3
    assert migrations(occli, "--project", "demo") == []
    assert [r["Id"] for r in old] == sorted(r["Id"] for r in old)


def test_migrate_wait_reports_a_migration_nova_refused(occli):
    """No other host fits: nova accepts the request, the server stays
    ACTIVE where it is (no fault): --wait exits 1 saying so."""
    name = boot(occli)
    source = host(occli, name)
    others = sorted({"host1", "host2", "host3"} - {source})
    for other in others:
        ok(occli("compute", "service", "set", "--disable", other, "nova-compute"))
    try:
        code, _, err = occli("server", "migrate", name, "--wait", "--wait-interval", "0.05")
        assert code == 1 and "was not migrated: it is still on %s" % source in err
        assert "Nova's migrate failed: No valid host was found." in err
        assert show(occli, name)["status"] == "ACTIVE"
        errors = migrations(occli, "--server", name, "--status", "error")
        assert [m["Type"] for m in errors] == ["migration"]
    finally:
        for other in others:
            ok(occli("compute", "service", "set", "--enable", other, "nova-compute"))
