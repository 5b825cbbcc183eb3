"""``/os-keypairs``: import or generate, list (paged from 2.35), show and
delete; another user's keypairs (2.10 ``user_id``) are admin-only."""

import re

from occli.localcloud.app import Response
from occli.localcloud.compute import keypairs
from occli.localcloud.compute import quotas
from occli.localcloud.compute.api import common
from occli.localcloud.compute.api import schemas


def register(service):
    service.api("GET", "/os-keypairs", list_keypairs)
    service.api("POST", "/os-keypairs", create_keypair, role=None)
    service.api("GET", "/os-keypairs/{name}", show_keypair)
    service.api("DELETE", "/os-keypairs/{name}", delete_keypair, role=None)


def _view(req, row, fields):
    body = {
        "name": row["name"],
        "public_key": row["public_key"],
        "fingerprint": row["fingerprint"],
    }
    if "user_id" in fields:
        body["user_id"] = row["user_id"]
    if req.microversion >= "2.2":
        body["type"] = row["type"]
    if "record" in fields:
        body.update(
            {
                "id": row["id"],
                "created_at": row["created_at"],
                "updated_at": None,
                "deleted": False,
                "deleted_at": None,
            }
        )
    return body


def _user(req, requested, rule):
    """The user acted for: the caller, or (admin only) ``requested``."""
    if requested is None or requested == req.context.user_id:
        return req.context.user_id
    common.require_admin(req, rule)
    return requested


def _target_user(req, rule="index"):
    """The user of ``?user_id`` (2.10, admin only: nova's policy ``rule``
    is ``os_compute_api:os-keypairs:<rule>``), else the caller."""
    requested = req.arg("user_id") if req.microversion >= "2.10" else None
    return _user(req, requested, "os_compute_api:os-keypairs:" + rule)


def create_keypair(req):
    data = schemas.validate(schemas.keypair_create(req.microversion), req.json())["keypair"]
    user_id = _user(req, data.get("user_id"), "os_compute_api:os-keypairs:create")
    row, private_key = keypairs.create(
        req.db,
        user_id,
        data["name"],
        data.get("type", "ssh"),
        data.get("public_key"),
        limit=quotas.keypair_limit(req.db, req.context.project_id),
    )
    body = _view(req, row, ("user_id",))
    if private_key is not None:
        body["private_key"] = private_key
    return Response(201 if req.microversion >= "2.2" else 200, {"keypair": body})


def _check_query(req, allowed):
    """nova's keypairs query schemas from 2.75: additionalProperties false."""
    if req.microversion >= "2.75":
        common.reject_extra_params(req, allowed)


def list_keypairs(req):
    _check_query(req, ("user_id", "limit", "marker"))
    if req.microversion >= "2.35":
        # nova's index_query_v235: limit is a non-negative integer
        for value in req.query.get("limit", ()):
            if not re.match(r"^[0-9]*$", value):
                raise common.bad_request(
                    "Invalid input for query parameters limit. Value: %s. "
                    "%r does not match '^[0-9]*$'" % (value, value)
                )
    rows = keypairs.select(req.db, _target_user(req))
    next_links = None
    if req.microversion >= "2.35":
        rows, next_links = common.paginate(
            req,
            rows,
            lambda r: r["name"],
            "os-keypairs",
            marker_message="Marker %s could not be found.",
        )
    body = {"keypairs": [{"keypair": _view(req, r, ())} for r in rows]}
    if next_links:
        body["keypairs_links"] = next_links
    return Response(200, body)


def _lookup(req, rule):
    return keypairs.get(req.db, _target_user(req, rule), req.params["name"])


def show_keypair(req):
    _check_query(req, ("user_id",))
    return Response(200, {"keypair": _view(req, _lookup(req, "show"), ("user_id", "record"))})


def delete_keypair(req):
    _check_query(req, ("user_id",))
    keypairs.delete(req.db, _lookup(req, "delete"))
    return Response(204 if req.microversion >= "2.2" else 202)
