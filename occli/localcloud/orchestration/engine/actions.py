"""Stack actions as engine tasks (Heat's legacy ``Stack.stack_task``).

Each action is a generator the scheduler steps: it starts every resource
whose dependencies are done (independent ones together), then on each tick
asks the running ones ``check_<action>_complete``; it yields the seconds
until its next tick and never holds a transaction between ticks. Texts are
Heat's: "Stack CREATE started", "Stack CREATE completed successfully",
"Resource CREATE failed: <Error>: resources.<name>: <message>",
"Create timed out", "CREATE aborted".
"""

import logging
import time
from collections.abc import Generator
from collections.abc import Iterable
from collections.abc import Mapping
from typing import Any

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud.identity import interface as keystone
from occli.localcloud.orchestration.engine import stacks
from occli.localcloud.orchestration.engine.clients import ClientError
from occli.localcloud.orchestration.engine.clients import TrustContext
from occli.localcloud.orchestration.engine.resource import COMPLETE
from occli.localcloud.orchestration.engine.resource import FAILED
from occli.localcloud.orchestration.engine.resource import IN_PROGRESS
from occli.localcloud.orchestration.engine.resource import INIT
from occli.localcloud.orchestration.engine.resource import Resource
from occli.localcloud.orchestration.engine.resource import UpdateReplace
from occli.localcloud.orchestration.engine.stack import Stack

LOG = logging.getLogger(__name__)
Task = Generator[float, None, None]


class Cancelled(Exception):
    """The stack's action was cancelled (a delete or a cancel_update)."""

    def __init__(self, request: str) -> None:
        super().__init__(request)
        self.request = request


class Timeout(Exception):
    pass


class StackFailure(Exception):
    """A resource failed; ``str`` is Heat's ``ResourceFailure`` text."""


def error_type(exc: BaseException) -> str:
    """The exception name Heat's ``ResourceFailure`` puts first: a
    service's refusal as its client library names it (novaclient's
    ``BadRequest``, ``NotFound``, …), a domain error by its Heat type."""
    if isinstance(exc, ClientError):
        return exc.client_type
    if isinstance(exc, errors.Error):
        return str(exc.extra.get("type") or type(exc).__name__)
    return type(exc).__name__


def failure_text(res: Resource, exc: BaseException) -> str:
    """Heat's ``str(ResourceFailure(exc, res))``; a nested stack's failure
    keeps the inner path."""
    message = exc.message if isinstance(exc, (errors.Error, ClientError)) else str(exc)
    if isinstance(exc, StackFailure):
        return str(exc)
    # HeatExceptionWithPath: a numeric name is an index ("resources[0]")
    path = "resources[%s]" % res.name if res.name.isdigit() else "resources.%s" % res.name
    return "%s: %s: %s" % (error_type(exc), path, message)


def _tick(engine: Any) -> float:
    return float(engine.config.heat_engine_tick)


def _cancel_request(engine: Any, stack: Stack) -> str | None:
    with engine.store.read() as db:
        row = stacks.by_id(db, stack.id)
    return row.get("cancel_requested") if row is not None else "delete"


def _deadline(stack: Stack) -> float | None:
    minutes = stack.row.get("timeout_mins")
    return time.monotonic() + float(minutes) * 60 if minutes else None


def walk(
    engine: Any,
    stack: Stack,
    action: str,
    names: Iterable[str] | None = None,
    reverse: bool = False,
    deadline: float | None = None,
    begin: Any = None,
    cancellable: bool = True,
) -> Task:
    """Run ``action`` on the resources ``names`` (default: all) in graph
    order (``reverse``: dependents first); raise StackFailure/Timeout/
    Cancelled. ``begin(res)`` starts one resource and returns the callable
    that checks it (default: ``handle_<action>`` /
    ``check_<action>_complete``), or None when there is nothing to do
    (an unchanged resource of an update: no event). A finished resource
    is ``<its action>_COMPLETE``."""
    verb = action.lower()
    deps = stack.dependencies()
    wanted = set(stack.resources if names is None else names)
    done = {n for n in deps.order if n not in wanted}
    running: dict[str, Any] = {}
    failure: StackFailure | None = None

    def default_begin(res: Resource) -> Any:
        res.state_set(action, IN_PROGRESS, "state changed")
        res.reparse()  # heat's Resource.create: references made since validation
        if action in ("CREATE", "UPDATE"):
            res.validate()
        data = getattr(res, "handle_%s" % verb)()
        return lambda: getattr(res, "check_%s_complete" % verb)(data)

    begin = begin or default_begin
    while True:
        if cancellable:
            request = _cancel_request(engine, stack)
            if request:
                _abort(running, stack, action)
                raise Cancelled(request)
        if deadline is not None and time.monotonic() > deadline:
            _abort(running, stack, action)
            raise Timeout()
        if failure is None:
            for name in deps.ready(done, set(running), reverse=reverse):
                res = stack.resources[name]
                try:
                    check = begin(res)
                except Exception as exc:  # noqa: BLE001 - heat fails the resource on any
                    failure = _fail(res, res.action, exc)
                    break
                if check is None:
                    done.add(name)
                else:
                    running[name] = check
        for name, check in list(running.items()):
            res = stack.resources[name]
            try:
                complete = check()
            except Exception as exc:  # noqa: BLE001
                del running[name]
                failure = failure or _fail(res, res.action, exc)
                continue
            if complete:
                del running[name]
                done.add(name)
                res.state_set(res.action, COMPLETE, "state changed")
        if failure is not None:
            _abort(running, stack, action)
            raise failure
        if not running and len(done) == len(deps.order):
            return
        if not running and not deps.ready(done, set(), reverse=reverse):
            return
        yield _tick(engine)


def _fail(res: Resource, action: str, exc: BaseException) -> StackFailure:
    if not isinstance(exc, (errors.Error, ClientError, StackFailure)):
        LOG.info("%s of %s failed", action, res.name, exc_info=True)
    text = failure_text(res, exc)
    res.state_set(action, FAILED, text)
    return StackFailure(text)


def _abort(running: Mapping[str, Any], stack: Stack, action: str) -> None:
    """Resources still running when the action stops (heat's cancelled
    tasks): FAILED "<ACTION> aborted"."""
    for name in list(running):
        res = stack.resources[name]
        res.state_set(res.action, FAILED, "%s aborted" % res.action)


def _finish(stack: Stack, action: str, exc: BaseException | None, suffix: str = "") -> str:
    if exc is None:
        status, reason = COMPLETE, "Stack %s completed successfully" % action
    elif isinstance(exc, Timeout):
        status, reason = FAILED, "%s timed out" % action.title()
    else:
        status, reason = FAILED, "Resource %s failed: %s" % (action, exc)
    stack.state_set(action, status, reason + suffix)
    return status


def guarded(engine: Any, stack_id: str, task: Task) -> Task:
    """``task``, which can no longer leave its stack IN_PROGRESS: an
    unexpected error fails the stack's action with the error's text (Heat's
    engine thread does the same through its exception handler)."""
    try:
        yield from task
    except Exception as exc:  # any bug ends the action, not the engine
        LOG.exception("stack %s: its action failed", stack_id)
        with engine.store.transaction() as db:
            row = stacks.by_id(db, stack_id)
            if row is None or row["status"] != IN_PROGRESS:
                return
            reason = "%s: %s" % (type(exc).__name__, exc)
            stacks.fail_in_progress(db, stack_id, reason)
        stack = Stack.load(engine, stack_id)
        stack.state_set(row["action"], FAILED, reason)
        with engine.store.transaction() as db:
            stacks.update(db, stack_id, engine_id=None, cancel_requested=None)


def _release(engine: Any, stack: Stack) -> None:
    """The action is over: no engine holds the stack. A delete asked for
    while it was finishing (too late for the action to see) starts now."""
    with engine.store.transaction() as db:
        row = stacks.by_id(db, stack.id)
        pending = (row or {}).get("cancel_requested")
        stacks.update(db, stack.id, engine_id=None, cancel_requested=None)
    if pending == "delete":
        engine.scheduler.submit(
            guarded(engine, stack.id, start_delete(engine, Stack.load(engine, stack.id)))
        )


def create(engine: Any, stack: Stack, adopt: Mapping[str, Any] | None) -> Task:
    """Create (or adopt) every resource; on failure with rollback enabled,
    delete what was made (``ROLLBACK``)."""
    action = "ADOPT" if adopt is not None else "CREATE"
    adopted = (adopt or {}).get("resources") or {}

    def begin_adopt(res: Resource) -> Any:
        res.state_set(action, IN_PROGRESS, "state changed")
        res.handle_adopt(adopted.get(res.name) or {})
        return lambda: True

    try:
        yield from walk(
            engine,
            stack,
            action,
            deadline=_deadline(stack),
            begin=begin_adopt if adopt is not None else None,
        )
        outcome: BaseException | None = None
    except Cancelled as cancel:
        yield from _cancelled(engine, stack, action, cancel)
        return
    except (StackFailure, Timeout) as exc:
        outcome = exc
    status = _finish(stack, action, outcome)
    if status == FAILED and not stack.row.get("disable_rollback", 1):
        yield from rollback_create(engine, stack)
        return
    _release(engine, stack)


def _cancelled(engine: Any, stack: Stack, action: str, cancel: Cancelled) -> Task:
    """What a cancel asked for: a delete (the stack is deleted), a rollback
    of an update, or just the stop (``cancel_without_rollback``)."""
    if cancel.request == "delete":
        stack.state_set(action, FAILED, "Stack %s cancelled" % action)
        with engine.store.transaction() as db:
            stacks.update(db, stack.id, cancel_requested=None)
        yield from start_delete(engine, Stack.load(engine, stack.id))
        return
    with engine.store.transaction() as db:
        stacks.update(db, stack.id, cancel_requested=None)
    if cancel.request == "rollback":
        stack.state_set(action, FAILED, "Stack %s cancelled" % action)
        yield from rollback_update(engine, stack)
        return
    stack.state_set(action, FAILED, "Stack %s cancelled" % action)
    _release(engine, stack)


def rollback_create(engine: Any, stack: Stack) -> Task:
    """A failed create rolled back: everything made deleted."""
    stack.state_set("ROLLBACK", IN_PROGRESS, "Stack ROLLBACK started")
    stack = Stack.load(engine, stack.id)
    try:
        yield from walk(
            engine, stack, "DELETE", reverse=True, cancellable=False, begin=_begin_delete
        )
        outcome: BaseException | None = None
    except (StackFailure, Timeout) as exc:
        outcome = exc
    if outcome is None:
        # each resource destroyed, its row too (Heat's Resource.destroy),
        # before the stack says so: a rolled back stack lists no resources
        with engine.store.transaction() as db:
            stacks.purge(db, stack.id)
    _finish(stack, "ROLLBACK", outcome)
    _release(engine, stack)


def _begin_delete(res: Resource) -> Any:
    """A resource's delete; ``deletion_policy: Retain`` keeps the physical
    resource; one never made is forgotten with no event (Heat's
    ``Resource.delete``: "No need to delete if the resource has never been
    created")."""
    policy = str(res.t.get("deletion_policy") or "Delete")
    if res.action == "INIT":
        return None
    if policy.lower() == "retain":
        res.state_set("DELETE", IN_PROGRESS, "state changed")
        return lambda: True
    res.state_set("DELETE", IN_PROGRESS, "state changed")
    data = res.handle_delete()
    return lambda: res.check_delete_complete(data)


def start_delete(engine: Any, stack: Stack) -> Task:
    """Mark the stack DELETE_IN_PROGRESS now (a client polling right after
    the 204 sees the delete), and the task that does it."""
    stack.state_set("DELETE", IN_PROGRESS, "Stack DELETE started")
    with engine.store.transaction() as db:
        stacks.update(db, stack.id, engine_id=engine.engine_id)
    return delete(engine, stack)


def delete(engine: Any, stack: Stack) -> Task:
    """Delete every resource in reverse order, then the stack (its row and
    events stay for ``show_deleted``); :func:`start_delete` marks it first."""
    try:
        yield from walk(
            engine,
            stack,
            "DELETE",
            reverse=True,
            deadline=_deadline(stack),
            begin=_begin_delete,
            cancellable=False,
        )
        outcome: BaseException | None = None
    except (StackFailure, Timeout) as exc:
        outcome = exc
    status = _finish(stack, "DELETE", outcome)
    with engine.store.transaction() as db:
        if status == COMPLETE:
            stacks.purge(db, stack.id)
            stacks.update(db, stack.id, deleted_at=common.utcnow().timestamp())
            _delete_trust(db, stack)
        stacks.update(db, stack.id, engine_id=None, cancel_requested=None)


def _delete_trust(db: Any, stack: Stack) -> None:
    """A deleted or abandoned top-level stack's trust deleted too (Heat's
    ``Stack._delete_credentials``; nested stacks share their root's)."""
    if stack.owner_id is None and isinstance(stack.context, TrustContext):
        keystone.delete_trust(db, stack.context.trust_id)


def forget(engine: Any, stack: Stack) -> None:
    """Abandon: the stack gone, its physical resources left as they are."""
    with engine.store.transaction() as db:
        for child in stacks.children(db, stack.id):
            stacks.purge(db, child["id"])
            stacks.update(db, child["id"], deleted_at=common.utcnow().timestamp())
        stacks.purge(db, stack.id)
        stacks.update(
            db,
            stack.id,
            action="DELETE",
            status=COMPLETE,
            status_reason="Stack DELETE completed successfully",
            deleted_at=common.utcnow().timestamp(),
        )
        _delete_trust(db, stack)


def _check_supported(res: Resource) -> bool:
    """Heat's ``Stack.supports_check_action`` of one resource: its type has
    a ``handle_check`` of its own (a nested stack's: each of its resources)."""
    nested = getattr(res, "nested", None)
    inner = nested() if callable(nested) else None
    if inner is not None:
        return all(_check_supported(r) for r in inner.resources.values())
    return type(res).handle_check is not Resource.handle_check


def _begin_check(res: Resource) -> Any:
    """Heat's ``Resource.check``: a type without ``handle_check`` is
    CHECK_COMPLETE "CHECK not supported for <type>" (one never created is
    left INIT); any other is checked."""
    if type(res).handle_check is Resource.handle_check:
        if res.state != (INIT, COMPLETE):
            res.state_set("CHECK", COMPLETE, "CHECK not supported for %s" % res.type_name)
        return None
    res.state_set("CHECK", IN_PROGRESS, "state changed")
    res.reparse()
    data = res.handle_check()
    return lambda: res.check_check_complete(data)


def simple(engine: Any, stack: Stack, action: str) -> Task:
    """Suspend (dependents first), resume and check (in order)."""
    try:
        yield from walk(
            engine,
            stack,
            action,
            reverse=action == "SUSPEND",
            deadline=_deadline(stack),
            begin=_begin_check if action == "CHECK" else None,
            cancellable=False,
        )
        outcome: BaseException | None = None
    except (StackFailure, Timeout) as exc:
        outcome = exc
    suffix = ""
    if action == "CHECK" and not all(_check_supported(r) for r in stack.resources.values()):
        # supports_check_action's note (one event, as Heat 27 writes it)
        suffix = ". 'CHECK' not fully supported (see resources)"
    _finish(stack, action, outcome, suffix)
    _release(engine, stack)


# -- update ----------------------------------------------------------------


def _frozen(res: Resource) -> dict[str, Any]:
    """The resource's properties as resolved now (Heat's frozen definition)."""
    try:
        return dict(res.properties)
    except Exception:  # noqa: BLE001 - an unresolvable old value differs from any new one
        return {}


def _diff(old: Resource, new: Resource) -> tuple[dict[str, Any], dict[str, Any]]:
    """(prop_diff, tmpl_diff) from ``old`` to ``new`` (Heat's
    ``update_template_diff`` and ``update_template_diff_properties``)."""
    before, after = _frozen(old), _frozen(new)
    prop_diff = {
        k: after.get(k) for k in set(before) | set(after) if before.get(k) != after.get(k)
    }
    tmpl_diff = {
        k: new.t.get(k)
        for k in ("metadata", "update_policy", "deletion_policy")
        if old.t.get(k) != new.t.get(k)
    }
    return prop_diff, tmpl_diff


def plan_update(current: Stack, new: Stack) -> dict[str, list[dict[str, Any]]]:
    """Heat's ``preview_update_stack`` buckets for each resource."""
    plan: dict[str, list[dict[str, Any]]] = {
        "unchanged": [],
        "updated": [],
        "replaced": [],
        "added": [],
        "deleted": [],
    }
    for name, res in new.resources.items():
        info = {"resource_name": name, "resource_type": res.type_name}
        old = current.resources.get(name)
        if old is None:
            plan["added"].append(info)
            continue
        if old.type_name != res.type_name:
            plan["replaced"].append(info)
            continue
        prop_diff, tmpl_diff = _diff(old, res)
        if not prop_diff and not tmpl_diff:
            plan["unchanged"].append(info)
        elif set(prop_diff) <= res.update_allowed():
            plan["updated"].append(info)
        else:
            plan["replaced"].append(info)
    for name, res in current.resources.items():
        if name not in new.resources:
            plan["deleted"].append({"resource_name": name, "resource_type": res.type_name})
    return plan


def update(engine: Any, current: Stack, new_row: Mapping[str, Any]) -> Task:
    """Heat's legacy ``StackUpdate``: new resources created, changed ones
    updated in place or replaced (the replacement made before the old one
    is deleted), removed ones deleted last; unchanged ones kept."""
    try:
        yield from _update(engine, current, new_row, "UPDATE")
        outcome: BaseException | None = None
    except Cancelled as cancel:
        yield from _cancelled(engine, Stack.load(engine, current.id), "UPDATE", cancel)
        return
    except (StackFailure, Timeout) as exc:
        outcome = exc
    stack = Stack.load(engine, current.id)
    status = _finish(stack, "UPDATE", outcome)
    if status == FAILED and not new_row.get("disable_rollback", 1):
        yield from rollback_update(engine, stack)
        return
    _release(engine, stack)


def _update(engine: Any, current: Stack, new_row: Mapping[str, Any], action: str) -> Task:
    with engine.store.transaction() as db:
        stacks.update(
            db,
            current.id,
            template=new_row["template"],
            environment=new_row["environment"],
            files=new_row["files"],
            parameters=new_row["parameters"],
            timeout_mins=new_row.get("timeout_mins"),
            disable_rollback=new_row.get("disable_rollback", 1),
            tags=new_row.get("tags"),
        )
    new = Stack.load(engine, current.id)
    replaced: dict[str, Resource] = {}

    def begin(res: Resource) -> Any:
        old = current.resources.get(res.name)
        if old is None or old.action == "INIT" or old.status == FAILED and old.action == "CREATE":
            if old is not None and old.resource_id is not None:
                replaced[res.name] = old
                _detach(engine, new, res, old)
            res.state_set(action if old is not None else "CREATE", IN_PROGRESS, "state changed")
            data = res.handle_create()
            return lambda: res.check_create_complete(data)
        if old.type_name != res.type_name:
            return _replace(engine, new, res, old, replaced, action)
        prop_diff, tmpl_diff = _diff(old, res)
        if not res.needs_update(prop_diff, tmpl_diff):
            return None
        if not set(prop_diff) <= res.update_allowed():
            return _replace(engine, new, res, old, replaced, action)
        res.state_set(action, IN_PROGRESS, "state changed")
        try:
            data = res.handle_update(res.t, tmpl_diff, prop_diff)
        except UpdateReplace:
            return _replace(engine, new, res, old, replaced, action)
        return lambda: res.check_update_complete(data)

    yield from walk(engine, new, action, deadline=_deadline(new), begin=begin)
    for old in replaced.values():
        yield from _delete_one(engine, old)
    removed = [n for n in current.resources if n not in new.resources]
    if removed:
        yield from walk(
            engine,
            current,
            "DELETE",
            names=removed,
            reverse=True,
            begin=_begin_delete,
            cancellable=False,
        )
        with engine.store.transaction() as db:
            for name in removed:
                uuid = current.resources[name].uuid
                if uuid is not None:
                    stacks.delete_resource(db, uuid)


def _detach(engine: Any, new: Stack, res: Resource, old: Resource) -> None:
    """The replacement gets a row of its own; the old one is hidden."""
    res.uuid = common.new_uuid()
    res.resource_id = None
    new._rows.pop(res.name, None)
    new.persist(res)
    if old.uuid is not None:
        with engine.store.transaction() as db:
            stacks.mark_replaced(db, old.uuid, res.uuid)


def _replace(
    engine: Any,
    new: Stack,
    res: Resource,
    old: Resource,
    replaced: dict[str, Resource],
    action: str,
) -> Any:
    """Heat's ``UpdateReplace``: the old resource's update ends COMPLETE
    "The Resource <name> requires replacement.", then its replacement is
    created with events of its own (CREATE_IN_PROGRESS, CREATE_COMPLETE);
    the old one is deleted once the update is done (:func:`_delete_one`)."""
    replaced[res.name] = old
    if res.state != (action, IN_PROGRESS):
        res.state_set(action, IN_PROGRESS, "state changed")
    res.state_set(action, COMPLETE, "The Resource %s requires replacement." % res.name)
    _detach(engine, new, res, old)
    res.state_set("CREATE", IN_PROGRESS, "state changed")
    data = res.handle_create()
    return lambda: res.check_create_complete(data)


def _delete_one(engine: Any, old: Resource) -> Task:
    """Delete a replaced resource's physical resource (DELETE_IN_PROGRESS,
    DELETE_COMPLETE events, as Heat 27 writes them), then its row."""
    old.state_set("DELETE", IN_PROGRESS, "state changed")
    data = old.handle_delete()
    while not old.check_delete_complete(data):
        yield _tick(engine)
    old.state_set("DELETE", COMPLETE, "state changed")
    if old.uuid is not None:
        with engine.store.transaction() as db:
            stacks.delete_resource(db, old.uuid)


def rollback_update(engine: Any, stack: Stack) -> Task:
    """Back to the template, parameters and files before the update."""
    with engine.store.read() as db:
        row = stacks.by_id(db, stack.id)
    prev = (row or {}).get("prev_template")
    stack.state_set("ROLLBACK", IN_PROGRESS, "Stack ROLLBACK started")
    if not prev:
        stack.state_set("ROLLBACK", FAILED, "No previous template to roll back to")
        _release(engine, stack)
        return
    new_row = dict(row or {})
    new_row.update(prev)
    try:
        yield from _update(engine, Stack.load(engine, stack.id), new_row, "ROLLBACK")
        outcome: BaseException | None = None
    except (StackFailure, Timeout, Cancelled) as exc:
        outcome = exc
    _finish(Stack.load(engine, stack.id), "ROLLBACK", outcome)
    _release(engine, stack)
