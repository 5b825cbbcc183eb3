"""Clusters, workers cleanup and manageable resources of the local Cinder
(3.7, 3.8/3.17, 3.24), as Cinder answers with its one LVM backend not
clustered (no ``cluster`` option set): no clusters, so a lookup is Cinder's
``ClusterNotFound``; a cleanup reaches every matching (always up) service;
an LVM backend whose volume group holds only Cinder's volumes has nothing
to manage. Texts from cinder/exception.py, cinder/api/v3/clusters.py,
workers.py and resource_common_manage.py."""

import sqlite3
from collections.abc import Mapping
from typing import Any

from occli.localcloud import errors
from occli.localcloud import validation
from occli.localcloud.volume import services

# cinder/api/v3/clusters.py ClusterController
LIST_KEYS = ("name", "binary", "is_up", "disabled", "num_hosts", "num_down_hosts")
REPLICATION_KEYS = ("replication_status", "frozen", "active_backend_id")
# cinder/api/schemas/workers.py cleanup; cinder/objects/cleanable.py
_HOSTNAME = {"type": ["string", "null"], "minLength": 1, "maxLength": 255,
             "pattern": "^[a-zA-Z0-9-._#@:/+]*$"}  # fmt: skip
# cinder/api/validation/parameter_types.py boolean
_BOOLEAN = {
    "type": ["boolean", "string"],
    "enum": [True, "True", "TRUE", "true", "1", "ON", "On", "on", "YES", "Yes", "yes", "y", "t",
             False, "False", "FALSE", "false", "0", "OFF", "Off", "off", "NO", "No", "no", "n",
             "f"],
}  # fmt: skip
CLEANUP: dict[str, Any] = {
    "type": "object",
    "properties": {
        "cluster_name": _HOSTNAME,
        "disabled": _BOOLEAN,
        "host": _HOSTNAME,
        "is_up": _BOOLEAN,
        "binary": {"enum": [services.VOLUME, services.SCHEDULER]},
        "resource_id": {"oneOf": [{"type": "null"}, {"type": "string", "format": "uuid"}]},
        "resource_type": {"type": ["string", "null"], "minLength": 0, "maxLength": 40},
        "service_id": {
            "type": ["integer", "string", "null"],
            "pattern": "^[0-9]*$",
            "maxLength": 11,
        },
    },
    "additionalProperties": False,
}
CLEANABLE_TYPES = ("Volume", "Snapshot")
MANAGE_SORT_KEYS = ("reference", "size")
MANAGE_SORT_DIRS = ("asc", "desc")


def cluster(name: str, binary: str) -> dict[str, Any]:
    """The cluster ``name`` of ``binary``: none exists (Cinder's
    ``cluster_get`` names the filters it was given)."""
    raise errors.NotFound("Cluster %s could not be found." % str({"binary": binary, "name": name}))


def listing(filters: Mapping[str, str], replication: bool) -> list[dict[str, Any]]:
    """The clusters matching ``filters`` (none); Cinder's 400 for a key it
    does not filter on (the replication ones from 3.26)."""
    allowed = LIST_KEYS + (REPLICATION_KEYS if replication else ())
    invalid = [key for key in filters if key not in allowed]
    if invalid:
        raise errors.BadRequest(
            "Invalid input received: Invalid filter keys: %s" % ", ".join(invalid)
        )
    for key in ("disabled", "is_up"):
        if key in filters:
            _bool(key, filters[key])
    return []


def _bool(key: str, value: Any) -> bool:
    """cinder's ``utils.get_bool_param``, with its text."""
    if isinstance(value, bool):
        return value
    try:
        return validation.bool_from_string(value, strict=True)
    except ValueError:
        raise errors.BadRequest("Value '%s' for '%s' is not a boolean." % (value, key)) from None


def cleanup(db: sqlite3.Connection, body: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The services a workers cleanup is sent to (the scheduler's
    ``work_cleanup``: those matching the request, each up here); Cinder's
    400s for an unknown resource type and a resource pending no cleanup
    (no operation leaves work behind in the local cloud)."""
    resource_type = body.get("resource_type")
    if resource_type:
        resource_type = resource_type.title()
        if resource_type not in CLEANABLE_TYPES:
            raise errors.BadRequest(
                "Invalid input received: Resource type %s not valid, must be %s"
                % (resource_type, " or ".join(CLEANABLE_TYPES))
            )
    if body.get("resource_id") and not {"service_id", "cluster_name", "host"} & set(body):
        # Cinder formats a (text, id) tuple as the reason
        reason = ("There is no resource with UUID %s pending cleanup.", body["resource_id"])
        raise errors.BadRequest("Invalid input received: %s" % (reason,))
    flags = {key: _bool(key, body[key]) for key in ("disabled", "is_up") if key in body}
    if body.get("cluster_name") or flags.get("is_up") is False:
        return []
    found = []
    for number, svc in enumerate(services.listing(db), start=1):
        if body.get("binary") and svc["binary"] != body["binary"]:
            continue
        if body.get("host") and svc["host"] != body["host"]:
            continue
        if body.get("service_id") not in (None, "") and int(body["service_id"]) != number:
            continue
        if "disabled" in flags and svc["disabled"] != flags["disabled"]:
            continue
        found.append(
            {"id": number, "host": svc["host"], "binary": svc["binary"], "cluster_name": None}
        )
    return found


def manageable(
    db: sqlite3.Connection, host: str | None, cluster_name: str | None, sort: tuple[list, list]
) -> list[dict[str, Any]]:
    """What the backend on ``host`` (or in ``cluster_name``) could manage:
    nothing on this LVM backend; Cinder's ``ServiceNotFound`` for another
    backend or any cluster, and its 400s for bad sort keys or directions."""
    keys, dirs = sort
    invalid = [key for key in keys if key not in MANAGE_SORT_KEYS]
    if invalid:
        raise errors.BadRequest("Invalid sort keys passed: %s" % ", ".join(invalid))
    invalid = [d for d in dirs if d not in MANAGE_SORT_DIRS]
    if invalid:
        raise errors.BadRequest("Invalid sort dirs passed: %s" % ", ".join(invalid))
    backend = host.split("#")[0] if host else None
    if cluster_name or backend != services.BACKEND:
        if host:
            raise errors.NotFound(
                "Service %s could not be found on host %s." % (services.VOLUME, backend)
            )
        raise errors.NotFound("Service %s could not be found." % services.VOLUME)
    return []
