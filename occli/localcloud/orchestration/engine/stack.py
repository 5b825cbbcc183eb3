"""A loaded stack: its template, environment and parameters as resources.

Heat's ``heat.engine.stack.Stack`` for the local engine: built from a
stack row (:func:`Stack.load`), it maps each template resource to a plugin
instance through the environment's registry, resolves intrinsic functions
for them (it is the functions' :class:`~.functions.Resolver`), computes the
dependency graph and the outputs, and is the :class:`~.resource.StackView`
its resources persist through, each change in a short write of its own.
"""

import logging
from collections.abc import Callable
from collections.abc import Mapping
from typing import Any

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud.app import Context
from occli.localcloud.orchestration.engine import environment
from occli.localcloud.orchestration.engine import functions
from occli.localcloud.orchestration.engine import parameters
from occli.localcloud.orchestration.engine import stacks
from occli.localcloud.orchestration.engine import template
from occli.localcloud.orchestration.engine.clients import Clients
from occli.localcloud.orchestration.engine.clients import TrustContext
from occli.localcloud.orchestration.engine.dependencies import Dependencies
from occli.localcloud.orchestration.engine.resource import COMPLETE
from occli.localcloud.orchestration.engine.resource import Resource

LOG = logging.getLogger(__name__)
# the stack-level events' resource type (heat/engine/stack.py _add_event)
STACK_TYPE = "OS::Heat::Stack"


def trust_context(trust: Mapping[str, Any]) -> Context:
    """The caller a stack's engine calls run as: a :class:`TrustContext`,
    or for a stack stored before Heat's trusts (no ``trust_id``) the
    delegated Context it keeps."""
    fields = {
        "user_id": trust["user_id"],
        "user_name": trust.get("user_name"),
        "project_id": trust["project_id"],
        "project_name": trust.get("project_name"),
        "roles": trust.get("roles", []),
        "domain_id": trust.get("domain_id", "default"),
    }
    if trust.get("trust_id"):
        return TrustContext(trust["trust_id"], trust["trustor_user_id"], **fields)
    return Context(**fields)


def trust_of(ctx: Context, trust_id: str | None = None) -> dict[str, Any]:
    """What a stack keeps of its creator (Heat's stored context: the roles
    delegated at create time and the trust, never a token or a password);
    a nested stack's ``ctx`` is its parent's, whose trust it shares."""
    if trust_id is None and isinstance(ctx, TrustContext):
        trust_id = ctx.trust_id
    kept = {
        "user_id": ctx.user_id,
        "user_name": ctx.user_name,
        "project_id": ctx.project_id,
        "project_name": ctx.project_name,
        "roles": list(ctx.roles),
        "domain_id": ctx.domain_id,
    }
    if trust_id is not None:
        kept["trust_id"] = trust_id
        kept["trustor_user_id"] = (
            ctx.trustor_user_id if isinstance(ctx, TrustContext) else ctx.user_id
        )
    return kept


class Stack:
    """One stack, loaded; ``engine`` is the cloud's engine service (its
    ``store``, ``config``, ``app`` and ``global_env``)."""

    def __init__(self, engine: Any, row: Mapping[str, Any]) -> None:
        self.engine = engine
        self.row = dict(row)
        self.id: str = row["id"]
        self.name: str = row["name"]
        self.project_id: str = row["project_id"]
        self.user_id: str = row["user_id"]
        self.owner_id: str | None = row.get("owner_id")
        self.nested_depth: int = row.get("nested_depth") or 0
        self.action: str = row["action"]
        self.status: str = row["status"]
        self.status_reason: str = row.get("status_reason") or ""
        self.config = engine.config
        self.files: dict[str, str] = dict(row.get("files") or {})
        self.context = trust_context(row["trust"])
        self.clients = Clients(engine.app, self.context)
        self.checker = engine.constraint_checker(self.clients)
        self.t = template.Template(row["template"], files=self.files)
        self.env = environment.Environment(
            row.get("environment") or {}, global_env=engine.global_env, files=self.files
        )
        self.parameters = parameters.Parameters(
            self.t.param_schemata(),
            row.get("parameters") or {},
            self.env.parameter_defaults,
            {
                "OS::stack_name": self.name,
                "OS::stack_id": self.id,
                "OS::project_id": self.project_id,
            },
            self.checker,
        )
        self.definitions = self.t.resource_definitions(self)
        self.resources: dict[str, Resource] = {}
        for name, definition in self.definitions.items():
            cls = self.env.get_class(definition.type, name, files=self.files)
            self.resources[name] = cls(name, definition.as_dict(), self)
        self._rows: dict[str, dict[str, Any]] = {}

    @classmethod
    def load(cls, engine: Any, stack_id: str) -> "Stack":
        """The stack ``stack_id`` with its resources' persisted state."""
        with engine.store.read() as db:
            row = stacks.by_id(db, stack_id)
            if row is None:
                raise stacks.not_found(stack_id)
            rows = stacks.stack_resources(db, stack_id)
        stack = cls(engine, row)
        stack.take_rows(rows)
        return stack

    def take_rows(self, rows: Mapping[str, Mapping[str, Any]]) -> None:
        for name, res_row in rows.items():
            self._rows[name] = dict(res_row)
            if name in self.resources:
                self.resources[name].load_state(res_row)

    # -- the graph ---------------------------------------------------------

    def dependencies(self) -> Dependencies:
        return Dependencies(
            {name: d.dependencies() for name, d in self.definitions.items()},
            label=lambda name: '%s "%s"' % (type(self.resources[name]).__name__, name),
        )

    def _attribute_declared(self, name: str, attr: str) -> bool:
        """Whether ``get_attr`` may name ``attr`` of ``name`` (a type with
        its own ``get_attribute`` takes any name: Heat's ``GetAtt.validate``)."""
        res = self.resources.get(name)
        if res is None or type(res).get_attribute is not Resource.get_attribute:
            return True
        return attr == "show" or attr in res.attributes_schema

    def validate_functions(self, name: str | None = None) -> None:
        """Heat's ``function.validate`` of resource ``name``'s ``properties``
        and ``metadata`` (None: of every output's value): a ``get_attr`` of
        an attribute the resource does not declare is refused before
        anything is made."""
        version, declared = self.t.version, self._attribute_declared
        if name is None:
            for key, output in self.t.outputs(self).items():
                functions.validate(output["value"], version, "outputs.%s.value" % key, declared)
            return
        definition = self.definitions[name]
        base = "resources.%s." % name
        functions.validate(definition.properties, version, base + "properties", declared)
        functions.validate(definition.metadata, version, base + "metadata", declared)

    def __getitem__(self, name: str) -> Resource:
        return self.resources[name]

    def __contains__(self, name: str) -> bool:
        return name in self.resources

    # -- Resolver (functions) ---------------------------------------------

    @property
    def stack_name(self) -> str:
        return self.name

    @property
    def stack_id(self) -> str:
        return self.id

    def param(self, name: str) -> Any:
        return self.parameters[name]

    def resource_ref(self, name: str) -> str:
        return self.resources[name].FnGetRefId()

    def resource_attr(self, name: str, attr: str, path: list) -> Any:
        res = self.resources[name]
        if res.action == "INIT" or res.resource_id is None and res.status != COMPLETE:
            return None
        return res.FnGetAtt(attr, *path)

    def file(self, key: str) -> str:
        try:
            return self.files[key]
        except KeyError:
            raise functions.ResultError(
                'No content found in the "files" section for get_file path: %s' % key
            ) from None

    def resource_names(self) -> set[str]:
        return (
            set(self.t.resource_names())
            if hasattr(self.t, "resource_names")
            else set(self.resources)
        )

    def resolve(self, snippet: Any) -> Any:
        return functions.resolve(snippet, self, self.t.version)

    def references(self, snippet: Any) -> set[str]:
        """The resources of this stack ``snippet`` refers to."""
        return {n for n in functions.references(snippet, self.t.version) if n in self.resources}

    # -- StackView (resources) --------------------------------------------

    def resource(self, name: str) -> Resource:
        return self.resources[name]

    def _resource_row(self, res: Resource) -> dict[str, Any]:
        now = common.utcnow().timestamp()
        if res.uuid is None:
            res.uuid = common.new_uuid()
        row = self._rows.get(res.name) or {"id": res.uuid, "created_at": now}
        row.update(
            {
                "id": res.uuid,
                "stack_id": self.id,
                "name": res.name,
                "type": res.type_name,
                "physical_resource_id": res.resource_id,
                "action": res.action,
                "status": res.status,
                "status_reason": res.status_reason,
                "definition": res.t,
                "requires": sorted(self.definitions[res.name].dependencies())
                if res.name in self.definitions
                else [],
                "updated_at": now,
            }
        )
        self._rows[res.name] = row
        return row

    def persist(self, resource: Resource) -> None:
        row = self._resource_row(resource)
        columns = {k: v for k, v in row.items() if k not in ("metadata", "stack_name", "seq")}
        with self.engine.store.transaction() as db:
            stacks.upsert_resource(db, columns)

    def _ensure(self, resource: Resource) -> str:
        if resource.uuid is None or resource.name not in self._rows:
            self.persist(resource)
        assert resource.uuid is not None
        return resource.uuid

    def data(self, resource: Resource) -> dict[str, Any]:
        if resource.uuid is None:
            return {}
        with self.engine.store.read() as db:
            return stacks.data(db, resource.uuid)

    def data_set(self, resource: Resource, key: str, value: Any, redact: bool) -> None:
        rid = self._ensure(resource)
        with self.engine.store.transaction() as db:
            stacks.set_data(db, rid, key, value, redact)

    def data_delete(self, resource: Resource, key: str) -> bool:
        if resource.uuid is None:
            return False
        with self.engine.store.transaction() as db:
            return stacks.delete_data(db, resource.uuid, key)

    def metadata_get(self, resource: Resource) -> dict[str, Any]:
        if resource.uuid is None:
            return {}
        with self.engine.store.read() as db:
            return stacks.metadata(db, resource.uuid)

    def metadata_set(
        self,
        resource: Resource,
        metadata: Mapping[str, Any],
        merge: Callable[[dict[str, Any]], dict[str, Any]] | None,
    ) -> None:
        rid = self._ensure(resource)
        with self.engine.store.transaction() as db:
            value = merge(stacks.metadata(db, rid)) if merge is not None else dict(metadata)
            stacks.set_metadata(db, rid, value)

    def add_event(self, resource: Resource, action: str, status: str, reason: str) -> None:
        # heat/engine/resource.py _add_event: the physical id, else the name
        # the resource gives what it makes
        self._event(
            resource.name,
            resource.resource_id or resource.physical_resource_name(),
            resource.type_name,
            action,
            status,
            reason,
            self._event_properties(resource),
        )

    def _event_properties(self, resource: Resource) -> dict[str, Any]:
        """The properties an event shows: the template's, resolved now
        (Heat's frozen definition: no defaults added); as written when
        they cannot be resolved yet."""
        snippet = resource.t.get("properties") or {}
        try:
            resolved = self.resolve(snippet)
        except Exception:  # noqa: BLE001 - an event never fails its action
            resolved = snippet
        return dict(resolved) if isinstance(resolved, Mapping) else {}

    def _event(
        self,
        name: str,
        physical: str | None,
        type_name: str,
        action: str,
        status: str,
        reason: str,
        properties: Mapping[str, Any] | None = None,
    ) -> None:
        with self.engine.store.transaction() as db:
            stacks.add_event(
                db,
                {
                    "stack_id": self.id,
                    "project_id": self.project_id,
                    "resource_name": name,
                    "physical_resource_id": physical or "",
                    "logical_resource_id": name,
                    "resource_type": type_name,
                    "action": action,
                    "status": status,
                    "reason": reason,
                    "properties": dict(properties or {}),
                },
            )

    def state_set(self, action: str, status: str, reason: str) -> None:
        """The stack's own state, with the stack-level event heatclient's
        ``--wait`` waits for (``heat/engine/stack.py`` ``_add_event``)."""
        self.action, self.status, self.status_reason = action, status, reason
        now = common.utcnow().timestamp()
        with self.engine.store.transaction() as db:
            stacks.update(
                db, self.id, action=action, status=status, status_reason=reason, updated_at=now
            )
        self._event(self.name, self.id, STACK_TYPE, action, status, reason)

    def create_nested(
        self,
        resource: Resource,
        template_body: Mapping[str, Any],
        params: Mapping[str, Any],
        files: Mapping[str, str] | None = None,
        environment_body: Mapping[str, Any] | None = None,
    ) -> str:
        return str(
            self.engine.create_nested(
                self, resource, template_body, params, files or self.files, environment_body
            )
        )

    def nested_status(self, stack_id: str) -> tuple[str, str, str]:
        with self.engine.store.read() as db:
            row = stacks.by_id(db, stack_id)
        if row is None:
            raise stacks.not_found(stack_id)
        return row["action"], row["status"], row.get("status_reason") or ""

    # -- outputs ------------------------------------------------------------

    def outputs(self) -> list[dict[str, Any]]:
        """Heat's ``format_stack_outputs``: each output resolved now; one
        that cannot be resolved carries ``output_error``."""
        out = []
        for key, output in self.t.outputs(self).items():
            item: dict[str, Any] = {
                "output_key": key,
                "description": output.get("description") or "No description given",
            }
            try:
                item["output_value"] = self.resolve(output.get("value"))
            except errors.Error as exc:
                item["output_value"] = None
                item["output_error"] = exc.message
            except Exception as exc:  # noqa: BLE001 - heat reports any as output_error
                item["output_value"] = None
                item["output_error"] = str(exc)
            out.append(item)
        return out
