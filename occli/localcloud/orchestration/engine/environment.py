"""Environments: the resource registry, parameters and their defaults.

Heat's ``heat/engine/environment.py``.
An environment's ``resource_registry`` maps type names to what implements
them: a plugin class (registered by the loader in the global environment,
:mod:`.resources`), another type name (an alias,
``Heat::InstallConfigAgent: OS::Heat::SoftwareConfig``), a glob
(``OS::Networking::*: OS::Neutron::*``) or a template (a value ending in
``.yaml``/``.template``: a template resource, a nested stack built from the
request's ``files``); ``resources: {<name>: {...}}`` scopes mappings,
``hooks`` and ``restricted_actions`` to resources by name. A stack's
(user) environment is layered over the global one: a lookup tries the
user's entries first, the most specific first, then the global ones
(``ResourceRegistry.get_resource_info``).

The registry is :mod:`.environment_registry`, the environment files'
format :mod:`.environment_format`; their public names are importable from
here.
"""

import glob
import logging
import os
from collections.abc import Callable
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any

from occli.localcloud import errors
from occli.localcloud.orchestration import templates
from occli.localcloud.orchestration.engine import environment_format
from occli.localcloud.orchestration.engine import environment_registry

LOG = logging.getLogger(__name__)

# the public names of the siblings, importable from here
SECTIONS = environment_format.SECTIONS
PARAMETERS = environment_format.PARAMETERS
RESOURCE_REGISTRY = environment_format.RESOURCE_REGISTRY
PARAMETER_DEFAULTS = environment_format.PARAMETER_DEFAULTS
ENCRYPTED_PARAM_NAMES = environment_format.ENCRYPTED_PARAM_NAMES
EVENT_SINKS = environment_format.EVENT_SINKS
PARAMETER_MERGE_STRATEGIES = environment_format.PARAMETER_MERGE_STRATEGIES
parse_environment = environment_format.parse_environment
validate_environment = environment_format.validate_environment
default_for_missing = environment_format.default_for_missing
HOOK_TYPES = environment_registry.HOOK_TYPES
RESTRICTED_ACTIONS = environment_registry.RESTRICTED_ACTIONS
SUPPORT_STATUSES = environment_registry.SUPPORT_STATUSES
TEMPLATE_SUFFIXES = environment_registry.TEMPLATE_SUFFIXES
TemplateFactory = environment_registry.TemplateFactory
ResourceInfo = environment_registry.ResourceInfo
ClassResourceInfo = environment_registry.ClassResourceInfo
TemplateResourceInfo = environment_registry.TemplateResourceInfo
MapResourceInfo = environment_registry.MapResourceInfo
GlobResourceInfo = environment_registry.GlobResourceInfo
ResourceRegistry = environment_registry.ResourceRegistry
type_not_found = environment_registry.type_not_found
support_of = environment_registry.support_of
getdoc = environment_registry.getdoc

# the files read from the global environment directory
GLOBAL_ENV_PATTERNS = ("*.yaml", "*.yml", "*.json")

# the environment a user environment is layered over when none is given
# (resources.initialise sets it)
_default_global: "Environment | None" = None


def set_default_global(env: "Environment | None") -> None:
    """Make ``env`` the global environment of environments made without
    one."""
    global _default_global
    _default_global = env


class Environment:
    """An environment: ``resource_registry`` (:class:`ResourceRegistry`),
    ``parameters``, ``parameter_defaults``, ``encrypted_param_names``,
    ``event_sinks``.

    ``env`` is a parsed environment (:func:`parse_environment`) or, as
    Heat still takes, flat parameters. ``user_env=False`` makes a global
    environment (plugin classes, no layer below); a user environment is
    layered over ``global_env`` (default: the one :mod:`.resources`
    loaded). ``files`` are the request's files, where template resources
    are found.
    """

    def __init__(
        self,
        env: Mapping[str, Any] | None = None,
        user_env: bool = True,
        global_env: "Environment | None" = None,
        files: Mapping[str, str] | None = None,
    ) -> None:
        env = dict(env or {})
        if user_env:
            if global_env is None:
                global_env = _default_global or Environment(user_env=False)
            self.global_env: Environment | None = global_env
            global_registry: ResourceRegistry | None = global_env.registry
        else:
            self.global_env = None
            global_registry = None
        self.files: dict[str, str] = dict(files or {})
        self.parameter_defaults: dict[str, Any] = dict(env.get(PARAMETER_DEFAULTS) or {})
        self.registry: ResourceRegistry = ResourceRegistry(
            global_registry, self.parameter_defaults
        )
        self.registry.load(env.get(RESOURCE_REGISTRY) or {})
        self.encrypted_param_names: list[str] = list(env.get(ENCRYPTED_PARAM_NAMES) or [])
        if PARAMETERS in env:
            self.params: dict[str, Any] = dict(env[PARAMETERS] or {})
        else:
            self.params = {k: v for k, v in env.items() if k not in SECTIONS}
        self.event_sinks: list[Any] = list(env.get(EVENT_SINKS) or [])
        # custom constraints plugins added: name -> checker(value, clients)
        self.constraints: dict[str, Callable[..., Any]] = {}
        # which services the cloud runs (global environment; see get_types)
        self.service_available: Callable[[str], bool] | None = None

    def load(self, env_snippet: Mapping[str, Any]) -> None:
        """Layer another environment's sections over this one's."""
        self.registry.load(env_snippet.get(RESOURCE_REGISTRY) or {})
        self.params.update(env_snippet.get(PARAMETERS) or {})
        self.parameter_defaults.update(env_snippet.get(PARAMETER_DEFAULTS) or {})
        self.event_sinks.extend(env_snippet.get(EVENT_SINKS) or [])

    def user_env_as_dict(self) -> dict[str, Any]:
        """The environment as ``GET …/environment`` shows it."""
        return {
            RESOURCE_REGISTRY: self.registry.as_dict(),
            PARAMETERS: self.params,
            PARAMETER_DEFAULTS: self.parameter_defaults,
            EVENT_SINKS: self.event_sinks,
        }

    def env_as_dict(self) -> dict[str, Any]:
        """The environment as stored: the user's view and
        ``encrypted_param_names``."""
        result = self.user_env_as_dict()
        result[ENCRYPTED_PARAM_NAMES] = self.encrypted_param_names
        return result

    def register_class(
        self, resource_type: str, resource_class: type, path: Sequence[str] | None = None
    ) -> None:
        self.registry.register_class(resource_type, resource_class, path=path)

    def register_constraint(self, name: str, checker: Callable[..., Any]) -> None:
        """A custom constraint from a plugin: ``checker(value, clients)``
        raising ValueError with its text."""
        self.constraints[name] = checker

    def get_constraint(self, name: str) -> Callable[..., Any] | None:
        """A plugin's custom constraint, this environment's or the global one's."""
        checker = self.constraints.get(name)
        if checker is None and self.global_env is not None:
            return self.global_env.get_constraint(name)
        return checker

    def get_class(
        self,
        resource_type: Any,
        resource_name: str | None = None,
        files: Mapping[str, str] | None = None,
    ) -> type:
        """The class a stack's resource of ``resource_type`` is made of
        (a template resource: the class R3's factory makes of its file);
        unknown: Heat's ``StackValidationFailed`` "The Resource Type (X)
        could not be found." (400)."""
        return self.registry.get_class_to_instantiate(
            resource_type, resource_name, files=self.files if files is None else files
        )

    def find_class(self, resource_type: str, files: Mapping[str, str] | None = None) -> type:
        """The class of ``resource_type`` or Heat's ``EntityNotFound`` (404:
        ``GET /resource_types/{type}``)."""
        return self.registry.get_class(resource_type, files=self.files if files is None else files)

    def get_resource_info(
        self,
        resource_type: str,
        resource_name: str | None = None,
        registry_type: type | None = None,
        ignore: ResourceInfo | None = None,
    ) -> ResourceInfo:
        return self.registry.get_resource_info(
            resource_type, resource_name, registry_type=registry_type, ignore=ignore
        )

    def get_types(
        self,
        support_status: str | None = None,
        type_name: str | None = None,
        version: str | None = None,
        with_description: bool = False,
    ) -> list[Any]:
        """``GET /resource_types``: the types of this environment's own
        registry (call it on the global environment), filtered as Heat's
        ``list_resource_types``."""
        available = self.service_available
        if available is None and self.global_env is not None:
            available = self.global_env.service_available
        return self.registry.get_types(
            support_status=support_status,
            type_name=type_name,
            version=version,
            with_description=with_description,
            available=available,
        )

    def matches_hook(self, resource_name: str, hook: str) -> bool:
        return self.registry.matches_hook(resource_name, hook)

    def get_rsrc_restricted_actions(self, resource_name: str) -> set[str]:
        return self.registry.get_rsrc_restricted_actions(resource_name)


def _is_flat_params(env_or_params: Mapping[str, Any] | None) -> bool:
    if env_or_params is None:
        return False
    return not any(section in env_or_params for section in SECTIONS)


def get_child_environment(
    parent_env: Environment,
    child_params: Mapping[str, Any] | None,
    item_to_remove: ResourceInfo | None = None,
    child_resource_name: str | None = None,
) -> Environment:
    """A nested stack's environment (Heat's ``get_child_environment``): the
    parent's registry and defaults with the child's parameters (flat, or an
    environment loaded after the parent's), without the template resource
    entry that made it, and with only the parent resource's ``resources``
    section (``child_resource_name``)."""
    child_env = parent_env.user_env_as_dict()
    child_env[PARAMETERS] = {}
    flat = _is_flat_params(child_params)
    new_env = Environment(global_env=parent_env.global_env, files=parent_env.files)
    if flat and child_params is not None:
        child_env[PARAMETERS] = dict(child_params)
    new_env.load(child_env)
    if not flat and child_params is not None:
        new_env.load(child_params)
    if item_to_remove is not None:
        new_env.registry.remove_item(item_to_remove)
    if child_resource_name:
        new_env.registry.remove_resources_except(child_resource_name)
    return new_env


def read_global_environment(env: Environment, env_dir: str | None) -> None:
    """Load every environment file of ``env_dir`` (``*.yaml``, ``*.yml``,
    ``*.json``, in name order) into the global ``env``, as Heat reads its
    ``environment_dir``; a file that cannot be read or parsed is logged and
    skipped."""
    if not env_dir:
        return
    if not os.path.isdir(env_dir):
        LOG.warning("Failed to read %s: not a directory", env_dir)
        return
    paths = sorted(
        {p for pattern in GLOBAL_ENV_PATTERNS for p in glob.glob(os.path.join(env_dir, pattern))}
    )
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                LOG.info("Loading %s", path)
                body = parse_environment(f.read(templates.MAX_TEMPLATE_SIZE + 1))
            env.load(default_for_missing(body))
        except errors.Error as exc:
            LOG.warning("Failed to parse %s: %s", path, exc.message)
        except (OSError, UnicodeDecodeError) as exc:
            LOG.warning("Failed to read %s: %s", path, exc)
