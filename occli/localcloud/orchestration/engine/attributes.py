"""Resource attribute schemas and values (Heat's ``heat/engine/attributes.py``).

A resource type declares ``attributes_schema = {name: Schema(...)}``;
``get_attr`` reads one through :class:`Attributes`, which refuses an
undeclared name with Heat's ``InvalidTemplateAttribute`` text and selects
a path inside the value (:func:`select_from_attribute`). ``show`` (the
physical resource as its service shows it) is every type's attribute, as
Heat's ``base_attributes_schema`` makes it. Values are read afresh from
the resource on every call: the engine's resources live across ticks and
their physical state changes.
"""

import collections.abc
import functools
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any

from occli.localcloud import errors
from occli.localcloud.orchestration.engine import constraints as constr
from occli.localcloud.orchestration.engine import support

SHOW_ATTR = "show"


class Schema(constr.Schema):
    """One attribute: its description and (optional) type."""

    KEYS = ("description", "type")
    TYPES = (None, "String", "Map", "List", "Integer", "Boolean", "Number")
    UNKNOWN = None
    INTEGER, STRING, NUMBER, BOOLEAN, MAP, LIST = (
        "Integer",
        "String",
        "Number",
        "Boolean",
        "Map",
        "List",
    )
    # Heat's cache modes; the local engine reads every value afresh
    CACHE_LOCAL, CACHE_NONE = "cache_local", "cache_none"

    def __init__(
        self,
        description: str | None = None,
        type: str | None = None,
        cache_mode: str = CACHE_LOCAL,
        support_status: support.SupportStatus | None = None,
    ) -> None:
        super().__init__(type, description)
        self.cache_mode = cache_mode
        self.support_status = support_status or support.SupportStatus()

    def __getitem__(self, key: str) -> Any:
        if key == "description" and self.description is not None:
            return self.description
        if key == "type" and self.type is not None:
            return self.type.lower()
        raise KeyError(key)


# what every resource type has (heat/engine/resource.py)
BASE_ATTRIBUTES = {
    SHOW_ATTR: Schema("Detailed information about resource.", type=Schema.MAP),
}


def shown(schema: Mapping[str, Schema]) -> dict[str, Schema]:
    """The attributes a type shows (``show`` included; a ``HIDDEN`` one
    left out)."""
    return {
        name: s
        for name, s in {**schema, **BASE_ATTRIBUTES}.items()
        if support.status_of(getattr(s, "support_status", None)) != support.HIDDEN
    }


def schema_view(schema: Mapping[str, Schema]) -> dict[str, dict[str, Any]]:
    """The attributes as ``GET /resource_types/{type}`` shows them."""
    return {name: dict(s) for name, s in shown(schema).items()}


def as_outputs(resource_name: str, schema: Mapping[str, Schema], hot: bool) -> dict[str, Any]:
    """The outputs of the template ``GET /resource_types/{type}/template``
    makes of a type (Heat's ``Attributes.as_outputs``): each attribute's
    ``get_attr``, and ``OS::stack_id`` its reference."""
    outputs: dict[str, Any] = {}
    for name, s in shown(schema).items():
        if hot:
            outputs[name] = {
                "value": {"get_attr": [resource_name, name]},
                "description": s.description,
            }
        else:
            outputs[name] = {
                "Value": {"Fn::GetAtt": [resource_name, name]},
                "Description": s.description,
            }
    outputs["OS::stack_id"] = (
        {"value": {"get_resource": resource_name}} if hot else {"Value": {"Ref": resource_name}}
    )
    return outputs


def select_from_attribute(attribute_value: Any, path: Sequence[Any]) -> Any:
    """The item at ``path`` inside an attribute's value (keys of maps,
    indices of lists); None where the path leads nowhere."""

    def component(collection: Any, key: Any) -> Any:
        if not isinstance(collection, (collections.abc.Mapping, collections.abc.Sequence)):
            raise TypeError("Can't traverse attribute path")
        if not isinstance(key, (str, int)):
            raise TypeError("Path components in attributes must be strings")
        return collection[key]  # type: ignore[index]

    try:
        return functools.reduce(component, path, attribute_value)
    except (KeyError, IndexError, TypeError):
        return None


class Attributes(collections.abc.Mapping):
    """A resource's attributes: ``resolver(name)`` computes a value."""

    def __init__(
        self, resource_name: str, schema: Mapping[str, Schema], resolver: Callable[[str], Any]
    ) -> None:
        self._resource_name = resource_name
        self._schema = {**schema, **BASE_ATTRIBUTES}
        self._resolver = resolver

    def get(self, key: str, path: Sequence[Any] = ()) -> Any:  # type: ignore[override]
        """``get_attr: [resource, key, *path]``; BadRequest
        ``InvalidTemplateAttribute`` for an undeclared ``key``."""
        if key not in self._schema:
            raise errors.BadRequest(
                "The Referenced Attribute (%s %s) is incorrect." % (self._resource_name, key),
                type="InvalidTemplateAttribute",
            )
        return select_from_attribute(self._resolver(key), list(path))

    def __getitem__(self, key: str) -> Any:
        if key not in self._schema:
            raise KeyError("%s: Invalid attribute %s" % (self._resource_name, key))
        return self._resolver(key)

    def __contains__(self, key: object) -> bool:
        return key in self._schema

    def __iter__(self) -> Iterator[str]:
        return iter(self._schema)

    def __len__(self) -> int:
        return len(self._schema)
