"""``volume group create/delete/list/show/set/failover`` and ``volume group
snapshot create/delete/list/show`` in-process against requests-mock: OSC's
options and columns (openstackclient/volume/v3/volume_group.py,
volume_group_snapshot.py) and the Cinder requests they make."""

import json

from .fakes import VOLUME

GTYPE_ID = "5d2b7a58-3c1e-4f55-9d0a-8a1b2c3d4e5f"
VTYPE_ID = "6e3c8b69-4d2f-4066-8e1b-9b2c3d4e5f60"
GROUP_ID = "7f4d9c7a-5e30-4177-9f2c-ac3d4e5f6071"
SNAP_ID = "80a1b2c3-6f41-4288-a03d-bd4e5f607182"
VOLUME_ID = "91b2c3d4-7052-4399-b14e-ce5f60718293"
GROUP = {
    "id": GROUP_ID,
    "status": "available",
    "name": "g1",
    "description": None,
    "group_type": GTYPE_ID,
    "volume_types": [VTYPE_ID],
    "availability_zone": "nova",
    "created_at": "2026-12-02T04:00:00.000000",
    "group_snapshot_id": None,
    "source_group_id": None,
    "replication_status": "disabled",
}
SNAPSHOT = {
    "id": SNAP_ID,
    "group_id": GROUP_ID,
    "group_type_id": GTYPE_ID,
    "status": "available",
    "created_at": "2026-12-02T04:00:00.000000",
    "name": "gs1",
    "description": None,
}
SHOWN = [
    "ID", "Status", "Name", "Description", "Group Type", "Volume Types", "Availability Zone",
    "Created At", "Volumes", "Group Snapshot ID", "Source Group ID",
]  # fmt: skip


def _group_routes(m, group=None):
    m.get(VOLUME + "/groups/" + GROUP_ID, json={"group": group or GROUP})
    m.post(VOLUME + "/groups/%s/action" % GROUP_ID, status_code=202)


def _writes(m, methods=("POST",)):
    """The Cinder requests of ``methods`` (not the token's)."""
    return [r for r in m.request_history if r.method in methods and "/volume/" in r.url]


def _version(request):
    return request.headers["OpenStack-API-Version"]


def test_create_from_types_by_name(cli, mock_cloud):
    m = mock_cloud.mock
    m.get(VOLUME + "/group_types", json={"group_types": [{"id": GTYPE_ID, "name": "gold"}]})
    m.get(VOLUME + "/types/" + VTYPE_ID, json={"volume_type": {"id": VTYPE_ID, "name": "t"}})
    m.post(VOLUME + "/groups", status_code=202, json={"group": {"id": GROUP_ID, "name": "g1"}})
    _group_routes(m)
    code, out, err = cli(
        "volume", "group", "create", "--volume-group-type", "gold", "--volume-type", VTYPE_ID,
        "--name", "g1", "-f", "json",
    )  # fmt: skip
    assert code == 0, err
    shown = json.loads(out)
    assert list(shown) == SHOWN and shown["Group Type"] == GTYPE_ID
    (create,) = _writes(m)
    assert create.json() == {
        "group": {
            "group_type": GTYPE_ID,
            "volume_types": [VTYPE_ID],
            "name": "g1",
            "description": None,
            "availability_zone": None,
        }
    }
    assert _version(create) == "volume 3.38"


def test_create_from_a_group_snapshot(cli, mock_cloud):
    m = mock_cloud.mock
    m.get(VOLUME + "/group_snapshots/" + SNAP_ID, json={"group_snapshot": SNAPSHOT})
    m.post(VOLUME + "/groups/action", status_code=202, json={"group": {"id": GROUP_ID}})
    _group_routes(m, dict(GROUP, group_snapshot_id=SNAP_ID))
    code, out, err = cli("volume", "group", "create", "--group-snapshot", SNAP_ID, "-f", "json")
    assert code == 0, err
    assert json.loads(out)["Group Snapshot ID"] == SNAP_ID
    (create,) = _writes(m)
    assert create.json() == {
        "create-from-src": {"name": None, "description": None, "group_snapshot_id": SNAP_ID}
    }


def test_create_refusals(cli, mock_cloud):
    code, _out, err = cli("volume", "group", "create", "--volume-group-type", "gold")
    assert code != 0
    assert "--volume-types is a required argument when creating a group from group type." in err
    code, _out, err = cli("volume", "group", "create", "--name", "g1")
    assert code != 0 and "Either --source-group <source_group>" in err
    code, _out, err = cli(
        "volume", "group", "create", "--source-group", "a", "--group-snapshot", "b"
    )
    assert code != 0 and "mutually exclusive" in err
    assert _writes(mock_cloud.mock, ("GET", "POST")) == []


def test_delete_force_list_and_failover(cli, mock_cloud):
    m = mock_cloud.mock
    _group_routes(m)
    m.get(VOLUME + "/groups/detail", json={"groups": [GROUP]})
    code, _out, err = cli("volume", "group", "delete", "--force", GROUP_ID)
    assert code == 0, err
    assert m.last_request.json() == {"delete": {"delete-volumes": True}}
    code, out, err = cli("volume", "group", "list", "-f", "json")
    assert code == 0, err
    assert json.loads(out) == [{"ID": GROUP_ID, "Status": "available", "Name": "g1"}]
    code, _out, err = cli(
        "volume", "group", "failover", "--allow-attached-volume", "--secondary-backend-id",
        "site2", GROUP_ID,
    )  # fmt: skip
    assert code == 0, err
    assert m.last_request.json() == {
        "failover_replication": {"allow_attached_volume": True, "secondary_backend_id": "site2"}
    }


def test_show_volumes_and_replication_targets(cli, mock_cloud):
    m = mock_cloud.mock
    m.get(VOLUME + "/groups/" + GROUP_ID, json={"group": dict(GROUP, volumes=[VOLUME_ID])})
    m.post(VOLUME + "/groups/%s/action" % GROUP_ID, json={"replication_targets": []})
    code, out, err = cli(
        "volume", "group", "show", "--volumes", "--replication-targets", GROUP_ID, "-f", "json"
    )
    assert code == 0, err
    shown = json.loads(out)
    assert shown["Volumes"] == [VOLUME_ID] and shown["Replication Targets"] == []
    get = next(r for r in reversed(m.request_history) if r.method == "GET")
    assert get.qs == {"list_volume": ["true"]}
    assert m.last_request.json() == {"list_replication_targets": {}}


def test_set_volumes_name_and_replication(cli, mock_cloud):
    m = mock_cloud.mock
    _group_routes(m)
    m.put(VOLUME + "/groups/" + GROUP_ID, status_code=202)
    m.get(VOLUME + "/volumes/" + VOLUME_ID, json={"volume": {"id": VOLUME_ID, "name": "v"}})
    code, _out, err = cli(
        "volume", "group", "set", "--name", "g2", "--add-volume", VOLUME_ID,
        "--enable-replication", GROUP_ID,
    )  # fmt: skip
    assert code == 0, err
    writes = _writes(m, ("PUT", "POST"))
    assert [w.json() for w in writes] == [
        {"enable_replication": {}},
        {"group": {"name": "g2", "add_volumes": VOLUME_ID}},
    ]
    code, _out, err = cli(
        "volume", "group", "set", "--enable-replication", "--disable-replication", GROUP_ID
    )
    assert code != 0 and "not allowed with argument" in err


def test_group_snapshot_commands(cli, mock_cloud):
    m = mock_cloud.mock
    m.get(VOLUME + "/groups/" + GROUP_ID, json={"group": GROUP})
    m.post(VOLUME + "/group_snapshots", status_code=202, json={"group_snapshot": SNAPSHOT})
    m.get(VOLUME + "/group_snapshots/" + SNAP_ID, json={"group_snapshot": SNAPSHOT})
    m.get(VOLUME + "/group_snapshots/detail", json={"group_snapshots": [SNAPSHOT]})
    m.delete(VOLUME + "/group_snapshots/" + SNAP_ID, status_code=202)
    code, out, err = cli(
        "volume", "group", "snapshot", "create", "--name", "gs1", GROUP_ID, "-f", "json"
    )
    assert code == 0, err
    assert json.loads(out) == {
        "ID": SNAP_ID, "Status": "available", "Name": "gs1", "Description": None,
        "Group": GROUP_ID, "Group Type": GTYPE_ID,
    }  # fmt: skip
    (create,) = _writes(m)
    assert create.json() == {
        "group_snapshot": {"group_id": GROUP_ID, "name": "gs1", "description": None}
    }
    assert _version(create) == "volume 3.29"
    code, out, err = cli("volume", "group", "snapshot", "list", "--all-projects", "-f", "json")
    assert code == 0, err
    assert json.loads(out) == [{"ID": SNAP_ID, "Status": "available", "Name": "gs1"}]
    assert m.last_request.qs["all_tenants"] == ["1"]
    code, out, err = cli("volume", "group", "snapshot", "show", SNAP_ID, "-f", "json")
    assert code == 0 and json.loads(out)["Group"] == GROUP_ID, err
    code, _out, err = cli("volume", "group", "snapshot", "delete", SNAP_ID)
    assert code == 0, err
    assert m.last_request.method == "DELETE"
