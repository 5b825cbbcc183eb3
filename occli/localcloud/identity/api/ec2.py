"""``/v3/users/{user_id}/credentials/OS-EC2[/{credential_id}]`` (list,
create, show, delete; ``credential_id`` the access key, as
keystone/api/users.py) and ``POST /v3/ec2tokens`` (keystone/api/ec2tokens.py:
a token for a correctly signed EC2 request, ``200`` with
``X-Subject-Token``); the rules are in :mod:`occli.localcloud.identity.ec2`."""

from occli.localcloud import errors
from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.identity import ec2
from occli.localcloud.identity.api import auth
from occli.localcloud.identity.api import common
from occli.localcloud.identity.api.credentials import caller_token

PATH = "/v3/users/{user_id}/credentials/OS-EC2"


def register(service):
    service.route("GET", PATH, list_ec2_credentials)
    service.route("POST", PATH, create_ec2_credential)
    service.route("GET", PATH + "/{credential_id}", get_ec2_credential)
    service.route("DELETE", PATH + "/{credential_id}", delete_ec2_credential)
    service.route("POST", "/v3/ec2tokens", ec2_tokens)


def _body(req, row):
    body = ec2.view(row)
    body["links"] = {
        "self": common.url(req, "users", row["user_id"], "credentials", "OS-EC2", body["access"])
    }
    return body


def list_ec2_credentials(req):
    """``GET /v3/users/{user_id}/credentials/OS-EC2``."""
    rows = ec2.select(req.db, req.context, caller_token(req), req.params["user_id"])
    return Response(200, common.collection(req, "credentials", [_body(req, r) for r in rows]))


def _json_or_empty(req):
    """keystone's ``request_body_json``: the body, ``{}`` if not JSON."""
    try:
        return req.json(required=False) or {}
    except HTTPError:
        return {}


def create_ec2_credential(req):
    """``POST /v3/users/{user_id}/credentials/OS-EC2`` (``tenant_id``)."""
    row = ec2.create(
        req.db, req.context, caller_token(req), req.params["user_id"], _json_or_empty(req)
    )
    return Response(201, {"credential": _body(req, row)})


def get_ec2_credential(req):
    """``GET /v3/users/{user_id}/credentials/OS-EC2/{credential_id}``."""
    row = ec2.owned(
        req.db,
        req.context,
        caller_token(req),
        req.params["user_id"],
        req.params["credential_id"],
        "ec2_get_credential",
    )
    return Response(200, {"credential": _body(req, row)})


def delete_ec2_credential(req):
    """``DELETE /v3/users/{user_id}/credentials/OS-EC2/{credential_id}``."""
    ec2.delete(
        req.db,
        req.context,
        caller_token(req),
        req.params["user_id"],
        req.params["credential_id"],
    )
    return Response(204)


def ec2_tokens(req):
    """``POST /v3/ec2tokens``: keystone's token body, its id in
    ``X-Subject-Token``; its 401s carry keystone's ``WWW-Authenticate``."""
    try:
        raw, token = ec2.authenticate(
            req.db, req.context, _json_or_empty(req), req.cloud.config.token_ttl
        )
    except errors.Unauthorized as exc:
        raise common.unauthorized(exc, req.base_url) from None
    return Response(
        200,
        auth._token_body(req, token, req.db),
        headers={"X-Subject-Token": raw, "Vary": "X-Auth-Token"},
    )
