"""HOT template parameters (Heat's ``heat/engine/parameters.py`` and
``heat/engine/hot/parameters.py``).

:class:`Schema` is one parameter's declaration (``type``: string, number,
comma_delimited_list, json, boolean; ``default``, ``hidden``,
``constraints``, ``immutable``, ``label``, ``tags``), read by
:meth:`Schema.from_dict` with the keys and constraint kinds of the
template's version. :class:`Parameters` holds a stack's values: the
user's, else an environment's ``parameter_defaults``, else the template's
default, plus the pseudo parameters ``OS::stack_name``, ``OS::stack_id``
and ``OS::project_id``; it types them, checks them with Heat's texts
(``The Parameter (x) was not provided.``, ``Parameter 'x' is invalid:
…``) and shows them as ``GET /stacks/{id}`` does (hidden ones as
``******``). Custom constraints go through the engine's ``checker``.
"""

import collections.abc
import json
from collections.abc import Iterator
from collections.abc import Mapping
from typing import Any

from occli.localcloud import errors
from occli.localcloud.orchestration.engine import constraints as constr

STRING, NUMBER, LIST, MAP, BOOLEAN = (
    "string",
    "number",
    "comma_delimited_list",
    "json",
    "boolean",
)
PSEUDO_PARAMETERS = ("OS::stack_id", "OS::stack_name", "OS::region", "OS::project_id")
_KEYS = ("type", "description", "default", "schema", "constraints", "hidden", "label", "immutable")
_CONSTRAINT_KEYS = (
    "description",
    "length",
    "range",
    "modulo",
    "allowed_values",
    "allowed_pattern",
    "custom_constraint",
)
HIDDEN_VALUE = "******"


def _invalid_schema(message: str) -> errors.BadRequest:
    return errors.BadRequest(message, type="InvalidSchemaError")


def _check_dict(data: Any, allowed: tuple[str, ...], entity: str) -> None:
    if not isinstance(data, dict):
        raise constr.InvalidSchemaError("Invalid %s, expected a mapping" % entity)
    for key in data:
        if key not in allowed:
            raise constr.InvalidSchemaError("Invalid key '%s' for %s" % (key, entity))


def _num(data: Mapping[str, Any], key: str) -> Any:
    value = data.get(key)
    return constr.str_to_num(value) if value is not None else None


class Schema(constr.Schema):
    """One template parameter's declaration."""

    TYPES = (STRING, NUMBER, LIST, MAP, BOOLEAN)
    TYPE_KEYS = {
        STRING: "STRING",
        NUMBER: "NUMBER",
        LIST: "LIST",
        MAP: "MAP",
        BOOLEAN: "BOOLEAN",
    }
    STRING, NUMBER, LIST, MAP, BOOLEAN = TYPES  # type: ignore[assignment]

    def __init__(
        self,
        data_type: str,
        description: str | None = None,
        default: Any = None,
        constraints: list[constr.Constraint] | None = None,
        hidden: bool = False,
        label: str | None = None,
        immutable: bool = False,
        tags: list[str] | None = None,
    ) -> None:
        super().__init__(
            data_type,
            description=description,
            default=default,
            required=default is None,
            constraints=constraints,
            label=label,
            immutable=immutable,
        )
        self.hidden = hidden
        self.tags = tags

    def set_default(self, default: Any = None) -> None:
        self.default = default
        self.required = default is None

    def _validate_default(self) -> None:
        if self.default is None:
            return
        value = self.default
        if self.type == LIST:
            if isinstance(value, list):
                value = [str(x) for x in value]
            elif isinstance(value, str):
                value = value.split(",")
            else:
                raise constr.InvalidSchemaError(
                    "Default must be a comma-delimited list string: %s" % value
                )
        try:
            self.validate_constraints(value)
        except (ValueError, TypeError) as exc:
            raise constr.InvalidSchemaError(
                "Invalid default %s (%s)" % (self.default, exc)
            ) from None

    @classmethod
    def from_dict(cls, name: str, data: Any, version: str = "2018-08-31") -> "Schema":
        """The schema of parameter ``name`` as a template of ``version``
        declares it; InvalidSchemaError with Heat's text."""
        keys = _KEYS + (("tags",) if version >= "2018-03-02" else ())
        _check_dict(data, keys, "parameter (%s)" % name)
        if "type" not in data:
            raise constr.InvalidSchemaError("Missing parameter type for parameter: %s" % name)
        if not isinstance(data.get("tags", []), list):
            raise constr.InvalidSchemaError(
                "Tags property should be a list for parameter: %s" % name
            )
        found = data.get("constraints")
        if found is not None and not isinstance(found, list):
            raise constr.InvalidSchemaError(
                "Invalid parameter constraints for parameter %s, expected a list" % name
            )
        made = []
        for definition in found or []:
            _check_dict(definition, _CONSTRAINT_KEYS, "parameter constraints")
            made.append(_constraint(definition, version))
        return cls(
            data["type"],
            description=data.get("description"),
            default=data.get("default"),
            constraints=made,
            hidden=bool(data.get("hidden", False)),
            label=data.get("label"),
            immutable=bool(data.get("immutable", False)),
            tags=data.get("tags"),
        )


def _constraint(definition: Mapping[str, Any], version: str) -> constr.Constraint:
    """One HOT parameter constraint (``HOTParamSchema._constraint_from_def``)."""
    desc = definition.get("description")
    if "modulo" in definition and version >= "2017-02-24":
        cdef = definition["modulo"]
        _check_dict(cdef, ("step", "offset"), "modulo constraint")
        return constr.Modulo(_num(cdef, "step"), _num(cdef, "offset"), desc)
    if "range" in definition:
        cdef = definition["range"]
        _check_dict(cdef, ("min", "max"), "range constraint")
        return constr.Range(_num(cdef, "min"), _num(cdef, "max"), desc)
    if "length" in definition:
        cdef = definition["length"]
        _check_dict(cdef, ("min", "max"), "length constraint")
        return constr.Length(_num(cdef, "min"), _num(cdef, "max"), desc)  # type: ignore[arg-type]
    if "allowed_values" in definition:
        return constr.AllowedValues(definition["allowed_values"], desc)
    if "allowed_pattern" in definition:
        return constr.AllowedPattern(definition["allowed_pattern"], desc)
    if "custom_constraint" in definition:
        return constr.CustomConstraint(definition["custom_constraint"], desc)
    raise constr.InvalidSchemaError("No constraint expressed")


def _parse_list(value: Any) -> list[str]:
    if isinstance(value, list):
        return [str(x) for x in value]
    if not isinstance(value, str):
        raise ValueError("Value must be a comma-delimited list string: %s" % value)
    return value.split(",") if value else []


def _parse_json(value: Any) -> Any:
    try:
        text = value if isinstance(value, str) else json.dumps(value)
        return json.loads(text) if text else value
    except (ValueError, TypeError) as exc:
        raise ValueError("Value must be valid JSON: %s" % exc) from None


class Parameter:
    """One parameter of a stack: its schema and its user value."""

    def __init__(self, name: str, schema: Schema, value: Any = None) -> None:
        self.name = name
        self.schema = schema
        self.user_value = value
        self.user_default: Any = None

    def has_default(self) -> bool:
        return self.schema.default is not None or self.user_default is not None

    def default(self) -> Any:
        return self.user_default if self.user_default is not None else self.schema.default

    def has_value(self) -> bool:
        return self.user_value is not None or self.has_default()

    def raw(self) -> Any:
        if self.user_value is not None:
            return self.user_value
        if self.has_default():
            return self.default()
        raise errors.BadRequest(
            "The Parameter (%s) was not provided." % self.name, type="UserParameterMissing"
        )

    def value(self) -> Any:
        """The typed value (a list, a dict, a number, a bool or a str)."""
        raw = self.raw()
        kind = self.schema.type
        if kind == NUMBER:
            return constr.str_to_num(raw)
        if kind == BOOLEAN:
            return constr.bool_from_string(str(raw))
        if kind == LIST:
            return _parse_list(raw)
        if kind == MAP:
            return _parse_json(raw)
        return str(raw)

    def typed(self, raw: Any) -> Any:
        """``raw`` checked for the type, as constraints see it."""
        kind = self.schema.type
        if kind == NUMBER:
            constr.str_to_num(raw)
            return raw
        if kind == BOOLEAN:
            constr.bool_from_string(raw)
            return raw
        if kind == LIST:
            return _parse_list(raw)
        if kind == MAP:
            return _parse_json(raw)
        return str(raw)

    def validate(self, checker: constr.Checker | None = None) -> None:
        """Heat's ``Parameter.validate``: the schema, then the user's value
        or the default, against the type and every constraint."""
        message = "Parameter '%s' is invalid: %s"
        try:
            self.schema.validate()
        except constr.InvalidSchemaError as exc:
            raise _invalid_schema(message % (self.name, exc)) from None
        raw = self.raw()
        try:
            self.schema.validate_constraints(self.typed(raw), checker)
        except (ValueError, TypeError) as exc:
            raise errors.BadRequest(
                message % (self.name, exc), type="StackValidationFailed"
            ) from None

    def hidden(self) -> bool:
        return self.schema.hidden

    def __str__(self) -> str:
        value = self.value()
        if self.hidden():
            return HIDDEN_VALUE
        if self.schema.type == LIST:
            return ",".join(value)
        if self.schema.type == MAP:
            return json.dumps(value)
        return str(value)


class Parameters(collections.abc.Mapping):
    """A stack's parameters: ``schemata`` (``Template.param_schemata()``),
    the user's ``values``, the environments' ``parameter_defaults``, the
    ``pseudo`` values (``{"OS::stack_name": …, "OS::stack_id": …,
    "OS::project_id": …}``) and the custom-constraint ``checker``."""

    def __init__(
        self,
        schemata: Mapping[str, Schema],
        values: Mapping[str, Any] | None = None,
        parameter_defaults: Mapping[str, Any] | None = None,
        pseudo: Mapping[str, Any] | None = None,
        checker: constr.Checker | None = None,
    ) -> None:
        self.schemata = dict(schemata)
        self.user_params = dict(values or {})
        self.checker = checker
        self.params: dict[str, Parameter] = {}
        descriptions = {
            "OS::stack_id": "Stack ID",
            "OS::project_id": "Project ID",
            "OS::stack_name": "Stack Name",
        }
        for name in ("OS::stack_id", "OS::project_id", "OS::stack_name"):
            value = (pseudo or {}).get(name)
            if name == "OS::stack_name" and not value:
                continue
            self.params[name] = Parameter(
                name, Schema(STRING, descriptions[name], default=str(value or ""))
            )
        for name, schema in self.schemata.items():
            self.params[name] = Parameter(name, schema, self.user_params.get(name))
        for name, default in (parameter_defaults or {}).items():
            if name in self.params:
                self.params[name].user_default = default

    def non_pseudo(self) -> list[str]:
        return [name for name in self.params if name not in PSEUDO_PARAMETERS]

    def validate(self, validate_value: bool = True) -> None:
        """Unknown user parameters (``UnknownUserParameter``), then each
        parameter's schema and value."""
        for name in self.user_params:
            if name not in self.schemata:
                raise errors.BadRequest(
                    "The Parameter (%s) was not defined in template." % name,
                    type="UnknownUserParameter",
                )
        for param in self.params.values():
            if validate_value:
                param.validate(self.checker)
            else:
                try:
                    param.schema.validate()
                except constr.InvalidSchemaError as exc:
                    raise _invalid_schema(
                        "Parameter '%s' is invalid: %s" % (param.name, exc)
                    ) from None

    def immutable_changed(self, new: "Parameters") -> list[str]:
        """Names of immutable parameters whose value ``new`` changes (Heat's
        ``immutable_params_modified``)."""
        changed = []
        for name in sorted(set(new.non_pseudo()) & set(self.non_pseudo())):
            if new.params[name].schema.immutable and self[name] != new[name]:
                changed.append(name)
        return changed

    def display(self) -> dict[str, str]:
        """Every parameter as text, as ``GET /stacks/{id}`` shows it."""
        return {name: str(param) for name, param in self.params.items()}

    def __getitem__(self, name: str) -> Any:
        try:
            param = self.params[name]
        except KeyError:
            raise errors.BadRequest(
                "The Parameter (%s) was not provided." % name, type="UserParameterMissing"
            ) from None
        return param.value()

    def __contains__(self, name: object) -> bool:
        return name in self.params

    def __iter__(self) -> Iterator[str]:
        return iter(self.params)

    def __len__(self) -> int:
        return len(self.params)
