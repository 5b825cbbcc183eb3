"""``/os-aggregates``: nova's aggregates controller (CONTRACT.md §3.10).

Admin only; ``{aggregate_id}`` must be an integer (also at 2.41+, where
``uuid`` is shown); create, update, delete and actions answer 200, create
without ``hosts``/``metadata``, delete with an empty body. Names are
checked before the schema, the schema before the policy, as nova does.
"""

import re

from occli.localcloud.app import Response
from occli.localcloud.common import fits_integer
from occli.localcloud.compute import aggregates
from occli.localcloud.compute.api import common
from occli.localcloud.compute.api import schemas

POLICY = "os_compute_api:os-aggregates:%s"
IMAGES_POLICY = "compute:aggregates:images"

# nova's parameter_types: valid_name_regex
_NAME_REASON = "printable characters. Can not start or end with whitespace."
_EDGE_SPACE = re.compile(r"^\s|\s$")


def register(service):
    service.api("GET", "/os-aggregates", list_aggregates)
    # admin only: the handlers check it (role=None: no project role first)
    service.api("POST", "/os-aggregates", create_aggregate, role=None)
    service.api("GET", "/os-aggregates/{aggregate_id}", show_aggregate)
    service.api("PUT", "/os-aggregates/{aggregate_id}", update_aggregate, role=None)
    service.api("DELETE", "/os-aggregates/{aggregate_id}", delete_aggregate, role=None)
    service.api("POST", "/os-aggregates/{aggregate_id}/action", aggregate_action, role=None)
    # checks, then accepts: stores nothing, so no write lock
    service.api(
        "POST",
        "/os-aggregates/{aggregate_id}/images",
        cache_images,
        min_version="2.81",
        role=None,
        mode="read",
    )


def view(req, row, full=True):
    """Nova's marshalled aggregate (``uuid`` from 2.41)."""
    metadata = aggregates.metadata(req.db, row["id"])
    body = {
        "availability_zone": metadata.get("availability_zone"),
        "created_at": row["created_at"],
        "deleted": False,
        "deleted_at": None,
        "id": row["id"],
        "name": row["name"],
        "updated_at": row["updated_at"],
    }
    if full:
        body["hosts"] = aggregates.host_names(req.db, row["id"])
        body["metadata"] = metadata
    if req.microversion >= "2.41":
        body["uuid"] = row["uuid"]
    return dict(sorted(body.items()))


def _reply(req, agg_id, updated_at=None):
    """The aggregate; ``updated_at``: the time a metadata change stamped on
    nova's object (answered, not stored)."""
    row = dict(aggregates.get(req.db, agg_id))
    if updated_at is not None:
        row["updated_at"] = updated_at
    return Response(200, {"aggregate": view(req, row)})


def _parse_id(req):
    """The integer ``{aggregate_id}`` (nova's ``validate_integer``: 400);
    one beyond any row id is nova's 404."""
    raw = req.params["aggregate_id"]
    try:
        agg_id = int(raw)
    except ValueError:
        raise common.bad_request("Invalid input received: id must be an integer") from None
    if not fits_integer(agg_id):
        raise aggregates.not_found(agg_id)
    return agg_id


def _check_name(value, reason):
    """nova's ``name`` format (InvalidName, 400). The zone's ``az_name``
    sits in a ``oneOf`` (string or null): nova reports that ``oneOf``, as
    the schema does (schemas._az)."""
    if isinstance(value, str) and (not value.isprintable() or _EDGE_SPACE.search(value)):
        raise common.bad_request(
            "An invalid 'name' value was provided. The name must be: %s" % reason
        )


def _check_names(body):
    _check_name(_dig(body, "aggregate", "name"), _NAME_REASON)


def _dig(body, *keys):
    for key in keys:
        if not isinstance(body, dict):
            return None
        body = body.get(key)
    return body


def list_aggregates(req):
    common.require_admin(req, POLICY % "index")
    return Response(200, {"aggregates": [view(req, r) for r in aggregates.select(req.db)]})


def create_aggregate(req):
    body = req.json()
    _check_names(body)
    schemas.validate(schemas.aggregate_create, body)
    common.require_admin(req, POLICY % "create")
    agg_id = aggregates.create(
        req.db, body["aggregate"]["name"], body["aggregate"].get("availability_zone")
    )
    return Response(200, {"aggregate": view(req, aggregates.get(req.db, agg_id), full=False)})


def show_aggregate(req):
    common.require_admin(req, POLICY % "show")
    return _reply(req, _parse_id(req))


def update_aggregate(req):
    body = req.json()
    _check_names(body)
    schemas.validate(schemas.aggregate_update, body)
    common.require_admin(req, POLICY % "update")
    agg_id = _parse_id(req)
    return _reply(req, agg_id, aggregates.update(req.db, agg_id, body["aggregate"]))


def delete_aggregate(req):
    common.require_admin(req, POLICY % "delete")
    aggregates.delete(req.db, _parse_id(req))
    return Response(200)


def aggregate_action(req):
    body = req.json()
    if not isinstance(body, dict) or len(body) != 1:
        raise common.bad_request("Malformed request body")
    action = next(iter(body))
    if action not in schemas.aggregate_actions:
        raise common.bad_request("There is no such action: %s" % action)
    schemas.validate(schemas.one_member(action, schemas.aggregate_actions[action]), body)
    common.require_admin(req, POLICY % action)
    agg_id = _parse_id(req)
    info = body[action]
    if action == "add_host":
        aggregates.add_host(req.db, agg_id, info["host"])
    elif action == "remove_host":
        aggregates.remove_host(req.db, agg_id, info["host"], req.params["aggregate_id"])
    else:
        return _reply(req, agg_id, aggregates.set_metadata(req.db, agg_id, info["metadata"]))
    return _reply(req, agg_id)


def cache_images(req):
    """``POST /os-aggregates/{id}/images`` (2.81): checks, then accepts."""
    body = req.json()
    schemas.validate(schemas.aggregate_images, body)
    common.require_admin(req, IMAGES_POLICY)
    agg_id = _parse_id(req)
    image_ids = [item["id"] for item in body["cache"]]
    if len(image_ids) != len(set(image_ids)):
        raise common.bad_request("Duplicate images in request")
    aggregates.check_cached_images(req.db, agg_id, image_ids, common.images(req))
    return Response(202)
