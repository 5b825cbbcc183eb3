"""Cinder v3 volumes and snapshots (``client.volumes``,
``client.volume_snapshots``).

Requests go to the catalog's ``block-storage`` endpoint (keystoneauth1
also finds it listed as ``volumev3``: the service-types authority's
aliases), usually ``…/v3/<project_id>``; one naming no version gets
``/v3``. Every request carries ``OpenStack-API-Version: volume``
:data:`occli.client.VOLUME_API_VERSION`. Lists follow Cinder's
``volumes_links`` / ``snapshots_links`` pages; names resolve with Cinder's
``?name=`` filter (one request), ids (UUIDs) by id.
"""

from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Mapping
from typing import Any

from occli import base
from occli import exceptions
from occli.v2.block_storage import base as cinder

#: ``DELETE /volumes/{id}?force=true`` (cinder's ``VOLUME_DELETE_FORCE``)
FORCE_DELETE_VERSION = "3.23"
#: ``os-volume_upload_image``'s ``visibility`` and ``protected``
#: (cinder's ``UPLOAD_IMAGE_PARAMS``)
UPLOAD_IMAGE_PARAMS_VERSION = "3.1"
#: the disk formats Cinder uploads a volume as (its request schema's)
UPLOAD_DISK_FORMATS = ("raw", "vmdk", "vdi", "qcow2", "vhd", "vhdx", "ploop")
#: an uploaded image's visibilities (from 3.1)
UPLOAD_VISIBILITIES = ("public", "private", "shared", "community")
#: ``os-extend`` of an ``in-use`` volume (cinder's ``VOLUME_EXTEND_INUSE``)
EXTEND_ATTACHED_VERSION = "3.42"
#: ``revert`` to the latest snapshot (cinder's ``VOLUME_REVERT``)
REVERT_VERSION = "3.40"
#: ``GET /volumes/summary`` and its ``metadata`` (``VOLUME_SUMMARY[_METADATA]``)
SUMMARY_VERSION = "3.12"
SUMMARY_METADATA_VERSION = "3.36"
#: a volume's detail complete: ``consumes_quota`` (cinder's ``USE_QUOTA``),
#: ``volume_type_id`` 3.63, ``cluster_name`` 3.61, ``service_uuid`` 3.48, …
SHOW_VERSION = "3.65"
#: ``os-retype``'s migration policies
RETYPE_POLICIES = ("never", "on-demand")


class Volume(base.Resource):
    """A Cinder volume (``status``, ``size`` in GiB, ``attachments``)."""


class VolumeSnapshot(base.Resource):
    """A snapshot of a volume."""


def _check_size(size: int | str, param: str = "size") -> int:
    try:
        value = int(size)
    except (TypeError, ValueError):
        value = 0
    if value < 1 or str(size).strip() != str(value):
        raise exceptions.ValidationError(
            "{%s} must be a whole number of GiB, 1 or more, not %r." % (param, size),
            params=(param,),
        )
    return value


class VolumeManager(cinder.CinderManager):
    resource_class = Volume
    collection = "volumes"
    member = "volume"
    noun = "volume"

    def create(
        self,
        size: int | str | None = None,
        name: str | None = None,
        description: str | None = None,
        image: base.Resource | str | None = None,
        snapshot: base.Resource | str | None = None,
        source_volume: base.Resource | str | None = None,
        volume_type: str | None = None,
        availability_zone: str | None = None,
        metadata: Mapping[str, str] | None = None,
    ) -> base.Resource:
        """Create a volume: blank (``size`` GiB), from ``image``, from
        ``snapshot`` or a copy of ``source_volume`` (at most one source;
        the size defaults to the snapshot's or volume's). Returns it
        ``creating``."""
        body = self.check_create(size, image, snapshot, source_volume)
        optional = {
            "name": name,
            "description": description,
            "volume_type": volume_type,
            "availability_zone": availability_zone,
            "metadata": dict(metadata) if metadata else None,
        }
        body.update((k, v) for k, v in optional.items() if v is not None)
        return self._create(self._url("volumes"), {"volume": body}, "volume")

    def check_create(
        self,
        size: int | str | None = None,
        image: base.Resource | str | None = None,
        snapshot: base.Resource | str | None = None,
        source_volume: base.Resource | str | None = None,
    ) -> dict[str, Any]:
        """The source part of :meth:`create`'s body: ValidationError for
        several sources, or no size without a snapshot or volume to copy."""
        sources = {
            "imageRef": image,
            "snapshot_id": snapshot,
            "source_volid": source_volume,
        }
        given = [k for k, v in sources.items() if v is not None]
        if len(given) > 1:
            raise exceptions.ValidationError(
                "Give one source of {image}, {snapshot} and {source_volume}, not several.",
                params=("image", "snapshot", "source_volume"),
            )
        body: dict[str, Any] = {k: str(base.getid(v)) for k, v in sources.items() if v is not None}
        if size is not None:
            body["size"] = _check_size(size)
        elif not (snapshot or source_volume):
            raise exceptions.ValidationError(
                "A volume needs a {size} unless it copies a snapshot or a volume.",
                params=("size",),
            )
        return body

    def show(self, volume: base.Resource | str) -> base.Resource:
        """The volume read at :data:`SHOW_VERSION`, with every field
        Cinder's volume detail has (as OSC, whose openstacksdk reads it at
        its newest)."""
        response = self._request(
            "GET", self._url(self.collection, base.getid(volume)), microversion=SHOW_VERSION
        )
        return self._resource(self._member(response, self._body(response), self.member), response)

    def update(
        self,
        volume: base.Resource | str,
        name: str | None = None,
        description: str | None = None,
        metadata: Mapping[str, str] | None = None,
    ) -> base.Resource:
        """Rename or describe a volume; ``metadata`` replaces its whole
        metadata (:meth:`set_metadata` merges)."""
        body = {
            k: v
            for k, v in (("name", name), ("description", description), ("metadata", metadata))
            if v is not None
        }
        if not body:
            raise exceptions.ValidationError(
                "Give {name}, {description} or {metadata}.",
                params=("name", "description", "metadata"),
            )
        return self._update(self._url("volumes", base.getid(volume)), {"volume": body}, "volume")

    def set_metadata(
        self, volume: base.Resource | str, metadata: Mapping[str, str]
    ) -> base.DictWithMeta:
        """Merge ``metadata`` into the volume's; the whole dict."""
        response = self._request(
            "POST",
            self._url("volumes", base.getid(volume), "metadata"),
            body={"metadata": dict(metadata)},
        )
        return base.DictWithMeta(
            self._value(response, self._body(response), "metadata", dict, {}),
            base._request_ids(response),
        )

    def delete_metadata(self, volume: base.Resource | str, keys: Iterable[str]) -> None:
        """Remove metadata ``keys`` (a request per key)."""
        for key in keys:
            self._delete(self._url("volumes", base.getid(volume), "metadata", key))

    def delete(
        self, volume: base.Resource | str, cascade: bool = False, force: bool = False
    ) -> base.Result:
        """Delete a volume, with its snapshots if ``cascade``; ``force``
        (an admin's) whatever its status, at volume API 3.23. Cinder still
        refuses an attached volume."""
        params: dict[str, str] = {}
        if cascade:
            params["cascade"] = "true"
        if force:
            params["force"] = "true"
        return self._delete(
            self._url("volumes", base.getid(volume)),
            params=params or None,
            microversion=FORCE_DELETE_VERSION if force else None,
        )

    def upload_to_image(
        self,
        volume: base.Resource | str,
        image_name: str,
        force: bool = False,
        disk_format: str | None = None,
        container_format: str | None = None,
        visibility: str | None = None,
        protected: bool | None = None,
    ) -> base.DictWithMeta:
        """Upload a volume to a new Glance image (``os-volume_upload_image``,
        openstacksdk's ``upload_volume_to_image``): Cinder's answer, the
        volume ``uploading`` and the new ``image_id``. ``force`` uploads an
        ``in-use`` volume where the cloud allows it; ``visibility`` and
        ``protected`` are sent at volume API 3.1 (Cinder's defaults:
        ``raw``, ``bare``, and before 3.1 Glance's visibility)."""
        self.check_upload_to_image(image_name, disk_format, visibility)
        info: dict[str, Any] = {"image_name": image_name, "force": bool(force)}
        optional = {
            "disk_format": disk_format,
            "container_format": container_format,
            "visibility": visibility,
            "protected": protected,
        }
        info.update((k, v) for k, v in optional.items() if v is not None)
        newer = visibility is not None or protected is not None
        response = self._request(
            "POST",
            self._url("volumes", base.getid(volume), "action"),
            body={"os-volume_upload_image": info},
            microversion=UPLOAD_IMAGE_PARAMS_VERSION if newer else None,
        )
        return base.DictWithMeta(
            self._value(response, self._body(response), "os-volume_upload_image", dict),
            base._request_ids(response),
        )

    def check_upload_to_image(
        self,
        image_name: str,
        disk_format: str | None = None,
        visibility: str | None = None,
    ) -> None:
        """ValidationError for what Cinder's schema refuses: an empty or
        too long name, a disk format or visibility it does not take."""
        if not image_name or len(image_name) > 255:
            raise exceptions.ValidationError(
                "{image_name} must be 1 to 255 characters, not %r." % image_name,
                params=("image_name",),
            )
        for param, value, allowed in (
            ("disk_format", disk_format, UPLOAD_DISK_FORMATS),
            ("visibility", visibility, UPLOAD_VISIBILITIES),
        ):
            if value is not None and value not in allowed:
                raise exceptions.ValidationError(
                    "{%s} must be one of %s to upload a volume, not %r."
                    % (param, ", ".join(allowed), value),
                    params=(param,),
                )

    def _volume_action(
        self, volume: base.Resource | str, action: str, info: object, **kwargs: Any
    ) -> base.Result:
        return self._action(
            self._url("volumes", base.getid(volume), "action"), action, info, **kwargs
        )

    def extend(self, volume: base.Resource | str, new_size: int | str) -> base.Result:
        """Grow a volume to ``new_size`` GiB (``os-extend``; an ``in-use``
        one needs volume API 3.42, which this sends)."""
        size = _check_size(new_size, "new_size")
        return self._volume_action(
            volume, "os-extend", {"new_size": size}, microversion=EXTEND_ATTACHED_VERSION
        )

    def retype(
        self, volume: base.Resource | str, volume_type: str, migration_policy: str = "never"
    ) -> base.Result:
        """Change a volume's type (``os-retype``); ``migration_policy``:
        ``never`` or ``on-demand`` (whether Cinder may move the data)."""
        if migration_policy not in RETYPE_POLICIES:
            raise exceptions.ValidationError(
                "{migration_policy} must be never or on-demand, not %r." % migration_policy,
                params=("migration_policy",),
            )
        return self._volume_action(
            volume, "os-retype", {"new_type": volume_type, "migration_policy": migration_policy}
        )

    def reset_state(
        self,
        volume: base.Resource | str,
        status: str | None = None,
        attach_status: str | None = None,
    ) -> base.Result:
        """The admin's ``os-reset_status``: the status in the database
        only, whatever the volume's real state."""
        info = {k: v for k, v in (("status", status), ("attach_status", attach_status)) if v}
        return self._volume_action(volume, "os-reset_status", info)

    def migrate_volume(
        self,
        volume: base.Resource | str,
        host: str,
        force_host_copy: bool = False,
        lock_volume: bool = False,
    ) -> base.Result:
        """The admin's ``os-migrate_volume`` to ``host``
        (``host@backend#pool``); ``force_host_copy``: the generic copy,
        not the driver's; ``lock_volume``: an ``available`` volume is in
        ``maintenance`` until it is moved. Follow it in the volume's
        ``migration_status`` (``os-vol-mig-status-attr:migstat``)."""
        info = {"host": host, "force_host_copy": force_host_copy, "lock_volume": lock_volume}
        return self._volume_action(volume, "os-migrate_volume", info)

    def set_bootable(self, volume: base.Resource | str, bootable: bool) -> base.Result:
        return self._volume_action(volume, "os-set_bootable", {"bootable": bool(bootable)})

    def set_readonly(self, volume: base.Resource | str, readonly: bool) -> base.Result:
        return self._volume_action(volume, "os-update_readonly_flag", {"readonly": bool(readonly)})

    def set_image_metadata(
        self, volume: base.Resource | str, metadata: Mapping[str, str]
    ) -> base.Result:
        """Set the volume's image properties (``volume_image_metadata``)."""
        return self._volume_action(volume, "os-set_image_metadata", {"metadata": dict(metadata)})

    def delete_image_metadata(self, volume: base.Resource | str, keys: Iterable[str]) -> None:
        """Remove image properties ``keys`` (a request per key)."""
        for key in keys:
            self._volume_action(volume, "os-unset_image_metadata", {"key": key})

    def revert_to_snapshot(
        self, volume: base.Resource | str, snapshot: base.Resource | str
    ) -> base.Result:
        """Revert a volume to its latest snapshot (volume API 3.40)."""
        return self._volume_action(
            volume,
            "revert",
            {"snapshot_id": str(base.getid(snapshot))},
            microversion=REVERT_VERSION,
        )

    def summary(self, all_projects: bool = False, metadata: bool = True) -> base.DictWithMeta:
        """The count and total size of the project's volumes (every
        project's for an admin's ``all_projects``), at volume API 3.12;
        with their metadata values (``metadata``) at 3.36."""
        response = self._request(
            "GET",
            self._url("volumes", "summary"),
            params={"all_tenants": 1} if all_projects else None,
            microversion=SUMMARY_METADATA_VERSION if metadata else SUMMARY_VERSION,
        )
        return base.DictWithMeta(
            self._value(response, self._body(response), "volume-summary", dict),
            base._request_ids(response),
        )

    # novaclient's ``client.volumes`` is Nova's os-volume_attachments: its
    # method names reach ``client.volume_attachments``, where they live.

    def create_server_volume(
        self,
        server_id: base.Resource | str,
        volume_id: base.Resource | str,
        *args: Any,
        **kwargs: Any,
    ) -> base.Resource:
        """Attach a volume to a server (novaclient's name): see
        ``client.volume_attachments.create``."""
        attachments = self.client.volume_attachments
        return attachments.create_server_volume(server_id, volume_id, *args, **kwargs)

    def update_server_volume(
        self,
        server_id: base.Resource | str,
        src_volid: base.Resource | str,
        dest_volid: base.Resource | str,
        *args: Any,
        **kwargs: Any,
    ) -> base.Result:
        """Swap or change an attachment (novaclient's name): see
        ``client.volume_attachments.update``."""
        attachments = self.client.volume_attachments
        return attachments.update_server_volume(server_id, src_volid, dest_volid, *args, **kwargs)

    def get_server_volume(
        self, server_id: base.Resource | str, *args: Any, **kwargs: Any
    ) -> base.Resource:
        """One attachment of a server (novaclient's name): see
        ``client.volume_attachments.get``."""
        return self.client.volume_attachments.get_server_volume(server_id, *args, **kwargs)

    def get_server_volumes(self, server_id: base.Resource | str) -> base.ListWithMeta:
        """A server's attachments (novaclient's name): see
        ``client.volume_attachments.list``."""
        return self.client.volume_attachments.get_server_volumes(server_id)

    def delete_server_volume(
        self, server_id: base.Resource | str, *args: Any, **kwargs: Any
    ) -> base.Result:
        """Detach a volume from a server (novaclient's name): see
        ``client.volume_attachments.delete``."""
        return self.client.volume_attachments.delete_server_volume(server_id, *args, **kwargs)


class VolumeSnapshotManager(cinder.CinderManager):
    resource_class = VolumeSnapshot
    collection = "snapshots"
    member = "snapshot"
    noun = "volume snapshot"

    def list(
        self,
        detailed: bool = True,
        all_projects: bool = False,
        limit: int | None = None,
        marker: str | None = None,
        volume: base.Resource | str | None = None,
        **filters: Any,
    ) -> base.ListWithMeta:
        """Every snapshot (see :meth:`CinderManager.list`; ``volume``: only
        those of this volume). :meth:`iter` yields them lazily."""
        return super().list(
            detailed, all_projects, limit, marker, **self._list_filters(volume, filters)
        )

    def iter(
        self,
        detailed: bool = True,
        all_projects: bool = False,
        limit: int | None = None,
        marker: str | None = None,
        volume: base.Resource | str | None = None,
        **filters: Any,
    ) -> Iterator[base.Resource]:
        """Like :meth:`list`, lazily: yield snapshots, asking for each page
        when the previous one was used."""
        return super().iter(
            detailed, all_projects, limit, marker, **self._list_filters(volume, filters)
        )

    def _list_filters(
        self, volume: base.Resource | str | None, filters: dict[str, Any]
    ) -> dict[str, Any]:
        """The Cinder filters of a snapshot list."""
        if volume is not None:
            filters["volume_id"] = base.getid(volume)
        return filters

    def create(
        self,
        volume: base.Resource | str,
        name: str | None = None,
        description: str | None = None,
        force: bool = False,
        metadata: Mapping[str, str] | None = None,
    ) -> base.Resource:
        """Snapshot ``volume``; ``force`` allows an attached (``in-use``)
        volume."""
        body: dict[str, Any] = {"volume_id": str(base.getid(volume)), "force": bool(force)}
        optional = {"name": name, "description": description, "metadata": metadata or None}
        body.update((k, v) for k, v in optional.items() if v is not None)
        return self._create(self._url("snapshots"), {"snapshot": body}, "snapshot")

    def update(
        self,
        snapshot: base.Resource | str,
        name: str | None = None,
        description: str | None = None,
    ) -> base.Resource:
        """Rename or describe a snapshot."""
        body = {k: v for k, v in (("name", name), ("description", description)) if v is not None}
        if not body:
            raise exceptions.ValidationError(
                "Give {name} or {description}.", params=("name", "description")
            )
        url = self._url("snapshots", base.getid(snapshot))
        return self._update(url, {"snapshot": body}, "snapshot")

    def set_metadata(
        self, snapshot: base.Resource | str, metadata: Mapping[str, str], replace: bool = False
    ) -> base.DictWithMeta:
        """Merge ``metadata`` into the snapshot's (``replace``: instead of
        it); the whole dict."""
        response = self._request(
            "PUT" if replace else "POST",
            self._url("snapshots", base.getid(snapshot), "metadata"),
            body={"metadata": dict(metadata)},
        )
        return base.DictWithMeta(
            self._value(response, self._body(response), "metadata", dict, {}),
            base._request_ids(response),
        )

    def delete_metadata(self, snapshot: base.Resource | str, keys: Iterable[str]) -> None:
        """Remove metadata ``keys`` (a request per key)."""
        for key in keys:
            self._delete(self._url("snapshots", base.getid(snapshot), "metadata", key))

    def delete(
        self, snapshot: base.Resource | str, force: bool = False
    ) -> base.Resource | base.Result:
        """Delete a snapshot (``force``: the admin's ``os-force_delete``)."""
        if force:
            return self._force_delete(snapshot)
        return self._delete(self._url("snapshots", base.getid(snapshot)))
