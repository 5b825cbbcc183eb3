"""Shelve, rescue, state reset and password actions (entries of
``server_actions.ACTIONS``), ``/servers/{id}/diagnostics`` and
``/servers/{id}/topology`` (2.78): schemas and microversion gates here,
rules in :mod:`occli.localcloud.compute.shelve` and
:mod:`occli.localcloud.compute.rescue`."""

from occli.localcloud.app import Response
from occli.localcloud.compute import build
from occli.localcloud.compute import rescue as rescue_rules
from occli.localcloud.compute import shelve as shelve_rules
from occli.localcloud.compute.api import common
from occli.localcloud.compute.api import schemas
from occli.localcloud.compute.api import snapshots as snapshots_api
from occli.localcloud.compute.api.servers import load

_rescue = schemas.one_member(
    "rescue",
    {
        "type": ["object", "null"],
        "properties": {
            "adminPass": schemas.admin_password,
            "rescue_image_ref": schemas.image_ref,
        },
        "additionalProperties": False,
    },
)
_unshelve_v277 = schemas.one_member(
    "unshelve",
    {
        "type": ["object", "null"],
        "properties": {"availability_zone": schemas.name},
        "required": ["availability_zone"],
        "additionalProperties": False,
    },
)
_unshelve_v291 = schemas.one_member(
    "unshelve",
    {
        "type": ["object", "null"],
        "properties": {
            "availability_zone": {"type": ["string", "null"]},
            "host": {"type": "string"},
        },
        "additionalProperties": False,
    },
)
_reset_state = schemas.one_member(
    "os-resetState",
    {
        "type": "object",
        "properties": {"state": {"type": "string", "enum": ["active", "error"]}},
        "required": ["state"],
        "additionalProperties": False,
    },
)
_change_password = schemas.one_member(
    "changePassword",
    {
        "type": "object",
        "properties": {"adminPass": schemas.admin_password},
        "required": ["adminPass"],
        "additionalProperties": False,
    },
)


def register(service):
    service.api("GET", "/servers/{server_id}/diagnostics", diagnostics)
    service.api("GET", "/servers/{server_id}/topology", topology, min_version="2.78")


def shelve(req, server, value):
    config = req.cloud.config
    shelve_rules.shelve(
        req.db,
        common.caller(req),
        server,
        config.shelved_offload_time,
        common.images(req),
        snapshots_api.owner_names(req, server),
        config.build_time,
    )
    return Response(202)


def shelve_offload(req, server, value):
    shelve_rules.shelve_offload(req.db, common.caller(req), server)
    return Response(202)


def unshelve(req, server, value):
    version = req.microversion
    if version >= "2.91":
        schemas.validate(_unshelve_v291, {"unshelve": value})
    elif version >= "2.77":
        schemas.validate(_unshelve_v277, {"unshelve": value})
    zone, host = shelve_rules.UNSET, None
    if value and version >= "2.77" and "availability_zone" in value:
        zone = value["availability_zone"]
    if value and version >= "2.91":
        host = value.get("host")
    shelve_rules.unshelve(
        req.db, common.caller(req), server, zone, host, common.images(req), req.cloud.config
    )
    return Response(202)


def rescue(req, server, value):
    schemas.validate(_rescue, {"rescue": value})
    value = value or {}
    password = value.get("adminPass") or build.new_admin_password()
    rescue_rules.rescue(
        req.db,
        common.caller(req),
        server,
        common.images(req),
        value.get("rescue_image_ref"),
        allow_bfv=req.microversion >= "2.87",
    )
    # nova's [api] enable_instance_password (default True)
    return Response(200, {"adminPass": password})


def unrescue(req, server, value):
    rescue_rules.unrescue(req.db, common.caller(req), server)
    return Response(202)


def reset_state(req, server, value):
    schemas.validate(_reset_state, {"os-resetState": value})
    rescue_rules.reset_state(req.db, common.caller(req), server, value["state"])
    return Response(202)


def change_password(req, server, value):
    schemas.validate(_change_password, {"changePassword": value})
    rescue_rules.change_password(req.db, common.caller(req), server)
    return Response(202)


def diagnostics(req):
    server = load(req)
    return Response(
        200, rescue_rules.diagnostics(common.caller(req), server, req.microversion >= "2.48")
    )


def topology(req):
    return Response(200, rescue_rules.topology(load(req)))


# action: (handler, lowest microversion), merged into server_actions.ACTIONS
ACTIONS = {
    "shelve": (shelve, None),
    "shelveOffload": (shelve_offload, None),
    "unshelve": (unshelve, None),
    "rescue": (rescue, None),
    "unrescue": (unrescue, None),
    "os-resetState": (reset_state, None),
    "changePassword": (change_password, None),
}
