"""``POST /servers/{id}/action``: power, pause/suspend, lock, rebuild,
resize, createImage, crash dump and console output.

State checks follow nova's ``check_instance_state`` (allowed vm_states,
task_state null unless stated, launched at least once) and
``check_instance_lock``; operations start a pending plan (see
:mod:`states`) that completes lazily after ``config.build_time``.
"""

import json

from occli.localcloud import common
from occli.localcloud.app import HTTPError, Response
from occli.localcloud.compute import (base, flavors, keypairs, schemas,
                                      servers, states)

MIGRATIONS = []

# nova task_states.ALLOW_REBOOT: reboot_pending_hard / reboot_started_hard
# are *not* in it (a hard reboot already under way past its first step
# cannot be hard-rebooted again)
ALLOW_REBOOT_TASKS = (None, "rebooting", "reboot_pending", "reboot_started",
                      "rebooting_hard", "resuming", "unpausing", "pausing",
                      "suspending")
HARD_REBOOT_STATES = ("active", "stopped", "paused", "suspended", "error")

# Actions the servers controller itself defines: the only ones that
# /os-volumes_boot/{id}/action knows.
SERVERS_CONTROLLER_ACTIONS = ("reboot", "resize", "confirmResize",
                              "revertResize", "rebuild", "createImage",
                              "os-start", "os-stop", "trigger_crash_dump")


def register(service):
    service.api("POST", "/servers/{server_id}/action", server_action)
    service.api("POST", "/os-volumes_boot/{server_id}/action",
                volumes_boot_action,
                max_version=servers.VOLUMES_BOOT_MAX_VERSION)


def check_state(server, action, vm_states, task_states=(None,),
                must_have_launched=True):
    """409 ``Cannot '<action>' instance <id> while it is in <attr> <value>``."""
    for attr, allowed in (("vm_state", vm_states),
                          ("task_state", task_states)):
        if allowed is not None and server[attr] not in allowed:
            raise _invalid_state(action, server, attr, server[attr])
    if must_have_launched and not server["launched_at"]:
        raise _invalid_state(action, server, "launched_at", None)


def _invalid_state(action, server, attr, value):
    # nova common.raise_http_conflict_for_instance_invalid_state: without a
    # state value (never launched: launched_at None) the generic text is used
    if value is None:
        return base.conflict("Instance %s is in an invalid state for '%s'"
                             % (server["id"], action))
    return base.conflict("Cannot '%s' instance %s while it is in %s %s"
                         % (action, server["id"], attr, value))


def _powered(server):
    """``(vm_state, power_state)`` a server returns to after an operation."""
    if server["vm_state"] == "stopped" or (
            server["vm_state"] == "resized"
            and server["power_state"] == states.SHUTDOWN):
        return "stopped", states.SHUTDOWN
    return "active", states.RUNNING


def check_host(server):
    """Nova's ``check_instance_host``: 409 for a server without a host (a
    build the scheduler could not place)."""
    if not server["host"]:
        raise base.conflict("Instance %s is not ready" % server["id"])


def _simple(action, allowed, tasks, vm_state, power_state, needs_host=False):
    def handler(req, server, value):
        servers.check_lock(req, server)
        if needs_host:
            check_host(server)
        check_state(server, action, allowed)
        _start(req, server, tasks, {"vm_state": vm_state,
                                    "power_state": power_state})
        return Response(202)
    return handler


def _start(req, server, tasks, end, progress=False):
    states.start(server, tasks, end, progress=progress)
    servers.touch(server)
    servers.save(req.db, server)


def reboot(req, server, value):
    schemas.validate(schemas.reboot, {"reboot": value})
    servers.check_lock(req, server)
    check_state(server, "reboot", HARD_REBOOT_STATES, ALLOW_REBOOT_TASKS)
    if value["type"].upper() == "SOFT":
        check_state(server, "reboot", ("active",))
        tasks = ["rebooting", "reboot_pending", "reboot_started"]
    else:
        tasks = ["rebooting_hard", "reboot_pending_hard",
                 "reboot_started_hard"]
    _start(req, server, tasks, {"vm_state": "active",
                                "power_state": states.RUNNING})
    return Response(202)


def lock(req, server, value):
    reason = None
    if req.microversion >= "2.73":
        schemas.validate(schemas.lock_v273, {"lock": value})
        reason = (value or {}).get("locked_reason")
    owner = server["project_id"] == req.context.project_id
    server["locked_by"] = "owner" if owner else "admin"
    server["locked_reason"] = reason
    servers.touch(server)
    servers.save(req.db, server)
    return Response(202)


def unlock(req, server, value):
    if server["locked_by"] == "admin" and not req.context.is_admin:
        raise base.forbidden_by_policy(
            "os_compute_api:os-lock-server:unlock:unlock_override")
    server["locked_by"] = None
    server["locked_reason"] = None
    servers.touch(server)
    servers.save(req.db, server)
    return Response(202)


def rebuild(req, server, value):
    version = req.microversion
    data = schemas.validate(schemas.rebuild(version),
                            {"rebuild": value})["rebuild"]
    servers.check_lock(req, server)
    check_state(server, "rebuild", ("active", "stopped", "error"))
    image = servers.resolve_image(req, data["imageRef"])
    flavor = servers.resolve_flavor(req.db, json.loads(server["flavor"])["id"])
    volume_backed = not server["image_ref"]
    if not volume_backed:
        servers.check_image_fits(image, flavor)
        server["image_ref"] = data["imageRef"]
    servers.check_personality(data.get("personality", []))
    if "metadata" in data:
        servers.check_metadata_quota(data["metadata"])
        server["metadata"] = json.dumps(data["metadata"])
    if "key_name" in data:
        _set_key(req, server, data["key_name"])
    for field, column in (("name", "name"), ("description", "description"),
                          ("accessIPv4", "access_ipv4"),
                          ("accessIPv6", "access_ipv6"),
                          ("user_data", "user_data"),
                          ("hostname", "hostname")):
        if field in data:
            server[column] = data[field]
    if "OS-DCF:diskConfig" in data:
        server["auto_disk_config"] = int(data["OS-DCF:diskConfig"] == "AUTO")
    if "trusted_image_certificates" in data:
        certs = data["trusted_image_certificates"]
        server["trusted_certs"] = json.dumps(certs) if certs else None
    vm_state, power_state = _powered(server)
    _start(req, server, ["rebuilding", "rebuild_block_device_mapping",
                         "rebuild_spawning"],
           {"vm_state": vm_state, "power_state": power_state,
            "launched_at": states.LAUNCH_NOW}, progress=True)
    body = servers.view(req, server, "rebuild")
    body["adminPass"] = data.get("adminPass") or servers.new_admin_password()
    if version >= "2.57":
        body["user_data"] = server["user_data"]
    self_link = body["links"][0]["href"]
    return Response(202, {"server": body}, headers={"Location": self_link})


def _set_key(req, server, key_name):
    if key_name is None:
        server["key_name"] = server["key_data"] = None
        return
    key = keypairs.get_keypair(req.db, req.context.user_id, key_name)
    if key is None:
        raise base.bad_request("Invalid key_name provided.")
    server["key_name"], server["key_data"] = key_name, key["public_key"]


def resize(req, server, value):
    data = schemas.validate(schemas.resize, {"resize": value})["resize"]
    servers.check_lock(req, server)
    check_state(server, "resize", ("active", "stopped"))
    new = servers.resolve_flavor(req.db, data["flavorRef"],
                                 "Unable to locate requested flavor.")
    current = json.loads(server["flavor"])
    if new["id"] == current["id"]:
        raise base.bad_request("When resizing, instances must change flavor!")
    if server["image_ref"] and new["root_gb"] < current["disk"]:
        raise base.bad_request("Resize error: Unable to resize disk down.")
    if "OS-DCF:diskConfig" in data:
        server["auto_disk_config"] = int(data["OS-DCF:diskConfig"] == "AUTO")
    _, power_state = _powered(server)
    _start(req, server, ["resize_prep", "resize_migrating", "resize_migrated",
                         "resize_finish"],
           {"vm_state": "resized", "power_state": power_state,
            "flavor": json.dumps(flavors.snapshot(new)),
            "old_flavor": server["flavor"]}, progress=True)
    return Response(202)


def confirm_resize(req, server, value):
    servers.check_lock(req, server)
    check_state(server, "confirmResize", ("resized",))
    if not server["old_flavor"]:
        raise base.bad_request("Instance has not been resized.")
    server["vm_state"], server["power_state"] = _powered(server)
    server["old_flavor"] = None
    servers.touch(server)
    servers.save(req.db, server)
    return Response(204)


def revert_resize(req, server, value):
    servers.check_lock(req, server)
    check_state(server, "revertResize", ("resized",))
    if not server["old_flavor"]:
        raise base.bad_request("Instance has not been resized.")
    vm_state, power_state = _powered(server)
    _start(req, server, ["resize_reverting"],
           {"vm_state": vm_state, "power_state": power_state,
            "flavor": server["old_flavor"], "old_flavor": None})
    return Response(202)


def create_image(req, server, value):
    data = schemas.validate(schemas.create_image,
                            {"createImage": value})["createImage"]
    check_state(server, "createImage",
                ("active", "stopped", "paused", "suspended"))
    servers.check_metadata_quota(data.get("metadata", {}))
    image_id = _snapshot_image(req, server, data)
    _start(req, server, ["image_snapshot_pending", "image_snapshot",
                         "image_pending_upload", "image_uploading"], {})
    if req.microversion >= "2.45":
        return Response(202, {"image_id": image_id})
    location = "%s%s/v2/images/%s" % (req.base_url, req.cloud.image.prefix,
                                      image_id)
    return Response(202, headers={"Location": location})


def _snapshot_image(req, server, data):
    """Register the snapshot with the image service (an id if there is none)."""
    if req.cloud.image is None:
        return common.new_uuid()
    flavor = json.loads(server["flavor"])
    properties = dict(data.get("metadata", {}), image_type="snapshot",
                      instance_uuid=server["id"],
                      base_image_ref=server["image_ref"],
                      user_id=req.context.user_id)
    image = req.cloud.image.create_image(
        req.db, data["name"], req.context.project_id, status="active",
        size=flavor["disk"] * servers.GIB // 64, min_disk=flavor["disk"],
        properties=properties)
    return image["id"]


def trigger_crash_dump(req, server, value):
    if value is not None:
        raise base.bad_request("Invalid input for field/attribute "
                               "trigger_crash_dump. Value: %s. %r is not of "
                               "type 'null'" % (value, value))
    servers.check_lock(req, server)
    check_state(server, "trigger_crash_dump",
                ("active", "paused", "rescued", "resized", "error"))
    return Response(202)


def console_output(req, server, value):
    data = schemas.validate(schemas.console_output,
                            {"os-getConsoleOutput": value})
    length = (data["os-getConsoleOutput"] or {}).get("length")
    lines = boot_log(server)
    if length is not None and int(length) >= 0:
        lines = lines[len(lines) - int(length):] if int(length) else []
    return {"output": "".join(line + "\n" for line in lines)}


def boot_log(server):
    """A short, plausible serial console log for ``server``."""
    if server["vm_state"] == "building" and server["task_state"] != "spawning":
        return []
    ports = json.loads(server["ports"])
    lines = [
        "[    0.000000] Linux version 6.1.0-localcloud #1 SMP",
        "[    0.000000] Command line: BOOT_IMAGE=/vmlinuz "
        "root=LABEL=cloudimg-rootfs ro console=ttyS0",
        "[    0.412345] Memory: %dK available" % (
            json.loads(server["flavor"])["ram"] * 1024),
        "[    1.203040] EXT4-fs (vda1): mounted filesystem with ordered data "
        "mode.",
        "[    2.718281] cloud-init[101]: Cloud-init v. 23.4 running "
        "'init-local'",
    ]
    for port in ports:
        lines.append("[    3.141592] cloud-init[101]: ci-info: | eth0 | True "
                     "| %s | 255.255.0.0 | global | %s |"
                     % (port["addr"], port["mac"]))
    if server["vm_state"] != "building":
        lines += [
            "[    4.669201] cloud-init[220]: Cloud-init v. 23.4 finished. "
            "Datasource DataSourceOpenStackLocal.",
            "",
            "%s login: " % server["hostname"],
        ]
    return lines


ACTIONS = {
    "reboot": (reboot, None),
    # nova: start and stop carry @check_instance_host (before the state
    # check), the other simple actions do not
    "os-start": (_simple("start", ("stopped",), ["powering-on"], "active",
                         states.RUNNING, needs_host=True), None),
    "os-stop": (_simple("stop", ("active", "error"), ["powering-off"],
                        "stopped", states.SHUTDOWN, needs_host=True), None),
    "pause": (_simple("pause", ("active",), ["pausing"], "paused",
                      states.PAUSED), None),
    "unpause": (_simple("unpause", ("paused",), ["unpausing"], "active",
                        states.RUNNING), None),
    "suspend": (_simple("suspend", ("active",), ["suspending"], "suspended",
                        states.SUSPENDED), None),
    "resume": (_simple("resume", ("suspended",), ["resuming"], "active",
                       states.RUNNING), None),
    "lock": (lock, None),
    "unlock": (unlock, None),
    "rebuild": (rebuild, None),
    "resize": (resize, None),
    "confirmResize": (confirm_resize, None),
    "revertResize": (revert_resize, None),
    "createImage": (create_image, None),
    "trigger_crash_dump": (trigger_crash_dump, "2.17"),
    "os-getConsoleOutput": (console_output, None),
}


def _dispatch(req, allowed):
    body = req.json()
    if not isinstance(body, dict) or len(body) != 1:
        raise base.bad_request("Malformed request body")
    (name, value), = body.items()
    if name not in allowed:
        raise base.bad_request("There is no such action: %s" % name)
    handler, min_version = ACTIONS[name]
    if min_version and req.microversion < min_version:
        raise HTTPError(404, "The resource could not be found.")
    server = servers.load(req, req.params["server_id"])
    return handler(req, server, value)


def server_action(req):
    return _dispatch(req, ACTIONS)


def volumes_boot_action(req):
    return _dispatch(req, SERVERS_CONTROLLER_ACTIONS)
