"""``volume group …`` and ``volume group snapshot …`` against the local
Cinder (demo user, the admin's group type): a group, a volume added, a
group snapshot, a group made from it, the refusals' exit codes."""

import uuid

import pytest

from tests.functional.harness import as_json
from tests.functional.harness import ok

WAIT = ("--wait", "--wait-interval", "0.1")


@pytest.fixture
def occli(occli_env, run_occli):
    return run_occli


def unique(prefix):
    return "%s-%s" % (prefix, uuid.uuid4().hex[:8])


def test_group_tour(occli):
    gtype = unique("gtype")
    ok(occli("--os-cloud", "local-admin", "volume", "group", "type", "create", gtype))
    name = unique("grp")
    group = as_json(
        occli(
            "volume", "group", "create", "--volume-group-type", gtype, "--volume-type",
            "__DEFAULT__", "--name", name, "-f", "json",
        )
    )  # fmt: skip
    assert (group["Name"], group["Status"]) == (name, "available")
    volume = as_json(occli("volume", "create", unique("vol"), "--size", "1", *WAIT, "-f", "json"))
    ok(occli("volume", "group", "set", "--add-volume", volume["id"], name))
    shown = as_json(occli("volume", "group", "show", "--volumes", name, "-f", "json"))
    assert shown["Volumes"] == [volume["id"]]
    listed = as_json(occli("volume", "group", "list", "-f", "json"))
    assert {"ID": group["ID"], "Status": "available", "Name": name} in listed
    code, _out, err = occli("volume", "group", "set", "--enable-replication", name)
    assert code == 1 and "is not a replication group type." in err
    snap_name = unique("gsnap")
    snap = as_json(
        occli("volume", "group", "snapshot", "create", "--name", snap_name, name, "-f", "json")
    )
    assert (snap["Group"], snap["Status"]) == (group["ID"], "available")
    copy = as_json(
        occli("volume", "group", "create", "--group-snapshot", snap_name, "--name",
              unique("copy"), "-f", "json")
    )  # fmt: skip
    assert copy["Group Snapshot ID"] == snap["ID"]
    code, _out, err = occli("volume", "group", "delete", name)
    assert code == 1 and "Group has existing snapshots." in err
    ok(occli("volume", "group", "delete", "--force", copy["ID"]))
    ok(occli("volume", "group", "snapshot", "delete", snap_name))
    code, _out, err = occli("volume", "group", "delete", name)
    assert code == 1 and "The delete-volumes flag is required to delete it." in err
    ok(occli("volume", "group", "delete", "--force", name))
    assert occli("volume", "show", volume["id"])[0] == 1
    code, _out, err = occli("volume", "group", "set", "--enable-replication", group["ID"])
    assert code == 1 and "No volume group with a name or ID of" in err
