"""``OS::Heat::ResourceGroup`` (Heat's ``openstack/heat/resource_group.py``):
``count`` identically defined resources in a nested stack.

The nested template has one resource per member, named ``"0"``,
``"1"``, … (names removed by ``removal_policies`` are never reused: they
are kept in the resource data ``name_blacklist``), each made of
``resource_def`` with ``index_var`` (``%index%``) in its property strings
replaced by the member's name, and Heat's outputs: one for each attribute
of the group the parent's template reads (``_nested_output_defns``:
``resource.0.value``, ``refs``, ``value``, …) and ``refs_map``. An update
that changes ``count`` or ``resource_def`` updates the nested stack: new
members are created, members beyond the count (the highest names first)
or named by a removal policy deleted, changed ones updated or replaced as
their types decide. Attributes are read from the members: ``refs``,
``refs_map``, ``attributes`` (one attribute of each member), any member
attribute (a list of each member's), ``resource.<name>`` (a member's
reference) and ``resource.<name>.<attribute>``, ``removed_rsrc_list``.
``update_policy`` (``rolling_update``, ``batch_create``) is not acted on:
members are created and updated all at once.
"""

import copy
import itertools
from collections.abc import Iterator
from collections.abc import Mapping
from typing import Any

from occli.localcloud import errors
from occli.localcloud.orchestration.engine import attributes
from occli.localcloud.orchestration.engine import constraints
from occli.localcloud.orchestration.engine import functions
from occli.localcloud.orchestration.engine import properties
from occli.localcloud.orchestration.engine import support
from occli.localcloud.orchestration.engine.resources.openstack.heat import stack_resource

# the version Heat writes a group's nested template in (scaling/template.py)
NESTED_TEMPLATE_VERSION = "2015-04-30"
SKIPLIST_KEY = "name_blacklist"


class ResourceGroup(stack_resource.StackResource):
    """Creates one or more identically configured nested resources."""

    support_status = support.SupportStatus(version="2014.1")

    PROPERTIES = (COUNT, INDEX_VAR, RESOURCE_DEF, REMOVAL_POLICIES, REMOVAL_POLICIES_MODE) = (
        "count",
        "index_var",
        "resource_def",
        "removal_policies",
        "removal_policies_mode",
    )
    _RESOURCE_DEF_KEYS = (RESOURCE_DEF_TYPE, RESOURCE_DEF_PROPERTIES, RESOURCE_DEF_METADATA) = (
        "type",
        "properties",
        "metadata",
    )
    REMOVAL_RSRC_LIST = "resource_list"
    _REMOVAL_POLICY_MODES = (REMOVAL_POLICY_APPEND, REMOVAL_POLICY_UPDATE) = ("append", "update")
    ATTRIBUTES = (REFS, REFS_MAP, ATTR_ATTRIBUTES, REMOVED_RSRC_LIST) = (
        "refs",
        "refs_map",
        "attributes",
        "removed_rsrc_list",
    )

    properties_schema = {
        COUNT: properties.Schema(
            properties.Schema.INTEGER,
            "The number of resources to create.",
            default=1,
            constraints=[constraints.Range(min=0)],
            update_allowed=True,
        ),
        INDEX_VAR: properties.Schema(
            properties.Schema.STRING,
            "A variable that this resource will use to replace with the current index of a "
            "given resource in the group. Can be used, for example, to customize the name "
            "property of grouped servers in order to differentiate them when listed with "
            "nova client.",
            default="%index%",
            constraints=[constraints.Length(min=3)],
        ),
        RESOURCE_DEF: properties.Schema(
            properties.Schema.MAP,
            "Resource definition for the resources in the group. The value of this property "
            "is the definition of a resource just as if it had been declared in the template "
            "itself.",
            schema={
                RESOURCE_DEF_TYPE: properties.Schema(
                    properties.Schema.STRING,
                    "The type of the resources in the group.",
                    required=True,
                ),
                RESOURCE_DEF_PROPERTIES: properties.Schema(
                    properties.Schema.MAP, "Property values for the resources in the group."
                ),
                RESOURCE_DEF_METADATA: properties.Schema(
                    properties.Schema.MAP, "Supplied metadata for the resources in the group."
                ),
            },
            required=True,
            update_allowed=True,
        ),
        REMOVAL_POLICIES: properties.Schema(
            properties.Schema.LIST,
            "Policies for removal of resources on update.",
            schema=properties.Schema(
                properties.Schema.MAP,
                "Policy to be processed when doing an update which requires removal of "
                "specific resources.",
                schema={
                    REMOVAL_RSRC_LIST: properties.Schema(
                        properties.Schema.LIST,
                        "List of resources to be removed when doing an update which requires "
                        "removal of specific resources. The resource may be specified several "
                        "ways: (1) The resource name, as in the nested stack, (2) The resource "
                        "reference returned from get_resource in a template, as available via "
                        "the 'refs' attribute. Note this is destructive on update when "
                        "specified; even if the count is not being reduced, and once a "
                        "resource name is removed, its name is never reused in subsequent "
                        "updates.",
                        default=[],
                    ),
                },
            ),
            update_allowed=True,
            default=[],
        ),
        REMOVAL_POLICIES_MODE: properties.Schema(
            properties.Schema.STRING,
            'How to handle changes to removal_policies on update. The default "append" mode '
            'appends to the internal list, "update" replaces it on update.',
            default=REMOVAL_POLICY_APPEND,
            constraints=[constraints.AllowedValues(list(_REMOVAL_POLICY_MODES))],
            update_allowed=True,
        ),
    }
    attributes_schema = {
        REFS: attributes.Schema(
            "A list of resource IDs for the resources in the group.",
            type=attributes.Schema.LIST,
        ),
        REFS_MAP: attributes.Schema(
            "A map of resource names to IDs for the resources in the group.",
            type=attributes.Schema.MAP,
        ),
        ATTR_ATTRIBUTES: attributes.Schema(
            "A map of resource names to the specified attribute of each individual resource. "
            "Requires heat_template_version: 2014-10-16.",
            type=attributes.Schema.MAP,
        ),
        REMOVED_RSRC_LIST: attributes.Schema(
            "A list of removed resource names.", type=attributes.Schema.LIST
        ),
    }

    def get_size(self) -> int:
        return int(self.properties[self.COUNT])

    # -- member names -------------------------------------------------------

    def _current_skiplist(self) -> list[str]:
        names = self.data().get(SKIPLIST_KEY)
        return str(names).split(",") if names else []

    def _member_names(self) -> list[str]:
        """The nested stack's members, failed ones included."""
        nested = self.nested()
        return list(nested.resources) if nested is not None else []

    def _new_skiplist_entries(self, props: Mapping[str, Any], current: set[str]) -> Iterator[str]:
        """The names ``removal_policies`` adds: a member's name, or a
        current member's reference (its entry in the nested stack's
        ``refs_map``)."""
        members: list[str] | None = None
        refs: dict[str, Any] | None = None
        for policy in props.get(self.REMOVAL_POLICIES) or []:
            for item in (policy or {}).get(self.REMOVAL_RSRC_LIST) or []:
                name = str(item)
                if members is None:
                    members = self._member_names()
                if name in current or self.resource_id is None or name in members:
                    yield name
                elif isinstance(item, str):
                    if refs is None:
                        refs = {n: self._member_ref(n) for n in members}
                    for member, ref in refs.items():
                        if ref == item:
                            yield member
                            break

    def _update_name_skiplist(self, props: Mapping[str, Any]) -> None:
        """Resolve the removal policies to names and keep them (``append``
        adds to the names kept, ``update`` replaces them)."""
        current = set(self._current_skiplist())
        mode = props.get(self.REMOVAL_POLICIES_MODE) or self.REMOVAL_POLICY_APPEND
        kept = set() if mode == self.REMOVAL_POLICY_UPDATE else set(current)
        updated = kept | set(self._new_skiplist_entries(props, current))
        if updated != current:
            self.data_set(SKIPLIST_KEY, ",".join(sorted(updated)))

    def _name_skiplist(self) -> set[str]:
        names = set(self._current_skiplist())
        if self.resource_id is None:
            names |= set(self._new_skiplist_entries(self.properties, names))
        return names

    def _resource_names(self, size: int | None = None) -> list[str]:
        """The members' names: ``"0"``, ``"1"``, … skipping removed ones."""
        skip = self._name_skiplist()
        count = self.get_size() if size is None else size
        candidates = (str(i) for i in itertools.count())
        return list(itertools.islice((n for n in candidates if n not in skip), count))

    # -- the nested template ------------------------------------------------

    def get_resource_def(self, include_all: bool = False) -> dict[str, Any]:
        """``resource_def`` (properties whose value is None left out unless
        ``include_all``)."""
        res_def = copy.deepcopy(dict(self.properties[self.RESOURCE_DEF] or {}))
        props = res_def.get(self.RESOURCE_DEF_PROPERTIES)
        if props and not include_all:
            res_def[self.RESOURCE_DEF_PROPERTIES] = {
                k: v for k, v in props.items() if v is not None
            }
        return res_def

    def _handle_repl_val(self, res_name: str, val: Any) -> Any:
        """``val`` with ``index_var`` replaced by the member's name in every
        string."""
        var = self.properties[self.INDEX_VAR]
        if isinstance(val, str):
            return val.replace(var, res_name)
        if isinstance(val, Mapping):
            return {k: self._handle_repl_val(res_name, v) for k, v in val.items()}
        if isinstance(val, (list, tuple)):
            return [self._handle_repl_val(res_name, v) for v in val]
        return val

    def build_resource_definition(self, res_name: str, res_def: Mapping[str, Any]) -> dict:
        """One member as the nested template declares it."""
        member: dict[str, Any] = {"type": res_def[self.RESOURCE_DEF_TYPE]}
        props = res_def.get(self.RESOURCE_DEF_PROPERTIES)
        if props:
            member["properties"] = self._handle_repl_val(res_name, copy.deepcopy(props))
        if res_def.get(self.RESOURCE_DEF_METADATA):
            member["metadata"] = copy.deepcopy(res_def[self.RESOURCE_DEF_METADATA])
        return member

    def referenced_attrs(self) -> list[Any]:
        """The attributes of this group the parent's template reads, in the
        order they appear (resources' properties and metadata, then
        outputs): a name, or ``(name, *path)`` when a path follows; every
        attribute but ``show`` for a ``get_attr`` naming no attribute
        (Heat's ``Resource.referenced_attrs``, ``GetAtt.dep_attrs``)."""
        parent = self.parent
        version = functions.canonical(parent.t.version)
        table = functions.TABLES[version]
        found: list[Any] = []

        def walk(node: Any) -> None:
            if isinstance(node, Mapping):
                if len(node) == 1:
                    name, args = next(iter(node.items()))
                    if table.get(name, "").startswith("GetAtt") and functions.is_list(args):
                        add(args)
                for value in node.values():
                    walk(value)
            elif functions.is_list(node):
                for value in node:
                    walk(value)

        def add(args: list[Any]) -> None:
            try:
                resolved = parent.resolve(list(args)) if args else []
            except (errors.Error, functions.Invalid, ValueError):
                # Heat ignores an attribute it cannot work out
                return
            if not resolved or resolved[0] != self.name:
                return
            if len(resolved) == 1:
                attrs: list[Any] = list(self.ATTRIBUTES)
            elif len(resolved) == 2:
                attrs = [resolved[1]]
            else:
                attrs = [tuple(resolved[1:])]
            found.extend(a for a in attrs if a not in found)

        for definition in parent.definitions.values():
            walk(definition.properties)
            walk(definition.metadata)
        for output in parent.t.outputs(parent).values():
            walk(output["value"])
        return found

    def _attribute_output_name(self, *attr_path: Any) -> str:
        if attr_path[0] == self.REFS:
            return self.REFS
        return ", ".join(str(a) for a in attr_path)

    def _nested_output_defns(self, names: list[str]) -> dict[str, dict[str, Any]]:
        """The nested template's outputs: one for each attribute of the
        group its parent reads (a member's attribute, each member's, the
        members' references), then ``refs_map`` (Heat's
        ``_nested_output_defns``), so a group's attributes are its nested
        stack's outputs."""
        found: dict[str, dict[str, Any]] = {}
        for attr in self.referenced_attrs():
            key, path = (attr, []) if isinstance(attr, str) else (attr[0], list(attr[1:]))
            output_name = self._attribute_output_name(key, *path)
            value: Any = None
            if key.startswith("resource."):
                parts = key.split(".", 2)
                attr_path = parts[2:] + path
                if attr_path and parts[1] in names:
                    value = {"get_attr": [parts[1], *attr_path]}
            elif key == self.ATTR_ATTRIBUTES and path:
                value = {n: {"get_attr": [n, *path]} for n in names}
            elif key not in self.ATTRIBUTES:
                value = [{"get_attr": [n, key, *path]} for n in names]
            if key == self.REFS:
                value = [{"get_resource": n} for n in names]
            if value is not None:
                found[output_name] = {"value": value}
        found[self.REFS_MAP] = {"value": {n: {"get_resource": n} for n in names}}
        return found

    def _assemble_nested(self, names: list[str], include_all: bool = False) -> dict[str, Any]:
        res_def = self.get_resource_def(include_all)
        return {
            "heat_template_version": NESTED_TEMPLATE_VERSION,
            "resources": {n: self.build_resource_definition(n, res_def) for n in names},
            "outputs": self._nested_output_defns(names),
        }

    def child_template(self) -> dict[str, Any]:
        return self._assemble_nested(self._resource_names())

    def child_params(self) -> dict[str, Any]:
        return {}

    def validate_nested_stack(self) -> None:
        """A one-member group validated (none when ``count`` is 0, so a
        zero count may switch a feature off); the member's type must
        exist."""
        if not self.get_size():
            return
        names = self._resource_names(1)
        tmpl = self._assemble_nested(names, include_all=True)
        member_type = tmpl["resources"][names[0]]["type"]
        self.parent.env.get_class(member_type, files=self.parent.files)
        self.validate_child(tmpl, self.child_params())

    # -- actions ------------------------------------------------------------

    def handle_create(self) -> None:
        self._update_name_skiplist(self.properties)
        self.create_with_template(self.child_template(), self.child_params())

    def handle_update(
        self, json_snippet: Mapping[str, Any], tmpl_diff: Mapping[str, Any], prop_diff: dict
    ) -> None:
        """Resize or redefine the members: the nested stack updated."""
        self._update_name_skiplist(self.properties)
        self._nested = None
        self.update_with_template(self.child_template(), self.child_params())

    # -- attributes ---------------------------------------------------------

    def _member_ref(self, name: str) -> Any:
        nested = self.nested()
        if nested is None or name not in nested.resources:
            return None
        return nested.resource_ref(name)

    def _member_attr(self, name: str, key: str, *path: Any) -> Any:
        nested = self.nested()
        if nested is None or name not in nested.resources:
            return None
        return nested.resource_attr(name, key, list(path))

    def _resolve_attribute(self, name: str) -> Any:
        """What a resource show lists: only the removed members (Heat's
        group resolves the others through ``get_attribute`` alone)."""
        return self._current_skiplist() if name == self.REMOVED_RSRC_LIST else None

    def get_attribute(self, key: str, *path: Any) -> Any:
        """Heat's group attributes (see the module's docstring)."""
        if key == self.REMOVED_RSRC_LIST:
            return self._current_skiplist()
        if key == self.ATTR_ATTRIBUTES and not path:
            raise errors.BadRequest(
                "The Referenced Attribute (%s %s) is incorrect." % (self.name, key),
                type="InvalidTemplateAttribute",
            )
        if key == attributes.SHOW_ATTR:
            return super().get_attribute(key, *path)
        if key.startswith("resource."):
            parts = key.split(".", 2)[1:] + list(path)
            nested = self.nested()
            if nested is not None and parts[0] not in nested.resources and len(parts) == 1:
                raise errors.NotFound(
                    "Member '%s' not found in group resource '%s'." % (parts[0], self.name),
                    type="NotFound",
                )
            if len(parts) > 1:
                return self._member_attr(parts[0], parts[1], *parts[2:])
            return self._member_ref(parts[0])
        names = self._resource_names()
        if key == self.REFS:
            refs = [self._member_ref(n) for n in names]
            return attributes.select_from_attribute(refs, list(path))
        if key == self.REFS_MAP:
            return {n: self._member_ref(n) for n in names}
        if key == self.ATTR_ATTRIBUTES:
            return {n: self._member_attr(n, *path) for n in names}
        return [self._member_attr(n, key, *path) for n in names]


def resource_mapping() -> dict[str, type[stack_resource.StackResource]]:
    return {"OS::Heat::ResourceGroup": ResourceGroup}
