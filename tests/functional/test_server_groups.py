"""Server groups end to end: the occli CLI (in-process) against a local
cloud with two compute hosts, including the failure paths."""

import json

import pytest

CIRROS = "cirros-0.6.2-x86_64-disk"
NO_VALID_HOST = "No valid host was found. There are not enough hosts available."
pytestmark = pytest.mark.local_cloud(compute_hosts=2)


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


def boot(occli, name, group):
    return ok(
        occli,
        "server", "create", name, "--image", CIRROS, "--flavor", "m1.tiny",
        "--nic", "none", "--server-group", group, "--wait", "-f", "json",
    )  # fmt: skip


def test_anti_affinity_third_member_is_no_valid_host(occli):
    group = ok(occli, "server", "group", "create", "web", "--policy", "anti-affinity",
               "-f", "json")  # fmt: skip
    assert group["policy"] == "anti-affinity" and group["members"] == []
    first, second = boot(occli, "web1", "web"), boot(occli, "web2", group["id"])
    assert first["status"] == second["status"] == "ACTIVE"
    code, out, err = occli(
        "server", "create", "web3", "--image", CIRROS, "--flavor", "m1.tiny",
        "--nic", "none", "--server-group", "web", "--wait",
    )  # fmt: skip
    assert code == 1 and NO_VALID_HOST in err
    third = ok(occli, "server", "show", "web3", "-f", "json")
    assert third["status"] == "ERROR" and third["fault"]["message"] == NO_VALID_HOST
    shown = ok(occli, "server", "group", "show", "web", "-f", "json")
    assert shown["members"] == [first["id"], second["id"], third["id"]]
    hosts = {
        ok(occli, "server", "show", s, "-f", "json", cloud="local-admin")["OS-EXT-SRV-ATTR:host"]
        for s in (first["id"], second["id"])
    }
    assert hosts == {"host1", "host2"}
    listed = ok(occli, "server", "group", "list", "--long", "-f", "json")
    assert [(g["Name"], g["Policy"], len(g["Members"])) for g in listed] == [
        ("web", "anti-affinity", 3)
    ]
    ok(occli, "server", "delete", "--wait", "web1", "web3")
    assert ok(occli, "server", "group", "show", "web", "-f", "json")["members"] == [second["id"]]
    ok(occli, "server", "group", "delete", "web")
    code, _, err = occli("server", "group", "show", "web")
    assert code == 1 and "No server group with a name or ID of 'web'" in err


def test_rules_soft_policies_and_their_errors(occli):
    group = ok(occli, "server", "group", "create", "g2", "--policy", "anti-affinity",
               "--rule", "max_server_per_host=2", "-f", "json")  # fmt: skip
    assert group["rules"] == {"max_server_per_host": 2}
    # usage errors (exit 2), before any request
    for argv, text in (
        (["--policy", "bogus"], "Unknown --policy 'bogus'"),
        (["--policy", "affinity", "--rule", "max_server_per_host=2"], "anti-affinity"),
        (["--rule", "nope"], "--rule expects KEY=VALUE"),
        (["--policy", "anti-affinity", "--rule", "max_server_per_host=0"], "positive integer"),
    ):
        code, _, err = occli("server", "group", "create", "bad", *argv)
        assert code == 2 and text in err, err
    # a microversion without the feature: the version error (exit 1)
    code, _, err = occli(
        "--os-compute-api-version", "2.14", "server", "group", "create", "s",
        "--policy", "soft-affinity",
    )  # fmt: skip
    assert code == 1 and "requires compute API version 2.15 or later" in err
    code, _, err = occli(
        "--os-compute-api-version", "2.63", "server", "group", "create", "s",
        "--policy", "anti-affinity", "--rule", "max_server_per_host=2",
    )  # fmt: skip
    assert code == 1 and "requires compute API version 2.64 or later" in err
    old = ok(occli, "--os-compute-api-version", "2.15", "server", "group", "create", "soft",
             "--policy", "soft-anti-affinity", "-f", "json")  # fmt: skip
    assert old["policy"] == "soft-anti-affinity" and "project_id" in old
    names = ok(occli, "server", "group", "list", "-f", "value", "-c", "Name")
    assert names.split() == ["g2", "soft"]
    assert ok(occli, "server", "group", "list", "--limit", "1", "--offset", "1", "-f",
              "value", "-c", "Name").split() == ["soft"]  # fmt: skip
    code, _, err = occli("server", "group", "list", "--limit", "-1")
    assert code == 2
    ok(occli, "server", "group", "delete", "g2", "soft")
    code, _, err = occli("server", "group", "delete", "g2")
    assert code == 1 and "Failed to delete server group g2" in err


def test_all_projects_is_for_admins_and_groups_are_private(occli):
    ok(occli, "server", "group", "create", "mine", "--policy", "affinity")
    ok(occli, "server", "group", "create", "theirs", "--policy", "affinity", cloud="local-alt")
    # a member asking for every project gets its own (nova's behaviour)
    assert ok(occli, "server", "group", "list", "--all-projects", "-f", "value", "-c",
              "Name").split() == ["mine"]  # fmt: skip
    every = ok(occli, "server", "group", "list", "--all-projects", "-f", "value", "-c", "Name",
               cloud="local-admin")  # fmt: skip
    assert sorted(every.split()) == ["mine", "theirs"]
    theirs = ok(occli, "server", "group", "show", "theirs", "-f", "json", cloud="local-alt")
    code, _, err = occli("server", "group", "show", theirs["id"])
    assert code == 1 and "No server group with a name or ID of" in err and "404" in err
    code, _, err = occli("server", "group", "delete", theirs["id"])
    assert code == 1


def test_group_quota(occli, local_cloud):
    demo = ok(occli, "server", "group", "create", "q1", "-f", "json")["project_id"]
    ok(occli, "quota", "set", "--server-groups", "1", demo, cloud="local-admin")
    code, _, err = occli("server", "group", "create", "q2")
    assert code == 1 and "Quota exceeded, too many server groups." in err and "403" in err
