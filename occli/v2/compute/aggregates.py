"""Nova host aggregates (``/os-aggregates``, admin-only by default).

Every URL takes the aggregate's integer ``id``, also from microversion 2.41
where the body shows a ``uuid`` too; :meth:`AggregateManager.find_resource`
resolves an id, a uuid or a name.
"""

import uuid
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Mapping

from occli import base
from occli import exceptions
from occli.v2.compute import base as compute


class Aggregate(base.Resource):
    pass


class AggregateManager(compute.ComputeManager):
    resource_class = Aggregate

    def _url(self, aggregate: base.Resource | int | str, *parts: str) -> str:
        return "/".join(("/os-aggregates", str(base.getid(aggregate))) + parts)

    def list(self) -> base.ListWithMeta:
        """Every aggregate: a list with ``request_ids``
        (:class:`occli.base.ListWithMeta`), as novaclient's."""
        return self._list_all("/os-aggregates", "aggregates")

    def iter(self) -> Iterator[base.Resource]:
        """Like :meth:`list`, lazily."""
        return self._list("/os-aggregates", "aggregates")

    list_iter = iter

    def get(self, aggregate: base.Resource | int | str) -> base.Resource:
        return self._get(self._url(aggregate), "aggregate")

    def create(self, name: str, availability_zone: str | None = None) -> base.Resource:
        """Create an aggregate (the answer has no ``hosts``/``metadata``)."""
        body = {"name": name}
        if availability_zone is not None:
            body["availability_zone"] = availability_zone
        return self._create("/os-aggregates", {"aggregate": body}, "aggregate")

    def update(
        self,
        aggregate: base.Resource | int | str,
        name: str | dict[str, str | None] | None = None,
        availability_zone: str | None = None,
        values: Mapping[str, str | None] | None = None,
    ) -> base.Resource:
        """Rename an aggregate and/or move it to another availability zone.

        novaclient's ``update(aggregate, values)`` is accepted too:
        ``values`` (also as the second positional argument when it is a
        dict) holds ``name`` and/or ``availability_zone``.
        """
        if isinstance(name, dict):
            if values is not None:
                raise TypeError("update() got values twice")
            values, name = name, None
        fields: dict[str, str | None] = {"name": name, "availability_zone": availability_zone}
        for key, value in (values or {}).items():
            if key not in fields:
                raise ValueError(
                    "update cannot change %r of an aggregate "
                    "(only name and availability_zone)" % key
                )
            if fields[key] is not None:
                raise TypeError("update() got %r twice" % key)
            fields[key] = value
        body = {k: v for k, v in fields.items() if v is not None}
        if not body:
            raise ValueError("update needs a name or an availability_zone")
        return self._update(self._url(aggregate), {"aggregate": body}, "aggregate")

    def delete(self, aggregate: base.Resource | int | str) -> base.Result:
        """Delete an aggregate (it must have no hosts); a Result."""
        return self._delete(self._url(aggregate))

    def add_host(
        self, aggregate: base.Resource | int | str, host: str
    ) -> base.Resource | base.Result:
        return self._action(
            self._url(aggregate, "action"), "add_host", {"host": host}, "aggregate"
        )

    def remove_host(
        self, aggregate: base.Resource | int | str, host: str
    ) -> base.Resource | base.Result:
        return self._action(
            self._url(aggregate, "action"), "remove_host", {"host": host}, "aggregate"
        )

    def set_metadata(
        self, aggregate: base.Resource | int | str, metadata: Mapping[str, str | None]
    ) -> base.Resource | base.Result:
        """Merge ``metadata`` in; a None value deletes that key."""
        return self._action(
            self._url(aggregate, "action"), "set_metadata", {"metadata": metadata}, "aggregate"
        )

    def cache_images(
        self, aggregate: base.Resource | int | str, images: Iterable[base.Resource | str]
    ) -> base.Result:
        """Ask the aggregate's hosts to cache ``images`` (API 2.81, see
        :meth:`check_cache_images`)."""
        self.check_cache_images()
        body = {"cache": [{"id": base.getid(image)} for image in images]}
        response = self._request("POST", self._url(aggregate, "images"), body=body)
        return self._result(response)

    def check_cache_images(self) -> None:
        """UnsupportedVersion unless :meth:`cache_images` is available."""
        self._require(self.api_version, "2.81", what="caching images on an aggregate")

    def find_resource(self, name_or_id: base.Resource | int | str) -> base.Resource:
        """An aggregate by integer id, uuid (2.41+) or exact name."""
        if isinstance(name_or_id, base.Resource):
            return name_or_id
        text = str(name_or_id)
        if text.isdigit():
            try:
                return self.get(text)
            except exceptions.NotFound:
                pass
        aggregates = self.list()
        if _is_uuid(text):
            matches = [a for a in aggregates if getattr(a, "uuid", None) == text]
            if matches:
                return matches[0]
        return self._one_named([a for a in aggregates if a.name == text], text)


def _is_uuid(text: str) -> bool:
    try:
        uuid.UUID(text)
    except ValueError:
        return False
    return True
