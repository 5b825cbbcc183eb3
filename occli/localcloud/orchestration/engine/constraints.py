"""Value schemas and their constraints (Heat's ``heat/engine/constraints.py``).

The base of property (:mod:`.properties`), attribute (:mod:`.attributes`)
and parameter (:mod:`.parameters`) schemas: a data type, a default and a
list of constraints, each of which refuses a value with Heat's own text.
A schema and a constraint are mappings whose ``dict()`` is what
``GET /resource_types/{type}`` shows, as Heat serialises them.

A constraint raises ``ValueError`` with Heat's message; the schema that
owns it wraps the message with its path (``Property error: …``,
``Parameter 'x' is invalid: …``). A ``custom_constraint`` is checked by a
``checker(name, value)`` callable the engine passes (the registry's
custom constraints reaching the local services); without one it is
skipped, as Heat skips it when validating a default.
"""

import collections.abc
import json
import numbers
import re
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any

# checker(name, value): raises ValueError with the custom constraint's text
Checker = Callable[[str, Any], None]

# oslo_utils.strutils' accepted spellings of a boolean
TRUE_STRINGS = ("1", "t", "true", "on", "y", "yes")
FALSE_STRINGS = ("0", "f", "false", "off", "n", "no")


class InvalidSchemaError(ValueError):
    """A schema that is itself wrong (Heat's ``InvalidSchemaError``, a 400
    with that ``error.type``)."""


def bool_from_string(subject: Any) -> bool:
    """oslo's ``strutils.bool_from_string(subject, strict=True)``."""
    if isinstance(subject, bool):
        return subject
    text = subject if isinstance(subject, str) else str(subject)
    lowered = text.strip().lower()
    if lowered in TRUE_STRINGS:
        return True
    if lowered in FALSE_STRINGS:
        return False
    acceptable = ", ".join("'%s'" % s for s in sorted(TRUE_STRINGS + FALSE_STRINGS))
    raise ValueError("Unrecognized value '%s', acceptable values are: %s" % (text, acceptable))


def str_to_num(value: Any) -> int | float:
    """A number, or a number's text as an int or a float (Heat's
    ``Schema.str_to_num``)."""
    if isinstance(value, numbers.Number):
        return value  # type: ignore[return-value]
    try:
        return int(value)
    except ValueError:
        return float(value)


class Schema(collections.abc.Mapping):
    """A typed value with a default and constraints."""

    KEYS: tuple[str, ...] = (
        "type",
        "description",
        "default",
        "schema",
        "required",
        "constraints",
        "immutable",
    )
    TYPES: tuple[str | None, ...] = (
        "Integer",
        "String",
        "Number",
        "Boolean",
        "Map",
        "List",
        "Any",
    )
    INTEGER, STRING, NUMBER, BOOLEAN, MAP, LIST, ANY = (
        "Integer",
        "String",
        "Number",
        "Boolean",
        "Map",
        "List",
        "Any",
    )
    # the constraint kinds' names for the types (``valid_types``)
    TYPE_KEYS = {
        "Integer": "INTEGER",
        "String": "STRING",
        "Number": "NUMBER",
        "Boolean": "BOOLEAN",
        "Map": "MAP",
        "List": "LIST",
    }

    def __init__(
        self,
        data_type: Any,
        description: str | None = None,
        default: Any = None,
        schema: "Mapping[Any, Schema] | Schema | None" = None,
        required: bool = False,
        constraints: "Sequence[Constraint] | None" = None,
        label: str | None = None,
        immutable: bool = False,
    ) -> None:
        if data_type not in self.TYPES:
            raise InvalidSchemaError("Invalid type (%s)" % data_type)
        self.type = data_type
        self.description = description
        self.default = default
        self.required = required
        self.label = label
        self.immutable = immutable
        self.schema: Mapping[Any, Schema] | None
        if isinstance(schema, Schema):
            if self.type != self.LIST:
                raise InvalidSchemaError(
                    "Single schema valid only for %s, not %s" % (self.LIST, self.type)
                )
            self.schema = AnyIndexDict(schema)
        else:
            self.schema = schema
        if self.schema is not None and self.type not in (self.LIST, self.MAP):
            raise InvalidSchemaError(
                "Schema valid only for %s or %s, not %s" % (self.LIST, self.MAP, self.type)
            )
        self.constraints: list[Constraint] = list(constraints or [])

    def validate(self) -> None:
        """Check the schema itself: constraints that fit its type, a default
        that meets them (custom constraints aside), nested schemata."""
        for constraint in self.constraints:
            if self.TYPE_KEYS.get(self.type) not in constraint.valid_types:
                raise InvalidSchemaError(
                    "%s constraint invalid for %s" % (type(constraint).__name__, self.type)
                )
        self._validate_default()
        for nested in (self.schema or {}).values():
            nested.validate()

    def _validate_default(self) -> None:
        if self.default is not None:
            try:
                self.validate_constraints(self.default)
            except (ValueError, TypeError) as exc:
                raise InvalidSchemaError("Invalid default %s (%s)" % (self.default, exc)) from None

    def set_default(self, default: Any = None) -> None:
        self.default = default

    def to_schema_type(self, value: Any) -> Any:
        """``value`` in the schema's data type, or ValueError."""
        try:
            if self.type == self.INTEGER:
                num = str_to_num(value)
                if isinstance(num, float):
                    raise ValueError("%s is not an integer." % num)
                return num
            if self.type == self.NUMBER:
                return str_to_num(value)
            if self.type == self.STRING:
                return str(value)
            if self.type == self.BOOLEAN:
                return bool_from_string(str(value))
        except ValueError:
            raise ValueError(
                'Value "%s" is invalid for data type "%s".' % (value, self.type)
            ) from None
        return value

    def validate_constraints(self, value: Any, checker: Checker | None = None) -> None:
        """Every constraint on ``value``; the first refusal's ValueError.
        Custom constraints only with a ``checker``."""
        for constraint in self.constraints:
            constraint.validate(value, self, checker)

    def __getitem__(self, key: str) -> Any:
        if key == "type":
            return self.type.lower()
        if key == "description" and self.description is not None:
            return self.description
        if key == "default" and self.default is not None:
            return self.default
        if key == "schema" and self.schema is not None:
            return {name: dict(s) for name, s in self.schema.items()}
        if key == "required":
            return self.required
        if key == "constraints" and self.constraints:
            return [dict(c) for c in self.constraints]
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        for key in self.KEYS:
            try:
                self[key]
            except KeyError:
                continue
            yield key

    def __len__(self) -> int:
        return len(list(iter(self)))


class AnyIndexDict(collections.abc.Mapping):
    """A list's item schema: the same for every index, ``{"*": …}`` shown."""

    ANYTHING = "*"

    def __init__(self, value: Schema) -> None:
        self.value = value

    def __getitem__(self, key: Any) -> Schema:
        if key != self.ANYTHING and not isinstance(key, int):
            raise KeyError("Invalid key %s" % key)
        return self.value

    def __iter__(self) -> Iterator[str]:
        yield self.ANYTHING

    def __len__(self) -> int:
        return 1


class Constraint(collections.abc.Mapping):
    """A rule on the values a schema allows; ``dict()`` gives its template
    form (``{"<name>": <definition>, "description": …}``)."""

    valid_types: tuple[str, ...] = ()

    def __init__(self, description: str | None = None) -> None:
        self.description = description

    def __str__(self) -> str:
        return "\n".join(t for t in (self.description, self._str()) if t)

    def validate(
        self, value: Any, schema: Schema | None = None, checker: Checker | None = None
    ) -> None:
        """ValueError with the description, else Heat's text, if ``value``
        is refused."""
        if not self._is_valid(value, schema, checker):
            raise ValueError(self.description or self._err_msg(value))

    @classmethod
    def _name(cls) -> str:
        return "_".join(w.lower() for w in re.findall("[A-Z]?[a-z]+", cls.__name__))

    def __getitem__(self, key: str) -> Any:
        if key == "description" and self.description is not None:
            return self.description
        if key == self._name():
            return self._constraint()
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        if self.description is not None:
            yield "description"
        yield self._name()

    def __len__(self) -> int:
        return 2 if self.description is not None else 1

    def _str(self) -> str:
        raise NotImplementedError

    def _err_msg(self, value: Any) -> str:
        raise NotImplementedError

    def _is_valid(self, value: Any, schema: Schema | None, checker: Checker | None) -> bool:
        raise NotImplementedError

    def _constraint(self) -> Any:
        raise NotImplementedError


class Range(Constraint):
    """``range: {min, max}``: a number within bounds."""

    valid_types: tuple[str, ...] = ("INTEGER", "NUMBER")

    def __init__(
        self, min: float | None = None, max: float | None = None, description: str | None = None
    ) -> None:
        super().__init__(description)
        self.min = min
        self.max = max
        for param in (min, max):
            if not isinstance(param, (float, int, type(None))):
                raise InvalidSchemaError("min/max must be numeric")
        if min is None and max is None:
            raise InvalidSchemaError(
                "A range constraint must have a min value and/or a max value specified."
            )

    def _str(self) -> str:
        if self.max is None:
            return "The value must be at least %(min)s." % self._constraint()
        if self.min is None:
            return "The value must be no greater than %(max)s." % self._constraint()
        return "The value must be in the range %(min)s to %(max)s." % self._constraint()

    def _err_msg(self, value: Any) -> str:
        return "%s is out of range (min: %s, max: %s)" % (value, self.min, self.max)

    def _is_valid(self, value: Any, schema: Schema | None, checker: Checker | None) -> bool:
        number = str_to_num(value)
        if self.min is not None and number < self.min:
            return False
        return not (self.max is not None and number > self.max)

    def _constraint(self) -> dict[str, Any]:
        bounds = (("min", self.min), ("max", self.max))
        return {key: bound for key, bound in bounds if bound is not None}


class Length(Range):
    """``length: {min, max}``: a string, list or map of bounded length."""

    valid_types = ("STRING", "LIST", "MAP")

    def __init__(
        self, min: int | None = None, max: int | None = None, description: str | None = None
    ) -> None:
        if min is None and max is None:
            raise InvalidSchemaError(
                "A length constraint must have a min value and/or a max value specified."
            )
        super().__init__(min, max, description)
        for param in (min, max):
            if not isinstance(param, (int, type(None))):
                raise InvalidSchemaError("min/max length must be integral")

    def _str(self) -> str:
        if self.max is None:
            return "The length must be at least %(min)s." % self._constraint()
        if self.min is None:
            return "The length must be no greater than %(max)s." % self._constraint()
        return "The length must be in the range %(min)s to %(max)s." % self._constraint()

    def _err_msg(self, value: Any) -> str:
        return "length (%d) is out of range (min: %s, max: %s)" % (
            len(value),
            self.min,
            self.max,
        )

    def _is_valid(self, value: Any, schema: Schema | None, checker: Checker | None) -> bool:
        return super()._is_valid(len(value), schema, checker)


class Modulo(Constraint):
    """``modulo: {step, offset}``: ``value % step == offset`` (HOT
    2017-02-24 and later)."""

    valid_types = ("INTEGER", "NUMBER")

    def __init__(
        self,
        step: float | None = None,
        offset: float | None = None,
        description: str | None = None,
    ) -> None:
        super().__init__(description)
        self.step = step
        self.offset = offset
        if step is None or offset is None:
            raise InvalidSchemaError(
                "A modulo constraint must have a step value and an offset value specified."
            )
        for param in (step, offset):
            if not isinstance(param, (float, int)):
                raise InvalidSchemaError("step/offset must be numeric")
            if int(param) != param:
                raise InvalidSchemaError("step/offset must be integer")
        if int(step) == 0:
            raise InvalidSchemaError("step cannot be 0.")
        if abs(int(offset)) >= abs(int(step)):
            raise InvalidSchemaError("offset must be smaller (by absolute value) than step.")
        if step * offset < 0:
            raise InvalidSchemaError("step and offset must be both positive or both negative.")

    def _str(self) -> str:
        return "The value must be a multiple of %(step)s with an offset of %(offset)s." % (
            self._constraint()
        )

    def _err_msg(self, value: Any) -> str:
        return "%s is not a multiple of %s with an offset of %s" % (
            value,
            self.step,
            self.offset,
        )

    def _is_valid(self, value: Any, schema: Schema | None, checker: Checker | None) -> bool:
        return bool(str_to_num(value) % self.step == self.offset)  # type: ignore[operator]

    def _constraint(self) -> dict[str, Any]:
        return {"step": self.step, "offset": self.offset}


class AllowedValues(Constraint):
    """``allowed_values: [...]``: one of the listed values (each item of a
    list value)."""

    valid_types = ("STRING", "INTEGER", "NUMBER", "BOOLEAN", "LIST")

    def __init__(self, allowed: Sequence[Any], description: str | None = None) -> None:
        super().__init__(description)
        if not isinstance(allowed, collections.abc.Sequence) or isinstance(allowed, str):
            raise InvalidSchemaError("AllowedValues must be a list")
        self.allowed = tuple(allowed)

    def _str(self) -> str:
        return "Allowed values: %s" % ", ".join(json.dumps(a) for a in self.allowed)

    def _err_msg(self, value: Any) -> str:
        allowed = "[%s]" % ", ".join(json.dumps(a) for a in self.allowed)
        return "%s is not an allowed value %s" % (json.dumps(value), allowed)

    def _is_valid(self, value: Any, schema: Schema | None, checker: Checker | None) -> bool:
        if isinstance(value, list):
            return all(v in self.allowed for v in value)
        if schema is not None:
            try:
                allowed = tuple(schema.to_schema_type(v) for v in self.allowed)
                return schema.to_schema_type(value) in allowed
            except ValueError:
                return False
        return value in self.allowed

    def _constraint(self) -> list[Any]:
        return list(self.allowed)


class AllowedPattern(Constraint):
    """``allowed_pattern: <regex>``: the whole string matches."""

    valid_types = ("STRING",)

    def __init__(self, pattern: str, description: str | None = None) -> None:
        super().__init__(description)
        if not isinstance(pattern, str):
            raise InvalidSchemaError("AllowedPattern must be a string")
        self.pattern = pattern
        try:
            self.match = re.compile(pattern).match
        except re.error as exc:
            raise InvalidSchemaError("Invalid pattern %s: %s" % (pattern, exc)) from None

    def _str(self) -> str:
        return "Value must match pattern: %s" % self.pattern

    def _err_msg(self, value: Any) -> str:
        return '"%s" does not match pattern "%s"' % (value, self.pattern)

    def _is_valid(self, value: Any, schema: Schema | None, checker: Checker | None) -> bool:
        match = self.match(str(value))
        return match is not None and match.end() == len(str(value))

    def _constraint(self) -> str:
        return self.pattern


class CustomConstraint(Constraint):
    """``custom_constraint: <name>`` (``nova.flavor``, ``glance.image``…):
    checked by the engine's checker against the cloud; skipped without one
    (a default, a template validated offline)."""

    valid_types = ("STRING", "INTEGER", "NUMBER", "BOOLEAN", "LIST")

    def __init__(self, name: str, description: str | None = None) -> None:
        super().__init__(description)
        self.name = name

    def validate(
        self, value: Any, schema: Schema | None = None, checker: Checker | None = None
    ) -> None:
        if checker is None:
            return
        try:
            checker(self.name, value)
        except ValueError as exc:
            raise ValueError(self.description or str(exc)) from None

    def _str(self) -> str:
        return "Value must be of type %s" % self.name

    def _constraint(self) -> str:
        return self.name
