"""``OS::Cinder::Volume`` and ``OS::Cinder::VolumeAttachment`` (Heat's
``cinder/volume.py`` over ``resources/volume_base.py`` and the Cinder and
Nova client plugins, ``clients/os/cinder.py``, ``nova.py``).

A volume is one of the local Cinder in the stack's project: created, then
polled until ``available`` (``error`` is Heat's ``ResourceInError``);
deleted, refused while ``in-use``, and waited for until gone. An update
renames it, replaces its metadata or extends it in place (Heat extends an
``available`` or, from Cinder 3.42, an ``in-use`` volume; it never
shrinks one). An attachment is Nova's ``os-volume_attachments`` of a
server: made, then the volume polled until ``in-use``; deleted by
detaching and waiting until Cinder and Nova both let go.

What the local Cinder does not serve (backups, ``os-retype``,
``os-update_readonly_flag``) is asked for as Heat asks, and its refusal is
the resource's failure.
"""

import json
from collections.abc import Mapping
from typing import Any

from occli.localcloud import errors
from occli.localcloud.orchestration.engine import attributes
from occli.localcloud.orchestration.engine import constraints
from occli.localcloud.orchestration.engine import exception
from occli.localcloud.orchestration.engine import properties
from occli.localcloud.orchestration.engine import resource
from occli.localcloud.orchestration.engine.clients import ClientError
from occli.localcloud.orchestration.engine.clients import Clients
from occli.localcloud.orchestration.engine.resources.openstack.nova import client_plugin as nova

P = properties.Schema
A = attributes.Schema

SERVICE = "volumev3"
# heat's MICROVERSION_EXTEND_INUSE: the Cinder calls are made at it, so an
# attached volume is extended in place
MICROVERSION = "3.42"
HEADERS = {"OpenStack-API-Version": "volume %s" % MICROVERSION}
CREATING_STATUSES = ("creating", "restoring-backup", "downloading")
EXTENDABLE_STATUSES = ("available", "in-use")


def cinder(clients: Clients, method: str, path: str, body: Any = None) -> Any:
    """One Cinder call at :data:`MICROVERSION`; the answer's body."""
    return clients.request(SERVICE, method, path, json_body=body, headers=HEADERS).body


def get_volume(clients: Clients, volume_id: str) -> dict[str, Any]:
    return dict(cinder(clients, "GET", "/volumes/%s" % volume_id)["volume"])


def check_attach_volume_complete(clients: Clients, volume_id: str) -> bool:
    """Heat's cinder plugin: attached once ``in-use``."""
    status = get_volume(clients, volume_id)["status"]
    if status in ("available", "attaching", "reserved"):
        return False
    if status != "in-use":
        raise exception.ResourceUnknownStatus(
            resource_status=status, result="Volume attachment failed"
        )
    return True


def check_detach_volume_complete(
    clients: Clients, volume_id: str, server_id: str | None = None
) -> bool:
    """Heat's cinder plugin: detached once the volume is gone, no longer
    attached to ``server_id``, or ``available``."""
    try:
        volume = get_volume(clients, volume_id)
    except ClientError as exc:
        if exc.not_found:
            return True
        raise
    servers = [a["server_id"] for a in volume.get("attachments") or [] if "server_id" in a]
    if server_id and server_id not in servers:
        return True
    if volume["status"] in ("in-use", "detaching", "reserved"):
        return False
    if volume["status"] not in ("available", "deleting"):
        raise exception.ResourceUnknownStatus(
            resource_status=volume["status"], result="Volume detachment failed"
        )
    return True


def attach_volume(clients: Clients, server_id: str, volume_id: str, device: str | None) -> Any:
    """Nova's attach (heat's nova plugin): the attachment id, or False
    when Nova answers 409 (the server is busy: try again)."""
    body: dict[str, Any] = {"volumeId": volume_id}
    if device:
        body["device"] = device
    try:
        made = nova.nova(
            clients,
            "POST",
            "/servers/%s/os-volume_attachments" % server_id,
            {"volumeAttachment": body},
        )
    except ClientError as exc:
        if exc.status == 409:
            return False
        raise exception.Error(
            "Failed to attach volume %s to server %s - %s" % (volume_id, server_id, exc)
        ) from None
    return str(made["volumeAttachment"]["id"])


def detach_volume(clients: Clients, server_id: str, attach_id: str) -> bool:
    """Nova's detach: True once asked (or already gone), False on 409."""
    try:
        nova.nova(
            clients, "DELETE", "/servers/%s/os-volume_attachments/%s" % (server_id, attach_id)
        )
    except ClientError as exc:
        if exc.status == 409:
            return False
        if exc.status not in (400, 404):
            raise exception.Error(
                "Could not detach attachment %s from server %s." % (attach_id, server_id)
            ) from None
    return True


def check_nova_detach_complete(clients: Clients, server_id: str, attach_id: str) -> bool:
    """Whether Nova no longer lists the attachment."""
    try:
        nova.nova(clients, "GET", "/servers/%s/os-volume_attachments/%s" % (server_id, attach_id))
    except ClientError as exc:
        if exc.not_found:
            return True
        raise
    return False


class CinderVolume(resource.Resource):
    """A Cinder volume of the stack's project."""

    default_client_name = SERVICE
    properties_schema = {
        "availability_zone": P(
            P.STRING, "The availability zone in which the volume will be created."
        ),
        "size": P(
            P.INTEGER,
            "The size of the volume in GB. On update only increase in size is supported. "
            "This property is required unless property backup_id or source_volid or "
            "snapshot_id is specified.",
            update_allowed=True,
            constraints=[constraints.Range(min=1)],
        ),
        "snapshot_id": P(
            P.STRING,
            "If specified, the snapshot to create the volume from.",
            constraints=[constraints.CustomConstraint("cinder.snapshot")],
        ),
        # heat's constraint cinder.backup is left out: the local Cinder has
        # no backups, so a restore is refused by the service itself
        "backup_id": P(
            P.STRING,
            "If specified, the backup to create the volume from.",
            update_allowed=True,
        ),
        "name": P(P.STRING, "A name used to distinguish the volume.", update_allowed=True),
        "description": P(P.STRING, "A description of the volume.", update_allowed=True),
        "volume_type": P(
            P.STRING,
            "If specified, the type of volume to use, mapping to a specific backend.",
            constraints=[constraints.CustomConstraint("cinder.vtype")],
            update_allowed=True,
        ),
        "metadata": P(
            P.MAP,
            "Key/value pairs to associate with the volume.",
            update_allowed=True,
            default={},
        ),
        "imageRef": P(P.STRING, "The ID of the image to create the volume from."),
        "image": P(
            P.STRING,
            "If specified, the name or ID of the image to create the volume from.",
            constraints=[constraints.CustomConstraint("glance.image")],
        ),
        "source_volid": P(
            P.STRING,
            "If specified, the volume to use as source.",
            constraints=[constraints.CustomConstraint("cinder.volume")],
        ),
        "scheduler_hints": P(
            P.MAP,
            "Arbitrary key-value pairs specified by the client to help the Cinder "
            "scheduler creating a volume.",
        ),
        "read_only": P(
            P.BOOLEAN,
            "Enables or disables read-only access mode of volume.",
            update_allowed=True,
        ),
        "multiattach": P(
            P.BOOLEAN,
            "Whether allow the volume to be attached more than once.",
            default=False,
        ),
    }
    attributes_schema = {
        "availability_zone": A(
            "The availability zone in which the volume is located.", type=A.STRING
        ),
        "size": A("The size of the volume in GB.", type=A.STRING),
        "snapshot_id": A("The snapshot the volume was created from, if any.", type=A.STRING),
        "display_name": A("Name of the volume.", type=A.STRING),
        "display_description": A("Description of the volume.", type=A.STRING),
        "volume_type": A("The type of the volume mapping to a backend, if any.", type=A.STRING),
        "metadata": A("Key/value pairs associated with the volume.", type=A.STRING),
        "source_volid": A("The volume used as source, if any.", type=A.STRING),
        "status": A("The current status of the volume.", type=A.STRING),
        "created_at": A("The timestamp indicating volume creation.", type=A.STRING),
        "bootable": A("Boolean indicating if the volume can be booted or not.", type=A.STRING),
        "metadata_values": A(
            "Key/value pairs associated with the volume in raw dict form.", type=A.MAP
        ),
        "encrypted": A("Boolean indicating if the volume is encrypted or not.", type=A.STRING),
        "attachments": A(
            "A string representation of the list of attachments of the volume.",
            type=A.STRING,
        ),
        "attachments_list": A("The list of attachments of the volume.", type=A.LIST),
        "multiattach": A(
            "Boolean indicating whether allow the volume to be attached more than once.",
            type=A.BOOLEAN,
        ),
    }

    def _path(self) -> str:
        return "/volumes/%s" % self.resource_id

    # -- validation (heat's CinderVolume.validate) -----------------------------

    def validate(self) -> None:
        super().validate()
        props = self.properties
        if props["image"] and props["imageRef"]:
            raise errors.BadRequest(
                "Cannot define the following properties at the same time: image, imageRef.",
                type="ResourcePropertyConflict",
            )
        if not props["backup_id"]:
            self._validate_create_sources()

    def _validate_create_sources(self) -> None:
        props = self.properties
        exclusive = [k for k in ("snapshot_id", "source_volid") if props[k]]
        no_size_ok = list(exclusive)
        exclusive += [k for k in ("image", "imageRef") if props[k]]
        if props["size"] is None and (len(no_size_ok) != 1 or len(exclusive) != 1):
            raise errors.BadRequest(
                'If neither "backup_id" nor "size" is provided, one and only one of '
                '"source_volid", "snapshot_id" must be specified, but currently '
                "specified options: %s." % exclusive,
                type="StackValidationFailed",
            )
        if props["size"] and len(exclusive) > 1:
            raise errors.BadRequest(
                'If "size" is provided, only one of "image", "imageRef", "source_volid", '
                '"snapshot_id" can be specified, but currently specified options: %s.' % exclusive,
                type="StackValidationFailed",
            )

    # -- create -------------------------------------------------------------

    def _name_and_description(self) -> dict[str, Any]:
        """Heat's ``_fetch_name_and_description``: the physical name when
        no name is given."""
        return {
            "name": self.properties["name"] or self.physical_resource_name(),
            "description": self.properties["description"],
        }

    def _create_body(self) -> dict[str, Any]:
        props = self.properties
        volume: dict[str, Any] = {
            "size": props["size"],
            "availability_zone": props["availability_zone"] or None,
        }
        if props["image"]:
            volume["imageRef"] = nova.find_image_id(self.client(), props["image"])
        elif props["imageRef"]:
            volume["imageRef"] = props["imageRef"]
        for key in ("snapshot_id", "volume_type", "source_volid", "metadata"):
            if props[key] is not None:
                volume[key] = props[key]
        volume.update(self._name_and_description())
        body: dict[str, Any] = {"volume": volume}
        if props["scheduler_hints"]:
            body["OS-SCH-HNT:scheduler_hints"] = props["scheduler_hints"]
        return body

    def handle_create(self) -> Any:
        clients = self.client()
        backup_id = self.properties["backup_id"]
        if backup_id is not None:
            restored = cinder(clients, "POST", "/backups/%s/restore" % backup_id, {"restore": {}})
            volume_id = str(restored["restore"]["volume_id"])
            cinder(
                clients, "PUT", "/volumes/%s" % volume_id, {"volume": self._name_and_description()}
            )
        else:
            volume_id = str(
                cinder(clients, "POST", "/volumes", self._create_body())["volume"]["id"]
            )
        self.resource_id_set(volume_id)
        return volume_id

    def check_create_complete(self, handler_data: Any) -> bool:
        volume = get_volume(self.client(), str(handler_data))
        status = volume["status"]
        if status in CREATING_STATUSES:
            return False
        if status == "error":
            raise exception.ResourceInError(resource_status=status)
        if status != "available":
            raise exception.ResourceUnknownStatus(
                resource_status=status, result="Volume create failed"
            )
        # heat's _store_config_default_properties, then the read-only flag
        # (Cinder changes it only on an available volume)
        if volume.get("volume_type") is not None:
            self.data_set("volume_type", volume["volume_type"])
        else:
            self.data_delete("volume_type")
        self._update_read_only(self.properties["read_only"])
        return True

    def _update_read_only(self, flag: bool | None) -> None:
        if flag is not None:
            cinder(
                self.client(),
                "POST",
                self._path() + "/action",
                {"os-update_readonly_flag": {"readonly": flag}},
            )

    # -- attributes -----------------------------------------------------------

    def show(self) -> Any:
        if self.resource_id is None:
            return None
        return get_volume(self.client(), self.resource_id)

    def _resolve_attribute(self, name: str) -> Any:
        """Heat's values: most are ``str()`` of what Cinder shows."""
        if self.resource_id is None:
            return None
        volume = get_volume(self.client(), self.resource_id)
        if name == "metadata":
            return json.dumps(volume.get("metadata") or {})
        if name == "metadata_values":
            return volume.get("metadata") or {}
        if name == "display_name":
            return volume.get("name")
        if name == "display_description":
            return volume.get("description")
        if name == "attachments_list":
            return volume.get("attachments") or []
        return str(volume.get(name))

    # -- update ---------------------------------------------------------------

    def handle_update(
        self, json_snippet: Mapping[str, Any], tmpl_diff: Mapping[str, Any], prop_diff: dict
    ) -> Any:
        """Heat's in-place changes; the slow ones (extend, read-only) run in
        ``check_update_complete``."""
        clients = self.client()
        if "name" in prop_diff or "description" in prop_diff:
            cinder(clients, "PUT", self._path(), {"volume": self._name_and_description()})
        if "metadata" in prop_diff:
            cinder(
                clients,
                "PUT",
                self._path() + "/metadata",
                {"metadata": prop_diff["metadata"] or {}},
            )
        if "volume_type" in prop_diff:
            cinder(
                clients,
                "POST",
                self._path() + "/action",
                {"os-retype": {"new_type": prop_diff["volume_type"], "migration_policy": "never"}},
            )
        steps: dict[str, Any] = {}
        if "backup_id" in prop_diff:
            steps["restore"] = {"backup_id": prop_diff["backup_id"], "called": False}
        if "size" in prop_diff:
            volume = get_volume(clients, str(self.resource_id))
            new_size = prop_diff["size"]
            if new_size is not None and new_size < volume["size"]:
                raise exception.NotSupported("Shrinking volume")
            if new_size is not None and new_size > volume["size"]:
                steps["resize"] = {"size": new_size, "ready": False, "called": False}
        if "read_only" in prop_diff:
            steps["access"] = {"read_only": prop_diff["read_only"]}
        return steps

    def check_update_complete(self, handler_data: Any) -> bool:
        steps: dict[str, Any] = handler_data or {}
        clients = self.client()
        restore = steps.get("restore")
        if restore is not None and not restore.get("done"):
            if not restore["called"]:
                cinder(
                    clients,
                    "POST",
                    "/backups/%s/restore" % restore["backup_id"],
                    {"restore": {"volume_id": self.resource_id}},
                )
                restore["called"] = True
                return False
            status = get_volume(clients, str(self.resource_id))["status"]
            if status == "restoring-backup":
                return False
            if status != "available":
                raise exception.ResourceUnknownStatus(
                    resource_status=status, result="Volume backup restore failed"
                )
            restore["done"] = True
        resize = steps.get("resize")
        if resize is not None and not resize.get("done"):
            if not resize["ready"]:
                status = get_volume(clients, str(self.resource_id))["status"]
                resize["ready"] = status in EXTENDABLE_STATUSES
                if not resize["ready"]:
                    return False
            if not resize["called"]:
                self._extend_volume(resize["size"])
                resize["called"] = True
                return False
            status = get_volume(clients, str(self.resource_id))["status"]
            if status == "extending":
                return False
            if status not in EXTENDABLE_STATUSES:
                raise exception.ResourceUnknownStatus(
                    resource_status=status, result="Volume resize failed"
                )
            resize["done"] = True
        access = steps.get("access")
        if access is not None and not access.get("done"):
            self._update_read_only(access["read_only"])
            access["done"] = True
        return True

    def _extend_volume(self, new_size: int) -> None:
        try:
            cinder(
                self.client(),
                "POST",
                self._path() + "/action",
                {"os-extend": {"new_size": new_size}},
            )
        except ClientError as exc:
            raise exception.Error(
                "Failed to extend volume %s - %s" % (self.resource_id, exc)
            ) from None

    # -- check, delete --------------------------------------------------------

    def handle_check(self) -> Any:
        status = get_volume(self.client(), str(self.resource_id))["status"]
        if status not in EXTENDABLE_STATUSES:
            raise exception.Error(
                "'status': expected '%s', got '%s'" % (list(EXTENDABLE_STATUSES), status)
            )
        return None

    def handle_delete(self) -> Any:
        return {"called": self.resource_id is None, "complete": self.resource_id is None}

    def check_delete_complete(self, handler_data: Any) -> bool:
        """Heat's ``BaseVolume.check_delete_complete`` (no backup): refused
        while in use, then polled until Cinder no longer has it."""
        progress: dict[str, Any] = handler_data
        if progress["complete"]:
            return True
        clients = self.client()
        try:
            volume = get_volume(clients, str(self.resource_id))
        except ClientError as exc:
            if exc.not_found:
                progress["complete"] = True
                return True
            raise
        if not progress["called"]:
            if volume["status"] == "in-use":
                raise exception.Error("Volume in use")
            if volume["status"] != "deleting":
                clients.delete_ignoring_not_found(SERVICE, self._path())
            progress["called"] = True
            return False
        if volume["status"].lower() == "error_deleting":
            raise exception.ResourceInError(
                resource_status=volume["status"], status_reason="delete"
            )
        return False


class CinderVolumeAttachment(resource.Resource):
    """A volume attached to a server through Nova."""

    default_client_name = SERVICE
    properties_schema = {
        "instance_uuid": P(
            P.STRING,
            "The ID of the server to which the volume attaches.",
            required=True,
            update_allowed=True,
        ),
        "volume_id": P(
            P.STRING,
            "The ID of the volume to be attached.",
            required=True,
            update_allowed=True,
            constraints=[constraints.CustomConstraint("cinder.volume")],
        ),
        "mountpoint": P(
            P.STRING,
            "The location where the volume is exposed on the instance. This assignment may "
            "not be honored and it is advised that the path /dev/disk/by-id/virtio-<VolumeId> "
            "be used instead.",
            update_allowed=True,
        ),
    }

    def _attach(self, server_id: str, volume_id: str, device: str | None) -> Any:
        """Attach and remember where (an update detaches from there: the
        engine's ``self.properties`` are already the new ones)."""
        attach_id = attach_volume(self.client(), server_id, volume_id, device)
        if attach_id:
            self.resource_id_set(attach_id)
            self.data_set("instance_uuid", server_id)
            self.data_set("volume_id", volume_id)
        return attach_id

    def handle_create(self) -> Any:
        props = self.properties
        step = {
            "server": props["instance_uuid"],
            "volume": props["volume_id"],
            "device": props["mountpoint"] or None,
        }
        step["called"] = bool(self._attach(step["server"], step["volume"], step["device"]))
        return step

    def check_create_complete(self, handler_data: Any) -> bool:
        step: dict[str, Any] = handler_data
        if not step["called"]:
            # heat's 409 answer (the server is busy): asked again
            step["called"] = bool(self._attach(step["server"], step["volume"], step["device"]))
            return False
        return check_attach_volume_complete(self.client(), step["volume"])

    def _attached(self) -> tuple[str, str]:
        data = self.data()
        return (
            str(data.get("instance_uuid") or self.properties["instance_uuid"]),
            str(data.get("volume_id") or self.properties["volume_id"]),
        )

    def _detach_steps(self) -> dict[str, Any] | None:
        if not self.resource_id:
            return None
        server_id, volume_id = self._attached()
        return {
            "server": server_id,
            "volume": volume_id,
            "called": detach_volume(self.client(), server_id, self.resource_id),
            "cinder": False,
            "nova": False,
        }

    def _detach_complete(self, prg: dict[str, Any]) -> bool:
        clients = self.client()
        if not prg["called"]:
            prg["called"] = detach_volume(clients, prg["server"], str(self.resource_id))
            return False
        if not prg["cinder"]:
            prg["cinder"] = check_detach_volume_complete(clients, prg["volume"], prg["server"])
            return False
        if not prg["nova"]:
            prg["nova"] = check_nova_detach_complete(clients, prg["server"], str(self.resource_id))
            return bool(prg["nova"])
        return True

    def handle_delete(self) -> Any:
        return self._detach_steps()

    def check_delete_complete(self, handler_data: Any) -> bool:
        if handler_data is None:
            return True
        return self._detach_complete(handler_data)

    def handle_update(
        self, json_snippet: Mapping[str, Any], tmpl_diff: Mapping[str, Any], prop_diff: dict
    ) -> Any:
        """Heat's rule: detach, then attach with the new properties."""
        if not prop_diff:
            return None
        props = self.properties
        attach = {
            "server": props["instance_uuid"],
            "volume": props["volume_id"],
            "device": props["mountpoint"] or None,
            "called": False,
        }
        return {"detach": self._detach_steps(), "attach": attach}

    def check_update_complete(self, handler_data: Any) -> bool:
        if not handler_data:
            return True
        detach, attach = handler_data["detach"], handler_data["attach"]
        if detach is not None and not detach.get("done"):
            if not self._detach_complete(detach):
                return False
            detach["done"] = True
        if not attach["called"]:
            attach["called"] = bool(
                self._attach(attach["server"], attach["volume"], attach["device"])
            )
            return False
        return check_attach_volume_complete(self.client(), attach["volume"])

    def show(self) -> Any:
        if not self.resource_id:
            return None
        server_id, _volume_id = self._attached()
        found = nova.nova(
            self.client(),
            "GET",
            "/servers/%s/os-volume_attachments/%s" % (server_id, self.resource_id),
        )
        return found["volumeAttachment"]


def resource_mapping() -> dict[str, type[resource.Resource]]:
    return {
        "OS::Cinder::Volume": CinderVolume,
        "OS::Cinder::VolumeAttachment": CinderVolumeAttachment,
    }
