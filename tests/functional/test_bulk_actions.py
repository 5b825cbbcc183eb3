"""Actions on several servers at a time (``--concurrency``), against the
local cloud: every server is acted on once, failures come one line each
in the order of the arguments, and the exit code says if any failed."""

import uuid

import pytest

from tests.functional.harness import as_json
from tests.functional.harness import boot_servers
from tests.functional.harness import ok


@pytest.fixture
def servers(occli_env, run_occli):
    """Six ACTIVE servers; their ids (deleted afterwards if still there)."""
    prefix = "bulk-" + uuid.uuid4().hex[:8]
    boot_servers(run_occli, prefix, 6)
    listed = as_json(
        run_occli(
            "server", "list", "--name", "^%s-" % prefix, "-f", "json", "-c", "ID", "-c", "Name"
        )
    )
    ids = [row["ID"] for row in sorted(listed, key=lambda r: r["Name"])]
    assert len(ids) == 6
    yield ids
    run_occli("server", "delete", *ids, "--wait", "--wait-interval", "0.1")


def status(run_occli, ref):
    code, out, _ = run_occli("server", "show", ref, "-f", "value", "-c", "status")
    return out.strip() if code == 0 else None


def test_stop_start_and_delete_several_at_a_time(occli_env, run_occli, servers):
    code, out, err = run_occli(
        "server", "stop", *servers, "--wait", "--wait-interval", "0.1", "--concurrency", "4"
    )
    assert (code, err) == (0, "")
    assert {status(run_occli, s) for s in servers} == {"SHUTOFF"}
    ok(run_occli("server", "start", *servers, "--wait", "--wait-interval", "0.1"))
    assert {status(run_occli, s) for s in servers} == {"ACTIVE"}
    missing = ["no-such-%s" % uuid.uuid4().hex[:6] for _ in range(2)]
    argv = [missing[0]] + servers[:3] + [missing[1]] + servers[3:]
    code, out, err = run_occli(
        "server", "delete", *argv, "--wait", "--wait-interval", "0.1", "--concurrency", "3"
    )
    assert code == 1
    assert err.splitlines() == [
        "Failed to delete server %s: No server with a name or ID of '%s' "
        "exists. (HTTP 404)" % (name, name)
        for name in missing
    ]
    assert [status(run_occli, s) for s in servers] == [None] * 6
