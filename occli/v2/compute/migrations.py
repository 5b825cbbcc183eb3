"""Every migration record of the cloud (``/os-migrations``, admin by
default): resizes, cold and live migrations, evacuations, with nova's
filters; paging and ``changes-since`` from 2.59, ``changes-before`` from
2.66, ``user_id``/``project_id`` from 2.80. novaclient's names."""

import builtins
from collections.abc import Iterator
from collections.abc import Mapping
from typing import Any

from occli import base
from occli.v2.compute import base as compute
from occli.v2.compute import instance_actions

# parameter: (query name, lowest microversion)
_FILTERS: dict[str, tuple[str, str | None]] = {
    "host": ("host", None),
    "status": ("status", None),
    "instance_uuid": ("instance_uuid", None),
    "migration_type": ("migration_type", None),
    "source_compute": ("source_compute", None),
    "changes_since": ("changes-since", "2.59"),
    "marker": ("marker", "2.59"),
    "limit": ("limit", "2.59"),
    "changes_before": ("changes-before", "2.66"),
    "user_id": ("user_id", "2.80"),
    "project_id": ("project_id", "2.80"),
}
_TIMES = ("changes_since", "changes_before")


class Migration(base.Resource):
    pass


class MigrationManager(compute.ComputeManager):
    resource_class = Migration

    def check_list(self, **filters: Any) -> None:
        """The microversion gates of :meth:`list`'s filters (None: unset)."""
        unknown = set(filters) - set(_FILTERS)
        if unknown:
            raise TypeError("list() got an unexpected keyword argument %r" % sorted(unknown)[0])
        for name, value in filters.items():
            start = _FILTERS[name][1]
            if value is not None and start is not None:
                self._require(self.api_version, start, what="{%s}" % name, params=(name,))
            if value is not None and name in _TIMES:
                instance_actions._timestamp(value, name)  # ValidationError: not ISO 8601

    def _params(self, filters: Mapping[str, Any]) -> dict[str, Any]:
        self.check_list(**filters)
        params = {
            _FILTERS[k][0]: instance_actions._timestamp(v, k) if k in _TIMES else v
            for k, v in filters.items()
            if v is not None
        }
        params.pop("limit", None)
        return params

    def list(
        self,
        host: str | None = None,
        status: str | None = None,
        instance_uuid: str | None = None,
        *,
        limit: int | None = None,
        **filters: Any,
    ) -> base.ListWithMeta:
        """Every migration matching the filters (``host``, ``status``,
        ``instance_uuid`` positional as in novaclient; ``migration_type``,
        ``source_compute``, ``changes_since``, ``changes_before``,
        ``marker``, ``user_id``, ``project_id``), following pages (2.59:
        newest first), at most ``limit``: a list with ``request_ids``
        (:class:`occli.base.ListWithMeta`), as novaclient's. :meth:`iter`
        yields them lazily, :meth:`pages` a page at a time."""
        return self._list_all(
            *self._list_request(host, status, instance_uuid, limit, filters), limit=limit
        )

    def iter(
        self,
        host: str | None = None,
        status: str | None = None,
        instance_uuid: str | None = None,
        *,
        limit: int | None = None,
        **filters: Any,
    ) -> Iterator[base.Resource]:
        """Like :meth:`list`, lazily: each page is asked for when the
        previous one was used."""
        return self._list(
            *self._list_request(host, status, instance_uuid, limit, filters), limit=limit
        )

    list_iter = iter

    def pages(
        self,
        host: str | None = None,
        status: str | None = None,
        instance_uuid: str | None = None,
        *,
        limit: int | None = None,
        **filters: Any,
    ) -> Iterator[builtins.list[base.Resource]]:
        """Like :meth:`list`, a list of migrations per page, each asked
        for when the previous one was used (what ``occli server migration list``
        streams)."""
        return self._pages(
            *self._list_request(host, status, instance_uuid, limit, filters), limit=limit
        )

    def _list_request(
        self,
        host: str | None,
        status: str | None,
        instance_uuid: str | None,
        limit: int | None,
        filters: Mapping[str, Any],
    ) -> tuple[str, str, dict[str, Any]]:
        """``(url, response key, params)`` of a migration list;
        UnsupportedVersion for a filter the microversion lacks."""
        self.check_list(limit=limit)
        filters = dict(filters, host=host, status=status, instance_uuid=instance_uuid)
        return "/os-migrations", "migrations", self._params(filters)
