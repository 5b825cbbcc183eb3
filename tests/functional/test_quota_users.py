"""Per-user compute quotas end to end: the real ``occli`` CLI (in-process)
against a local cloud over HTTP. ``quota set --user`` (novaclient's
option) limits demo's own servers in project demo, ``quota show --user``
shows them, ``quota delete --user`` reverts them to the project's.

Each test gets a fresh cloud (the ``local_cloud`` fixture of occli.testing).
"""

import pytest

from tests.functional.harness import as_json

IMAGE = "cirros-0.6.2-x86_64-disk"
pytestmark = pytest.mark.local_cloud(compute_hosts=1)


@pytest.fixture
def occli(local_cloud, run_occli):
    """``occli(*argv, cloud=...)`` → (exit code, stdout, stderr)."""

    def run(*argv, cloud="local-admin"):
        return run_occli("--os-cloud", cloud, *argv)

    return run


def limits(occli, *argv):
    rows = as_json(occli("quota", "show", "--user", "demo", *argv, "demo", "-f", "json"))
    return {row["Resource"]: row for row in rows}


def boot(occli, name):
    return occli(
        "server",
        "create",
        name,
        "--image",
        IMAGE,
        "--flavor",
        "m1.tiny",
        "--nic",
        "none",
        cloud="local",
    )


def test_a_user_quota_limits_that_users_boots(occli):
    code, out, err = occli("quota", "set", "--user", "demo", "--instances", "1", "demo")
    assert (code, out) == (0, ""), err
    assert limits(occli)["instances"]["Limit"] == 1
    assert "ports" not in limits(occli)
    code, _, err = boot(occli, "first")
    assert code == 0, err
    assert limits(occli, "--usage")["instances"]["In Use"] == 1
    code, _, err = boot(occli, "second")
    assert code == 1
    assert "Quota exceeded for instances: Requested 1, but already used 1 of 1 instances" in err
    code, _, err = occli("quota", "delete", "--user", "demo", "demo")
    assert code == 0, err
    assert limits(occli)["instances"]["Limit"] != 1
    code, _, err = boot(occli, "second")
    assert code == 0, err
