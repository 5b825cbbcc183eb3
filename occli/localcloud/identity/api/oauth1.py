"""``/v3/OS-OAUTH1/consumers``: create (the secret shown once), list,
show, update, delete; admin only (keystone/common/policies/consumer.py);
the rules are in :mod:`occli.localcloud.identity.oauth1`."""

import json

from occli.localcloud.app import Response
from occli.localcloud.identity import admin_schemas
from occli.localcloud.identity import oauth1
from occli.localcloud.identity import policy
from occli.localcloud.identity.api import common

PATH = "/v3/OS-OAUTH1/consumers"


def register(service):
    service.route("GET", PATH, list_consumers)
    service.route("POST", PATH, create_consumer)
    service.route("GET", PATH + "/{consumer_id}", get_consumer)
    service.route("PATCH", PATH + "/{consumer_id}", update_consumer)
    service.route("DELETE", PATH + "/{consumer_id}", delete_consumer)


def _body(req, row, secret=False):
    body = dict(json.loads(row["extra"]), id=row["id"], description=row["description"])
    if secret:
        body["secret"] = row["secret"]
    body["links"] = {"self": common.url(req, "OS-OAUTH1", "consumers", row["id"])}
    return body


def _consumer_body(req):
    body = req.json()
    return body.get("consumer", {}) if isinstance(body, dict) else {}


def create_consumer(req):
    """``POST /v3/OS-OAUTH1/consumers``."""
    data = _consumer_body(req)
    policy.admin_only(req.context, "create_consumer")
    data = admin_schemas.check_lazy("CONSUMER_CREATE", data)
    row = oauth1.create(req.db, data)
    return Response(201, {"consumer": _body(req, row, secret=True)})


def list_consumers(req):
    """``GET /v3/OS-OAUTH1/consumers``."""
    policy.admin_only(req.context, "list_consumers")
    rows = oauth1.select(req.db)
    return Response(200, common.collection(req, "consumers", [_body(req, r) for r in rows]))


def get_consumer(req):
    """``GET /v3/OS-OAUTH1/consumers/{consumer_id}``."""
    policy.admin_only(req.context, "get_consumer")
    return Response(200, {"consumer": _body(req, oauth1.get(req.db, req.params["consumer_id"]))})


def update_consumer(req):
    """``PATCH /v3/OS-OAUTH1/consumers/{consumer_id}`` (never its secret)."""
    data = _consumer_body(req)
    policy.admin_only(req.context, "update_consumer")
    data = admin_schemas.check_lazy("CONSUMER_UPDATE", data)
    row = oauth1.update(req.db, req.params["consumer_id"], data)
    return Response(200, {"consumer": _body(req, row)})


def delete_consumer(req):
    """``DELETE /v3/OS-OAUTH1/consumers/{consumer_id}``."""
    policy.admin_only(req.context, "delete_consumer")
    oauth1.delete(req.db, req.params["consumer_id"])
    return Response(204)
