"""A server's software-config transport (Heat's ``resources/server_base.py``).

With ``user_data_format: SOFTWARE_CONFIG`` the server's resource metadata
carries what the in-server agent (os-collect-config) polls: an
``os-collect-config`` section naming where to poll and the
``deployments`` list the stack's deployments push into. The transports
the local cloud serves:

* ``POLL_TEMP_URL``: a Swift container of the stack's project (the
  ``deployment_swift_data`` container, else the physical resource name)
  holds the metadata as an object; ``request.metadata_url`` is a GET temp
  URL of it, and the resource data keeps ``metadata_put_url`` and
  ``metadata_object_name`` as Heat does (a deployment that changes the
  metadata PUTs it there).
* ``POLL_SERVER_HEAT``: the ``heat`` section names the stack and resource
  to read ``GET …/resources/{name}/metadata`` of. Heat also gives a
  stack-domain user and password; the local cloud has no stack domain, so
  ``user_id``/``password`` are None (the simulated agent reads the
  metadata in process).

``POLL_SERVER_CFN`` and ``ZAQAR_MESSAGE`` need heat-api-cfn and Zaqar,
which the local cloud does not serve: the create fails as Heat's does
without those endpoints (keystoneauth's ``EndpointNotFound``).
"""

import json
import uuid
from collections.abc import Mapping
from typing import Any

from occli.localcloud.orchestration.engine import exception
from occli.localcloud.orchestration.engine import resource
from occli.localcloud.orchestration.engine.clients import ClientError
from occli.localcloud.orchestration.engine.resources.openstack.swift import temp_url

TRANSPORTS = (POLL_SERVER_CFN, POLL_SERVER_HEAT, POLL_TEMP_URL, ZAQAR_MESSAGE) = (
    "POLL_SERVER_CFN",
    "POLL_SERVER_HEAT",
    "POLL_TEMP_URL",
    "ZAQAR_MESSAGE",
)
SOFTWARE_CONFIG_TRANSPORT = "software_config_transport"
DEPLOYMENT_SWIFT_DATA = "deployment_swift_data"
# what the local cloud's Heat polls by default (heat's
# default_software_config_transport is POLL_SERVER_CFN, not served here)
DEFAULT_TRANSPORT = POLL_TEMP_URL
# heat's max_server_name_length
MAX_SERVER_NAME_LENGTH = 53


def reduce_physical_resource_name(name: str, limit: int) -> str:
    """Heat's rule: the first 2 characters, a hyphen, then the end."""
    if len(name) <= limit:
        return name
    return name[0:2] + "-" + name[-(limit - 3) :]


class BaseServer(resource.Resource):
    """The server parts that do not depend on Nova."""

    # the collectors os-collect-config runs before the transport's
    # (Heat's ``default_collectors``: none here, ``ec2`` for Nova servers)
    default_collectors: tuple[str, ...] = ()

    def _server_name(self) -> str:
        return self.properties["name"] or reduce_physical_resource_name(
            self.physical_resource_name(), MAX_SERVER_NAME_LENGTH
        )

    def user_data_software_config(self) -> bool:
        return bool(self.properties["user_data_format"] == "SOFTWARE_CONFIG")

    def transport(self, props: Mapping[str, Any] | None = None) -> str:
        """The transport: the template's, else the cloud's default
        (``heat_default_software_config_transport``), else POLL_TEMP_URL."""
        if props is not None and props.get(SOFTWARE_CONFIG_TRANSPORT):
            return str(props[SOFTWARE_CONFIG_TRANSPORT])
        given = self.properties.get_user_value(SOFTWARE_CONFIG_TRANSPORT)
        if given:
            return str(given)
        default = getattr(self.stack.config, "heat_default_software_config_transport", None)
        return str(default or DEFAULT_TRANSPORT)

    def _container_and_object_name(self, props: Mapping[str, Any]) -> tuple[str, str]:
        swift_data = props.get(DEPLOYMENT_SWIFT_DATA) or self.properties[DEPLOYMENT_SWIFT_DATA]
        swift_data = swift_data or {}
        container = swift_data.get("container") or self.physical_resource_name()
        obj = swift_data.get("object") or self.data().get("metadata_object_name")
        return container, obj or str(uuid.uuid4())

    def _create_transport_credentials(self, props: Mapping[str, Any]) -> None:
        if self.transport(props) in (POLL_SERVER_CFN, ZAQAR_MESSAGE):
            raise exception.EndpointNotFound()

    def _populate_deployments_metadata(
        self, meta: dict[str, Any], props: Mapping[str, Any]
    ) -> None:
        """Write the agent's polling config into the metadata (and, for
        POLL_TEMP_URL, the metadata into its Swift object)."""
        meta["deployments"] = meta.get("deployments", [])
        occ = meta["os-collect-config"] = meta.get("os-collect-config", {})
        collectors = list(self.default_collectors)
        occ["collectors"] = collectors
        for key in ("heat", "zaqar", "cfn", "request"):
            if isinstance(occ.get(key), dict):
                occ[key] = {k: None for k in occ[key]}
        transport = self.transport(props)
        if transport == POLL_SERVER_HEAT:
            occ["heat"] = {
                "user_id": None,
                "password": None,
                "auth_url": temp_url.root_url(self.stack.config) + "/v3",
                "project_id": self.stack.project_id,
                "stack_id": "%s/%s" % (self.stack.name, self.stack.id),
                "resource_name": self.name,
                "region_name": getattr(self.stack.config, "region", None),
            }
            collectors.append("heat")
        elif transport == POLL_TEMP_URL:
            container, obj = self._container_and_object_name(props)
            clients = self.client()
            clients.put("object-store", "/%s" % container)
            url = temp_url.get_temp_url(clients, self.stack.config, container, obj, "GET")
            put_url = temp_url.get_temp_url(clients, self.stack.config, container, obj)
            self.data_set("metadata_put_url", put_url)
            self.data_set("metadata_object_name", obj)
            collectors.append("request")
            occ["request"] = {"metadata_url": url}
        collectors.append("local")
        self.metadata_set(meta)
        if self.data().get("metadata_object_name"):
            container, obj = self._container_and_object_name(props)
            self.client().put(
                "object-store",
                "/%s/%s" % (container, obj),
                raw=json.dumps(meta).encode(),
                headers={"Content-Type": "application/json"},
            )

    def _delete_temp_url(self) -> None:
        """Remove the metadata object (and its container once empty)."""
        obj = self.data().get("metadata_object_name")
        if not obj:
            return
        clients = self.client()
        if clients.has_service("object-store"):
            swift_data = self.properties[DEPLOYMENT_SWIFT_DATA] or {}
            container = swift_data.get("container") or self.physical_resource_name()
            try:
                clients.delete("object-store", "/%s/%s" % (container, obj))
                head = clients.request("object-store", "HEAD", "/%s" % container)
                if int(head.headers.get("x-container-object-count", "0")) == 0:
                    clients.delete("object-store", "/%s" % container)
            except ClientError as exc:
                if not exc.not_found:
                    raise
        self.data_delete("metadata_object_name")
        self.data_delete("metadata_put_url")

    def _update_software_config_transport(self, props: Mapping[str, Any]) -> None:
        if not self.user_data_software_config():
            return
        self._delete_temp_url()
        metadata = self.metadata_get() or {}
        self._create_transport_credentials(props)
        self._populate_deployments_metadata(metadata, props)

    def update_metadata_from_template(self, new_md: Mapping[str, Any]) -> None:
        """A template metadata change (heat's BaseServer.handle_update):
        with SOFTWARE_CONFIG the agent's section is merged and the
        deployments kept."""
        new = dict(new_md)
        if self.user_data_software_config():
            current = self.metadata_get() or {}
            occ = dict(current.get("os-collect-config", {}))
            occ.update(new.get("os-collect-config", {}))
            new["os-collect-config"] = occ
            new["deployments"] = current.get("deployments", [])
        self.metadata_set(new)
