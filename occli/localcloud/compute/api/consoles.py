"""Remote consoles: ``POST /servers/{id}/remote-consoles`` (2.6+; ``mks``
from 2.8) and the legacy actions ``os-getVNCConsole``,
``os-getSPICEConsole``, ``os-getSerialConsole`` and ``os-getRDPConsole``
(2.1-2.5; a 404 from 2.6, as nova). No console proxy runs: every valid
request ends in nova's 400 ``Unavailable console type`` (rules in
:mod:`occli.localcloud.compute.consoles`)."""

from occli.localcloud.app import HTTPError
from occli.localcloud.compute import consoles
from occli.localcloud.compute.api import schemas
from occli.localcloud.compute.api.servers import load

LEGACY_MAX_VERSION = "2.5"
# nova's answer to the removed RDP console: webob's default 400 text
RDP_REMOVED = (
    "The server could not comply with the request since it is either malformed "
    "or otherwise incorrect."
)
_PROTOCOLS = ["vnc", "spice", "serial", "rdp"]
_TYPES = ["novnc", "xvpvnc", "spice-html5", "serial", "rdp-html5"]


def _create_schema(version, any_type=False):
    """Nova's schema at ``version``; ``any_type``: without the type's enum
    (checked first, so a bad protocol is reported as nova 34 does)."""
    protocols, types = list(_PROTOCOLS), list(_TYPES)
    if version >= "2.8":
        protocols.append("mks")
        types.append("webmks")
    return schemas.one_member(
        "remote_console",
        {
            "type": "object",
            "properties": {
                "protocol": {"type": "string", "enum": protocols},
                "type": {"type": "string"} if any_type else {"type": "string", "enum": types},
            },
            "required": ["protocol", "type"],
            "additionalProperties": False,
        },
    )


def register(service):
    # a write transaction although every answer is a refusal: reading the
    # server may advance its lazy state, which the refusal then rolls back
    service.api("POST", "/servers/{server_id}/remote-consoles", create_console, min_version="2.6")


def create_console(req):
    body = req.json()
    schemas.validate(_create_schema(req.microversion, any_type=True), body)
    body = schemas.validate(_create_schema(req.microversion), body)["remote_console"]
    server = load(req)
    protocol, console_type = body["protocol"], body["type"]
    if protocol == "rdp":
        raise HTTPError(400, RDP_REMOVED)
    consoles.open_console(server, protocol, console_type)


def _legacy(action, protocol, types):
    schema = schemas.one_member(
        action, schemas.one_member("type", {"type": "string", "enum": types})
    )

    def handler(req, server, value):
        if req.microversion > LEGACY_MAX_VERSION:
            raise HTTPError(404, "The resource could not be found.")
        console_type = schemas.validate(schema, {action: value})[action]["type"]
        consoles.open_console(server, protocol, console_type)

    handler.__name__ = action.replace("-", "_")
    return handler


def _rdp(req, server, value):
    if req.microversion > LEGACY_MAX_VERSION:
        raise HTTPError(404, "The resource could not be found.")
    raise HTTPError(400, RDP_REMOVED)


# legacy console actions: handler(req, server, value)
ACTIONS = {
    "os-getVNCConsole": _legacy("os-getVNCConsole", "vnc", ["novnc", "xvpvnc"]),
    "os-getSPICEConsole": _legacy("os-getSPICEConsole", "spice", ["spice-html5"]),
    "os-getSerialConsole": _legacy("os-getSerialConsole", "serial", ["serial"]),
    "os-getRDPConsole": _rdp,
}
