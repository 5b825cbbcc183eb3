"""Nova's extra spec validation (microversion 2.86 and later).

The registry is ``occli/localcloud/nova_extra_specs.json``, generated from
nova 34.0.0's ``nova.api.validation.extra_specs`` (``VALIDATORS`` and
``NAMESPACES``): every extra spec name nova knows, exactly or as a pattern
(``hw:numa_cpus.(?P<num>\\d+)``), with its value's type and constraint.
:func:`validate` follows nova's ``validators.validate`` and raises its
messages. Patterns run with RE2 (linear time): some of nova's value
patterns nest quantifiers.
"""

import json
import os
from typing import Any

from occli.localcloud import errors

_REGISTRY = os.path.join(os.path.dirname(os.path.dirname(__file__)), "nova_extra_specs.json")
_loaded: dict = {}


def _registry():
    """``(exact names, patterns, namespaces)``, loaded once."""
    if not _loaded:
        with open(_REGISTRY, encoding="utf-8") as f:
            data = json.load(f)
        exact, patterns = {}, []
        entries: list[tuple[Any, ...]] = [(key, "str", {}) for key in data["any_string"]]
        entries += [tuple(entry) for entry in data["checked"]]
        for key, kind, constraint in entries:
            if "(?P<" in key:
                patterns.append((key, kind, constraint))
            else:
                exact[key] = (kind, constraint)
        _loaded.update(exact=exact, patterns=patterns, namespaces=data["namespaces"])
    return _loaded["exact"], _loaded["patterns"], _loaded["namespaces"]


_compiled: dict = {}


def _fullmatch(pattern, text):
    import re2  # the local cloud's dependency, imported when first needed

    compiled = _compiled.get(pattern)
    if compiled is None:
        compiled = _compiled[pattern] = re2.compile(pattern)
    return compiled.fullmatch(text) is not None


def _failed(text):
    return errors.BadRequest("Validation failed; %s" % text)


def validate(name, value):
    """BadRequest for a value a known extra spec refuses, or for a name in
    one of nova's namespaces that nova does not know; any other name (no
    namespace, or another one) is accepted, as by nova."""
    exact, patterns, namespaces = _registry()
    known = exact.get(name)
    if known is None:
        known = next(
            ((kind, constraint) for key, kind, constraint in patterns if _fullmatch(key, name)),
            None,
        )
    if known is None:
        if ":" in name and any(_fullmatch(ns, name.split(":", 1)[0]) for ns in namespaces):
            raise _failed("extra spec '%s' does not appear to be a valid extra spec." % name)
        return
    kind, constraint = known
    value = str(value)
    if kind == "int":
        _check_int(value, constraint)
    elif kind == "bool":
        if value.strip().lower() not in (
            "1",
            "t",
            "true",
            "on",
            "y",
            "yes",
            "0",
            "f",
            "false",
            "off",
            "n",
            "no",
        ):
            raise _failed("'%s' is not a valid boolean-like value." % value)
    elif "pattern" in constraint:
        if not _fullmatch(constraint["pattern"], value):
            raise _failed("'%s' is not of the format '%s'." % (value, constraint["pattern"]))
    elif "enum" in constraint and value not in constraint["enum"]:
        raise _failed(
            "'%s' is not one of: %s." % (value, ", ".join(str(x) for x in constraint["enum"]))
        )


def _check_int(value, constraint):
    try:
        number = int(value)
    except ValueError:
        raise _failed("'%s' is not a valid integer value." % value) from None
    if "max" in constraint and constraint["max"] < number:
        raise _failed("'%s' is greater than the max value of '%s'." % (number, constraint["max"]))
    if "min" in constraint and constraint["min"] > number:
        raise _failed("'%s' is less than the min value of '%s'." % (number, constraint["min"]))
