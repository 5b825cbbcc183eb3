"""Keystone's version discovery: ``/`` (300, the choices) and ``/v3``, no
token needed."""

from occli.localcloud.app import Response

VERSION = "v3.14"
VERSION_UPDATED = "2020-04-07T00:00:00Z"


def register(service):
    service.route("GET", "/", versions, auth=False)
    service.route("GET", "/v3", version, auth=False)


def _version(req):
    return {
        "id": VERSION,
        "status": "stable",
        "updated": VERSION_UPDATED,
        "links": [{"rel": "self", "href": req.base_url + "/v3/"}],
        "media-types": [
            {"base": "application/json", "type": "application/vnd.openstack.identity-v3+json"}
        ],
    }


def versions(req):
    return Response(
        300,
        {"versions": {"values": [_version(req)]}},
        headers={"Location": req.base_url + "/v3/"},
    )


def version(req):
    return Response(200, {"version": _version(req)})
