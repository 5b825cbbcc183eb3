"""``/stacks/{name}/{id}/resources``: Heat's resource controller
(``heat/api/openstack/v1/resources.py``): list (``nested_depth``,
``with_detail``, filters), show (attributes resolved now, ``with_attr``),
metadata, signal, mark unhealthy (PATCH)."""

from typing import Any

from occli.localcloud import errors
from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.app import Unauthenticated
from occli.localcloud.orchestration.api import common
from occli.localcloud.orchestration.api import stack_common as sc
from occli.localcloud.orchestration.engine import formats
from occli.localcloud.orchestration.engine import stacks as stack_rows
from occli.localcloud.orchestration.engine.stack import Stack

RESOURCES = sc.STACK + "/resources"
RESOURCE = RESOURCES + "/{resource_name}"
POLICY_ACTIONS = {("PATCH", RESOURCE): "mark_unhealthy"}
# the engine's keys format_resource leaves out (metadata has its own route)
_HIDDEN_KEYS = ("stack_name", "stack_identity", "resource_action", "nested_stack_id", "metadata")
_FILTERS = ("type", "status", "name", "action", "id", "physical_resource_id")


def register(service):
    service.route("GET", RESOURCES, list_resources)
    service.route("GET", RESOURCE, show_resource)
    service.route("GET", RESOURCE + "/metadata", resource_metadata)
    # heat's resource:signal is PROJECT_READER_OR_STACK_USER
    # auth=False: a wait condition handle's own token signals it without
    # Keystone (TOKEN_SIGNAL's curl_cli); every other caller is
    # authenticated in the handler as any route is
    service.route("POST", RESOURCE + "/signal", signal_resource, auth=False, mode=None)
    service.route("PATCH", RESOURCE, mark_unhealthy, mode=None)


def view_resource(req, res):
    """``resources.format_resource``: the identity as ``links`` (self,
    stack, nested), ``resource_status`` joined with the action,
    ``logical_resource_id`` beside ``resource_name``, no metadata."""
    result: dict[str, Any] = {}
    for key, value in res.items():
        if key == "resource_identity":
            links = [
                sc.make_link(req, value),
                sc.make_link(req, formats.parent_path(value), "stack"),
            ]
            nested = res.get("nested_stack_id")
            if nested:
                links.append(sc.make_link(req, nested, "nested"))
            result["links"] = links
        elif key in _HIDDEN_KEYS:
            continue
        elif key == "resource_status" and "resource_action" in res:
            result[key] = "_".join((res["resource_action"] or "", value or ""))
        elif key == "resource_name":
            result["logical_resource_id"] = value
            result[key] = value
        else:
            result[key] = value
    return result


class _Stacks:
    """The stack rows a listing's resources belong to, and those stacks
    loaded by the engine, each read once."""

    def __init__(self, req, root, loaded=None):
        self.req = req
        self.rows = {root["id"]: root}
        self.loaded = {root["id"]: loaded} if loaded is not None else {}

    def get(self, stack_id):
        if stack_id not in self.rows:
            self.rows[stack_id] = stack_rows.by_id(self.req.db, stack_id)
        return self.rows[stack_id]

    def load(self, stack_id):
        """The loaded stack, None when it cannot be loaded (its template no
        longer builds: the stored rows are all there is)."""
        if stack_id not in self.loaded:
            try:
                self.loaded[stack_id] = Stack.load(self.req.cloud.orchestration.engine, stack_id)
            except Exception:  # noqa: BLE001 - a listing shows what is stored
                self.loaded[stack_id] = None
        return self.loaded[stack_id]

    def nested(self, row):
        """The nested stack of a resource row: the stack its physical id
        names when that stack is owned by the resource's stack (Heat's
        ``has_nested``; an ``OS::Heat::Stack``'s stack has no owner)."""
        nested_id = row.get("nested_stack_id") or row.get("physical_resource_id")
        nested = self.get(nested_id) if nested_id else None
        if nested is None or nested.get("owner_id") != row["stack_id"]:
            return None
        return nested

    def required_by(self, row, siblings):
        """Heat's ``Resource.required_by``: from the template's graph, so a
        resource never made that requires this one is named too; a row the
        template no longer has, from the stored ``requires``."""
        stack = self.load(row["stack_id"])
        if stack is None or row["name"] not in stack.resources:
            return formats.required_by(row["name"], siblings)
        return sorted(stack.dependencies().required_by(row["name"]))


def _format(stacks, row, siblings, detail, attributes=None):
    stack = stacks.get(row["stack_id"])
    return formats.format_stack_resource(
        row,
        stack,
        stacks.required_by(row, siblings),
        detail=detail,
        attributes=attributes,
        nested=stacks.nested(row),
        parent_resource=stack.get("parent_resource"),
    )


def _filters(req):
    found = sc.allowed(req, dict.fromkeys(_FILTERS, "mixed"))
    params = {k: v if isinstance(v, list) else [v] for k, v in found.items()}
    sc.split_status(params)
    return params


def list_resources(req):
    """``GET …/resources``: the stack's resources (and its nested stacks'
    to ``nested_depth``); a ``type`` filter matches part of the type name
    as Heat's does."""
    known = set(_FILTERS) | {"nested_depth", "with_detail"}
    invalid = [k for k in req.query if k not in known]
    if invalid:
        raise sc.bad_request("Invalid filter parameters %s" % str(invalid))
    row = sc.identified_stack(req, req.db, show_deleted=True)
    depth = sc.extract_int("nested_depth", req.arg("nested_depth")) or 0
    detail = req.arg("with_detail")
    detail = sc.extract_bool("with_detail", detail) if detail is not None else False
    filters = _filters(req)
    types = filters.pop("type", None)
    rows = stack_rows.resources(
        req.db, row["id"], min(depth, sc.MAX_NESTED_DEPTH), filters=filters or None
    )
    if types is not None:
        rows = [r for r in rows if any(t in r["type"] for t in types)]
    everything = stack_rows.resources(req.db, row["id"], min(depth, sc.MAX_NESTED_DEPTH))
    by_stack: dict[str, list[Any]] = {}
    for r in everything:
        by_stack.setdefault(r["stack_id"], []).append(r)
    stacks = _Stacks(req, row)

    def attributes(r):
        # format_stack_resource(detail=True): each resource's attributes
        loaded = stacks.load(r["stack_id"]) if detail else None
        resource = loaded.resources.get(r["name"]) if loaded is not None else None
        return formats.format_resource_attributes(resource) if resource is not None else None

    resources = [
        view_resource(
            req, _format(stacks, r, by_stack.get(r["stack_id"], ()), detail, attributes(r))
        )
        for r in rows
    ]
    return Response(200, {"resources": resources})


def _described(req, stack_row):
    """Heat's ``describe_stack_resource``: the loaded stack and the row
    (``ResourceNotFound``, ``ResourceNotAvailable`` with Heat's texts)."""
    name = req.params["resource_name"]
    stack = Stack.load(req.cloud.orchestration.engine, stack_row["id"])
    if name not in stack.resources:
        raise errors.NotFound(
            "The Resource (%s) could not be found in Stack %s." % (name, stack_row["name"]),
            type="ResourceNotFound",
        )
    try:
        row = stack_rows.resource(req.db, stack_row["id"], name)
    except errors.NotFound:
        raise errors.NotFound(
            "The Resource (%s) is not available." % name, type="ResourceNotAvailable"
        ) from None
    return stack, row


def show_resource(req):
    """``GET …/resources/{name}``: with its attributes resolved now."""
    stack_row = sc.identified_stack(req, req.db)
    stack, row = _described(req, stack_row)
    resource = stack.resources[row["name"]]
    attributes = formats.format_resource_attributes(resource, sc.multi(req, "with_attr"))
    siblings = stack_rows.resources(req.db, stack_row["id"])
    stacks = _Stacks(req, stack_row, stack)
    return Response(
        200, {"resource": view_resource(req, _format(stacks, row, siblings, True, attributes))}
    )


def resource_metadata(req):
    stack_row = sc.identified_stack(req, req.db)
    _, row = _described(req, stack_row)
    return Response(200, {"metadata": row.get("metadata") or {}})


def _identified(req):
    with req.cloud.store.read() as db:
        return sc.identified_stack(req, db)


def signal_resource(req):
    """``POST …/signal``: the resource's ``handle_signal`` with the body
    (none is None); 200 and ``null``, as Heat answers. A token Keystone
    does not know may still be the resource's own signal token."""
    with req.cloud.store.read() as db:
        req.db = db
        try:
            req.context = req.cloud.authenticate(req)
        except Unauthenticated:
            req.context = None
        finally:
            req.db = None
    if req.context is None:
        details = req.json(required=False)
        token = req.header("X-Auth-Token")
        if not token or not req.cloud.orchestration.engine.signal_with_token(
            req.params["project_id"],
            req.params["stack_name"],
            req.params["stack_id"],
            req.params["resource_name"],
            token,
            details,
        ):
            raise Unauthenticated(req.base_url + "/v3")
        return Response(200, raw="null")
    if not req.context.project_id:
        raise HTTPError(403, "A project-scoped token is required.")
    req.cloud.orchestration.before(req)
    row = _identified(req)
    details = req.json(required=False)
    req.cloud.orchestration.engine.signal(
        req.context, row["id"], req.params["resource_name"], details
    )
    return Response(200, raw="null")


def mark_unhealthy(req):
    """``PATCH …/resources/{name}``: ``{"mark_unhealthy": bool,
    "resource_status_reason": text}``."""
    body = common.json_object(req)
    invalid = set(body) - {"mark_unhealthy", "resource_status_reason"}
    if invalid:
        raise sc.bad_request("Invalid keys in resource mark unhealthy %s" % invalid)
    if "mark_unhealthy" not in body:
        raise sc.bad_request("Missing mandatory (mark_unhealthy) key from mark unhealthy request")
    mark = sc.extract_bool("mark_unhealthy", body["mark_unhealthy"])
    reason = body.get("resource_status_reason", "")
    reason = reason if isinstance(reason, str) else str(reason)
    row = _identified(req)
    req.cloud.orchestration.engine.mark_unhealthy(
        req.context, row["id"], req.params["resource_name"], mark, reason
    )
    return Response(200, raw="null")
