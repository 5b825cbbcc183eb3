"""Assisted volume snapshots: nova's side of a Cinder driver that snapshots
a file-backed volume (NFS, GlusterFS) through the hypervisor.

As nova's compute API (``volume_snapshot_create``/``_delete``,
nova/compute/api.py) the volume's block device mapping is looked up
first (``No volume Block Device Mapping with id <id>.``; a volume mapped
to more than one server is ``VolumeBDMIsMultiAttach``), then the server
needs a host and no task under way (``InstanceNotReady``,
``InstanceInvalidState``; the API answers 400 for each). The hypervisor's
qcow2 work is the libvirt driver's, cast and not awaited: nothing is
stored here, the answer is all.
"""

import sqlite3
from typing import Any

from occli.localcloud import errors
from occli.localcloud.compute import volume_attach


def _server_of(db: sqlite3.Connection, volume_id: str) -> dict[str, Any]:
    """The live server the volume is mapped to (nova's
    ``_get_bdm_by_volume_id``)."""
    rows = db.execute(
        "SELECT * FROM servers WHERE deleted = 0 AND instr(volumes, ?) > 0",
        ('"%s"' % volume_id,),
    ).fetchall()
    servers = [dict(r) for r in rows if volume_attach.find(dict(r), volume_id) is not None]
    if not servers:
        raise errors.BadRequest("No volume Block Device Mapping with id %s." % volume_id)
    if len(servers) > 1:
        raise errors.BadRequest(
            "Block Device Mapping %s is a multi-attach volume and is not valid for this"
            " operation." % volume_id
        )
    return servers[0]


def _check(server: dict[str, Any], method: str) -> None:
    """``check_instance_host`` and ``check_instance_state(vm_state=None)``."""
    if not server["host"]:
        raise errors.BadRequest("Instance %s is not ready" % server["id"])
    if server["task_state"] is not None:
        raise errors.BadRequest(
            "Instance %s in task_state %s. Cannot %s while the instance is in this state."
            % (server["id"], server["task_state"], method)
        )


def create(db: sqlite3.Connection, volume_id: str, create_info: dict) -> dict[str, Any]:
    """Nova's answer to a snapshot of attached ``volume_id``."""
    _check(_server_of(db, volume_id), "do_volume_snapshot_create")
    return {"id": create_info.get("id"), "volumeId": volume_id}


def delete(db: sqlite3.Connection, volume_id: str, delete_info: dict) -> None:
    """Check a snapshot delete of attached ``volume_id`` as nova does (an
    offline merge of an intermediate file needs an active server)."""
    server = _server_of(db, volume_id)
    _check(server, "do_volume_snapshot_delete")
    if delete_info.get("merge_target_file") is not None and server["vm_state"] != "active":
        raise errors.BadRequest(
            "Instance %s in vm_state %s. Cannot volume_snapshot_delete while the instance"
            " is in this state." % (server["id"], server["vm_state"])
        )
