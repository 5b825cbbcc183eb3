"""Quotas the local cloud enforces beyond instances, cores and RAM, through
the real CLI: server group members at boot and cores at unshelve (nova's
texts, exit 1, nothing changed)."""

import json

import pytest

CIRROS = "cirros-0.6.2-x86_64-disk"


@pytest.fixture
def occli(local_cloud, run_occli):
    """``occli(*argv, cloud="local")`` → (exit code, stdout, stderr)."""

    def run(*argv, cloud="local"):
        return run_occli("--os-cloud", cloud, *argv)

    return run


def ok(occli, *argv, **kw):
    code, out, err = occli(*argv, **kw)
    assert code == 0, err
    return json.loads(out) if "json" in argv else out


def boot(occli, name, *extra):
    return occli(
        "server", "create", name, "--image", CIRROS, "--flavor", "m1.tiny",
        "--nic", "none", "--wait", "-f", "json", *extra,
    )  # fmt: skip


def servers(occli):
    return {s["Name"]: s["Status"] for s in ok(occli, "server", "list", "-f", "json")}


def test_server_group_members_quota_refuses_a_boot(occli):
    group = ok(occli, "server", "group", "create", "--policy", "affinity", "g", "-f", "json")
    project = group["project_id"]
    ok(occli, "quota", "set", "--server-group-members", "1", project, cloud="local-admin")
    assert boot(occli, "first", "--server-group", "g")[0] == 0
    code, _, err = boot(occli, "second", "--server-group", "g")
    assert code == 1
    assert "Quota exceeded, too many servers in group" in err and "(HTTP 403)" in err
    assert servers(occli) == {"first": "ACTIVE"}
    members = ok(occli, "server", "group", "show", "g", "-f", "json")["members"]
    assert len(members) == 1


def test_unshelve_over_the_cores_quota_is_refused(occli):
    code, out, err = boot(occli, "vm")
    assert code == 0, err
    project = json.loads(out)["project_id"]
    ok(occli, "server", "shelve", "--offload", "--wait", "vm")
    # an offloaded server uses no cores; the admin lowers the quota meanwhile
    ok(occli, "quota", "set", "--cores", "0", "--force", project, cloud="local-admin")
    code, _, err = occli("server", "unshelve", "vm")
    assert code == 1
    assert "Quota exceeded for resources: ['cores']" in err and "(HTTP 403)" in err
    assert servers(occli) == {"vm": "SHELVED_OFFLOADED"}
    ok(occli, "quota", "set", "--cores", "1", project, cloud="local-admin")
    ok(occli, "server", "unshelve", "--wait", "vm")
    assert servers(occli) == {"vm": "ACTIVE"}
