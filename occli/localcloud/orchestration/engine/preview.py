"""A stack as it would be, nothing made: Heat's ``Stack.preview_resources``
and ``api.format_stack_preview`` (``heat/engine/stack.py``,
``heat/engine/api.py``, ``heat/engine/resources/stack_resource.py``
``preview``).

The previewed stack has no id (Heat's ``None``, shown as ``"None"``): its
resources are in ``INIT_COMPLETE`` with their properties and attributes
resolved now, a nested stack's resource (a group, a template resource) is
the list of the nested stack's own resources, and the outputs are resolved
as a stored stack's (an attribute of a resource not made is null).
"""

import logging
from collections.abc import Mapping
from typing import Any

from occli.localcloud.orchestration.engine import formats
from occli.localcloud.orchestration.engine.resource import COMPLETE
from occli.localcloud.orchestration.engine.resource import Resource
from occli.localcloud.orchestration.engine.stack import Stack

LOG = logging.getLogger(__name__)
# the id of a stack that was never stored (str(None), as Heat shows it)
NO_ID = "None"


def format_stack_preview(stack: Stack) -> dict[str, Any]:
    """``api.format_stack_preview``: the stack's keys (no action nor
    status), its outputs and its resources' previews."""
    info = formats.format_stack(
        stack.row, outputs=stack.outputs(), parameters=stack.parameters.display(), preview=True
    )
    info["resources"] = preview_resources(stack)
    return info


def preview_resources(stack: Stack) -> list[Any]:
    """Each resource's preview in the template's order; a nested stack's
    resource is the list of its nested stack's previews."""
    deps = stack.dependencies()
    previews: list[Any] = []
    for name, res in stack.resources.items():
        nested = _nested_stack(stack, res)
        if nested is not None:
            previews.append(preview_resources(nested))
        else:
            previews.append(format_preview_resource(stack, res, deps.required_by(name)))
    return previews


def _nested_stack(stack: Stack, res: Resource) -> Stack | None:
    """The nested stack a StackResource would make (named
    ``<stack>-<resource>``, no id), None for any other resource or one
    whose nested template cannot be known before it is made."""
    child_template = getattr(res, "child_template", None)
    if child_template is None:
        return None
    try:
        tmpl = child_template()
        params = res.child_params()  # type: ignore[attr-defined]
    except NotImplementedError:
        LOG.warning("Preview of '%s' not yet implemented", type(res).__name__)
        return None
    row = stack.engine.new_row(
        stack.context,
        "%s-%s" % (stack.name, res.name),
        dict(tmpl),
        dict(params),
        stack.files,
        res.child_environment(params),  # type: ignore[attr-defined]
        {},
        owner=stack,
        parent_resource=res.name,
    )
    return Stack(stack.engine, preview_row(row))


def preview_row(row: Mapping[str, Any]) -> dict[str, Any]:
    """A new stack row as a previewed stack's: no id, never acted on."""
    return dict(row, id=NO_ID, action="INIT", status=COMPLETE, status_reason="")


def format_preview_resource(stack: Stack, res: Resource, required_by: list[str]) -> dict[str, Any]:
    """``format_stack_resource(res, with_props=True)`` of a resource not
    made: no times nor physical id, its template metadata, attributes and
    properties resolved now."""
    row = {
        "name": res.name,
        "type": res.type_name,
        "physical_resource_id": "",
        "action": "INIT",
        "status": COMPLETE,
        "status_reason": "",
        "definition": res.t,
        "metadata": _resolved(stack, res.t.get("metadata") or {}),
    }
    return formats.format_stack_resource(
        row,
        stack.row,
        required_by,
        attributes=formats.format_resource_attributes(res),
        properties=_properties(res),
        parent_resource=stack.row.get("parent_resource"),
    )


def _properties(res: Resource) -> dict[str, Any]:
    """``format_resource_properties``: each property of the schema, None
    where it cannot be read."""
    try:
        props = res.properties
        names = list(props)
    except Exception:  # noqa: BLE001 - heat shows unreadable properties as None
        return dict.fromkeys(getattr(res, "properties_schema", {}))
    shown = {}
    for name in names:
        try:
            shown[name] = props[name]
        except (KeyError, ValueError):
            shown[name] = None
    return shown


def _resolved(stack: Stack, snippet: Any) -> Any:
    try:
        return stack.resolve(snippet)
    except Exception:  # noqa: BLE001 - a preview shows what cannot be resolved as written
        return snippet
