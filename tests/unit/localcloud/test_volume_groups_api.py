"""The local Cinder's generic volume groups (3.13, 3.20, 3.25, 3.38, 3.58)
and group snapshots (3.14, 3.19, 3.29): Cinder 29's views, texts, states
and policies (cinder/api/v3/groups.py, group_snapshots.py,
cinder/group/api.py)."""

import pytest

from tests.unit.localcloud.volume_harness import MISSING
from tests.unit.localcloud.volume_harness import cinder_cloud
from tests.unit.localcloud.volume_harness import message

cinder = pytest.fixture(cinder_cloud, name="cinder")
DEFAULT = "__DEFAULT__"


def _group_type(cinder, name="gt", **specs):
    body = {"group_type": {"name": name, "group_specs": specs}}
    result = cinder.post("/group_types", body, user="admin")
    assert result.status == 202, result.body
    return result.json()["group_type"]["id"]


def _group(cinder, user="demo", expect=202, **group):
    group.setdefault("group_type", "gt")
    group.setdefault("volume_types", [DEFAULT])
    result = cinder.post("/groups", {"group": group}, user=user)
    assert result.status == expect, result.body
    return result.json()["group"]["id"] if expect == 202 else result


def _show(cinder, group_id, **kw):
    result = cinder.get("/groups/" + group_id, **kw)
    assert result.status == 200, result.body
    return result.json()["group"]


def _action(cinder, group_id, body, **kw):
    return cinder.post("/groups/%s/action" % group_id, body, **kw)


def _update(cinder, group_id, **changes):
    return cinder.put("/groups/" + group_id, {"group": changes})


@pytest.fixture
def gtype(cinder):
    return _group_type(cinder)


def test_create_show_list_update_delete(cinder, gtype):
    group_id = _group(cinder, name=" g1 ", description="first")
    shown = _show(cinder, group_id)
    assert shown["name"] == "g1" and shown["status"] == "available"
    assert shown["group_type"] == gtype and shown["replication_status"] == "disabled"
    assert shown["group_snapshot_id"] is None and shown["source_group_id"] is None
    assert "project_id" not in shown and "volumes" not in shown
    admin_view = _show(cinder, group_id, user="admin")
    assert admin_view["project_id"] == cinder.projects["demo"]
    assert "project_id" not in _show(cinder, group_id, user="admin", version="3.57")
    old = _show(cinder, group_id, version="3.13")
    assert "group_snapshot_id" not in old and "replication_status" not in old
    listed = cinder.get("/groups").json()["groups"]
    assert listed == [{"id": group_id, "name": "g1"}]
    assert cinder.get("/groups/detail").json()["groups"][0]["description"] == "first"
    assert cinder.get("/groups", user="alt").json()["groups"] == []
    assert cinder.get("/groups?name=other").json()["groups"] == []
    assert _update(cinder, group_id, name="renamed").status == 202
    assert _show(cinder, group_id)["name"] == "renamed"
    assert _action(cinder, group_id, {"delete": {}}).status == 202
    result = cinder.get("/groups/" + group_id)
    assert (result.status, message(result)) == (404, "Group %s could not be found." % group_id)


def test_groups_answer_from_3_13(cinder, gtype):
    assert cinder.get("/groups", version="3.12").status == 404
    assert cinder.get("/groups", version="3.13").status == 200
    assert cinder.get("/group_snapshots", version="3.13").status == 404


def test_create_refusals(cinder, gtype):
    result = _group(cinder, expect=404, group_type="nope")
    assert message(result) == "Group type with name nope could not be found."
    result = _group(cinder, expect=404, group_type=MISSING)
    assert message(result) == "Group type %s could not be found." % MISSING
    result = _group(cinder, expect=404, volume_types=["nope"])
    assert message(result) == "Volume type with name nope could not be found."
    result = _group(cinder, expect=400, availability_zone="elsewhere")
    assert message(result) == "Availability zone 'elsewhere' is invalid."
    assert _group(cinder, expect=400, volume_types=[]).status == 400
    assert cinder.post("/groups", {"group": {"group_type": "gt"}}).status == 400
    cinder.put("/os-quota-sets/" + cinder.projects["demo"], {"quota_set": {"groups": 0}},
               user="admin")  # fmt: skip
    result = _group(cinder, expect=413)
    assert message(result) == "Maximum number of groups allowed (0) exceeded"


def test_volumes_in_a_group(cinder, gtype):
    group_id = _group(cinder)
    volume = cinder.create(group_id=group_id, volume_type=DEFAULT)
    assert cinder.show(volume["id"])["group_id"] == group_id
    assert "group_id" not in cinder.show(volume["id"], version="3.12")
    listed = cinder.get("/volumes?group_id=" + group_id).json()["volumes"]
    assert [v["id"] for v in listed] == [volume["id"]]
    shown = cinder.get("/groups/%s?list_volume=true" % group_id).json()["group"]
    assert shown["volumes"] == [volume["id"]]
    assert "volumes" not in _show(cinder, group_id, version="3.24")
    result = cinder.delete("/volumes/" + volume["id"])
    assert result.status == 400 and "belong to a group" in message(result)
    result = _action(cinder, group_id, {"delete": {}})
    assert (result.status, message(result)) == (
        400,
        "Invalid Group: Group %s still contains volumes. The delete-volumes flag is required"
        " to delete it." % group_id,
    )
    assert _action(cinder, group_id, {"delete": {"delete-volumes": True}}).status == 202
    assert cinder.get("/volumes/" + volume["id"]).status == 404


def test_volume_create_refusals(cinder, gtype):
    result = cinder.create(expect=404, group_id=MISSING)
    assert message(result) == "Group %s could not be found." % MISSING
    other = cinder.post("/types", {"volume_type": {"name": "other"}}, user="admin")
    other_id = other.json()["volume_type"]["id"]
    group_id = _group(cinder)
    result = cinder.create(expect=400, group_id=group_id, volume_type="other")
    assert message(result) == (
        "Invalid input received: Invalid volume_type provided: %s (requested type must be"
        " supported by this group)." % other_id
    )
    assert cinder.create(expect=404, user="alt", group_id=group_id).status == 404


def test_add_and_remove_volumes(cinder, gtype):
    group_id = _group(cinder)
    first, second = cinder.create()["id"], cinder.create()["id"]
    assert _update(cinder, group_id, add_volumes="%s,%s," % (first, second)).status == 202
    assert cinder.show(first)["group_id"] == group_id
    assert _update(cinder, group_id, remove_volumes=second).status == 202
    assert cinder.show(second)["group_id"] is None
    result = _update(cinder, group_id, add_volumes=second, remove_volumes=second)
    assert message(result) == (
        "Invalid volume: UUIDs ['%s'] are in both add and remove volume list." % second
    )
    result = _update(cinder, group_id, remove_volumes=second)
    assert message(result) == (
        "Invalid volume: Cannot remove volume %s from group %s because it is not in the group."
        % (second, group_id)
    )
    result = _update(cinder, group_id, add_volumes=MISSING)
    assert message(result) == (
        "Invalid volume: Cannot add volume %s to group %s because volume cannot be found."
        % (MISSING, group_id)
    )
    other_group = _group(cinder)
    result = _update(cinder, other_group, add_volumes=first)
    assert message(result) == (
        "Invalid volume: Cannot add volume %s to group %s because it is already in group %s."
        % (first, other_group, group_id)
    )
    alt_volume = cinder.create(user="alt")["id"]
    result = _update(cinder, group_id, add_volumes=alt_volume)
    assert message(result) == (
        "Invalid volume: Cannot add volume %s to group %s as they belong to different"
        " projects." % (alt_volume, group_id)
    )
    result = _update(cinder, group_id, name=_show(cinder, group_id)["name"])
    assert (result.status, message(result)) == (
        400,
        "Invalid Group: Cannot update group %s because no valid name, description,"
        " add_volumes, or remove_volumes were provided." % group_id,
    )


def test_add_refuses_a_volume_of_another_type_or_state(cinder, gtype):
    cinder.post("/types", {"volume_type": {"name": "other"}}, user="admin")
    group_id = _group(cinder)
    typed = cinder.create(volume_type="other")
    result = _update(cinder, group_id, add_volumes=typed["id"])
    assert message(result) == (
        "Invalid volume: Cannot add volume %s to group %s because volume type %s is not"
        " supported by the group." % (typed["id"], group_id, typed["volume_type_id"])
    )
    broken = cinder.create()["id"]
    body = {"os-reset_status": {"status": "error"}}
    assert cinder.post("/volumes/%s/action" % broken, body, user="admin").status == 202
    result = _update(cinder, group_id, add_volumes=broken)
    assert message(result) == (
        "Invalid volume: Cannot add volume %s to group %s because volume is in an invalid"
        " state: error. Valid states are: ('available', 'in-use')." % (broken, group_id)
    )


def test_reset_status_and_delete_states(cinder, gtype):
    group_id = _group(cinder)
    body = {"reset_status": {"status": "error"}}
    result = _action(cinder, group_id, body)
    assert (result.status, message(result)) == (
        403,
        "Policy doesn't allow group:reset_status to be performed.",
    )
    assert _action(cinder, group_id, body, user="admin", version="3.19").status == 404
    assert _action(cinder, group_id, {"reset_status": {"status": "creating"}},
                   user="admin").status == 202  # fmt: skip
    assert _show(cinder, group_id)["status"] == "creating"
    result = _action(cinder, group_id, {"delete": {}})
    assert message(result) == (
        "Invalid Group: Group status must be available or error, but current status is: creating"
    )
    result = _update(cinder, group_id, add_volumes=cinder.create()["id"])
    assert message(result) == "Invalid Group: Group status must be available."
    result = _action(cinder, group_id, {"reset_status": {"status": "in-use"}}, user="admin")
    assert message(result).startswith(
        "Invalid Group Status: Group status: in-use is invalid, valid status are: ('error',"
    )
    result = _action(cinder, group_id, {"reset_status": {"status": " "}}, user="admin")
    assert message(result) == "Invalid Group Status: The 'status' can not be empty."
    result = _action(cinder, group_id, {"nothing": {}})
    assert result.status == 400 and message(result).startswith("There is no such action")


def test_replication_on_a_backend_without_it(cinder, gtype):
    group_id = _group(cinder)
    for action in ("enable_replication", "disable_replication", "failover_replication",
                   "list_replication_targets"):  # fmt: skip
        result = _action(cinder, group_id, {action: {}})
        assert (result.status, message(result)) == (
            400,
            "Invalid group type: Group %s is not a replication group type." % group_id,
        )
        assert _action(cinder, group_id, {action: {}}, version="3.37").status == 404
    _group_type(cinder, "rep", consistent_group_replication_enabled="<is> True")
    replicated = _group(cinder, group_type="rep")
    result = _action(cinder, replicated, {"enable_replication": {}})
    assert message(result) == (
        "Invalid volume type: Volume type %s does not have 'replication_enabled' spec key set"
        " to '<is> True'." % cinder.show(cinder.create()["id"])["volume_type_id"]
    )
    body = {"volume_type": {"name": "r", "extra_specs": {"replication_enabled": "<is> True"}}}
    cinder.post("/types", body, user="admin")
    ready = _group(cinder, group_type="rep", volume_types=["r"])
    result = _action(cinder, ready, {"list_replication_targets": {}})
    assert (result.status, result.json()) == (200, {"replication_targets": []})
    assert _action(cinder, ready, {"enable_replication": {}}).status == 202
    assert _show(cinder, ready)["replication_status"] == "error"


def test_group_type_in_use(cinder, gtype):
    group_id = _group(cinder)
    result = cinder.delete("/group_types/" + gtype, user="admin")
    assert (result.status, message(result)) == (
        400,
        "Target group type is still in use. Group Type %s deletion is not allowed with groups"
        " present with the type." % gtype,
    )
    _action(cinder, group_id, {"delete": {}})
    assert cinder.delete("/group_types/" + gtype, user="admin").status == 202


# -- group snapshots -------------------------------------------------------------------


def _snapshot(cinder, group_id, expect=202, user="demo", **snap):
    snap["group_id"] = group_id
    result = cinder.post("/group_snapshots", {"group_snapshot": snap}, user=user)
    assert result.status == expect, result.body
    return result.json()["group_snapshot"] if expect == 202 else result


def test_group_snapshots(cinder, gtype):
    group_id = _group(cinder)
    volume = cinder.create(group_id=group_id)
    made = _snapshot(cinder, group_id, name="gs")
    assert made["name"] == "gs" and made["group_type_id"] == gtype
    shown = cinder.get("/group_snapshots/" + made["id"]).json()["group_snapshot"]
    assert (shown["status"], shown["group_id"]) == ("available", group_id)
    assert "project_id" not in shown
    admin = cinder.get("/group_snapshots/" + made["id"], user="admin").json()
    assert admin["group_snapshot"]["project_id"] == cinder.projects["demo"]
    snaps = cinder.get("/snapshots/detail").json()["snapshots"]
    assert [(s["volume_id"], s["group_snapshot_id"]) for s in snaps] == [
        (volume["id"], made["id"])
    ]
    result = cinder.delete("/snapshots/" + snaps[0]["id"])
    assert result.status == 400 and "part of a group" in message(result)
    assert cinder.get("/group_snapshots").json()["group_snapshots"] == [
        {"id": made["id"], "name": "gs"}
    ]
    result = _action(cinder, group_id, {"delete": {"delete-volumes": True}})
    assert message(result) == "Invalid Group: Group has existing snapshots."
    assert cinder.delete("/group_snapshots/" + made["id"]).status == 202
    assert cinder.get("/snapshots").json()["snapshots"] == []
    result = cinder.get("/group_snapshots/" + made["id"])
    assert (result.status, message(result)) == (
        404,
        "GroupSnapshot %s could not be found." % made["id"],
    )
    result = _snapshot(cinder, MISSING, expect=404)
    assert message(result) == "Group %s could not be found." % MISSING


def test_group_snapshot_refusals(cinder, gtype):
    empty = _group(cinder)
    result = _snapshot(cinder, empty, expect=400)
    assert message(result) == (
        "Invalid Group: Source group cannot be empty or in 'creating' or 'updating' state. No"
        " group snapshot will be created."
    )
    cinder.create(group_id=empty)
    _action(cinder, empty, {"reset_status": {"status": "updating"}}, user="admin")
    assert _snapshot(cinder, empty, expect=400).status == 400
    assert _snapshot(cinder, empty, expect=404, user="alt").status == 404


def test_group_snapshot_paging_from_3_29(cinder, gtype):
    group_id = _group(cinder)
    cinder.create(group_id=group_id)
    ids = [_snapshot(cinder, group_id, name="s%d" % n)["id"] for n in range(3)]
    page = cinder.get("/group_snapshots?limit=2&sort=name:asc").json()
    assert [s["name"] for s in page["group_snapshots"]] == ["s0", "s1"]
    assert "marker=" + ids[1] in page["group_snapshot_links"][0]["href"]
    everything = cinder.get("/group_snapshots?limit=2", version="3.28").json()
    assert len(everything["group_snapshots"]) == 3
    named = cinder.get("/group_snapshots/detail?name=s2").json()["group_snapshots"]
    assert [s["id"] for s in named] == [ids[2]]
    result = cinder.get("/group_snapshots?volume_id=x")
    assert message(result) == "Invalid filters volume_id are found in query options."


def test_group_snapshot_reset_status_and_delete_state(cinder, gtype):
    group_id = _group(cinder)
    cinder.create(group_id=group_id)
    snap = _snapshot(cinder, group_id)["id"]
    path = "/group_snapshots/%s/action" % snap
    body = {"reset_status": {"status": "creating"}}
    result = cinder.post(path, body)
    assert message(result) == (
        "Policy doesn't allow group:reset_group_snapshot_status to be performed."
    )
    assert cinder.post(path, body, user="admin", version="3.18").status == 404
    assert cinder.post(path, body, user="admin").status == 202
    result = cinder.delete("/group_snapshots/" + snap)
    assert (result.status, message(result)) == (
        400,
        "Invalid GroupSnapshot: GroupSnapshot status must be available or error, and no Group"
        " can be currently using it as source for its creation.",
    )
    result = cinder.post(path, {"reset_status": {"status": "in-use"}}, user="admin")
    assert message(result) == (
        "Invalid GroupSnapshot Status: Group snapshot status: in-use is invalid, valid"
        " statuses are: ('error', 'available', 'creating', 'deleting', 'deleted', 'updating',"
        " 'error_deleting')."
    )


def test_create_from_a_group_snapshot_or_a_source_group(cinder, gtype):
    group_id = _group(cinder)
    volume = cinder.create(group_id=group_id, size=2)
    snap = _snapshot(cinder, group_id)["id"]
    body = {"create-from-src": {"name": "copy", "group_snapshot_id": snap}}
    result = cinder.post("/groups/action", body)
    assert result.status == 202, result.body
    copy = _show(cinder, result.json()["group"]["id"])
    assert (copy["name"], copy["group_snapshot_id"], copy["group_type"]) == ("copy", snap, gtype)
    made = cinder.get("/volumes/detail?group_id=" + copy["id"]).json()["volumes"]
    assert [(v["size"], v["snapshot_id"] is not None) for v in made] == [(2, True)]
    body = {"create-from-src": {"source_group_id": group_id}}
    clone = cinder.post("/groups/action", body).json()["group"]["id"]
    made = cinder.get("/volumes/detail?group_id=" + clone).json()["volumes"]
    assert [v["source_volid"] for v in made] == [volume["id"]]
    assert cinder.post("/groups/action", body, version="3.13").status == 404


def test_create_from_source_refusals(cinder, gtype):
    empty = _group(cinder)
    body = {"create-from-src": {"source_group_id": empty}}
    result = cinder.post("/groups/action", body)
    assert (result.status, message(result)) == (
        400,
        "Invalid Group: Source Group is empty. No group will be created.",
    )
    both = {"create-from-src": {"group_snapshot_id": MISSING, "source_group_id": empty}}
    assert cinder.post("/groups/action", both).status == 400
    result = cinder.post("/groups/action", {"create-from-src": {"group_snapshot_id": MISSING}})
    assert (result.status, message(result)) == (
        404,
        "GroupSnapshot %s could not be found." % MISSING,
    )
    result = cinder.post("/groups/action", {"create-from-src": {"source_group_id": MISSING}})
    assert (result.status, message(result)) == (404, "Group %s could not be found." % MISSING)
    assert [g["id"] for g in cinder.get("/groups").json()["groups"]] == [empty]
