"""Rescue and unrescue, the admin's state reset, password changes and the
fake driver's diagnostics, as nova's compute API rules (``check_instance_lock``
before ``check_instance_state``)."""

from occli.localcloud import errors
from occli.localcloud.compute import actions
from occli.localcloud.compute import build
from occli.localcloud.compute import server_rows
from occli.localcloud.compute import states

RESCUE_STATES = ("active", "stopped", "error")
# image properties that let a volume-backed server be rescued (2.87)
BFV_RESCUE_PROPERTIES = ("hw_rescue_bus", "hw_rescue_device")


def rescue(db, caller, server, images, image_ref=None, allow_bfv=False):
    """Boot ``server`` from a rescue image (``image_ref``, else its own);
    a volume-backed server only from 2.87 with an image carrying
    :data:`BFV_RESCUE_PROPERTIES`."""
    server_rows.check_lock(caller, server)
    server_rows.check_state(server, "rescue", RESCUE_STATES)
    image = None
    if image_ref:
        image = build.find_image(db, caller, images, image_ref)
        if image is None:
            raise errors.BadRequest("Requested rescue image '%s' is not supported" % image_ref)
    elif server["image_ref"]:
        image = build.find_image(db, caller, images, server["image_ref"])
    if not server["image_ref"]:
        properties = (image or {}).get("properties") or {}
        if not (allow_bfv and all(p in properties for p in BFV_RESCUE_PROPERTIES)):
            raise errors.BadRequest(
                "Instance %s cannot be rescued: Cannot rescue a volume-backed instance"
                % server["id"]
            )
    end = {"vm_state": "rescued", "power_state": states.RUNNING}
    actions._start(db, server, ["rescuing"], end)


def unrescue(db, caller, server):
    server_rows.check_lock(caller, server)
    server_rows.check_state(server, "unrescue", ("rescued",))
    end = {"vm_state": "active", "power_state": states.RUNNING}
    actions._start(db, server, ["unrescuing"], end)


def reset_state(db, caller, server, state):
    """os-resetState (admin): set ``vm_state``, clear ``task_state`` and
    any operation under way; nothing else changes."""
    caller.require_admin("os_compute_api:os-admin-actions:reset_state")
    server.update(vm_state=state, task_state=None, pending=None, task_started_at=None)
    actions._save(db, server)


def change_password(db, caller, server):
    """changePassword: the guest's password is never stored here."""
    server_rows.check_lock(caller, server)
    server_rows.check_state(server, "changePassword", ("active",))
    actions._start(db, server, ["updating_password"], {})


def _diagnosable(server):
    """Nova's ``check_instance_host``: 409 without a host."""
    actions.check_host(server)


def diagnostics(caller, server, standard):
    """The fake virt driver's diagnostics (admin): its fixed figures, in
    the 2.48 standard form when ``standard``."""
    caller.require_admin("os_compute_api:os-server-diagnostics")
    _diagnosable(server)
    if not standard:
        return dict(LEGACY_DIAGNOSTICS)
    return {
        "state": "running",
        "driver": "libvirt",
        "hypervisor": "kvm",
        "hypervisor_os": "ubuntu",
        "uptime": 46664,
        "config_drive": True,
        "num_cpus": 1,
        "num_nics": 1,
        "num_disks": 1,
        "disk_details": [
            {
                "read_bytes": 262144,
                "read_requests": 112,
                "write_bytes": 5778432,
                "write_requests": 488,
                "errors_count": 1,
            }
        ],
        "cpu_details": [{"id": 0, "time": 17300000000, "utilisation": 15}],
        "nic_details": [
            {
                "mac_address": "01:23:45:67:89:ab",
                "rx_octets": 2070139,
                "rx_errors": 100,
                "rx_drop": 200,
                "rx_packets": 26701,
                "rx_rate": 300,
                "tx_octets": 140208,
                "tx_errors": 400,
                "tx_drop": 500,
                "tx_packets": 662,
                "tx_rate": 600,
            }
        ],
        "memory_details": {"maximum": 524288, "used": 0},
    }


# nova's fake driver ``get_diagnostics`` (before 2.48)
LEGACY_DIAGNOSTICS = {
    "cpu0_time": 17300000000,
    "memory": 524288,
    "vda_errors": -1,
    "vda_read": 262144,
    "vda_read_req": 112,
    "vda_write": 5778432,
    "vda_write_req": 488,
    "vnet1_rx": 2070139,
    "vnet1_rx_drop": 0,
    "vnet1_rx_errors": 0,
    "vnet1_rx_packets": 26701,
    "vnet1_tx": 140208,
    "vnet1_tx_drop": 0,
    "vnet1_tx_errors": 0,
    "vnet1_tx_packets": 662,
}


def topology(server):
    """A server without a NUMA topology (no such flavors here)."""
    return {"nodes": [], "pagesize_kb": None}
