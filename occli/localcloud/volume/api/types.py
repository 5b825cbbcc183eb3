"""``/types``: volume types (``cinder/api/v3/types.py``, the admin's
``contrib/types_manage.py``), their ``extra_specs``
(``contrib/types_extra_specs.py``) and project access
(``contrib/volume_type_access.py``: ``os-volume-type-access`` and the
``addProjectAccess``/``removeProjectAccess`` actions). Reads are any
reader's; writes are the admin's, checked here in Cinder's order (the body's
schema first, as its ``@validation.schema`` runs before the policy)."""

import ast

from occli.localcloud import validation
from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.volume import schemas
from occli.localcloud.volume import types
from occli.localcloud.volume.api import common
from occli.localcloud.volume.api import microversions
from occli.localcloud.volume.api import views

TYPE = "/types/{type_id}"


def register(service):
    service.api("GET", "/types", list_types)
    service.api("POST", "/types", create_type, role=None)
    service.api("GET", "/types/default", show_default_type)
    service.api("GET", TYPE, show_type)
    service.api("PUT", TYPE, update_type, role=None)
    service.api("DELETE", TYPE, delete_type, role=None)
    service.api("POST", TYPE + "/action", type_action, role=None)
    service.api("GET", TYPE + "/os-volume-type-access", list_type_access, role=None)
    service.api("GET", TYPE + "/extra_specs", list_extra_specs)
    service.api("POST", TYPE + "/extra_specs", create_extra_specs, role=None)
    service.api("GET", TYPE + "/extra_specs/{key}", show_extra_spec)
    service.api("PUT", TYPE + "/extra_specs/{key}", update_extra_spec, role=None)
    service.api("DELETE", TYPE + "/extra_specs/{key}", delete_extra_spec, role=None)


def _admin(req, rule):
    if not req.context.is_admin:
        raise common.policy_denied(rule)


def _is_public_filter(req):
    """``api_utils._parse_is_public`` of the admin's ``is_public`` query
    (absent: public only; ``none``: all); others see public types."""
    if not req.context.is_admin:
        return True
    raw = common.query_params(req).get("is_public")
    if raw is None:
        return True
    if raw.lower() == "none":
        return None
    try:
        return validation.bool_from_string(raw, strict=True)
    except ValueError:
        raise HTTPError(400, "Invalid is_public filter [%s]" % raw) from None


def _extra_specs_filter(req, params):
    """The ``extra_specs`` query (a Python dict literal, Cinder's
    ``ast.literal_eval``): admins' at any version, others' from 3.52
    (before it Cinder drops the filter for them)."""
    raw = params.get("extra_specs")
    if raw is None:
        return None
    if not req.context.is_admin and req.microversion < microversions.VOLUME_TYPE_FILTER:
        return None
    try:
        value = ast.literal_eval(raw)
    except (ValueError, SyntaxError):
        value = None
    if not isinstance(value, dict):
        # Cinder fails here with a 500 (a str has no items())
        raise HTTPError(400, "Invalid input received: extra_specs filter must be a dict")
    return value


def list_types(req):
    """Cinder's type list: ``is_public`` (admins), ``sort``/``sort_key``/
    ``sort_dir``, ``marker``, ``limit`` and ``volume_type_links``."""
    params = common.query_params(req)
    order = types.sort_order(*common.sort(params))
    limit = common.limit(params)
    found = types.listing(
        req.db,
        req.context,
        _is_public_filter(req),
        order,
        params.get("marker"),
        limit,
        _extra_specs_filter(req, params),
    )
    body = {"volume_types": [types.view(t, req.context) for t in found]}
    link = views.next_link(req, "types", found, limit)
    if link:
        body["volume_type_links"] = link
    return Response(200, body)


def show_type(req):
    found = types.get(req.db, req.context, req.params["type_id"])
    return Response(200, {"volume_type": types.view(found, req.context)})


def show_default_type(req):
    """``GET /types/default``: the caller's project's default type, else
    the deployment's (shown without the access extension's key, as
    Cinder's cache misses it)."""
    found = types.default(req.db, req.context.project_id)
    return Response(200, {"volume_type": types.view(found, req.context, access=False)})


def create_type(req):
    body = schemas.validate(schemas.TYPE_CREATE, req.json())["volume_type"]
    _admin(req, "volume_extension:type_create")
    is_public = body.get("os-volume-type-access:is_public", True)
    created = types.create(
        req.db,
        body["name"],
        description=body.get("description"),
        extra_specs=body.get("extra_specs"),
        is_public=schemas.truthy(is_public),
    )
    return Response(200, {"volume_type": types.view(created, req.context, qos=False)})


def update_type(req):
    body = schemas.validate(schemas.TYPE_UPDATE, req.json())["volume_type"]
    _admin(req, "volume_extension:type_update")
    name, description = body.get("name"), body.get("description")
    is_public = body.get("is_public")
    if name and not name.strip():
        raise HTTPError(400, "Volume type name can not be empty.")
    if name is None and description is None and is_public is None:
        raise HTTPError(
            400, "Specify volume type name, description, is_public or a combination thereof."
        )
    updated = types.update(
        req.db,
        req.params["type_id"],
        name=name,
        description=description,
        is_public=None if is_public is None else schemas.truthy(is_public),
    )
    body = types.view(updated, req.context, access=False, qos=False)
    return Response(200, {"volume_type": body})


def delete_type(req):
    _admin(req, "volume_extension:type_delete")
    types.destroy(req.db, types.get(req.db, req.context, req.params["type_id"])["id"])
    return Response(202, content_type=common.WEBOB_TYPE)


def type_action(req):
    """``POST /types/{id}/action``: ``addProjectAccess`` or
    ``removeProjectAccess`` (admin), 202."""
    body = req.json()
    action = common.action_name(body)
    if action == "addProjectAccess":
        project = schemas.validate(schemas.ADD_PROJECT_ACCESS, body)[action]["project"]
        _admin(req, "volume_extension:volume_type_access:addProjectAccess")
        vtype = types.get(req.db, req.context, req.params["type_id"])
        types.add_access(req.db, vtype["id"], project)
    elif action == "removeProjectAccess":
        project = schemas.validate(schemas.REMOVE_PROJECT_ACCESS, body)[action]["project"]
        _admin(req, "volume_extension:volume_type_access:removeProjectAccess")
        vtype = types.get(req.db, req.context, req.params["type_id"])
        types.remove_access(req.db, vtype["id"], project)
    else:
        raise common.no_such_action(action)
    return Response(202, content_type=common.WEBOB_TYPE)


def list_type_access(req):
    _admin(req, "volume_extension:volume_type_access:get_all_for_type")
    vtype = types.get(req.db, req.context, req.params["type_id"])
    return Response(200, {"volume_type_access": types.access_list(req.db, vtype)})


def _type(req):
    return types.get(req.db, req.context, req.params["type_id"])


def list_extra_specs(req):
    return Response(200, {"extra_specs": types.extra_specs(_type(req), req.context)})


def create_extra_specs(req):
    body = schemas.validate(schemas.EXTRA_SPECS_CREATE, req.json())
    _admin(req, "volume_extension:types_extra_specs:create")
    types.check_unused(req.db, req.params["type_id"])
    types.set_extra_specs(req.db, _type(req), body["extra_specs"])
    return Response(200, body)


def show_extra_spec(req):
    key = req.params["key"]
    vtype = _type(req)
    specs = types.extra_specs(vtype, req.context)
    if key not in specs:
        raise HTTPError(404, "Volume Type %s has no extra specs with key %s." % (vtype["id"], key))
    return Response(200, {key: specs[key]})


def update_extra_spec(req):
    body = schemas.validate(schemas.EXTRA_SPEC_UPDATE, req.json())
    _admin(req, "volume_extension:types_extra_specs:update")
    types.check_unused(req.db, req.params["type_id"])
    vtype = _type(req)
    if req.params["key"] not in body:
        raise HTTPError(400, "Request body and URI mismatch")
    types.set_extra_specs(req.db, vtype, body, check=False)
    return Response(200, body)


def delete_extra_spec(req):
    vtype = _type(req)
    _admin(req, "volume_extension:types_extra_specs:delete")
    types.check_unused(req.db, vtype["id"])
    types.delete_extra_spec(req.db, vtype, req.params["key"])
    return Response(202)
