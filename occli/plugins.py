"""Plugin registry: commands and managers from entry points and plugin dirs.

occli extends itself the way Heat loads resource plugins: one
:class:`Registry` per process collects ``name → object`` pairs from plugin
modules and answers lookups. Built-in commands register through the same
path as third-party ones. Built-in managers are attributes of
:class:`occli.client.Client`; they are registered too (``plugin list``
shows them, and no plugin can take their names), but the Client asks the
registry only for a name that is none of them, so the SDK alone never
builds it.

A plugin module offers

* **commands**: ``available_command_mapping()`` if it defines one, else
  ``command_mapping()``, else its own ``do_*`` functions
  (``do_hello_world`` → ``hello world``); announced under the entry point
  group ``occli.commands`` (the value names the module);
* **managers**: ``available_manager_mapping()`` or ``manager_mapping()`` →
  ``{client attribute: ManagerClass or "module:Class"}``; announced under
  ``occli.managers`` (the value names the module or the mapping callable).

Modules in extra plugin directories (``--plugin-dir``, ``OCCLI_PLUGIN_DIRS``)
may offer both. A plugin that fails to import (a missing dependency, or
any exception, SystemExit included) or whose ``available_*_mapping()``
offers nothing is *unavailable*; a name already taken (built-ins first, then
plugins by distribution and name) is a *conflict* and is not registered.
Neither ever breaks the other plugins, nor ``--help``; only a real Ctrl-C
while a plugin loads interrupts occli.

Start-up cost: entry points are read with
``importlib.metadata.entry_points()`` (stevedore's cache is a little faster
but knows no distributions, and its float32 mtimes miss an entry point
edited in place within ~2 minutes) only when the index's stamp no longer
matches: the stats of the ``sys.path`` directories (installing or removing a
distribution changes them) and of the plugin directories' files, read in
a fraction of the time (see :func:`_stamp`). The command and manager tables (and
each command's one-line description, which ``occli --help`` lists) are
cached as a JSON index under ``$OCCLI_CACHE_DIR/plugins`` (default: the
platformdirs user cache dir), one file per environment and plugin dir list,
valid while the fingerprint of the entry points (name, value, distribution
and version) and of the plugin directories' files is unchanged and each
plugin's module file (and its distribution's ``entry_points.txt``) keeps
its mtime and size (for an unavailable plugin,
sys.path's directories too: installing its missing dependency retries it).
On a hit no plugin module is imported until one of its commands runs or a
manager is used; on a miss every plugin is imported once to rebuild it.
The index decides what gets imported, so it is kept as privately as the
token cache (:mod:`occli.private_files`): a foreign, open or symlinked
index is rebuilt, and a plugins directory that others control is not used.
"""

import hashlib
import importlib
import importlib.metadata
import importlib.util
import json
import logging
import os
import re
import sys
import types

from occli import private_files

LOG = logging.getLogger(__name__)

COMMAND_GROUP = "occli.commands"
MANAGER_GROUP = "occli.managers"
BUILTIN_DIST = "occli"
PLUGIN_DIRS_ENV = "OCCLI_PLUGIN_DIRS"
#: Plugin directory modules are imported as ``_occli_plugins.<file stem>``.
DIR_MODULE_PREFIX = "_occli_plugins."
#: Bump when the index layout changes.
INDEX_VERSION = 3

ENTRY_POINT = "entry point"
DIRECTORY = "directory"
LOADED = "loaded"
COMMANDS = "commands"
MANAGERS = "managers"

_MAPPING_FUNCTIONS = {
    COMMANDS: ("available_command_mapping", "command_mapping"),
    MANAGERS: ("available_manager_mapping", "manager_mapping"),
}
_GROUP_KINDS = {COMMAND_GROUP: (COMMANDS,), MANAGER_GROUP: (MANAGERS,)}

_registry = None


class Unavailable(Exception):
    """A plugin offers nothing in this environment."""


class PluginFailed(Exception):
    """A plugin raised a BaseException (SystemExit, …) while loading."""


class Plugin:
    """One plugin module (or mapping callable) and what it contributes.

    ``source`` is ENTRY_POINT or DIRECTORY; ``target`` the entry point value
    or the ``.py`` file; ``group`` the entry point group ("" for a directory
    module); ``files`` the ``{path: [mtime_ns, size]}`` validating the index.
    """

    FIELDS = (
        "name",
        "source",
        "target",
        "group",
        "dist",
        "version",
        "commands",
        "managers",
        "status",
        "files",
    )

    def __init__(
        self,
        name,
        source,
        target,
        group="",
        dist="",
        version="",
        commands=(),
        managers=(),
        status=LOADED,
        files=None,
    ):
        self.name = name
        self.source = source
        self.target = target
        self.group = group
        self.dist = dist
        self.version = version
        self.commands = list(commands)
        self.managers = list(managers)
        self.status = status
        self.files = dict(files or {})

    def to_dict(self):
        return {field: getattr(self, field) for field in self.FIELDS}

    def __repr__(self):
        return "<Plugin %s %s>" % (self.label, self.status)

    @property
    def builtin(self):
        return _normalize(self.dist) == BUILTIN_DIST

    @property
    def module(self):
        """The name the plugin's module is imported as."""
        if self.source == DIRECTORY:
            stem = os.path.splitext(os.path.basename(self.target))[0]
            return DIR_MODULE_PREFIX + stem
        return self.target.partition(":")[0].strip()

    @property
    def kinds(self):
        """What the plugin may offer: commands, managers or both."""
        return _GROUP_KINDS.get(self.group, (COMMANDS, MANAGERS))

    @property
    def origin(self):
        """Where the plugin comes from, for people."""
        if self.source == DIRECTORY:
            return "%s: %s" % (DIRECTORY, os.path.dirname(self.target))
        return "%s: %s %s" % (ENTRY_POINT, self.dist, self.version)

    @property
    def label(self):
        return "%s (%s)" % (self.name, self.dist or self.target)


class Registry:
    """The command and manager tables of every plugin.

    ``commands`` and ``managers`` map a name to the index of its plugin in
    ``plugins``. Build one with :meth:`build` (or :func:`registry`).
    """

    def __init__(self, plugin_dirs=()):
        self.plugin_dirs = tuple(plugin_dirs)
        self.plugins = []
        self.commands = {}
        self.managers = {}
        #: ``{command: first line of its docstring}`` (``occli --help``)
        self.summaries = {}
        self.from_index = False
        self._offers = {}

    @classmethod
    def build(cls, plugin_dirs=(), cache_dir=None):
        """Discover plugins; use the cached index when it is still valid."""
        registry = cls(plugin_dirs)
        path = _index_path(registry.plugin_dirs, cache_dir)
        stamp = _stamp(registry.plugin_dirs)
        if stamp is not None and registry._read_index(path, stamp=stamp):
            registry.from_index = True  # no entry point was read
            return registry
        candidates = _discover(registry.plugin_dirs)
        fingerprint = _fingerprint(candidates)
        if registry._read_index(path, fingerprint):
            registry.from_index = True
        else:
            registry._load_all(candidates)
        registry._write_index(path, fingerprint, stamp)
        return registry

    # lookups

    def command_names(self):
        return sorted(self.commands)

    def summary(self, name):
        """The one-line description of command ``name`` (None if unknown)."""
        return self.summaries.get(name)

    def dist_of(self, name):
        """The distribution of a third-party plugin's command ``name``;
        None for occli's own commands and plugin directory modules."""
        plugin = self.plugins[self.commands[name]]
        if plugin.builtin or plugin.source != ENTRY_POINT:
            return None
        return plugin.dist or None

    def command(self, name):
        """The ``do_*`` function of command ``name`` (imports its module only)."""
        index = self.commands[name]
        try:
            func = self._offers_of(index)[COMMANDS].get(name)
        except Exception as exc:  # noqa: BLE001 - a plugin broken since indexed
            return _failing_command(name, self.plugins[index], _reason(exc))
        if func is None:
            return _failing_command(name, self.plugins[index], "the plugin no longer offers it")
        return func

    def manager_class(self, name):
        """The manager class registered as ``name``, or None."""
        index = self.managers.get(name)
        if index is None:
            return None
        spec = self._offers_of(index)[MANAGERS].get(name)
        return _isolated(_resolve, spec) if isinstance(spec, str) else spec

    # building

    def _load_all(self, candidates):
        for plugin in candidates:
            index = len(self.plugins)
            self.plugins.append(plugin)
            if plugin.status != LOADED:
                continue
            try:
                offers = self._offers_of(index)
            except Exception as exc:  # no plugin may break the others
                plugin.status = "unavailable: " + _reason(exc)
                plugin.files.update(_path_dirs())
                LOG.debug("plugin %s unavailable", plugin.label, exc_info=True)
            else:
                self._claim(index, offers)
            plugin.files.update(_module_files(plugin))

    def _claim(self, index, offers):
        plugin = self.plugins[index]
        taken = []
        for kind, table in ((COMMANDS, self.commands), (MANAGERS, self.managers)):
            for name in sorted(offers.get(kind, ())):
                owner = table.setdefault(name, index)
                if owner == index:
                    getattr(plugin, kind).append(name)
                    if kind == COMMANDS:
                        self.summaries[name] = _summary(offers[kind][name], name)
                else:
                    taken.append("'%s' already provided by %s" % (name, self.plugins[owner].label))
        if taken:
            plugin.status = "conflict: " + "; ".join(taken)
            LOG.debug("plugin %s: %s", plugin.label, plugin.status)

    def _offers_of(self, index):
        """``{kind: {name: object}}`` of a plugin, importing it on first use."""
        offers = self._offers.get(index)
        if offers is None:
            offers = _isolated(_load_offers, self.plugins[index])
            self._offers[index] = offers
        return offers

    # the index

    def _read_index(self, path, fingerprint=None, stamp=None):
        """Use the index at ``path`` if it was made for this ``fingerprint``
        (or, given instead, this ``stamp``) and no plugin module changed."""
        raw = private_files.read(path, "plugin index")
        if raw is None:
            return False
        try:
            data = json.loads(raw)
            if fingerprint is not None and data.get("fingerprint") != fingerprint:
                return False
            if stamp is not None and data.get("stamp") != stamp:
                return False
            plugins = [Plugin(**item) for item in data["plugins"]]
            commands, managers = dict(data["commands"]), dict(data["managers"])
            summaries = {
                name: text
                for name, text in dict(data.get("summaries") or {}).items()
                if name in commands and isinstance(text, str)
            }
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return False
        if not all(
            isinstance(i, int) and 0 <= i < len(plugins)
            for i in list(commands.values()) + list(managers.values())
        ):
            return False
        files = {}
        for plugin in plugins:
            files.update(plugin.files)
        if any(_stat(f) != stat for f, stat in files.items()):
            LOG.debug("plugin index %s: a plugin module changed", path)
            return False
        self.plugins, self.commands, self.managers = plugins, commands, managers
        self.summaries = summaries
        return True

    def _write_index(self, path, fingerprint, stamp=None):
        data = {
            "version": INDEX_VERSION,
            "fingerprint": fingerprint,
            "stamp": stamp,
            "plugins": [p.to_dict() for p in self.plugins],
            "commands": self.commands,
            "managers": self.managers,
            "summaries": self.summaries,
        }
        text = json.dumps(data, separators=(",", ":"))
        private_files.write(path, text.encode(), "plugin index")


def registry(plugin_dirs=None):
    """The process's Registry.

    ``plugin_dirs`` adds directories to those of ``OCCLI_PLUGIN_DIRS``; with
    None, the registry built already (or one for the environment) is used.
    """
    global _registry
    if plugin_dirs is None and _registry is not None:
        return _registry
    dirs = default_plugin_dirs(plugin_dirs or ())
    if _registry is None or _registry.plugin_dirs != dirs:
        _registry = Registry.build(dirs)
    return _registry


def reset():
    """Forget the process's Registry (for tests)."""
    global _registry
    _registry = None


def default_plugin_dirs(extra=(), environ=None):
    """``OCCLI_PLUGIN_DIRS`` (path-separated) then ``extra``: absolute, unique."""
    environ = os.environ if environ is None else environ
    dirs = environ.get(PLUGIN_DIRS_ENV, "").split(os.pathsep) + list(extra)
    found = []
    for directory in dirs:
        if directory:
            directory = os.path.abspath(os.path.expanduser(directory))
            if directory not in found:
                found.append(directory)
    return tuple(found)


def manager_class(name):
    """The manager class registered as ``name``, or None."""
    return registry().manager_class(name)


def manager_names():
    return sorted(registry().managers)


def commands_of(module):
    """``{command name: function}`` for the ``do_*`` functions of a module."""
    return {
        name[3:].replace("_", " "): func
        for name, func in vars(module).items()
        if name.startswith("do_")
        and callable(func)
        and getattr(func, "__module__", None) == module.__name__
    }


# discovery


def _discover(plugin_dirs):
    """Candidate plugins in registration order."""
    return _entry_point_plugins() + _directory_plugins(plugin_dirs)


def _entry_point_plugins():
    """Plugins announced by entry points: built-ins first, then by dist."""
    eps = importlib.metadata.entry_points()
    dists = {}
    found = []
    for group in (COMMAND_GROUP, MANAGER_GROUP):
        for ep in eps.select(group=group):
            if ep.dist not in dists:
                dists[ep.dist] = _dist_id(ep.dist)
            dist, version = dists[ep.dist]
            found.append(
                Plugin(
                    ep.name,
                    ENTRY_POINT,
                    ep.value,
                    group,
                    dist,
                    version,
                    files=_entry_points_file(ep.dist),
                )
            )
    found.sort(key=lambda p: (not p.builtin, _normalize(p.dist), p.group, p.name))
    return found


def _entry_points_file(dist):
    """``{path: stat}`` of the file declaring ``dist``'s entry points, so
    that an edit in place invalidates the index (:func:`_stamp`)."""
    root = getattr(dist, "_path", None)  # PathDistribution's *.dist-info
    if root is None:
        return {}
    path = os.path.join(str(root), "entry_points.txt") if os.path.isdir(root) else str(root)
    stat = _stat(path)
    return {path: stat} if stat else {}


def _dist_id(dist):
    """``(name, version)`` read from the metadata headers only.

    ``dist.metadata`` parses the whole file, long description included.
    """
    if dist is None:
        return "", ""
    text = dist.read_text("METADATA") or dist.read_text("PKG-INFO") or ""
    headers: dict[str, str] = {}
    for line in text.splitlines():
        if not line.strip():
            break
        key, sep, value = line.partition(":")
        if sep and key in ("Name", "Version"):
            headers.setdefault(key, value.strip())
    return headers.get("Name", ""), headers.get("Version", "")


def _directory_plugins(plugin_dirs):
    found = []
    for directory in plugin_dirs:
        try:
            names = sorted(os.listdir(directory))
        except OSError as exc:
            found.append(
                Plugin(
                    os.path.basename(directory),
                    DIRECTORY,
                    os.path.join(directory, ""),
                    status="unavailable: %s" % (exc.strerror or exc),
                )
            )
            continue
        found.extend(
            Plugin(name[:-3], DIRECTORY, os.path.join(directory, name))
            for name in names
            if name.endswith(".py") and not name.startswith(("_", "."))
        )
    return found


def _fingerprint(candidates):
    """What the index depends on: entry points, plugin dir files, Python."""
    data = [
        INDEX_VERSION,
        sys.version,
        [
            (
                p.source,
                p.group,
                p.name,
                p.target,
                p.dist,
                p.version,
                _stat(p.target) if p.source == DIRECTORY else None,
            )
            for p in candidates
        ],
    ]
    return hashlib.sha256(json.dumps(data).encode()).hexdigest()


def _stamp(plugin_dirs):
    """What the distributions on ``sys.path`` and the plugin directories
    are made of, read in a fraction of the time reading the entry points
    takes (a stat per directory, no listing); None when it cannot be told
    this way (the entry points are then read).

    For every ``sys.path`` entry: its name and its ``[mtime_ns, size]``.
    Installing, removing or upgrading a distribution adds or removes names
    in its directory, which changes that directory's mtime. An
    ``entry_points.txt`` edited in place changes no directory: the index
    holds those of the distributions offering plugins among each plugin's
    ``files``, checked on every read. For every plugin directory its
    ``*.py`` files and their stats. A finder other than Python's that
    knows distributions makes it None.
    """
    import importlib.machinery

    for finder in sys.meta_path:
        if finder is not importlib.machinery.PathFinder and hasattr(finder, "find_distributions"):
            return None
    paths = [[entry, _stat(entry or ".")] for entry in sys.path]
    dirs = []
    for directory in plugin_dirs:
        try:
            names = sorted(os.listdir(directory))
        except OSError as exc:
            dirs.append([directory, str(exc)])
            continue
        dirs.append(
            [
                directory,
                [[n, _stat(os.path.join(directory, n))] for n in names if n.endswith(".py")],
            ]
        )
    data = [INDEX_VERSION, sys.version, paths, dirs]
    return hashlib.sha256(json.dumps(data).encode()).hexdigest()


def _index_path(plugin_dirs, cache_dir=None):
    key = json.dumps([sys.prefix, list(plugin_dirs)])
    name = hashlib.sha256(key.encode()).hexdigest()[:16] + ".json"
    return os.path.join(cache_dir or _cache_root(), "plugins", name)


def _cache_root():
    root = os.environ.get("OCCLI_CACHE_DIR")
    if not root:
        from occli import userdirs

        root = userdirs.user_cache_dir("occli")
    return os.path.expanduser(root)


def _stat(path):
    """``[mtime_ns, size]`` of a file or directory, None if missing."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return [st.st_mtime_ns, st.st_size]


def _path_dirs():
    """``{dir: stat}`` of sys.path: installing a missing dependency changes it."""
    return {
        path: stat for path, stat in ((p, _stat(p)) for p in sys.path if p) if stat is not None
    }


def _module_files(plugin):
    """``{path: stat}`` of the plugin's module file, to validate the index."""
    path = _module_file(plugin)
    stat = _stat(path) if path else None
    return {path: stat} if stat else {}


def _module_file(plugin):
    if plugin.source == DIRECTORY:
        return plugin.target
    module = sys.modules.get(plugin.module)
    if module is not None:
        return getattr(module, "__file__", None)
    try:  # it failed to import: its own file may be what is broken
        spec = importlib.util.find_spec(plugin.module)
    except Exception:  # noqa: BLE001 - a parent package may fail any way
        return None
    return spec.origin if spec is not None and spec.has_location else None


# loading


def _load_offers(plugin):
    target = _load_target(plugin)
    return {kind: _provided(target, kind) for kind in plugin.kinds}


def _load_target(plugin):
    """The plugin's module (or the callable its entry point names)."""
    if plugin.source == DIRECTORY:
        return _import_file(plugin.target, plugin.module)
    return importlib.metadata.EntryPoint(plugin.name, plugin.target, plugin.group).load()


def _import_file(path, module_name):
    """Import a plugin directory's ``.py`` file as ``module_name``."""
    module = sys.modules.get(module_name)
    if module is not None:
        if getattr(module, "__file__", None) == path:
            return module
        raise ImportError(
            "module name %s is already used by %s"
            % (module_name, getattr(module, "__file__", "?"))
        )
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise ImportError("%s cannot be imported as a module" % path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[module_name]
        raise
    return module


def _provided(target, kind):
    """``{name: object}`` that a plugin module (or mapping callable) offers."""
    if not isinstance(target, types.ModuleType):
        mapping = _call_mapping(target, getattr(target, "__name__", "mapping"))
    else:
        namespace = vars(target)
        func_name = next((n for n in _MAPPING_FUNCTIONS[kind] if callable(namespace.get(n))), None)
        if func_name is not None:
            mapping = _call_mapping(namespace[func_name], func_name)
        elif kind == COMMANDS:
            mapping = commands_of(target)
        else:
            mapping = {}
    if kind == COMMANDS:
        mapping = {name.replace("_", " "): func for name, func in mapping.items()}
    return mapping


def _call_mapping(func, func_name):
    mapping = dict(func() or {})
    if not mapping and func_name.startswith("available_"):
        raise Unavailable("%s() offers nothing" % func_name)
    return mapping


def _isolated(load, *args):
    """``load(*args)``, turning whatever a plugin raises into an Exception.

    SystemExit, GeneratorExit or a KeyboardInterrupt that the plugin raises
    itself become PluginFailed, so a broken plugin never ends the process.
    A real Ctrl-C (SIGINT while loading) still interrupts: it is told apart
    by a SIGINT handler installed meanwhile, when Python's default one is
    in place on the main thread. With SIGINT ignored there (inherited from
    ``nohup`` or a background job, and left in place as Python does) no
    Ctrl-C can raise, so a KeyboardInterrupt is the plugin's; with another
    handler, or on another thread, every KeyboardInterrupt is taken for a
    real one.
    """
    import signal
    import threading

    interrupted = []

    def on_sigint(signum, frame):
        interrupted.append(signum)
        raise KeyboardInterrupt

    on_main = threading.current_thread() is threading.main_thread()
    handler = signal.getsignal(signal.SIGINT) if on_main else None
    watching = handler is signal.default_int_handler
    deaf = handler in (signal.SIG_IGN, signal.SIG_DFL)
    if watching:
        signal.signal(signal.SIGINT, on_sigint)
    try:
        return load(*args)
    except Exception:
        raise
    except BaseException as exc:
        if interrupted or (isinstance(exc, KeyboardInterrupt) and not (watching or deaf)):
            raise
        raise PluginFailed("%s: %s" % (type(exc).__name__, exc)) from exc
    finally:
        if watching:
            signal.signal(signal.SIGINT, signal.default_int_handler)


def _resolve(spec):
    """The object named by ``"module:attr.path"``."""
    module_name, _, attrs = spec.partition(":")
    obj = importlib.import_module(module_name.strip())
    for attr in filter(None, attrs.strip().split(".")):
        obj = getattr(obj, attr)
    return obj


def _summary(func, name):
    """The first line of a command's docstring, as ``occli --help`` shows it
    (cliff's one-liner: ``inspect.getdoc`` of the command, minus a final
    dot)."""
    import inspect

    doc = getattr(func, "__doc__", None) or name
    return inspect.cleandoc(doc).split("\n")[0].rstrip(".") if isinstance(doc, str) else name


def _failing_command(name, plugin, reason):
    """A stand-in ``do_*`` function explaining why ``name`` cannot run."""
    from occli import utils

    @utils.no_client
    @utils.arg("args", nargs="...", help="(ignored)")
    def do_unavailable(client, args):
        from occli import exceptions

        raise exceptions.CommandError(
            "Command '%s' of plugin %s is unavailable: %s" % (name, plugin.label, reason)
        )

    do_unavailable.__doc__ = "Unavailable: %s" % reason
    return do_unavailable


def _reason(exc):
    if isinstance(exc, (Unavailable, PluginFailed)):
        return str(exc)
    return "%s: %s" % (type(exc).__name__, exc)


def _normalize(name):
    return re.sub(r"[-_.]+", "-", name or "").lower()
