"""``EngineService``: what Heat's API asks of its engine.

Heat's ``heat/engine/service.py`` for the local cloud, one per cloud
process (``cloud.orchestration.engine``). A write checks what Heat checks
before it answers (the stack name, the project's limit, the template,
parameters, resource types and properties, the dependency graph), stores
the stack and returns; the action itself runs on the engine's threads
(:mod:`.scheduler`) as a task of :mod:`.actions`, so a stack progresses
with nobody polling it.
"""

import logging
import re
import threading
from collections.abc import Callable
from collections.abc import Mapping
from typing import Any

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud.app import Context
from occli.localcloud.identity import interface as keystone
from occli.localcloud.orchestration.engine import formats
from occli.localcloud.orchestration.engine import preview
from occli.localcloud.orchestration.engine import stacks
from occli.localcloud.orchestration.engine.clients import Clients
from occli.localcloud.orchestration.engine.resource import COMPLETE
from occli.localcloud.orchestration.engine.resource import IN_PROGRESS
from occli.localcloud.orchestration.engine.scheduler import Scheduler
from occli.localcloud.orchestration.engine.stack import Stack
from occli.localcloud.orchestration.engine.stack import trust_of

LOG = logging.getLogger(__name__)
_STACK_NAME = re.compile(r"[a-zA-Z][a-zA-Z0-9_.-]{0,254}$")
# heat's [DEFAULT] limits (heat/common/config.py)
MAX_STACKS_PER_TENANT = 512
MAX_RESOURCES_PER_STACK = 1000
MAX_NESTED_STACK_DEPTH = 5
# actions POST …/actions takes (heat/api/openstack/v1/actions.py)
STACK_ACTIONS = ("suspend", "resume", "check", "cancel_update", "cancel_without_rollback")


def _validation_failed(message: str) -> errors.BadRequest:
    return errors.BadRequest(message, type="StackValidationFailed")


def check_stack_name(name: Any) -> str:
    """Heat's stack name rule (``heat/engine/stack.py``)."""
    if not isinstance(name, str):
        raise _validation_failed("Invalid stack name %s, must be a string" % name)
    if not _STACK_NAME.match(name):
        raise _validation_failed(
            'Invalid stack name %s must contain only alphanumeric or "_-." '
            "characters, must start with alpha and must be 255 characters or less." % name
        )
    return name


class EngineService:
    """The cloud's Heat engine: stacks' writes and their running actions."""

    def __init__(self, cloud: Any) -> None:
        self.cloud = cloud
        self.store = cloud.store
        self.config = cloud.config
        self.engine_id = common.new_uuid()
        self.scheduler = Scheduler(self.config.heat_engine_workers)
        self._global_env: Any = None
        self._env_lock = threading.Lock()
        self._agent_started = False

    # -- what a Stack needs ---------------------------------------------------

    @property
    def app(self) -> Callable[..., Any]:
        return self.cloud.wsgi

    @property
    def global_env(self) -> Any:
        """Heat's global environment, loaded once (``resources.initialise``)."""
        with self._env_lock:
            if self._global_env is None:
                from occli.localcloud.orchestration.engine import resources

                self._global_env = resources.initialise(
                    plugin_dirs=tuple(self.config.heat_plugin_dirs),
                    environment_dir=self.config.heat_environment_dir,
                )
            return self._global_env

    def constraint_checker(self, clients: Clients) -> Callable[[str, Any], None]:
        """``checker(name, value)`` for parameters' ``custom_constraint``."""
        from occli.localcloud.orchestration.engine import custom_constraints

        def check(name: str, value: Any) -> None:
            custom_constraints.check(name, value, clients, self.global_env)

        return check

    def stop(self) -> None:
        self.scheduler.stop()

    # -- the simulated agent ------------------------------------------------

    def ensure_agent(self) -> None:
        """Start the simulated in-server agent's periodic task (once; a
        software deployment or a stack was just made)."""
        if not (self.config.heat_simulated_agent or self.config.heat_agent_opt_in):
            return
        with self._env_lock:
            if self._agent_started:
                return
            self._agent_started = True
        self.scheduler.submit(self._agent_task())

    def _agent_clients(self, project_id: str) -> Clients:
        """The agent's credentials in a project (Heat gives an in-server
        agent a stack-domain user of the deployment's project)."""
        return Clients(
            self.app,
            Context(
                user_id="occli-simulated-agent",
                user_name="occli-simulated-agent",
                project_id=project_id,
                project_name=None,
                roles=["member", "reader"],
            ),
        )

    def _agent_task(self) -> Any:
        from occli.localcloud.orchestration.engine import agent

        while True:
            try:
                agent.tick(self.store, self._agent_clients, self.config)
            except Exception:  # a failed tick never stops the agent
                LOG.exception("the simulated agent's tick failed")
            yield agent.PERIOD

    # -- restart ------------------------------------------------------------

    def recover(self, db: Any) -> None:
        """A cloud starting: every stack an engine was running has lost it
        (Heat's ``reset_stack_status``: "Engine went down during stack X")."""
        now = common.utcnow().timestamp()
        for row in stacks.in_progress(db):
            reason = "Engine went down during stack %s" % row["action"]
            stacks.update(
                db,
                row["id"],
                status="FAILED",
                status_reason=reason,
                engine_id=None,
                cancel_requested=None,
                updated_at=now,
            )
            stacks.fail_in_progress(db, row["id"], reason)
            stacks.add_event(
                db,
                {
                    "stack_id": row["id"],
                    "project_id": row["project_id"],
                    "resource_name": row["name"],
                    "physical_resource_id": row["id"],
                    "logical_resource_id": row["name"],
                    "resource_type": "OS::Heat::Stack",
                    "action": row["action"],
                    "status": "FAILED",
                    "reason": reason,
                },
            )

    # -- building a stack from a request ---------------------------------------

    def _environment(
        self, params: Mapping[str, Any] | None, environment: Mapping[str, Any] | None
    ) -> dict[str, Any]:
        """The user environment with the request's ``parameters`` over its
        own (heat-api merges them so)."""
        from occli.localcloud.orchestration.engine import environment as env_module

        env = env_module.parse_environment(dict(environment or {}))
        merged = dict(env.get("parameters") or {})
        merged.update(params or {})
        env["parameters"] = merged
        return env

    def _with_files(
        self,
        env: dict[str, Any],
        tmpl: Any,
        files: Mapping[str, str] | None,
        names: Any,
    ) -> dict[str, Any]:
        """``env`` with the request's ``environment_files`` merged over it
        (Heat's ``merge_environments``, by the template's parameters)."""
        if not names:
            return env
        from occli.localcloud.orchestration.engine import environment_files
        from occli.localcloud.orchestration.engine import template as template_module

        schemata = template_module.Template(tmpl, files=dict(files or {})).param_schemata()
        return environment_files.merge_environments(names, files or {}, env, schemata)

    def new_row(
        self,
        ctx: Context,
        name: str,
        template: Any,
        params: Mapping[str, Any] | None,
        files: Mapping[str, str] | None,
        environment: Mapping[str, Any] | None,
        args: Mapping[str, Any],
        owner: Stack | None = None,
        parent_resource: str | None = None,
    ) -> dict[str, Any]:
        from occli.localcloud.orchestration.engine import template as template_module

        tmpl = template_module.parse(template)
        env = self._with_files(
            self._environment(params, environment), tmpl, files, args.get("environment_files")
        )
        now = common.utcnow().timestamp()
        timeout = args.get("timeout_mins")
        return {
            "id": common.new_uuid(),
            "name": name,
            "project_id": ctx.project_id,
            "user_id": ctx.user_id,
            "username": ctx.user_name,
            "owner_id": owner.id if owner is not None else None,
            "parent_resource": parent_resource,
            "nested_depth": owner.nested_depth + 1 if owner is not None else 0,
            "action": "CREATE",
            "status": IN_PROGRESS,
            "status_reason": "Stack CREATE started",
            "template": tmpl,
            "environment": env,
            "files": dict(files or {}),
            "parameters": env["parameters"],
            "timeout_mins": timeout if timeout is not None else None,
            "disable_rollback": int(bool(args.get("disable_rollback", True))),
            "tags": list(args.get("tags") or []) or None,
            "trust": trust_of(ctx),
            "engine_id": self.engine_id,
            "created_at": now,
            "updated_at": None,
        }

    def build(self, row: Mapping[str, Any]) -> Stack:
        """A Stack validated as Heat validates one before storing it."""
        from occli.localcloud.orchestration.engine import template as template_module

        template_module.Template(row["template"], files=row.get("files") or {}).validate()
        stack = Stack(self, row)
        stack.parameters.validate()
        if stack.nested_depth == 0 and len(stack.definitions) > MAX_RESOURCES_PER_STACK:
            raise errors.BadRequest(
                "Request limit exceeded: Maximum resources per stack exceeded.",
                type="RequestLimitExceeded",
            )
        # each resource's functions, then its properties, in dependency
        # order (Heat's Stack.validate); then the outputs' functions
        for name in stack.dependencies().order:
            stack.validate_functions(name)
            stack.resources[name].validate()
        stack.validate_functions()
        return stack

    def _check_new(self, db: Any, ctx: Context, name: str) -> None:
        if stacks.name_taken(db, ctx.project_id, name):
            raise errors.Conflict("The Stack (%s) already exists." % name, type="StackExists")
        if not ctx.is_admin and stacks.project_count(db, ctx.project_id) >= MAX_STACKS_PER_TENANT:
            raise errors.BadRequest(
                "Request limit exceeded: You have reached the maximum stacks per tenant, "
                "%d. Please delete some stacks." % MAX_STACKS_PER_TENANT,
                type="RequestLimitExceeded",
            )

    # -- writes -------------------------------------------------------------

    def create_stack(
        self,
        ctx: Context,
        name: Any,
        template: Any,
        params: Mapping[str, Any] | None,
        files: Mapping[str, str] | None,
        environment: Mapping[str, Any] | None,
        args: Mapping[str, Any],
    ) -> dict[str, str]:
        """Validate and store a stack, then create it in the background."""
        from occli.localcloud.orchestration.engine import actions

        name = check_stack_name(name)
        with self.store.read() as db:
            self._check_new(db, ctx, name)
        adopt = args.get("adopt_stack_data")
        if adopt is not None and not self.config.heat_enable_stack_adopt:
            raise errors.BadRequest("Stack Adopt is not supported.", type="NotSupported")
        row = self.new_row(ctx, name, template, params, files, environment, args)
        if adopt is not None:
            row["action"], row["status_reason"] = "ADOPT", "Stack ADOPT started"
        # Heat's create_trust_context: the owner's token roles delegated
        # to Heat's service user, which every engine call then acts through
        with self.store.transaction() as db:
            trust_id = keystone.create_trust(db, ctx.user_id, ctx.project_id, ctx.roles)
        row["trust"] = trust_of(ctx, trust_id)
        try:
            stack = self.build(row)
            with self.store.transaction() as db:
                self._check_new(db, ctx, name)
                stacks.insert(db, row)
        except BaseException:
            with self.store.transaction() as db:
                keystone.delete_trust(db, trust_id)
            raise
        stack._event(
            stack.name,
            stack.id,
            "OS::Heat::Stack",
            row["action"],
            IN_PROGRESS,
            row["status_reason"],
        )
        self.scheduler.submit(actions.guarded(self, stack.id, actions.create(self, stack, adopt)))
        self.ensure_agent()
        return {"id": row["id"], "name": name}

    def create_nested(
        self,
        parent: Stack,
        resource: Any,
        template: Mapping[str, Any],
        params: Mapping[str, Any],
        files: Mapping[str, str],
        environment: Mapping[str, Any] | None,
    ) -> str:
        """A nested stack of ``resource`` (template resources, groups,
        ``OS::Heat::Stack``), created in the background; its id."""
        from occli.localcloud.orchestration.engine import actions

        if parent.nested_depth + 1 > MAX_NESTED_STACK_DEPTH:
            raise errors.BadRequest(
                "Request limit exceeded: Recursion depth exceeds %d." % MAX_NESTED_STACK_DEPTH,
                type="RequestLimitExceeded",
            )
        name = resource.physical_resource_name()
        row = self.new_row(
            parent.context,
            name,
            dict(template),
            params,
            files,
            environment,
            {
                "timeout_mins": parent.row.get("timeout_mins"),
                "disable_rollback": True,
            },
            owner=parent,
            parent_resource=resource.name,
        )
        stack = self.build(row)
        with self.store.transaction() as db:
            stacks.insert(db, row)
        stack._event(
            stack.name, stack.id, "OS::Heat::Stack", "CREATE", IN_PROGRESS, "Stack CREATE started"
        )
        self.scheduler.submit(actions.guarded(self, stack.id, actions.create(self, stack, None)))
        return str(row["id"])

    def preview_stack(
        self,
        ctx: Context,
        name: Any,
        template: Any,
        params: Mapping[str, Any] | None,
        files: Mapping[str, str] | None,
        environment: Mapping[str, Any] | None,
        args: Mapping[str, Any],
    ) -> dict[str, Any]:
        """Heat's ``preview_stack``: the stack as it would be, nothing made
        (``api.format_stack_preview``: :mod:`.preview`)."""
        name = check_stack_name(name)
        with self.store.read() as db:
            self._check_new(db, ctx, name)
        row = self.new_row(ctx, name, template, params, files, environment, args)
        return preview.format_stack_preview(self.build(preview.preview_row(row)))

    def _owned(self, ctx: Context, stack_id: str) -> dict[str, Any]:
        with self.store.read() as db:
            return stacks.get(db, ctx, stack_id)

    def _in_progress(self, row: Mapping[str, Any], action: str) -> errors.Conflict:
        return errors.Conflict(
            "Stack %s already has an action (%s) in progress." % (row["name"], row["action"]),
            type="ActionInProgress",
        )

    def delete_stack(self, ctx: Context, stack_id: str) -> None:
        """Delete a stack; an action in progress is cancelled first."""
        row = self._owned(ctx, stack_id)
        if row["action"] == "DELETE" and row["status"] == IN_PROGRESS:
            return
        self._delete(row)

    def delete_nested(self, stack_id: str) -> None:
        """Start deleting a nested stack (its owner's resource waits)."""
        with self.store.read() as db:
            row = stacks.by_id(db, stack_id)
        if row is None or row.get("deleted_at") is not None:
            return
        self._delete(row)

    def _delete(self, row: Mapping[str, Any]) -> None:
        """A running action is asked to cancel into the delete (whichever
        process runs it reads the flag); else the delete starts here."""
        from occli.localcloud.orchestration.engine import actions

        if row["status"] == IN_PROGRESS and row.get("engine_id"):
            with self.store.transaction() as db:
                stacks.update(db, row["id"], cancel_requested="delete")
            return
        stack = Stack.load(self, row["id"])
        self.scheduler.submit(actions.guarded(self, stack.id, actions.start_delete(self, stack)))

    def update_stack(
        self,
        ctx: Context,
        stack_id: str,
        template: Any,
        params: Mapping[str, Any] | None,
        files: Mapping[str, str] | None,
        environment: Mapping[str, Any] | None,
        args: Mapping[str, Any],
        existing: bool = False,
    ) -> None:
        """Heat's ``update_stack`` (``PUT``; ``PATCH`` is ``existing``)."""
        from occli.localcloud.orchestration.engine import actions

        row = self._owned(ctx, stack_id)
        if row["status"] == IN_PROGRESS:
            raise self._in_progress(row, "UPDATE")
        new_row = self.updated_row(row, template, params, files, environment, args, existing)
        new_stack = self.build(new_row)
        with self.store.transaction() as db:
            stacks.update(
                db,
                stack_id,
                action="UPDATE",
                status=IN_PROGRESS,
                status_reason="Stack UPDATE started",
                engine_id=self.engine_id,
                prev_template={
                    "template": row["template"],
                    "environment": row["environment"],
                    "files": row["files"],
                    "parameters": row["parameters"],
                },
                updated_at=common.utcnow().timestamp(),
            )
        new_stack._event(
            new_stack.name,
            stack_id,
            "OS::Heat::Stack",
            "UPDATE",
            IN_PROGRESS,
            "Stack UPDATE started",
        )
        self.scheduler.submit(
            actions.guarded(
                self, stack_id, actions.update(self, Stack.load(self, stack_id), new_row)
            )
        )

    def updated_row(
        self,
        row: Mapping[str, Any],
        template: Any,
        params: Mapping[str, Any] | None,
        files: Mapping[str, str] | None,
        environment: Mapping[str, Any] | None,
        args: Mapping[str, Any],
        existing: bool,
    ) -> dict[str, Any]:
        """The stack row an update asks for: with ``existing`` (PATCH) the
        current template, parameters, environment and files are kept where
        the request says nothing (heat's ``update_stack`` ``existing``)."""
        from occli.localcloud.orchestration.engine import template as template_module

        new = dict(row)
        if existing:
            env = self._environment({}, row.get("environment"))
            for section, value in self._environment(params, environment).items():
                if isinstance(value, dict) and isinstance(env.get(section), dict):
                    env[section] = {**env[section], **value}
                elif value:
                    env[section] = value
            for key in args.get("clear_parameters") or ():
                env["parameters"].pop(key, None)
            new["template"] = template_module.parse(template) if template else row["template"]
            new["files"] = {**(row.get("files") or {}), **(files or {})}
        else:
            env = self._environment(params, environment)
            if not template:
                raise errors.BadRequest("No template specified", type="HTTPBadRequest")
            new["template"] = template_module.parse(template)
            new["files"] = dict(files or {})
        env = self._with_files(env, new["template"], new["files"], args.get("environment_files"))
        new["environment"] = env
        new["parameters"] = env["parameters"]
        if "timeout_mins" in args:
            new["timeout_mins"] = args["timeout_mins"]
        if "disable_rollback" in args:
            new["disable_rollback"] = int(bool(args["disable_rollback"]))
        if "tags" in args:
            new["tags"] = list(args.get("tags") or []) or None
        elif not existing:
            # _prepare_stack_updates keeps the current tags only for PATCH
            # (get_kwargs_for_cloning has none): a PUT without tags clears them
            new["tags"] = None
        return new

    def preview_update_stack(
        self,
        ctx: Context,
        stack_id: str,
        template: Any,
        params: Mapping[str, Any] | None,
        files: Mapping[str, str] | None,
        environment: Mapping[str, Any] | None,
        args: Mapping[str, Any],
        existing: bool = False,
    ) -> dict[str, list[dict[str, Any]]]:
        """What an update would do to each resource (heat's
        ``preview_update_stack``: unchanged, updated, replaced, added,
        deleted), nothing changed."""
        from occli.localcloud.orchestration.engine import actions

        row = self._owned(ctx, stack_id)
        current = Stack.load(self, stack_id)
        new_stack = self.build(
            self.updated_row(row, template, params, files, environment, args, existing)
        )
        with self.store.read() as db:
            rows = stacks.stack_resources(db, stack_id)
        return formats.format_update_preview(
            actions.plan_update(current, new_stack),
            row,
            current.resources,
            new_stack.resources,
            rows,
            {n: d.dependencies() for n, d in new_stack.definitions.items()},
        )

    def stack_action(self, ctx: Context, stack_id: str, action: str) -> None:
        """``POST …/actions``: suspend, resume, check, cancel_update,
        cancel_without_rollback."""
        from occli.localcloud.orchestration.engine import actions

        row = self._owned(ctx, stack_id)
        if action in ("cancel_update", "cancel_without_rollback"):
            if row["action"] != "UPDATE" or row["status"] != IN_PROGRESS:
                # exception.NotSupported(feature=…): "%(feature)s is not supported."
                raise errors.BadRequest(
                    "Cancelling update when stack is %s_%s is not supported."
                    % (row["action"], row["status"]),
                    type="NotSupported",
                )
            with self.store.transaction() as db:
                stacks.update(
                    db,
                    stack_id,
                    cancel_requested="rollback" if action == "cancel_update" else "cancel",
                )
            return
        if row["status"] == IN_PROGRESS:
            raise self._in_progress(row, action.upper())
        verb = action.upper()
        with self.store.transaction() as db:
            stacks.update(
                db,
                stack_id,
                action=verb,
                status=IN_PROGRESS,
                status_reason="Stack %s started" % verb,
                engine_id=self.engine_id,
                updated_at=common.utcnow().timestamp(),
            )
        stack = Stack.load(self, stack_id)
        stack._event(
            stack.name, stack_id, "OS::Heat::Stack", verb, IN_PROGRESS, "Stack %s started" % verb
        )
        self.scheduler.submit(actions.guarded(self, stack_id, actions.simple(self, stack, verb)))

    def abandon_stack(self, ctx: Context, stack_id: str) -> dict[str, Any]:
        """Heat's ``abandon_stack``: the stack's data, and the stack deleted
        leaving its physical resources in place."""
        from occli.localcloud.orchestration.engine import actions

        if not self.config.heat_enable_stack_abandon:
            raise errors.BadRequest("Stack Abandon is not supported.", type="NotSupported")
        row = self._owned(ctx, stack_id)
        if row["status"] == IN_PROGRESS:
            raise self._in_progress(row, "DELETE")
        stack = Stack.load(self, stack_id)
        data = self.export(stack)
        actions.forget(self, stack)
        return data

    def export_stack(self, ctx: Context, stack_id: str) -> dict[str, Any]:
        """Heat's ``export_stack`` (``abandon_stack(abandon=False)``):
        refused as abandon is when abandon is disabled."""
        if not self.config.heat_enable_stack_abandon:
            raise errors.BadRequest("Stack Abandon is not supported.", type="NotSupported")
        self._owned(ctx, stack_id)
        return self.export(Stack.load(self, stack_id))

    def export(self, stack: Stack) -> dict[str, Any]:
        """Heat's ``Stack.prepare_abandon``: the user's view of the
        environment (``user_env_as_dict``), the template's files, the tags
        as a list ([] when none)."""
        return {
            "name": stack.name,
            "id": stack.id,
            "action": stack.action,
            "environment": stack.env.user_env_as_dict(),
            "files": dict(stack.files),
            "status": stack.status,
            "template": stack.row["template"],
            "resources": {n: r.prepare_abandon() for n, r in stack.resources.items()},
            "project_id": stack.project_id,
            "stack_user_project_id": stack.row.get("stack_user_project_id") or stack.project_id,
            "tags": list(stack.row.get("tags") or ()),
        }

    def signal(self, ctx: Context, stack_id: str, resource_name: str, details: Any) -> Any:
        """``POST …/resources/{name}/signal``: the resource's
        ``handle_signal`` (Heat's ``resource_signal``)."""
        self._owned(ctx, stack_id)
        stack = Stack.load(self, stack_id)
        if resource_name not in stack.resources:
            # _find_resource_in_stack's ResourceNotFound
            raise errors.NotFound(
                "The Resource (%s) could not be found in Stack %s." % (resource_name, stack.name),
                type="ResourceNotFound",
            )
        res = stack.resources[resource_name]
        if res.action in res.no_signal_actions:
            raise errors.BadRequest(
                "Signal resource during %s is not supported." % res.action, type="NotSupported"
            )
        if not res.signal_supported:
            raise errors.BadRequest(
                "signal is not supported for resource.", type="ResourceActionNotSupported"
            )
        return res.signal(details)

    def signal_with_token(
        self,
        project_id: str,
        stack_name: str,
        stack_id: str,
        resource_name: str,
        token: str,
        details: Any,
    ) -> Any:
        """A signal whose ``X-Auth-Token`` is not a Keystone token: served
        only when it is the resource's own signal token (a wait condition
        handle's ``curl_cli``); anything else is None (the caller's 401)."""
        with self.store.read() as db:
            row = stacks.by_id(db, stack_id)
        if (
            row is None
            or row.get("deleted_at") is not None
            or row["project_id"] != project_id
            or row["name"] != stack_name
        ):
            return None
        stack = Stack.load(self, stack_id)
        res = stack.resources.get(resource_name)
        if res is None or not res.signal_token_matches(token):
            return None
        if res.action in res.no_signal_actions:
            raise errors.BadRequest(
                "Signal resource during %s is not supported." % res.action, type="NotSupported"
            )
        res.signal(details)
        return True

    def mark_unhealthy(
        self, ctx: Context, stack_id: str, resource_name: str, mark: bool, reason: str
    ) -> None:
        """``PATCH …/resources/{name}`` (heat's ``resource_mark_unhealthy``):
        the resource goes to CHECK_FAILED with the reason, or back to
        CHECK_COMPLETE when unmarked."""
        self._owned(ctx, stack_id)
        stack = Stack.load(self, stack_id)
        if resource_name not in stack.resources:
            # _find_resource_in_stack's ResourceNotFound
            raise errors.NotFound(
                "The Resource (%s) could not be found in Stack %s." % (resource_name, stack.name),
                type="ResourceNotFound",
            )
        res = stack.resources[resource_name]
        if res.status == IN_PROGRESS:
            raise errors.Conflict(
                "Resource %s is in progress." % resource_name, type="ActionInProgress"
            )
        reason = reason or "state changed by resource_mark_unhealthy api"
        if mark:
            if res.action != "DELETE":
                res.state_set("CHECK", "FAILED", reason)
        elif res.state == ("CHECK", "FAILED"):
            res.state_set("CHECK", COMPLETE, reason)

    def outputs(self, db: Any, ctx: Context, stack_row: Mapping[str, Any]) -> list[dict[str, Any]]:
        """The stack's outputs resolved now (``GET`` stack, ``…/outputs``);
        ``db`` is the request's read connection (the stack is read afresh)."""
        return Stack.load(self, stack_row["id"]).outputs()

    def validate_template(
        self,
        ctx: Context,
        template: Any,
        params: Mapping[str, Any] | None,
        files: Mapping[str, str] | None,
        environment: Mapping[str, Any] | None,
    ) -> Stack:
        """A throw-away stack built as ``POST /validate`` checks one."""
        row = self.new_row(ctx, "validate", template, params, files, environment, {})
        row["action"], row["status"] = "INIT", COMPLETE
        return self.build(row)
