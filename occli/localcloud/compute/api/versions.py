"""Nova's version documents: ``/compute/`` (both versions), ``/compute/v2/``
and ``/compute/v2.1/`` (no token needed)."""

from occli.localcloud.app import Response
from occli.localcloud.compute.api import common
from occli.localcloud.compute.api import microversions

_V20 = {
    "id": "v2.0",
    "status": "DEPRECATED",
    "version": "",
    "min_version": "",
    "updated": "2025-07-04T12:00:00Z",
}
_V21 = {
    "id": "v2.1",
    "status": "CURRENT",
    "version": microversions.MAX_VERSION,
    "min_version": microversions.MIN_VERSION,
    "updated": "2013-07-23T11:33:21Z",
}


def register(service):
    service.route("GET", "/", versions, auth=False)
    service.route("GET", "/v2", version_v2, auth=False)
    service.route("GET", common.API_PREFIX, version_v21, auth=False)


def _links(req, path):
    return [{"rel": "self", "href": "%s/%s/" % (common.root_url(req), path)}]


def versions(req):
    return Response(
        200,
        {"versions": [dict(_V20, links=_links(req, "v2")), dict(_V21, links=_links(req, "v2.1"))]},
    )


def _document(req, doc, path, media_version):
    links = _links(req, path) + [
        {"rel": "describedby", "type": "text/html", "href": "http://docs.openstack.org/"}
    ]
    return Response(
        200,
        {
            "version": dict(
                doc,
                links=links,
                **{
                    "media-types": [
                        {
                            "base": "application/json",
                            "type": "application/vnd.openstack.compute+json;version=%s"
                            % media_version,
                        }
                    ]
                },
            )
        },
    )


def version_v2(req):
    return _document(req, _V20, "v2", "2")


def version_v21(req):
    return _document(req, _V21, "v2.1", "2.1")


def choices(req, path):
    """nova's ``VersionsController.multi`` (300): what its root versions app
    answers for any other path outside the APIs, ``path`` under each."""
    return {
        "choices": [
            {
                "id": doc["id"],
                "status": doc["status"],
                "links": [{"rel": "self", "href": "%s/%s%s" % (common.root_url(req), name, path)}],
                "media-types": [
                    {
                        "base": "application/json",
                        "type": "application/vnd.openstack.compute+json;version=%s" % media,
                    }
                ],
            }
            for doc, name, media in ((_V20, "v2", "2"), (_V21, "v2.1", "2.1"))
        ]
    }
