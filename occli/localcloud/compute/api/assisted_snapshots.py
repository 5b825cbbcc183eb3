"""``/os-assisted-volume-snapshots`` (nova's
``AssistedVolumeSnapshotsController``, schemas
nova/api/openstack/compute/schemas/assisted_volume_snapshots.py): POST
creates, ``DELETE …/{id}?delete_info=<json>`` deletes; policy
``service_or_admin``. Rules in
:mod:`occli.localcloud.compute.assisted_snapshots`."""

import json

from occli.localcloud.app import Response
from occli.localcloud.compute import assisted_snapshots
from occli.localcloud.compute.api import common
from occli.localcloud.compute.api import schemas

POLICY = "os_compute_api:os-assisted-volume-snapshots:%s"
# from 2.75 the delete query rejects unknown parameters
STRICT_QUERY_VERSION = "2.75"
_CREATE = {
    "type": "object",
    "properties": {
        "snapshot": {
            "type": "object",
            "properties": {
                "volume_id": {"type": "string", "minLength": 1},
                "create_info": {
                    "type": "object",
                    "properties": {
                        "snapshot_id": {"type": "string", "minLength": 1},
                        "type": {"type": "string", "enum": ["qcow2"]},
                        "new_file": {"type": "string", "minLength": 1},
                        "id": {"type": "string", "minLength": 1},
                    },
                    "required": ["snapshot_id", "type", "new_file"],
                    "additionalProperties": False,
                },
            },
            "required": ["volume_id", "create_info"],
            "additionalProperties": False,
        }
    },
    "required": ["snapshot"],
    "additionalProperties": False,
}


def register(service):
    # service_or_admin: the handlers check it (role=None: no project role);
    # nothing is stored (the libvirt driver's work is cast)
    service.api("POST", "/os-assisted-volume-snapshots", create_snapshot, role=None, mode="read")
    service.api(
        "DELETE",
        "/os-assisted-volume-snapshots/{snapshot_id}",
        delete_snapshot,
        role=None,
        mode="read",
    )


def create_snapshot(req):
    # nova validates the body before its policy check
    snapshot = schemas.validate(_CREATE, req.json())["snapshot"]
    common.require_admin(req, POLICY % "create")
    created = assisted_snapshots.create(req.db, snapshot["volume_id"], snapshot["create_info"])
    return Response(200, {"snapshot": created})


def _delete_info(req):
    """``delete_info`` parsed as nova does: its ``KeyError``/``ValueError``
    text as the 400 (a JSON that is no object: the missing key's)."""
    values = req.query.get("delete_info")
    if not values:
        raise common.bad_request("'delete_info'")
    try:
        info = json.loads(values[-1])
    except ValueError as exc:
        raise common.bad_request(str(exc)) from None
    if not isinstance(info, dict) or "volume_id" not in info:
        raise common.bad_request("'volume_id'")
    return info


def delete_snapshot(req):
    if req.microversion >= STRICT_QUERY_VERSION:
        common.reject_extra_params(req, ("delete_info",))
    common.require_admin(req, POLICY % "delete")
    info = _delete_info(req)
    assisted_snapshots.delete(req.db, str(info["volume_id"]), info)
    return Response(204, None)
