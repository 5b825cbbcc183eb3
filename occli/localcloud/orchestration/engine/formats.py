"""Heat's engine-side formatters (``heat/engine/api.py``) over the rows of
:mod:`.stacks`, and its identifiers (``heat/common/identifier.py``).

The engine answers in Heat's RPC keys (``heat/rpc/api.py``): a stack is
``{"stack_identity": {...}, "stack_name", "stack_action", "stack_status",
…}``, a resource ``{"resource_identity": {...}, "resource_action", …}``;
the HTTP layer (``orchestration.api``) turns identities into ``id`` and
``links`` and joins action and status, as Heat's API views do. Pure
functions over plain dicts: no SQL, no request.
"""

import re
from collections.abc import Iterable
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from occli.localcloud import common
from occli.localcloud.orchestration import templates

# heat/engine/hot/template.py: a template without a description
NO_DESCRIPTION = "No description"
# heat/engine/output.py: an output without a description
NO_OUTPUT_DESCRIPTION = "No description given"
# heat/engine/parameters.py: how a hidden parameter is shown
HIDDEN = "******"
PSEUDO_PARAMETERS = ("OS::stack_id", "OS::stack_name", "OS::project_id")
# the characters ``quote`` leaves as they are (with its ``safe`` "/")
_UNQUOTED = re.compile(r"[A-Za-z0-9_.~/-]*")


def isotime(value: Any) -> str | None:
    """Heat's ``timeutils.isotime``: ``2015-01-31T15:12:36Z``; a stored
    timestamp (seconds) or an already formatted text; None stays None."""
    if value is None:
        return None
    if isinstance(value, str):
        return value
    return common.iso_z(common.from_timestamp(float(value)))


# -- arguments ---------------------------------------------------------------


def _bool(name: str, value: Any) -> bool:
    text = str(value).lower()
    if text not in ("true", "false"):
        raise ValueError(
            'Unrecognized value "%s" for "%s", acceptable values are: true, false.' % (value, name)
        )
    return text == "true"


def extract_args(params: Mapping[str, Any]) -> dict[str, Any]:
    """``api.extract_args``: the arguments of a create or update with
    ``timeout_mins`` a positive integer (0 or None: none), the booleans
    parsed, ``adopt_stack_data`` decoded and ``tags`` checked; other keys
    (``existing``, ``clear_parameters``) kept. ValueError with Heat's text."""
    kwargs = {k: v for k, v in params.items() if k != "timeout_mins"}
    timeout = params.get("timeout_mins")
    if timeout not in ("0", 0, None):
        try:
            value = int(timeout)
        except (TypeError, ValueError):
            value = None  # heat logs the failed conversion and ignores it
        if value is not None:
            # past SQLite's INTEGER no column holds it (a database of 32-bit
            # integers refuses it too): refused as a non-positive one is
            if value <= 0 or not common.fits_integer(value):
                raise ValueError("Invalid timeout value %s" % value)
            kwargs["timeout_mins"] = value
    for name in ("converge", "disable_rollback"):
        if name in params:
            kwargs[name] = _bool(name, params[name])
    adopt = params.get("adopt_stack_data")
    if adopt and isinstance(adopt, str):
        try:
            kwargs["adopt_stack_data"] = templates.parse_template(adopt)
        except ValueError as exc:
            raise ValueError("Invalid adopt data: %s" % exc) from None
    tags = params.get("tags")
    if tags is not None:
        if not isinstance(tags, list):
            raise ValueError("Invalid tags, not a list: %s" % tags)
        for tag in tags:
            if not isinstance(tag, str):
                raise ValueError('Invalid tag, "%s" is not a string' % tag)
            if len(tag) > 80:
                raise ValueError('Invalid tag, "%s" is longer than 80 characters' % tag)
            if "," in tag:
                raise ValueError('Invalid tag, "%s" contains a comma' % tag)
    return kwargs


# -- identifiers -----------------------------------------------------------


def identity(tenant: str, stack_name: str, stack_id: str, path: str = "") -> dict[str, str]:
    """A ``HeatIdentifier`` as a dict (``tenant``, ``stack_name``,
    ``stack_id``, ``path``; a path gets its leading ``/``)."""
    if path and not path.startswith("/"):
        path = "/" + path
    return {"tenant": tenant, "stack_name": stack_name, "stack_id": str(stack_id), "path": path}


def stack_identity(row: Mapping[str, Any]) -> dict[str, str]:
    """The identifier of a stack row."""
    return identity(row["project_id"], row["name"], row["id"])


def resource_identity(stack: Mapping[str, str], resource_name: str) -> dict[str, str]:
    """``ResourceIdentifier``: the stack's path + ``/resources/<name>``."""
    path = "/".join([stack.get("path", "").rstrip("/"), "resources", resource_name])
    return identity(stack["tenant"], stack["stack_name"], stack["stack_id"], path)


def event_identity(stack: Mapping[str, str], resource_name: str, event_id: str) -> dict[str, str]:
    """``EventIdentifier``: the resource's path + ``/events/<id>``."""
    res = resource_identity(stack, resource_name)
    return identity(
        res["tenant"], res["stack_name"], res["stack_id"], res["path"] + "/events/" + event_id
    )


def parent_path(ident: Mapping[str, str]) -> dict[str, str]:
    """The identifier two path segments up (an event's resource, a
    resource's stack), as ``EventIdentifier.resource()`` / ``.stack()``."""
    parts = ident.get("path", "").lstrip("/").split("/")
    return identity(ident["tenant"], ident["stack_name"], ident["stack_id"], "/".join(parts[:-2]))


def url_path(ident: Mapping[str, str]) -> str:
    """``HeatIdentifier.url_path``: ``<tenant>/stacks/<name>/<id><path>``,
    each part URL-quoted."""
    return "%s/stacks/%s/%s%s" % (
        _quote(ident["tenant"], ""),
        _quote(ident["stack_name"], ""),
        _quote(ident["stack_id"], ""),
        _quote(ident.get("path", "")),
    )


def _quote(text: str, safe: str = "/") -> str:
    """``quote(text, safe)``, without its work for the ids and names that
    need no quoting (a listing makes thousands of links)."""
    if _UNQUOTED.fullmatch(text) and ("/" not in text or safe):
        return text
    return quote(text, safe)


# -- stacks ------------------------------------------------------------------


def template_description(template: Any) -> str:
    """A template's ``description`` (Heat's default when absent)."""
    if isinstance(template, Mapping):
        description = template.get("description")
        if description is not None:
            return str(description)
    return NO_DESCRIPTION


def display_parameters(row: Mapping[str, Any]) -> dict[str, str]:
    """A stack's parameters as ``GET`` shows them when the engine gives
    none (``parameters.map(str)``): the stored values as text plus the
    pseudo parameters."""
    shown = {str(k): _text(v) for k, v in (row.get("parameters") or {}).items()}
    shown["OS::stack_id"] = row["id"]
    shown["OS::stack_name"] = row["name"]
    shown["OS::project_id"] = row["project_id"]
    return shown


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def updated_time(row: Mapping[str, Any]) -> str | None:
    """A stack's ``updated_time``: null until an action other than create
    (Heat sets ``Stack.updated_time`` when one starts; its create and
    adopt leave it unset)."""
    if row.get("action") in (None, "", "INIT", "CREATE", "ADOPT"):
        return None
    return isotime(row.get("updated_at"))


def format_stack(
    row: Mapping[str, Any],
    outputs: list[dict[str, Any]] | None = None,
    parameters: Mapping[str, str] | None = None,
    preview: bool = False,
) -> dict[str, Any]:
    """``api.format_stack``: one stack in Heat's keys. ``outputs``: the
    resolved outputs (:func:`format_stack_outputs`), left out of a deleted
    stack and when None (``resolve_outputs=false``); ``parameters``: the
    displayed values (hidden ones masked), else :func:`display_parameters`;
    ``preview``: no action nor status, no stack user project yet
    (``stack preview``)."""
    description = template_description(row.get("template"))
    info: dict[str, Any] = {
        "stack_name": row["name"],
        "stack_identity": stack_identity(row),
        "creation_time": isotime(row.get("created_at")),
        "updated_time": updated_time(row),
        "deletion_time": isotime(row.get("deleted_at")),
        "notification_topics": [],
        "parameters": dict(parameters) if parameters is not None else display_parameters(row),
        "description": description,
        "template_description": description,
        "capabilities": [],
        "disable_rollback": bool(row.get("disable_rollback", True)),
        "timeout_mins": row.get("timeout_mins"),
        "stack_owner": row.get("username"),
        "parent": row.get("owner_id"),
        "stack_user_project_id": row.get("stack_user_project_id") or row["project_id"],
        # Stack.tags: [] when none (the list's db objects give null)
        "tags": list(row.get("tags") or ()),
    }
    if preview:
        info["stack_user_project_id"] = None
    else:
        info["stack_action"] = row.get("action") or ""
        info["stack_status"] = row.get("status") or ""
        info["stack_status_reason"] = row.get("status_reason")
    deleted = row.get("action") == "DELETE" and row.get("status") == "COMPLETE"
    if outputs is not None and not deleted:
        info["outputs"] = outputs
    return info


def format_stack_summary(row: Mapping[str, Any]) -> dict[str, Any]:
    """``api.format_stack_db_object``: a stack as ``GET /stacks`` lists it
    (no outputs, parameters nor template description)."""
    return {
        "stack_identity": stack_identity(row),
        "stack_name": row["name"],
        "description": "",
        "stack_action": row.get("action"),
        "stack_status": row.get("status"),
        "stack_status_reason": row.get("status_reason"),
        "creation_time": isotime(row.get("created_at")),
        "updated_time": updated_time(row),
        "deletion_time": isotime(row.get("deleted_at")),
        "stack_owner": row.get("username"),
        "parent": row.get("owner_id"),
        "stack_user_project_id": row.get("stack_user_project_id") or row["project_id"],
        "tags": row.get("tags") or None,
    }


def format_stack_output(
    key: str, description: str | None, value: Any = None, error: str | None = None
) -> dict[str, Any]:
    """``api.format_stack_output`` of a resolved output (``output_error``
    when resolving it failed; the value is then None)."""
    result = {
        "output_key": key,
        "description": description if description is not None else NO_OUTPUT_DESCRIPTION,
        "output_value": None if error is not None else value,
    }
    if error is not None:
        result["output_error"] = error
    return result


def format_stack_outputs(
    outputs: Mapping[str, Mapping[str, Any]], resolve_value: bool = True
) -> list[dict[str, Any]]:
    """``api.format_stack_outputs``: ``{key: {"description", "value",
    "error"}}`` as the list Heat answers; without ``resolve_value`` only
    keys and descriptions (``GET …/outputs``)."""
    result = []
    for key, output in outputs.items():
        if resolve_value:
            result.append(
                format_stack_output(
                    key, output.get("description"), output.get("value"), output.get("error")
                )
            )
        else:
            description = output.get("description")
            result.append(
                {
                    "output_key": key,
                    "description": NO_OUTPUT_DESCRIPTION if description is None else description,
                }
            )
    return result


# -- resources ---------------------------------------------------------------


def required_by(name: str, resources: Iterable[Mapping[str, Any]]) -> list[str]:
    """The names of the resources of a stack that require ``name`` (their
    ``requires`` column), Heat's ``Resource.required_by``."""
    return sorted(r["name"] for r in resources if name in (r.get("requires") or ()))


def format_stack_resource(
    row: Mapping[str, Any],
    stack: Mapping[str, Any],
    requirers: list[str],
    detail: bool = True,
    attributes: Mapping[str, Any] | None = None,
    properties: Mapping[str, Any] | None = None,
    nested: Mapping[str, Any] | None = None,
    parent_resource: str | None = None,
) -> dict[str, Any]:
    """``api.format_stack_resource`` of a resource row of the stack row
    ``stack``: ``requirers`` its ``required_by``; ``detail`` adds the
    description, the metadata and (when given) ``attributes``;
    ``properties`` (preview) the resolved properties; ``nested`` the nested
    stack's row; ``parent_resource`` the name of the resource owning
    ``stack``."""
    definition = row.get("definition") or {}
    stack_ident = stack_identity(stack)
    created = isotime(row.get("created_at"))
    res: dict[str, Any] = {
        "updated_time": isotime(row.get("updated_at")) or created,
        "creation_time": created,
        "resource_name": row["name"],
        "physical_resource_id": row.get("physical_resource_id") or "",
        "resource_action": row.get("action"),
        "resource_status": row.get("status"),
        "resource_status_reason": row.get("status_reason") or "",
        "resource_type": row.get("type") or definition.get("type"),
        "resource_identity": resource_identity(stack_ident, row["name"]),
        "stack_identity": stack_ident,
        "stack_name": stack["name"],
        "required_by": list(requirers),
    }
    if nested is not None:
        res["nested_stack_id"] = stack_identity(nested)
    if parent_resource:
        res["parent_resource"] = parent_resource
    if detail:
        res["description"] = str(definition.get("description") or "")
        res["metadata"] = row.get("metadata") or {}
        if attributes is not None:
            res["attributes"] = dict(attributes)
    if properties is not None:
        res["properties"] = dict(properties)
    return res


def format_update_preview(
    plan: Mapping[str, Iterable[Mapping[str, Any]]],
    stack: Mapping[str, Any],
    current: Mapping[str, Any],
    new: Mapping[str, Any],
    rows: Mapping[str, Mapping[str, Any]],
    new_requires: Mapping[str, Iterable[str]],
) -> dict[str, list[dict[str, Any]]]:
    """``preview_update_stack``'s answer: each bucket's resources formatted
    as Heat does, ``updated`` and ``deleted`` from the stored stack
    (``current`` resources, their ``rows``), the others from the stack the
    update would make (``new`` resources, never stored: INIT, no times;
    ``new_requires`` each one's dependencies); ``stack`` the stack row."""
    new_rows = [{"name": n, "requires": list(r)} for n, r in new_requires.items()]
    result: dict[str, list[dict[str, Any]]] = {}
    for bucket, entries in plan.items():
        result[bucket] = []
        for entry in entries:
            name = entry["resource_name"]
            if bucket in ("updated", "deleted"):
                resource = current[name]
                row = rows.get(name) or {"name": name, "type": resource.type_name}
                requirers = required_by(name, rows.values())
            else:
                resource = new[name]
                row = {"name": name, "type": resource.type_name, "action": "INIT"}
                row["status"], requirers = "COMPLETE", required_by(name, new_rows)
            result[bucket].append(
                format_stack_resource(
                    row, stack, requirers, attributes=format_resource_attributes(resource)
                )
            )
    return result


# -- events ------------------------------------------------------------------


def format_event(
    row: Mapping[str, Any],
    stack: Mapping[str, str],
    root_stack: Mapping[str, str] | None = None,
    include_properties: bool = True,
) -> dict[str, Any]:
    """``api.format_event`` of an event row; ``stack`` the identifier of
    the event's own stack, ``root_stack`` that of the stack listed (events
    of nested stacks, ``nested_depth``)."""
    result: dict[str, Any] = {
        "event_identity": event_identity(stack, row["resource_name"], row["id"]),
        "stack_identity": dict(stack),
        "stack_name": stack["stack_name"],
        "event_time": isotime(row.get("created_at")),
        "resource_name": row["resource_name"],
        "physical_resource_id": row.get("physical_resource_id"),
        "resource_action": row.get("action"),
        "resource_status": row.get("status"),
        "resource_status_reason": row.get("reason"),
        "resource_type": row.get("resource_type"),
    }
    if root_stack is not None:
        result["root_stack_id"] = dict(root_stack)
    if include_properties:
        result["resource_properties"] = row.get("properties") or {}
    return result


def format_resource_attributes(resource: Any, with_attr: Iterable[str] | None = None) -> dict:
    """``api.format_resource_attributes`` of a loaded resource: its ``show``
    attribute when that is a mapping (plus ``with_attr``), else each
    declared attribute and ``with_attr``; one that fails to resolve is
    None."""
    attrs = resource.attributes
    extra = list(with_attr or ())

    def resolve(name: str) -> Any:
        try:
            return attrs[name]
        except Exception:  # noqa: BLE001 - heat shows an unresolvable attribute as None
            return None

    names = set(attrs)
    if "show" in names:
        shown = resolve("show")
        if isinstance(shown, Mapping):
            shown = dict(shown)
            for name in extra:
                if name not in shown:
                    shown[name] = resolve(name)
            return shown
        names.discard("show")
    return {name: resolve(name) for name in names | set(extra)}
