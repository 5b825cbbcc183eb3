"""clouds.yaml and its kin (secure, clouds-public): where, read, merged.

What :mod:`occli.config` (a cloud's settings) and :mod:`occli.profiles`
(a vendor's defaults) both need of the files: where openstacksdk looks for
them, reading one (YAML or JSON), the first readable one of a list, and
openstacksdk's deep merge and key normalisation of their entries.

Nothing here imports yaml or platformdirs at module level, and a YAML
file read before is not parsed again: its parsed form is kept as JSON in
the cache directory (:func:`_cached`), so a warm command imports no yaml.
"""

import json
import logging
import os
from collections.abc import Iterable
from collections.abc import Mapping
from typing import Any

from occli import exceptions

LOG = logging.getLogger(__name__)

__all__ = [
    "SEARCH_DIRS",
    "ConfigError",
    "default_search_dirs",
    "environment",
    "first",
    "merge",
    "normalize",
    "read",
    "search",
]


class ConfigError(exceptions.CommandError):
    """The cloud configuration is missing, unreadable or incomplete."""


#: Directories searched for clouds.* / secure.* / clouds-public.*;
#: ``None`` means :func:`default_search_dirs` (tests replace this list).
SEARCH_DIRS: list[str] | None = None

_SUFFIXES = (".yaml", ".yml", ".json")


def default_search_dirs() -> list[str]:
    """Directories searched for clouds/secure files, as openstacksdk does."""
    from occli import userdirs

    user, site = userdirs.config_dirs("openstack", "OpenStack")
    candidates = [os.getcwd(), user, os.path.join(os.path.expanduser("~"), ".config", "openstack")]
    candidates.extend(site)
    candidates.append("/etc/openstack")
    seen, result = set(), []
    for d in candidates:
        if d and d not in seen:
            seen.add(d)
            result.append(d)
    return result


def search(basename: str, override_var: str | None, environ: Mapping[str, str]) -> list[str]:
    """Candidate paths of ``basename`` (each suffix in each search
    directory), the file named by ``environ[override_var]`` first."""
    dirs = SEARCH_DIRS if SEARCH_DIRS is not None else default_search_dirs()
    files = [os.path.join(d, basename + s) for d in dirs for s in _SUFFIXES]
    explicit = environ.get(override_var) if override_var else None
    if explicit:
        files.insert(0, os.path.expanduser(explicit))
    return files


def environment(environ: Mapping[str, str] | None) -> Mapping[str, str]:
    """``environ``, or ``os.environ`` when none is given."""
    return os.environ if environ is None else environ


def read(path: str) -> dict[str, Any]:
    """Parse one YAML/JSON file into a dict (yaml imported only here, and
    only when the file's parsed form is not cached: :func:`_cached`)."""
    if path.endswith(".json"):
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    else:
        data = _read_yaml(path)
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError(f"Configuration file {path} is not a mapping")
    clouds = data.get("clouds")
    if clouds is None:
        data["clouds"] = {}
    elif not isinstance(clouds, dict):
        raise ConfigError(f"'clouds' in {path} is not a mapping")
    return data


#: Bump when the cached form changes; other versions are a miss.
PARSED_VERSION = 1


def _read_yaml(path: str) -> Any:
    """The parsed YAML of ``path``: its cached form when the file has not
    changed since it was cached, else parsed (and cached)."""
    source = _source_key(path)
    cache = _parsed_path(source[0])
    cached = _cached(cache, source)
    if cached is not None:
        return cached[0]
    import yaml

    with open(path, encoding="utf-8") as f:
        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
        try:
            data = yaml.load(f, Loader=loader)  # noqa: S506 - safe loader
        except yaml.YAMLError as exc:
            raise ValueError(str(exc)) from None
    _cache(cache, source, data)
    return data


def _source_key(path: str) -> list[Any]:
    """What identifies a version of ``path``: its absolute path, device,
    inode, size, and modification and change times in nanoseconds (an
    edit changes the change time, even one that restores the mtime)."""
    st = os.stat(path)
    return [
        os.path.abspath(path),
        st.st_dev,
        st.st_ino,
        st.st_size,
        st.st_mtime_ns,
        st.st_ctime_ns,
    ]


def _parsed_path(source: str) -> str:
    """The cache file of ``source``'s parsed form: a private file of the
    cache directory's ``config/`` (:mod:`occli.private_files`), since the
    file holds what clouds.yaml holds, passwords included."""
    import hashlib

    from occli import token_cache

    name = hashlib.sha256(source.encode()).hexdigest()[:32] + ".json"
    return os.path.join(os.path.dirname(token_cache.cache_dir()), "config", name)


def _cached(cache: str, source: list[Any]) -> tuple[Any] | None:
    """``(data,)`` cached for exactly this version of the source, or None:
    a missing, foreign, loose (group or others may read it), corrupt or
    outdated cache file is a miss (:func:`occli.private_files.read`)."""
    from occli import private_files

    raw = private_files.read(cache, "config cache")
    if raw is None:
        return None
    try:
        entry = json.loads(raw)
    except ValueError:
        return None
    if not isinstance(entry, dict) or entry.get("version") != PARSED_VERSION:
        return None
    if entry.get("source") != source or "data" not in entry:
        return None
    return (entry["data"],)


def _cache(cache: str, source: list[Any], data: Any) -> None:
    """Keep ``data`` as the parsed form of ``source`` if JSON holds it
    exactly (YAML's dates or integer keys would come back changed: such a
    file is parsed every time); never fails the command."""
    from occli import private_files

    try:
        text = json.dumps({"version": PARSED_VERSION, "source": source, "data": data})
    except (TypeError, ValueError):
        return
    if json.loads(text)["data"] != data:
        return
    private_files.write(cache, text.encode(), "config cache")


def first(paths: Iterable[str], problems: list[str]) -> tuple[str | None, dict[str, Any] | None]:
    """(path, data) of the first readable file of ``paths``, or (None, None).

    Like openstacksdk, unreadable or unparsable files are skipped; the reason
    is kept in ``problems`` for the error message.
    """
    for path in paths:
        if not os.path.isfile(path):
            continue
        try:
            return path, read(path)
        except ConfigError:
            raise
        except (OSError, ValueError) as exc:  # includes JSON and YAML errors
            problems.append(f"{path}: {exc}")
            LOG.warning("Skipping config file %s: %s", path, exc)
    return None, None


def merge(old: Mapping[str, Any], new: Mapping[str, Any]) -> dict[str, Any]:
    """Deep merge of ``new`` into a copy of ``old`` (openstacksdk merge_clouds)."""
    result = dict(old)
    for k, v in new.items():
        if isinstance(v, dict):
            result[k] = merge(result[k], v) if isinstance(result.get(k), dict) else merge({}, v)
        else:
            result[k] = v
    return result


def normalize(value: Any, key: str | None = None) -> Any:
    """'-' -> '_' in keys, numbers to strings (openstacksdk normalize_keys)."""
    if isinstance(value, dict):
        return {k.replace("-", "_"): normalize(v, k) for k, v in value.items()}
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, (int, float)) and key not in ("api_timeout", "verbose_level"):
        return str(value)
    return value
