"""What heatclient does to a template and its environments before sending
them (``heatclient/common/template_utils.py``, ``utils.py``,
``template_format.py``, ``environment_format.py``):

* every ``get_file: X`` value, and every ``type: X`` ending in ``.yaml`` or
  ``.template``, is joined with the URL of the file naming it, read, stored
  in the ``files`` map under that absolute ``file://`` URL, and the value
  rewritten to the URL; a file that parses as a template is walked the same
  way and stored as JSON;
* several environments are merged in order (:func:`deep_update`), the
  template files of their ``resource_registry`` read into the same map;
* ``--parameter k=v`` / ``--parameter-file k=path`` become ``parameters``.

Only local files are read (paths and ``file://`` URLs): an ``http(s)://``
URL is a usage error, so that nothing is fetched from the network behind
the user's back. Every refusal is a ValidationError (exit 2) raised before
any request, naming the argument as ``{template}``, ``{environment}``,
``{parameter}`` or ``{parameter_file}``.
"""

import base64
import json
import os
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import unquote
from urllib.parse import urljoin
from urllib.parse import urlparse

from occli import exceptions

#: Keys a template names its format version with (template_format.parse).
VERSION_KEYS = ("HeatTemplateFormatVersion", "heat_template_version", "AWSTemplateFormatVersion")
#: The sections of an environment (environment_format.SECTIONS).
ENV_SECTIONS = (
    "parameter_defaults",
    "parameters",
    "resource_registry",
    "encrypted_param_names",
    "event_sinks",
    "parameter_merge_strategies",
)
#: Values of ``type`` that name a template file (a template resource).
TEMPLATE_SUFFIXES = (".yaml", ".template")

Files = dict[str, str]


def _error(param: str, text: str) -> exceptions.ValidationError:
    return exceptions.ValidationError("{%s}: %s" % (param, text), params=(param,))


def file_url(path: str, param: str = "template") -> str:
    """``path`` as an absolute ``file://`` URL (a URL is kept); a URL of
    another scheme is refused."""
    scheme = urlparse(path).scheme
    if not scheme or (len(scheme) == 1 and os.name == "nt"):
        return Path(path).resolve().as_uri()
    if scheme != "file":
        raise _error(param, "cannot read %s: only local files and file:// URLs are read" % path)
    return path


def read_url(url: str, param: str = "template") -> str:
    """The content of a ``file://`` URL: its text, or base64 when it is
    not UTF-8 (as heatclient's ``read_url_content``)."""
    if urlparse(url).scheme != "file":
        raise _error(param, "cannot read %s: only local files and file:// URLs are read" % url)
    path = unquote(urlparse(url).path)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        raise _error(param, "cannot read %s: %s" % (path, exc.strerror or exc)) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return base64.encodebytes(data).decode("ascii")


def base_url(url: str) -> str:
    """The URL of the folder holding ``url``, ending in ``/``."""
    return urljoin(url, os.path.dirname(urlparse(url).path).rstrip("/") + "/")


def _yaml_loader() -> Any:
    """A safe YAML loader reading timestamps (``2018-08-31``) as text."""
    import yaml

    base: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

    class Loader(base):  # type: ignore[misc, valid-type]
        pass

    def as_text(loader: Any, node: Any) -> Any:
        return loader.construct_scalar(node)

    Loader.add_constructor("tag:yaml.org,2002:str", as_text)
    Loader.add_constructor("tag:yaml.org,2002:timestamp", as_text)
    return Loader


def _load(text: str) -> Any:
    """JSON when it starts with ``{``, else YAML: ValueError with the
    parser's message otherwise."""
    text = text.strip()
    if text.startswith("{"):
        return json.loads(text)
    import yaml

    try:
        return yaml.load(text, Loader=_yaml_loader())  # noqa: S506 - a safe loader
    except yaml.YAMLError as exc:
        raise ValueError(str(exc)) from None


def parse_template(text: str) -> dict[str, Any]:
    """A template from its text; ValueError with heatclient's texts."""
    template = _load(text)
    if template is None:
        template = {}
    if not isinstance(template, dict) or not any(k in template for k in VERSION_KEYS):
        raise ValueError("Template format version not found.")
    return template


def parse_environment(text: str) -> dict[str, Any]:
    """An environment from its text; ValueError with heatclient's texts."""
    env = _load(text)
    if env is None:
        env = {}
    if not isinstance(env, dict):
        raise ValueError("The environment is not a valid YAML mapping data type.")
    for section in env:
        if section not in ENV_SECTIONS:
            raise ValueError('environment has wrong section "%s"' % section)
    return env


def is_template(text: str) -> bool:
    try:
        parse_template(text)
    except (ValueError, TypeError):
        return False
    return True


def process_template_path(
    template_path: str | None, existing: bool = False, fetch_child: bool = True
) -> tuple[Files, dict[str, Any] | None]:
    """``(files, template)`` of the template at ``template_path``, its
    files read and its references rewritten (unless not ``fetch_child``:
    Heat reads them from a files container); ``({}, None)`` with
    ``existing`` and no path (the stack's template is kept)."""
    if not template_path:
        if existing:
            return {}, None
        raise _error("template", "a template is required (or --existing, to keep the stack's)")
    files: Files = {}
    return files, _template_contents(file_url(template_path), files, fetch_child)


def _template_contents(url: str, files: Files, fetch_child: bool = True) -> dict[str, Any]:
    try:
        template = parse_template(read_url(url))
    except ValueError as exc:
        raise _error("template", "Error parsing template %s %s" % (url, exc)) from None
    if fetch_child:
        resolve_template_get_files(template, files, base_url(url))
    return template


def resolve_template_get_files(template: Any, files: Files, template_base_url: str) -> None:
    """Read what ``get_file`` and template-file ``type`` values name into
    ``files`` and rewrite them to their absolute URLs."""

    def ignore(key: str, value: Any) -> bool:
        if key not in ("get_file", "type") or not isinstance(value, str):
            return True
        return key == "type" and not value.endswith(TEMPLATE_SUFFIXES)

    _get_file_contents(template, files, template_base_url, ignore, recurse=True)


def _get_file_contents(
    data: Any,
    files: Files,
    base: str,
    ignore: Callable[[str, Any], bool],
    recurse: bool = False,
    param: str = "template",
) -> None:
    if recurse and isinstance(data, (dict, list)):
        for value in data.values() if isinstance(data, dict) else data:
            _get_file_contents(value, files, base, ignore, recurse, param)
    if not isinstance(data, dict):
        return
    for key, value in list(data.items()):
        if ignore(key, value):
            continue
        url = urljoin(base if base.endswith("/") else base + "/", value)
        if url not in files:
            content = read_url(url, param)
            if is_template(content):
                files[url] = ""  # a placeholder: a template naming itself stops here
                content = json.dumps(_template_contents(url, files))
            files[url] = content
        data[key] = url


def deep_update(old: dict[str, Any] | None, new: Mapping[str, Any]) -> dict[str, Any]:
    """Merge ``new`` into ``old`` (nested mappings merged, a null not
    replacing a mapping); returns ``old``."""
    if old is None:
        old = {}
    for key, value in new.items():
        if isinstance(value, Mapping):
            old[key] = deep_update(old.get(key) or {}, value)
        elif value is None and isinstance(old.get(key), Mapping):
            continue
        else:
            old[key] = value
    return old


def process_multiple_environments_and_files(
    env_paths: Iterable[str] | None = None, env_list_tracker: list[str] | None = None
) -> tuple[Files, dict[str, Any]]:
    """``(files, environment)`` of the environments, merged in order. With
    ``env_list_tracker`` (a list) each environment's URL is appended to it
    and its content stored in ``files`` under that URL, for Heat to merge
    them itself (``environment_files``)."""
    files: Files = {}
    merged: dict[str, Any] = {}
    for path in env_paths or ():
        url = file_url(path, "environment")
        try:
            env = parse_environment(read_url(url, "environment"))
        except ValueError as exc:
            raise _error("environment", "Error parsing environment %s %s" % (url, exc)) from None
        resolve_environment_urls(env.get("resource_registry"), files, base_url(url))
        if env_list_tracker is not None:
            files[url] = json.dumps(env)
            env_list_tracker.append(url)
        merged = deep_update(merged, env)
    return files, merged


def resolve_environment_urls(
    registry: Mapping[str, Any] | None, files: Files, env_base_url: str
) -> None:
    """Read the template files a ``resource_registry`` maps types to (its
    own ``base_url`` and each resource's override the environment's)."""
    if not isinstance(registry, dict):
        return
    base = str(registry.get("base_url") or env_base_url)

    def ignore(key: str, value: Any) -> bool:
        if key in ("base_url", "hooks", "restricted_actions") or not isinstance(value, str):
            return True
        return "::" in value  # a built-in type ("OS::Heat::None"): nothing to read

    _get_file_contents(registry, files, base, ignore, param="environment")
    for resource in (registry.get("resources") or {}).values():
        if isinstance(resource, dict):
            base_of = str(resource.get("base_url") or base)
            _get_file_contents(resource, files, base_of, ignore, param="environment")


def hooks_to_env(env: dict[str, Any], hooks: Iterable[str], hook: str) -> None:
    """Set ``hook`` (``pre-create``, ``pre-update``) on each resource of
    ``hooks`` (``nested/inner/name``, globs allowed) in ``env``'s
    ``resource_registry.resources``."""
    registry = env.setdefault("resource_registry", {})
    for declaration in hooks:
        resources = registry.setdefault("resources", {})
        for part in [p for p in declaration.split("/") if p]:
            resources = resources.setdefault(part, {})
        resources["hooks"] = hook


def format_parameters(
    params: Iterable[str] | None, parse_semicolon: bool = True, param: str = "parameter"
) -> dict[str, Any]:
    """``["k=v", …]`` as Heat takes them: a key given twice makes a list;
    one item may hold several, ``;``-separated (heatclient's rule)."""
    items = list(params or ())
    if parse_semicolon and len(items) == 1:
        items = items[0].split(";")
    parameters: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep:
            raise _error(param, "Malformed parameter(%s). Use the key=value format." % item)
        if key not in parameters:
            parameters[key] = value
        elif isinstance(parameters[key], list):
            parameters[key].append(value)
        else:
            parameters[key] = [parameters[key], value]
    return parameters


def format_all_parameters(
    params: Iterable[str] | None,
    param_files: Iterable[str] | None,
    template_file: str | None = None,
) -> dict[str, Any]:
    """``--parameter`` values, then ``--parameter-file`` ones (each the
    content of a file, relative to the template's folder)."""
    parameters = format_parameters(params)
    files = format_parameters(param_files, parse_semicolon=False, param="parameter_file")
    base = base_url(file_url(template_file)) if template_file else base_url(file_url("x"))
    for key, path in files.items():
        for one in path if isinstance(path, list) else [path]:
            parameters[key] = read_url(urljoin(base, one), "parameter_file")
    return parameters
