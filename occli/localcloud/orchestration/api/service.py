"""Heat v1's HTTP edge for software configs and deployments.

Routes under ``/orchestration/v1/{project_id}/``, request bodies unwrapped
and checked, responses wrapped (``format_*``), heat's FaultWrapper error
body and the version document. Handlers read the request, call the rules
(:mod:`.configs`, :mod:`.deployments`, :mod:`.signals`, :mod:`.templates`)
and render what they return; the rules' domain errors become heat errors
whose ``error.type`` is the error's ``type``.
"""

import json

from occli.localcloud import common
from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.app import Service
from occli.localcloud.orchestration import configs
from occli.localcloud.orchestration import deployments
from occli.localcloud.orchestration import fields
from occli.localcloud.orchestration import migrations
from occli.localcloud.orchestration import signals
from occli.localcloud.orchestration import templates
from occli.localcloud.orchestration.fields import IN_PROGRESS

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


def _error(status, message, type_):
    return HTTPError(status, message, extra={"type": type_})


def _isotime(ts):
    return common.iso_z(common.from_timestamp(ts))


def _json_object(req):
    """The request body: a JSON object (``req.json`` already refuses one
    nested deeper than ``app.MAX_JSON_DEPTH``)."""
    body = req.json()
    if not isinstance(body, dict):
        raise _error(400, "The request body must be a JSON object.", "HTTPBadRequest")
    return body


def _non_negative_int(value, name):
    if value is None:
        return None
    try:
        result = int(value)
    except ValueError:
        raise _error(400, "Only integer is acceptable by '%s'." % name, "ValueError") from None
    if result < 0:
        raise _error(400, "Only non-negative integer is acceptable by '%s'." % name, "ValueError")
    return result


# heat's controller action of each write method (named in its 403)
_ACTIONS = {"POST": "create", "PUT": "update", "DELETE": "delete"}


class OrchestrationService(Service):
    """Heat's software config API on ``/orchestration/v1/{project_id}``."""

    name = "orchestration"
    prefix = "/orchestration"
    write_role = "member"
    max_software_configs_per_tenant = 4096
    max_software_deployments_per_tenant = 4096

    def __init__(self, cloud):
        super().__init__(cloud)
        base = "/v1/{project_id}"
        sc, sd = base + "/software_configs", base + "/software_deployments"
        self.route("GET", "/", self.versions, auth=False)
        self.route("GET", sc, self.list_configs)
        self.route("POST", sc, self.create_config)
        self.route("GET", sc + "/{config_id}", self.show_config)
        self.route("DELETE", sc + "/{config_id}", self.delete_config)
        self.route("GET", sd, self.list_deployments)
        self.route("POST", sd, self.create_deployment)
        self.route("GET", sd + "/metadata/{server_id}", self.deployment_metadata)
        self.route("GET", sd + "/{deployment_id}", self.show_deployment)
        self.route("PUT", sd + "/{deployment_id}", self.update_deployment)
        self.route("DELETE", sd + "/{deployment_id}", self.delete_deployment)
        # stores nothing: no write lock (a 512 KB template parses for ~1 s)
        self.route("POST", base + "/validate", self.validate_template, mode=None)
        self._validate_route = self.routes[-1]

    def migrations(self):
        return list(migrations.COMPONENTS)

    # -- framework hooks ---------------------------------------------------

    def before(self, req):
        project_id = req.params.get("project_id")
        ctx = req.context
        if (
            project_id is not None
            and ctx is not None
            and not ctx.is_admin
            and ctx.project_id != project_id
        ):
            raise _error(403, "Access was denied to this resource.", "HTTPForbidden")

    def slow_request(self, method, path):
        """``POST /validate`` is a slow route (``Service.slow_request``)."""
        sub = path[len(self.prefix) :] if path.startswith(self.prefix + "/") else None
        return method == "POST" and sub is not None and bool(self._validate_route.regex.match(sub))

    def policy_denied(self, req, route):
        """Heat's 403 naming the controller action the caller may not use."""
        action = (
            "validate_template" if route.pattern.endswith("/validate") else _ACTIONS[route.method]
        )
        return HTTPError(
            403, "You are not authorized to use %s." % action, extra={"type": "Forbidden"}
        )

    def error_body(self, status, message, extra):
        title = common.reason(status)
        return {
            "code": status,
            "title": title,
            "explanation": _EXPLANATIONS.get(status, title),
            "error": {
                "type": extra.get("type") or _DEFAULT_TYPES.get(status, "HTTPError"),
                "traceback": None,
                "message": message,
            },
        }

    def versions(self, req):
        href = req.base_url + self.prefix + "/v1/"
        return Response(
            300,
            {
                "versions": [
                    {"id": "v1.0", "status": "CURRENT", "links": [{"rel": "self", "href": href}]}
                ]
            },
        )

    # -- views -------------------------------------------------------------

    @staticmethod
    def format_config(row, detail=True, include_project=False):
        """``format_software_config`` of a config row."""
        result = {
            "id": row["id"],
            "name": row["name"],
            "group": row["grp"],
            "creation_time": _isotime(row["created_at"]),
        }
        if detail:
            body = json.loads(row["body"])
            result.update(
                config=body["config"],
                inputs=body["inputs"],
                outputs=body["outputs"],
                options=body["options"],
            )
        if include_project:
            result["project"] = row["project_id"]
        return result

    @staticmethod
    def format_deployment(row):
        """``format_software_deployment`` of a deployment row."""
        result = {
            "id": row["id"],
            "server_id": row["server_id"],
            "input_values": fields.loads(row["input_values"]),
            "output_values": fields.loads(row["output_values"]),
            "action": row["action"],
            "status": row["status"],
            "status_reason": row["status_reason"],
            "config_id": row["config_id"],
            "creation_time": _isotime(row["created_at"]),
        }
        if row["updated_at"] is not None:
            result["updated_time"] = _isotime(row["updated_at"])
        return result

    # -- software configs --------------------------------------------------

    def create_config(self, req):
        body = _json_object(req)
        row = configs.create(
            req.db,
            req.context,
            body.get("name"),
            body.get("group"),
            body.get("config"),
            body.get("inputs"),
            body.get("outputs"),
            body.get("options"),
            limit=self.max_software_configs_per_tenant,
        )
        return {"software_config": self.format_config(row)}

    def list_configs(self, req):
        limit = _non_negative_int(req.arg("limit"), "limit")
        rows = configs.page(req.db, req.context, limit, req.arg("marker"))
        return {
            "software_configs": [
                self.format_config(r, detail=False, include_project=req.context.is_admin)
                for r in rows
            ]
        }

    def show_config(self, req):
        return {
            "software_config": self.format_config(
                configs.get(req.db, req.context, req.params["config_id"])
            )
        }

    def delete_config(self, req):
        configs.delete(req.db, req.context, req.params["config_id"])
        return Response(204)

    def validate_template(self, req):
        """``POST /validate``: heat's template validation (200 or 400).

        A ``mode=None`` route: auth and policy in a short read, the parsing
        outside any transaction (``req.db`` is None), so a flood of large
        templates never holds the write lock other projects' writes wait for;
        and in the engine process (``templates.validate_apart``), so it never
        holds this process's GIL either; a slow route (own threads).
        """
        template = _json_object(req).get("template")
        if template is None:
            raise _error(400, "No template specified", "HTTPBadRequest")
        return Response(200, raw=templates.validate_apart(template))

    # -- software deployments ----------------------------------------------

    def create_deployment(self, req):
        row = deployments.create(
            req.db, req.context, _json_object(req), limit=self.max_software_deployments_per_tenant
        )
        return {"software_deployment": self.format_deployment(row)}

    def list_deployments(self, req):
        rows = deployments.select(req.db, req.context, req.arg("server_id"))
        return {"software_deployments": [self.format_deployment(r) for r in rows]}

    def show_deployment(self, req):
        row = deployments.get(req.db, req.context, req.params["deployment_id"])
        if row["status"] == IN_PROGRESS:
            row = signals.poll(req.db, self.cloud.store, row, self.cloud.objectstore)
        return {"software_deployment": self.format_deployment(row)}

    def update_deployment(self, req):
        deployment_id = req.params["deployment_id"]
        deployments.get(req.db, req.context, deployment_id)  # 404 first
        row = deployments.update(req.db, req.context, deployment_id, _json_object(req))
        return {"software_deployment": self.format_deployment(row)}

    def delete_deployment(self, req):
        deployments.delete(req.db, req.context, req.params["deployment_id"])
        return Response(204)

    def deployment_metadata(self, req):
        rows = deployments.server_configs(req.db, req.context, req.params["server_id"])
        return {"metadata": [self.format_config(r) for r in rows]}
