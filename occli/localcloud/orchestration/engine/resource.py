"""The resource plugin base: what every resource type of a stack is.

Heat's ``heat.engine.resource.Resource`` in the shape the local engine
needs (legacy, non-convergence path, ``resource.py:934-975``): for each
action the engine calls ``handle_<action>()`` once, then
``check_<action>_complete(handler_data)`` on every engine tick until it is
True; an exception fails the resource with its text. A plugin declares
``properties_schema`` and ``attributes_schema`` with Heat's names, reads
its validated ``self.properties``, records what it made with
``resource_id_set`` and ``data_set``, and reaches the cloud's services
through ``self.client()`` (:mod:`.clients`) as Heat's plugins do through
their client plugins.

The engine owns state: ``action``/``status``/``resource_id``, the data
keys and the metadata are written through the stack (:class:`StackView`)
in short writes as they change, so a plugin never writes SQL and never
holds the write lock between steps; ``data()`` and ``metadata_get()`` read
afresh, so a signal another thread served is seen on the next tick.
"""

import base64
import uuid
from collections.abc import Callable
from collections.abc import Mapping
from typing import Any
from typing import ClassVar
from typing import Protocol

from occli.localcloud.orchestration.engine import attributes
from occli.localcloud.orchestration.engine import functions
from occli.localcloud.orchestration.engine import properties
from occli.localcloud.orchestration.engine import support
from occli.localcloud.orchestration.engine.clients import Clients
from occli.localcloud.orchestration.engine.properties import Properties

# actions and statuses (heat/engine/resource.py)
INIT, CREATE, DELETE, UPDATE, ROLLBACK, SUSPEND, RESUME, ADOPT, SNAPSHOT, CHECK = (
    "INIT",
    "CREATE",
    "DELETE",
    "UPDATE",
    "ROLLBACK",
    "SUSPEND",
    "RESUME",
    "ADOPT",
    "SNAPSHOT",
    "CHECK",
)
IN_PROGRESS, FAILED, COMPLETE = "IN_PROGRESS", "FAILED", "COMPLETE"


def short_id(source: str) -> str:
    """The 12 lower-case characters Heat derives from a resource's uuid
    (``heat/common/short_id.py`` get_id: the uuid's 60 random "time" bits,
    base32-encoded)."""
    bits = (uuid.UUID(source).time << 4) & (2**64 - 1)
    return base64.b32encode(bits.to_bytes(8, "big"))[:12].decode("ascii").lower()


class UpdateReplace(Exception):
    """Raised by ``handle_update`` when the resource must be replaced
    (Heat's ``resource.UpdateReplace``)."""

    def __init__(self, name: str = "") -> None:
        super().__init__("The Resource %s requires replacement." % name)


class ResourceFailure(Exception):
    """A resource's action failed: ``"<Type>: resources.<name>: <reason>"``
    is what the stack's status reason carries (Heat's ``ResourceFailure``)."""


class StackView(Protocol):
    """What a resource may ask of the stack it belongs to."""

    id: str
    name: str
    project_id: str
    user_id: str
    owner_id: str | None
    nested_depth: int
    clients: Clients
    config: Any
    # custom constraints of properties: checker(name, value) raises
    # ValueError with Heat's text (``custom_constraints.check``)
    checker: Callable[[str, Any], None] | None

    def resource(self, name: str) -> "Resource": ...

    def resolve(self, snippet: Any) -> Any:
        """``snippet`` with every intrinsic function evaluated."""

    def persist(self, resource: "Resource") -> None:
        """Write the resource's state and physical id (a short write)."""

    def data(self, resource: "Resource") -> dict[str, Any]: ...

    def data_set(self, resource: "Resource", key: str, value: Any, redact: bool) -> None: ...

    def data_delete(self, resource: "Resource", key: str) -> bool: ...

    def metadata_get(self, resource: "Resource") -> dict[str, Any]: ...

    def metadata_set(
        self,
        resource: "Resource",
        metadata: Mapping[str, Any],
        merge: Callable[[dict[str, Any]], dict[str, Any]] | None,
    ) -> None: ...

    def add_event(self, resource: "Resource", action: str, status: str, reason: str) -> None: ...

    def create_nested(
        self,
        resource: "Resource",
        template: Mapping[str, Any],
        parameters: Mapping[str, Any],
        files: Mapping[str, str] | None = None,
        environment: Mapping[str, Any] | None = None,
    ) -> str:
        """Start a nested stack owned by ``resource``; its id."""

    def nested_status(self, stack_id: str) -> tuple[str, str, str]:
        """(action, status, reason) of a nested stack."""


class Resource:
    """Base class of every resource type (one instance per stack resource).

    ``definition`` is the template's resource definition (its ``type``,
    ``properties``, ``metadata``, ``depends_on``, ``deletion_policy``,
    ``update_policy`` snippets, functions unresolved).
    """

    properties_schema: ClassVar[dict[str, properties.Schema]] = {}
    attributes_schema: ClassVar[dict[str, attributes.Schema]] = {}
    # property names handle_update accepts in place; any other change
    # replaces the resource (Schema(update_allowed=True) adds to these)
    update_allowed_properties: ClassVar[tuple[str, ...]] = ()
    # the service this type needs (``available_resource_mapping`` of the
    # modules that may miss one checks it); None: none
    default_client_name: ClassVar[str | None] = None
    # whether ``signal`` is served (``POST …/resources/{name}/signal``)
    signal_supported: ClassVar[bool] = False
    # actions a signal is refused during (Heat's ``no_signal_actions``)
    no_signal_actions: ClassVar[tuple[str, ...]] = (SUSPEND, DELETE)
    # the type name the registry mapped (set by the registry)
    resource_type: ClassVar[str] = ""
    # heat's support status of the type (a text, or a SupportStatus with
    # the release it dates from, as GET /resource_types/{type} shows it)
    support_status: ClassVar["str | support.SupportStatus"] = "SUPPORTED"

    def __init__(self, name: str, definition: Mapping[str, Any], stack: StackView) -> None:
        self.name = name
        self.t = dict(definition)
        self.stack = stack
        self.type_name = str(self.t.get("type", self.resource_type))
        self.action = INIT
        self.status = COMPLETE
        self.status_reason = ""
        self.resource_id: str | None = None
        self.uuid: str | None = None
        self._properties: properties.Properties | None = None
        self.attributes = attributes.Attributes(self.name, self.attributes_schema, self._resolve)

    # -- state the engine persists -----------------------------------------

    def load_state(self, row: Mapping[str, Any]) -> None:
        """Take the persisted state of this resource (a resource row's
        ``id``, ``action``, ``status``, ``status_reason``,
        ``physical_resource_id``)."""
        self.uuid = row.get("id")
        self.action = row.get("action") or INIT
        self.status = row.get("status") or COMPLETE
        self.status_reason = row.get("status_reason") or ""
        self.resource_id = row.get("physical_resource_id")

    def state_set(self, action: str, status: str, reason: str = "state changed") -> None:
        """Set and persist the state, with the event Heat stores for it."""
        self.action, self.status, self.status_reason = action, status, reason
        self.stack.persist(self)
        self.stack.add_event(self, action, status, reason)

    @property
    def state(self) -> tuple[str, str]:
        return self.action, self.status

    def resource_id_set(self, inst: str | None) -> None:
        self.resource_id = inst
        self.stack.persist(self)

    def data(self) -> dict[str, Any]:
        """The resource's private data (Heat's ``resource_data``), read
        afresh: a signal served by another thread may have added to it."""
        return self.stack.data(self)

    def data_set(self, key: str, value: Any, redact: bool = False) -> None:
        """Set one key (its own row: concurrent keys never overwrite each
        other). ``redact``: a secret, never shown (``stack abandon`` shows it
        as Heat does, to the owner only)."""
        self.stack.data_set(self, key, value, redact)

    def data_delete(self, key: str) -> bool:
        return self.stack.data_delete(self, key)

    def metadata_get(self) -> dict[str, Any]:
        """The resource metadata (``GET …/resources/{name}/metadata``)."""
        return self.stack.metadata_get(self)

    def metadata_set(
        self,
        metadata: Mapping[str, Any],
        merge: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
    ) -> None:
        """Replace the metadata, or with ``merge`` change what is stored now
        in one write (signals from several agents at once lose nothing)."""
        self.stack.metadata_set(self, metadata, merge)

    # -- the definition, resolved ---------------------------------------------

    @property
    def properties(self) -> properties.Properties:
        """The validated properties, functions resolved (on first use after
        each ``reparse``)."""
        if self._properties is None:
            self._properties = self.make_properties(self.t.get("properties") or {})
        return self._properties

    def make_properties(self, snippet: Mapping[str, Any]) -> Properties:
        return properties.Properties(
            self.properties_schema,
            self.resolve_properties(snippet),
            resource_name=self.name,
            checker=getattr(self.stack, "checker", None),
        )

    def resolve_properties(self, snippet: Mapping[str, Any]) -> dict[str, Any]:
        """``snippet``'s values with their functions resolved, one key at a
        time as Heat's lazy ``Properties`` does: a value a function cannot
        produce (a ``get_file`` not in ``files``) is that property's error."""
        resolved = {}
        for key, value in dict(snippet).items():
            try:
                resolved[key] = self.stack.resolve(value)
            except functions.ResultError as exc:
                raise properties.property_error(self.name, ["properties", key], str(exc)) from None
        return resolved

    def reparse(self) -> None:
        """Forget resolved properties (the values they depend on changed)."""
        self._properties = None

    def validate(self) -> None:
        """Heat's property validation (``StackValidationFailed`` texts).

        A property that refers to a resource not made yet holds that
        resource's name for now, so its custom constraints wait for the
        action (Heat's ``Properties._find_deps_any_in_init``); its type and
        every other property are checked.
        """
        snippet = dict(self.t.get("properties") or {})
        waiting = {key for key, value in snippet.items() if self._refers_to_unmade(value)}
        if not waiting:
            self.properties.validate()
            return
        properties.Properties(
            self.properties_schema, self.resolve_properties(snippet), resource_name=self.name
        ).validate()
        ready = {k: v for k, v in snippet.items() if k not in waiting}
        properties.Properties(
            {k: v for k, v in self.properties_schema.items() if k not in waiting},
            self.resolve_properties(ready),
            resource_name=self.name,
            checker=getattr(self.stack, "checker", None),
        ).validate()

    def _refers_to_unmade(self, value: Any) -> bool:
        refs = getattr(self.stack, "references", None)
        if refs is None:
            return False
        for name in refs(value):
            other = self.stack.resource(name)
            if other.resource_id is None and other.action == INIT:
                return True
        return False

    def client(self) -> Clients:
        return self.stack.clients

    def physical_resource_name(self) -> str:
        """``<stack name>-<resource name>-<short id>`` as Heat names what it
        makes (``resource.py:1864``, 255 characters at most)."""
        short = short_id(self.uuid) if self.uuid else "000000000000"
        return ("%s-%s-%s" % (self.stack.name, self.name, short))[-255:]

    # -- functions --------------------------------------------------------

    def get_reference_id(self) -> str:
        """``get_resource``: the physical id, else the resource's name."""
        return str(self.resource_id) if self.resource_id is not None else str(self.name)

    def FnGetRefId(self) -> str:
        return self.get_reference_id()

    def get_attribute(self, key: str, *path: Any) -> Any:
        """``get_attr``: the attribute ``key`` with ``path`` selected from it."""
        return self.attributes.get(key, path)

    def FnGetAtt(self, key: str, *path: Any) -> Any:
        return self.get_attribute(key, *path)

    def _resolve(self, name: str) -> Any:
        if name == "show":
            return self.show()
        return self._resolve_attribute(name)

    def _resolve_attribute(self, name: str) -> Any:
        """A declared attribute's value (plugins override); None if unknown."""
        return None

    def show(self) -> Any:
        """The ``show`` attribute: the physical resource as its service
        shows it (plugins with an entity override)."""
        return None

    # -- actions (plugins override the handlers they need) ------------------

    def handle_create(self) -> Any:
        return None

    def check_create_complete(self, handler_data: Any) -> bool:
        return True

    def handle_delete(self) -> Any:
        return None

    def check_delete_complete(self, handler_data: Any) -> bool:
        return True

    def handle_update(
        self, json_snippet: Mapping[str, Any], tmpl_diff: Mapping[str, Any], prop_diff: dict
    ) -> Any:
        """Change the resource in place, or raise :class:`UpdateReplace`.

        Unlike Heat, ``self.properties`` here are already the new ones (the
        engine updates the new definition's resource); what was before is
        the physical resource and its data. ``prop_diff`` holds the new
        values of the properties that changed."""
        if prop_diff:
            raise UpdateReplace(self.name)
        return None

    def needs_update(self, prop_diff: Mapping[str, Any], tmpl_diff: Mapping[str, Any]) -> bool:
        """Whether an update must reach this resource (no change: it is
        kept without events); a nested stack's template may change alone."""
        return bool(prop_diff or tmpl_diff)

    def check_update_complete(self, handler_data: Any) -> bool:
        return True

    def handle_suspend(self) -> Any:
        return None

    def check_suspend_complete(self, handler_data: Any) -> bool:
        return True

    def handle_resume(self) -> Any:
        return None

    def check_resume_complete(self, handler_data: Any) -> bool:
        return True

    def handle_check(self) -> Any:
        return None

    def check_check_complete(self, handler_data: Any) -> bool:
        return True

    def signal_token_matches(self, token: str) -> bool:
        """Whether ``token`` may signal this resource in place of a Keystone
        token (a wait condition handle's TOKEN_SIGNAL token); none by default."""
        return False

    def handle_signal(self, details: Any = None) -> Any:
        """Take a signal (``POST …/signal``); what it returns is the
        signal's event reason, as Heat's are."""
        raise NotImplementedError

    def signal(self, details: Any = None) -> Any:
        """Handle a signal sent through the API and record its SIGNAL event
        in the current status (heat/engine/resource.py ``_handle_signal``):
        "Signal: <reason>" with handle_signal's reason, else a summary of
        ``details``. What handle_signal returned."""
        result = self.handle_signal(details)
        if result:
            reason = "Signal: %s" % result
        elif details is None:
            reason = "No signal details provided"
        elif isinstance(details, str):
            reason = details
        elif isinstance(details, dict) and all(
            k in details for k in ("previous", "current", "reason")
        ):
            reason = "alarm state changed from %(previous)s to %(current)s (%(reason)s)" % details
        else:
            reason = "Unknown"
        self.stack.add_event(self, "SIGNAL", self.status, reason)
        return result

    def handle_adopt(self, resource_data: Mapping[str, Any]) -> None:
        """Take over an existing physical resource (``stack adopt``)."""
        self.resource_id_set(resource_data.get("resource_id"))
        for key, value in (resource_data.get("resource_data") or {}).items():
            self.data_set(key, value)

    def update_allowed(self) -> set[str]:
        """The property names handle_update takes in place."""
        allowed = set(self.update_allowed_properties)
        allowed.update(
            name for name, schema in self.properties_schema.items() if schema.update_allowed
        )
        return allowed

    def prepare_abandon(self) -> dict[str, Any]:
        """This resource in ``stack abandon``'s answer (Heat's keys)."""
        return {
            "name": self.name,
            "resource_id": self.resource_id,
            "type": self.type_name,
            "action": self.action,
            "status": self.status,
            "metadata": self.metadata_get(),
            "resource_data": self.data(),
        }
