"""How many requests common commands send, counted in the local cloud's
access log (issue 14). Each command runs once first, so that the token
cache and the compute version range are warm, as they are for a user."""

import uuid

import pytest

from tests.functional.harness import as_json
from tests.functional.harness import boot_servers
from tests.functional.harness import ok


@pytest.fixture
def servers(occli_env, run_occli):
    """Two ACTIVE servers ``<prefix>-1`` and ``<prefix>-2``; their shows."""
    prefix = "rc-" + uuid.uuid4().hex[:8]
    boot_servers(run_occli, prefix, 2)
    shown = [
        as_json(run_occli("server", "show", "%s-%d" % (prefix, i), "-f", "json")) for i in (1, 2)
    ]
    yield shown
    run_occli("server", "delete", *[s["id"] for s in shown], "--wait", "--wait-interval", "0.1")


def logged(cloud, run):
    """The access-log lines of the requests ``run()`` sends."""
    with open(cloud.cloud.access_log_path) as f:
        mark = len(f.readlines())
    run()
    with open(cloud.cloud.access_log_path) as f:
        return f.readlines()[mark:]


@pytest.mark.parametrize(
    "argv, expected",
    [
        ((), ["/servers/detail", "/v2/images"]),
        (("-f", "json"), ["/servers/detail", "/v2/images"]),
        (("-c", "ID", "-c", "Name"), ["/servers/detail"]),
        (("-f", "value", "-c", "ID"), ["/servers/detail"]),
        (("-n",), ["/servers/detail"]),
        (("--no-name-lookup", "-f", "csv"), ["/servers/detail"]),
    ],
)
def test_warm_server_list(occli_env, run_occli, servers, argv, expected):
    ok(run_occli("server", "list", *argv))
    lines = logged(occli_env, lambda: ok(run_occli("server", "list", *argv)))
    paths = [line.split()[1].partition("?")[0] for line in lines]
    assert [next((e for e in expected if p.endswith(e)), p) for p in paths] == expected, lines


def test_warm_server_show(occli_env, run_occli, servers):
    first = servers[0]
    ok(run_occli("server", "show", first["id"]))
    lines = logged(occli_env, lambda: ok(run_occli("server", "show", first["id"])))
    # the server, and its image for OSC's "name (id)" (one Glance GET, as
    # openstackclient's _prep_server_detail)
    assert [line.split()[:2] for line in lines] == [
        ["GET", "/compute/v2.1/servers/" + first["id"]],
        ["GET", "/image/v2/images/" + first["image"].rpartition("(")[2].rstrip(")")],
    ]
    # no Glance request where -c leaves the image out
    argv = ("server", "show", first["id"], "-c", "status", "-c", "name")
    lines = logged(occli_env, lambda: ok(run_occli(*argv)))
    assert [line.split()[:2] for line in lines] == [
        ["GET", "/compute/v2.1/servers/" + first["id"]]
    ]
    lines = logged(occli_env, lambda: ok(run_occli("server", "show", first["name"])))
    assert 2 <= len(lines) <= 3, lines
    method, path = lines[0].split()[:2]
    assert method == "GET" and "/servers" in path and "name=" in path
    assert lines[-1].split()[1].startswith("/image/v2/images/")
