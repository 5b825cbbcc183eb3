"""Cinder group types (``client.volume_group_types``, volume API 3.11,
Cinder's ``GROUP_TYPE``): list, show and the default one for anyone; the
admin's create, update, delete and group specs. Generic volume groups
(``client.volume_groups``, 3.13) and group snapshots
(``client.volume_group_snapshots``, 3.14)."""

from collections.abc import Iterable
from collections.abc import Mapping
from collections.abc import Sequence
from typing import Any

from occli import base
from occli import exceptions
from occli import strutils
from occli.v2.block_storage import base as cinder

#: ``/group_types`` (cinder's ``GROUP_TYPE``)
GROUP_TYPE_VERSION = "3.11"


class VolumeGroupType(base.Resource):
    """A group type (``name``, ``is_public``, ``group_specs`` for admins)."""


class VolumeGroupTypeManager(cinder.CinderManager):
    """Group types and their group specs."""

    resource_class = VolumeGroupType
    collection = "group_types"
    member = "group_type"
    noun = "volume group type"

    def _request(self, method: str, url: str, *args: Any, **kwargs: Any) -> Any:
        """Every request at volume API 3.11 (group types are not served before)."""
        kwargs.setdefault("microversion", GROUP_TYPE_VERSION)
        return super()._request(method, url, *args, **kwargs)

    def list(self) -> base.ListWithMeta:  # type: ignore[override]
        """The group types the caller sees (admins: private ones too), in a
        list with ``request_ids``."""
        response = self._request("GET", self._url(self.collection))
        return base.ListWithMeta(
            [self._resource(i, response) for i in self._body(response)["group_types"]],
            base._request_ids(response),
        )

    def default(self) -> base.Resource:
        """The deployment's default group type (404 when none is configured)."""
        return self.get("default")

    def find_resource(  # type: ignore[override]
        self, name_or_id: base.Resource | str
    ) -> base.Resource:
        """By id (a UUID), else by exact name."""
        if isinstance(name_or_id, base.Resource):
            return name_or_id
        value = str(name_or_id)
        if strutils.is_uuid(value):
            try:
                return self.get(value)
            except exceptions.NotFound:
                pass
        return self._one_named([t for t in self.list() if t.name == value], value)

    def create(
        self, name: str, description: str | None = None, is_public: bool = True
    ) -> base.Resource:
        body = {"name": name, "description": description, "is_public": is_public}
        return self._create(self._url(self.collection), {"group_type": body}, self.member)

    def update(self, group_type: base.Resource | str, **changes: Any) -> base.Resource:
        """Change ``name``, ``description``, ``is_public``."""
        body = {"group_type": {k: v for k, v in changes.items() if v is not None}}
        url = self._url(self.collection, base.getid(group_type))
        return self._update(url, body, self.member)

    def delete(self, group_type: base.Resource | str) -> base.Result:
        return self._delete(self._url(self.collection, base.getid(group_type)))

    def set_specs(self, group_type: base.Resource | str, specs: Mapping[str, str]) -> None:
        url = self._url(self.collection, base.getid(group_type), "group_specs")
        self._request("POST", url, body={"group_specs": dict(specs)})

    def unset_specs(self, group_type: base.Resource | str, keys: Iterable[str]) -> None:
        for key in keys:
            self._delete(self._url(self.collection, base.getid(group_type), "group_specs", key))


#: ``/groups`` answers with replication_status from here (cinder's
#: ``GROUP_REPLICATION``; groups are ``GROUP_VOLUME``, 3.13)
GROUP_VERSION = "3.38"
#: ``/group_snapshots`` with filters, sorting and pages (``GROUP_SNAPSHOT_PAGINATION``)
GROUP_SNAPSHOT_VERSION = "3.29"


class VolumeGroup(base.Resource):
    """A generic volume group (``group_type``, ``volume_types``, ``status``)."""


class VolumeGroupManager(cinder.CinderManager):
    """Generic volume groups (``client.volume_groups``): create (of types
    or from a source), update with volumes added and removed, delete,
    replication actions."""

    resource_class = VolumeGroup
    collection = "groups"
    member = "group"
    noun = "volume group"

    def _request(self, method: str, url: str, *args: Any, **kwargs: Any) -> Any:
        """Every request at volume API 3.38 (groups are not served before 3.13)."""
        kwargs.setdefault("microversion", GROUP_VERSION)
        return super()._request(method, url, *args, **kwargs)

    def list(
        self,
        detailed: bool = True,
        all_projects: bool = False,
        limit: int | None = None,
        marker: str | None = None,
        **filters: Any,
    ) -> base.ListWithMeta:
        """Every group, following Cinder's ``group_links`` pages."""
        url, key, params = self._list_request(detailed, all_projects, marker, filters)
        return self._list_all(url, key, params, limit=limit, links_key="group_links")

    def get(self, resource: base.Resource | str, list_volume: bool = False) -> base.Resource:
        """The group; with ``list_volume`` its ``volumes`` (3.25)."""
        params = {"list_volume": True} if list_volume else None
        return self._get(self._url(self.collection, base.getid(resource)), self.member, params)

    def create(
        self,
        group_type: str,
        volume_types: Sequence[str],
        name: str | None = None,
        description: str | None = None,
        availability_zone: str | None = None,
    ) -> base.Resource:
        """A group of ``volume_types`` (ids) and ``group_type`` (an id)."""
        body = {
            "group_type": group_type,
            "volume_types": list(volume_types),
            "name": name,
            "description": description,
            "availability_zone": availability_zone,
        }
        return self._create(self._url(self.collection), {"group": body}, self.member)

    def create_from_source(
        self,
        group_snapshot: str | None = None,
        source_group: str | None = None,
        name: str | None = None,
        description: str | None = None,
    ) -> base.Resource:
        """A group made from a group snapshot or a source group (ids; 3.14)."""
        body: dict[str, Any] = {"name": name, "description": description}
        if group_snapshot is not None:
            body["group_snapshot_id"] = group_snapshot
        if source_group is not None:
            body["source_group_id"] = source_group
        return self._create(
            self._url(self.collection, "action"), {"create-from-src": body}, self.member
        )

    def update(
        self,
        group: base.Resource | str,
        name: str | None = None,
        description: str | None = None,
        add_volumes: Sequence[str] = (),
        remove_volumes: Sequence[str] = (),
    ) -> None:
        """Rename, describe, add and remove volumes (ids)."""
        body: dict[str, Any] = {}
        if name is not None:
            body["name"] = name
        if description is not None:
            body["description"] = description
        if add_volumes:
            body["add_volumes"] = ",".join(add_volumes)
        if remove_volumes:
            body["remove_volumes"] = ",".join(remove_volumes)
        self._update(self._url(self.collection, base.getid(group)), {"group": body})

    def _group_action(self, group: base.Resource | str, action: str, info: object) -> base.Result:
        return self._action(self._url(self.collection, base.getid(group), "action"), action, info)

    def delete(self, group: base.Resource | str, delete_volumes: bool = False) -> base.Result:
        """Delete the group (``delete_volumes``: with its volumes)."""
        return self._group_action(group, "delete", {"delete-volumes": delete_volumes})

    def reset_status(self, group: base.Resource | str, status: str) -> base.Result:
        """The admin's ``reset_status`` (3.20)."""
        return self._group_action(group, "reset_status", {"status": status})

    def enable_replication(self, group: base.Resource | str) -> base.Result:
        return self._group_action(group, "enable_replication", {})

    def disable_replication(self, group: base.Resource | str) -> base.Result:
        return self._group_action(group, "disable_replication", {})

    def failover_replication(
        self,
        group: base.Resource | str,
        allow_attached_volume: bool = False,
        secondary_backend_id: str | None = None,
    ) -> base.Result:
        info = {
            "allow_attached_volume": allow_attached_volume,
            "secondary_backend_id": secondary_backend_id,
        }
        return self._group_action(group, "failover_replication", info)

    def list_replication_targets(self, group: base.Resource | str) -> Sequence[Any]:
        """The backends the group replicates to (``replication_targets``)."""
        result = self._group_action(group, "list_replication_targets", {})
        return tuple(result.body.get("replication_targets", []))


class VolumeGroupSnapshot(base.Resource):
    """A snapshot of a volume group (``group_id``, ``group_type_id``, ``status``)."""


class VolumeGroupSnapshotManager(cinder.CinderManager):
    """Group snapshots (``client.volume_group_snapshots``, volume API 3.14)."""

    resource_class = VolumeGroupSnapshot
    collection = "group_snapshots"
    member = "group_snapshot"
    noun = "volume group snapshot"

    def _request(self, method: str, url: str, *args: Any, **kwargs: Any) -> Any:
        """Every request at volume API 3.29 (lists filter, sort and page)."""
        kwargs.setdefault("microversion", GROUP_SNAPSHOT_VERSION)
        return super()._request(method, url, *args, **kwargs)

    def list(
        self,
        detailed: bool = True,
        all_projects: bool = False,
        limit: int | None = None,
        marker: str | None = None,
        **filters: Any,
    ) -> base.ListWithMeta:
        """Every group snapshot, following Cinder's ``group_snapshot_links`` pages."""
        url, key, params = self._list_request(detailed, all_projects, marker, filters)
        return self._list_all(url, key, params, limit=limit, links_key="group_snapshot_links")

    def create(
        self, group: base.Resource | str, name: str | None = None, description: str | None = None
    ) -> base.Resource:
        """A snapshot of each volume of ``group``."""
        body = {"group_id": str(base.getid(group)), "name": name, "description": description}
        return self._create(self._url(self.collection), {"group_snapshot": body}, self.member)

    def delete(self, snapshot: base.Resource | str) -> base.Result:
        return self._delete(self._url(self.collection, base.getid(snapshot)))

    def reset_status(self, snapshot: base.Resource | str, status: str) -> base.Result:
        """The admin's ``reset_status`` (3.19)."""
        url = self._url(self.collection, base.getid(snapshot), "action")
        return self._action(url, "reset_status", {"status": status})
