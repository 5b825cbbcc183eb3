"""Glance's version discovery: ``/image/`` (300, the choices) and
``/image/versions`` (200), no token needed."""

from occli.localcloud.app import Response

VERSIONS = ("2.17", "2.16", "2.15", "2.9", "2.7", "2.6", "2.5", "2.4", "2.3", "2.2", "2.1", "2.0")


def register(service):
    service.route("GET", "/", versions, auth=False)
    service.route("GET", "/versions", versions_ok, auth=False)


def _versions(req):
    base = req.base_url + req.cloud.image.prefix
    return {
        "versions": [
            {
                "id": "v" + v,
                "status": "CURRENT" if i == 0 else "SUPPORTED",
                "links": [{"rel": "self", "href": base + "/v2/"}],
            }
            for i, v in enumerate(VERSIONS)
        ]
    }


def versions(req):
    return Response(300, _versions(req))


def versions_ok(req):
    return Response(200, _versions(req))
