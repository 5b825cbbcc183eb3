"""``/os-server-groups``: nova's ``ServerGroupController``.

Shapes by microversion: ``policies`` (one of them) and an empty
``metadata`` before 2.64, ``policy`` and ``rules`` from 2.64;
``project_id``/``user_id`` from 2.13; the soft policies from 2.15. List:
the caller's project's groups (every project's with ``all_projects``, for
admins only: anybody else silently gets their own, as in nova), paged with
``limit``/``offset``; unknown query parameters are a 400 from 2.75.
Another project's group is 404 (``Instance group <id> could not be
found.``), as from nova 34. Create answers 200.
"""

import copy
from typing import Any

from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.compute import server_groups
from occli.localcloud.compute.api import common
from occli.localcloud.compute.api import schemas

MAX_LIMIT = 1000

_create: dict[str, Any] = schemas.one_member(
    "server_group",
    {
        "type": "object",
        "properties": {
            "name": schemas.name,
            "policies": {
                "type": "array",
                "items": [{"type": "string", "enum": ["anti-affinity", "affinity"]}],
                "uniqueItems": True,
                "minItems": 1,
                "maxItems": 1,
                "additionalItems": False,
            },
        },
        "required": ["name", "policies"],
        "additionalProperties": False,
    },
)
_create_v215 = copy.deepcopy(_create)
_create_v215["properties"]["server_group"]["properties"]["policies"]["items"][0]["enum"] += [
    "soft-anti-affinity",
    "soft-affinity",
]
_create_v264 = copy.deepcopy(_create_v215)
_group_v264 = _create_v264["properties"]["server_group"]
del _group_v264["properties"]["policies"]
_group_v264["required"] = ["name", "policy"]
_group_v264["properties"]["policy"] = {
    "type": "string",
    "enum": ["anti-affinity", "affinity", "soft-anti-affinity", "soft-affinity"],
}
_group_v264["properties"]["rules"] = {
    "type": "object",
    "properties": {"max_server_per_host": schemas.positive_integer},
    "additionalProperties": False,
}

_QUERY = ("all_projects", "limit", "offset")


def register(service):
    service.api("GET", "/os-server-groups", list_groups)
    service.api("POST", "/os-server-groups", create_group)
    service.api("GET", "/os-server-groups/{group_id}", show_group)
    service.api("DELETE", "/os-server-groups/{group_id}", delete_group)


def create_schema(version):
    if version >= "2.64":
        return _create_v264
    if version >= "2.15":
        return _create_v215
    return _create


def view(req, group, members):
    """Nova's ``_format_server_group`` at the request's microversion."""
    body = {"id": group["uuid"], "name": group["name"]}
    if req.microversion >= "2.64":
        body["policy"] = group["policy"]
        body["rules"] = group["rules"]
    else:
        body["policies"] = [group["policy"]]
        body["metadata"] = {}
    body["members"] = members
    if req.microversion >= "2.13":
        body["project_id"] = group["project_id"]
        body["user_id"] = group["user_id"]
    return body


def _one(req, group):
    members = server_groups.members(req.db, [group["id"]])
    return {"server_group": view(req, group, members.get(group["id"], []))}


def _non_negative(req, name):
    """Nova's ``non_negative_integer`` query parameter (the last value)."""
    raw = req.arg(name)
    if raw is None:
        return None
    for value in req.query[name]:
        if not value.isdigit():
            raise common.bad_request(
                "Invalid input for query parameters %s. Value: %s. '%s' does not match "
                "'^[0-9]*$'" % (name, value, value)
            )
    return common.parse_integer(raw, name)


def list_groups(req):
    if req.microversion >= "2.75":
        for name in req.query:
            if name not in _QUERY:
                raise HTTPError(
                    400, "Additional properties are not allowed ('%s' was unexpected)" % name
                )
    limit, offset = _non_negative(req, "limit"), _non_negative(req, "offset") or 0
    caller = common.caller(req)
    groups = server_groups.select(req.db, caller, all_projects="all_projects" in req.query)
    # nova's common.limited: 0 or no limit is the maximum
    page = groups[offset : offset + min(limit or MAX_LIMIT, MAX_LIMIT)]
    members = server_groups.members(req.db, [g["id"] for g in page])
    return Response(200, {"server_groups": [view(req, g, members.get(g["id"], [])) for g in page]})


def create_group(req):
    body = schemas.validate(create_schema(req.microversion), req.json())["server_group"]
    if req.microversion >= "2.64":
        policy, rules = body["policy"], body.get("rules", {})
        rules = {k: int(v) for k, v in rules.items()}
    else:
        policy, rules = body["policies"][0], {}
    group = server_groups.create(req.db, common.caller(req), body["name"], policy, rules)
    return Response(200, _one(req, group))


def show_group(req):
    return Response(
        200, _one(req, server_groups.get(req.db, common.caller(req), req.params["group_id"]))
    )


def delete_group(req):
    server_groups.delete(req.db, common.caller(req), req.params["group_id"])
    return Response(204)
