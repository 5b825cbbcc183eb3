"""``OS::Heat::SoftwareDeployment`` (Heat's
``openstack/heat/software_deployment.py``, its signal transports from
``resources/signal_responder.py`` and the metadata push of
``service_software_config.py``).

Each action in ``actions`` makes a *derived config* (the config's inputs
with ``input_values`` and the ``deploy_*`` inputs the in-server agent
reads) and creates or updates the deployment, all through the
orchestration API in process, so ``software deployment list/show`` sees
them; then the resource waits for the deployment to become COMPLETE
(``Deployment to server failed: <reason>`` when FAILED).

Signal transports the local cloud serves: ``TEMP_URL_SIGNAL`` (a Swift
PUT temp URL in the stack's container, polled when the deployment is
read), ``HEAT_SIGNAL`` (``POST …/resources/{name}/signal``) and
``NO_SIGNAL``; the default is the cloud's
``Config.heat_default_deployment_signal_transport`` (``TEMP_URL_SIGNAL``),
as an operator sets Heat's ``default_deployment_signal_transport``.
``CFN_SIGNAL`` and ``ZAQAR_SIGNAL`` fail as Heat fails without heat-api-cfn
or Zaqar in the catalog. ``HEAT_SIGNAL``'s ``deploy_*`` credentials carry
no secret: Heat makes a stack-domain user; this cloud has no stack domain
and hands over no password (``deploy_password`` and ``deploy_user_id`` are
null), so the signal comes from the simulated agent (:mod:`..agent`) or
from someone with the project's own credentials
(``stack resource signal``).

The deployments' configs are pushed into the server resource's metadata
(``deployments``) and, when that server has a ``metadata_put_url`` in its
data (``POLL_TEMP_URL``), PUT there too, when the server is a resource of
the same stack (named by ``get_resource``); Heat finds it in any stack.
"""

import json
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from occli.localcloud import errors
from occli.localcloud.orchestration import signals
from occli.localcloud.orchestration.engine import attributes
from occli.localcloud.orchestration.engine import constraints
from occli.localcloud.orchestration.engine import exception
from occli.localcloud.orchestration.engine import properties
from occli.localcloud.orchestration.engine import resource
from occli.localcloud.orchestration.engine import support
from occli.localcloud.orchestration.engine.clients import ClientError
from occli.localcloud.orchestration.engine.resources.openstack.heat import resource_group
from occli.localcloud.orchestration.engine.resources.openstack.heat import software_config
from occli.localcloud.orchestration.engine.resources.openstack.swift import temp_url

SIGNAL_TRANSPORTS = (CFN_SIGNAL, TEMP_URL_SIGNAL, HEAT_SIGNAL, NO_SIGNAL, ZAQAR_SIGNAL) = (
    "CFN_SIGNAL",
    "TEMP_URL_SIGNAL",
    "HEAT_SIGNAL",
    "NO_SIGNAL",
    "ZAQAR_SIGNAL",
)
# what the cloud's Config names when it does not say
DEFAULT_SIGNAL_TRANSPORT = TEMP_URL_SIGNAL
ALLOWED_DEPLOY_ACTIONS = (
    resource.CREATE,
    resource.UPDATE,
    resource.DELETE,
    resource.SUSPEND,
    resource.RESUME,
)
ATTRIBUTES = (STDOUT, STDERR, STATUS_CODE) = (
    "deploy_stdout",
    "deploy_stderr",
    "deploy_status_code",
)


def swift_signal_url(rsrc: resource.Resource) -> str:
    """The resource's signal object (an empty object named after it in the
    stack's container) and its PUT temp URL, made once and kept in data."""
    stored = rsrc.data().get("swift_signal_url")
    if stored:
        return str(stored)
    if not rsrc.client().has_service("object-store"):
        raise exception.EndpointNotFound()
    container, obj = rsrc.stack.id, rsrc.physical_resource_name()
    clients = rsrc.client()
    clients.put("object-store", "/%s" % quote(container))
    clients.request("object-store", "PUT", "/%s/%s" % (quote(container), quote(obj)), raw=b"")
    url = temp_url.get_temp_url(clients, rsrc.stack.config, container, obj)
    rsrc.data_set("swift_signal_url", url)
    rsrc.data_set("swift_signal_object_name", obj)
    return url


def delete_swift_signal(rsrc: resource.Resource) -> None:
    """Remove the signal object, and the stack's container once empty."""
    obj = rsrc.data().get("swift_signal_object_name")
    if not obj:
        return
    container = quote(rsrc.stack.id)
    clients = rsrc.client()
    clients.delete_ignoring_not_found("object-store", "/%s/%s" % (container, quote(obj)))
    try:
        clients.delete("object-store", "/%s" % container)
    except ClientError as exc:
        if exc.status not in (404, 409):  # gone, or other resources' signals left
            raise
    rsrc.data_delete("swift_signal_object_name")
    rsrc.data_delete("swift_signal_url")


def heat_signal_credentials(rsrc: resource.Resource) -> dict[str, Any]:
    """The ``deploy_*`` credentials of HEAT_SIGNAL: where to authenticate
    and which project, with no secret (see the module's docstring)."""
    config = rsrc.stack.config
    return {
        "auth_url": temp_url.root_url(config) + rsrc.client().endpoint("identity"),
        "username": rsrc.physical_resource_name(),
        "user_id": None,
        "password": None,
        "project_id": rsrc.stack.project_id,
        "region_name": getattr(config, "region", None),
    }


def referenced_resource(rsrc: resource.Resource, prop: str) -> resource.Resource | None:
    """The resource of the same stack that property ``prop`` names with
    ``get_resource`` in the template, if any."""
    snippet = (rsrc.t.get("properties") or {}).get(prop)
    if not isinstance(snippet, dict) or len(snippet) != 1:
        return None
    name = snippet.get("get_resource")
    if not isinstance(name, str):
        return None
    try:
        return rsrc.stack.resource(name)
    except KeyError:
        return None


def _input(name: str, value: Any, description: str) -> dict[str, Any]:
    return {"name": name, "type": "String", "description": description, "value": value}


class SoftwareDeployment(resource.Resource):
    """Deploys a config to a server and waits for the server's signal."""

    support_status = support.SupportStatus(version="2014.1")

    CONFIG, SERVER, INPUT_VALUES, DEPLOY_ACTIONS, NAME, SIGNAL_TRANSPORT = (
        "config",
        "server",
        "input_values",
        "actions",
        "name",
        "signal_transport",
    )
    ATTRIBUTES = ATTRIBUTES
    default_client_name = "orchestration"
    signal_supported = True
    no_signal_actions = ()

    properties_schema = {
        CONFIG: properties.Schema(
            properties.Schema.STRING,
            "ID of software configuration resource to execute when applying to the server.",
            update_allowed=True,
        ),
        SERVER: properties.Schema(
            properties.Schema.STRING,
            "ID of resource to apply configuration to. Normally this should be a Nova server ID.",
            required=True,
        ),
        INPUT_VALUES: properties.Schema(
            properties.Schema.MAP,
            "Input values to apply to the software configuration on this server.",
            update_allowed=True,
        ),
        DEPLOY_ACTIONS: properties.Schema(
            properties.Schema.LIST,
            "Which lifecycle actions of the deployment resource will result in "
            "this deployment being triggered.",
            update_allowed=True,
            default=[resource.CREATE, resource.UPDATE],
            constraints=[constraints.AllowedValues(ALLOWED_DEPLOY_ACTIONS)],
        ),
        NAME: properties.Schema(
            properties.Schema.STRING,
            "Name of the derived config associated with this deployment. This "
            "is used to apply a sort order to the list of configurations "
            "currently deployed to a server.",
            update_allowed=True,
        ),
        SIGNAL_TRANSPORT: properties.Schema(
            properties.Schema.STRING,
            "How the server should signal to heat with the deployment output "
            "values. CFN_SIGNAL will allow an HTTP POST to a CFN keypair signed "
            "URL. TEMP_URL_SIGNAL will create a Swift TempURL to be signaled via "
            "HTTP PUT. HEAT_SIGNAL will allow calls to the Heat API "
            "resource-signal using the provided keystone credentials. "
            "ZAQAR_SIGNAL will create a dedicated zaqar queue to be signaled "
            "using the provided keystone credentials. NO_SIGNAL will result in "
            "the resource going to the COMPLETE state without waiting for any "
            "signal.",
            default=DEFAULT_SIGNAL_TRANSPORT,
            constraints=[constraints.AllowedValues(SIGNAL_TRANSPORTS)],
        ),
    }
    attributes_schema = {
        STDOUT: attributes.Schema(
            "Captured stdout from the configuration execution.", type=attributes.Schema.STRING
        ),
        STDERR: attributes.Schema(
            "Captured stderr from the configuration execution.", type=attributes.Schema.STRING
        ),
        STATUS_CODE: attributes.Schema(
            "Returned status code from the configuration execution.",
            type=attributes.Schema.STRING,
        ),
    }

    # -- transports ---------------------------------------------------------

    def signal_transport(self) -> str:
        """The template's transport, else the cloud's default."""
        given = self.properties.get_user_value(self.SIGNAL_TRANSPORT)
        if given:
            return str(given)
        return str(
            getattr(
                self.stack.config,
                "heat_default_deployment_signal_transport",
                DEFAULT_SIGNAL_TRANSPORT,
            )
        )

    def _signal_inputs(self, transport: str) -> list[dict[str, Any]]:
        """The ``deploy_signal_*`` or ``deploy_auth_*`` inputs of a transport."""
        if transport in (CFN_SIGNAL, ZAQAR_SIGNAL):
            # no heat-api-cfn, no Zaqar: what Heat meets without them
            raise exception.EndpointNotFound()
        if transport == TEMP_URL_SIGNAL:
            return [
                _input(
                    "deploy_signal_id",
                    swift_signal_url(self),
                    "ID of signal to use for signaling output values",
                ),
                _input(
                    "deploy_signal_verb", "PUT", "HTTP verb to use for signaling output values"
                ),
            ]
        if transport == HEAT_SIGNAL:
            creds = heat_signal_credentials(self)
            inputs = [
                _input("deploy_auth_url", creds["auth_url"], "URL for API authentication"),
                _input("deploy_username", creds["username"], "Username for API authentication"),
                _input("deploy_user_id", creds["user_id"], "User ID for API authentication"),
                _input("deploy_password", creds["password"], "Password for API authentication"),
                _input(
                    "deploy_project_id",
                    creds["project_id"],
                    "ID of project for API authentication",
                ),
            ]
            if creds["region_name"]:
                inputs.append(
                    _input(
                        "deploy_region_name",
                        creds["region_name"],
                        "Region name for API authentication",
                    )
                )
            return inputs
        return []

    # -- configs ----------------------------------------------------------

    def load_config(self, config_id: str | None = None) -> dict[str, Any]:
        """The source config (the ``config`` property's unless given), or
        an empty one."""
        config_id = config_id or self.properties[self.CONFIG]
        if not config_id:
            return {"inputs": [], "outputs": []}
        answer = self.client().get("orchestration", "/software_configs/%s" % config_id)
        config = dict(answer.body["software_config"])
        config["inputs"] = list(config.get("inputs") or [])
        config["outputs"] = list(config.get("outputs") or [])
        return config

    def empty_config(self) -> Any:
        return ""

    def build_derived_config(
        self, action: str, source: Mapping[str, Any], inputs: list[dict[str, Any]]
    ) -> Any:
        """The derived config's ``config`` (structured deployments
        substitute their inputs)."""
        return source.get("config")

    def build_derived_inputs(self, action: str, source: Mapping[str, Any]) -> list[dict[str, Any]]:
        """The config's inputs with their values (``input_values``, else
        the default), undeclared input values as String inputs, then the
        ``deploy_*`` inputs (Heat's ``_build_derived_inputs``)."""
        values = dict(self.properties[self.INPUT_VALUES] or {})
        inputs = []
        for declared in source.get("inputs") or []:
            item = {k: v for k, v in declared.items() if k != "value"}
            item["value"] = values.pop(declared["name"], declared.get("default"))
            inputs.append(item)
        inputs += [{"name": k, "type": "String", "value": v} for k, v in values.items()]
        transport = self.signal_transport()
        inputs += [
            _input(
                "deploy_server_id",
                self.properties[self.SERVER],
                "ID of the server being deployed to",
            ),
            _input("deploy_action", action, "Name of the current action being deployed"),
            _input(
                "deploy_stack_id",
                "%s/%s" % (self.stack.name, self.stack.id),
                "ID of the stack this deployment belongs to",
            ),
            _input(
                "deploy_resource_name", self.name, "Name of this deployment resource in the stack"
            ),
            _input(
                "deploy_signal_transport",
                transport,
                "How the server should signal to heat with the deployment output values.",
            ),
        ]
        return inputs + self._signal_inputs(transport)

    def _derived_config_body(self, action: str, source: Mapping[str, Any]) -> dict[str, Any]:
        inputs = self.build_derived_inputs(action, source)
        derived = self.build_derived_config(action, source, inputs)
        return {
            "group": source.get("group") or "Heat::Ungrouped",
            "config": derived or self.empty_config(),
            "options": source.get("options"),
            "inputs": inputs,
            "outputs": source.get("outputs") or [],
            "name": self.properties[self.NAME]
            or source.get("name")
            or self.physical_resource_name(),
        }

    def _delete_config(self, config_id: str) -> None:
        self.client().delete_ignoring_not_found(
            "orchestration", "/software_configs/%s" % config_id
        )

    # -- the deployment -------------------------------------------------------

    def deployment(self) -> dict[str, Any]:
        """The deployment as the API shows it (reading it applies a pending
        TEMP_URL_SIGNAL)."""
        answer = self.client().get("orchestration", "/software_deployments/%s" % self.resource_id)
        return dict(answer.body["software_deployment"])

    def _wanted(self, action: str, config: Mapping[str, Any]) -> bool:
        if config.get("group") == "component":
            body = config.get("config") or {}
            configs = body.get("configs") if isinstance(body, dict) else None
            return any(action in (c.get("actions") or []) for c in configs or [])
        return action in (self.properties[self.DEPLOY_ACTIONS] or [])

    def handle_action(
        self,
        action: str,
        config: Mapping[str, Any] | None = None,
        prev_derived_config: str | None = None,
    ) -> dict[str, Any] | None:
        """Run the deployment for ``action`` if it is one of its actions:
        a new derived config, the deployment created or updated to it (the
        previous derived config deleted), the server's metadata pushed.
        The deployment to wait for, or None (nothing to wait for)."""
        if config is None:
            config = self.load_config()
        if not self._wanted(action, config):
            return None
        derived_id = software_config.create_config(self, self._derived_config_body(action, config))
        if self.signal_transport() == NO_SIGNAL:
            status, reason = resource.COMPLETE, "Not waiting for outputs signal"
        else:
            status, reason = resource.IN_PROGRESS, "Deploy data available"
        values = {
            "config_id": derived_id,
            "action": action,
            "input_values": self.properties[self.INPUT_VALUES],
            "status": status,
            "status_reason": reason,
        }
        if self.resource_id is None:
            values.update(
                server_id=self.properties[self.SERVER],
                stack_user_project_id=self.stack.project_id,
            )
            answer = self.client().post("orchestration", "/software_deployments", values)
            sd = dict(answer.body["software_deployment"])
            self.resource_id_set(sd["id"])
        else:
            prev = prev_derived_config or self.deployment().get("config_id")
            answer = self.client().put(
                "orchestration", "/software_deployments/%s" % self.resource_id, values
            )
            sd = dict(answer.body["software_deployment"])
            if prev:
                self._delete_config(prev)
        self.push_metadata()
        return None if status == resource.COMPLETE else sd

    def check_complete(self) -> bool:
        sd = self.deployment()
        if sd["status"] == resource.COMPLETE:
            return True
        if sd["status"] == resource.FAILED:
            raise exception.Error("Deployment to server failed: %s" % sd["status_reason"])
        return False

    def push_metadata(self) -> None:
        """The server resource's ``deployments`` metadata: every config
        deployed to it (Heat's ``_push_metadata_software_deployments``)."""
        server = referenced_resource(self, self.SERVER)
        if server is None or server.action == resource.DELETE or server.resource_id is None:
            return
        answer = self.client().get(
            "orchestration", "/software_deployments/metadata/%s" % server.resource_id
        )
        configs = answer.body["metadata"]
        merged: dict[str, Any] = {}

        def merge(current: dict[str, Any]) -> dict[str, Any]:
            merged.clear()
            merged.update(current, deployments=configs)
            return dict(merged)

        server.metadata_set({}, merge=merge)
        put_url = server.data().get("metadata_put_url")
        location = signals.parse_signal_url(put_url)
        if location is not None and signals.owns_signal_account(
            self.stack.project_id, location[0]
        ):
            self.client().request(
                "object-store",
                "PUT",
                "/%s/%s" % (quote(location[1]), quote(location[2])),
                raw=json.dumps(merged).encode(),
            )

    # -- actions ------------------------------------------------------------

    def handle_create(self) -> dict[str, Any] | None:
        return self.handle_action(resource.CREATE)

    def check_create_complete(self, handler_data: Any) -> bool:
        return not handler_data or self.check_complete()

    def handle_update(
        self, json_snippet: Mapping[str, Any], tmpl_diff: Mapping[str, Any], prop_diff: dict
    ) -> dict[str, Any] | None:
        """Re-run with the new properties (action UPDATE); replaced when an
        input declared ``replace_on_change`` changes value, or a property
        that is not ``update_allowed`` changed."""
        if set(prop_diff) - self.update_allowed():
            raise resource.UpdateReplace(self.name)
        prev_derived = None
        old_inputs: dict[str, Any] = {}
        if self.resource_id is not None:
            prev_derived = self.deployment().get("config_id")
            old = self.load_config(prev_derived)
            old_inputs = {i["name"]: i.get("value") for i in old["inputs"]}
        self._properties = self.make_properties(json_snippet.get("properties") or {})
        config = self.load_config()
        for item in self.build_derived_inputs(resource.UPDATE, config):
            name = item["name"]
            changed = name in old_inputs and item.get("value") != old_inputs[name]
            if item.get("replace_on_change") and changed:
                raise resource.UpdateReplace(self.name)
        return self.handle_action(resource.UPDATE, config, prev_derived)

    def check_update_complete(self, handler_data: Any) -> bool:
        return not handler_data or self.check_complete()

    def handle_delete(self) -> dict[str, Any] | None:
        if self.resource_id is None:
            return None
        try:
            return self.handle_action(resource.DELETE)
        except ClientError as exc:
            if exc.not_found:
                return None
            raise

    def _server_exists(self, server_id: str) -> bool:
        if not self.client().has_service("compute"):
            return False
        try:
            self.client().get("compute", "/servers/%s" % quote(server_id, safe=""))
        except ClientError as exc:
            if exc.not_found:
                return False
            raise
        return True

    def check_delete_complete(self, handler_data: Any) -> bool:
        """Done when there was nothing to run, the server is gone, or the
        DELETE run finished; then the deployment, its derived config and
        the signal object go."""
        if (
            not handler_data
            or not self._server_exists(str(handler_data.get("server_id")))
            or self.check_complete()
        ):
            self._delete_resource()
            return True
        return False

    def _delete_resource(self) -> None:
        if self.resource_id is not None:
            derived = None
            try:
                derived = self.deployment().get("config_id")
                self.client().delete(
                    "orchestration", "/software_deployments/%s" % self.resource_id
                )
            except ClientError as exc:
                if not exc.not_found:
                    raise
            if derived:
                self._delete_config(derived)
            self.push_metadata()
        delete_swift_signal(self)

    def handle_suspend(self) -> dict[str, Any] | None:
        return self.handle_action(resource.SUSPEND)

    def check_suspend_complete(self, handler_data: Any) -> bool:
        return not handler_data or self.check_complete()

    def handle_resume(self) -> dict[str, Any] | None:
        return self.handle_action(resource.RESUME)

    def check_resume_complete(self, handler_data: Any) -> bool:
        return not handler_data or self.check_complete()

    def handle_signal(self, details: Any = None) -> str | None:
        """The agent's result (HEAT_SIGNAL): the deployment COMPLETE, or
        FAILED for a non-zero ``deploy_status_code`` or an ``error_output``
        (Heat's ``signal_software_deployment``); ignored unless the
        deployment is IN_PROGRESS. The event reason."""
        if details is not None and not isinstance(details, dict):
            raise errors.BadRequest("Invalid signal data: not a JSON object", type="ValueError")
        sd = self.deployment()
        config = software_config.show_config(self, sd["config_id"]) or {}
        changes = signals.apply_signal(sd, config, details or {})
        if not changes:
            return None
        self.client().put("orchestration", "/software_deployments/%s" % self.resource_id, changes)
        code = (details or {}).get(STATUS_CODE)
        if changes["status"] == resource.COMPLETE:
            return "deployment %s succeeded" % self.resource_id
        if code and str(code) != "0":
            return "deployment %s failed (%s)" % (self.resource_id, code)
        return "deployment %s failed" % self.resource_id

    # -- attributes -----------------------------------------------------------

    def get_attribute(self, key: str, *path: Any) -> Any:
        """The signalled outputs (any output the config declares, and
        ``deploy_stdout``/``deploy_stderr``/``deploy_status_code``); None
        until signalled; another key is InvalidTemplateAttribute."""
        if key == attributes.SHOW_ATTR:
            return attributes.select_from_attribute(self.show(), list(path))
        if self.resource_id is not None:
            output_values = self.deployment().get("output_values") or {}
            if key in output_values:
                return attributes.select_from_attribute(output_values[key], list(path))
        config_id = self.properties[self.CONFIG]
        config = software_config.show_config(self, config_id) if config_id else None
        declared = {o.get("name") for o in (config or {}).get("outputs") or []}
        if key not in declared and key not in self.ATTRIBUTES:
            raise errors.BadRequest(
                "The Referenced Attribute (%s %s) is incorrect." % (self.name, key),
                type="InvalidTemplateAttribute",
            )
        return None

    def show(self) -> Any:
        return self.deployment() if self.resource_id else None

    def validate(self) -> None:
        """Properties, then Heat's check that a server of this stack the
        deployment targets boots with ``user_data_format: SOFTWARE_CONFIG``."""
        super().validate()
        server = referenced_resource(self, self.SERVER)
        if server is None:
            return
        fmt = (server.t.get("properties") or {}).get("user_data_format")
        if isinstance(fmt, str) and fmt and fmt != "SOFTWARE_CONFIG":
            raise errors.BadRequest(
                "Resource %s's property user_data_format should be set to "
                "SOFTWARE_CONFIG since there are software deployments on it."
                % self.properties[self.SERVER],
                type="StackValidationFailed",
            )


GROUP_ATTRIBUTES = (STDOUTS, STDERRS, STATUS_CODES) = (
    "deploy_stdouts",
    "deploy_stderrs",
    "deploy_status_codes",
)
_MEMBER_ATTRIBUTES = dict(zip(GROUP_ATTRIBUTES, ATTRIBUTES, strict=True))


class SoftwareDeploymentGroup(resource_group.ResourceGroup):
    """One deployment per server of ``servers`` (``{name: server id}``):
    Heat's ResourceGroup whose members are named after the servers; an
    attribute is the map of member names to that member's attribute."""

    support_status = support.SupportStatus(version="5.0.0")

    SERVERS = "servers"
    member_type = "OS::Heat::SoftwareDeployment"

    properties_schema = {
        SERVERS: properties.Schema(
            properties.Schema.MAP,
            "A map of names and server IDs to apply configuration to. The name "
            "is arbitrary and is used as the Heat resource name for the "
            "corresponding deployment.",
            update_allowed=True,
            required=True,
        ),
        **{
            key: SoftwareDeployment.properties_schema[key]
            for key in (
                SoftwareDeployment.CONFIG,
                SoftwareDeployment.INPUT_VALUES,
                SoftwareDeployment.DEPLOY_ACTIONS,
                SoftwareDeployment.NAME,
                SoftwareDeployment.SIGNAL_TRANSPORT,
            )
        },
    }
    attributes_schema = {
        STDOUTS: attributes.Schema(
            "A map of Nova names and captured stdouts from the configuration "
            "execution to each server.",
            type=attributes.Schema.MAP,
        ),
        STDERRS: attributes.Schema(
            "A map of Nova names and captured stderrs from the configuration "
            "execution to each server.",
            type=attributes.Schema.MAP,
        ),
        STATUS_CODES: attributes.Schema(
            "A map of Nova names and returned status code from the configuration execution.",
            type=attributes.Schema.MAP,
        ),
    }

    def update_allowed(self) -> set[str]:
        """Every property: a change updates the members (Heat's
        ``res_def_changed``)."""
        return set(self.properties_schema)

    def get_size(self) -> int:
        return len(self.properties[self.SERVERS] or {})

    def _resource_names(self, size: int | None = None) -> list[str]:
        names = list(self.properties[self.SERVERS] or {})
        return names if size is None else names[:size]

    def _update_name_skiplist(self, props: Mapping[str, Any]) -> None:
        return None

    def _name_skiplist(self) -> set[str]:
        return set()

    def get_resource_def(self, include_all: bool = False) -> dict[str, Any]:
        """The group's properties (those the template gave: a member's
        defaults are its own)."""
        return {
            key: self.properties.get_user_value(key)
            for key in self.properties_schema
            if include_all or self.properties.get_user_value(key) is not None
        }

    def build_resource_definition(self, res_name: str, res_def: Mapping[str, Any]) -> dict:
        props = {k: v for k, v in res_def.items() if k != self.SERVERS and v is not None}
        props[SoftwareDeployment.SERVER] = (res_def.get(self.SERVERS) or {}).get(res_name)
        return {"type": self.member_type, "properties": props}

    def get_attribute(self, key: str, *path: Any) -> Any:
        """``{member name: its attribute}``: ``deploy_stdouts`` and the
        like are the members' ``deploy_stdout``…, any other key is passed
        to the members (their config's outputs)."""
        if (
            key == attributes.SHOW_ATTR
            or key.startswith("resource.")
            or key
            in (
                self.REFS,
                self.REFS_MAP,
                self.REMOVED_RSRC_LIST,
            )
        ):
            return super().get_attribute(key, *path)
        member_key = _MEMBER_ATTRIBUTES.get(key, key)
        values = super().get_attribute(self.ATTR_ATTRIBUTES, member_key)
        return attributes.select_from_attribute(values, list(path))


class SoftwareDeployments(SoftwareDeploymentGroup):
    """Heat's hidden former name of the group."""

    support_status = support.SupportStatus(status=support.HIDDEN, version="7.0.0")


def resource_mapping() -> dict[str, type[resource.Resource]]:
    return {
        "OS::Heat::SoftwareDeployment": SoftwareDeployment,
        "OS::Heat::SoftwareDeploymentGroup": SoftwareDeploymentGroup,
        "OS::Heat::SoftwareDeployments": SoftwareDeployments,
    }
