"""``OrchestrationService``: heat's framing around the resource modules.

The project check (``before``), heat's FaultWrapper error body
(``error_body``: ``error.type`` from a domain error's ``type``), its 403s
(``policy_denied``), ``POST /validate`` as a slow route, the per-project
limits the resource modules read and the tables (``migrations``).
"""

from occli.localcloud import common
from occli.localcloud.app import HTTPError
from occli.localcloud.app import Service
from occli.localcloud.orchestration import migrations
from occli.localcloud.orchestration.api import actions
from occli.localcloud.orchestration.api import build_info
from occli.localcloud.orchestration.api import events
from occli.localcloud.orchestration.api import resource_types
from occli.localcloud.orchestration.api import software_configs
from occli.localcloud.orchestration.api import software_deployments
from occli.localcloud.orchestration.api import stack_resources
from occli.localcloud.orchestration.api import stacks
from occli.localcloud.orchestration.api import validate
from occli.localcloud.orchestration.api import versions
from occli.localcloud.orchestration.api.common import MAX_JSON_BODY_SIZE
from occli.localcloud.orchestration.api.common import check_json_body_size
from occli.localcloud.orchestration.api.common import error
from occli.localcloud.orchestration.engine.service import EngineService

# The API modules, each with register(service), in route order.
RESOURCES = (
    versions,
    software_configs,
    software_deployments,
    validate,
    resource_types,
    stacks,
    stack_resources,
    events,
    actions,
    build_info,
)

# The 500s this API gives on purpose because heat gives them (its
# FaultWrapper does not map the exception: ``fields.Unmapped``); every
# other 500 is a bug. ``type`` is the ``error.type`` of the body, so a
# fuzzer can exempt exactly these.
HEAT_PARITY_500S = (
    {
        "method": "POST",
        "route": "/v1/{project_id}/software_configs",
        "type": "TypeError",
        "when": "inputs or outputs is not a list, or has a non-object member",
    },
    {
        "method": "DELETE",
        "route": "/v1/{project_id}/software_configs/{config_id}",
        "type": "InvalidRestrictedAction",
        "when": "a deployment still references the config",
    },
    {
        "method": "POST",
        "route": "/v1/{project_id}/software_deployments",
        "type": "DBError",
        "when": "server_id is missing or null",
    },
)

# webob's default explanation per status, as heat's FaultWrapper emits it.
_EXPLANATIONS = {
    400: "The server could not comply with the request since it is either "
    "malformed or otherwise incorrect.",
    403: "Access was denied to this resource.",
    404: "The resource could not be found.",
    405: "The method is not allowed for this resource.",
    413: "The request is larger than the server is willing or able to process.",
    500: "The server has either erred or is incapable of performing the requested operation.",
}
_DEFAULT_TYPES = {
    400: "HTTPBadRequest",
    403: "HTTPForbidden",
    404: "HTTPNotFound",
    405: "HTTPMethodNotAllowed",
    413: "HTTPRequestEntityTooLarge",
    500: "HTTPInternalServerError",
}


# heat's controller action of each write method (named in its 403)
_ACTIONS = {"POST": "create", "PUT": "update", "DELETE": "delete"}
# the routes whose heat action is not their method's: {(method, pattern): action}
_POLICY_ACTIONS = {
    key: action
    for module in RESOURCES
    for key, action in getattr(module, "POLICY_ACTIONS", {}).items()
}


class OrchestrationService(Service):
    """Heat's software config API on ``/orchestration/v1/{project_id}``."""

    name = "orchestration"
    prefix = "/orchestration"
    write_role = "member"
    max_software_configs_per_tenant = 4096
    max_software_deployments_per_tenant = 4096

    def __init__(self, cloud):
        super().__init__(cloud)
        self.engine = EngineService(cloud)
        self.add_resources(RESOURCES)
        self._validate_route = next(
            r for r in self.routes if r.handler is validate.validate_template
        )

    def migrations(self):
        return list(migrations.COMPONENTS)

    def seed(self, db):
        """A cloud starting: the stacks a stopped engine was running failed."""
        self.engine.recover(db)

    def close(self):
        """Stop the engine's threads (the cloud is closing)."""
        self.engine.stop()

    # -- framework hooks ---------------------------------------------------

    @property
    def max_body(self):
        """Past Heat's ``max_json_body_size`` a body is Heat's 400
        (:meth:`before`, unread); only far past it the framework's 413."""
        return 16 * MAX_JSON_BODY_SIZE

    def before(self, req):
        check_json_body_size(req)
        project_id = req.params.get("project_id")
        ctx = req.context
        if (
            project_id is not None
            and ctx is not None
            and not ctx.is_admin
            and ctx.project_id != project_id
        ):
            raise error(403, "Access was denied to this resource.", "HTTPForbidden")

    def slow_request(self, method, path):
        """``POST /validate`` is a slow route (``Service.slow_request``)."""
        sub = path[len(self.prefix) :] if path.startswith(self.prefix + "/") else None
        return method == "POST" and sub is not None and bool(self._validate_route.regex.match(sub))

    def policy_denied(self, req, route):
        """Heat's 403 naming the controller action the caller may not use."""
        action = _POLICY_ACTIONS.get((route.method, route.pattern)) or (
            "validate_template" if route.pattern.endswith("/validate") else _ACTIONS[route.method]
        )
        return HTTPError(
            403, "You are not authorized to use %s." % action, extra={"type": "Forbidden"}
        )

    def error_body(self, status, message, extra):
        """Heat's fault body; a ``None`` message is left out, as Heat's
        FaultWrapper leaves out the text of an exception it deems unsafe
        (``AttributeError`` …)."""
        title = common.reason(status)
        error = {
            "type": extra.get("type") or _DEFAULT_TYPES.get(status, "HTTPError"),
            "traceback": None,
        }
        if message is not None:
            error["message"] = message
        return {
            "code": status,
            "title": title,
            "explanation": _EXPLANATIONS.get(status, title),
            "error": error,
        }
