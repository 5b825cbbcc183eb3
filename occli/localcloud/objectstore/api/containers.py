"""``/v1/AUTH_<project>/<container>``: PUT (201 created, 202 existing;
both take metadata and the ``X-Container-Read``/``-Write`` ACLs), POST
(metadata and ACLs), HEAD/GET (counts, metadata, the ACLs for the owner,
its objects' listing) and DELETE. The rules are in
:mod:`occli.localcloud.objectstore.containers`."""

from occli.localcloud.app import Response
from occli.localcloud.objectstore import containers
from occli.localcloud.objectstore import expiry
from occli.localcloud.objectstore import slo
from occli.localcloud.objectstore.api import common


def register(service):
    service.swift_route("GET", common.CONTAINER, get_container)
    service.swift_route("PUT", common.CONTAINER, put_container)
    service.swift_route("POST", common.CONTAINER, post_container)
    # a DELETE first sweeps the container's expired objects, a batch per
    # transaction, and removes their files: it opens its own (mode None)
    service.swift_route("DELETE", common.CONTAINER, delete_container, mode=None)


def _acl_headers(environ):
    """``{"read"|"write": value}`` of the ACL headers a PUT or POST sends
    (``""``: remove, as ``X-Remove-Container-<Read|Write>`` asks)."""
    acls = {}
    for kind in ("read", "write"):
        value = environ.get("HTTP_X_CONTAINER_" + kind.upper())
        if environ.get("HTTP_X_REMOVE_CONTAINER_" + kind.upper()):
            value = ""
        if value is not None:
            acls[kind] = value
    return acls


def put_container(req):
    common.authorize(req)
    set_, remove = common.meta_headers(req.environ, "container")
    created = containers.create(
        req.db,
        req.params["account"],
        req.params["container"],
        set_,
        remove,
        _acl_headers(req.environ),
    )
    return Response(201 if created else 202, raw=b"", content_type="text/html; charset=UTF-8")


def post_container(req):
    common.authorize(req)
    set_, remove = common.meta_headers(req.environ, "container")
    containers.update(
        req.db,
        req.params["account"],
        req.params["container"],
        set_,
        remove,
        _acl_headers(req.environ),
    )
    return Response(204)


def get_container(req):
    via = common.authorize(req, acl=common.container_acl(req, "read"))
    row = containers.get(req.db, req.params["account"], req.params["container"])
    rows = containers.object_rows(req.db, row)
    headers = {
        "X-Container-Object-Count": len(rows),
        "X-Container-Bytes-Used": sum(o["size"] for o in rows),
        "X-Timestamp": common.x_timestamp(row["created_at"]),
        # swift/proxy/controllers/container.py convert_policy: its name
        "X-Storage-Policy": containers.POLICY,
    }
    headers.update(common.meta_out("Container", containers.metadata(row)))
    for kind, value in containers.acl(row).items():
        headers["X-Container-%s" % kind.title()] = value
    headers = common.for_caller(headers, via)
    listing = common.listing(req, [_item(o) for o in rows])
    return common.listing_response(req, listing, headers)


def _item(obj):
    """An object's listing entry; a static large object's manifest shows
    the large object's size and, as ``slo_etag``, its etag (slo's
    ``handle_container_listing``)."""
    item = {
        "name": obj["name"],
        "hash": obj["etag"],
        "bytes": slo.large_size(obj),
        "content_type": obj["content_type"],
        "last_modified": common.iso_listing(obj["timestamp"]),
    }
    if slo.is_slo(obj):
        item["slo_etag"] = '"%s"' % slo.large_etag(obj)
    return item


def delete_container(req):
    account, name = req.params["account"], req.params["container"]
    files = req.cloud.objectstore.files
    with common.reading(req) as db:
        common.authorize(req)
        containers.get(db, account, name)
    swept = expiry.SWEEP_BATCH
    while swept == expiry.SWEEP_BATCH:
        with req.cloud.store.transaction() as db:
            expired = expiry.sweep(db, expiry.now(), account, name)
        for file in expired:
            files.remove(file)
        swept = len(expired)
    with req.cloud.store.transaction() as db:
        expired = containers.delete(db, account, name)
    for file in expired:
        files.remove(file)
    return Response(204)
