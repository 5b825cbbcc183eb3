"""Resource property schemas and values (Heat's ``heat/engine/properties.py``).

A resource type declares ``properties_schema = {name: Schema(...)}``;
:class:`Properties` is the mapping its plugin reads: the template's values
(functions already resolved) coerced to each schema's type, defaults
applied, nested map and list schemata applied to their items.
:meth:`Properties.validate` refuses what Heat refuses, with Heat's text
and path: ``Property error: resources.<name>.properties.<key>: <reason>``
(``…properties: Unknown Property <key>``, ``…properties: Property <key>
not assigned``), as ``StackValidationFailed`` (a 400).
"""

import collections.abc
import json
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any

from occli.localcloud import errors
from occli.localcloud.orchestration.engine import constraints as constr
from occli.localcloud.orchestration.engine import exception
from occli.localcloud.orchestration.engine import support


class Schema(constr.Schema):
    """One property: its type, default, constraints, and whether an update
    may change it in place (``update_allowed``) or never (``immutable``)."""

    KEYS = (
        "type",
        "description",
        "default",
        "schema",
        "required",
        "constraints",
        "update_allowed",
        "immutable",
    )

    def __init__(
        self,
        data_type: str,
        description: str | None = None,
        default: Any = None,
        schema: "Mapping[Any, constr.Schema] | constr.Schema | None" = None,
        required: bool = False,
        constraints: Sequence[constr.Constraint] | None = None,
        implemented: bool = True,
        update_allowed: bool = False,
        immutable: bool = False,
        allow_conversion: bool = False,
        support_status: support.SupportStatus | None = None,
    ) -> None:
        super().__init__(
            data_type, description, default, schema, required, constraints, immutable=immutable
        )
        self.implemented = implemented
        self.support_status = support_status or support.SupportStatus()
        self.update_allowed = update_allowed
        # a Json parameter behind a Map or List property (template resources)
        self.allow_conversion = allow_conversion
        self.validate()

    def validate(self) -> None:
        super().validate()
        if self.update_allowed and self.immutable:
            raise constr.InvalidSchemaError(
                "Options UpdateAllowed and Immutable cannot both be True"
            )

    @classmethod
    def from_parameter(cls, param: Any) -> "Schema":
        """The property of a template resource that feeds the nested
        template's parameter ``param`` (a :class:`parameters.Schema`)."""
        types = {
            "string": cls.STRING,
            "number": cls.NUMBER,
            "comma_delimited_list": cls.LIST,
            "json": cls.MAP,
            "boolean": cls.BOOLEAN,
        }
        return cls(
            types.get(param.type, cls.MAP),
            description=param.description,
            required=param.required,
            constraints=param.constraints,
            update_allowed=True,
            allow_conversion=param.type in ("json", "comma_delimited_list"),
        )

    def __getitem__(self, key: str) -> Any:
        if key == "update_allowed":
            return self.update_allowed
        if key == "immutable":
            return self.immutable
        return super().__getitem__(key)


class _Invalid(Exception):
    """A refused value, with the path below the properties it is at."""

    def __init__(self, path: list[Any], message: str) -> None:
        super().__init__(message)
        self.path = path
        self.message = message


def format_path(path: Sequence[Any]) -> str:
    """Heat's error path: ``a.b[0].c`` (``HeatExceptionWithPath``)."""
    text = ""
    for item in path:
        if isinstance(item, int) or str(item).isdigit():
            text += "[%s]" % item
        elif text:
            text += ".%s" % item
        else:
            text = str(item)
    return text


def property_error(resource_name: str, path: Sequence[Any], message: str) -> errors.BadRequest:
    """Heat's ``Property error: resources.<name>.<path>: <message>``
    (``path`` starts with the section: ``properties``, ``update_policy``)."""
    return exception.validation_failed(
        "Property error", format_path(["resources", resource_name, *path]), message
    )


class Property:
    """One schema's coercion of a value (Heat's ``Property``)."""

    def __init__(self, schema: constr.Schema, name: Any) -> None:
        self.schema = schema
        self.name = name

    def default(self) -> Any:
        return self.schema.default

    def _or_default(self, value: Any, empty: Any) -> Any:
        if value is None:
            return self.schema.default if self.schema.default is not None else empty
        return value

    def _get_integer(self, value: Any) -> int:
        value = self._or_default(value, 0) or 0
        try:
            return int(value)
        except ValueError:
            raise ValueError("Value '%s' is not an integer" % value) from None

    def _get_string(self, value: Any) -> str:
        value = self._or_default(value, "") or ""
        if not isinstance(value, str):
            if isinstance(value, (bool, int)):
                return str(value)
            raise ValueError("Value must be a string; got %r" % (value,))
        return value

    def _get_map(self, value: Any, validate: bool, checker: constr.Checker | None) -> Any:
        value = self._or_default(value, {})
        if not isinstance(value, collections.abc.Mapping):
            if getattr(self.schema, "allow_conversion", False):
                if isinstance(value, str):
                    return value
                if isinstance(value, collections.abc.Sequence):
                    return json.dumps(value)
            raise ValueError('"%s" is not a map' % (value,))
        return dict(self._children(dict(value), None, validate, checker))

    def _get_list(self, value: Any, validate: bool, checker: constr.Checker | None) -> list:
        value = self._or_default(value, []) or []
        if getattr(self.schema, "allow_conversion", False) and isinstance(value, str):
            value = value.split(",") if value else []
        if not isinstance(value, collections.abc.Sequence) or isinstance(value, str):
            raise ValueError('"%s" is not a list' % repr(value))
        items = self._children(dict(enumerate(value)), list(range(len(value))), validate, checker)
        return [item for _, item in items]

    def _get_bool(self, value: Any) -> bool:
        value = self._or_default(value, False) or False
        if isinstance(value, bool):
            return value
        if isinstance(value, str):
            normalised = value.lower()
            if normalised not in ("true", "false"):
                raise ValueError('"%s" is not a valid boolean' % normalised)
            return normalised == "true"
        raise ValueError('"%s" is not a valid boolean' % (value,))

    def _children(
        self,
        values: dict[Any, Any],
        keys: list[Any] | None,
        validate: bool,
        checker: constr.Checker | None,
    ) -> Iterator[tuple[Any, Any]]:
        if self.schema.schema is None:
            return iter(values.items())
        if keys is None:
            keys = list(self.schema.schema)
        nested = _Values({k: self.schema.schema[k] for k in keys}, values, checker)
        if validate:
            nested.check()
        return ((k, nested.value(k)) for k in keys)

    def get_value(
        self, value: Any, validate: bool = False, checker: constr.Checker | None = None
    ) -> Any:
        """``value`` (None: the default) in the schema's type; with
        ``validate`` its constraints checked too."""
        kind = self.schema.type
        result: Any
        if kind == Schema.STRING:
            result = self._get_string(value)
        elif kind == Schema.INTEGER:
            result = self._get_integer(value)
        elif kind == Schema.NUMBER:
            result = constr.str_to_num(self._or_default(value, 0) or 0)
        elif kind == Schema.MAP:
            result = self._get_map(value, validate, checker)
        elif kind == Schema.LIST:
            result = self._get_list(value, validate, checker)
        elif kind == Schema.BOOLEAN:
            result = self._get_bool(value)
        else:
            result = value
        if validate:
            self.schema.validate_constraints(result, checker)
        return result


class _Values:
    """Values under one schema map; refusals raise :class:`_Invalid` with
    the path inside it."""

    def __init__(
        self,
        schema: Mapping[Any, constr.Schema],
        data: Mapping[Any, Any],
        checker: constr.Checker | None,
    ) -> None:
        self.props = {key: Property(s, key) for key, s in schema.items()}
        self.data = data
        self.checker = checker

    def value(self, key: Any, validate: bool = False) -> Any:
        prop = self.props[key]
        if key in self.data:
            try:
                return prop.get_value(self.data[key], validate, self.checker)
            except _Invalid as exc:
                raise _Invalid([key, *exc.path], exc.message) from None
            except (ValueError, TypeError) as exc:
                raise _Invalid([key], str(exc)) from None
        if prop.schema.default is not None:
            try:
                return prop.get_value(None, validate, self.checker)
            except _Invalid as exc:
                raise _Invalid([key, *exc.path], exc.message) from None
            except (ValueError, TypeError) as exc:
                raise _Invalid([key], str(exc)) from None
        if prop.schema.required:
            raise _Invalid([], "Property %s not assigned" % key)
        return None

    def check(self) -> None:
        for key in self.data:
            if key not in self.props:
                raise _Invalid([], "Unknown Property %s" % key)
        for key, prop in self.props.items():
            self.value(key, validate=True)
            if not getattr(prop.schema, "implemented", True) and key in self.data:
                raise _Invalid([], "Property %s not implemented yet" % key)


class Properties(collections.abc.Mapping):
    """A resource's property values under its schema.

    ``data`` holds the template's values with functions resolved;
    ``checker(name, value)`` checks custom constraints (the engine passes
    the registry's, reaching the cloud); ``section`` names the template
    section in error paths (``properties``, ``update_policy``).
    """

    def __init__(
        self,
        schema: Mapping[str, Schema],
        data: Mapping[str, Any] | None,
        resource_name: str,
        checker: constr.Checker | None = None,
        section: str = "properties",
    ) -> None:
        self.schema = dict(schema)
        self.data = dict(data or {})
        self.resource_name = resource_name
        self.section = section
        self._values = _Values(self.schema, self.data, checker)

    def _failure(self, exc: _Invalid) -> errors.BadRequest:
        return property_error(self.resource_name, [self.section, *exc.path], exc.message)

    def validate(self) -> None:
        """Heat's property validation: unknown keys, required ones, types
        and constraints; BadRequest ``StackValidationFailed`` with Heat's
        text."""
        try:
            self._values.check()
        except _Invalid as exc:
            raise self._failure(exc) from None

    def get_user_value(self, key: str) -> Any:
        """What the template gave for ``key`` (no default), coerced."""
        if key not in self.schema:
            raise KeyError("Invalid Property %s" % key)
        if key not in self.data:
            return None
        return self[key]

    def __getitem__(self, key: str) -> Any:
        if key not in self.schema:
            raise KeyError("Invalid Property %s" % key)
        try:
            return self._values.value(key)
        except _Invalid as exc:
            raise ValueError(self._failure(exc).message) from None

    def __contains__(self, key: object) -> bool:
        return key in self.schema

    def __iter__(self) -> Iterator[str]:
        return iter(self.schema)

    def __len__(self) -> int:
        return len(self.schema)

    @staticmethod
    def shown(schema: Mapping[str, Schema]) -> dict[str, Schema]:
        """The properties a type shows: implemented and not ``HIDDEN``."""
        return {
            name: s
            for name, s in schema.items()
            if s.implemented
            and support.status_of(getattr(s, "support_status", None)) != support.HIDDEN
        }

    @classmethod
    def schema_view(cls, schema: Mapping[str, Schema]) -> dict[str, dict[str, Any]]:
        """The properties as ``GET /resource_types/{type}`` shows them
        (Heat's ``resource_schema``)."""
        return {name: dict(s) for name, s in cls.shown(schema).items()}

    @classmethod
    def schema_to_parameters_and_properties(
        cls, schema: Mapping[str, Schema], hot: bool
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """The parameters and properties of the template ``GET
        /resource_types/{type}/template`` makes of a type (Heat's method of
        this name): a parameter per property, each property its
        ``get_param`` (CFN: ``Ref``, a list through ``Fn::Split``)."""
        params: dict[str, Any] = {}
        props: dict[str, Any] = {}
        for name, s in cls.shown(schema).items():
            params[name] = _hot_param(s) if hot else _cfn_param(s)
            if hot:
                props[name] = {"get_param": name}
            elif s.type == Schema.LIST:
                props[name] = {"Fn::Split": [",", {"Ref": name}]}
            else:
                props[name] = {"Ref": name}
        return params, props


_CFN_TYPES = {
    Schema.INTEGER: "Number",
    Schema.STRING: "String",
    Schema.NUMBER: "Number",
    Schema.BOOLEAN: "Boolean",
    Schema.MAP: "Json",
    Schema.LIST: "CommaDelimitedList",
}
_HOT_TYPES = {
    Schema.INTEGER: "number",
    Schema.STRING: "string",
    Schema.NUMBER: "number",
    Schema.BOOLEAN: "boolean",
    Schema.MAP: "json",
    Schema.LIST: "comma_delimited_list",
}


def _cfn_param(s: Schema) -> dict[str, Any]:
    """Heat's ``_param_def_from_prop``: a CFN parameter for a property."""
    param: dict[str, Any] = {"Type": _CFN_TYPES.get(s.type, "String")}
    if s.description is not None:
        param["Description"] = s.description
    if s.default is not None:
        param["Default"] = s.default
    for c in s.constraints:
        if isinstance(c, constr.Length):
            param.update(_bounds(c, "MinLength", "MaxLength"))
        elif isinstance(c, constr.Range):
            param.update(_bounds(c, "MinValue", "MaxValue"))
        elif isinstance(c, constr.AllowedValues):
            param["AllowedValues"] = list(c.allowed)
        elif isinstance(c, constr.AllowedPattern):
            param["AllowedPattern"] = c.pattern
    if s.type == Schema.BOOLEAN:
        param["AllowedValues"] = ["True", "true", "False", "false"]
    return param


def _hot_param(s: Schema) -> dict[str, Any]:
    """Heat's ``_hot_param_def_from_prop``: a HOT parameter for a property."""
    param: dict[str, Any] = {"type": _HOT_TYPES.get(s.type, "string")}
    if s.description is not None:
        param["description"] = s.description
    if s.default is not None:
        param["default"] = s.default
    found: list[dict[str, Any]] = []
    for c in s.constraints:
        if isinstance(c, constr.Length):
            found.append({"length": _bounds(c, "min", "max")})
        elif isinstance(c, constr.Range):
            found.append({"range": _bounds(c, "min", "max")})
        elif isinstance(c, constr.AllowedValues):
            found.append({"allowed_values": list(c.allowed)})
        elif isinstance(c, constr.AllowedPattern):
            found.append({"allowed_pattern": c.pattern})
        else:
            found.append({})
    if found:
        param["constraints"] = found
    return param


def _bounds(c: Any, low: str, high: str) -> dict[str, Any]:
    return {
        k: v
        for k, v in ((low, getattr(c, "min", None)), (high, getattr(c, "max", None)))
        if v is not None
    }
