"""Moves nova accepts and its conductor then fails (NoValidHost) on a
one-host local cloud, end to end: ``--wait`` exits 1 and says why, from
the action's failed events (their details for an admin from 2.84)."""

import uuid

import pytest

from tests.functional.harness import as_json
from tests.functional.harness import ok

IMAGE = "cirros-0.6.2-x86_64-disk"
WAIT = ("--wait", "--wait-interval", "0.05", "--wait-timeout", "30")
pytestmark = pytest.mark.local_cloud(compute_hosts=1)


@pytest.fixture
def occli(local_cloud, run_occli):
    def run(*argv, cloud="local"):
        return run_occli("--os-cloud", cloud, *argv)

    return run


@pytest.fixture
def server(occli):
    name = "nvh-" + uuid.uuid4().hex[:8]
    ok(occli("server", "create", name, "--image", IMAGE, "--flavor", "m1.tiny",
             "--nic", "none", *WAIT))  # fmt: skip
    return as_json(occli("server", "show", name, "-f", "json"))["id"]


def test_resize_on_one_host_fails_with_the_reason(occli, server):
    code, _, err = occli("server", "resize", "--flavor", "m1.small", server, *WAIT)
    assert code == 1
    assert "is ACTIVE, expected VERIFY_RESIZE" in err
    # a member sees which events failed, not their details
    assert "Nova's resize failed in cold_migrate, conductor_migrate_server." in err
    assert "occli server event show %s req-" % server in err
    shown = as_json(occli("server", "show", server, "-f", "json"))
    assert shown["flavor"]["original_name"] == "m1.tiny"


def test_unshelve_without_a_host_fails_with_the_reason(occli, server):
    ok(occli("server", "shelve", server, *WAIT))
    ok(occli("compute", "service", "set", "--disable", "host1", "nova-compute",
             cloud="local-admin"))  # fmt: skip
    try:
        code, _, err = occli("server", "unshelve", server, *WAIT, cloud="local-admin")
    finally:
        ok(occli("compute", "service", "set", "--enable", "host1", "nova-compute",
                 cloud="local-admin"))  # fmt: skip
    assert code == 1 and "is SHELVED_OFFLOADED, expected ACTIVE" in err
    assert (
        "Nova's unshelve failed: No valid host was found. There are not enough hosts available."
        in err
    )
    ok(occli("server", "unshelve", server, *WAIT))
