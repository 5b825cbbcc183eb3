"""``/os-quota-sets`` and ``/os-quota-class-sets``: nova's
``QuotaSetsController`` and ``QuotaClassSetsController``.

Policies as nova's defaults: a project's quotas (``show``, ``detail``) are
for its readers and admins, ``defaults`` for anybody, ``update`` and
``delete`` (revert to the defaults) and the quota classes for admins.
A project id nova would ask keystone about (``verify_project_id``) must
exist when the caller is an admin (keystone answers others 403, which nova
lets through): 400 ``Project ID <id> is not a valid project.``

Which resources a body shows and an update takes follows the microversion:
2.36 drops the nova-network ones (``fixed_ips``, ``floating_ips``,
``security_groups``, ``security_group_rules``) from quota sets, 2.50 from
quota classes (which show ``server_groups``/``server_group_members`` only
from 2.50), 2.57 drops the ``injected_file*`` ones from both; a dropped one
in an update is nova's schema 400. From 2.75 an unknown query parameter is
a 400. ``?user_id=`` names a user's quotas (nova's per-user quotas, the
user id taken as given, as nova does): shown (the user's own limits over
the project's; ``detail`` counts that user's servers), set (within the
project's remains, see :func:`~occli.localcloud.compute.quotas.update_user`)
and deleted (the user back on the project's limits).
"""

from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.compute import quotas
from occli.localcloud.compute.api import common
from occli.localcloud.compute.api import schemas

POLICY = "os_compute_api:os-quota-sets:%s"
CLASS_POLICY = "os_compute_api:os-quota-class-sets:%s"
SERVER_GROUP_RESOURCES = ("server_group_members", "server_groups")

_value = {
    "type": ["integer", "string"],
    "pattern": "^-?[0-9]+$",
    "minimum": -1,
    "maximum": quotas.MAX_LIMIT,
}


def register(service):
    sets = "/os-quota-sets/{tenant_id}"
    service.api("GET", sets, show_quotas)
    service.api("GET", sets + "/defaults", show_defaults)
    service.api("GET", sets + "/detail", show_detail)
    # admin only: the handlers check it (role=None: no project role first)
    service.api("PUT", sets, update_quotas, role=None)
    service.api("DELETE", sets, delete_quotas, role=None)
    classes = "/os-quota-class-sets/{quota_class}"
    service.api("GET", classes, show_class)
    service.api("PUT", classes, update_class, role=None)


# -- microversions ---------------------------------------------------------


def hidden(req, classes=False):
    """The resources the request's microversion leaves out."""
    version = req.microversion
    gone: tuple[str, ...] = ()
    if version >= "2.57":
        gone = quotas.NETWORK_RESOURCES + quotas.INJECTED_FILE_RESOURCES
    elif version >= ("2.50" if classes else "2.36"):
        gone = quotas.NETWORK_RESOURCES
    if classes and version < "2.50":
        gone += SERVER_GROUP_RESOURCES
    return gone


def _body(values, gone, ident=None):
    body = {} if ident is None else {"id": ident}
    body.update((r, values[r]) for r in quotas.RESOURCES if r not in gone)
    return body


def _update_schema(req, key, classes=False):
    """Nova's update schema at the request's version (server groups are
    settable in a class before 2.50, just not shown)."""
    gone = hidden(req, classes)
    if classes:
        gone = tuple(r for r in gone if r not in SERVER_GROUP_RESOURCES)
    properties = {r: _value for r in quotas.RESOURCES if r not in gone}
    if not classes:
        properties["force"] = schemas.boolean
    return schemas.one_member(
        key, {"type": "object", "properties": properties, "additionalProperties": False}
    )


def check_values(data):
    """``{resource: int}`` of a body the schema let through, checked as
    nova's validator checks it: a numeric string must be in range too
    (``Invalid input for field/attribute instances. Value: -5. -5 is less
    than the minimum of -1``), before any policy."""
    found = {}
    for resource, value in data.items():
        if resource == "force":
            continue
        number: float  # an int, or a float past Python's digit limit
        try:
            number = int(value)
        except ValueError:
            # past Python's digit limit nova's validator reads the digits
            # as a float (_number_from_str): "Value: inf. inf is greater…"
            value = number = float(value)
        if number < -1:
            problem = "%s is less than the minimum of -1" % value
        elif number > quotas.MAX_LIMIT:
            problem = "%s is greater than the maximum of %d" % (value, quotas.MAX_LIMIT)
        else:
            found[resource] = number
            continue
        raise common.bad_request(
            "Invalid input for field/attribute %s. Value: %s. %s" % (resource, value, problem)
        )
    return found


def reject_unknown(req, allowed):
    """A query parameter outside ``allowed``: nova's query schema 400
    (``additionalProperties: false``, from 2.75 on most routes)."""
    extra = [name for name in req.query if name not in allowed]
    if extra:
        raise common.bad_request(
            "Additional properties are not allowed (%s %s unexpected)"
            % (", ".join(repr(name) for name in extra), "was" if len(extra) == 1 else "were")
        )


def _query(req):
    """The ``user_id`` query parameter (2.75+: the only one allowed)."""
    if req.microversion >= "2.75":
        reject_unknown(req, ("user_id",))
    return req.arg("user_id")


# -- policies --------------------------------------------------------------


def _reader_or_admin(req, project_id, rule):
    """Nova's ``PROJECT_READER_OR_ADMIN`` for ``project_id``."""
    if not req.context.is_admin and project_id != req.context.project_id:
        raise HTTPError(403, "Policy doesn't allow %s to be performed." % (POLICY % rule))


def _verify_project(req, project_id):
    """Nova's ``identity.verify_project_id``, with the caller's token:
    keystone shows an admin every project (404 → 400 here), a member its
    own (others → 403, which nova lets through)."""
    if req.context.is_admin and req.cloud.identity.project(req.db, project_id) is None:
        raise common.bad_request("Project ID %s is not a valid project." % project_id)


# -- os-quota-sets ---------------------------------------------------------


def show_quotas(req):
    project_id = req.params["tenant_id"]
    user_id = _query(req)
    _reader_or_admin(req, project_id, "show")
    _verify_project(req, project_id)
    values = _limits(req, project_id, user_id)
    return Response(200, {"quota_set": _body(values, hidden(req), project_id)})


def _limits(req, project_id, user_id):
    """The project's limits, or ``user_id``'s in it."""
    if user_id is None:
        return quotas.limits(req.db, project_id, req.cloud.config)
    return quotas.user_limits(req.db, project_id, user_id, req.cloud.config)


def show_detail(req):
    project_id = req.params["tenant_id"]
    user_id = _query(req)
    _reader_or_admin(req, project_id, "detail")
    _verify_project(req, project_id)
    values = quotas.detail(req.db, project_id, req.cloud.config, user_id)
    return Response(200, {"quota_set": _body(values, hidden(req), project_id)})


def show_defaults(req):
    project_id = req.params["tenant_id"]
    _verify_project(req, project_id)
    values = quotas.defaults(req.db, req.cloud.config)
    return Response(200, {"quota_set": _body(values, hidden(req), project_id)})


def update_quotas(req):
    project_id = req.params["tenant_id"]
    data = schemas.validate(_update_schema(req, "quota_set"), req.json())["quota_set"]
    values = check_values(data)
    user_id = _query(req)
    common.require_admin(req, POLICY % "update")
    _verify_project(req, project_id)
    force = common.bool_param(str(data.get("force", "False")), "force")
    config = req.cloud.config
    if user_id is None:
        quotas.update_project(req.db, project_id, values, force, config)
    else:
        quotas.update_user(req.db, project_id, user_id, values, force, config)
    return Response(200, {"quota_set": _body(_limits(req, project_id, user_id), hidden(req))})


def delete_quotas(req):
    user_id = _query(req)
    common.require_admin(req, POLICY % "delete")
    if user_id is None:
        quotas.delete_project(req.db, req.params["tenant_id"])
    else:
        quotas.delete_user(req.db, req.params["tenant_id"], user_id)
    return Response(202)


# -- os-quota-class-sets ---------------------------------------------------


def show_class(req):
    common.require_admin(req, CLASS_POLICY % "show")
    name = req.params["quota_class"]
    values = quotas.class_limits(req.db, name, req.cloud.config)
    return Response(200, {"quota_class_set": _body(values, hidden(req, classes=True), name)})


def update_class(req):
    data = schemas.validate(_update_schema(req, "quota_class_set", classes=True), req.json())[
        "quota_class_set"
    ]
    values = check_values(data)
    common.require_admin(req, CLASS_POLICY % "update")
    name = req.params["quota_class"]
    quotas.update_class(req.db, name, values)
    values = quotas.class_limits(req.db, name, req.cloud.config)
    return Response(200, {"quota_class_set": _body(values, hidden(req, classes=True))})
