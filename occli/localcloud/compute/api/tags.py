"""``/servers/{id}/tags`` and ``…/tags/{tag}`` (2.26+, a bare 404 before):
nova's ``ServerTagsController``.

Checks in nova's order: the body schema, the server (another project's is
404 here: nova 34 answers 403 for it, which tells it exists), the state
for writes (409), the tag text (400 with nova's message), the count.
``PUT …/tags/{tag}`` answers 201 with a ``Location`` for a new tag, 204
for one the server has.
"""

from occli.localcloud import errors
from occli.localcloud.app import Response
from occli.localcloud.compute import servers
from occli.localcloud.compute import tags
from occli.localcloud.compute.api import common
from occli.localcloud.compute.api import schemas

MIN_VERSION = "2.26"

_update_all = {
    "title": "Server tags",
    "type": "object",
    "properties": {
        "tags": {"type": "array", "items": schemas.tag, "maxItems": tags.MAX_TAGS},
    },
    "required": ["tags"],
    "additionalProperties": False,
}
_update = {"title": "Server tag", "type": "null"}


def register(service):
    path = "/servers/{server_id}/tags"
    for method, pattern, handler in (
        ("GET", path, list_tags),
        ("PUT", path, replace_tags),
        ("DELETE", path, delete_all_tags),
        ("GET", path + "/{tag}", show_tag),
        ("PUT", path + "/{tag}", add_tag),
        ("DELETE", path + "/{tag}", delete_tag),
    ):
        service.api(method, pattern, handler, min_version=MIN_VERSION)


def _server(req):
    """The server (nova looks its cell mapping up first: the text)."""
    server_id = req.params["server_id"]
    try:
        return servers.get(req.db, common.caller(req), server_id, common.progress(req))
    except errors.NotFound:
        raise common.not_found("Instance %s has no mapping to a cell." % server_id) from None


def list_tags(req):
    return Response(200, {"tags": tags.of(_server(req))})


def show_tag(req):
    tags.has(_server(req), req.params["tag"])
    return Response(204)


def replace_tags(req):
    body = schemas.validate(_update_all, req.json())
    return Response(200, {"tags": tags.replace(req.db, _server(req), body["tags"])})


def add_tag(req):
    schemas.validate(_update, req.json(required=False))
    server, tag = _server(req), req.params["tag"]
    tags.check_writable(server, "update tag")
    try:
        schemas.validate(schemas.tag, tag)
    except errors.BadRequest as exc:  # the schema's message: the tag has no path
        raise common.bad_request(
            "Tag '%s' is invalid. It must be a non empty string without characters '/' "
            "and ','. Validation error message: %s" % (tag, exc.message)
        ) from None
    if not tags.add(req.db, server, tag):
        return Response(204)
    location = common.api_url(req, "servers", server["id"], "tags", tag)
    return Response(201, None, headers={"Location": location})


def delete_tag(req):
    tags.remove(req.db, _server(req), req.params["tag"])
    return Response(204)


def delete_all_tags(req):
    tags.clear(req.db, _server(req))
    return Response(204)
