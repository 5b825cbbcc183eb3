"""Server tags and server list filters end to end: the occli CLI
(in-process) against a local cloud, including the failure paths."""

import json

import pytest

CIRROS = "cirros-0.6.2-x86_64-disk"
pytestmark = pytest.mark.local_cloud(compute_hosts=2)


@pytest.fixture
def occli(local_cloud, run_occli):
    def run(*argv, cloud="local"):
        return run_occli("--os-cloud", cloud, *argv)

    return run


def ok(occli, *argv, **kw):
    code, out, err = occli(*argv, **kw)
    assert code == 0, err
    return json.loads(out) if "json" in argv else out


def names(occli, *argv, **kw):
    return sorted(ok(occli, "server", "list", *argv, "-f", "value", "-c", "Name", **kw).split())


@pytest.fixture
def two(occli):
    for name in ("vm1", "vm2"):
        ok(occli, "server", "create", name, "--image", CIRROS, "--flavor", "m1.tiny",
           "--nic", "none", "--wait")  # fmt: skip


def test_set_unset_and_show_tags(occli, two):
    ok(occli, "server", "set", "--tag", "web", "--tag", "prod", "vm1")
    assert ok(occli, "server", "show", "vm1", "-f", "json")["tags"] == ["web", "prod"]
    ok(occli, "server", "set", "--tag", "web", "vm2")
    assert names(occli, "--tags", "web,prod") == ["vm1"]
    assert names(occli, "--tags-any", "prod,web") == ["vm1", "vm2"]
    assert names(occli, "--not-tags", "web,prod") == ["vm2"]
    assert names(occli, "--not-tags-any", "prod") == ["vm2"]
    ok(occli, "server", "unset", "--tag", "prod", "vm1")
    assert ok(occli, "server", "show", "vm1", "-f", "json")["tags"] == ["web"]
    code, _, err = occli("server", "unset", "--tag", "nope", "vm1")
    assert code == 1 and "has no tag 'nope'" in err and "404" in err
    ok(occli, "server", "unset", "--all-tags", "vm1")
    assert ok(occli, "server", "show", "vm1", "-f", "json")["tags"] == []


def test_tag_errors(occli, two):
    # usage errors, before any request
    for argv in (["set", "--tag", "a,b", "vm1"], ["unset", "vm1"],
                 ["unset", "--tag", "a", "--all-tags", "vm1"]):  # fmt: skip
        code, _, err = occli("server", *argv)
        assert code == 2, err
    code, _, err = occli("--os-compute-api-version", "2.25", "server", "set", "--tag", "a", "vm1")
    assert code == 1 and "requires compute API version 2.26 or later" in err
    ok(occli, "server", "stop", "--wait", "vm2")
    ok(occli, "server", "set", "--tag", "ok-when-shutoff", "vm2")
    for tag in range(49):
        ok(occli, "server", "set", "--tag", "t%d" % tag, "vm2")
    code, _, err = occli("server", "set", "--tag", "one-too-many", "vm2")
    assert code == 1 and "The number of tags exceeded the per-server limit 50" in err


def test_list_filters(occli, two):
    ok(occli, "server", "lock", "vm1")
    assert names(occli, "--locked") == ["vm1"]
    assert names(occli, "--unlocked") == ["vm2"]
    code, _, err = occli("--os-compute-api-version", "2.72", "server", "list", "--locked")
    assert code == 1 and "requires compute API version 2.73 or later" in err
    code, _, err = occli(
        "--os-compute-api-version", "2.65", "server", "list", "--changes-before", "2030-01-01"
    )
    assert code == 1 and "2.66 or later" in err
    assert names(occli, "--changes-before", "2000-01-01T00:00:00Z") == []
    assert names(occli, "--vm-state", "active", "--power-state", "running") == ["vm1", "vm2"]
    assert names(occli, "--key-name", "nope") == []
    assert names(occli, "--availability-zone", "nova") == ["vm1", "vm2"]
    assert names(occli, "--config-drive") == []
    code, _, err = occli("server", "list", "--power-state", "sleepy")
    assert code == 2 and "--power-state" in err
    # before 2.83 a member's --vm-state is ignored by nova, as here
    old = ok(occli, "--os-compute-api-version", "2.82", "server", "list", "--vm-state", "error",
             "-f", "value", "-c", "Name")  # fmt: skip
    assert sorted(old.split()) == ["vm1", "vm2"]
    reservation = ok(occli, "server", "show", "vm1", "-f", "json")
    ok(occli, "server", "delete", "--wait", "vm2")
    # --deleted is for admins: ignored for a member (nova), honoured for an admin
    assert names(occli, "--deleted") == ["vm1"]
    project = reservation["project_id"]
    assert names(occli, "--deleted", "--project", project, cloud="local-admin") == ["vm2"]
    assert names(occli, "--project", "demo", "--user", "demo", cloud="local-admin") == ["vm1"]
    code, _, err = occli("server", "list", "--all-projects")
    assert code == 1 and "403" in err


def test_config_drive_and_progress_filters(occli, two):
    ok(occli, "server", "create", "cd", "--image", CIRROS, "--flavor", "m1.tiny",
       "--nic", "none", "--config-drive", "true", "--wait")  # fmt: skip
    assert names(occli, "--config-drive") == ["cd"]
    # nova stores '' without one: the pattern ^$ finds those
    assert names(occli, "--no-config-drive") == ["vm1", "vm2"]
    progress = ok(occli, "server", "show", "vm1", "-f", "json")["progress"]
    assert names(occli, "--progress", str(progress)) == ["cd", "vm1", "vm2"]
    # the number itself, not a pattern inside another one
    assert names(occli, "--progress", str(progress)[:1] + "1") == []
    code, _, err = occli("server", "list", "--progress", "-1")
    assert code == 2 and "--progress" in err
