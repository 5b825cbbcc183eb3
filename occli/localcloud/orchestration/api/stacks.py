"""``/stacks``: Heat's stack controller (``heat/api/openstack/v1/stacks.py``)
and its view (``views/stacks_view.py``).

List (filters, sorting, paging, tags, ``with_count``), detail, create
(201 + ``Location``), preview, the 302 lookups of ``/stacks/{name}`` and
its sub-paths, show (outputs resolved), template, environment, files,
update (PUT) and patch (PATCH, ``existing``), their previews, delete,
abandon, export, outputs. Reads run in a read transaction; writes are
``mode=None`` routes calling the engine, which opens its own short writes
and runs the action on its threads.
"""

from typing import Any
from urllib.parse import urlencode

from occli.localcloud import errors
from occli.localcloud.app import Response
from occli.localcloud.orchestration.api import common
from occli.localcloud.orchestration.api import stack_common as sc
from occli.localcloud.orchestration.api.stack_input import InstantiationData
from occli.localcloud.orchestration.api.stack_input import prepare_args
from occli.localcloud.orchestration.engine import exception
from occli.localcloud.orchestration.engine import formats
from occli.localcloud.orchestration.engine import stacks as stack_rows
from occli.localcloud.orchestration.engine.environment import Environment
from occli.localcloud.orchestration.engine.stack import Stack
from occli.localcloud.orchestration.engine.template import Template

STACKS, STACK = sc.STACKS, sc.STACK
NAMED = STACKS + "/{stack_name}"
# the sub-paths /stacks/{name}/<path> redirects (heat's stack_lookup_subpath)
LOOKUP_GET = ("resources", "events", "template", "actions", "environment", "files")
LOOKUP_POST = ("resources", "events", "template", "actions")
# heat's policy action of the routes the 403 of another method's name
# would misname (OrchestrationService.policy_denied)
POLICY_ACTIONS = {
    ("PATCH", STACK): "update_patch",
    ("PUT", STACK + "/preview"): "preview_update",
    ("PATCH", STACK + "/preview"): "preview_update_patch",
    ("DELETE", STACK + "/abandon"): "abandon",
    ("GET", STACK + "/export"): "export",
}
# heat's rpc_api.STACK_KEYS a list may filter on (index's stack_keys,
# less the unsupported ones) with the older names it still takes
_FILTERS = (
    "stack_name",
    "stack_identity",
    "stack_action",
    "stack_status",
    "stack_status_reason",
    "disable_rollback",
    "timeout_mins",
    "stack_owner",
    "parent",
    "stack_user_project_id",
    "id",
    "status",
    "name",
    "action",
    "tenant",
    "username",
    "owner_id",
)
# heat/engine/api.py translate_filters
_FILTER_NAMES = {
    "stack_name": "name",
    "stack_action": "action",
    "stack_status": "status",
    "stack_status_reason": "status_reason",
    "disable_rollback": "disable_rollback",
    "timeout_mins": "timeout",
    "stack_owner": "username",
    "parent": "owner_id",
    "stack_user_project_id": "stack_user_project_id",
}
_BASIC_KEYS = (
    "stack_identity",
    "stack_name",
    "description",
    "stack_status",
    "stack_status_reason",
    "creation_time",
    "deletion_time",
    "updated_time",
    "stack_owner",
    "parent",
    "stack_user_project_id",
    "tags",
)


def register(service):
    service.route("GET", STACKS, list_stacks)
    service.route("POST", STACKS, create_stack, mode=None)
    service.route("POST", STACKS + "/preview", preview_stack, mode=None, role=None)
    service.route("GET", STACKS + "/detail", detail_stacks)
    for method in ("GET", "POST", "PUT", "PATCH", "DELETE"):
        service.route(method, NAMED, lookup, mode="read", role=None)
    for path in LOOKUP_GET:
        service.route("GET", NAMED + "/" + path, lookup)
    for path in LOOKUP_POST:
        service.route("POST", NAMED + "/" + path, lookup, mode="read", role=None)
    service.route("GET", STACK, show_stack)
    service.route("PUT", STACK, update_stack, mode=None)
    service.route("PATCH", STACK, update_patch, mode=None)
    service.route("DELETE", STACK, delete_stack, mode=None)
    service.route("GET", STACK + "/template", stack_template)
    service.route("GET", STACK + "/environment", stack_environment)
    service.route("GET", STACK + "/files", stack_files)
    service.route("PUT", STACK + "/preview", preview_update, mode=None)
    service.route("PATCH", STACK + "/preview", preview_update_patch, mode=None)
    service.route("DELETE", STACK + "/abandon", abandon_stack, mode=None)
    service.route("GET", STACK + "/export", export_stack, role=service.write_role)
    service.route("GET", STACK + "/outputs", list_outputs)
    service.route("GET", STACK + "/outputs/{output_key}", show_output)


# -- the view (stacks_view.py) -------------------------------------------------


def view_stack(req, stack, keys=None, include_project=False):
    """``stacks_view.format_stack``: the identity as ``id`` and ``links``,
    ``stack_status`` joined with the action (which is left out)."""
    result = {}
    for key, value in stack.items():
        if keys and key not in keys:
            continue
        if key == "stack_identity":
            result["id"] = value["stack_id"]
            result["links"] = [sc.make_link(req, value)]
            if include_project:
                result["project"] = value["tenant"]
        elif key == "stack_action":
            continue
        elif key == "stack_status" and "stack_action" in stack:
            result[key] = "_".join((stack["stack_action"] or "", value or ""))
        else:
            result[key] = value
    return result


def _engine(req):
    return req.cloud.orchestration.engine


def _over_rpc(call, *args, **kwargs):
    """An engine call as heat-api makes it over RPC: a refusal arrives as
    :func:`.exception.over_rpc` re-makes it (a StackValidationFailed's
    separators doubled; ``POST /validate`` answers the engine's own text)."""
    try:
        return call(*args, **kwargs)
    except errors.Error as exc:
        received = exception.over_rpc(exc)
        if received is exc:
            raise
        raise received from None


def _load(req, row):
    """The engine's Stack of ``row`` (parameters shown, outputs resolved)."""
    return Stack.load(_engine(req), row["id"])


# -- the collection ------------------------------------------------------------


def _filters(req):
    """The list's filters: heat's ``get_allowed_params`` of the stack keys,
    translated to column names (``translate_filters``), each a list."""
    found = sc.allowed(req, dict.fromkeys(_FILTERS, "mixed"))
    params: dict[str, list[Any]] = {}
    for key, value in found.items():
        values = value if isinstance(value, list) else [value]
        column = _FILTER_NAMES.get(key, key)
        if column == "stack_identity":
            column = "id"
        params.setdefault(column, []).extend(values)
    sc.split_status(params)
    # columns the local table does not keep match no stack, as none of
    # heat's would
    return {k: v for k, v in params.items() if k in stack_rows.FILTER_COLUMNS}, {
        k: v for k, v in params.items() if k not in stack_rows.FILTER_COLUMNS
    }


def _bool_arg(req, name):
    value = sc.single(req, name)
    return sc.extract_bool(name, value) if value else False


def _tags_arg(req, name):
    value = sc.single(req, name)
    return sc.extract_tags(value) if value else None


def list_stacks(req):
    """``GET /stacks`` (heat's ``index``): ``global_tenant`` is heat's
    ``global_index``, denied to everybody by its default policy."""
    ctx = req.context
    if _bool_arg(req, "global_tenant"):
        raise common.error(403, "You are not authorized to use stacks:global_index.", "Forbidden")
    limit_arg = sc.single(req, "limit")
    limit = sc.sql_limit(sc.extract_int("limit", limit_arg) if limit_arg else None)
    show_deleted = _bool_arg(req, "show_deleted")
    show_nested = _bool_arg(req, "show_nested")
    _bool_arg(req, "show_hidden")
    tags = {
        name: _tags_arg(req, name) for name in ("tags", "tags_any", "not_tags", "not_tags_any")
    }
    with_count = req.arg("with_count")
    with_count = sc.extract_bool("with_count", with_count) if with_count else False
    filters, unknown = _filters(req)
    rows = []
    count = 0
    if not unknown:
        common_args = dict(
            filters=filters or None, show_deleted=show_deleted, show_nested=show_nested, **tags
        )
        rows = stack_rows.page(
            req.db,
            ctx,
            limit=limit,
            marker=sc.single(req, "marker"),
            sort_keys=sc.multi(req, "sort_keys"),
            sort_dir=sc.sort_dir(req),
            summary=True,
            **common_args,
        )
        if with_count:
            count = stack_rows.count(req.db, ctx, **common_args)
    stacks = [
        view_stack(req, formats.format_stack_summary(r), _BASIC_KEYS, ctx.is_admin) for r in rows
    ]
    body: dict[str, Any] = {"stacks": stacks}
    links = sc.collection_links(req, stacks)
    if links:
        body["links"] = links
    if with_count:
        body["count"] = count
    return Response(200, body)


def detail_stacks(req):
    """``GET /stacks/detail``: every stack of the project with every key
    of its summary (heat's ``detail``: no filter, no paging)."""
    rows = stack_rows.page(req.db, req.context, summary=True)
    stacks = [view_stack(req, formats.format_stack_summary(r)) for r in rows]
    return Response(200, {"stacks": stacks})


def _shown(req, row, resolve_outputs=True):
    """``api.format_stack`` of a stored stack, loaded by the engine."""
    stack = _load(req, row)
    outputs = stack.outputs() if resolve_outputs else None
    return formats.format_stack(row, outputs=outputs, parameters=stack.parameters.display())


# -- lookups ------------------------------------------------------------------


def lookup(req):
    """``/stacks/{name}[/<path>]``: 302 to the stack's canonical URL (the
    query string kept), found by id or by name (heat's ``identify_stack``)."""
    name = req.params["stack_name"]
    row = stack_rows.lookup(req.db, req.context, name, show_deleted=True)
    location = sc.make_url(req, formats.stack_identity(row))
    prefix = req.cloud.orchestration.prefix + "/v1/" + req.params["project_id"] + "/stacks/"
    rest = req.path[len(prefix) :].split("/", 1)
    if len(rest) > 1 and rest[1].strip("/"):
        location += "/" + rest[1].strip("/")
    if req.query:
        location += "?" + urlencode([(k, v) for k, vs in req.query.items() for v in vs])
    return Response(302, common.found_body(location), headers={"Location": location})


# -- create, preview -----------------------------------------------------------


def create_stack(req):
    """``POST /stacks``: 201, ``Location`` the new stack's URL."""
    data = InstantiationData(common.json_object(req))
    args = prepare_args(data)
    result = _over_rpc(
        _engine(req).create_stack,
        req.context,
        data.stack_name(),
        data.template(),
        data.environment()["parameters"],
        data.files(),
        data.environment(),
        args,
    )
    ident = formats.identity(req.context.project_id, result["name"], result["id"])
    body = {"stack": view_stack(req, {"stack_identity": ident})}
    return Response(201, body, headers={"Location": body["stack"]["links"][0]["href"]})


def preview_stack(req):
    """``POST /stacks/preview``: the stack and its resources as they would
    be (``api.format_stack_preview``), nothing stored."""
    data = InstantiationData(common.json_object(req))
    args = prepare_args(data)
    env = data.environment()
    stack = _over_rpc(
        _engine(req).preview_stack,
        req.context,
        data.stack_name(),
        data.template(),
        env["parameters"],
        data.files(),
        env,
        args,
    )
    return Response(200, {"stack": view_stack(req, stack)})


# -- one stack ------------------------------------------------------------------


def show_stack(req):
    """``GET /stacks/{name}/{id}`` (deleted stacks too), outputs resolved
    unless ``resolve_outputs=false``."""
    row = sc.identified_stack(req, req.db, show_deleted=True)
    resolve = req.arg("resolve_outputs")
    resolve = sc.extract_bool("resolve_outputs", resolve) if resolve is not None else True
    return Response(200, {"stack": view_stack(req, _shown(req, row, resolve))})


def stack_template(req):
    row = sc.identified_stack(req, req.db)
    return Response(200, row["template"])


def stack_environment(req):
    """``GET …/environment``: Heat's ``get_environment``, the stored user
    environment (``env_as_dict``: ``resource_registry`` always with its
    ``resources``) with the values of the template's hidden parameters
    masked (the top template's: Heat also masks those of nested
    templates in ``files``)."""
    row = sc.identified_stack(req, req.db)
    env = Environment(row.get("environment") or {}).env_as_dict()
    schemata = Template(row["template"], files=row.get("files") or {}).param_schemata()
    for section in ("parameters", "parameter_defaults"):
        env[section] = {
            k: formats.HIDDEN if k in schemata and schemata[k].hidden else v
            for k, v in env[section].items()
        }
    return Response(200, env)


def stack_files(req):
    row = sc.identified_stack(req, req.db)
    return Response(200, row.get("files") or {})


def list_outputs(req):
    """``GET …/outputs``: each output's key and description."""
    row = sc.identified_stack(req, req.db)
    outputs = [
        {"output_key": o["output_key"], "description": o["description"]}
        for o in _load(req, row).outputs()
    ]
    return Response(200, {"outputs": outputs})


def show_output(req):
    """``GET …/outputs/{key}``: one output resolved now."""
    row = sc.identified_stack(req, req.db)
    key = req.params["output_key"]
    for output in _load(req, row).outputs():
        if output["output_key"] == key:
            return Response(200, {"output": output})
    raise common.error(404, "Specified output key %s not found." % key, "NotFound")


def _identified(req):
    """For a ``mode=None`` route: the URL's stack, in a read of its own."""
    with req.cloud.store.read() as db:
        return sc.identified_stack(req, db)


def _update(req, patch, preview):
    row = _identified(req)
    data = InstantiationData(common.json_object(req), patch=patch)
    args = prepare_args(data, is_update=True)
    show_nested = sc.single(req, "show_nested")
    if preview and show_nested:
        args["show_nested"] = sc.extract_bool("show_nested", show_nested)
    env = data.environment()
    call = _engine(req).preview_update_stack if preview else _engine(req).update_stack
    return _over_rpc(
        call,
        req.context,
        row["id"],
        data.template(),
        env["parameters"],
        data.files(),
        env,
        args,
        existing=patch,
    )


def update_stack(req):
    """``PUT``: 202, the update runs on the engine's threads."""
    _update(req, patch=False, preview=False)
    return Response(202, common.ACCEPTED_BODY)


def update_patch(req):
    """``PATCH`` (``--existing``): what the body leaves out is kept."""
    _update(req, patch=True, preview=False)
    return Response(202, common.ACCEPTED_BODY)


def preview_update(req):
    return Response(200, {"resource_changes": _update(req, patch=False, preview=True)})


def preview_update_patch(req):
    return Response(200, {"resource_changes": _update(req, patch=True, preview=True)})


def delete_stack(req):
    """``DELETE``: 204, the stack then DELETE_IN_PROGRESS → COMPLETE."""
    row = _identified(req)
    _engine(req).delete_stack(req.context, row["id"])
    return Response(204)


def abandon_stack(req):
    """``DELETE …/abandon``: the stack's data; its resources stay."""
    row = _identified(req)
    return Response(200, _engine(req).abandon_stack(req.context, row["id"]))


def export_stack(req):
    """``GET …/export``: the data abandon would answer, nothing changed."""
    row = sc.identified_stack(req, req.db)
    return Response(200, _engine(req).export_stack(req.context, row["id"]))
