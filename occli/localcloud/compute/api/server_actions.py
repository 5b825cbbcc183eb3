"""``POST /servers/{id}/action`` (and ``/os-volumes_boot/{id}/action``):
one action per body, its schema and microversion gates here, its rules in
:mod:`occli.localcloud.compute.actions`."""

import json

from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.compute import actions
from occli.localcloud.compute import build
from occli.localcloud.compute import server_rows
from occli.localcloud.compute.api import common
from occli.localcloud.compute.api import consoles
from occli.localcloud.compute.api import network_actions
from occli.localcloud.compute.api import schemas
from occli.localcloud.compute.api import server_extras
from occli.localcloud.compute.api import server_lifecycle
from occli.localcloud.compute.api import server_moves
from occli.localcloud.compute.api import snapshots
from occli.localcloud.compute.api.server_views import view
from occli.localcloud.compute.api.servers import VOLUMES_BOOT_MAX_VERSION
from occli.localcloud.compute.api.servers import load

# Actions the servers controller itself defines: the only ones that
# /os-volumes_boot/{id}/action knows.
SERVERS_CONTROLLER_ACTIONS = (
    "reboot",
    "resize",
    "confirmResize",
    "revertResize",
    "rebuild",
    "createImage",
    "os-start",
    "os-stop",
    "trigger_crash_dump",
)
# rebuild: request field → column set as it is
_REBUILD_FIELDS = (
    ("name", "name"),
    ("description", "description"),
    ("accessIPv4", "access_ipv4"),
    ("accessIPv6", "access_ipv6"),
    ("user_data", "user_data"),
    ("hostname", "hostname"),
)


def register(service):
    service.api("POST", "/servers/{server_id}/action", server_action)
    service.api(
        "POST",
        "/os-volumes_boot/{server_id}/action",
        volumes_boot_action,
        max_version=VOLUMES_BOOT_MAX_VERSION,
    )


def _power(action):
    def handler(req, server, value):
        actions.power(req.db, common.caller(req), server, action)
        return Response(202)

    return handler


def reboot(req, server, value):
    schemas.validate(schemas.reboot, {"reboot": value})
    actions.reboot(req.db, common.caller(req), server, hard=value["type"].upper() != "SOFT")
    return Response(202)


def lock(req, server, value):
    reason = None
    if req.microversion >= "2.73":
        schemas.validate(schemas.lock_v273, {"lock": value})
        reason = (value or {}).get("locked_reason")
    actions.lock(req.db, common.caller(req), server, reason)
    return Response(202)


def unlock(req, server, value):
    actions.unlock(req.db, common.caller(req), server)
    return Response(202)


def rebuild(req, server, value):
    version = req.microversion
    data = schemas.validate(schemas.rebuild(version), {"rebuild": value})["rebuild"]
    columns = {column: data[field] for field, column in _REBUILD_FIELDS if field in data}
    if "OS-DCF:diskConfig" in data:
        columns["auto_disk_config"] = int(data["OS-DCF:diskConfig"] == "AUTO")
    if "trusted_image_certificates" in data:
        certs = data["trusted_image_certificates"]
        columns["trusted_certs"] = json.dumps(certs) if certs else None
    actions.rebuild(
        req.db,
        common.caller(req),
        server,
        common.images(req),
        data["imageRef"],
        columns,
        data.get("personality", []),
        data.get("metadata"),
        data.get("key_name", actions.UNSET),
    )
    body = view(req, server, "rebuild")
    body["adminPass"] = data.get("adminPass") or build.new_admin_password()
    if version >= "2.57":
        body["user_data"] = server["user_data"]
    self_link = body["links"][0]["href"]
    return Response(202, {"server": body}, headers={"Location": self_link})


def resize(req, server, value):
    data = schemas.validate(schemas.resize, {"resize": value})["resize"]
    disk_config = data.get("OS-DCF:diskConfig")
    actions.resize(
        req.db,
        common.caller(req),
        server,
        data["flavorRef"],
        None if disk_config is None else disk_config == "AUTO",
        req.cloud.config,
    )
    server_moves.resized(req, server)
    return Response(202)


def confirm_resize(req, server, value):
    actions.confirm_resize(req.db, common.caller(req), server)
    server_moves.confirmed(req, server)
    return Response(204)


def revert_resize(req, server, value):
    actions.revert_resize(req.db, common.caller(req), server, req.cloud.config)
    server_moves.reverting(req, server)
    return Response(202)


def trigger_crash_dump(req, server, value):
    if value is not None:
        raise common.bad_request(
            "Invalid input for field/attribute "
            "trigger_crash_dump. Value: %s. %r is not "
            "of type 'null'" % (value, value)
        )
    actions.trigger_crash_dump(common.caller(req), server)
    return Response(202)


def console_output(req, server, value):
    data = schemas.validate(schemas.console_output, {"os-getConsoleOutput": value})
    length = (data["os-getConsoleOutput"] or {}).get("length")
    if length is not None:
        try:
            length = int(length)
        except ValueError:  # past Python's digit limit: nova's _tail_log reads it as 0
            length = 0
    return Response(200, {"output": actions.console_output(server, length)})


# action: (handler, lowest microversion)
ACTIONS = {
    "reboot": (reboot, None),
    "os-start": (_power("os-start"), None),
    "os-stop": (_power("os-stop"), None),
    "pause": (_power("pause"), None),
    "unpause": (_power("unpause"), None),
    "suspend": (_power("suspend"), None),
    "resume": (_power("resume"), None),
    "lock": (lock, None),
    "unlock": (unlock, None),
    "rebuild": (rebuild, None),
    "resize": (resize, None),
    "confirmResize": (confirm_resize, None),
    "revertResize": (revert_resize, None),
    "createImage": (snapshots.create_image, None),
    "createBackup": (snapshots.create_backup, None),
    "os-getVNCConsole": (consoles.ACTIONS["os-getVNCConsole"], None),
    "os-getSPICEConsole": (consoles.ACTIONS["os-getSPICEConsole"], None),
    "os-getSerialConsole": (consoles.ACTIONS["os-getSerialConsole"], None),
    "os-getRDPConsole": (consoles.ACTIONS["os-getRDPConsole"], None),
    "injectNetworkInfo": (server_extras.inject_network_info, None),
    "restore": (server_extras.restore, None),
    "forceDelete": (server_extras.force_delete, None),
    "trigger_crash_dump": (trigger_crash_dump, "2.17"),
    "os-getConsoleOutput": (console_output, None),
    "migrate": (server_moves.migrate, None),
    "os-migrateLive": (server_moves.live_migrate, None),
    "evacuate": (server_moves.evacuate, None),
}
ACTIONS.update(server_lifecycle.ACTIONS)
ACTIONS.update(network_actions.ACTIONS)


def _dispatch(req, allowed):
    body = req.json()
    if not isinstance(body, dict) or len(body) != 1:
        raise common.bad_request("Malformed request body")
    ((name, value),) = body.items()
    if name not in allowed:
        raise common.bad_request("There is no such action: %s" % name)
    handler, min_version = ACTIONS[name]
    if min_version and req.microversion < min_version:
        raise HTTPError(404, "The resource could not be found.")
    if name in _MAPPED_ACTIONS and not _ever_existed(req):
        raise HTTPError(404, "Instance %s has no mapping to a cell." % req.params["server_id"])
    return handler(req, load(req), value)


# actions nova's ServersController runs through its _get_instance: an id
# that never existed has no instance mapping (a deleted server keeps one)
_MAPPED_ACTIONS = ("os-start", "os-stop", "trigger_crash_dump")


def _ever_existed(req):
    return server_rows.ever_existed(req.db, req.params["server_id"])


def server_action(req):
    return _dispatch(req, ACTIONS)


def volumes_boot_action(req):
    return _dispatch(req, SERVERS_CONTROLLER_ACTIONS)
