"""The base of the resource types that are a nested stack (Heat's
``heat/engine/resources/stack_resource.py``).

A :class:`StackResource` manages a whole stack as one resource of its
parent: ``handle_create`` starts a nested stack (owned by the parent,
``nested_depth`` one more, rollback disabled: the parent rolls it back)
whose id becomes the physical resource id, and every check polls the
nested stack's state until it reaches the action's COMPLETE, or its FAILED
fails the resource with the inner path kept (Heat's ``ResourceFailure``
of a status reason: ``ValueError: resources.group.resources[0]: boom``).
Update, delete, suspend, resume and check cascade to the nested stack.
Subclasses say what the nested stack is: ``child_template()`` and
``child_params()``.

A root stack's validation validates its nested stacks too, down the
whole tree, as throw-away stacks built the engine's way and never stored;
that is where Heat's limits on depth and resource count refuse a
template (a 400 naming the path through the tree).
"""

import re
from collections.abc import Mapping
from typing import Any
from typing import cast

from occli.localcloud import errors
from occli.localcloud.orchestration.engine import actions
from occli.localcloud.orchestration.engine import environment
from occli.localcloud.orchestration.engine import exception
from occli.localcloud.orchestration.engine import properties
from occli.localcloud.orchestration.engine import resource
from occli.localcloud.orchestration.engine import service
from occli.localcloud.orchestration.engine import stacks
from occli.localcloud.orchestration.engine.stack import Stack

# a throw-away child stack of a root's validation (its row is never
# stored): its stack resources validate their own nested stacks in turn
# (Heat's ``strict_validate = False``)
VALIDATING = "validating"
# what a validation failure's text starts with when it has a path
_PATH = re.compile(r"(resources|outputs|parameters)(\.|\[|$)")


def split_failure(exc: BaseException) -> tuple[str, str, str]:
    """(error, path, message) of a failure, as Heat's
    ``HeatExceptionWithPath`` holds them: a StackValidationFailed text
    ``"[<error>: ]<path>: <message>"`` split back, any other error as
    its type and text."""
    if isinstance(exc, errors.Error):
        kind = str(exc.extra.get("type") or type(exc).__name__)
        text = exc.message
        if kind != "StackValidationFailed":
            return kind, "", text
        parts = text.split(": ", 2)
        if len(parts) >= 2 and _PATH.match(parts[0]):
            return "", parts[0], ": ".join(parts[1:])
        if len(parts) == 3 and _PATH.match(parts[1]):
            return parts[0], parts[1], parts[2]
        return "", "", text
    return type(exc).__name__, "", str(exc)


def join_failure(error: str, path: str, message: str) -> str:
    """Heat's ``HeatExceptionWithPath`` text: ``<error>: <path>: <message>``
    (either of the first two left out when empty)."""
    return "%s%s%s" % ("%s: " % error if error else "", "%s: " % path if path else "", message)


def nested_validation_failed(exc: BaseException, where: list[str]) -> errors.BadRequest:
    """A nested stack's validation failure under the path ``where`` (Heat's
    ``StackValidationFailed(error=ex, path=[...])``)."""
    error, path, message = split_failure(exc)
    outer = properties.format_path(where)
    return errors.BadRequest(
        join_failure(error, "%s.%s" % (outer, path) if path else outer, message),
        type="StackValidationFailed",
    )


def nested_failure(res: resource.Resource, action: str, reason: str) -> actions.StackFailure:
    """The resource's failure from its nested stack's status reason
    (Heat's ``ResourceFailure(status_reason, res)``,
    ``_from_status_reason``): a ``Resource <ACTION> failed: <Error>:
    <path>: <message>`` reason keeps its error and inner path."""
    path: list[str] = ["resources", res.name]
    error, message = "", reason
    if "Resource %s failed: " % action.upper() in reason:
        parsed = [part.strip() for part in reason.split(":")]
        if len(parsed) >= 4:
            error, message = parsed[1], ": ".join(parsed[3:])
            path += parsed[2].split(".")
    return actions.StackFailure(join_failure(error, properties.format_path(path), message))


class StackResource(resource.Resource):
    """A resource that is a nested stack (abstract: subclasses give the
    nested template and its parameters)."""

    # the nested template's name in validation paths (a template resource's
    # own file; a group builds its template, so a placeholder)
    template_url = "nested_stack"

    def __init__(self, name: str, definition: Mapping[str, Any], stack: Any) -> None:
        super().__init__(name, definition, stack)
        self._nested: Stack | None = None
        # the registry entry this type came from (a template resource's):
        # left out of the nested stack's environment
        self.resource_info: environment.ResourceInfo | None = None

    # -- what the nested stack is (subclasses) ------------------------------

    def child_template(self) -> dict[str, Any]:
        raise NotImplementedError()

    def child_params(self) -> dict[str, Any]:
        raise NotImplementedError()

    def child_environment(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """The nested stack's environment: the parent's registry and
        defaults with ``params`` (Heat's ``get_child_environment``)."""
        env = environment.get_child_environment(
            self.parent.env,
            params,
            item_to_remove=self.resource_info,
            child_resource_name=self.name,
        )
        return env.user_env_as_dict()

    # -- the parent and the nested stack ---------------------------------

    @property
    def parent(self) -> Stack:
        """The stack this resource belongs to (the engine's Stack)."""
        return cast(Stack, self.stack)

    @property
    def engine(self) -> Any:
        return self.parent.engine

    def nested(self) -> Stack | None:
        """The nested stack, loaded once per action; None if there is none
        (never made, or gone)."""
        if self._nested is None and self.resource_id is not None:
            try:
                self._nested = Stack.load(self.engine, self.resource_id)
            except errors.NotFound:
                return None
        return self._nested

    def nested_outputs(self) -> dict[str, dict[str, Any]]:
        """The nested stack's outputs, resolved now, by key."""
        nested = self.nested()
        if nested is None:
            return {}
        return {out["output_key"]: out for out in nested.outputs()}

    def get_output(self, key: str) -> Any:
        """The nested stack's output ``key`` (Heat's ``get_output``): an
        unknown key is a NotFound, an output in error Heat's
        ``TemplateOutputError``."""
        outputs = self.nested_outputs()
        if key not in outputs:
            raise errors.NotFound("Specified output key %s not found." % key, type="NotFound")
        output = outputs[key]
        if "output_error" in output:
            raise errors.BadRequest(
                "Error in %s output %s: %s" % (self.name, key, output["output_error"]),
                type="TemplateOutputError",
            )
        return output.get("output_value")

    def _resolve_attribute(self, name: str) -> Any:
        """A nested stack's output as an attribute (what a resource show
        lists; Heat's ``StackResource._resolve_attribute``)."""
        try:
            return self.get_output(name)
        except errors.NotFound:
            raise errors.BadRequest(
                "The Referenced Attribute (%s %s) is incorrect." % (self.name, name),
                type="InvalidTemplateAttribute",
            ) from None

    # -- validation -------------------------------------------------------

    def validate(self) -> None:
        """Properties, then (from a root stack, and down the tree of
        throw-away stacks) the nested stack."""
        super().validate()
        if self.parent.nested_depth == 0 or self.parent.row.get(VALIDATING):
            self.validate_nested_stack()

    def validate_nested_stack(self) -> None:
        self.validate_child(self.child_template(), self.child_params())

    def validate_child(self, template: Mapping[str, Any], params: Mapping[str, Any]) -> None:
        """Build (not store) the nested stack as the engine builds one;
        any refusal is a StackValidationFailed at
        ``resources.<name><<template>>``."""
        try:
            self.child_nested_depth()
            self.check_resource_limit(template)
            row = self.engine.new_row(
                self.parent.context,
                "%s-%s" % (self.parent.name, self.name),
                dict(template),
                dict(params),
                self.parent.files,
                self.child_environment(params),
                {},
                owner=self.parent,
                parent_resource=self.name,
            )
            row[VALIDATING] = True
            self.engine.build(row)
        except Exception as exc:  # noqa: BLE001 - heat wraps any refusal with the path
            raise nested_validation_failed(
                exc, ["resources", "%s<%s>" % (self.name, self.template_url)]
            ) from None

    def child_nested_depth(self) -> int:
        """The nested stack's depth; beyond Heat's limit its
        ``RequestLimitExceeded``."""
        limit = service.MAX_NESTED_STACK_DEPTH
        if self.parent.nested_depth >= limit:
            raise errors.BadRequest(
                "Request limit exceeded: Recursion depth exceeds %d." % limit,
                type="RequestLimitExceeded",
            )
        return self.parent.nested_depth + 1

    def check_resource_limit(self, template: Mapping[str, Any]) -> None:
        """Heat's ``_validate_nested_resources``: the nested template's
        resources and every stored one of the root stack's tree (less the
        nested stack's current ones, on update) within the limit."""
        limit = service.MAX_RESOURCES_PER_STACK
        new = template.get("resources") or {}
        with self.engine.store.read() as db:
            root, row = self.parent.id, self.parent.row
            while row.get("owner_id"):
                root = row["owner_id"]
                row = stacks.by_id(db, root) or {}
            total = len(new) + len(
                stacks.resources(db, root, nested_depth=service.MAX_NESTED_STACK_DEPTH)
            )
            if self.resource_id is not None:
                total -= len(stacks.stack_resources(db, self.resource_id))
        if total > limit:
            raise errors.BadRequest(
                "Request limit exceeded: Maximum resources per stack exceeded.",
                type="RequestLimitExceeded",
            )

    # -- actions ------------------------------------------------------------

    def create_with_template(self, template: Mapping[str, Any], params: Mapping[str, Any]) -> None:
        """Start the nested stack; its id is this resource's physical id."""
        self._nested = None
        self.child_nested_depth()
        stack_id = self.parent.create_nested(
            self, template, params, None, self.child_environment(params)
        )
        self.resource_id_set(stack_id)

    def update_with_template(self, template: Mapping[str, Any], params: Mapping[str, Any]) -> None:
        """Update the nested stack in place (a missing one: the resource is
        replaced, Heat's ``UpdateReplace``)."""
        self._nested = None
        if self.resource_id is None:
            raise resource.UpdateReplace(self.name)
        try:
            self.parent.nested_status(self.resource_id)
        except errors.NotFound:
            raise resource.UpdateReplace(self.name) from None
        self.engine.update_stack(
            self.parent.context,
            self.resource_id,
            dict(template),
            dict(params),
            self.parent.files,
            self.child_environment(params),
            {"timeout_mins": self.parent.row.get("timeout_mins")},
        )

    def check_status_complete(self, expected_action: str) -> bool:
        """Heat's ``_check_status_complete``: True once the nested stack
        is ``<expected_action>_COMPLETE``; its FAILED fails this resource
        with the nested reason."""
        if self.resource_id is None:
            return expected_action == resource.DELETE
        try:
            action, status, reason = self.parent.nested_status(self.resource_id)
        except errors.NotFound:
            return expected_action == resource.DELETE
        if action != expected_action or status == resource.IN_PROGRESS:
            if expected_action == resource.DELETE and status != resource.IN_PROGRESS:
                # the action the delete was to cancel ended first: ask again
                self.engine.delete_nested(self.resource_id)
            return False
        if status == resource.COMPLETE:
            self._nested = None
            return True
        if status == resource.FAILED:
            raise nested_failure(self, action, reason)
        raise exception.ResourceUnknownStatus(
            resource_status=status, result="Stack unknown status", status_reason=reason
        )

    def check_create_complete(self, handler_data: Any) -> bool:
        return self.check_status_complete(resource.CREATE)

    def check_update_complete(self, handler_data: Any) -> bool:
        return self.check_status_complete(resource.UPDATE)

    def handle_delete(self) -> None:
        """Delete the nested stack (one already gone counts as deleted)."""
        self._nested = None
        if self.resource_id is None:
            return
        try:
            self.parent.nested_status(self.resource_id)
        except errors.NotFound:
            return
        self.engine.delete_nested(self.resource_id)

    def check_delete_complete(self, handler_data: Any) -> bool:
        return self.check_status_complete(resource.DELETE)

    def _stack_action(self, verb: str) -> None:
        if self.resource_id is None:
            raise exception.Error("Cannot %s %s, stack not created" % (verb, self.name))
        self._nested = None
        self.engine.stack_action(self.parent.context, self.resource_id, verb)

    def handle_suspend(self) -> None:
        self._stack_action("suspend")

    def check_suspend_complete(self, handler_data: Any) -> bool:
        return self.check_status_complete(resource.SUSPEND)

    def handle_resume(self) -> None:
        self._stack_action("resume")

    def check_resume_complete(self, handler_data: Any) -> bool:
        return self.check_status_complete(resource.RESUME)

    def handle_check(self) -> None:
        self._stack_action("check")

    def check_check_complete(self, handler_data: Any) -> bool:
        return self.check_status_complete(resource.CHECK)

    def prepare_abandon(self) -> dict[str, Any]:
        """The nested stack's own abandon data, as Heat gives for a stack
        resource."""
        nested = self.nested()
        if nested is None:
            return {}
        return dict(self.engine.export(nested))
