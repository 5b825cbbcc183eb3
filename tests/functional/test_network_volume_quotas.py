"""Network and volume quotas end to end: the real ``occli`` CLI
(in-process) against a private local cloud whose Neutron and Cinder
enforce their own limits, as the demo member (``local``) and the admin
(``local-admin``). (A catalog without them: tests/unit/test_service_quotas.py.)"""

import pytest

from tests.functional.harness import as_json
from tests.functional.harness import ok
from tests.functional.harness import point_client_at
from tests.functional.harness import start_localcloud


@pytest.fixture(scope="module")
def quota_cloud():
    running = start_localcloud()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def demo(quota_cloud):
    with quota_cloud.cloud.store.read() as db:
        return quota_cloud.cloud.identity.project_id(db, "demo")


@pytest.fixture
def occli(quota_cloud, demo, monkeypatch, tmp_path, run_occli):
    """``occli(*argv, cloud=…)`` (``DEMO`` is the demo project's ID); puts
    the demo project's limits back and deletes its volumes and floating
    IPs afterwards."""
    point_client_at(quota_cloud, monkeypatch, tmp_path / "occli-cache")

    def run(*argv, cloud="local"):
        return run_occli("--os-cloud", cloud, *(demo if a == "DEMO" else a for a in argv))

    yield run
    ok(run("quota", "delete", "DEMO", cloud="local-admin"))
    for fip in as_json(run("floating", "ip", "list", "-f", "json")):
        ok(run("floating", "ip", "delete", fip["ID"]))
    for volume in as_json(run("volume", "list", "-f", "json")):
        ok(run("volume", "delete", volume["ID"]))


def limits(occli, *argv, cloud="local"):
    shown = as_json(occli("quota", "show", *argv, "-f", "json", cloud=cloud))
    return {r["Resource"]: r for r in shown}


def test_show_counts_what_neutron_and_cinder_hold(occli):
    ok(occli("volume", "create", "--size", "2", "q-data", "--wait"))
    ok(occli("floating", "ip", "create", "public"))
    shown = limits(occli, "--usage")
    assert shown["volumes"]["In Use"] == 1 and shown["gigabytes"]["In Use"] == 2
    assert shown["floating_ips"]["In Use"] == 1
    assert shown["ports"]["Limit"] == 500 and shown["instances"]["In Use"] == 0
    # the admin reads the demo project's, by ID
    assert limits(occli, "DEMO", "--volume", cloud="local-admin")["volumes"]["Limit"] == 10


def test_limits_set_by_the_admin_are_enforced(occli):
    ok(
        occli(
            "quota",
            "set",
            "DEMO",
            "--floating-ips",
            "1",
            "--volumes",
            "1",
            "--gigabytes",
            "3",
            cloud="local-admin",
        )
    )
    shown = limits(occli)
    assert (shown["floating_ips"]["Limit"], shown["volumes"]["Limit"]) == (1, 1)
    assert shown["gigabytes"]["Limit"] == 3
    ok(occli("floating", "ip", "create", "public"))
    code, out, err = occli("floating", "ip", "create", "public")
    assert code == 1
    assert "Quota exceeded for resources: ['floatingip']" in err and "HTTP 409" in err
    code, out, err = occli("volume", "create", "--size", "4", "big")
    assert code == 1
    assert "HTTP 413" in err and "gigabytes" in err
    ok(occli("volume", "create", "--size", "1", "small"))
    code, out, err = occli("volume", "create", "--size", "1", "second")
    assert code == 1
    assert "HTTP 413" in err and "volumes" in err
    # below the usage: Neutron refuses, --force sets it
    code, out, err = occli("quota", "set", "DEMO", "--floating-ips", "0", cloud="local-admin")
    assert code == 1 and "HTTP 400" in err
    ok(occli("quota", "set", "DEMO", "--floating-ips", "0", "--force", cloud="local-admin"))
    # quota delete reverts every service's limits
    ok(occli("quota", "delete", "DEMO", cloud="local-admin"))
    shown = limits(occli)
    assert (shown["floating_ips"]["Limit"], shown["volumes"]["Limit"]) == (50, 10)


def test_per_type_volume_limits(occli):
    ok(
        occli(
            "quota",
            "set",
            "DEMO",
            "--volume-type",
            "__DEFAULT__",
            "--volumes",
            "0",
            cloud="local-admin",
        )
    )
    assert limits(occli, "--volume")["volumes___DEFAULT__"]["Limit"] == 0
    code, out, err = occli("volume", "create", "--size", "1", "typed")
    assert code == 1 and "HTTP 413" in err


def test_a_member_reads_but_does_not_set(occli):
    code, out, err = occli("quota", "set", "DEMO", "--ports", "3")
    assert code == 1
    assert "HTTP 403" in err
    code, out, err = occli("quota", "set", "DEMO", "--volumes", "3")
    assert code == 1
    assert "HTTP 403" in err
    assert limits(occli)["ports"]["Limit"] == 500


def test_usage_errors_cost_no_request(occli):
    for argv in (
        ("quota", "set", "DEMO", "--ports", "-5"),
        ("quota", "set", "--class", "default", "--volumes", "2"),
        ("quota", "set", "DEMO", "--volume-type", "__DEFAULT__"),
    ):
        code, out, err = occli(*argv, cloud="local-admin")
        assert code == 2, (argv, err)
