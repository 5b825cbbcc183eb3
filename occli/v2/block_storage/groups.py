"""Cinder group types (``client.volume_group_types``, volume API 3.11,
Cinder's ``GROUP_TYPE``): list, show and the default one for anyone; the
admin's create, update, delete and group specs."""

from collections.abc import Iterable
from collections.abc import Mapping
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
