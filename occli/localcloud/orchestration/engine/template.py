"""HOT templates (Heat's ``heat/engine/hot/template.py``, ``template.py``,
``template_common.py``, ``conditions.py``).

A :class:`Template` is a parsed HOT document of one of Heat's versions
(2013-05-23 … 2021-04-16 and their release-name aliases). It validates its
sections as Heat does, reads its parameter schemata with the version's
rules, evaluates its ``conditions`` and builds a
:class:`ResourceDefinition` per enabled resource and a definition per
output, with every ``if`` already decided (Heat's ``If`` is a macro,
evaluated when the template is parsed). Refusals are ``errors.BadRequest``
with Heat's texts and ``error.type`` (``InvalidTemplateVersion``,
``InvalidTemplateSection``, ``StackValidationFailed``,
``InvalidTemplateReference``).
"""

from collections.abc import Mapping
from typing import Any

from occli.localcloud import errors
from occli.localcloud.orchestration import templates as loader
from occli.localcloud.orchestration.engine import constraints as constr
from occli.localcloud.orchestration.engine import functions
from occli.localcloud.orchestration.engine import parameters

MAX_TEMPLATE_SIZE = loader.MAX_TEMPLATE_SIZE
VERSION_KEY = "heat_template_version"
_SECTIONS = (
    "heat_template_version",
    "description",
    "parameter_groups",
    "parameters",
    "resources",
    "outputs",
)
_RESOURCE_KEYS = (
    "type",
    "properties",
    "metadata",
    "depends_on",
    "deletion_policy",
    "update_policy",
    "description",
)
_DELETION_POLICIES = {"Delete": "Delete", "Retain": "Retain", "Snapshot": "Snapshot"}
# the first version with conditions, resource conditions and lower-case policies
_CONDITIONS_VERSION = "2016-10-14"
_IN_PROGRESS = object()


def _invalid(message: str, type: str = "StackValidationFailed") -> errors.BadRequest:
    return errors.BadRequest(message, type=type)


def parse(text_or_obj: Any) -> dict:
    """A template from its text (JSON or YAML, bounded as Heat bounds it) or
    from an already decoded object; BadRequest with Heat's texts."""
    try:
        if isinstance(text_or_obj, str):
            tmpl = loader.parse_template(text_or_obj)
        else:
            tmpl = loader.check_template_size(text_or_obj)
    except loader.TemplateLimitExceeded as exc:
        raise _invalid(str(exc), "RequestLimitExceeded") from None
    except ValueError as exc:
        raise _invalid(str(exc), "HTTPBadRequest") from None
    if tmpl is None:
        tmpl = {}
    if not isinstance(tmpl, dict):
        raise _invalid("The template is not a JSON object or YAML mapping.", "HTTPBadRequest")
    # only text is checked for a version key (template_format.parse); an
    # object without one is the engine's InvalidTemplateVersion
    if isinstance(text_or_obj, str) and not any(
        k in tmpl
        for k in ("heat_template_version", "HeatTemplateFormatVersion", "AWSTemplateFormatVersion")
    ):
        raise _invalid("Template format version not found.", "HTTPBadRequest")
    return tmpl


def _version_error(explanation: str) -> errors.BadRequest:
    return _invalid("The template version is invalid: %s" % explanation, "InvalidTemplateVersion")


def get_version(tmpl: Mapping[str, Any]) -> str:
    """The dated version of a HOT template (Heat's ``get_version`` and
    ``get_template_class`` texts)."""
    value = tmpl.get(VERSION_KEY)
    if not isinstance(value, str):
        raise _version_error("Template version was not provided")
    if value in functions.TABLES or value in functions.ALIASES:
        return functions.canonical(value)
    available = sorted([*functions.VERSIONS, *functions.ALIASES])
    raise _version_error(
        '"%s: %s". "%s" should be one of: %s'
        % (VERSION_KEY, value, VERSION_KEY, ", ".join(available))
    )


class Conditions:
    """A template's conditions, each evaluated once, on first use."""

    def __init__(self, definitions: Mapping[str, Any], resolver: Any, version: str) -> None:
        self._definitions = dict(definitions)
        self._resolver = resolver
        self._version = version
        self._resolved: dict[str, Any] = {}

    def _check(self, name: str, definition: Any) -> None:
        if not isinstance(definition, bool):
            raise _invalid(
                'Condition validation error: The definition of condition "%s" is invalid: %s'
                % (name, definition)
            )

    def is_enabled(self, condition: Any) -> bool:
        """A condition's value: a name, a literal boolean, None (True)."""
        if condition is None:
            return True
        if isinstance(condition, bool):
            return condition
        if not isinstance(condition, str) or condition not in self._definitions:
            raise ValueError('Invalid condition "%s"' % (condition,))
        if condition not in self._resolved:
            self._resolved[condition] = _IN_PROGRESS
            definition = self._definitions[condition]
            evaluator = functions.Evaluator(
                self._resolver, self._version, self.is_enabled, condition_mode=True
            )
            if not isinstance(definition, bool) and evaluator.function(definition) is None:
                self._check(condition, definition)
            value = evaluator(definition, "conditions.%s" % condition)
            self._check(condition, value)
            self._resolved[condition] = value
        result = self._resolved[condition]
        if result is _IN_PROGRESS:
            raise _invalid(
                'Condition validation error: Circular definition for condition "%s"' % condition
            )
        return bool(result)

    def evaluate(self, snippet: Any, path: str) -> bool:
        """A resource's or output's ``condition``: a name, a boolean or a
        condition function."""
        evaluator = functions.Evaluator(
            self._resolver, self._version, self.is_enabled, condition_mode=True
        )
        try:
            return self.is_enabled(evaluator(snippet, path))
        except ValueError as exc:
            raise _invalid("%s: %s" % (path, exc)) from None


class ResourceDefinition:
    """One resource of a template (functions unresolved, ``if`` decided)."""

    def __init__(
        self,
        name: str,
        type: str,
        version: str,
        properties: dict | None = None,
        metadata: dict | None = None,
        depends_on: list[str] | None = None,
        deletion_policy: str = "Delete",
        update_policy: dict | None = None,
        condition: Any = None,
        description: str = "",
        external_id: Any = None,
        known: set[str] | None = None,
    ) -> None:
        self.name = name
        self.type = type
        self.version = version
        self.properties = properties or {}
        self.metadata = metadata or {}
        self.depends_on = list(depends_on or [])
        self.deletion_policy = deletion_policy
        self.update_policy = update_policy or {}
        self.condition = condition
        self.description = description
        self.external_id = external_id
        # the enabled resources' names; None: every reference counts
        self.known = known

    def as_dict(self) -> dict[str, Any]:
        """What ``Resource(name, definition, stack)`` receives."""
        return {
            "type": self.type,
            "properties": self.properties,
            "metadata": self.metadata,
            "depends_on": self.depends_on,
            "deletion_policy": self.deletion_policy,
            "update_policy": self.update_policy,
        }

    def required_names(self) -> set[str]:
        """Every resource name this one refers to, enabled or not."""
        names = set(self.depends_on)
        names |= functions.references(self.properties, self.version)
        names |= functions.references(self.metadata, self.version)
        return names

    def reference_paths(self) -> list[tuple[str, str]]:
        """``(name, where)`` of each reference in Heat's order: those in
        ``properties`` and ``metadata`` at their paths (``r.Properties.
        value``), then ``depends_on`` (``r``) (``rsrc_defn.py``
        ``required_resource_names``, ``dependencies``)."""
        found = functions.reference_paths(self.properties, self.version, self.name + ".Properties")
        found += functions.reference_paths(self.metadata, self.version, self.name + ".Metadata")
        return found + [(name, self.name) for name in self.depends_on]

    def dependencies(self) -> set[str]:
        """The resources this one waits for: ``depends_on`` and the names
        its ``get_resource``/``get_attr`` refer to."""
        names = self.required_names()
        return names if self.known is None else names & self.known


def _expand(snippet: Any, version: str, conditions: Conditions, path: str) -> Any:
    """``snippet`` with each ``if`` replaced by its chosen branch; an
    omitted false branch (2021-04-16) drops the enclosing item (Ellipsis)."""
    table = functions.TABLES[version]
    if isinstance(snippet, Mapping):
        if len(snippet) == 1:
            name, args = next(iter(snippet.items()))
            variant = table.get(name, "")
            if variant.startswith("If"):
                fn_path = "%s.%s" % (path, name)
                try:
                    cond, if_true, if_false = functions.if_arguments(name, variant, args)
                    chosen = if_true if conditions.evaluate(cond, fn_path) else if_false
                except ValueError as exc:
                    raise _invalid("%s: %s" % (fn_path, exc)) from None
                return (
                    Ellipsis if chosen is Ellipsis else _expand(chosen, version, conditions, path)
                )
        expanded = {
            k: _expand(v, version, conditions, "%s.%s" % (path, k)) for k, v in snippet.items()
        }
        return {k: v for k, v in expanded.items() if v is not Ellipsis}
    if isinstance(snippet, list):
        items = [
            _expand(v, version, conditions, "%s[%d]" % (path, i)) for i, v in enumerate(snippet)
        ]
        return [v for v in items if v is not Ellipsis]
    return snippet


def _section_items(section: str, key: str, data: Any, allowed: tuple[str, ...]) -> None:
    """Heat's ``validate_section``: a map of maps, each with ``key`` and
    only ``allowed`` keywords."""
    obj = section[:-1]
    message = "Each %s must contain a %s key." % (obj, key)
    if not isinstance(data, Mapping):
        raise _invalid(
            '"%s" must contain a map of %s maps. Found a [%s] instead' % (section, obj, type(data))
        )
    for _name, attrs in sorted(data.items(), key=lambda item: str(item[0])):
        if not attrs:
            raise _invalid(message)
        if not isinstance(attrs, Mapping):
            raise _invalid(
                '"%s" must contain a map of %s maps. Found a [%s] instead'
                % (section, obj, type(attrs))
            )
        for attr in attrs:
            if attr not in allowed:
                raise _invalid('"%s" is not a valid keyword inside a %s definition' % (attr, obj))
        if key not in attrs:
            raise _invalid(message)


class Template:
    """A HOT template and the files its ``get_file`` may read."""

    def __init__(self, tmpl: Mapping[str, Any], files: Mapping[str, str] | None = None) -> None:
        if not isinstance(tmpl, Mapping):
            raise _invalid("The template is not a JSON object or YAML mapping.", "HTTPBadRequest")
        self.t = dict(tmpl)
        self.files = dict(files or {})
        self.version = get_version(self.t)
        self.has_conditions = self.version >= _CONDITIONS_VERSION
        self._conditions: tuple[int, Conditions] | None = None

    # -- sections ---------------------------------------------------------

    @property
    def sections(self) -> tuple[str, ...]:
        return _SECTIONS + (("conditions",) if self.has_conditions else ())

    @property
    def resource_keys(self) -> tuple[str, ...]:
        return _RESOURCE_KEYS + (("external_id", "condition") if self.has_conditions else ())

    @property
    def output_keys(self) -> tuple[str, ...]:
        return ("description", "value") + (("condition",) if self.has_conditions else ())

    @property
    def description(self) -> str:
        return self.t.get("description") or "No description"

    def parameter_groups(self) -> list:
        return list(self.t.get("parameter_groups") or [])

    def section(self, name: str) -> dict:
        value = self.t.get(name) or {}
        return value if isinstance(value, dict) else {}

    def all_resource_names(self) -> set[str]:
        """Every resource the template declares, enabled or not."""
        return set(self.section("resources"))

    def validate(self) -> None:
        """Heat's template validation: known sections, resource and output
        definitions, parameters and conditions of the right shape, no
        function the version removed."""
        for key in self.t:
            if key not in self.sections:
                # heat's InvalidTemplateSection, re-raised by the engine's
                # _validate_template as StackValidationFailed(message=...)
                raise _invalid("The template section is invalid: %s" % key)
        resources = self.t.get("resources") or {}
        _section_items("resources", "type", resources, self.resource_keys)
        outputs = self.t.get("outputs") or {}
        _section_items("outputs", "value", outputs, self.output_keys)
        if not isinstance(self.t.get("parameters") or {}, Mapping):
            raise _invalid(
                '"parameters" must contain a map of parameter maps. Found a [%s] instead'
                % type(self.t["parameters"])
            )
        conditions = self.t.get("conditions") or {}
        if not isinstance(conditions, Mapping):
            raise _invalid(
                "Conditions validation error: Condition definitions must be a map. "
                "Found a %s instead" % type(conditions).__name__
            )
        for section in ("resources", "outputs"):
            functions.check_removed(self.t.get(section) or {}, self.version)
        self.param_schemata()

    def param_schemata(self) -> dict[str, parameters.Schema]:
        """Each parameter's schema, read with this version's rules."""
        try:
            return {
                name: parameters.Schema.from_dict(name, schema, self.version)
                for name, schema in (self.t.get("parameters") or {}).items()
            }
        except constr.InvalidSchemaError as exc:
            raise _invalid(str(exc), "InvalidSchemaError") from None

    # -- definitions ------------------------------------------------------

    def conditions(self, resolver: Any) -> Conditions:
        """The template's conditions for ``resolver`` (evaluated lazily,
        once per resolver)."""
        if self._conditions is None or self._conditions[0] != id(resolver):
            definitions = self.t.get("conditions") or {} if self.has_conditions else {}
            if not isinstance(definitions, Mapping):
                raise _invalid(
                    "Conditions validation error: Condition definitions must be a map. "
                    "Found a %s instead" % type(definitions).__name__
                )
            self._conditions = (id(resolver), Conditions(definitions, resolver, self.version))
        return self._conditions[1]

    def _field(
        self, name: str, data: Mapping[str, Any], key: str, kinds: tuple, typename: str
    ) -> Any:
        value = data.get(key)
        if value is not None and not isinstance(value, kinds):
            raise _invalid("Resource %s %s type must be %s" % (name, key, typename))
        return value

    def resource_definitions(self, resolver: Any) -> dict[str, ResourceDefinition]:
        """The enabled resources' definitions (a resource whose condition is
        false is absent); references to undeclared resources refused."""
        resources = self.t.get("resources") or {}
        if not isinstance(resources, Mapping):
            _section_items("resources", "type", resources, self.resource_keys)
        conds = self.conditions(resolver)
        found: dict[str, ResourceDefinition] = {}
        for name, data in resources.items():
            if not isinstance(data, Mapping) or "type" not in data:
                raise _invalid("Each resource must contain a type key.")
            invalid = set(data) - set(self.resource_keys)
            if invalid:
                raise _invalid(
                    "Invalid keyword(s) inside a resource definition: %s"
                    % ", ".join(sorted(invalid))
                )
            if "condition" in data:
                path = "resources.%s.condition" % name
                if not conds.evaluate(data["condition"], path):
                    continue
            found[name] = self._definition(name, data, conds, resolver)
        enabled = set(found)
        declared = self.all_resource_names()
        for definition in found.values():
            definition.known = enabled
            for ref, where in definition.reference_paths():
                if ref not in declared:
                    raise _invalid(
                        'The specified reference "%s" (in %s) is incorrect.' % (ref, where),
                        "InvalidTemplateReference",
                    )
        return found

    def _definition(
        self, name: str, data: Mapping[str, Any], conds: Conditions, resolver: Any
    ) -> ResourceDefinition:
        base = "resources.%s" % name

        def expand(key: str) -> Any:
            value = _expand(data.get(key), self.version, conds, "%s.%s" % (base, key))
            return None if value is Ellipsis else value

        rtype = self._field(name, data, "type", (str,), "string")
        props = self._field(
            name, {"properties": expand("properties")}, "properties", (Mapping,), "object"
        )
        meta = self._field(
            name, {"metadata": expand("metadata")}, "metadata", (Mapping,), "object"
        )
        update = self._field(
            name, {"update_policy": expand("update_policy")}, "update_policy", (Mapping,), "object"
        )
        depends = self._field(name, data, "depends_on", (str, list), "list or string")
        if isinstance(depends, str):
            depends = [depends]
        for dep in depends or []:
            if not isinstance(dep, str):
                raise _invalid("Resource %s depends_on must be a list of strings" % name)
        policy = functions.resolve(
            expand("deletion_policy"), resolver, self.version, "%s.deletion_policy" % base
        )
        if policy is not None:
            policies = dict(_DELETION_POLICIES)
            if self.has_conditions:
                policies.update({k.lower(): v for k, v in _DELETION_POLICIES.items()})
            if policy not in policies:
                raise _invalid('Invalid deletion policy "%s"' % policy)
            policy = policies[policy]
        self._field(name, data, "description", (str,), "string")
        return ResourceDefinition(
            name,
            rtype,
            self.version,
            properties=dict(props or {}),
            metadata=dict(meta or {}),
            depends_on=depends,
            deletion_policy=policy or "Delete",
            update_policy=dict(update or {}),
            condition=data.get("condition"),
            description=data.get("description") or "",
            external_id=data.get("external_id"),
        )

    def outputs(self, resolver: Any) -> dict[str, dict[str, Any]]:
        """``{name: {"value": snippet (None when its condition is false),
        "description": str, "condition": bool}}``."""
        conds = self.conditions(resolver)
        found = {}
        for key, val in (self.t.get("outputs") or {}).items():
            if not isinstance(val, Mapping):
                raise _invalid(
                    "Output validation error: outputs.%s: Output definitions must be a map. "
                    "Found a %s instead" % (key, type(val).__name__)
                )
            if "value" not in val:
                raise _invalid(
                    "Output validation error: outputs.%s: Each output definition must "
                    "contain a value key." % key
                )
            enabled = True
            if self.has_conditions and "condition" in val:
                enabled = conds.evaluate(val["condition"], "outputs.%s.condition" % key)
            value = None
            if enabled:
                value = _expand(val["value"], self.version, conds, "outputs.%s.value" % key)
                value = None if value is Ellipsis else value
            found[key] = {
                "value": value,
                "description": val.get("description") or "No description given",
                "condition": enabled,
            }
        return found

    # -- what GET /template_versions answers ----------------------------------

    @staticmethod
    def versions() -> list[dict]:
        """``GET /template_versions``: every HOT version with its aliases."""
        aliases: dict[str, list[str]] = {v: [] for v in functions.VERSIONS}
        for alias, dated in sorted(functions.ALIASES.items()):
            aliases[dated].append("%s.%s" % (VERSION_KEY, alias))
        return [
            {"version": "%s.%s" % (VERSION_KEY, v), "type": "hot", "aliases": aliases[v]}
            for v in functions.VERSIONS
        ]

    @staticmethod
    def functions(version: str, with_condition_func: bool = False) -> list[dict]:
        """``GET /template_versions/{version}/functions``: the version's
        functions (and with ``with_condition_func`` its condition ones)."""
        prefix = VERSION_KEY + "."
        short = version[len(prefix) :] if version.startswith(prefix) else None
        if short is None or functions.canonical(short) not in functions.TABLES:
            raise errors.NotFound("Template with version %s not found" % version, type="NotFound")
        dated = functions.canonical(short)
        table = dict(functions.TABLES[dated])
        if with_condition_func:
            table.update(functions.CONDITION_TABLES[dated])
        return [
            {"functions": name, "description": functions.description(variant)}
            for name, variant in table.items()
            if variant != functions.REMOVED
        ]
