"""Stack actions (Heat): suspend, resume, check, cancel, with OSC's names
and output (``heatclient/osc/v1/stack.py``, ``StackActionBase``)."""

from occli import columns
from occli import exceptions
from occli import utils
from occli.v2.orchestration.commands import stacks as stack_commands


def _act(client, args, refs, action, name, allowed=None):
    """Run ``action`` on each stack (``--wait``: until ``name`` ends);
    the rows of the stacks after it."""
    done = []
    for ref in refs:
        stack = client.stacks.get(ref, resolve_outputs=False)
        if allowed is not None and stack.stack_status.lower() not in allowed:
            raise exceptions.CommandError(
                "Stack %s with status '%s' not in cancelable state"
                % (ref, stack.stack_status.lower())
            )
        marker = client.stack_events.last(stack) if args.wait else None
        client.stacks.action(stack, action)
        if args.wait:
            stack_commands.wait(client, args, stack, name, marker)
        done.append(client.stacks.get(stack.identifier, resolve_outputs=False))
    return columns.table(done, stack_commands.LIST_COLUMNS, headers=stack_commands.LIST_HEADERS)


@utils.arg("stack", metavar="<stack>", nargs="+", help="Stack(s) to suspend (name or ID).")
@stack_commands.wait_options("the suspend completes (exit 1 on SUSPEND_FAILED)")
@utils.output("list")
def do_stack_suspend(client, args):
    """Suspend stacks.

    Example: occli stack suspend --wait app
    """
    return _act(client, args, args.stack, "suspend", "SUSPEND")


@utils.arg("stack", metavar="<stack>", nargs="+", help="Stack(s) to resume (name or ID).")
@stack_commands.wait_options("the resume completes (exit 1 on RESUME_FAILED)")
@utils.output("list")
def do_stack_resume(client, args):
    """Resume stacks.

    Example: occli stack resume --wait app
    """
    return _act(client, args, args.stack, "resume", "RESUME")


@utils.arg("stack", metavar="<stack>", nargs="+", help="Stack(s) to check (name or ID).")
@stack_commands.wait_options("the check completes (exit 1 on CHECK_FAILED)")
@utils.output("list")
def do_stack_check(client, args):
    """Check stacks: Heat checks that each resource still exists.

    Example: occli stack check --wait app
    """
    return _act(client, args, args.stack, "check", "CHECK")


@utils.arg("stack", metavar="<stack>", nargs="+", help="Stack(s) to cancel (name or ID).")
@utils.arg("--no-rollback", action="store_true", help="Cancel without rollback.")
@stack_commands.wait_options("the cancel completes")
@utils.output("list")
def do_stack_cancel(client, args):
    """Cancel the current update (or, with --no-rollback, create) of stacks.

    Example: occli stack cancel --wait app
    """
    allowed: tuple[str, ...] = ("update_in_progress",)
    action = "cancel_update"
    if args.no_rollback:
        action, allowed = "cancel_without_rollback", ("create_in_progress",) + allowed
    return _act(client, args, args.stack, action, None, allowed)
