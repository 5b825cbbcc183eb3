"""Heat software deployments, and the deploy / signal / delete workflow.

The plain verbs (``list/get/create/update/delete/metadata``) map to Heat's
``/software_deployments`` API. On top of them, as heatclient and OSC do it
client-side:

* :meth:`SoftwareDeploymentManager.deploy` builds a *derived config* (the
  source config plus input values and the ``deploy_*`` inputs the in-server
  agent reads), creates it, and creates the deployment waiting for a signal;
  for ``TEMP_URL_SIGNAL`` the signal goes to a Swift object through a PUT
  temp URL;
* :meth:`SoftwareDeploymentManager.signal` sends what the agent sends, along
  the agent's path (the temp URL, no token), so it works on a real Heat too;
* :meth:`SoftwareDeploymentManager.delete` also removes the derived config
  and the signal object.
"""

import builtins
import copy
import logging
import re
import uuid
from collections.abc import Iterator
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from occli import base
from occli import exceptions
from occli.v2.orchestration import base as heat

LOG = logging.getLogger(__name__)

TEMP_URL_SIGNAL = "TEMP_URL_SIGNAL"
NO_SIGNAL = "NO_SIGNAL"
SIGNAL_TRANSPORTS = (TEMP_URL_SIGNAL, NO_SIGNAL)
DEFAULT_SIGNAL_TIMEOUT = 60  # minutes a signal temp URL stays valid

IN_PROGRESS, COMPLETE, FAILED = "IN_PROGRESS", "COMPLETE", "FAILED"
DEPLOY_DATA_AVAILABLE = "Deploy data available"
NOT_WAITING = "Not waiting for outputs signal"

# characters of a deployment name deploy() replaces in a container name
_UNSAFE_CONTAINER_CHARS = re.compile(r"[^A-Za-z0-9._~-]")
# what deploy() names a container when none is given: <name>-<uuid4>
_GENERATED_CONTAINER = re.compile(
    r"-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"
)


class SignalError(exceptions.CommandError):
    """A deployment cannot be signalled (wrong state or transport)."""


class SoftwareDeployment(base.Resource):
    pass


def build_derived_config(
    source: base.Resource | Mapping[str, Any] | None,
    name: str,
    input_values: Mapping[str, Any] | None,
    server_id: str,
    action: str,
    signal_transport: str,
    signal_id: str | None = None,
) -> dict[str, Any]:
    """The body of the derived config heatclient creates for a deployment.

    ``source`` is the source config (a dict or resource, or None). Declared
    inputs get their value from ``input_values`` or their default;
    undeclared ``input_values`` become extra String inputs; then the
    ``deploy_server_id``, ``deploy_action`` and ``deploy_signal_transport``
    inputs, plus ``deploy_signal_id`` and ``deploy_signal_verb`` (PUT) for
    ``TEMP_URL_SIGNAL``.
    """
    if signal_transport not in SIGNAL_TRANSPORTS:
        raise exceptions.CommandError(
            "Unsupported signal transport %s (use %s)."
            % (signal_transport, " or ".join(SIGNAL_TRANSPORTS))
        )
    if isinstance(source, base.Resource):
        source = source.to_dict()
    source = source or {}
    values = dict(input_values or {})
    inputs = copy.deepcopy(source.get("inputs")) or []
    for inp in inputs:
        inp["value"] = values.pop(inp["name"], inp.get("default"))
    for key, value in values.items():
        inputs.append({"name": key, "type": "String", "value": value})
    inputs.extend(
        [
            {
                "name": "deploy_server_id",
                "description": "ID of the server being deployed to",
                "type": "String",
                "value": server_id,
            },
            {
                "name": "deploy_action",
                "description": "Name of the current action being deployed",
                "type": "String",
                "value": action,
            },
            {
                "name": "deploy_signal_transport",
                "description": "How the server should signal to heat with the "
                "deployment output values.",
                "type": "String",
                "value": signal_transport,
            },
        ]
    )
    if signal_transport == TEMP_URL_SIGNAL:
        inputs.extend(
            [
                {
                    "name": "deploy_signal_id",
                    "description": "ID of signal to use for signaling output values",
                    "type": "String",
                    "value": signal_id,
                },
                {
                    "name": "deploy_signal_verb",
                    "description": "HTTP verb to use for signaling output values",
                    "type": "String",
                    "value": "PUT",
                },
            ]
        )
    return {
        "name": name,
        "group": source.get("group") or "Heat::Ungrouped",
        "config": source.get("config") or "",
        "options": source.get("options") or {},
        "inputs": inputs,
        "outputs": source.get("outputs") or [],
    }


def input_map(config: base.Resource | dict[str, Any]) -> dict[str, Any]:
    """``{input name: value}`` of a (derived) config."""
    inputs = config.get("inputs") if isinstance(config, dict) else getattr(config, "inputs", None)
    return {i.get("name"): i.get("value") for i in inputs or ()}


def is_derived_for(config: base.Resource | dict[str, Any], server_id: str) -> bool:
    """Whether ``config`` is a derived config deployed to ``server_id``."""
    values = input_map(config)
    return "deploy_signal_transport" in values and values.get("deploy_server_id") == server_id


class SoftwareDeploymentManager(heat.HeatManager):
    """Software deployments of the project (and the deploy workflow)."""

    resource_class = SoftwareDeployment

    # -- plain API ---------------------------------------------------------

    def list(self, server_id: base.Resource | str | None = None) -> base.ListWithMeta:
        """Every deployment (of one server if ``server_id``), oldest first:
        a :class:`~occli.base.ListWithMeta` (with the ``request_ids`` of its
        requests); :meth:`iter` yields them lazily."""
        return self._list_all(*self._list_request(server_id))

    def iter(self, server_id: base.Resource | str | None = None) -> Iterator[base.Resource]:
        """Like :meth:`list`, lazily: the deployments are asked for when
        the first one is wanted."""
        return self._list(*self._list_request(server_id))

    def _list_request(
        self, server_id: base.Resource | str | None
    ) -> tuple[str, str, dict[str, Any]]:
        """``(url, response key, params)`` of a deployment list."""
        params = {"server_id": base.getid(server_id) if server_id is not None else None}
        return "/software_deployments", "software_deployments", params

    def get(self, deployment: base.Resource | str) -> base.Resource:
        """A deployment. Heat applies a pending temp-URL signal on this GET."""
        return self._get("/software_deployments/%s" % _quote(deployment), "software_deployment")

    def create(
        self,
        config_id: base.Resource | str,
        server_id: base.Resource | str,
        input_values: Mapping[str, Any] | None = None,
        action: str = "CREATE",
        status: str = "COMPLETE",
        status_reason: str = "",
        stack_user_project_id: str | None = None,
    ) -> base.Resource:
        """Create a deployment record (no derived config; see :meth:`deploy`)."""
        body = {
            "config_id": base.getid(config_id),
            "server_id": base.getid(server_id),
            "input_values": dict(input_values or {}),
            "action": action,
            "status": status,
            "status_reason": status_reason,
        }
        if stack_user_project_id is not None:
            body["stack_user_project_id"] = stack_user_project_id
        return self._create("/software_deployments", body, "software_deployment")

    def update(self, deployment: base.Resource | str, **fields: Any) -> base.Resource:
        """PUT ``fields`` (``config_id``, ``input_values``, ``output_values``,
        ``action``, ``status``, ``status_reason``); Heat ignores null values."""
        if "config_id" in fields:
            fields["config_id"] = base.getid(fields["config_id"])
        return self._update(
            "/software_deployments/%s" % _quote(deployment), fields, "software_deployment"
        )

    def metadata(self, server_id: base.Resource | str) -> builtins.list[dict[str, Any]]:
        """The list of derived configs the server's agent reads (Heat's order)."""
        response = self._request("GET", "/software_deployments/metadata/%s" % _quote(server_id))
        return self._items(response, self._body(response), "metadata")

    def delete(
        self, deployment: base.Resource | str, keep_config: bool = False, keep_signal: bool = False
    ) -> base.Result:
        """Delete a deployment, then its derived config and signal object.

        The config is deleted only if it is a derived config of this
        deployment's server (a shared source config is never touched), the
        signal object only if it is in this project's object store, and its
        container only if :meth:`deploy` named it and it is now empty.
        Clean-up failures are logged, not raised: the deployment is gone.
        Returns the Result of the deployment's DELETE.
        """
        url = "/software_deployments/%s" % _quote(deployment)
        if keep_config and keep_signal:
            return self._delete(url)
        sd = self.get(deployment)
        config = None
        try:
            config = self.client.software_configs.get(sd.config_id)
        except exceptions.NotFound:
            pass
        result = self._delete(url)
        if config is None or not is_derived_for(config, sd.server_id):
            return result
        if not keep_signal:
            self._delete_signal(input_map(config))
        if not keep_config:
            try:
                self.client.software_configs.delete(config.id)
            except exceptions.ClientException as exc:
                LOG.warning(
                    "Derived config %s of deployment %s was not deleted: %s", config.id, sd.id, exc
                )
        return result

    def _delete_signal(self, inputs: Mapping[str, Any]) -> None:
        if inputs.get("deploy_signal_transport") != TEMP_URL_SIGNAL:
            return
        store = self.client.object_store
        try:
            location = store.locate(inputs.get("deploy_signal_id"))
            if location is None:
                return
            container, name = location
            try:
                store.delete_object(container, name)
            except exceptions.NotFound:
                pass
            if _GENERATED_CONTAINER.search(container):
                try:
                    store.delete_container(container)
                except (exceptions.Conflict, exceptions.NotFound):
                    pass  # still holds other objects, or already gone
        except exceptions.ClientException as exc:
            LOG.warning(
                "Signal object %s was not deleted: %s",
                inputs.get("deploy_signal_id", "").split("?")[0],
                exc,
            )

    # -- workflow ----------------------------------------------------------

    def deploy(
        self,
        server: base.Resource | str,
        config: base.Resource | str | None,
        name: str | None = None,
        input_values: Mapping[str, Any] | None = None,
        action: str = "CREATE",
        signal_transport: str = TEMP_URL_SIGNAL,
        timeout: float | None = None,
        container: str | None = None,
    ) -> base.Resource:
        """Deploy ``config`` to ``server`` as heatclient does; the deployment.

        ``server`` and ``config`` are resources, ids or names (a config may
        also be None: an empty config). ``name`` names the derived config
        (Heat sorts a server's metadata by it; default: the source config's
        name). ``timeout`` is how long, in minutes, the signal temp URL is
        valid (default 60); ``container`` the Swift container for the
        signal object (default ``<name>-<uuid>``). The deployment is
        IN_PROGRESS until signalled, or COMPLETE at once with NO_SIGNAL.
        """
        if signal_transport not in SIGNAL_TRANSPORTS:
            raise exceptions.CommandError(
                "Unsupported signal transport %s (use %s)."
                % (signal_transport, " or ".join(SIGNAL_TRANSPORTS))
            )
        target: base.Resource = self.client.servers.find_resource(server)
        source = None
        if config is not None:
            source = self.client.software_configs.find_resource(config)
        name = name or (
            source.name if source is not None and getattr(source, "name", None) else "deployment"
        )
        signal_id = signal_object = None
        if signal_transport == TEMP_URL_SIGNAL:
            signal_object = self._create_signal_object(
                name, container, DEFAULT_SIGNAL_TIMEOUT if timeout is None else timeout
            )
            signal_id = signal_object[2]
        derived = None
        try:
            derived = self.client.software_configs.create(
                **build_derived_config(
                    source, name, input_values, target.id, action, signal_transport, signal_id
                )
            )
            if signal_transport == NO_SIGNAL:
                status, reason = COMPLETE, NOT_WAITING
            else:
                status, reason = IN_PROGRESS, DEPLOY_DATA_AVAILABLE
            return self.create(
                config_id=derived.id,
                server_id=target.id,
                input_values=input_values,
                action=action,
                status=status,
                status_reason=reason,
            )
        except BaseException:
            self._undo_deploy(derived, signal_object)
            raise

    def _create_signal_object(
        self, name: str, container: str | None, timeout_minutes: float
    ) -> tuple[str, str, str]:
        """``(container, object, PUT temp URL)`` of a new empty object."""
        store = self.client.object_store
        # Swift container names: no "/", at most 256 characters. Heat reads
        # the signal object from the temp URL's path without unquoting it,
        # so a generated name keeps to characters a URL needs no escape for.
        container = container or "%s-%s" % (
            _UNSAFE_CONTAINER_CHARS.sub("-", name)[:200],
            uuid.uuid4(),
        )
        obj = str(uuid.uuid4())
        store.put_container(container)
        key = store.ensure_temp_url_key()
        store.put_object(container, obj, b"")
        url = store.temp_url("%s/%s" % (container, obj), "PUT", int(timeout_minutes * 60), key=key)
        return container, obj, url

    def _undo_deploy(
        self, derived: base.Resource | None, signal_object: tuple[str, str, str] | None
    ) -> None:
        try:
            if derived is not None:
                self.client.software_configs.delete(derived.id)
            if signal_object is not None:
                self.client.object_store.delete_object(*signal_object[:2])
        except exceptions.ClientException as exc:
            LOG.warning("Clean-up after a failed deploy was incomplete: %s", exc)

    def signal(
        self,
        deployment: base.Resource | str,
        status_code: int = 0,
        stdout: str = "",
        stderr: str = "",
        outputs: Mapping[str, Any] | None = None,
    ) -> base.Resource:
        """Signal an IN_PROGRESS deployment as its in-server agent would.

        PUTs ``{"deploy_status_code", "deploy_stdout", "deploy_stderr",
        <output>: value, …}`` to the ``deploy_signal_id`` temp URL without a
        token, then GETs the deployment, which makes Heat apply the signal:
        COMPLETE, or FAILED for a non-zero code or an ``error_output``.
        Returns the deployment.
        """
        sd = self.get(deployment)
        try:
            config = self.client.software_configs.get(sd.config_id)
        except exceptions.NotFound:
            config = None
        inputs = input_map(config) if config is not None else {}
        transport = inputs.get("deploy_signal_transport")
        if transport == NO_SIGNAL:
            raise SignalError(
                "Deployment %s uses NO_SIGNAL: nothing waits for its signal." % sd.id
            )
        if sd.status != IN_PROGRESS:
            raise SignalError(
                "Deployment %s is %s: only an IN_PROGRESS deployment takes a "
                "signal." % (sd.id, sd.status)
            )
        verb = (inputs.get("deploy_signal_verb") or "").upper()
        url = inputs.get("deploy_signal_id")
        if transport != TEMP_URL_SIGNAL or verb != "PUT" or not url:
            raise SignalError(
                "Deployment %s signals through %s (verb %s): occli can only "
                "signal TEMP_URL_SIGNAL deployments (a PUT to a Swift temp "
                "URL)." % (sd.id, transport or "an unknown transport", verb or "unknown")
            )
        body = dict(outputs or {})
        body.update(
            {"deploy_status_code": status_code, "deploy_stdout": stdout, "deploy_stderr": stderr}
        )
        response = self.client.session.request(
            url, "PUT", json=body, authenticated=False, raise_exc=False
        )
        if response.status_code >= 400:
            raise exceptions.from_response(response, "PUT", url.split("?")[0])
        return self.get(sd.id)

    def _noun(self) -> str:
        return "software deployment"


def _quote(resource: base.Resource | str) -> str:
    return quote(str(base.getid(resource)), safe="")
