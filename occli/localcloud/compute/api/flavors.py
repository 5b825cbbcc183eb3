"""``/flavors``: nova's flavors, flavor-manage, flavor extra specs and
flavor access controllers.

- list (``?is_public`` for admins, ``minRam``, ``minDisk``, sorting,
  paging), detail and show; the flavor view by microversion. A caller who
  is not an admin sees the public flavors and the private ones their
  project has access to (a private flavor is otherwise a 404).
- ``POST /flavors`` (admin), ``PUT /flavors/{id}`` (2.55, the description),
  ``DELETE /flavors/{id}`` (202).
- ``/flavors/{id}/os-extra_specs[/{key}]``: list/show (any project role),
  create/update/delete (admin); from 2.86 known names and values are
  validated (:mod:`~occli.localcloud.compute.extra_specs`).
- ``GET /flavors/{id}/os-flavor-access`` and ``POST /flavors/{id}/action``
  (``addTenantAccess``/``removeTenantAccess``), admin.

As in nova, a body is validated before the policy, the policy before the
flavor is looked up; texts are nova 34's (checked against the real one,
``tests/fixtures/compute/realcloud/flavors.json``).
"""

import json

from occli.localcloud import validation
from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.common import fits_integer
from occli.localcloud.compute import extra_specs
from occli.localcloud.compute import flavors
from occli.localcloud.compute.api import common
from occli.localcloud.compute.api import schemas

MANAGE_POLICY = "os_compute_api:os-flavor-manage:%s"
SPECS_POLICY = "os_compute_api:os-flavor-extra-specs:%s"
ACCESS_POLICY = "os_compute_api:os-flavor-access"
# nova's schemas/flavors.py VALID_SORT_KEYS (rxtx_factor until 2.101)
_SORT_KEYS = sorted(flavors.SORT_KEYS)
_QUERY = ("limit", "marker", "is_public", "minRam", "minDisk", "sort_key", "sort_dir")
_NAME_REASON = "printable characters. Can not start or end with whitespace."
_MAX_INT = 0x7FFFFFFF
_MAX_FLOAT = 3.40282e38
# positive (ram, vcpus) and non-negative (disk, ephemeral, swap) sizes
_SIZES = (("ram", 1), ("vcpus", 1), ("disk", 0), ("OS-FLV-EXT-DATA:ephemeral", 0), ("swap", 0))


def register(service):
    service.api("GET", "/flavors", list_flavors)
    # admin only: the handlers check it (role=None: no project role first)
    service.api("POST", "/flavors", create_flavor, role=None)
    service.api("GET", "/flavors/detail", list_flavors_detail)
    service.api("GET", "/flavors/{flavor_id}", show_flavor)
    service.api("PUT", "/flavors/{flavor_id}", update_flavor, min_version="2.55", role=None)
    service.api("DELETE", "/flavors/{flavor_id}", delete_flavor, role=None)
    service.api("POST", "/flavors/{flavor_id}/action", flavor_action, role=None)
    service.api("GET", "/flavors/{flavor_id}/os-flavor-access", list_access)
    service.api("GET", "/flavors/{flavor_id}/os-extra_specs", list_specs)
    service.api("POST", "/flavors/{flavor_id}/os-extra_specs", create_specs, role=None)
    service.api("GET", "/flavors/{flavor_id}/os-extra_specs/{key}", show_spec)
    service.api("PUT", "/flavors/{flavor_id}/os-extra_specs/{key}", update_spec, role=None)
    service.api("DELETE", "/flavors/{flavor_id}/os-extra_specs/{key}", delete_spec, role=None)


def view(req, row, detail):
    body = {"id": row["id"], "name": row["name"], "links": common.links(req, "flavors", row["id"])}
    version = req.microversion
    if version >= "2.55":
        body["description"] = row["description"]
    if not detail:
        return body
    body.update(
        {
            "ram": row["memory_mb"],
            "disk": row["root_gb"],
            "vcpus": row["vcpus"],
            "OS-FLV-EXT-DATA:ephemeral": row["ephemeral_gb"],
            "swap": row["swap"] if row["swap"] or version >= "2.75" else "",
            "os-flavor-access:is_public": bool(row["is_public"]),
            "rxtx_factor": row["rxtx_factor"],
            "OS-FLV-DISABLED:disabled": bool(row["disabled"]),
        }
    )
    if version >= "2.61":
        body["extra_specs"] = json.loads(row["extra_specs"])
    return body


def _flavor(req):
    """The flavor of the URL as the caller may see it (else nova's 404)."""
    return flavors.get(req.db, req.params["flavor_id"], common.caller(req))


# -- list and show -------------------------------------------------------------


def _query_error(name, value, message):
    return common.bad_request(
        "Invalid input for query parameters %s. Value: %s. %s" % (name, value, message)
    )


def _check_query(req):
    """nova's index query schema: enums for the sort parameters and, from
    2.75, no other parameter than the known ones."""
    if req.microversion >= "2.75":
        unknown = [name for name in req.query if name not in _QUERY]
        if unknown:
            raise common.bad_request(
                "Additional properties are not allowed (%s %s unexpected)"
                % (", ".join(repr(u) for u in unknown), "was" if len(unknown) == 1 else "were")
            )
    for name, allowed in (("sort_key", _SORT_KEYS), ("sort_dir", list(flavors.SORT_DIRS))):
        for value in req.query.get(name, ()):
            if value not in allowed:
                raise _query_error(name, value, "%r is not one of %r" % (value, allowed))


def _public(req):
    """``is_public`` (admins only): True by default, ``none`` for all."""
    is_public = req.arg("is_public")
    if not req.context.is_admin or is_public is None:
        return True
    if is_public.lower() == "none":
        return None
    try:
        return validation.bool_from_string(is_public, strict=True)
    except ValueError:
        raise common.bad_request("Invalid is_public filter [%s]" % is_public) from None


def _minimum(req, param):
    value = req.arg(param)
    if value is None:
        return None
    try:
        minimum = int(value)
    except ValueError:
        minimum = None
    if minimum is None or not fits_integer(minimum):
        raise common.bad_request("Invalid %s filter [%s]" % (param, value))
    return minimum


def _list(req, detail):
    _check_query(req)
    public = _public(req)
    min_ram, min_disk = _minimum(req, "minRam"), _minimum(req, "minDisk")
    rows = flavors.select(
        req.db,
        common.caller(req),
        public,
        min_ram,
        min_disk,
        req.arg("sort_key") or "flavorid",
        req.arg("sort_dir") or "asc",
    )
    rows, next_links = common.paginate(
        req, rows, lambda r: r["id"], "flavors/detail" if detail else "flavors"
    )
    body = {"flavors": [view(req, r, detail) for r in rows]}
    if next_links:
        body["flavors_links"] = next_links
    return Response(200, body)


def list_flavors(req):
    return _list(req, detail=False)


def list_flavors_detail(req):
    return _list(req, detail=True)


def show_flavor(req):
    return Response(200, {"flavor": view(req, _flavor(req), detail=True)})


# -- flavor-manage -------------------------------------------------------------


def create_schema(version):
    """nova's ``create`` (2.1) and ``create_v255`` body schemas (the
    bounds of sizes given as strings are checked by :func:`_check_sizes`,
    as nova's validator converts them)."""
    size = {"type": ["integer", "string"], "pattern": "^[0-9]+$", "maximum": _MAX_INT}
    props = {
        "name": schemas.name,
        "id": {
            "type": ["string", "number", "null"],
            "minLength": 1,
            "maxLength": 255,
            "pattern": "^(?! )[a-zA-Z0-9. _-]+(?<! )$",
        },
        "rxtx_factor": {"type": ["number", "string"], "pattern": r"^[0-9]+(\.[0-9]+)?$"},
        "os-flavor-access:is_public": schemas.boolean,
    }
    for field, minimum in _SIZES:
        props[field] = dict(size, minimum=minimum)
    if version >= "2.55":
        props["description"] = {
            "type": ["string", "null"],
            "minLength": 0,
            "maxLength": 65535,
            "pattern": r"^[^\x00-\x1f\x7f]*$",
        }
    return schemas.one_member(
        "flavor",
        {
            "type": "object",
            "properties": props,
            "required": ["name", "ram", "vcpus", "disk"],
            "additionalProperties": False,
        },
    )


def _field_error(field, value, message):
    return common.bad_request(
        "Invalid input for field/attribute %s. Value: %s. %s" % (field, value, message)
    )


def _check_sizes(flavor):
    """The bounds nova checks on sizes (strings too) and rxtx_factor."""
    for field, minimum in _SIZES:
        value = flavor.get(field)
        if isinstance(value, str):
            number = int(value)
            if number < minimum:
                raise _field_error(
                    field, value, "%d is less than the minimum of %d" % (number, minimum)
                )
            if number > _MAX_INT:
                raise _field_error(
                    field, value, "%d is greater than the maximum of %d" % (number, _MAX_INT)
                )
    rxtx = flavor.get("rxtx_factor")
    if isinstance(rxtx, (int, float)) and rxtx <= 0:
        raise _field_error(
            "rxtx_factor", rxtx, "%r is less than or equal to the minimum of 0" % rxtx
        )
    if rxtx is not None and not 0 < float(rxtx) <= _MAX_FLOAT:
        # a string nova's schema lets through, refused by flavors.create
        raise common.bad_request(
            "Invalid input received: 'rxtx_factor' argument must be a float "
            "between 0 and %g" % _MAX_FLOAT
        )


def _check_name(flavor):
    """nova's ``name`` format (InvalidName): printable, no whitespace at
    either end."""
    name = flavor.get("name") if isinstance(flavor, dict) else None
    if isinstance(name, str) and (not name.isprintable() or name != name.strip()):
        raise common.bad_request(
            "An invalid 'name' value was provided. The name must be: %s" % _NAME_REASON
        )


def _is_public(value):
    return validation.bool_from_string(value)


def create_flavor(req):
    body = req.json()
    _check_name(body.get("flavor") if isinstance(body, dict) else None)
    flavor = schemas.validate(create_schema(req.microversion), body)["flavor"]
    _check_sizes(flavor)
    common.require_admin(req, MANAGE_POLICY % "create")
    row = flavors.create(
        req.db,
        flavor["name"],
        int(flavor["ram"]),
        int(flavor["vcpus"]),
        int(flavor["disk"]),
        flavor_id=flavor.get("id"),
        ephemeral=int(flavor.get("OS-FLV-EXT-DATA:ephemeral", 0)),
        swap=int(flavor.get("swap", 0)),
        rxtx_factor=float(flavor.get("rxtx_factor", 1.0)),
        is_public=_is_public(flavor.get("os-flavor-access:is_public", True)),
        description=flavor.get("description"),
    )
    return Response(200, {"flavor": view(req, row, detail=True)})


_UPDATE = schemas.one_member(
    "flavor",
    {
        "type": "object",
        "properties": {
            "description": {
                "type": ["string", "null"],
                "minLength": 0,
                "maxLength": 65535,
                "pattern": r"^[^\x00-\x1f\x7f]*$",
            }
        },
        "required": ["description"],
        "additionalProperties": False,
    },
)


def update_flavor(req):
    """``PUT /flavors/{id}`` (2.55): only the description changes."""
    body = schemas.validate(_UPDATE, req.json())
    common.require_admin(req, MANAGE_POLICY % "update")
    row = flavors.update_description(req.db, _flavor(req), body["flavor"]["description"])
    return Response(200, {"flavor": view(req, row, detail=True)})


def delete_flavor(req):
    common.require_admin(req, MANAGE_POLICY % "delete")
    flavors.delete(req.db, req.params["flavor_id"])
    return Response(202)


# -- flavor access -------------------------------------------------------------

_TENANT = {"type": "string", "minLength": 1, "maxLength": 255}


def _access_body(req, row):
    return Response(
        200,
        {
            "flavor_access": [
                {"flavor_id": row["id"], "tenant_id": project}
                for project in flavors.projects(req.db, row)
            ]
        },
    )


def list_access(req):
    common.require_admin(req, ACCESS_POLICY)
    row = _flavor(req)
    if row["is_public"]:
        raise common.not_found("Access list not available for public flavors.")
    return _access_body(req, row)


def _project_exists(req, project_id):
    """nova's ``identity.verify_project_id``: the project must exist."""
    if req.cloud.identity.project(req.db, project_id) is None:
        raise common.bad_request("Project ID %s is not a valid project." % project_id)


def flavor_action(req):
    """``addTenantAccess`` / ``removeTenantAccess`` (nova's
    FlavorActionController)."""
    body = req.json()
    if not isinstance(body, dict) or len(body) != 1:
        raise common.bad_request("Malformed request body")
    action = next(iter(body))
    if action not in ("addTenantAccess", "removeTenantAccess"):
        raise common.bad_request("There is no such action: %s" % action)
    schemas.validate(
        schemas.one_member(action, schemas.one_member("tenant", _TENANT)),
        body,
    )
    tenant = body[action]["tenant"]
    if action == "addTenantAccess":
        common.require_admin(req, ACCESS_POLICY + ":add_tenant_access")
        _project_exists(req, tenant)
        row = _flavor(req)
        if req.microversion >= "2.7" and row["is_public"]:
            raise HTTPError(409, "Can not add access to a public flavor.")
        flavors.add_access(req.db, row, tenant)
    else:
        common.require_admin(req, ACCESS_POLICY + ":remove_tenant_access")
        # as in nova, a project that does not exist (any more) can still
        # be removed from the list
        row = _flavor(req)
        flavors.remove_access(req.db, row, tenant)
    return _access_body(req, row)


# -- extra specs -----------------------------------------------------------------

_SPEC_KEY = "^[a-zA-Z0-9-_:. ]{1,255}$"
_SPECS = {
    "type": "object",
    "patternProperties": {_SPEC_KEY: {"type": ["string", "number"], "maxLength": 255}},
    "additionalProperties": False,
}
_CREATE_SPECS = schemas.one_member("extra_specs", _SPECS)
_UPDATE_SPEC = dict(_SPECS, minProperties=1, maxProperties=1)


def _check_spec_values(req, specs):
    """nova's ``_check_extra_specs_value``: numbers at most 255 characters
    long; from 2.86 the names and values nova knows."""
    for name, value in specs.items():
        if isinstance(value, (int, float)) and len(str(value)) > 255:
            raise common.bad_request(
                "extra_specs value has %d characters, more than 255." % len(str(value))
            )
        if req.microversion >= "2.86":
            extra_specs.validate(name, value)


def list_specs(req):
    return Response(200, {"extra_specs": flavors.extra_specs(_flavor(req))})


def create_specs(req):
    body = schemas.validate(_CREATE_SPECS, req.json())
    common.require_admin(req, SPECS_POLICY % "create")
    _check_spec_values(req, body["extra_specs"])
    flavors.set_extra_specs(req.db, _flavor(req), body["extra_specs"])
    return Response(200, body)


def show_spec(req):
    key = req.params["key"]
    return Response(200, {key: flavors.extra_spec(_flavor(req), key)})


def update_spec(req):
    body = schemas.validate(_UPDATE_SPEC, req.json())
    common.require_admin(req, SPECS_POLICY % "update")
    _check_spec_values(req, body)
    if req.params["key"] not in body:
        raise common.bad_request("Request body and URI mismatch")
    flavors.set_extra_specs(req.db, _flavor(req), body)
    return Response(200, body)


def delete_spec(req):
    common.require_admin(req, SPECS_POLICY % "delete")
    flavors.delete_extra_spec(req.db, _flavor(req), req.params["key"])
    return Response(200)
