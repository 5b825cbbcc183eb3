"""``POST /stacks/{name}/{id}/actions``: Heat's action controller
(``heat/api/openstack/v1/actions.py``): exactly one of suspend, resume,
check, cancel_update, cancel_without_rollback; each action's own policy
(check needs only a reader, the others a member)."""

from occli.localcloud.app import Response
from occli.localcloud.orchestration.api import common
from occli.localcloud.orchestration.api import stack_common as sc

ACTIONS = ("suspend", "resume", "check", "cancel_update", "cancel_without_rollback")
# heat/policies/actions.py: the actions a reader may take
READER_ACTIONS = ("check",)


def register(service):
    # heat enforces no policy on the controller, only on each action
    service.route("POST", sc.STACK + "/actions", stack_action, mode=None, role=None)


def stack_action(req):
    """Run the body's one action on the engine's threads (200, ``null``)."""
    body = req.json(required=False) or {}
    if not isinstance(body, dict):
        raise sc.bad_request("The request body must be a JSON object.")
    if len(body) < 1:
        raise sc.bad_request("No action specified")
    if len(body) > 1:
        raise sc.bad_request("Multiple actions specified")
    action = next(iter(body))
    if action not in ACTIONS:
        raise sc.bad_request("Invalid action %s specified" % action)
    ctx = req.context
    if action not in READER_ACTIONS and not (
        ctx.is_admin or req.cloud.orchestration.write_role in ctx.roles
    ):
        raise common.error(403, "You are not authorized to use %s." % action, "Forbidden")
    with req.cloud.store.read() as db:
        row = sc.identified_stack(req, db)
    req.cloud.orchestration.engine.stack_action(ctx, row["id"], action)
    return Response(200, raw="null")
