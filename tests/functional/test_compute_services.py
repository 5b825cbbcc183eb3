"""Enabling and disabling compute services end to end: the real ``occli``
CLI (in-process) against a local cloud over HTTP (3 compute hosts).

Each test gets a fresh cloud (the ``local_cloud`` fixture of occli.testing):
every service enabled and up, no server.
"""

import uuid

import pytest

from tests.functional.harness import as_json
from tests.functional.harness import ok

IMAGE = "cirros-0.6.2-x86_64-disk"
HOSTS = ("host1", "host2", "host3")
pytestmark = pytest.mark.local_cloud(compute_hosts=len(HOSTS))


@pytest.fixture
def occli(local_cloud, run_occli):
    """``occli(*argv)`` as admin → (exit code, stdout, stderr)."""

    def run(*argv, cloud="local-admin"):
        return run_occli("--os-cloud", cloud, *argv)

    return run


def services(occli):
    rows = as_json(
        occli("compute", "service", "list", "--service", "nova-compute", "--long", "-f", "json")
    )
    return {r["Host"]: r for r in rows}


def zone_rows(occli):
    # Nova's zones; OSC's Zone Resource column is Neutron's
    rows = as_json(occli("availability", "zone", "list", "--compute", "--long", "-f", "json"))
    return [{k: v for k, v in row.items() if k != "Zone Resource"} for row in rows]


def boot(occli, *extra):
    """Create a server as admin and wait; its ``server show``."""
    name = "svc-" + uuid.uuid4().hex[:8]
    code, out, err = occli(
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
        *extra,
    )
    return name, code, err


def host_of(occli, name):
    return as_json(occli("server", "show", name, "-f", "json"))["OS-EXT-SRV-ATTR:host"]


def test_disabled_host_gets_no_servers_until_enabled(occli):
    assert (
        ok(
            occli(
                "compute",
                "service",
                "set",
                "host1",
                "nova-compute",
                "--disable",
                "--disable-reason",
                "maintenance",
            )
        )
        == ""
    )
    listed = services(occli)
    assert (
        listed["host1"]["Status"],
        listed["host1"]["State"],
        listed["host1"]["Disabled Reason"],
        listed["host1"]["Forced Down"],
    ) == ("disabled", "up", "maintenance", False)
    assert [listed[h]["Status"] for h in ("host2", "host3")] == ["enabled", "enabled"]
    # as in nova, the zone detail lists enabled services only
    nova_rows = [r for r in zone_rows(occli) if r["Zone Name"] == "nova"]
    assert sorted(r["Host Name"] for r in nova_rows) == ["host2", "host3"]
    assert {r["Service Status"] for r in nova_rows} == {"enabled up"}

    placed = []
    for _ in range(4):
        name, code, err = boot(occli)
        assert code == 0, err
        placed.append(host_of(occli, name))
    assert "host1" not in placed
    assert set(placed) == {"host2", "host3"}

    ok(occli("compute", "service", "set", "host1", "nova-compute", "--enable"))
    listed = services(occli)
    assert (listed["host1"]["Status"], listed["host1"]["Disabled Reason"]) == ("enabled", None)
    # host1 has the fewest servers: the next two land there
    again = []
    for _ in range(2):
        name, code, err = boot(occli)
        assert code == 0, err
        again.append(host_of(occli, name))
    assert again == ["host1", "host1"]
    nova_rows = [r for r in zone_rows(occli) if r["Zone Name"] == "nova"]
    assert sorted(r["Host Name"] for r in nova_rows) == list(HOSTS)


def test_all_hosts_disabled(occli):
    for host in HOSTS:
        ok(
            occli(
                "compute",
                "service",
                "set",
                host,
                "nova-compute",
                "--disable",
                "--disable-reason",
                "drain",
            )
        )
    # the scheduler finds no host: the build ends in ERROR
    name, code, err = boot(occli)
    assert code == 1
    assert "No valid host was found" in err and "ERROR" in err
    shown = as_json(occli("server", "show", name, "-f", "json"))
    assert shown["status"] == "ERROR"
    assert shown["fault"]["message"].startswith("No valid host was found")
    assert not shown["OS-EXT-SRV-ATTR:host"]
    # the zone has no enabled service: asking for it is refused by the API
    _, code, err = boot(occli, "--availability-zone", "nova")
    assert code == 1
    assert "The requested availability zone is not available (HTTP 400)" in err
    assert {
        "Zone Name": "nova",
        "Zone Status": "not available",
        "Host Name": "",
        "Service Name": "",
        "Service Status": "",
    } in zone_rows(occli)

    ok(occli("compute", "service", "set", "host2", "nova-compute", "--enable"))
    name, code, err = boot(occli)
    assert code == 0, err
    assert host_of(occli, name) == "host2"


def test_forced_down_host_is_skipped(occli):
    ok(occli("compute", "service", "set", "host3", "nova-compute", "--down"))
    listed = services(occli)
    assert (
        listed["host3"]["Status"],
        listed["host3"]["State"],
        listed["host3"]["Forced Down"],
    ) == ("enabled", "down", True)
    assert {
        "Zone Name": "nova",
        "Zone Status": "available",
        "Host Name": "host3",
        "Service Name": "nova-compute",
        "Service Status": "enabled down",
    } in zone_rows(occli)
    placed = []
    for _ in range(3):
        name, code, err = boot(occli)
        assert code == 0, err
        placed.append(host_of(occli, name))
    assert "host3" not in placed
    ok(occli("compute", "service", "set", "host3", "nova-compute", "--up"))
    assert services(occli)["host3"]["State"] == "up"


def test_pre_2_53_routes_and_errors(occli):
    # the host/binary action URLs
    ok(
        occli(
            "--os-compute-api-version",
            "2.11",
            "compute",
            "service",
            "set",
            "host2",
            "nova-compute",
            "--disable",
            "--disable-reason",
            "old",
            "--down",
        )
    )
    listed = services(occli)
    assert (
        listed["host2"]["Status"],
        listed["host2"]["Disabled Reason"],
        listed["host2"]["State"],
    ) == ("disabled", "old", "down")
    ok(
        occli(
            "--os-compute-api-version",
            "2.11",
            "compute",
            "service",
            "set",
            "host2",
            "nova-compute",
            "--enable",
            "--up",
        )
    )
    assert services(occli)["host2"]["Status"] == "enabled"

    code, out, err = occli(
        "--os-compute-api-version",
        "2.1",
        "compute",
        "service",
        "set",
        "host9",
        "nova-compute",
        "--disable",
    )
    assert code == 1 and out == ""
    assert len(err.strip().splitlines()) == 1
    assert "Host 'host9' is not mapped to any cell (HTTP 404)" in err
    code, out, err = occli("compute", "service", "set", "host9", "nova-compute", "--disable")
    assert code == 1
    assert err.strip() == ("No compute service nova-compute on host 'host9'. (HTTP 404)")
    code, _, err = occli("compute", "service", "set", "controller", "nova-scheduler", "--disable")
    assert code == 1
    assert "Only nova-compute services can be updated. (HTTP 400)" in err
    # members may not list (2.53+) nor update (pre-2.53) services
    code, _, err = occli(
        "compute", "service", "set", "host1", "nova-compute", "--disable", cloud="local"
    )
    assert code == 1 and "(HTTP 403)" in err
    code, _, err = occli(
        "--os-compute-api-version",
        "2.52",
        "compute",
        "service",
        "set",
        "host1",
        "nova-compute",
        "--disable",
        cloud="local",
    )
    assert code == 1 and "(HTTP 403)" in err
    assert services(occli)["host1"]["Status"] == "enabled"
