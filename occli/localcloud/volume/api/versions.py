"""Cinder's version documents: ``/volume/`` (300, no token needed) and
``/volume/v3`` (behind the token check: cinder's api-paste.ini puts
``apiv3`` after ``authtoken``, recorded in
tests/fixtures/volume/realcloud/cinder-29-versions.json)."""

from occli.localcloud.app import Response
from occli.localcloud.volume.api import microversions

UPDATED = "2023-08-31T00:00:00Z"


def register(service):
    service.route("GET", "/", versions, auth=False)
    service.route("GET", "/v3", version)


def _document(req):
    return {
        "versions": [
            {
                "id": "v3.0",
                "links": [
                    {
                        "href": "https://docs.openstack.org/",
                        "rel": "describedby",
                        "type": "text/html",
                    },
                    {"href": req.base_url + req.cloud.volume.prefix + "/v3/", "rel": "self"},
                ],
                "media-types": [
                    {
                        "base": "application/json",
                        "type": "application/vnd.openstack.volume+json;version=3",
                    }
                ],
                "min_version": microversions.MIN_VERSION,
                "status": "CURRENT",
                "updated": UPDATED,
                "version": microversions.MAX_VERSION,
            }
        ]
    }


def versions(req):
    return Response(300, _document(req))


def version(req):
    return Response(200, _document(req))
