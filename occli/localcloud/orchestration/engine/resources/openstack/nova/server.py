"""``OS::Nova::Server`` (Heat's ``openstack/nova/server.py``).

A server of the local Nova, booted in the stack's project: image and
flavor by name or id, networks (:mod:`.server_network_mixin`), key pair,
security groups, user data as Heat formats it, metadata, block device
mappings, scheduler hints, config drive, tags; ``SOFTWARE_CONFIG`` user
data writes the agent's polling config into the resource metadata
(:mod:`.server_base`). The create waits for ACTIVE (an ERROR is Heat's
``Went to status ERROR due to "Message: …, Code: …"``); the delete waits
until Nova no longer has it. Updates in place as Heat makes them: name,
metadata, tags, admin password, flavor (resize, then confirm), image
(rebuild), user data (with ``user_data_update_policy: REBUILD``),
software config transport, networks (interfaces detached and attached:
:mod:`.server_network_mixin`).
"""

import base64
import uuid
from collections.abc import Mapping
from typing import Any

from occli.localcloud import errors
from occli.localcloud.orchestration.engine import exception
from occli.localcloud.orchestration.engine import resource
from occli.localcloud.orchestration.engine.clients import ClientError
from occli.localcloud.orchestration.engine.resources.openstack.neutron import neutron
from occli.localcloud.orchestration.engine.resources.openstack.nova import client_plugin as cp
from occli.localcloud.orchestration.engine.resources.openstack.nova import server_base
from occli.localcloud.orchestration.engine.resources.openstack.nova import server_network_mixin
from occli.localcloud.orchestration.engine.resources.openstack.nova.server_schema import (
    ATTRIBUTES_SCHEMA,
)
from occli.localcloud.orchestration.engine.resources.openstack.nova.server_schema import (
    PROPERTIES_SCHEMA,
)


class Server(server_base.BaseServer, server_network_mixin.ServerNetworkMixin):
    """A Nova server."""

    properties_schema = PROPERTIES_SCHEMA
    attributes_schema = ATTRIBUTES_SCHEMA
    default_client_name = "compute"
    signal_supported = False
    default_collectors = ("ec2",)  # heat's Server.__init__

    # -- validation ---------------------------------------------------------

    def validate(self) -> None:
        super().validate()
        props = self.properties
        if self.user_data_software_config() and "deployments" in (self.t.get("metadata") or {}):
            raise errors.BadRequest(
                "deployments key not allowed in resource metadata with user_data_format "
                "of SOFTWARE_CONFIG",
                type="StackValidationFailed",
            )
        self._validate_block_device_mapping()
        networks = props["networks"] or []
        for network in networks:
            self._validate_network(network)
        if any(n.get("allocate_network") for n in networks) and len(networks) != 1:
            raise errors.BadRequest(
                'Property "allocate_network" can not be specified if multiple network '
                "interfaces set for server.",
                type="StackValidationFailed",
            )
        if any(n.get("port") is not None for n in networks) and props["security_groups"]:
            raise errors.BadRequest(
                "Cannot define the following properties at the same time: "
                "security_groups, networks/port.",
                type="ResourcePropertyConflict",
            )
        if props["personality"]:
            raise errors.BadRequest(
                "Cannot use the personality parameter as nova no longer supports it. "
                "Use user_data instead.",
                type="StackValidationFailed",
            )

    def _validate_block_device_mapping(self) -> None:
        bdm = self.properties["block_device_mapping"] or []
        bdm_v2 = self.properties["block_device_mapping_v2"] or []
        if bdm and bdm_v2:
            raise errors.BadRequest(
                "Cannot define the following properties at the same time: "
                "block_device_mapping, block_device_mapping_v2.",
                type="ResourcePropertyConflict",
            )
        bootable = self.properties["image"] is not None
        sources = []
        for mapping in bdm:
            if mapping.get("device_name") == "vda":
                bootable = True
            if mapping.get("volume_id") and mapping.get("snapshot_id"):
                raise errors.BadRequest(
                    "Cannot define the following properties at the same time: "
                    "volume_id, snapshot_id.",
                    type="ResourcePropertyConflict",
                )
        for mapping in bdm_v2:
            given = [mapping.get(k) for k in ("volume_id", "snapshot_id", "image", "image_id")]
            given = [g for g in given if g]
            if len(given) > 1:
                raise errors.BadRequest(
                    "Cannot define the following properties at the same time: "
                    "volume_id, snapshot_id, image.",
                    type="ResourcePropertyConflict",
                )
            if given and mapping.get("boot_index") in (None, 0):
                bootable = True
                sources.extend(given)
        if not bootable:
            raise errors.BadRequest(
                "Neither image nor bootable volume is specified for instance %s" % self.name,
                type="StackValidationFailed",
            )
        if bdm_v2 and len(sources) > 1:
            raise errors.BadRequest(
                "Multiple bootable sources for instance %s." % self.name,
                type="StackValidationFailed",
            )

    # -- create ---------------------------------------------------------------

    def _user_data(self) -> str:
        content = self.properties["user_data"] or ""
        fmt = self.properties["user_data_format"]
        if fmt in ("SOFTWARE_CONFIG", "RAW") and _is_uuid_like(content):
            try:
                config = self.client().get("orchestration", "/software_configs/%s" % content)
                content = config.body["software_config"]["config"] or ""
            except ClientError as exc:
                if not exc.not_found:
                    raise
        metadata = self.metadata_get() or {}
        if self.user_data_software_config():
            self._create_transport_credentials(self.properties)
            self._populate_deployments_metadata(metadata, self.properties)
        return str(cp.build_userdata(metadata, content, fmt) or "")

    def _server_body(self) -> dict[str, Any]:
        props = self.properties
        clients = self.client()
        body: dict[str, Any] = {
            "name": self._server_name(),
            "flavorRef": cp.find_flavor_id(clients, props["flavor"]),
            "imageRef": cp.find_image_id(clients, props["image"]) if props["image"] else "",
            "networks": self._build_nics(props["networks"], props["security_groups"]),
        }
        user_data = self._user_data()
        if user_data:
            body["user_data"] = base64.b64encode(user_data.encode()).decode()
        if props["security_groups"] and not any(
            n.get("port") or n.get("subnet") or n.get("port_extra_properties")
            for n in props["networks"] or []
        ):
            body["security_groups"] = [{"name": sg} for sg in props["security_groups"]]
        optional = {
            "key_name": props["key_name"],
            "availability_zone": props["availability_zone"],
            "metadata": cp.meta_serialize(props["metadata"]) if props["metadata"] else None,
            "config_drive": props["config_drive"],
            "adminPass": props["admin_pass"] or None,
            "reservation_id": props["reservation_id"],
            "OS-DCF:diskConfig": props["diskConfig"],
            "block_device_mapping_v2": self._build_block_device_mapping_v2()
            or self._build_block_device_mapping(),
        }
        body.update({k: v for k, v in optional.items() if v is not None})
        if body.get("block_device_mapping_v2") and not props["image"]:
            del body["imageRef"]
        request: dict[str, Any] = {"server": body}
        if props["scheduler_hints"]:
            request["os:scheduler_hints"] = dict(props["scheduler_hints"])
        return request

    def _build_block_device_mapping(self) -> list[dict[str, Any]] | None:
        """The legacy mappings in v2 form (what Nova makes of them)."""
        bdm = self.properties["block_device_mapping"] or []
        out = []
        for m in bdm:
            snapshot = m.get("snapshot_id")
            entry: dict[str, Any] = {
                "device_name": m.get("device_name"),
                "source_type": "snapshot" if snapshot else "volume",
                "destination_type": "volume",
                "uuid": snapshot or m.get("volume_id"),
                "boot_index": 0 if m.get("device_name") == "vda" else -1,
                "delete_on_termination": bool(m.get("delete_on_termination")),
            }
            if m.get("volume_size"):
                entry["volume_size"] = m["volume_size"]
            out.append(entry)
        return out or None

    def _build_block_device_mapping_v2(self) -> list[dict[str, Any]] | None:
        """Heat's ``_build_block_device_mapping_v2``."""
        out = []
        for m in self.properties["block_device_mapping_v2"] or []:
            entry: dict[str, Any] | None = None
            image = m.get("image") or m.get("image_id")
            for key, source in (("volume_id", "volume"), ("snapshot_id", "snapshot")):
                if m.get(key):
                    entry = _bdm(m[key], source)
                    break
            else:
                if image:
                    entry = _bdm(cp.find_image_id(self.client(), image), "image")
                elif m.get("swap_size"):
                    entry = {
                        "source_type": "blank",
                        "destination_type": "local",
                        "boot_index": -1,
                        "delete_on_termination": True,
                        "guest_format": "swap",
                        "volume_size": m["swap_size"],
                    }
                elif m.get("ephemeral_size") or m.get("ephemeral_format"):
                    entry = {
                        "source_type": "blank",
                        "destination_type": "local",
                        "boot_index": -1,
                        "delete_on_termination": True,
                    }
                    if m.get("ephemeral_size"):
                        entry["volume_size"] = m["ephemeral_size"]
                    if m.get("ephemeral_format"):
                        entry["guest_format"] = m["ephemeral_format"]
            if entry is None:
                continue
            if m.get("device_name"):
                entry["device_name"] = m["device_name"]
            for key in (
                "device_type",
                "disk_bus",
                "boot_index",
                "volume_size",
                "delete_on_termination",
                "volume_type",
            ):
                if m.get(key) is not None:
                    entry[key] = m[key]
            out.append(entry)
        return out or None

    def handle_create(self) -> Any:
        made = cp.nova(self.client(), "POST", "/servers", self._server_body())
        server_id = made["server"]["id"]
        self.resource_id_set(server_id)
        return server_id

    def check_create_complete(self, handler_data: Any) -> bool:
        if not cp.check_active(self.client(), str(handler_data or self.resource_id)):
            return False
        if self.properties["tags"]:
            self._update_server_tags(self.properties["tags"])
        return True

    def _update_server_tags(self, tags: list[str]) -> None:
        cp.nova(self.client(), "PUT", "/servers/%s/tags" % self.resource_id, {"tags": list(tags)})

    # -- delete ---------------------------------------------------------------

    def handle_delete(self) -> Any:
        if self.user_data_software_config():
            self._delete_temp_url()
        self._floating_ips_disassociate()
        if self.resource_id is not None:
            try:
                cp.nova(self.client(), "DELETE", "/servers/%s" % self.resource_id)
            except ClientError as exc:
                if not exc.not_found:
                    raise
                self._delete_internal_ports()
                return None
            return self.resource_id
        self._delete_internal_ports()
        return None

    def check_delete_complete(self, handler_data: Any) -> bool:
        if handler_data and not cp.check_delete_server_complete(self.client(), handler_data):
            return False
        self._delete_internal_ports()
        self.data_delete("external_ports")
        return True

    # -- update ---------------------------------------------------------------

    def handle_update(
        self, json_snippet: Mapping[str, Any], tmpl_diff: Mapping[str, Any], prop_diff: dict
    ) -> Any:
        after = self.make_properties(json_snippet.get("properties") or {})
        before = self.properties
        for key, policy, replace in (
            ("flavor", "flavor_update_policy", ("REPLACE",)),
            ("image", "image_update_policy", ("REPLACE",)),
            ("user_data", "user_data_update_policy", ("REPLACE",)),
        ):
            if key in prop_diff and (after[policy] or before[policy]) in replace:
                raise resource.UpdateReplace(self.name)
        if "metadata" in tmpl_diff:
            self.update_metadata_from_template(json_snippet.get("metadata") or {})
        if server_base.SOFTWARE_CONFIG_TRANSPORT in prop_diff:
            self._update_software_config_transport(prop_diff)
        clients = self.client()
        path = "/servers/%s" % self.resource_id
        if "metadata" in prop_diff:
            cp.nova(
                clients,
                "PUT",
                path + "/metadata",
                {"metadata": cp.meta_serialize(after["metadata"] or {})},
            )
        if "tags" in prop_diff:
            self._update_server_tags(after["tags"] or [])
        if "name" in prop_diff:
            cp.nova(
                clients, "PUT", path, {"server": {"name": after["name"] or self._server_name()}}
            )
        steps: list[dict[str, Any]] = []
        if "networks" in prop_diff:
            steps += self._update_networks(after)
        if "flavor" in prop_diff:
            flavor = cp.find_flavor_id(clients, after["flavor"])
            steps += [{"action": "resize", "flavor": flavor}, {"action": "confirm"}]
        if "user_data" in prop_diff and after["user_data_update_policy"] == "REBUILD":
            steps.append({"action": "rebuild", "user_data": after["user_data"] or ""})
        if "image" in prop_diff:
            steps.append({"action": "rebuild", "image": after["image"]})
        elif "admin_pass" in prop_diff and after["admin_pass"]:
            cp.nova(
                clients,
                "POST",
                path + "/action",
                {"changePassword": {"adminPass": after["admin_pass"]}},
            )
        return steps

    def _update_networks(self, after: Mapping[str, Any]) -> list[dict[str, Any]]:
        """A detach step for each port to remove, an attach step for each
        interface to add (Heat's ``_update_networks``). The engine hands
        ``handle_update`` the new properties only, so the old entries are
        the server's interfaces (:meth:`interface_networks`)."""
        interfaces = self._interfaces()
        remove, add = self.calculate_networks(
            self.interface_networks(interfaces),
            after["networks"],
            interfaces,
            after["security_groups"],
        )
        steps: list[dict[str, Any]] = [{"action": "detach", "port": p} for p in remove]
        return steps + [{"action": "attach", **args} for args in add]

    def check_update_complete(self, handler_data: Any) -> bool:
        """Run the steps in order, one call per tick, each to its end."""
        for step in handler_data or []:
            if not step.get("called"):
                step["called"] = self._start_step(step)
                return False
            if not step.get("complete"):
                step["complete"] = self._step_done(step)
                if not step["complete"]:
                    return False
        return True

    def _start_step(self, step: dict[str, Any]) -> bool:
        clients = self.client()
        path = "/servers/%s/action" % self.resource_id
        if step["action"] in ("detach", "attach"):
            self._start_interface_step(step)
        elif step["action"] == "resize":
            cp.nova(clients, "POST", path, {"resize": {"flavorRef": step["flavor"]}})
        elif step["action"] == "confirm":
            server = cp.fetch_server(clients, str(self.resource_id)) or {}
            status = cp.get_status(server) if server else "DELETED"
            if status != "VERIFY_RESIZE":
                raise exception.ResourceUnknownStatus(
                    resource_status=status,
                    result="Could not confirm resize of server %s" % self.resource_id,
                )
            cp.nova(clients, "POST", path, {"confirmResize": None})
        else:
            image = step.get("image") or (
                cp.fetch_server(clients, str(self.resource_id)) or {}
            ).get("image", {}).get("id")
            body: dict[str, Any] = {"imageRef": cp.find_image_id(clients, image)}
            if "user_data" in step:
                body["user_data"] = base64.b64encode(step["user_data"].encode()).decode()
            if self.properties["admin_pass"]:
                body["adminPass"] = self.properties["admin_pass"]
            cp.nova(clients, "POST", path, {"rebuild": body})
        return True

    def _start_interface_step(self, step: dict[str, Any]) -> None:
        """Nova's interface detach (a port already gone counts as
        detached) or attach (a port Nova makes given the security groups
        afterwards, as Heat's ``interface_attach``)."""
        clients = self.client()
        path = "/servers/%s/os-interface" % self.resource_id
        if step["action"] == "detach":
            clients.delete_ignoring_not_found("compute", "%s/%s" % (path, step["port"]))
            return
        attachment: dict[str, Any] = {}
        if step["port_id"]:
            attachment["port_id"] = step["port_id"]
        if step["net_id"]:
            attachment["net_id"] = step["net_id"]
        if step["fip"]:
            attachment["fixed_ips"] = [{"ip_address": step["fip"]}]
        made = cp.nova(clients, "POST", path, {"interfaceAttachment": attachment})
        port_id = made["interfaceAttachment"]["port_id"]
        if not step["port_id"] and step.get("security_groups"):
            clients.put(
                "network",
                "/v2.0/ports/%s" % port_id,
                {"port": {"security_groups": step["security_groups"]}},
            )

    def _interface_step_done(self, step: dict[str, Any]) -> bool:
        """A detached port no longer the server's; an attached one among
        its interfaces (Heat's ``check_interface_detach``/``_attach``)."""
        if step["action"] == "detach":
            try:
                port = self.client().get("network", "/v2.0/ports/%s" % step["port"]).body
            except ClientError as exc:
                if exc.not_found:
                    return True
                raise
            return bool(port["port"].get("device_id") != self.resource_id)
        if not step["port_id"]:
            return True
        return step["port_id"] in {i["port_id"] for i in self._interfaces()}

    def _step_done(self, step: dict[str, Any]) -> bool:
        if step["action"] in ("detach", "attach"):
            return self._interface_step_done(step)
        server = cp.fetch_server(self.client(), str(self.resource_id))
        if server is None:
            return False
        status = server["status"]
        if step["action"] == "resize":
            if status in ("RESIZE", "ACTIVE"):
                return False
            if status == "VERIFY_RESIZE":
                return True
            raise exception.Error(
                "Resizing to '%s' failed, status '%s'" % (step["flavor"], status)
            )
        if step["action"] == "confirm":
            if status == "ACTIVE":
                return True
            if status == "VERIFY_RESIZE" or "resize" in (
                server.get("OS-EXT-STS:task_state") or ""
            ):
                return False
            raise exception.ResourceUnknownStatus(
                resource_status=status,
                result="Confirm resize for server %s failed" % self.resource_id,
            )
        if status == "REBUILD":
            return False
        if status == "ERROR":
            raise exception.Error("Rebuilding server failed, status '%s'" % status)
        return True

    # -- suspend, resume, check ---------------------------------------------

    def _server_or_not_found(self) -> dict[str, Any]:
        if self.resource_id is None:
            raise exception.Error("Cannot suspend %s, resource_id not set" % self.name)
        server = cp.fetch_server(self.client(), self.resource_id)
        if server is None:
            raise exception.Error("Failed to find server %s" % self.resource_id)
        return server

    def handle_suspend(self) -> Any:
        server = self._server_or_not_found()
        if cp.get_status(server) != "SUSPENDED":
            cp.nova(self.client(), "POST", "/servers/%s/action" % server["id"], {"suspend": None})
        return server["id"]

    def check_suspend_complete(self, handler_data: Any) -> bool:
        server = cp.fetch_server(self.client(), handler_data)
        if server is None:
            return False
        status = cp.get_status(server)
        if status in cp.DEFERRED_SERVER_STATUSES | {"ACTIVE"}:
            return status == "SUSPENDED"
        raise exception.ResourceUnknownStatus(
            resource_status=status, result="Suspend of server %s failed" % server["name"]
        )

    def handle_resume(self) -> Any:
        server = self._server_or_not_found()
        if cp.get_status(server) != "ACTIVE":
            cp.nova(self.client(), "POST", "/servers/%s/action" % server["id"], {"resume": None})
        return server["id"]

    def check_resume_complete(self, handler_data: Any) -> bool:
        return cp.check_active(self.client(), handler_data)

    def handle_check(self) -> Any:
        server = self._server_or_not_found()
        status = cp.get_status(server)
        if status != "ACTIVE":
            raise exception.Error("'status': expected 'ACTIVE', got '%s'" % status)
        return None

    # -- attributes -----------------------------------------------------------

    def show(self) -> Any:
        if self.resource_id is None:
            return None
        server = cp.fetch_server(self.client(), self.resource_id) or {}
        server.setdefault("os_collect_config", self.metadata_get().get("os-collect-config", {}))
        return server

    def _resolve_attribute(self, name: str) -> Any:
        if self.resource_id is None:
            return None
        if name == "os_collect_config":
            return self.metadata_get().get("os-collect-config", {})
        if name == "name":
            return self._server_name()
        server = cp.fetch_server(self.client(), self.resource_id)
        if server is None:
            return ""
        if name == "first_address":
            nets = _addresses(server)
            for net in sorted(nets, reverse=True):
                if nets[net]:
                    return nets[net][0]
            return ""
        if name == "addresses":
            return self._get_server_addresses(self.resource_id)
        if name == "networks":
            nets = _addresses(server)
            ids = {}
            for label in nets:
                try:
                    ids[label] = neutron.find_resourceid_by_name_or_id(
                        self.client(), "network", label
                    )
                except ClientError:
                    continue
            return self._extend_networks(nets, ids)
        if name == "instance_name":
            return server.get("OS-EXT-SRV-ATTR:instance_name")
        if name in ("accessIPv4", "accessIPv6"):
            return server.get(name)
        if name == "tags":
            return server.get("tags")
        if name == "console_urls":
            return {}
        return None


def _bdm(uuid: str, source: str) -> dict[str, Any]:
    return {
        "uuid": uuid,
        "source_type": source,
        "destination_type": "volume",
        "boot_index": 0,
        "delete_on_termination": False,
    }


def _addresses(server: Mapping[str, Any]) -> dict[str, list[str]]:
    """novaclient's ``server.networks``: label → its addresses."""
    return {
        label: [a["addr"] for a in addrs]
        for label, addrs in (server.get("addresses") or {}).items()
    }


def _is_uuid_like(value: str) -> bool:
    """oslo's ``uuidutils.is_uuid_like``."""
    try:
        return str(uuid.UUID(value)).replace("-", "") == value.replace("-", "").lower()
    except (TypeError, ValueError, AttributeError):
        return False


def resource_mapping() -> dict[str, type[resource.Resource]]:
    return {"OS::Nova::Server": Server}
