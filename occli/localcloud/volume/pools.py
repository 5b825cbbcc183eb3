"""The local backend's one pool and its capabilities, as Cinder's LVM
driver reports them to the scheduler (``cinder/volume/drivers/lvm.py``
``_update_volume_stats``) for ``scheduler-stats/get_pools`` and
``/capabilities/{host}`` (``cinder/api/views/capabilities.py``): sizes
counted from the volumes table, against a fixed capacity."""

import json
import sqlite3
from typing import Any

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud.volume import services
from occli.localcloud.volume import types

BACKEND_NAME = "lvm"
POOL = services.BACKEND + "#" + BACKEND_NAME
# the volume group's size the driver would read, in GB
TOTAL_CAPACITY_GB = 1000.0
DRIVER_VERSION = "3.0.0"


def _allocated(db: sqlite3.Connection) -> tuple[int, int]:
    row = db.execute("SELECT COUNT(*) AS n, COALESCE(SUM(size), 0) AS gb FROM volumes").fetchone()
    return row["n"], row["gb"]


def capabilities(db: sqlite3.Connection) -> dict[str, Any]:
    """The pool's capabilities: the LVM driver's pool stats, the manager's
    ``allocated_capacity_gb`` and the backend's name, vendor, version,
    protocol and ``timestamp`` the scheduler's host manager adds
    (``_append_backend_info``; the backend's own ``sparse_copy_volume``
    is not a pool's)."""
    count, allocated = _allocated(db)
    state = "up" if not services.get(db, services.BACKEND, services.VOLUME)["frozen"] else "down"
    return {
        "pool_name": BACKEND_NAME,
        "total_capacity_gb": TOTAL_CAPACITY_GB,
        "free_capacity_gb": TOTAL_CAPACITY_GB - allocated,
        "reserved_percentage": 0,
        "location_info": "LVMVolumeDriver:%s:stack-volumes-lvmdriver-1:thin:0" % services.HOST,
        "QoS_support": False,
        "provisioned_capacity_gb": float(allocated),
        "allocated_capacity_gb": allocated,
        "max_over_subscription_ratio": "20.0",
        "thin_provisioning_support": True,
        "thick_provisioning_support": False,
        "total_volumes": count,
        "filter_function": None,
        "goodness_function": None,
        "multiattach": True,
        "backend_state": state,
        "volume_backend_name": BACKEND_NAME,
        "vendor_name": "Open Source",
        "driver_version": DRIVER_VERSION,
        "storage_protocol": "iSCSI",
        "timestamp": common.iso_naive_micro(common.utcnow()),
    }


def pools(
    db: sqlite3.Connection, caller: Any, name: str | None = None, volume_type: str | None = None
) -> list[dict[str, Any]]:
    """The pools matching Cinder's ``name`` and ``volume_type`` filters
    (a type whose ``volume_backend_name`` names another backend has none;
    an unknown type is Cinder's 404)."""
    if name is not None and name != POOL:
        return []
    if volume_type is not None:
        specs = json.loads(types.by_name_or_id(db, caller, volume_type)["extra_specs"])
        if specs.get("volume_backend_name", BACKEND_NAME) != BACKEND_NAME:
            return []
    return [{"name": POOL, "capabilities": capabilities(db)}]


def backend_capabilities(db: sqlite3.Connection, host: str) -> dict[str, Any]:
    """Cinder's ``/capabilities/{host}`` summary of the volume backend on
    ``host``; 404 ``Can't find service: <host>``."""
    if host not in (services.BACKEND, services.HOST):
        raise errors.NotFound("Can't find service: %s" % host)
    caps = capabilities(db)
    return {
        "namespace": "OS::Storage::Capabilities::%s" % services.BACKEND,
        "vendor_name": caps["vendor_name"],
        "volume_backend_name": caps["volume_backend_name"],
        "pool_name": None,
        "driver_version": caps["driver_version"],
        "storage_protocol": caps["storage_protocol"],
        "display_name": None,
        "description": None,
        "visibility": None,
        "replication_targets": [],
        "properties": {
            "thin_provisioning": {
                "title": "Thin Provisioning",
                "description": "Sets thin provisioning.",
                "type": "boolean",
            },
            "compression": {
                "title": "Compression",
                "description": "Enables compression.",
                "type": "boolean",
            },
            "qos": {
                "title": "QoS",
                "description": "Enables QoS.",
                "type": "boolean",
            },
            "replication_enabled": {
                "title": "Replication",
                "description": "Enables replication.",
                "type": "boolean",
            },
        },
    }
