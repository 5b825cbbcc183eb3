"""``/default-types[/{project_id}]`` (3.62, ``cinder/api/v3/
default_types.py``): an admin sets, shows and unsets a project's default
volume type; only a system admin lists them all (the local cloud's admin).
Refusals are Cinder's ``validate_project_and_authorize`` 403. The project
is not looked up in Keystone (Cinder asks it with the caller's token)."""

from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.volume import default_types
from occli.localcloud.volume import schemas
from occli.localcloud.volume.api import common
from occli.localcloud.volume.api import microversions

ONE = "/default-types/{target_project_id}"


def register(service):
    gate = microversions.DEFAULT_TYPE_OVERRIDES
    service.api("PUT", ONE, set_default_type, min_version=gate, role=None)
    service.api("GET", "/default-types", list_default_types, min_version=gate)
    service.api("GET", ONE, show_default_type, min_version=gate)
    service.api("DELETE", ONE, unset_default_type, min_version=gate, role=None)


def _admin(req):
    if not req.context.is_admin:
        raise HTTPError(403, "You are not authorized to perform this operation.")


def set_default_type(req):
    body = schemas.validate(schemas.DEFAULT_TYPE_SET, req.json())
    _admin(req)
    row = default_types.set_default(
        req.db,
        req.context,
        req.params["target_project_id"],
        body["default_type"]["volume_type"],
    )
    return Response(200, {"default_type": default_types.view(row)})


def list_default_types(req):
    _admin(req)
    found = default_types.listing(req.db)
    return Response(200, {"default_types": [default_types.view(r) for r in found]})


def show_default_type(req):
    _admin(req)
    row = default_types.get(req.db, req.params["target_project_id"])
    return Response(200, {"default_type": default_types.view(row)})


def unset_default_type(req):
    _admin(req)
    default_types.unset(req.db, req.params["target_project_id"])
    return Response(204, headers={"Content-Type": common.SERIALIZED_EMPTY_204})
