"""``/v2/images/{image_id}/members``: list, add, show, update (the
member's status) and remove an image's members, as Glance 33's
``glance/api/v2/image_members.py``; the rules are in
:mod:`occli.localcloud.image.members`."""

from occli.localcloud.app import Response
from occli.localcloud.image import members
from occli.localcloud.image.api.body import json_body

MEMBERS = "/v2/images/{image_id}/members"
MEMBER = MEMBERS + "/{member_id}"


def register(service):
    service.route("GET", MEMBERS, list_members)
    service.route("POST", MEMBERS, add_member)
    service.route("GET", MEMBER, show_member)
    service.route("PUT", MEMBER, update_member)
    service.route("DELETE", MEMBER, remove_member)


def list_members(req):
    found = members.list_members(req.db, req.context, req.params["image_id"])
    return Response(200, {"members": found, "schema": "/v2/schemas/members"})


def add_member(req):
    """``POST …/members`` ``{"member": <project>}``: 200 (not 201, as
    Glance), the pending membership."""
    member = members.parse_member(json_body(req))
    return Response(200, members.add(req.db, req.context, req.params["image_id"], member))


def show_member(req):
    image_id, member_id = req.params["image_id"], req.params["member_id"]
    return Response(200, members.show(req.db, req.context, image_id, member_id))


def update_member(req):
    """``PUT …/members/{member}`` ``{"status": …}``: 200, the membership."""
    status = members.parse_status(json_body(req))
    image_id, member_id = req.params["image_id"], req.params["member_id"]
    return Response(200, members.update(req.db, req.context, image_id, member_id, status))


def remove_member(req):
    image_id, member_id = req.params["image_id"], req.params["member_id"]
    members.remove(req.db, req.context, image_id, member_id)
    # glance's own webob.Response(status=204): no Content-Type (Service.after)
    return Response(204, content_type=None)
