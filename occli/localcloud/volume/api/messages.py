"""``/messages`` (3.3, ``cinder/api/v3/messages.py``): list (filters,
sorting and paging from 3.5), show and delete of the project's user
messages, in Cinder's view (``cinder/api/v3/views/messages.py``)."""

from typing import Any

from occli.localcloud.app import Response
from occli.localcloud.volume import messages
from occli.localcloud.volume.api import common
from occli.localcloud.volume.api import views

# cinder/api/microversions.py
MESSAGES = "3.3"
MESSAGES_PAGINATION = "3.5"


def register(service):
    service.api("GET", "/messages", list_messages, min_version=MESSAGES)
    service.api("GET", "/messages/{message_id}", show_message, min_version=MESSAGES)
    service.api("DELETE", "/messages/{message_id}", delete_message, min_version=MESSAGES)


def view(req, message):
    found = {
        "id": message["id"],
        "event_id": message["event_id"],
        "user_message": messages.user_message(message),
        "message_level": message["message_level"],
        "created_at": message["created_at"],
        "guaranteed_until": message["expires_at"],
        "request_id": message["request_id"],
        "links": views.links(req, "messages", message["id"]),
    }
    if message["resource_type"]:
        found["resource_type"] = message["resource_type"]
    if message["resource_uuid"]:
        found["resource_uuid"] = message["resource_uuid"]
    return found


def _message(req):
    return messages.get(req.db, req.context, req.params["message_id"])


def list_messages(req):
    params = common.query_params(req)
    filters: dict[str, Any] = {}
    order = messages.sort_order(["created_at"], ["desc"])
    marker = limit = None
    if req.microversion >= MESSAGES_PAGINATION:
        filters = common.filters(req, params, messages.FILTERS)
        order = messages.sort_order(*common.sort(params))
        marker, limit = params.get("marker"), common.limit(params)
    found = messages.listing(req.db, common.scope(req, params), filters, order, marker, limit)
    body: dict[str, Any] = {"messages": [view(req, m) for m in found]}
    link = views.next_link(req, "messages", found, limit)
    if link:
        body["messages_links"] = link
    return Response(200, body)


def show_message(req):
    return Response(200, {"message": view(req, _message(req))})


def delete_message(req):
    messages.delete(req.db, _message(req))
    return Response(204)
