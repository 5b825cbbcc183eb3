"""The handlers of the volume actions of :mod:`occli.localcloud.volume.actions`
(``POST /volumes/{id}/action``): their bodies as Cinder's schemas check
them (cinder/api/schemas/volume_actions.py, volume_image_metadata.py,
admin_actions.py) and their answers; :mod:`.volumes` dispatches them from
its one ``ACTIONS`` table."""

from typing import Any

from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.volume import actions
from occli.localcloud.volume import schemas
from occli.localcloud.volume import volumes
from occli.localcloud.volume.api import common
from occli.localcloud.volume.api import microversions


def _attach(req, body):
    params = schemas.validate(ATTACH, body)["os-attach"]
    volume = common.volume(req)
    actions.attach(
        req.db,
        volume,
        params.get("instance_uuid"),
        params.get("host_name"),
        params["mountpoint"],
        params.get("mode", "rw"),
    )
    return Response(202)


def _detach(req, body):
    params = schemas.validate(DETACH, body)["os-detach"] or {}
    service = "service" in req.context.roles
    actions.detach(req.db, common.volume(req), params.get("attachment_id"), service=service)
    return Response(202)


def _simple(rule):
    """A handler of a body-less action: ``rule(db, volume)``, 202."""

    def handler(req, body):
        schemas.validate(_EMPTY, body)
        rule(req.db, common.volume(req))
        return Response(202)

    return handler


def _initialize_connection(req, body):
    connector = schemas.validate(INITIALIZE, body)["os-initialize_connection"]["connector"]
    info = actions.initialize_connection(req.db, common.volume(req), connector)
    return Response(200, {"connection_info": info})


def _terminate_connection(req, body):
    schemas.validate(TERMINATE, body)
    actions.terminate_connection(req.db, common.volume(req))
    return Response(202)


def _force_detach(req, body):
    """The admin's ``os-force_detach``: the lookup, then the policy."""
    params = schemas.validate(FORCE_DETACH, body)["os-force_detach"]
    volume = common.volume(req)
    if not req.context.is_admin:
        raise common.policy_denied("volume_extension:volume_admin_actions:force_detach")
    actions.force_detach(req.db, volume, params.get("attachment_id"))
    return Response(202)


def _set_bootable(req, body):
    bootable = schemas.validate(SET_BOOTABLE, body)["os-set_bootable"]["bootable"]
    actions.set_bootable(req.db, common.volume(req), schemas.truthy(bootable))
    return Response(200)


def _update_readonly_flag(req, body):
    flag = schemas.validate(READONLY, body)["os-update_readonly_flag"]["readonly"]
    actions.update_readonly_flag(req.db, common.volume(req), schemas.truthy(flag))
    return Response(202)


def _set_image_metadata(req, body):
    items = schemas.validate(SET_IMAGE_METADATA, body)["os-set_image_metadata"]["metadata"]
    current = actions.set_image_metadata(req.db, common.volume(req), items)
    return Response(200, {"metadata": current})


def _unset_image_metadata(req, body):
    key = schemas.validate(UNSET_IMAGE_METADATA, body)["os-unset_image_metadata"]["key"]
    actions.unset_image_metadata(req.db, common.volume(req), key)
    return Response(200, content_type=common.WEBOB_TYPE)


def _show_image_metadata(req, body):
    schemas.validate(_EMPTY, body)
    return Response(200, {"metadata": actions.image_metadata(common.volume(req))})


def _reimage(req, body):
    """``os-reimage`` (3.68): the body, the volume, then the rules."""
    params = schemas.validate(REIMAGE, body)["os-reimage"]
    volume = common.volume(req)
    reserved = schemas.truthy(params.get("reimage_reserved", False))
    volumes.reimage(req.db, req.context, volume, params["image_id"], reserved)
    return Response(202)


def _migrate_volume(req, body):
    """The admin's ``os-migrate_volume`` (cinder/api/contrib/admin_actions.py
    ``_migrate_volume``): the lookup, the policy, then ``host`` or (3.16)
    one ``cluster``, as ``common.get_cluster_host`` takes them."""
    cluster_version = req.microversion >= microversions.VOLUME_MIGRATE_CLUSTER
    schema = MIGRATE_316 if cluster_version else MIGRATE
    params = schemas.validate(schema, body)["os-migrate_volume"]
    volume = common.volume(req)
    if not req.context.is_admin:
        raise common.policy_denied("volume_extension:volume_admin_actions:migrate_volume")
    cluster = params.get("cluster") if cluster_version else None
    host = params.get("host")
    if bool(cluster) == bool(host):
        reason = (
            "One and only one of cluster and host must be set."
            if cluster_version
            else "Host field is missing."
        )
        raise HTTPError(400, "Invalid input received: " + reason)
    actions.migrate(
        req.db,
        req.context,
        volume,
        str(host or cluster),
        schemas.truthy(params.get("force_host_copy", False)),
        schemas.truthy(params.get("lock_volume", False)),
    )
    return Response(202)


def _migrate_volume_completion(req, body):
    """The admin's ``os-migrate_volume_completion``: both volumes looked
    up (404s), the policy between; ``{"save_volume_id": …}``."""
    params = schemas.validate(MIGRATE_COMPLETION, body)["os-migrate_volume_completion"]
    volume = common.volume(req)
    if not req.context.is_admin:
        raise common.policy_denied(
            "volume_extension:volume_admin_actions:migrate_volume_completion"
        )
    new_volume = volumes.get(req.db, req.context, params["new_volume"], common.volumes_lazy(req))
    saved = actions.migrate_completion(req.db, volume, new_volume, params.get("error", False))
    return Response(200, {"save_volume_id": saved})


def _action(name, properties, required=()) -> dict[str, Any]:
    """A schema of the one-key body ``{name: {properties…}}``."""
    return {
        "type": "object",
        "properties": {
            name: {
                "type": "object",
                "properties": properties,
                "required": list(required),
                "additionalProperties": False,
            }
        },
        "required": [name],
        "additionalProperties": False,
    }


_UUID = {"type": "string", "format": "uuid"}
# the body-less actions take any value ({} in Cinder's schemas)
_EMPTY = {"type": "object", "minProperties": 1, "maxProperties": 1}
ATTACH = _action(
    "os-attach",
    {
        "instance_uuid": _UUID,
        "mountpoint": {"type": "string", "minLength": 1, "maxLength": 255},
        "host_name": {"type": "string", "maxLength": 255},
        "mode": {"type": "string", "enum": ["rw", "ro"]},
    },
    ["mountpoint"],
)
ATTACH["properties"]["os-attach"]["anyOf"] = [
    {"required": ["instance_uuid"]},
    {"required": ["host_name"]},
]
DETACH = _action(
    "os-detach", {"attachment_id": {"oneOf": [{"type": "null"}, _UUID]}}
)  # fmt: skip
DETACH["properties"]["os-detach"]["type"] = ["object", "null"]
INITIALIZE = _action(
    "os-initialize_connection", {"connector": {"type": ["object", "string"]}}, ["connector"]
)
TERMINATE = _action(
    "os-terminate_connection",
    {"connector": {"type": ["string", "object", "null"]}},
    ["connector"],
)
FORCE_DETACH = _action(
    "os-force_detach",
    {
        "connector": {"type": ["string", "object", "null"]},
        "attachment_id": {"type": ["string", "null"]},
    },
)
SET_BOOTABLE = _action("os-set_bootable", {"bootable": schemas.BOOLEAN}, ["bootable"])
READONLY = _action("os-update_readonly_flag", {"readonly": schemas.BOOLEAN}, ["readonly"])
# parameter_types.image_metadata: values are MySQL TEXT
_IMAGE_METADATA = {
    "type": "object",
    "patternProperties": {"^[a-zA-Z0-9-_:. /]{1,255}$": {"type": "string", "maxLength": 65535}},
    "additionalProperties": False,
}
SET_IMAGE_METADATA = _action("os-set_image_metadata", {"metadata": _IMAGE_METADATA}, ["metadata"])
UNSET_IMAGE_METADATA = _action(
    "os-unset_image_metadata",
    {"key": {"type": "string", "minLength": 1, "maxLength": 255}},
    ["key"],
)
# cinder/api/schemas/admin_actions.py migrate_volume(_v316), _completion
_MIGRATE = {
    "host": {"type": "string", "maxLength": 255},
    "force_host_copy": schemas.BOOLEAN,
    "lock_volume": schemas.BOOLEAN,
}
MIGRATE = _action("os-migrate_volume", _MIGRATE, ["host"])
MIGRATE_316 = _action(
    "os-migrate_volume",
    dict(
        _MIGRATE,
        host={"type": ["string", "null"], "maxLength": 255},
        cluster={"type": ["string", "null"], "minLength": 0, "maxLength": 255},
    ),
)
MIGRATE_COMPLETION = _action(
    "os-migrate_volume_completion",
    {"new_volume": _UUID, "error": {"type": ["string", "null", "boolean"]}},
    ["new_volume"],
)

# name -> (the microversion they need or None, handler(req, body)), as
REIMAGE = _action(
    "os-reimage", {"image_id": _UUID, "reimage_reserved": schemas.BOOLEAN}, ["image_id"]
)
# volumes.ACTIONS, which takes these in
ACTIONS = {
    "os-attach": (None, _attach),
    "os-detach": (None, _detach),
    "os-reserve": (None, _simple(actions.reserve)),
    "os-unreserve": (None, _simple(actions.unreserve)),
    "os-begin_detaching": (None, _simple(actions.begin_detaching)),
    "os-roll_detaching": (None, _simple(actions.roll_detaching)),
    "os-initialize_connection": (None, _initialize_connection),
    "os-terminate_connection": (None, _terminate_connection),
    "os-force_detach": (None, _force_detach),
    "os-set_bootable": (None, _set_bootable),
    "os-update_readonly_flag": (None, _update_readonly_flag),
    "os-set_image_metadata": (None, _set_image_metadata),
    "os-unset_image_metadata": (None, _unset_image_metadata),
    "os-show_image_metadata": (None, _show_image_metadata),
    "os-migrate_volume": (None, _migrate_volume),
    "os-migrate_volume_completion": (None, _migrate_volume_completion),
    "os-reimage": (microversions.SUPPORT_REIMAGE_VOLUME, _reimage),
}
