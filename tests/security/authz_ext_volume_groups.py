"""Authorization of the local Cinder's generic volume groups and group
snapshots (``/groups``, ``/group_snapshots``; Cinder's defaults in
``cinder/policies/groups.py``, ``group_actions.py``,
``group_snapshots.py``, ``group_snapshot_actions.py``): a project's readers
list and show its groups and group snapshots, its members create, update
and delete them; another project's group is 404; admins see every
project's. ``reset_status`` of a group snapshot is the admin's, after the
lookup (``admin_of``). ``{volume_group_id}`` is a group of A's holding one of A's
volumes, of the group type made in :func:`setup`; ``{group_snapshot_id}``
a snapshot of such a group. ``create-from-src`` names a fresh group of
A's: another project's is 404.
"""

from tests.security.authz_ext_volume import _headers


def _post(world, path, body):
    response = world.as_("a_member", "POST", "/volume/v3" + path, headers=_headers(None),
                         json_body=body)  # fmt: skip
    assert response.status == 202, response.body
    return response.json()


def _new_group(world):
    group = _post(
        world,
        "/groups",
        {
            "group": {
                "group_type": world.ids["volume_group_type_id"],
                "volume_types": ["__DEFAULT__"],
            }
        },
    )["group"]["id"]
    volume = {"size": 1, "group_id": group, "name": world.secret("authz-a-grouped")}
    volume_id = _post(world, "/volumes", {"volume": volume})["volume"]["id"]
    world.as_("a_member", "GET", "/volume/v3/volumes/" + volume_id, headers=_headers(None))
    return world.secret(group)


def _new_group_snapshot(world):
    body = {"group_snapshot": {"group_id": _new_group(world)}}
    return world.secret(_post(world, "/group_snapshots", body)["group_snapshot"]["id"])


FACTORIES = {"volume_group_id": _new_group, "group_snapshot_id": _new_group_snapshot}


def setup(world, ids):
    from tests.security.test_authz_matrix import _unique

    world.as_(
        "admin",
        "PUT",
        "/volume/v3/os-quota-sets/" + world.projects["A"],
        headers=_headers(None),
        json_body={"quota_set": {"groups": -1}},
    )
    response = world.as_(
        "admin",
        "POST",
        "/volume/v3/group_types",
        headers=_headers(None),
        json_body={"group_type": {"name": _unique("authz-group-type")}},
    )
    assert response.status == 202, response.body
    ids["volume_group_type_id"] = response.json()["group_type"]["id"]
    world.ids["volume_group_type_id"] = ids["volume_group_type_id"]
    ids["volume_group_id"] = _new_group(world)
    ids["group_snapshot_id"] = _new_group_snapshot(world)


def rules():
    from tests.security.test_authz_matrix import rule

    def r(access, ok=200, **kw):
        return rule(access, ok, headers=_headers, **kw)

    group = "/v3/groups/{volume_group_id}"
    snap = "/v3/group_snapshots/{group_snapshot_id}"
    fresh_group = ("volume_group_id",)
    return {
        ("volume", "GET", "/v3/groups"): r("any"),
        ("volume", "GET", "/v3/groups/detail"): r("any"),
        ("volume", "POST", "/v3/groups"): r(
            "create",
            202,
            body=lambda ids: {
                "group": {
                    "group_type": ids["volume_group_type_id"],
                    "volume_types": ["__DEFAULT__"],
                }
            },
        ),
        ("volume", "POST", "/v3/groups/action"): r(
            "write",
            202,
            fresh=fresh_group,
            body=lambda ids: {"create-from-src": {"source_group_id": ids["volume_group_id"]}},
        ),
        ("volume", "GET", group): r("read"),
        ("volume", "PUT", group): r(
            "write", 202, fresh=fresh_group, body=lambda ids: {"group": {"name": "authz"}}
        ),
        ("volume", "POST", group + "/action"): r(
            "write",
            202,
            fresh=fresh_group,
            body=lambda ids: {"delete": {"delete-volumes": True}},
        ),
        ("volume", "GET", "/v3/group_snapshots"): r("any"),
        ("volume", "GET", "/v3/group_snapshots/detail"): r("any"),
        ("volume", "POST", "/v3/group_snapshots"): r(
            "write",
            202,
            fresh=fresh_group,
            body=lambda ids: {"group_snapshot": {"group_id": ids["volume_group_id"]}},
        ),
        ("volume", "GET", snap): r("read"),
        ("volume", "DELETE", snap): r("write", 202, fresh=("group_snapshot_id",)),
        ("volume", "POST", snap + "/action"): r(
            "admin_of",
            202,
            fresh=("group_snapshot_id",),
            body=lambda ids: {"reset_status": {"status": "available"}},
        ),
    }
