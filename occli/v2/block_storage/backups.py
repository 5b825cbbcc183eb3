"""Cinder volume backups (``client.volume_backups``): create (full or
incremental, of an in-use volume with ``force``, of a snapshot), restore
to a new or an existing volume, list, show, update, delete, reset the
state, and the record's export and import (an administrator's).

Requests ask for the volume API microversion a feature needs (Cinder's
``cinder/api/microversions.py``): reads and updates 3.43 (a backup's
``metadata``; name and description updates from 3.9), a create 3.43 with
``metadata`` and 3.51 with an ``availability_zone``.
"""

from collections.abc import Mapping
from typing import Any

from occli import base
from occli.v2.block_storage import base as cinder

#: ``PUT /backups/{id}`` (cinder's ``BACKUP_UPDATE``)
BACKUP_UPDATE_VERSION = "3.9"
#: a backup's ``metadata`` (``BACKUP_METADATA``)
BACKUP_METADATA_VERSION = "3.43"
#: ``availability_zone`` of a create (``BACKUP_AZ``)
BACKUP_AZ_VERSION = "3.51"
#: the states ``os-reset_status`` sets
RESET_STATES = ("available", "error")
#: the states a list filters on (OSC's choices)
STATUSES = ("creating", "available", "deleting", "error", "restoring", "error_restoring")


class VolumeBackup(base.Resource):
    """A backup of a volume (``status``, ``size``, ``is_incremental``)."""


class VolumeBackupManager(cinder.CinderManager):
    """Create, restore, list, show, update and delete volume backups."""

    resource_class = VolumeBackup
    collection = "backups"
    member = "backup"
    noun = "volume backup"

    def get(self, resource: base.Resource | str) -> base.Resource:
        """The backup, with its ``metadata`` (3.43)."""
        response = self._request(
            "GET",
            self._url(self.collection, base.getid(resource)),
            microversion=BACKUP_METADATA_VERSION,
        )
        return self._resource(self._member(response, self._body(response), "backup"), response)

    def find_resource(
        self, name_or_id: base.Resource | str, all_projects: bool = False
    ) -> base.Resource:
        """By id or exact name, then read again at 3.43 (a list answers
        at the adapter's microversion, without ``metadata``)."""
        found = super().find_resource(name_or_id, all_projects=all_projects)
        return self.get(found) if found.to_dict().get("metadata") is None else found

    def create(
        self,
        volume: base.Resource | str,
        name: str | None = None,
        description: str | None = None,
        container: str | None = None,
        snapshot: base.Resource | str | None = None,
        force: bool = False,
        incremental: bool = False,
        metadata: Mapping[str, str] | None = None,
        availability_zone: str | None = None,
    ) -> base.Resource:
        """Back up ``volume`` (or its ``snapshot``) into the object store;
        an ``in-use`` volume needs ``force``, an ``incremental`` backup a
        previous one. Returns it ``creating`` (``id``, ``name``)."""
        body: dict[str, Any] = {
            "volume_id": str(base.getid(volume)),
            "force": force,
            "incremental": incremental,
        }
        optional = {
            "name": name,
            "description": description,
            "container": container,
            "snapshot_id": None if snapshot is None else str(base.getid(snapshot)),
        }
        body.update({k: v for k, v in optional.items() if v is not None})
        version = None
        if metadata:
            body["metadata"] = dict(metadata)
            version = BACKUP_METADATA_VERSION
        if availability_zone:
            body["availability_zone"] = availability_zone
            version = BACKUP_AZ_VERSION
        return self._create(
            self._url(self.collection), {"backup": body}, "backup", microversion=version
        )

    def restore(
        self,
        backup: base.Resource | str,
        volume: base.Resource | str | None = None,
        name: str | None = None,
    ) -> dict[str, Any]:
        """Restore ``backup`` into ``volume`` (an existing, ``available``
        one at least as large) or a new volume (named ``name``); Cinder's
        ``restore`` answer (``backup_id``, ``volume_id``, ``volume_name``)."""
        body: dict[str, Any] = {}
        if volume is not None:
            body["volume_id"] = str(base.getid(volume))
        if name is not None:
            body["name"] = name
        data = self._create(
            self._url(self.collection, base.getid(backup), "restore"),
            {"restore": body},
            "restore",
            return_raw=True,
        )
        return dict(data["restore"])

    def update(self, backup: base.Resource | str, **changes: Any) -> base.Resource:
        """Change ``name``, ``description`` (3.9) or ``metadata`` (3.43: the
        whole mapping)."""
        return self._update(
            self._url(self.collection, base.getid(backup)),
            {"backup": changes},
            "backup",
            microversion=BACKUP_METADATA_VERSION
            if "metadata" in changes
            else BACKUP_UPDATE_VERSION,
        )

    def reset_state(self, backup: base.Resource | str, state: str) -> base.Result:
        """Set the state in Cinder's database (admin only; ``available`` or
        ``error``), whatever the backup's real one."""
        return self._action(
            self._url(self.collection, base.getid(backup), "action"),
            "os-reset_status",
            {"status": state},
        )

    def delete(self, backup: base.Resource | str, force: bool = False) -> base.Result:
        """Delete a backup and its objects (``force``: in any state, an
        administrator's)."""
        if force:
            return self._force_delete(backup)
        return self._delete(self._url(self.collection, base.getid(backup)))

    def export_record(self, backup: base.Resource | str) -> dict[str, str]:
        """The record another Cinder imports the backup with
        (``backup_service``, ``backup_url``); admin only."""
        response = self._request(
            "GET", self._url(self.collection, base.getid(backup), "export_record")
        )
        return dict(self._body(response)["backup-record"])

    def import_record(self, backup_service: str, backup_url: str) -> base.Resource:
        """Make a backup of an exported record (admin only); ``creating``,
        then ``available``."""
        body = {"backup-record": {"backup_service": backup_service, "backup_url": backup_url}}
        return self._create(self._url(self.collection, "import_record"), body, "backup")
