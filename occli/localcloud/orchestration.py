"""Heat v1 software configs and software deployments (SoftwareConfigService).

Mounted at ``/orchestration``; every API route lives under
``/v1/{project_id}/``. Behaviour follows heat's API controllers, engine and
DB layer (CONTRACT.md §4), quirks included:

* request bodies are unwrapped, responses wrapped;
* errors use heat's FaultWrapper body; ``ValueError``/``Invalid``/
  ``RequestLimitExceeded`` are 400 while exceptions heat does not map are
  500 — only the ones listed in :data:`HEAT_PARITY_500S`;
* string fields (``name``, ``group``, ``config_id``, ``server_id``,
  ``action``, ``status``, ``stack_user_project_id``) take text or a number
  (coerced like oslo's ``StringField``); anything else, or text with a lone
  surrogate, is a 400 (heat would fail in its database layer);
* a deployment stores ``status_reason`` as ``str(value)`` (``"None"`` when
  omitted) and has no ``updated_time`` until it is updated;
* ``stack_user_project_id`` must be the caller's project (admins: any), else
  403, so it never widens who sees a deployment or its server's metadata;
* ``GET`` of one IN_PROGRESS deployment whose config says
  ``deploy_signal_transport: TEMP_URL_SIGNAL`` polls the Swift object named
  by ``deploy_signal_id`` and applies it as a signal (:func:`apply_signal`).
  Heat reads it with the caller's own Swift credentials; here the object is
  read only if the deployment's project owns its account
  (:func:`owns_signal_account`) or the URL is a valid temp URL for it;
  any other object is treated exactly like a missing one;
* ``POST /validate`` parses YAML within heat's ``max_template_size``, also
  counting YAML aliases expanded, and bounds nesting and the response.
"""

import json
import re
import sys
from http import HTTPStatus
from urllib.parse import unquote, urlparse

import yaml

from occli.localcloud import common
from occli.localcloud.app import HTTPError, Response, Service

IN_PROGRESS, COMPLETE, FAILED = "IN_PROGRESS", "COMPLETE", "FAILED"
SIGNAL_OUTPUTS = ("deploy_stdout", "deploy_stderr", "deploy_status_code")
IO_TYPES = ("String", "Number", "CommaDelimitedList", "Json", "Boolean")

# heat's ``max_template_size``: the most characters a template may have,
# also applied to a YAML template with its aliases expanded.
MAX_TEMPLATE_SIZE = 524288
# deepest nesting of containers accepted in request bodies, signal data and
# templates (Python recursion in parsers and ``repr`` fails near 1000).
MAX_NESTING = 100
# largest ``POST /validate`` answer (a template of many parameters grows).
MAX_VALIDATE_RESPONSE = 2 * MAX_TEMPLATE_SIZE

# The 500s this API gives on purpose because heat gives them (its
# FaultWrapper does not map the exception); every other 500 is a bug.
# ``type`` is the ``error.type`` of the body, so a fuzzer can exempt
# exactly these.
HEAT_PARITY_500S = (
    {"method": "POST", "route": "/v1/{project_id}/software_configs",
     "type": "TypeError",
     "when": "inputs or outputs is not a list, or has a non-object member"},
    {"method": "DELETE",
     "route": "/v1/{project_id}/software_configs/{config_id}",
     "type": "InvalidRestrictedAction",
     "when": "a deployment still references the config"},
    {"method": "POST", "route": "/v1/{project_id}/software_deployments",
     "type": "DBError", "when": "server_id is missing or null"},
)

# webob's default explanation per status, as heat's FaultWrapper emits it.
_EXPLANATIONS = {
    400: "The server could not comply with the request since it is either "
         "malformed or otherwise incorrect.",
    403: "Access was denied to this resource.",
    404: "The resource could not be found.",
    405: "The method is not allowed for this resource.",
    413: "The request is larger than the server is willing or able to "
         "process.",
    500: "The server has either erred or is incapable of performing the "
         "requested operation.",
}
_DEFAULT_TYPES = {400: "HTTPBadRequest", 403: "HTTPForbidden",
                  404: "HTTPNotFound", 405: "HTTPMethodNotAllowed",
                  413: "HTTPRequestEntityTooLarge",
                  500: "HTTPInternalServerError"}
_TEMP_URL_PATH = re.compile(r"(?:^|/)v1/(AUTH_[^/]+)/([^/]+)/(.+)$")


def _now():
    return common.utcnow().timestamp()


def _isotime(ts):
    return common.iso_z(common.from_timestamp(ts))


def _error(status, message, type_):
    return HTTPError(status, message, extra={"type": type_})


def _loads(text):
    return None if text is None else json.loads(text)


def _dumps(value):
    return None if value is None else json.dumps(value)


def _string_field(value, field):
    """``value`` as heat stores a string column, or a 400.

    None stays None; numbers become text as oslo's ``StringField`` coerces
    them; objects and lists are refused, and so is text that cannot be
    stored as UTF-8 (a lone surrogate), instead of failing in the database.
    """
    if value is None:
        return None
    if isinstance(value, (int, float)):
        value = str(value)
    if not isinstance(value, str):
        raise _error(400, "A string is required in field %s, not a %s"
                     % (field, type(value).__name__), "ValueError")
    return _utf8_text(value, field)


def _utf8_text(text, field):
    """``text`` if it encodes to UTF-8, else a 400 naming ``field``."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise _error(400, "Field %s is not valid UTF-8 text" % field,
                     "ValueError") from None
    return text


def _reason_field(value):
    """``status_reason`` as heat stores it: ``str(value)``."""
    return _utf8_text(str(value), "status_reason")


def too_deep(value, limit=MAX_NESTING):
    """Whether JSON-like ``value`` nests more than ``limit`` containers.

    Iterative, so no recursion limit can be hit while checking.
    """
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, (list, tuple)):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


# ---------------------------------------------------------------------------
# software config input/output normalisation (heat/engine/software_config_io)

def _as_string(value):
    if isinstance(value, str):
        return value
    if isinstance(value, (bool, int)):
        return str(value)
    raise ValueError("Value must be a string; got %r" % (value,))


def _as_bool(value):
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower() == "true"
    raise ValueError('"%s" is not a valid boolean' % (value,))


def _as_number(value):
    if isinstance(value, (int, float)):
        return value
    if isinstance(value, str):
        try:
            return int(value)
        except ValueError:
            try:
                return float(value)
            except ValueError:
                pass
    raise ValueError('Value "%s" is invalid for data type "number".' % (value,))


def _as_list(value):
    if isinstance(value, str):
        return [v.strip() for v in value.split(",")] if value else []
    if isinstance(value, list):
        return value
    raise ValueError('"%s" is not a list' % (value,))


def _as_map(value):
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except (ValueError, RecursionError):
            pass
    if isinstance(value, dict):
        return value
    raise ValueError('"%s" is not a map' % (value,))


_CONVERTERS = {"String": _as_string, "Number": _as_number,
               "CommaDelimitedList": _as_list, "Json": _as_map,
               "Boolean": _as_bool}


def _io_type(value):
    value = _as_string(value)
    if value not in IO_TYPES:
        raise ValueError('"%s" is not an allowed value [%s]'
                         % (value, ", ".join(IO_TYPES)))
    return value


def _normalise_io(item, schema):
    """Validate one input/output definition against ``schema``.

    ``schema`` maps property name → converter, in output order. Null values
    count as absent; ``name`` is required; ``type`` defaults to String.
    """
    data = {k: v for k, v in item.items() if v is not None}
    for key in data:
        if key not in schema:
            raise ValueError("Property error: Unknown Property %s" % key)
    if "name" not in data:
        raise ValueError("Property error: Property name not assigned")
    result = {}
    for key, convert in schema.items():
        if key in data:
            try:
                result[key] = convert(data[key])
            except ValueError as exc:
                raise ValueError("Property error: %s: %s" % (key, exc)) from None
    result.setdefault("type", "String")
    return result


_INPUT_SCHEMA = {"name": _as_string, "description": _as_string,
                 "type": _io_type, "default": lambda v: v,
                 "replace_on_change": _as_bool}
_OUTPUT_SCHEMA = {"name": _as_string, "description": _as_string,
                  "type": _io_type, "error_output": _as_bool}


def _check_io_list(items):
    if not isinstance(items, list):
        raise TypeError("Software Config I/O Schema must be in a list")
    if not all(isinstance(i, dict) for i in items):
        raise TypeError("Software Config I/O Schema must be a dict")


def normalise_input(item):
    """One config input as heat stores it (``InputConfig.as_dict``)."""
    explicit_type = item.get("type") is not None
    result = _normalise_io(
        {k: v for k, v in item.items() if k != "value"}, _INPUT_SCHEMA)
    default = result.get("default")
    if explicit_type and "default" in result and not (
            default == "" and result["type"] != "String"):
        try:
            result["default"] = _CONVERTERS[result["type"]](default)
        except ValueError as exc:
            raise ValueError("Property error: default: %s" % exc) from None
    if not result.get("replace_on_change"):
        result.pop("replace_on_change", None)
    if "value" in item:
        result["value"] = item["value"]
    return result


def normalise_output(item):
    """One config output as heat stores it (``OutputConfig.as_dict``)."""
    result = _normalise_io(item, _OUTPUT_SCHEMA)
    result.setdefault("error_output", False)
    return result


def normalise_ios(inputs, outputs):
    """Check and normalise config inputs and outputs (``None`` → ``[]``).

    Raises TypeError for non-list / non-dict members and ValueError for
    invalid definitions, like heat's engine.
    """
    inputs, outputs = inputs or [], outputs or []
    _check_io_list(inputs)
    ins = [normalise_input(i) for i in inputs]
    _check_io_list(outputs)
    outs = [normalise_output(o) for o in outputs]
    return ins, outs


# ---------------------------------------------------------------------------
# signals

def apply_signal(deployment, config, details):
    """Heat's ``signal_software_deployment`` rules as a pure function.

    ``deployment`` has ``status`` and ``output_values``; ``config`` has
    ``outputs``; ``details`` is the JSON the in-server agent sent. Returns
    the changes (``status``, ``status_reason``, ``output_values``) to store,
    or ``{}`` when the deployment is not IN_PROGRESS (signal ignored).
    """
    if deployment.get("status") != IN_PROGRESS:
        return {}
    details = details or {}
    output_values = deployment.get("output_values")
    output_values = dict(output_values) if isinstance(
        output_values, dict) else {}
    status = None
    reasons = {}
    code = details.get("deploy_status_code")
    if code and str(code) != "0":
        status = FAILED
        reasons["deploy_status_code"] = (
            "Deployment exited with non-zero status code: %s" % code)
    for output in config.get("outputs") or []:
        key = output["name"]
        if key in details:
            output_values[key] = details[key]
            if output.get("error_output", False):
                status = FAILED
                reasons[key] = details[key]
    for key in SIGNAL_OUTPUTS:
        output_values[key] = details.get(key)
    if status == FAILED:
        reason = ", ".join("%s : %s" % (k, v) for k, v in reasons.items())
    else:
        status, reason = COMPLETE, "Outputs received"
    return {"status": status, "status_reason": reason,
            "output_values": output_values}


def parse_signal_url(url):
    """``(account, container, object)`` of a Swift temp URL, or ``None``.

    Accepts this cloud's ``…/object-store/v1/AUTH_<p>/<c>/<o>`` as well as
    the bare ``/v1/AUTH_<p>/<c>/<o>`` form.
    """
    if not isinstance(url, str):
        return None
    try:
        path = urlparse(url).path
    except ValueError:   # e.g. an unclosed "[" in the host
        return None
    m = _TEMP_URL_PATH.search(unquote(path))
    return m.groups() if m else None


def owns_signal_account(deployment_project, account):
    """Whether Swift ``account`` belongs to ``deployment_project``.

    Heat reads a signal object with the caller's own Swift credentials, so
    it only ever sees its own project's objects. Here a deployment reads an
    object of its own project's account, or one its URL is a valid temp URL
    for (as the in-server agent's PUT URL is); nothing else.
    """
    return account == "AUTH_" + deployment_project


def signal_details(body):
    """The agent's signal JSON (an object) from a Swift object body.

    Raises ValueError with heat's "Invalid signal data" text otherwise.
    """
    try:
        details = json.loads(bytes(body))
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise ValueError("Invalid signal data: %s" % exc) from None
    if not isinstance(details, dict):
        raise ValueError("Invalid signal data: not a JSON object")
    if too_deep(details):
        raise ValueError("Invalid signal data: nested more than %d levels"
                         % MAX_NESTING)
    return details


# ---------------------------------------------------------------------------
# the service

class OrchestrationService(Service):
    """Heat's software config API on ``/orchestration/v1/{project_id}``."""

    name = "orchestration"
    prefix = "/orchestration"
    max_software_configs_per_tenant = 4096
    max_software_deployments_per_tenant = 4096

    def __init__(self, cloud):
        super().__init__(cloud)
        base = "/v1/{project_id}"
        self.route("GET", "/", self.versions, auth=False)
        self.route("GET", base + "/software_configs", self.list_configs)
        self.route("POST", base + "/software_configs", self.create_config)
        self.route("GET", base + "/software_configs/{config_id}",
                   self.show_config)
        self.route("DELETE", base + "/software_configs/{config_id}",
                   self.delete_config)
        self.route("GET", base + "/software_deployments",
                   self.list_deployments)
        self.route("POST", base + "/software_deployments",
                   self.create_deployment)
        self.route("GET", base + "/software_deployments/metadata/{server_id}",
                   self.deployment_metadata)
        self.route("GET", base + "/software_deployments/{deployment_id}",
                   self.show_deployment)
        self.route("PUT", base + "/software_deployments/{deployment_id}",
                   self.update_deployment)
        self.route("DELETE", base + "/software_deployments/{deployment_id}",
                   self.delete_deployment)
        self.route("POST", base + "/validate", self.validate_template)

    def migrations(self):
        return ["""
            CREATE TABLE heat_software_configs (
                id TEXT PRIMARY KEY,
                project_id TEXT NOT NULL,
                name TEXT,
                grp TEXT,
                body TEXT NOT NULL,
                created_at REAL NOT NULL);
            CREATE INDEX heat_software_configs_project
                ON heat_software_configs (project_id, created_at);
            CREATE TABLE heat_software_deployments (
                id TEXT PRIMARY KEY,
                project_id TEXT NOT NULL,
                stack_user_project_id TEXT,
                server_id TEXT NOT NULL,
                config_id TEXT NOT NULL
                    REFERENCES heat_software_configs (id),
                input_values TEXT,
                output_values TEXT,
                action TEXT,
                status TEXT,
                status_reason TEXT,
                created_at REAL NOT NULL,
                updated_at REAL);
            CREATE INDEX heat_software_deployments_server
                ON heat_software_deployments (server_id, created_at);
            CREATE INDEX heat_software_deployments_config
                ON heat_software_deployments (config_id)
        """]

    # -- framework hooks ---------------------------------------------------

    def before(self, req):
        project_id = req.params.get("project_id")
        ctx = req.context
        if (project_id is not None and ctx is not None and not ctx.is_admin
                and ctx.project_id != project_id):
            raise _error(403, "Access was denied to this resource.",
                         "HTTPForbidden")

    def error_body(self, status, message, extra):
        title = _title(status)
        return {"code": status, "title": title,
                "explanation": _EXPLANATIONS.get(status, title),
                "error": {"type": extra.get("type") or _DEFAULT_TYPES.get(
                              status, "HTTPError"),
                          "traceback": None, "message": message}}

    # -- versions ----------------------------------------------------------

    def versions(self, req):
        href = req.base_url + self.prefix + "/v1/"
        return Response(300, {"versions": [{
            "id": "v1.0", "status": "CURRENT",
            "links": [{"rel": "self", "href": href}]}]})

    # -- software configs --------------------------------------------------

    def _config_row(self, req, config_id):
        row = req.db.execute("SELECT * FROM heat_software_configs WHERE id = ?",
                             (config_id,)).fetchone()
        if row is None or not (req.context.is_admin
                               or row["project_id"] == req.context.project_id):
            return None
        return row

    def _get_config(self, req, config_id):
        row = self._config_row(req, config_id)
        if row is None:
            raise _error(404, "Software config with id %s not found"
                         % config_id, "NotFound")
        return row

    @staticmethod
    def format_config(row, detail=True, include_project=False):
        """``format_software_config`` of a config row."""
        result = {"id": row["id"], "name": row["name"], "group": row["grp"],
                  "creation_time": _isotime(row["created_at"])}
        if detail:
            body = json.loads(row["body"])
            result.update(config=body["config"], inputs=body["inputs"],
                          outputs=body["outputs"], options=body["options"])
        if include_project:
            result["project"] = row["project_id"]
        return result

    def create_config(self, req):
        body = _json_object(req)
        name = _string_field(body.get("name"), "name")
        group = _string_field(body.get("group"), "group")
        try:
            inputs, outputs = normalise_ios(body.get("inputs"),
                                            body.get("outputs"))
        except ValueError as exc:
            raise _error(400, str(exc), "ValueError") from None
        except TypeError as exc:
            raise _error(500, str(exc), "TypeError") from None
        ctx = req.context
        if not ctx.is_admin:
            (count,) = req.db.execute(
                "SELECT COUNT(*) FROM heat_software_configs"
                " WHERE project_id = ?", (ctx.project_id,)).fetchone()
            if count >= self.max_software_configs_per_tenant:
                raise _error(
                    400, "Request limit exceeded: You have reached the "
                    "maximum software configs per tenant, %d. Please delete "
                    "some software configs."
                    % self.max_software_configs_per_tenant,
                    "RequestLimitExceeded")
        stored = {"config": body.get("config"), "inputs": inputs,
                  "outputs": outputs, "options": body.get("options") or {}}
        config_id = common.new_uuid()
        req.db.execute(
            "INSERT INTO heat_software_configs"
            " (id, project_id, name, grp, body, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (config_id, ctx.project_id, name, group, json.dumps(stored),
             _now()))
        return {"software_config": self.format_config(
            self._get_config(req, config_id))}

    def list_configs(self, req):
        limit = _non_negative_int(req.arg("limit"), "limit")
        marker = req.arg("marker")
        ctx = req.context
        where, args = [], []
        if not ctx.is_admin:
            where.append("project_id = ?")
            args.append(ctx.project_id)
        if marker:
            m = req.db.execute(
                "SELECT created_at, id FROM heat_software_configs"
                " WHERE id = ?", (marker,)).fetchone()
            if m is not None:
                where.append("(created_at < ? OR (created_at = ? AND id < ?))")
                args += [m["created_at"], m["created_at"], m["id"]]
        sql = "SELECT * FROM heat_software_configs"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY created_at DESC, id DESC"
        if limit is not None:
            sql += " LIMIT %d" % min(limit, sys.maxsize)
        rows = req.db.execute(sql, args).fetchall()
        return {"software_configs": [
            self.format_config(r, detail=False, include_project=ctx.is_admin)
            for r in rows]}

    def show_config(self, req):
        return {"software_config": self.format_config(
            self._get_config(req, req.params["config_id"]))}

    def delete_config(self, req):
        config_id = req.params["config_id"]
        self._get_config(req, config_id)
        used = req.db.execute(
            "SELECT 1 FROM heat_software_deployments WHERE config_id = ?"
            " LIMIT 1", (config_id,)).fetchone()
        if used:
            raise _error(500, "Software config with id %s can not be deleted "
                         "as it is referenced." % config_id,
                         "InvalidRestrictedAction")
        req.db.execute("DELETE FROM heat_software_configs WHERE id = ?",
                       (config_id,))
        return Response(204)

    # -- template validation -----------------------------------------------

    def validate_template(self, req):
        """``POST /validate``: heat's template validation (200 or 400)."""
        body = _json_object(req)
        template = body.get("template")
        if template is None:
            raise _error(400, "No template specified", "HTTPBadRequest")
        try:
            template = (parse_template(template) if isinstance(template, str)
                        else check_template_size(template))
            payload = json.dumps(validate_template(template))
            check_validate_response(payload)
        except TemplateLimitExceeded as exc:
            raise _error(400, str(exc), "RequestLimitExceeded") from None
        except ValueError as exc:
            raise _error(400, str(exc), "HTTPBadRequest") from None
        return Response(200, raw=payload)

    # -- software deployments ----------------------------------------------

    @staticmethod
    def format_deployment(row):
        """``format_software_deployment`` of a deployment row."""
        result = {"id": row["id"], "server_id": row["server_id"],
                  "input_values": _loads(row["input_values"]),
                  "output_values": _loads(row["output_values"]),
                  "action": row["action"], "status": row["status"],
                  "status_reason": row["status_reason"],
                  "config_id": row["config_id"],
                  "creation_time": _isotime(row["created_at"])}
        if row["updated_at"] is not None:
            result["updated_time"] = _isotime(row["updated_at"])
        return result

    @staticmethod
    def _visible(ctx, alias="d"):
        if ctx.is_admin:
            return "1 = 1", []
        return ("(%s.project_id = ? OR %s.stack_user_project_id = ?)"
                % (alias, alias), [ctx.project_id, ctx.project_id])

    def _get_deployment(self, req, deployment_id):
        cond, args = self._visible(req.context)
        row = req.db.execute(
            "SELECT * FROM heat_software_deployments d WHERE d.id = ? AND "
            + cond, [deployment_id] + args).fetchone()
        if row is None:
            raise _error(404, "Deployment with id %s not found"
                         % deployment_id, "NotFound")
        return row

    def _check_config_ref(self, req, config_id):
        if config_id is None or self._config_row(req, config_id) is None:
            raise _error(400, "Config with id %s not found" % config_id,
                         "Invalid")

    def create_deployment(self, req):
        body = _json_object(req)
        ctx = req.context
        fields = {key: _string_field(body.get(key), key) for key in (
            "config_id", "server_id", "action", "status",
            "stack_user_project_id")}
        config_id, server_id = fields["config_id"], fields["server_id"]
        supid = fields["stack_user_project_id"]
        status_reason = _reason_field(body.get("status_reason"))
        self._check_config_ref(req, config_id)
        _check_stack_user_project(ctx, supid)
        if server_id is None:
            raise _error(500, "NOT NULL constraint failed: "
                         "software_deployment.server_id", "DBError")
        if not ctx.is_admin:
            (count,) = req.db.execute(
                "SELECT COUNT(*) FROM heat_software_deployments"
                " WHERE project_id = ?", (ctx.project_id,)).fetchone()
            if count >= self.max_software_deployments_per_tenant:
                raise _error(
                    400, "Request limit exceeded: You have reached the "
                    "maximum software deployments per tenant, %d. Please "
                    "delete some software deployments."
                    % self.max_software_deployments_per_tenant,
                    "RequestLimitExceeded")
        deployment_id = common.new_uuid()
        req.db.execute(
            "INSERT INTO heat_software_deployments (id, project_id,"
            " stack_user_project_id, server_id, config_id, input_values,"
            " output_values, action, status, status_reason, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?)",
            (deployment_id, ctx.project_id, supid, server_id, config_id,
             _dumps(body.get("input_values")), fields["action"],
             fields["status"], status_reason, _now()))
        return {"software_deployment": self.format_deployment(
            self._get_deployment(req, deployment_id))}

    def list_deployments(self, req):
        cond, args = self._visible(req.context)
        server_id = req.arg("server_id")
        if server_id:
            cond += " AND d.server_id = ?"
            args.append(server_id)
        rows = req.db.execute(
            "SELECT * FROM heat_software_deployments d WHERE " + cond
            + " ORDER BY d.created_at, d.rowid", args).fetchall()
        return {"software_deployments": [self.format_deployment(r)
                                         for r in rows]}

    def show_deployment(self, req):
        row = self._get_deployment(req, req.params["deployment_id"])
        if row["status"] == IN_PROGRESS:
            row = self._poll_signal(req, row)
        return {"software_deployment": self.format_deployment(row)}

    def update_deployment(self, req):
        deployment_id = req.params["deployment_id"]
        self._get_deployment(req, deployment_id)
        body = _json_object(req)
        changes = _deployment_changes(body)
        if "config_id" in changes:
            self._check_config_ref(req, changes["config_id"])
        self._update(req.db, deployment_id, changes, _now())
        return {"software_deployment": self.format_deployment(
            self._get_deployment(req, deployment_id))}

    def delete_deployment(self, req):
        deployment_id = req.params["deployment_id"]
        self._get_deployment(req, deployment_id)
        req.db.execute("DELETE FROM heat_software_deployments WHERE id = ?",
                       (deployment_id,))
        return Response(204)

    def deployment_metadata(self, req):
        cond, args = self._visible(req.context)
        rows = req.db.execute(
            "SELECT c.* FROM heat_software_deployments d"
            " JOIN heat_software_configs c ON c.id = d.config_id"
            " WHERE d.server_id = ? AND " + cond
            + " ORDER BY d.created_at, d.rowid",
            [req.params["server_id"]] + args).fetchall()
        rows = sorted(rows, key=lambda r: r["name"] or "")
        return {"metadata": [self.format_config(r) for r in rows]}

    @staticmethod
    def _update(db, deployment_id, changes, updated_at):
        sql, values = _set_clause(changes, updated_at)
        db.execute("UPDATE heat_software_deployments SET " + sql
                   + " WHERE id = ?", values + [deployment_id])

    def _poll_signal(self, req, row):
        """Apply a TEMP_URL_SIGNAL object newer than the deployment.

        "Newer" compares the object's exact timestamp with ``updated_at``, or
        ``created_at`` if never updated (heat applies any object then). Like
        heat, the deployment's ``updated_at`` becomes the object's time, so
        the same object is never applied twice. Only an object the
        deployment may read is looked at (:meth:`_signal_location`); for any
        other the answer is the same as for a missing object.
        """
        config = json.loads(req.db.execute(
            "SELECT body FROM heat_software_configs WHERE id = ?",
            (row["config_id"],)).fetchone()["body"])
        location = self._signal_location(req.db, row, config)
        if location is None:
            return row
        obj = self.cloud.objectstore.read_object(req.db, *location)
        since = row["updated_at"] or row["created_at"]
        if obj is None or not obj["body"] or obj["timestamp"] <= since:
            return row
        try:
            details = signal_details(obj["body"])
        except ValueError as exc:
            raise _error(400, str(exc), "ValueError") from None
        deployment = {"status": row["status"],
                      "output_values": _loads(row["output_values"])}
        changes = apply_signal(deployment, config, details)
        if not changes:
            return row
        fresh = write_signal(req.cloud.store, row, changes, obj["timestamp"])
        if fresh is None:
            raise _error(404, "Deployment with id %s not found" % row["id"],
                         "NotFound")
        return fresh

    def _signal_location(self, db, row, config):
        """``(account, container, object)`` of the signal object deployment
        ``row`` polls, or None: not TEMP_URL_SIGNAL, no object store, or an
        object of another project without a valid temp URL for it."""
        values = {i.get("name"): i.get("value") for i in config["inputs"]}
        if (values.get("deploy_signal_transport") != "TEMP_URL_SIGNAL"
                or self.cloud.objectstore is None):
            return None
        url = values.get("deploy_signal_id")
        location = parse_signal_url(url)
        if location is not None and owns_signal_account(
                row["project_id"], location[0]):
            return location
        return self.cloud.objectstore.signed_object(db, url)


def _set_clause(changes, updated_at):
    """``SET`` SQL and values for deployment ``changes`` + ``updated_at``."""
    cols = dict(changes)
    for key in ("input_values", "output_values"):
        if key in cols:
            cols[key] = _dumps(cols[key])
    cols["updated_at"] = updated_at
    return ", ".join("%s = ?" % k for k in cols), list(cols.values())


def write_signal(store, row, changes, timestamp):
    """Store a polled signal's ``changes`` in a short write transaction.

    ``GET`` runs in a read-only transaction, so the poll writes through one
    of its own, and only if deployment ``row`` is still as it was read
    (IN_PROGRESS, same ``updated_at``): of concurrent polls one applies the
    signal and the others get its result, so it is never applied twice; an
    update in between wins and the object, still newer, is there for the
    next poll. Returns the row as stored (None if it was deleted).
    """
    sql, values = _set_clause(changes, timestamp)
    with store.transaction() as db:
        db.execute("UPDATE heat_software_deployments SET " + sql
                   + " WHERE id = ? AND status = ? AND updated_at IS ?",
                   values + [row["id"], IN_PROGRESS, row["updated_at"]])
        return db.execute(
            "SELECT * FROM heat_software_deployments WHERE id = ?",
            (row["id"],)).fetchone()


# ---------------------------------------------------------------------------
# template validation (POST /v1/{p}/validate), just enough for clients that
# validate a one-resource template before creating a software config
# (heatclient's ``software config create`` does)

_HOT_SECTIONS = ("heat_template_version", "description", "parameter_groups",
                 "parameters", "resources", "outputs", "conditions")
_SOFTWARE_CONFIG_PROPERTIES = {"group": str, "config": str, "options": dict,
                               "inputs": list, "outputs": list}
_EMPTY_ENVIRONMENT = {"parameters": {}, "resource_registry": {"resources": {}},
                      "parameter_defaults": {}, "encrypted_param_names": [],
                      "event_sinks": []}


class TemplateLimitExceeded(ValueError):
    """A template over a size or nesting bound (heat's
    ``RequestLimitExceeded``, a 400)."""

    def __init__(self, message):
        super().__init__("Request limit exceeded: " + message)


def _size_exceeded(actual_len):
    return TemplateLimitExceeded(
        "Template size (%s bytes) exceeds maximum allowed size (%s bytes)."
        % (actual_len, MAX_TEMPLATE_SIZE))


def _nesting_exceeded():
    return TemplateLimitExceeded(
        "Template nesting depth exceeds maximum allowed depth (%d)."
        % MAX_NESTING)


def check_template_size(template):
    """A template given as an object, checked as heat checks it
    (``len(str(template))``) after a nesting check that makes ``str`` safe.
    """
    if too_deep(template):
        raise _nesting_exceeded()
    size = len(str(template))
    if size > MAX_TEMPLATE_SIZE:
        raise _size_exceeded(size)
    return template


def check_validate_response(payload):
    """Refuse a validation answer larger than MAX_VALIDATE_RESPONSE."""
    if len(payload) > MAX_VALIDATE_RESPONSE:
        raise TemplateLimitExceeded(
            "Template validation result (%d bytes) exceeds maximum allowed "
            "size (%d bytes)." % (len(payload), MAX_VALIDATE_RESPONSE))


class _TemplateLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
    """heat's ``template_format.yaml_loader``: safe, timestamps as text."""

    def _text(self, node):
        return self.construct_scalar(node)

    def _unsupported(self, node):
        raise yaml.constructor.ConstructorError(
            None, None, "%s is not supported in a template" % node.tag,
            node.start_mark)


_TemplateLoader.add_constructor("tag:yaml.org,2002:timestamp",
                                _TemplateLoader._text)
for _tag in ("binary", "set"):
    _TemplateLoader.add_constructor("tag:yaml.org,2002:" + _tag,
                                    _TemplateLoader._unsupported)


def parse_template(text):
    """heat's ``template_format.parse`` of template text, bounded.

    Refuses text over MAX_TEMPLATE_SIZE, then tries JSON and YAML like heat.
    Before building anything from YAML, :func:`_check_yaml_events` refuses
    aliases that expand past MAX_TEMPLATE_SIZE (an alias bomb), recursive
    aliases and nesting deeper than MAX_NESTING, so parsing is bounded in
    time and memory. Raises TemplateLimitExceeded or ValueError.
    """
    if len(text) > MAX_TEMPLATE_SIZE:
        raise _size_exceeded(len(text))
    try:
        template = json.loads(text)
    except RecursionError:
        raise _nesting_exceeded() from None
    except ValueError:
        return _load_yaml(text)
    if too_deep(template):
        raise _nesting_exceeded()
    return template


def _load_yaml(text):
    try:
        _check_yaml_events(text)
        loader = _TemplateLoader(text)
        try:
            return loader.get_single_data()
        finally:
            loader.dispose()
    except TemplateLimitExceeded:
        raise
    except (yaml.YAMLError, ValueError) as exc:
        # ValueError: a lone surrogate, an int of over 4300 digits, …
        raise ValueError("Error parsing template: %s" % exc) from None


def _check_yaml_events(text):
    """Bound YAML ``text`` using only the parser's event stream.

    The expanded size counts each scalar as its length + 1 and each
    collection as 1, and an alias as the whole expanded size of its anchor,
    which is what building and serialising the document costs.
    """
    sizes, open_anchors, starts, total = {}, set(), [], 0
    for event in yaml.parse(text, Loader=_TemplateLoader):
        if isinstance(event, yaml.AliasEvent):
            if event.anchor in open_anchors:
                raise ValueError("found recursive alias *%s" % event.anchor)
            total += sizes.get(event.anchor, 0)
        elif isinstance(event, yaml.ScalarEvent):
            total += len(event.value) + 1
            if event.anchor:
                sizes[event.anchor] = len(event.value) + 1
        elif isinstance(event, yaml.CollectionStartEvent):
            starts.append((event.anchor, total))
            total += 1
            if event.anchor:
                open_anchors.add(event.anchor)
            if len(starts) > MAX_NESTING:
                raise _nesting_exceeded()
        elif isinstance(event, yaml.CollectionEndEvent):
            anchor, start = starts.pop()
            open_anchors.discard(anchor)
            if anchor:
                sizes[anchor] = total - start
        if total > MAX_TEMPLATE_SIZE:
            raise TemplateLimitExceeded(
                "Template size with YAML aliases expanded exceeds maximum "
                "allowed size (%s bytes)." % MAX_TEMPLATE_SIZE)


def validate_template(template):
    """heat's ``validate_template`` result for a HOT template (a mapping).

    Raises ValueError with heat's message for what it would reject. Only
    ``OS::Heat::SoftwareConfig`` properties are checked; other resource
    types are taken as they are (this cloud has no stacks).
    """
    if not isinstance(template, dict) or \
            "heat_template_version" not in template:
        raise ValueError("The template version is invalid: Template format "
                         "version not found.")
    for key in template:
        if key not in _HOT_SECTIONS:
            raise ValueError("The template section is invalid: %s" % key)
    resources = template.get("resources") or {}
    if not isinstance(resources, dict):
        raise ValueError('"resources" must be a map')
    for name, res in resources.items():
        if not isinstance(res, dict) or not isinstance(res.get("type"), str):
            raise ValueError('Resource %s is missing "type"' % name)
        props = res.get("properties") or {}
        if not isinstance(props, dict):
            raise ValueError("Resource %s properties type must be Map" % name)
        if res["type"] != "OS::Heat::SoftwareConfig":
            continue
        for key, value in props.items():
            kind = _SOFTWARE_CONFIG_PROPERTIES.get(key)
            if kind is None:
                raise ValueError("Property error: resources.%s.properties: "
                                 "Unknown Property %s" % (name, key))
            if value is not None and not isinstance(value, kind):
                raise ValueError("Property error: resources.%s.properties.%s:"
                                 " Value must be a %s" % (
                                     name, key, {str: "string", dict: "map",
                                                 list: "list"}[kind]))
    params = {}
    parameters = template.get("parameters") or {}
    if not isinstance(parameters, dict):
        raise ValueError('"parameters" must be a map')
    for pname, schema in parameters.items():
        schema = schema if isinstance(schema, dict) else {}
        param = {"Type": schema.get("type", "String"),
                 "Description": schema.get("description", ""),
                 "NoEcho": "true" if schema.get("hidden") else "false",
                 "Label": schema.get("label", pname)}
        if "default" in schema:
            param["Default"] = schema["default"]
        params[pname] = param
    result = {"Description": template.get("description", "No description"),
              "Parameters": params}
    if template.get("parameter_groups"):
        result["ParameterGroups"] = template["parameter_groups"]
    result["Environment"] = json.loads(json.dumps(_EMPTY_ENVIRONMENT))
    return result


def _title(status):
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Error"


def _json_object(req):
    body = req.json()
    if not isinstance(body, dict):
        raise _error(400, "The request body must be a JSON object.",
                     "HTTPBadRequest")
    if too_deep(body):
        raise _error(400, "The request body is nested more than %d levels "
                     "deep." % MAX_NESTING, "HTTPBadRequest")
    return body


def _check_stack_user_project(ctx, supid):
    """``stack_user_project_id`` rules: heat's 64-character bound, and
    (local cloud) only the caller's own project unless the caller is an
    admin, so a member cannot make a deployment — and the configs it puts
    in a server's metadata — visible to another project."""
    if supid is None:
        return
    if len(supid) > 64:
        raise _error(400, "stack_user_project_id must be at most 64 "
                     "characters long", "Invalid")
    if not ctx.is_admin and supid != ctx.project_id:
        raise _error(403, "stack_user_project_id must be the project of the "
                     "request's token", "Forbidden")


def _deployment_changes(body):
    """The members of a deployment ``PUT`` heat applies: non-null, truthy
    ones (heat's API and engine both skip the others), string fields
    checked and ``status_reason`` as ``str``."""
    changes = {k: body[k] for k in (
        "config_id", "input_values", "output_values", "action", "status",
        "status_reason") if body.get(k)}
    for key in ("config_id", "action", "status"):
        if key in changes:
            changes[key] = _string_field(changes[key], key)
    if "status_reason" in changes:
        changes["status_reason"] = _reason_field(changes["status_reason"])
    return changes


def _non_negative_int(value, name):
    if value is None:
        return None
    try:
        result = int(value)
    except ValueError:
        raise _error(400, "Only integer is acceptable by '%s'." % name,
                     "ValueError") from None
    if result < 0:
        raise _error(400, "Only non-negative integer is acceptable by '%s'."
                     % name, "ValueError")
    return result
