"""``/group_types[/{group_type_id}[/group_specs[/{key}]]]`` (3.11, Cinder's
``cinder/api/v3/group_types.py`` and ``group_specs.py``; policies
``cinder/policies/group_types.py``): writes and spec reads are the
admin's, checked after the body as by Cinder's ``@validation.schema``;
``default`` is Cinder's 404 (no ``default_group_type`` is configured)."""

from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.volume import groups
from occli.localcloud.volume import schemas
from occli.localcloud.volume.api import common
from occli.localcloud.volume.api import microversions

TYPES = "/group_types"
TYPE = TYPES + "/{group_type_id}"
SPECS = TYPE + "/group_specs"
SPEC = SPECS + "/{key}"


def register(service):
    gate = microversions.GROUP_TYPE
    service.api("POST", TYPES, create_group_type, min_version=gate, role=None)
    service.api("GET", TYPES, list_group_types, min_version=gate)
    service.api("GET", TYPE, show_group_type, min_version=gate)
    service.api("PUT", TYPE, update_group_type, min_version=gate, role=None)
    service.api("DELETE", TYPE, delete_group_type, min_version=gate, role=None)
    service.api("GET", SPECS, list_group_specs, min_version=gate)
    service.api("POST", SPECS, create_group_specs, min_version=gate, role=None)
    service.api("GET", SPEC, show_group_spec, min_version=gate)
    service.api("PUT", SPEC, update_group_spec, min_version=gate, role=None)
    service.api("DELETE", SPEC, delete_group_spec, min_version=gate, role=None)


def _admin(req, rule):
    if not req.context.is_admin:
        raise common.policy_denied(rule)


def _show(req, row, status=200):
    return Response(status, {"group_type": groups.view(row, req.context.is_admin)})


def create_group_type(req):
    body = schemas.validate(groups.TYPE_CREATE, req.json())["group_type"]
    _admin(req, "group:group_types:create")
    row = groups.create(
        req.db,
        body["name"],
        body.get("description"),
        schemas.truthy(body.get("is_public", True)),
        body.get("group_specs"),
    )
    return _show(req, row, 202)


def list_group_types(req):
    found = groups.listing(req.db, public_only=not req.context.is_admin)
    admin = req.context.is_admin
    return Response(200, {"group_types": [groups.view(r, admin) for r in found]})


def show_group_type(req):
    type_id = req.params["group_type_id"]
    if type_id == "default":
        raise HTTPError(404, "Default group type can not be found.")
    return _show(req, groups.get(req.db, type_id))


def update_group_type(req):
    body = dict(schemas.validate(groups.TYPE_UPDATE, req.json())["group_type"])
    _admin(req, "group:group_types:update")
    if body.get("is_public") is not None:
        body["is_public"] = int(schemas.truthy(body["is_public"]))
    return _show(req, groups.update(req.db, req.params["group_type_id"], body))


def delete_group_type(req):
    _admin(req, "group:group_types:delete")
    groups.delete(req.db, req.params["group_type_id"])
    return Response(202)


def list_group_specs(req):
    _admin(req, "group:group_types_specs:get_all")
    return Response(200, {"group_specs": groups.specs(req.db, req.params["group_type_id"])})


def create_group_specs(req):
    body = schemas.validate(groups.SPECS_CREATE, req.json())
    _admin(req, "group:group_types_specs:create")
    groups.set_specs(req.db, req.params["group_type_id"], body["group_specs"])
    return Response(202, body)


def show_group_spec(req):
    _admin(req, "group:group_types_specs:get")
    type_id, key = req.params["group_type_id"], req.params["key"]
    specs = groups.specs(req.db, type_id)
    if key not in specs:
        raise HTTPError(404, "Group Type %s has no extra spec with key %s." % (type_id, key))
    return Response(200, {key: specs[key]})


def update_group_spec(req):
    body = schemas.validate(groups.SPEC_UPDATE, req.json())
    _admin(req, "group:group_types_specs:update")
    type_id, key = req.params["group_type_id"], req.params["key"]
    groups.specs(req.db, type_id)
    if key not in body:
        raise HTTPError(400, "Request body and URI mismatch")
    groups.set_specs(req.db, type_id, body)
    return Response(200, body)


def delete_group_spec(req):
    _admin(req, "group:group_types_specs:delete")
    groups.delete_spec(req.db, req.params["group_type_id"], req.params["key"])
    return Response(202)
