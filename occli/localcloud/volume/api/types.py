"""``/types``: the volume types (the seeded ``__DEFAULT__``), read-only."""

from occli.localcloud.app import Response
from occli.localcloud.volume import types


def register(service):
    service.api("GET", "/types", list_types)
    service.api("GET", "/types/{type_id}", show_type)


def list_types(req):
    return Response(
        200, {"volume_types": [types.view(t) for t in types.listing(req.db, req.context)]}
    )


def show_type(req):
    found = types.get(req.db, req.context, req.params["type_id"])
    return Response(200, {"volume_type": types.view(found)})
