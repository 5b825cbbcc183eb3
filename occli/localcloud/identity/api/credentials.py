"""``/v3/credentials``: list (``?user_id``, ``?type``; only what the
caller may read), create, show, update (PATCH), delete, as
keystone/api/credentials.py; the rules are in
:mod:`occli.localcloud.identity.credentials`."""

from occli.localcloud.app import Response
from occli.localcloud.app import Unauthenticated
from occli.localcloud.identity import credentials
from occli.localcloud.identity import tokens
from occli.localcloud.identity.api import common

PATH = "/v3/credentials"


def register(service):
    service.route("GET", PATH, list_credentials)
    service.route("POST", PATH, create_credential)
    service.route("GET", PATH + "/{credential_id}", get_credential)
    service.route("PATCH", PATH + "/{credential_id}", update_credential)
    service.route("DELETE", PATH + "/{credential_id}", delete_credential)


def caller_token(req):
    """The caller's loaded token (its delegation decides what it reaches)."""
    token = tokens.load(req.db, req.header("X-Auth-Token"))
    if token is None:
        raise Unauthenticated(req.base_url + "/v3")
    return token


def _body(req, row):
    return {
        "id": row["id"],
        "user_id": row["user_id"],
        "project_id": row["project_id"],
        "type": row["type"],
        "blob": row["blob"],
        "links": {"self": common.url(req, "credentials", row["id"])},
    }


def list_credentials(req):
    """``GET /v3/credentials[?user_id=&type=]``."""
    rows = credentials.select(
        req.db, req.context, caller_token(req), req.arg("user_id"), req.arg("type")
    )
    return Response(200, common.collection(req, "credentials", [_body(req, r) for r in rows]))


def create_credential(req):
    """``POST /v3/credentials``."""
    data = credentials.create_input(req.json())
    row = credentials.create(req.db, req.context, caller_token(req), data)
    return Response(201, {"credential": _body(req, row)})


def get_credential(req):
    """``GET /v3/credentials/{credential_id}``."""
    row = credentials.owned(
        req.db,
        req.context,
        caller_token(req),
        req.params["credential_id"],
        "get_credential",
        reading=True,
    )
    return Response(200, {"credential": _body(req, row)})


def update_credential(req):
    """``PATCH /v3/credentials/{credential_id}``."""
    data = credentials.update_input(req.json())
    row = credentials.update(
        req.db, req.context, caller_token(req), req.params["credential_id"], data
    )
    return Response(200, {"credential": _body(req, row)})


def delete_credential(req):
    """``DELETE /v3/credentials/{credential_id}``."""
    credentials.delete(req.db, req.context, caller_token(req), req.params["credential_id"])
    return Response(204)
