"""``/v1/AUTH_<project>/<container>``: PUT (201 created, 202 existing),
HEAD/GET (counts, metadata, its objects' listing) and DELETE. The rules are
in :mod:`occli.localcloud.objectstore.containers`."""

from occli.localcloud.app import Response
from occli.localcloud.objectstore import containers
from occli.localcloud.objectstore.api import common


def register(service):
    service.swift_route("GET", common.CONTAINER, get_container)
    service.swift_route("PUT", common.CONTAINER, put_container)
    service.swift_route("DELETE", common.CONTAINER, delete_container)


def put_container(req):
    common.authorize(req)
    created = containers.create(req.db, req.params["account"], req.params["container"])
    return Response(201 if created else 202, raw=b"", content_type="text/html; charset=UTF-8")


def get_container(req):
    via = common.authorize(req)
    row = containers.get(req.db, req.params["account"], req.params["container"])
    rows = containers.object_rows(req.db, row)
    headers = {
        "X-Container-Object-Count": len(rows),
        "X-Container-Bytes-Used": sum(o["size"] for o in rows),
        "X-Timestamp": common.x_timestamp(row["created_at"]),
    }
    headers.update(common.meta_out("Container", containers.metadata(row)))
    headers = common.for_caller(headers, via)
    listing = common.listing(
        req,
        [
            {
                "name": o["name"],
                "hash": o["etag"],
                "bytes": o["size"],
                "content_type": o["content_type"],
                "last_modified": common.iso_listing(o["timestamp"]),
            }
            for o in rows
        ],
    )
    return common.listing_response(req, listing, headers)


def delete_container(req):
    common.authorize(req)
    containers.delete(req.db, req.params["account"], req.params["container"])
    return Response(204)
