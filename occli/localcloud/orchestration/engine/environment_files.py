"""Environment files merged into a stack's environment by the engine.

Heat's ``heat/common/environment_util.py`` ``merge_environments``:
heatclient sends each ``-e`` file's text in ``files`` and their names, in
order, as ``environment_files``; the engine parses each and merges it over
the environment, ``parameters`` and ``parameter_defaults`` by each
parameter's merge strategy (``parameter_merge_strategies``: overwrite,
merge, deep_merge; parameters the template does not declare are left
out), every other section as a map.
"""

import json
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any

from occli.localcloud import errors
from occli.localcloud.orchestration.engine import environment
from occli.localcloud.orchestration.engine import parameters

STRATEGIES = (OVERWRITE, MERGE, DEEP_MERGE) = ("overwrite", "merge", "deep_merge")
_STRATEGIES_KEY = "parameter_merge_strategies"


def _strategy(in_file: Mapping[str, Any] | None, key: str, known: Mapping[str, str]) -> str:
    if in_file is None:
        return OVERWRITE
    default = in_file.get("default", OVERWRITE)
    chosen = in_file.get(key, known.get(key, default))
    return chosen if chosen in STRATEGIES else default


def merge_list(old: Any, new: Any) -> Any:
    """Lists extended, comma-delimited lists joined."""
    if not old:
        return new
    if isinstance(new, list):
        return list(old) + new
    return ",".join([old, new])


def merge_map(old: Any, new: Mapping[str, Any], deep: bool = False) -> Any:
    """Nested maps merged (``deep``: values merged by their kind)."""
    if not old:
        return dict(new)
    old = dict(old)
    for key, value in new.items():
        if value is None:
            continue
        if not deep:
            old[key] = value
        elif isinstance(value, Mapping):
            old[key] = merge_map(old.get(key), value, True) if old.get(key) else value
        elif isinstance(value, Sequence) and not isinstance(value, str):
            old[key] = merge_list(old.get(key), value) if old.get(key) else value
        elif isinstance(value, str):
            old[key] = "".join([old.get(key, ""), value])
        else:
            old[key] = value
    return old


def _parse_param(value: Any, schema: parameters.Schema) -> Any:
    try:
        if schema.type == parameters.MAP:
            if not isinstance(value, str):
                value = json.dumps(value)
            if value:
                return json.loads(value)
        elif not isinstance(value, Sequence):
            raise ValueError()
    except (ValueError, TypeError) as exc:
        raise errors.BadRequest(
            "Invalid parameter in environment %s." % exc, type="ValueError"
        ) from None
    return value


def _merge_one(old: dict[str, Any], key: str, value: Any, schema: Any, deep: bool) -> None:
    value = _parse_param(value, schema)
    if schema.type == parameters.MAP:
        old[key] = merge_map(old.get(key, {}), value, deep)
    elif schema.type == parameters.LIST:
        old[key] = merge_list(old.get(key), value)
    elif schema.type == parameters.STRING:
        old[key] = "".join([old.get(key, ""), value])
    elif schema.type == parameters.NUMBER:
        old[key] = old.get(key, 0) + value
    else:
        raise errors.BadRequest(
            "Invalid merge strategy '%s' for parameter '%s'." % (MERGE, key),
            type="InvalidMergeStrategyForParam",
        )


def merge_parameters(
    old: Mapping[str, Any] | None,
    new: Mapping[str, Any],
    schemata: Mapping[str, Any],
    in_file: Mapping[str, Any] | None,
    known: dict[str, str],
    filename: str,
) -> dict[str, Any]:
    for key, value in new.items():
        if key in schemata and value is not None:
            chosen = _strategy(in_file, key, known)
            if key not in known:
                known[key] = chosen
            elif chosen != known[key]:
                raise errors.BadRequest(
                    "Conflicting merge strategy '%s' for parameter '%s' in file '%s'."
                    % (chosen, key, filename),
                    type="ConflictingMergeStrategyForParam",
                )
    if not old:
        return dict(new)
    merged = dict(old)
    for key, value in new.items():
        if key in schemata and value is not None:
            if known[key] == OVERWRITE:
                merged[key] = value
            else:
                _merge_one(merged, key, value, schemata[key], known[key] == DEEP_MERGE)
    return merged


def merge_environments(
    names: Sequence[str] | None,
    files: Mapping[str, str],
    env: dict[str, Any],
    schemata: Mapping[str, Any],
) -> dict[str, Any]:
    """``env`` with each environment file of ``names`` merged over it, in
    order (a name missing from ``files`` is Heat's KeyError, a 400 here)."""
    if not names:
        return env
    known: dict[str, str] = {}
    for name in names:
        if not isinstance(name, str) or name not in files:
            raise errors.BadRequest(
                'No content found in the "files" section for environment file %s' % (name,),
                type="StackValidationFailed",
            )
        parsed = environment.parse_environment(files[name])
        in_file = parsed.pop(_STRATEGIES_KEY, {})
        for section, value in parsed.items():
            if not value:
                continue
            if section in ("parameters", "parameter_defaults"):
                env[section] = merge_parameters(
                    env.get(section), value, schemata, in_file, known, name
                )
            elif isinstance(value, Mapping):
                env[section] = merge_map(env.get(section), value)
            else:
                env[section] = value
    return env
