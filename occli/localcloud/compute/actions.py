"""Server actions: power, pause/suspend, lock, rebuild, resize, crash
dumps and the console log, as nova's compute API rules (snapshots:
:mod:`.snapshots`).

State checks follow nova's ``check_instance_state`` (allowed vm_states,
task_state None unless stated, launched at least once) and
``check_instance_lock``, both in :mod:`.server_rows`; operations start a
pending plan (see :mod:`.states`) that completes lazily after
``config.build_time``.
"""

import json

from occli.localcloud import errors
from occli.localcloud.compute import build
from occli.localcloud.compute import caller as callers
from occli.localcloud.compute import flavors
from occli.localcloud.compute import keypairs
from occli.localcloud.compute import quotas
from occli.localcloud.compute import server_rows
from occli.localcloud.compute import states
from occli.localcloud.compute import values

# nova task_states.ALLOW_REBOOT: reboot_pending_hard / reboot_started_hard
# are *not* in it (a hard reboot already under way past its first step
# cannot be hard-rebooted again)
ALLOW_REBOOT_TASKS = (
    None,
    "rebooting",
    "reboot_pending",
    "reboot_started",
    "rebooting_hard",
    "resuming",
    "unpausing",
    "pausing",
    "suspending",
)
HARD_REBOOT_STATES = ("active", "stopped", "paused", "suspended", "error")

# action: (nova's name for it, allowed vm_states, task states walked,
# vm_state and power_state at the end, needs a host). Nova: start and stop
# carry @check_instance_host (before the state check), the others do not.
POWER_ACTIONS = {
    "os-start": ("start", ("stopped",), ["powering-on"], "active", states.RUNNING, True),
    "os-stop": ("stop", ("active", "error"), ["powering-off"], "stopped", states.SHUTDOWN, True),
    "pause": ("pause", ("active",), ["pausing"], "paused", states.PAUSED, False),
    "unpause": ("unpause", ("paused",), ["unpausing"], "active", states.RUNNING, False),
    # libvirt suspends by a managed save: the domain is shut off, which
    # nova's libvirt guest.py maps to power state SHUTDOWN (4), not SUSPENDED
    "suspend": ("suspend", ("active",), ["suspending"], "suspended", states.SHUTDOWN, False),
    "resume": ("resume", ("suspended",), ["resuming"], "active", states.RUNNING, False),
}
# rebuild: the key is left alone unless a key_name (or None) is given
UNSET = object()


def check_host(server):
    """Nova's ``check_instance_host``: 409 for a server without a host (a
    build the scheduler could not place)."""
    if not server["host"]:
        raise errors.Conflict("Instance %s is not ready" % server["id"])


def _powered(server):
    """``(vm_state, power_state)`` a server returns to after an operation."""
    if server["vm_state"] == "stopped" or (
        server["vm_state"] == "resized" and server["power_state"] == states.SHUTDOWN
    ):
        return "stopped", states.SHUTDOWN
    return "active", states.RUNNING


def _start(db, server, tasks, end, progress=False, failure=None):
    states.start(server, tasks, end, progress=progress, failure=failure)
    _save(db, server)


def _save(db, server):
    server_rows.touch(server)
    server_rows.save(db, server)


def power(db, caller, server, action):
    """One of :data:`POWER_ACTIONS` (start, stop, pause, …)."""
    name, allowed, tasks, vm_state, power_state, needs_host = POWER_ACTIONS[action]
    server_rows.check_lock(caller, server)
    if needs_host:
        check_host(server)
    server_rows.check_state(server, name, allowed)
    _start(db, server, tasks, {"vm_state": vm_state, "power_state": power_state})


def reboot(db, caller, server, hard):
    server_rows.check_lock(caller, server)
    server_rows.check_state(server, "reboot", HARD_REBOOT_STATES, ALLOW_REBOOT_TASKS)
    if not hard:
        server_rows.check_state(server, "reboot", ("active",))
        tasks = ["rebooting", "reboot_pending", "reboot_started"]
    else:
        tasks = ["rebooting_hard", "reboot_pending_hard", "reboot_started_hard"]
    _start(db, server, tasks, {"vm_state": "active", "power_state": states.RUNNING})


def lock(db, caller, server, reason=None):
    """Lock as the owner (the server's project) or as an admin."""
    owner = server["project_id"] == caller.project_id
    server["locked_by"] = "owner" if owner else "admin"
    server["locked_reason"] = reason
    _save(db, server)


def unlock(db, caller, server):
    if server["locked_by"] == "admin" and not caller.is_admin:
        raise callers.policy_forbidden("os_compute_api:os-lock-server:unlock:unlock_override")
    server["locked_by"] = None
    server["locked_reason"] = None
    _save(db, server)


def rebuild(
    db, caller, server, images, image_ref, columns, personality=(), metadata=None, key_name=UNSET
):
    """Rebuild from ``image_ref`` (a volume-backed server keeps its disk),
    setting ``columns`` (name, description, access IPs, user data,
    hostname, disk config, trusted certs), ``metadata`` if given and the
    keypair if ``key_name`` is given (None removes it)."""
    server_rows.check_lock(caller, server)
    server_rows.check_state(server, "rebuild", ("active", "stopped", "error"))
    # nova's _action_rebuild answers its ImageNotFound so
    image = build.resolve_image(db, caller, images, image_ref, "Cannot find image for rebuild")
    # nova checks instance.flavor: the flavor may be deleted since
    flavor = flavors.from_snapshot(json.loads(server["flavor"]))
    if server["image_ref"]:
        build.check_image_fits(image, flavor)
        server["image_ref"] = image_ref
    quotas.check_personality(personality, db, caller.project_id)
    if metadata is not None:
        quotas.check_metadata(metadata, db, caller.project_id)
        server["metadata"] = json.dumps(metadata)
    if key_name is not UNSET:
        _set_key(db, caller, server, key_name)
    server.update(columns)
    if "access_ipv6" in columns:
        server["access_ipv6"] = values.ipv6(columns["access_ipv6"])
    vm_state, power_state = _powered(server)
    _start(
        db,
        server,
        ["rebuilding", "rebuild_block_device_mapping", "rebuild_spawning"],
        {"vm_state": vm_state, "power_state": power_state, "launched_at": states.LAUNCH_NOW},
        progress=True,
    )


def _set_key(db, caller, server, key_name):
    if key_name is None:
        server["key_name"] = server["key_data"] = None
        return
    key = keypairs.get_keypair(db, caller.user_id, key_name)
    if key is None:
        raise errors.BadRequest("Invalid key_name provided.")
    server["key_name"], server["key_data"] = key_name, key["public_key"]


def resize(db, caller, server, flavor_ref, auto_disk_config=None, config=None):
    server_rows.check_lock(caller, server)
    server_rows.check_state(server, "resize", ("active", "stopped"))
    new = flavors.resolve(db, flavor_ref, caller)
    current = json.loads(server["flavor"])
    if new["id"] == current["id"]:
        raise errors.BadRequest("When resizing, instances must change flavor!")
    if server["image_ref"] and new["root_gb"] < current["disk"]:
        raise errors.BadRequest("Resize error: Unable to resize disk down.")
    quotas.check_resize(
        db, server["project_id"], current, flavors.snapshot(new), config, server["user_id"]
    )
    if auto_disk_config is not None:
        server["auto_disk_config"] = int(auto_disk_config)
    _, power_state = _powered(server)
    _start(
        db,
        server,
        ["resize_prep", "resize_migrating", "resize_migrated", "resize_finish"],
        {
            "vm_state": "resized",
            "power_state": power_state,
            "flavor": json.dumps(flavors.snapshot(new)),
            "old_flavor": server["flavor"],
        },
        progress=True,
    )


def confirm_resize(db, caller, server):
    server_rows.check_lock(caller, server)
    server_rows.check_state(server, "confirmResize", ("resized",))
    if not server["old_flavor"]:
        raise errors.BadRequest("Instance has not been resized.")
    server["vm_state"], server["power_state"] = _powered(server)
    server["old_flavor"] = None
    _save(db, server)


def revert_resize(db, caller, server, config=None):
    server_rows.check_lock(caller, server)
    server_rows.check_state(server, "revertResize", ("resized",))
    if not server["old_flavor"]:
        raise errors.BadRequest("Instance has not been resized.")
    # reverting a downsize grows the server back (nova checks it too)
    quotas.check_resize(
        db,
        server["project_id"],
        json.loads(server["flavor"]),
        json.loads(server["old_flavor"]),
        config,
        server["user_id"],
    )
    vm_state, power_state = _powered(server)
    _start(
        db,
        server,
        ["resize_reverting"],
        {
            "vm_state": vm_state,
            "power_state": power_state,
            "flavor": server["old_flavor"],
            "old_flavor": None,
        },
    )


def trigger_crash_dump(caller, server):
    server_rows.check_lock(caller, server)
    server_rows.check_state(
        server, "trigger_crash_dump", ("active", "paused", "rescued", "resized", "error")
    )


def console_output(server, length=None):
    """The console log; with ``length``, nova's ``_tail_log``: the lines
    split on newlines, the last ``length`` of them joined again (the log
    has no final newline, so ``length`` lines are exactly that many; -1,
    which nova's schema allows, drops the first line)."""
    check_host(server)
    text = "\n".join(boot_log(server))
    if length is None:
        return text
    if length == 0:
        return ""
    return "\n".join(text.split("\n")[-length:])


def boot_log(server):
    """A short, plausible serial console log for ``server``."""
    if server["vm_state"] == "building" and server["task_state"] != "spawning":
        return []
    ports = json.loads(server["ports"])
    lines = [
        "[    0.000000] Linux version 6.1.0-localcloud #1 SMP",
        "[    0.000000] Command line: BOOT_IMAGE=/vmlinuz "
        "root=LABEL=cloudimg-rootfs ro console=ttyS0",
        "[    0.412345] Memory: %dK available" % (json.loads(server["flavor"])["ram"] * 1024),
        "[    1.203040] EXT4-fs (vda1): mounted filesystem with ordered data mode.",
        "[    2.718281] cloud-init[101]: Cloud-init v. 23.4 running 'init-local'",
    ]
    for port in ports:
        lines.append(
            "[    3.141592] cloud-init[101]: ci-info: | eth0 | True "
            "| %s | 255.255.0.0 | global | %s |" % (port["addr"], port["mac"])
        )
    if server["vm_state"] != "building":
        lines += [
            "[    4.669201] cloud-init[220]: Cloud-init v. 23.4 finished. "
            "Datasource DataSourceOpenStackLocal.",
            "",
            "%s login: " % server["hostname"],
        ]
    return lines
