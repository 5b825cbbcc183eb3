"""The resource registry of an environment (``heat/engine/environment.py``).

A registry maps type names to what implements them (:class:`ResourceInfo`:
a plugin class, an alias, a glob, a template) at a path
(``['resources', 'my_server', 'OS::Nova::Server']`` scopes a mapping to one
resource), with the ``hooks`` and ``restricted_actions`` of resources; a
user environment's registry is layered over the global one. Part of
:mod:`.environment`, which re-exports these names.
"""

import fnmatch
import logging
import urllib.parse
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any

from occli.localcloud import errors
from occli.localcloud.orchestration import fields
from occli.localcloud.orchestration import templates

LOG = logging.getLogger(__name__)

HOOK_TYPES = (
    HOOK_PRE_CREATE,
    HOOK_PRE_UPDATE,
    HOOK_PRE_DELETE,
    HOOK_POST_CREATE,
    HOOK_POST_UPDATE,
    HOOK_POST_DELETE,
) = ("pre-create", "pre-update", "pre-delete", "post-create", "post-update", "post-delete")
RESTRICTED_ACTIONS = (UPDATE, REPLACE) = ("update", "replace")
# heat/engine/support.py
SUPPORT_STATUSES = (UNKNOWN, SUPPORTED, DEPRECATED, UNSUPPORTED, HIDDEN) = (
    "UNKNOWN",
    "SUPPORTED",
    "DEPRECATED",
    "UNSUPPORTED",
    "HIDDEN",
)
TEMPLATE_SUFFIXES = (".yaml", ".template")
# an alias chain longer than this is a loop (A: B, B: A): not found
MAX_ALIAS_DEPTH = 32
# template_resource_class(url, files) -> a TemplateResource subclass
TemplateFactory = Callable[[str, Mapping[str, str]], type]


def _hook_definition(key: str, value: Any) -> bool:
    """Whether ``key: value`` is a (valid) ``hooks`` entry; an invalid one
    is Heat's ``InvalidBreakPointHook``."""
    if key != "hooks":
        return False
    if isinstance(value, str):
        valid = value in HOOK_TYPES
    elif isinstance(value, Sequence):
        valid = all(hook in HOOK_TYPES for hook in value)
    else:
        valid = False
    if not valid:
        raise errors.BadRequest(
            'Invalid hook type "%s" for resource breakpoint, acceptable hook types are: %s'
            % (value, HOOK_TYPES),
            type="InvalidBreakPointHook",
        )
    return True


def _restricted_action(key: str, value: Any) -> bool:
    """Whether ``key: value`` is a (valid) ``restricted_actions`` entry; an
    invalid one is Heat's ``InvalidRestrictedAction`` (a 500 there too)."""
    if key != "restricted_actions":
        return False
    if isinstance(value, str):
        valid = value in RESTRICTED_ACTIONS
    elif isinstance(value, Sequence):
        valid = all(action in RESTRICTED_ACTIONS for action in value)
    else:
        valid = False
    if not valid:
        raise fields.Unmapped(
            'Invalid restricted_action type "%s" for resource, acceptable'
            " restricted_action types are: %s" % (value, RESTRICTED_ACTIONS),
            type="InvalidRestrictedAction",
        )
    return True


def type_not_found(resource_type: str) -> errors.NotFound:
    """Heat's ``EntityNotFound`` for a type (a 404 where Heat looks one up:
    ``GET /resource_types/{type}``)."""
    return errors.NotFound(
        "The Resource Type (%s) could not be found." % resource_type, type="EntityNotFound"
    )


def support_of(cls: type) -> tuple[str, str | None]:
    """A plugin class's support status and the version it dates from (its
    ``support_status``: a status text, or an object with ``status`` and
    ``version`` as Heat's ``SupportStatus``)."""
    status = getattr(cls, "support_status", SUPPORTED)
    return str(getattr(status, "status", status)), getattr(status, "version", None)


def getdoc(cls: type | None) -> str:
    """Heat's ``Resource.getdoc``: the class's own docstring."""
    import inspect

    if cls is None or cls.__doc__ is None:
        return "No description available"
    return inspect.cleandoc(cls.__doc__)


class ResourceInfo:
    """One registry entry: the type name at ``path`` and what it maps to."""

    description = ""

    def __init__(self, registry: "ResourceRegistry", path: Sequence[str], value: Any) -> None:
        self.registry = registry
        self.path = list(path)
        self.name = self.path[-1]
        self.value = value
        self.user_resource = True

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, ResourceInfo)
            and self.path == other.path
            and self.value == other.value
            and self.user_resource == other.user_resource
        )

    __hash__ = None  # type: ignore[assignment]

    def sort_key(self) -> tuple[bool, int, list[str]]:
        """User entries before global ones, longer (more specific) paths
        first, then by path (Heat's ``ResourceInfo.__lt__``)."""
        return (not self.user_resource, -len(self.path), self.path)

    def get_resource_info(
        self, resource_type: str, resource_name: str | None = None, depth: int = 0
    ) -> "ResourceInfo":
        return self

    def matches(self, resource_type: str) -> bool:
        return False

    def get_class(self, files: Mapping[str, str] | None = None) -> type:
        raise NotImplementedError

    def __str__(self) -> str:
        return "[%s](User:%s) %s -> %s" % (
            self.description,
            self.user_resource,
            self.name,
            self.value,
        )


class ClassResourceInfo(ResourceInfo):
    """A type implemented by a plugin class."""

    description = "Plugin"

    def get_class(self, files: Mapping[str, str] | None = None) -> type:
        return self.value  # type: ignore[no-any-return]


class TemplateResourceInfo(ResourceInfo):
    """A type implemented by a template (a template resource)."""

    description = "Template"

    def __init__(self, registry: "ResourceRegistry", path: Sequence[str], value: Any) -> None:
        super().__init__(registry, path, value)
        self.template_name = self.name if self.name.endswith(TEMPLATE_SUFFIXES) else str(value)
        self.value = self.template_name

    def template_text(self, files: Mapping[str, str] | None) -> dict[str, str]:
        """``files`` with this template's text: from ``files`` (a user
        environment's template comes only from there), else, for the global
        environment, from a ``file:`` URL (Heat's ``LOCAL_SCHEMES``)."""
        files = dict(files or {})
        if self.template_name in files:
            return files
        scheme = urllib.parse.urlparse(self.template_name).scheme
        if self.user_resource or scheme != "file":
            if scheme in ("http", "https") and self.user_resource:
                reason = "Failed to retrieve template from %s" % self.template_name
            else:
                reason = "Invalid URL scheme %s" % scheme
            raise self._fetch_failed(reason)
        path = urllib.parse.unquote(urllib.parse.urlparse(self.template_name).path)
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read(templates.MAX_TEMPLATE_SIZE + 1)
        except OSError as exc:
            raise self._fetch_failed("Failed to retrieve template: %s" % exc) from None
        if len(text) > templates.MAX_TEMPLATE_SIZE:
            raise self._fetch_failed(
                "Template exceeds maximum allowed size (%s bytes)" % templates.MAX_TEMPLATE_SIZE
            )
        files[self.template_name] = text
        return files

    def _fetch_failed(self, reason: str) -> errors.BadRequest:
        # heat's TemplateResource.validate: the fetch error as a validation one
        return errors.BadRequest(
            'Could not fetch remote template "%s": %s' % (self.template_name, reason),
            type="StackValidationFailed",
        )

    def get_class(self, files: Mapping[str, str] | None = None) -> type:
        factory = self.registry.template_factory()
        if factory is None:
            raise type_not_found(self.name)
        return factory(self.template_name, self.template_text(files))


class MapResourceInfo(ResourceInfo):
    """An alias: one type name for another
    (``OS::Networking::FloatingIp: OS::Neutron::FloatingIp``)."""

    description = "Mapping"

    def get_class(self, files: Mapping[str, str] | None = None) -> type:
        raise type_not_found(self.name)

    def get_resource_info(
        self, resource_type: str, resource_name: str | None = None, depth: int = 0
    ) -> ResourceInfo:
        return self.registry.get_resource_info(self.value, resource_name, depth=depth + 1)


class GlobResourceInfo(MapResourceInfo):
    """A wildcard alias (``OS::Networking::*: OS::Neutron::*``, or many to
    one: ``OS::*: OS::Heat::None``)."""

    description = "Wildcard Mapping"

    def get_resource_info(
        self, resource_type: str, resource_name: str | None = None, depth: int = 0
    ) -> ResourceInfo:
        prefix = self.name[:-1]
        if self.value.endswith("*"):
            new_type = self.value[:-1] + resource_type[len(prefix) :]
        else:
            new_type = self.value
        return self.registry.get_resource_info(new_type, resource_name, depth=depth + 1)

    def matches(self, resource_type: str) -> bool:
        # a many-to-one glob does not match its own target
        return resource_type != self.value and resource_type.startswith(self.name[:-1])


def make_info(registry: "ResourceRegistry", path: Sequence[str], value: Any) -> ResourceInfo:
    """The kind of entry ``path[-1]: value`` is (Heat's
    ``ResourceInfo.__new__``)."""
    name = path[-1]
    if name.endswith(TEMPLATE_SUFFIXES):
        return TemplateResourceInfo(registry, path, value)
    if not isinstance(value, str):
        return ClassResourceInfo(registry, path, value)
    if value.endswith(TEMPLATE_SUFFIXES):
        return TemplateResourceInfo(registry, path, value)
    if name.endswith("*"):
        return GlobResourceInfo(registry, path, value)
    return MapResourceInfo(registry, path, value)


class ResourceRegistry:
    """The registry of one environment over ``global_registry`` (None: this
    is the global registry)."""

    def __init__(
        self, global_registry: "ResourceRegistry | None", param_defaults: dict[str, Any]
    ) -> None:
        self._registry: dict[str, Any] = {"resources": {}}
        self.global_registry = global_registry
        self.param_defaults = param_defaults
        # the global registry's template resource class factory (set by
        # resources.initialise from the template resource module)
        self._template_factory: TemplateFactory | None = None

    def template_factory(self) -> TemplateFactory | None:
        if self.global_registry is not None:
            return self.global_registry.template_factory()
        return self._template_factory

    def set_template_factory(self, factory: TemplateFactory | None) -> None:
        self._template_factory = factory

    # -- loading -----------------------------------------------------------

    def load(self, json_snippet: Any) -> None:
        """Add a ``resource_registry`` section."""
        self._load_registry([], json_snippet)

    def register_class(
        self, resource_type: str, resource_class: type, path: Sequence[str] | None = None
    ) -> None:
        """Map ``resource_type`` to a plugin class."""
        if "resource_type" not in vars(resource_class):
            # the name the type was first registered as (Resource's fallback)
            resource_class.resource_type = resource_type  # type: ignore[attr-defined]
        path = list(path) if path is not None else [resource_type]
        self._register_info(path, ClassResourceInfo(self, path, resource_class))

    def _load_registry(self, path: list[str], registry: Any) -> None:
        if not isinstance(registry, Mapping):
            # what Heat's ``registry.items()`` raises (an AttributeError: 400)
            raise errors.BadRequest(
                "'%s' object has no attribute 'items'" % type(registry).__name__,
                type="AttributeError",
            )
        for key, value in registry.items():
            key = str(key)
            if value is None:
                self._register_info(path + [key], None)
            elif _hook_definition(key, value) or _restricted_action(key, value):
                self._register_item(path + [key], value)
            elif isinstance(value, Mapping):
                self._load_registry(path + [key], value)
            elif not isinstance(value, str):
                # heat makes it a plugin entry and fails reading its status
                raise errors.BadRequest(
                    "'%s' object has no attribute 'support_status'" % type(value).__name__,
                    type="AttributeError",
                )
            else:
                self._register_info(path + [key], make_info(self, path + [key], value))

    def _level(self, path: Sequence[str]) -> dict[str, Any]:
        """The dict holding ``path[-1]``, made as needed."""
        level = self._registry
        for key in path[:-1]:
            if not isinstance(level.get(key), dict):
                level[key] = {}
            level = level[key]
        return level

    def _register_item(self, path: Sequence[str], item: Any) -> None:
        self._level(path)[path[-1]] = item

    def _register_info(self, path: Sequence[str], info: ResourceInfo | None) -> None:
        """Place ``info`` at ``path`` (``['resources', 'my_srv',
        'OS::Nova::Server']``); None removes the entry (a name ending in
        ``*``: every entry it prefixes)."""
        descriptive_path = "/".join(path)
        name = path[-1]
        level = self._level(path)
        if info is None:
            if name.endswith("*"):
                for existing in [
                    k
                    for k, v in level.items()
                    if isinstance(v, ResourceInfo) and k.startswith(name[:-1])
                ]:
                    LOG.warning("Removing %s from %s", existing, descriptive_path)
                    del level[existing]
            else:
                LOG.warning("Removing %s from %s", name, descriptive_path)
                level.pop(name, None)
            return
        info.user_resource = self.global_registry is not None
        current = level.get(name)
        if isinstance(current, ResourceInfo):
            if current == info:
                return
            LOG.warning("Changing %s from %s to %s", descriptive_path, current.value, info.value)
        if isinstance(info, ClassResourceInfo):
            status, _ = support_of(info.value)
            message = getattr(getattr(info.value, "support_status", None), "message", None)
            if status != SUPPORTED and message:
                LOG.warning("%s is %s. %s", info.name, status, message)
        level[name] = info

    def remove_item(self, info: ResourceInfo) -> None:
        """Remove a template resource entry (a nested stack's environment
        must not map its own type to itself)."""
        if not isinstance(info, TemplateResourceInfo):
            return
        level: Any = self._registry
        for key in info.path[:-1]:
            level = level.get(key) if isinstance(level, dict) else None
            if level is None:
                return
        if isinstance(level, dict):
            level.pop(info.path[-1], None)

    def _resources(self) -> dict[str, Any]:
        scoped = self._registry.get("resources")
        return scoped if isinstance(scoped, dict) else {}

    def remove_resources_except(self, resource_name: str) -> None:
        """Keep only what the ``resources`` section says of
        ``resource_name`` (patterns matching it, then its own entry): a
        nested stack's view of its parent resource's section."""
        scoped = self._resources()
        kept: dict[str, Any] = {}
        for name, entry in scoped.items():
            if fnmatch.fnmatchcase(resource_name, name) and isinstance(entry, dict):
                kept.update(entry)
        if isinstance(scoped.get(resource_name), dict):
            kept.update(scoped[resource_name])
        self._registry["resources"] = kept

    # -- per-resource settings ---------------------------------------------

    def _scoped_values(self, resource_name: str, key: str) -> Iterator[Any]:
        for pattern, entry in self._resources().items():
            if (
                isinstance(entry, dict)
                and key in entry
                and fnmatch.fnmatchcase(resource_name, pattern)
            ):
                yield entry[key]

    def matches_hook(self, resource_name: str, hook: str) -> bool:
        """Whether the ``resources`` section sets ``hook`` on
        ``resource_name`` (names may be patterns: ``*_server``)."""
        for hooks in self._scoped_values(resource_name, "hooks"):
            if hook == hooks if isinstance(hooks, str) else hook in hooks:
                return True
        return False

    def get_rsrc_restricted_actions(self, resource_name: str) -> set[str]:
        """The actions (``update``, ``replace``) refused on ``resource_name``."""
        restricted: set[str] = set()
        for actions in self._scoped_values(resource_name, "restricted_actions"):
            restricted.update([actions] if isinstance(actions, str) else actions)
        return restricted

    # -- lookups -------------------------------------------------------------

    def iterable_by(self, resource_type: str, resource_name: str | None = None) -> Iterator[Any]:
        """This registry's entries that may answer for ``resource_type``."""
        if self.global_registry is not None and resource_type.endswith(TEMPLATE_SUFFIXES):
            # a type that is a template: an entry made on first use (user
            # environments only)
            if not isinstance(self._registry.get(resource_type), ResourceInfo):
                info = TemplateResourceInfo(self, [resource_type], None)
                self._register_info([resource_type], info)
            yield self._registry[resource_type]
        if resource_name:
            scoped = self._resources().get(resource_name)
            if isinstance(scoped, dict) and isinstance(scoped.get(resource_type), ResourceInfo):
                yield scoped[resource_type]
        direct = self._registry.get(resource_type)
        if isinstance(direct, ResourceInfo):
            yield direct
        for pattern, info in list(self._registry.items()):
            is_glob = pattern.endswith("*") and isinstance(info, ResourceInfo)
            if is_glob and info.matches(resource_type):
                yield info

    def get_resource_info(
        self,
        resource_type: str,
        resource_name: str | None = None,
        registry_type: type | None = None,
        ignore: ResourceInfo | None = None,
        depth: int = 0,
    ) -> ResourceInfo:
        """What implements ``resource_type`` (for ``resource_name``): the
        user's entries then the global ones, most specific first, aliases
        followed; Heat's ``EntityNotFound`` (404) when nothing does."""
        if depth > MAX_ALIAS_DEPTH:
            raise type_not_found(resource_type)
        candidates = list(self.iterable_by(resource_type, resource_name))
        if self.global_registry is not None:
            candidates += self.global_registry.iterable_by(resource_type, resource_name)
        for info in sorted(candidates, key=ResourceInfo.sort_key):
            try:
                match = info.get_resource_info(resource_type, resource_name, depth)
            except errors.NotFound:
                continue
            if registry_type is not None and not isinstance(match, registry_type):
                continue
            if ignore is not None and match == ignore:
                continue
            if (
                self.global_registry is not None
                and not match.user_resource
                and not info.user_resource
                and isinstance(info, MapResourceInfo)
            ):
                # a global alias used: kept in the user environment, so the
                # stack keeps its meaning if the global one changes
                self._register_info(
                    [resource_type], MapResourceInfo(self, [resource_type], match.name)
                )
            return match
        raise type_not_found(resource_type)

    def get_class(
        self,
        resource_type: str,
        resource_name: str | None = None,
        files: Mapping[str, str] | None = None,
    ) -> type:
        """The class implementing ``resource_type`` (Heat's ``get_class``:
        ``EntityNotFound``, 404)."""
        return self.get_resource_info(resource_type, resource_name).get_class(files=files)

    def get_class_to_instantiate(
        self,
        resource_type: Any,
        resource_name: str | None = None,
        files: Mapping[str, str] | None = None,
    ) -> type:
        """The class a stack's resource is made of: Heat's checks of the
        type and its ``StackValidationFailed`` (400) for an unknown one."""
        if resource_type == "":
            raise _validation_failed('Resource "%s" has no type' % resource_name)
        if resource_type is None:
            raise _validation_failed(
                'Non-empty resource type is required for resource "%s"' % resource_name
            )
        if not isinstance(resource_type, str):
            raise _validation_failed('Resource "%s" type is not a string' % resource_name)
        try:
            info = self.get_resource_info(resource_type, resource_name)
        except errors.NotFound as exc:
            raise _validation_failed(exc.message) from None
        try:
            return info.get_class(files=files)
        except errors.NotFound as exc:
            raise _validation_failed(exc.message) from None

    def as_dict(self) -> dict[str, Any]:
        """The user entries as an environment's ``resource_registry``."""

        def level_dict(level: Mapping[str, Any]) -> dict[str, Any]:
            result: dict[str, Any] = {}
            for key, value in level.items():
                if isinstance(value, dict):
                    result[key] = level_dict(value)
                elif key in ("hooks", "restricted_actions") and not isinstance(
                    value, ResourceInfo
                ):
                    result[key] = value
                elif isinstance(value, ResourceInfo) and value.user_resource:
                    result[key] = value.value
            return result

        return level_dict(self._registry)

    def get_types(
        self,
        support_status: str | None = None,
        type_name: str | None = None,
        version: str | None = None,
        with_description: bool = False,
        available: Callable[[str], bool] | None = None,
    ) -> list[Any]:
        """Heat's ``list_resource_types``: the plugin and template types of
        this registry (never aliases, never ``HIDDEN`` ones), filtered by
        support status, a ``type_name`` regular expression matched at the
        start (RE2: linear time; an invalid one matches nothing), the
        version they date from and, with ``available``, whether the service
        a type needs (its ``default_client_name``) is there."""
        if support_status is not None and support_status not in SUPPORT_STATUSES:
            raise errors.BadRequest(
                "Data supplied was not valid: Invalid support status and should be one of %s"
                % str(SUPPORT_STATUSES),
                type="Invalid",
            )
        name_match: Callable[[str], Any] | None = None
        if type_name is not None:
            import re2  # the local cloud's dependency: a user's pattern

            options = re2.Options()
            options.log_errors = False
            try:
                name_match = re2.compile(type_name, options=options).match
            except re2.error:
                return []
        result: list[Any] = []
        for name, info in list(self._registry.items()):
            if not isinstance(info, (ClassResourceInfo, TemplateResourceInfo)):
                continue
            if name_match is not None and not name_match(name):
                continue
            cls = info.value if isinstance(info, ClassResourceInfo) else None
            status, since = support_of(cls) if cls is not None else (SUPPORTED, None)
            if status == HIDDEN:
                continue
            if version is not None and since != version:
                continue
            if support_status is not None and status != support_status:
                continue
            client = getattr(cls, "default_client_name", None)
            if available is not None and client and not available(client):
                continue
            if not with_description:
                result.append(name)
                continue
            if cls is None:
                try:
                    cls = info.get_class()
                except errors.Error:
                    cls = None
            result.append({"resource_type": name, "description": getdoc(cls)})
        return result


def _validation_failed(message: str) -> errors.BadRequest:
    return errors.BadRequest(message, type="StackValidationFailed")
