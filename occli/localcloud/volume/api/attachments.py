"""``/attachments`` (3.27): the attachment records Nova makes, read-only
(list, detail, show)."""

from occli.localcloud.app import Response
from occli.localcloud.volume import attachments
from occli.localcloud.volume.api import common
from occli.localcloud.volume.api import microversions


def register(service):
    since = microversions.NEW_ATTACH
    service.api("GET", "/attachments", list_attachments, min_version=since)
    service.api("GET", "/attachments/detail", list_attachments_detail, min_version=since)
    service.api("GET", "/attachments/{attachment_id}", show_attachment, min_version=since)


def _list(req, detail):
    params = common.query_params(req)
    filters = common.filters(req, params, attachments.FILTERS)
    rows = attachments.listing(req.db, req.context, "all_tenants" in params, filters)
    limit = common.limit(params)
    rows = rows if limit is None else rows[:limit]
    return Response(200, {"attachments": [attachments.view(r, detail) for r in rows]})


def list_attachments(req):
    return _list(req, False)


def list_attachments_detail(req):
    return _list(req, True)


def show_attachment(req):
    row = attachments.get(req.db, req.context, req.params["attachment_id"])
    return Response(200, {"attachment": attachments.view(row, True)})
