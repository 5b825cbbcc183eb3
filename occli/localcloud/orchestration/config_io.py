"""Software config inputs and outputs as heat's engine normalises them
(``heat/engine/software_config_io``).

Pure functions that raise what heat's engine raises: ``ValueError`` for an
invalid definition (a 400) and ``TypeError`` for a non-list or non-object
member (heat answers 500); :mod:`.configs` turns them into domain errors.
"""

import json

IO_TYPES = ("String", "Number", "CommaDelimitedList", "Json", "Boolean")


def _as_string(value):
    if isinstance(value, str):
        return value
    if isinstance(value, (bool, int)):
        return str(value)
    raise ValueError("Value must be a string; got %r" % (value,))


def _as_bool(value):
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower() == "true"
    raise ValueError('"%s" is not a valid boolean' % (value,))


def _as_number(value):
    if isinstance(value, (int, float)):
        return value
    if isinstance(value, str):
        try:
            return int(value)
        except ValueError:
            try:
                return float(value)
            except ValueError:
                pass
    raise ValueError('Value "%s" is invalid for data type "number".' % (value,))


def _as_list(value):
    if isinstance(value, str):
        return [v.strip() for v in value.split(",")] if value else []
    if isinstance(value, list):
        return value
    raise ValueError('"%s" is not a list' % (value,))


def _as_map(value):
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except (ValueError, RecursionError):
            pass
    if isinstance(value, dict):
        return value
    raise ValueError('"%s" is not a map' % (value,))


_CONVERTERS = {
    "String": _as_string,
    "Number": _as_number,
    "CommaDelimitedList": _as_list,
    "Json": _as_map,
    "Boolean": _as_bool,
}


def _io_type(value):
    value = _as_string(value)
    if value not in IO_TYPES:
        raise ValueError('"%s" is not an allowed value [%s]' % (value, ", ".join(IO_TYPES)))
    return value


def _normalise_io(item, schema):
    """Validate one input/output definition against ``schema``.

    ``schema`` maps property name → converter, in output order. Null values
    count as absent; ``name`` is required; ``type`` defaults to String.
    """
    data = {k: v for k, v in item.items() if v is not None}
    for key in data:
        if key not in schema:
            raise ValueError("Property error: Unknown Property %s" % key)
    if "name" not in data:
        raise ValueError("Property error: Property name not assigned")
    result = {}
    for key, convert in schema.items():
        if key in data:
            try:
                result[key] = convert(data[key])
            except ValueError as exc:
                raise ValueError("Property error: %s: %s" % (key, exc)) from None
    result.setdefault("type", "String")
    return result


_INPUT_SCHEMA = {
    "name": _as_string,
    "description": _as_string,
    "type": _io_type,
    "default": lambda v: v,
    "replace_on_change": _as_bool,
}
_OUTPUT_SCHEMA = {
    "name": _as_string,
    "description": _as_string,
    "type": _io_type,
    "error_output": _as_bool,
}


def _check_io_list(items):
    if not isinstance(items, list):
        raise TypeError("Software Config I/O Schema must be in a list")
    if not all(isinstance(i, dict) for i in items):
        raise TypeError("Software Config I/O Schema must be a dict")


def normalise_input(item):
    """One config input as heat stores it (``InputConfig.as_dict``)."""
    explicit_type = item.get("type") is not None
    result = _normalise_io({k: v for k, v in item.items() if k != "value"}, _INPUT_SCHEMA)
    default = result.get("default")
    if (
        explicit_type
        and "default" in result
        and not (default == "" and result["type"] != "String")
    ):
        try:
            result["default"] = _CONVERTERS[result["type"]](default)
        except ValueError as exc:
            raise ValueError("Property error: default: %s" % exc) from None
    if not result.get("replace_on_change"):
        result.pop("replace_on_change", None)
    if "value" in item:
        result["value"] = item["value"]
    return result


def normalise_output(item):
    """One config output as heat stores it (``OutputConfig.as_dict``)."""
    result = _normalise_io(item, _OUTPUT_SCHEMA)
    result.setdefault("error_output", False)
    return result


def normalise_ios(inputs, outputs):
    """Check and normalise config inputs and outputs (``None`` → ``[]``).

    Raises TypeError for non-list / non-dict members and ValueError for
    invalid definitions, like heat's engine.
    """
    inputs, outputs = inputs or [], outputs or []
    _check_io_list(inputs)
    ins = [normalise_input(i) for i in inputs]
    _check_io_list(outputs)
    outs = [normalise_output(o) for o in outputs]
    return ins, outs
