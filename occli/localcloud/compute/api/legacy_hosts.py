"""``/os-hosts`` (nova's deprecated ``HostController``, up to 2.42; a 404
from 2.43): list, show, update and the power actions, admin only (nova's
``os_compute_api:os-hosts:*``, checked after the body's schema, as nova).
Rules in :mod:`occli.localcloud.compute.legacy_hosts`."""

from occli.localcloud.app import Response
from occli.localcloud.compute import legacy_hosts
from occli.localcloud.compute.api import common
from occli.localcloud.compute.api import schemas

MAX_VERSION = "2.42"
POLICY = "os_compute_api:os-hosts:%s"
_MODE = {
    "type": "string",
    "enum": ["enable", "disable", "Enable", "Disable", "ENABLE", "DISABLE"],
}
_UPDATE = {
    "type": "object",
    "properties": {"status": _MODE, "maintenance_mode": _MODE},
    "anyOf": [{"required": ["status"]}, {"required": ["maintenance_mode"]}],
    "additionalProperties": False,
}


def register(service):
    def api(method, pattern, handler):
        # admin only: the handlers check it (role=None: no project role);
        # the fake driver's answers store nothing
        service.api(method, pattern, handler, max_version=MAX_VERSION, role=None, mode="read")

    api("GET", "/os-hosts", list_hosts)
    api("GET", "/os-hosts/{host_name}", show_host)
    api("PUT", "/os-hosts/{host_name}", update_host)
    api("GET", "/os-hosts/{host_name}/startup", startup_host)
    api("GET", "/os-hosts/{host_name}/shutdown", shutdown_host)
    api("GET", "/os-hosts/{host_name}/reboot", reboot_host)


def list_hosts(req):
    common.require_admin(req, POLICY % "list")
    return Response(200, {"hosts": legacy_hosts.listing(req.db, req.arg("zone"))})


def show_host(req):
    common.require_admin(req, POLICY % "show")
    rows = legacy_hosts.resources(req.db, req.params["host_name"])
    return Response(200, {"host": [{"resource": row} for row in rows]})


def update_host(req):
    body = schemas.validate(_UPDATE, req.json())
    common.require_admin(req, POLICY % "update")
    result = legacy_hosts.update(
        req.db, req.params["host_name"], body.get("status"), body.get("maintenance_mode")
    )
    return Response(200, result)


def _power(action, rule):
    def handler(req):
        common.require_admin(req, POLICY % rule)
        return Response(200, legacy_hosts.power_action(req.db, req.params["host_name"], action))

    handler.__name__ = action + "_host"
    return handler


startup_host = _power("startup", "start")
shutdown_host = _power("shutdown", "shutdown")
reboot_host = _power("reboot", "reboot")
