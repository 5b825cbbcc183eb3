"""Heat's version document: ``/orchestration/`` (300), no token needed."""

from occli.localcloud.app import Response


def register(service):
    service.route("GET", "/", versions, auth=False)


def versions(req):
    href = req.base_url + req.cloud.orchestration.prefix + "/v1/"
    return Response(
        300,
        {
            "versions": [
                {"id": "v1.0", "status": "CURRENT", "links": [{"rel": "self", "href": href}]}
            ]
        },
    )
