"""``POST /validate``: Heat's ``EngineService.validate_template``
(``heat/engine/service.py``) over the engine's Template, Parameters and
Stack, and ``format_validate_parameter`` (``heat/engine/api.py``).

What it checks is the template's structure: its sections and resource
keys, the resource types, property names, references, dependencies and
``get_attr`` names. Property and parameter *values* are not checked
(Heat's ``strict_validate=False`` and ``validate_res_tmpl_only``): a
missing required property, a value out of range or a missing ``get_file``
answer 200. A StackValidationFailed is answered as Heat's engine returns
it, ``{"Error": text}``, which heat-api raises as ``HTTPBadRequest`` with
that text (single separators); other refusals keep their Heat type
(``InvalidTemplateVersion``, ``UnknownUserParameter``,
``InvalidSchemaError``, ``CircularDependencyException``,
``InvalidTemplateReference``).
"""

from collections.abc import Callable
from collections.abc import Mapping
from typing import Any

from occli.localcloud import errors
from occli.localcloud.app import Context
from occli.localcloud.orchestration.engine import constraints as constr
from occli.localcloud.orchestration.engine import environment
from occli.localcloud.orchestration.engine import parameters
from occli.localcloud.orchestration.engine import properties
from occli.localcloud.orchestration.engine import template as template_module
from occli.localcloud.orchestration.engine.parameters import PSEUDO_PARAMETERS
from occli.localcloud.orchestration.engine.parameters import Parameter
from occli.localcloud.orchestration.engine.stack import Stack

# the name of the throw-away stack (heat's 'dummy')
STACK_NAME = "dummy"
# format_validate_parameter's schema_to_api_types
_API_TYPES = {
    parameters.STRING: "String",
    parameters.NUMBER: "Number",
    parameters.LIST: "CommaDelimitedList",
    parameters.MAP: "Json",
    parameters.BOOLEAN: "Boolean",
}


def _as_error(exc: errors.BadRequest) -> errors.BadRequest:
    """A StackValidationFailed as ``/validate`` answers it."""
    if exc.extra.get("type") == "StackValidationFailed":
        return errors.BadRequest(exc.message, type="HTTPBadRequest")
    return exc


def validate_template(
    engine: Any,
    ctx: Context,
    template: Any,
    params: Mapping[str, Any] | None,
    files: Mapping[str, str] | None,
    environment_body: Mapping[str, Any] | None,
    args: Mapping[str, Any] | None = None,
    show_nested: bool = False,
) -> dict[str, Any]:
    """Heat's validation answer for ``template`` (parsed), or BadRequest
    with Heat's error type; ``args`` may name ``environment_files``."""
    try:
        row = engine.new_row(
            ctx, STACK_NAME, template, params, files, environment_body, dict(args or {})
        )
        tmpl = template_module.Template(row["template"], files=row["files"])
        tmpl.validate()
        stack = Stack(engine, row)
        stack.parameters.validate(validate_value=False)
        _validate_resources(stack)
    except errors.BadRequest as exc:
        raise _as_error(exc) from None
    result: dict[str, Any] = {
        "Description": tmpl.description,
        "Parameters": parameters_of(stack),
    }
    if tmpl.parameter_groups():
        result["ParameterGroups"] = tmpl.parameter_groups()
    if show_nested:
        nested = nested_parameters(engine, stack)
        if nested:
            result["NestedParameters"] = nested
    result["Environment"] = environment.Environment(row["environment"]).user_env_as_dict()
    return result


def _validate_resources(stack: Stack) -> None:
    """Heat's ``Stack.validate(validate_res_tmpl_only=True)``: in
    dependency order, each resource's functions and property names
    (``Resource.validate_template``), then the outputs' functions."""
    for name in stack.dependencies().order:
        stack.validate_functions(name)
        res = stack.resources[name]
        # the names as the type takes them (OS::Heat::None drops them all,
        # a template resource has its template's), no value resolved
        names = res.make_properties(dict.fromkeys(res.t.get("properties") or {}))
        for key in names.data:
            if key not in names.schema:
                raise properties.property_error(name, ["properties"], "Unknown Property %s" % key)
    stack.validate_functions()


def format_validate_parameter(param: Parameter) -> dict[str, Any]:
    """``api.format_validate_parameter``: one parameter's type, texts,
    default, the value given and its constraints in Heat's CFN keys."""
    schema = param.schema
    result: dict[str, Any] = {
        "Type": _API_TYPES.get(schema.type, schema.type),
        "Description": schema.description or "",
        "NoEcho": "true" if param.hidden() else "false",
        "Label": schema.label or param.name,
    }
    if param.has_default():
        result["Default"] = param.default()
    if param.user_value:
        result["Value"] = param.user_value
    if schema.tags:
        result["Tags"] = schema.tags
    described = []
    for c in schema.constraints:
        if isinstance(c, constr.Length):
            _put(result, "MinLength", c.min)
            _put(result, "MaxLength", c.max)
        elif isinstance(c, constr.Range):
            _put(result, "MinValue", c.min)
            _put(result, "MaxValue", c.max)
        elif isinstance(c, constr.Modulo):
            _put(result, "Step", c.step)
            _put(result, "Offset", c.offset)
        elif isinstance(c, constr.AllowedValues):
            result["AllowedValues"] = list(c.allowed)
        elif isinstance(c, constr.AllowedPattern):
            result["AllowedPattern"] = c.pattern
        elif isinstance(c, constr.CustomConstraint):
            result["CustomConstraint"] = c.name
        if c.description:
            described.append(c.description)
    if described:
        result["ConstraintDescription"] = " ".join(described)
    return result


def _put(result: dict[str, Any], key: str, value: Any) -> None:
    if value is not None:
        result[key] = value


def parameters_of(
    stack: Stack, keep: Callable[[str], bool] = lambda name: name not in PSEUDO_PARAMETERS
) -> dict[str, dict[str, Any]]:
    """``stack.parameters.map(format_validate_parameter)`` without the
    pseudo parameters."""
    return {
        name: format_validate_parameter(param)
        for name, param in stack.parameters.params.items()
        if keep(name)
    }


def nested_parameters(engine: Any, stack: Stack) -> dict[str, Any]:
    """Heat's ``Stack.get_nested_parameters``: for each resource that is a
    nested stack (a template resource, a group), its type, its template's
    description, the parameters it would pass and, down the tree, its own
    nested ones."""
    result: dict[str, Any] = {}
    for name, res in stack.resources.items():
        nested = _nested_stack(engine, stack, res)
        if nested is None:
            continue
        entry: dict[str, Any] = {
            "Type": res.type_name,
            "Description": nested.t.description,
            "Parameters": parameters_of(nested),
        }
        if nested.t.parameter_groups():
            entry["ParameterGroups"] = nested.t.parameter_groups()
        deeper = nested_parameters(engine, nested)
        if deeper:
            entry["NestedParameters"] = deeper
        result[name] = entry
    return result


def _nested_stack(engine: Any, stack: Stack, res: Any) -> Stack | None:
    """``get_nested_parameters_stack``: the (never stored) stack a nested
    stack resource would make; None for any other resource."""
    if not (hasattr(res, "child_template") and hasattr(res, "child_params")):
        return None
    params = res.child_params()
    row = engine.new_row(
        stack.context,
        "%s-%s" % (stack.name, res.name),
        res.child_template(),
        params,
        stack.files,
        res.child_environment(params),
        {},
        owner=stack,
        parent_resource=res.name,
    )
    return Stack(engine, row)
