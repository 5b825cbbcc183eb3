"""Nova usage: server-hours per project over a period
(``/os-simple-tenant-usage``) and the instance usage audit log
(``/os-instance_usage_audit_log``, admin).

From microversion 2.40 nova pages the servers a usage is computed from
(1000 per page by default): :class:`UsageManager` follows the pages and
merges what they say of each project, so a usage is always whole.
"""

import datetime
from collections.abc import Iterator
from collections.abc import Mapping
from typing import TYPE_CHECKING
from typing import Any
from urllib.parse import quote

from occli import base
from occli import exceptions
from occli.v2.compute import base as compute

if TYPE_CHECKING:
    import requests

PAGING_VERSION = "2.40"
_TOTALS = ("total_hours", "total_local_gb_usage", "total_memory_mb_usage", "total_vcpus_usage")


class Usage(base.Resource):
    """One project's usage: ``tenant_id``, ``start``, ``stop``, the
    ``total_*`` sums and (when asked for) ``server_usages``."""

    @property
    def id(self) -> str | None:
        return self._info.get("tenant_id")


class InstanceUsageAuditLog(base.Resource):
    """The instance usage audit of the last completed period: how many
    compute hosts ran it (``num_hosts*``, ``hosts_not_run``), ``log`` per
    host and ``overall_status``."""


def _utc_text(value: object, name: str) -> str | None:
    """A period bound as nova parses it (``2024-01-31T12:00:00.000000``,
    naive UTC)."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, datetime.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(datetime.timezone.utc).replace(tzinfo=None)
        return value.strftime("%Y-%m-%dT%H:%M:%S.%f")
    if isinstance(value, datetime.date):
        return value.strftime("%Y-%m-%dT00:00:00.000000")
    raise exceptions.ValidationError(
        "{%s} must be a datetime, a date or text." % name, params=(name,)
    )


def _comparable(value: object) -> datetime.datetime | None:
    if isinstance(value, datetime.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(datetime.timezone.utc).replace(tzinfo=None)
        return value
    if isinstance(value, datetime.date):
        return datetime.datetime(value.year, value.month, value.day)
    return None


def _merge(usages: dict[str | None, dict[str, Any]], page: list[dict[str, Any]]) -> None:
    """Add a page's project usages to ``usages`` (``{tenant_id: dict}``,
    in order): totals summed, server usages appended."""
    for item in page:
        known = usages.get(item.get("tenant_id"))
        if known is None:
            usages[item.get("tenant_id")] = dict(item)
            continue
        for key in _TOTALS:
            known[key] = known.get(key, 0) + item.get(key, 0)
        if item.get("server_usages"):
            known["server_usages"] = list(known.get("server_usages") or []) + item["server_usages"]


class UsageManager(compute.ComputeManager):
    """``client.usage``: what projects' servers used over a period."""

    resource_class = Usage

    def check_period(
        self, start: datetime.date | str | None = None, end: datetime.date | str | None = None
    ) -> None:
        """``ValidationError`` unless ``start`` is before ``end`` (when both
        are datetimes or dates) and each is a datetime, date or text."""
        _utc_text(start, "start")
        _utc_text(end, "end")
        first, last = _comparable(start), _comparable(end)
        if first is not None and last is not None and not first < last:
            raise exceptions.ValidationError(
                "{start} must be before {end}.", params=("start", "end")
            )

    def _usage_pages(
        self, url: str, key: str, params: Mapping[str, object]
    ) -> Iterator[tuple["requests.Response", list[dict[str, Any]]]]:
        """Every page's project usages (``key`` lists them, or is the one):
        the first page, then the ``next`` links' markers (2.40+)."""
        params = {k: v for k, v in params.items() if v is not None}
        seen = set()
        while True:
            response = self._request("GET", url, params=params)
            body = self._body(response)
            if key == "tenant_usage":
                page = self._value(response, body, key, dict, {})
                items = [page] if page else []
            else:
                items = self._items(response, body, key)
            for item in items:
                self._check_usage(response, item)
            yield response, items
            marker = self._next_page(response, body, key + "_links")
            if marker is None or marker in seen:
                return
            seen.add(marker)
            params = dict(params, marker=marker)

    def _check_usage(self, response: "requests.Response", usage: dict[str, Any]) -> None:
        """UnexpectedResponse unless the project, totals and server usages
        of ``usage`` (a project's) are of the shapes nova documents."""
        self._value(response, usage, "tenant_id", str, None)
        for total in _TOTALS:
            self._value(response, usage, total, (int, float), 0)
        self._items(response, usage, "server_usages")

    def list(
        self,
        start: datetime.date | str | None = None,
        end: datetime.date | str | None = None,
        detailed: bool = False,
    ) -> base.ListWithMeta:
        """Every project's usage between ``start`` and ``end`` (datetimes
        are sent as UTC; None: now, which nova takes as an empty period);
        ``detailed`` adds each project's ``server_usages`` (admin): a list
        with the ``request_ids`` of every page
        (:class:`occli.base.ListWithMeta`), as novaclient's."""
        self.check_period(start, end)
        params = {
            "start": _utc_text(start, "start"),
            "end": _utc_text(end, "end"),
            "detailed": 1 if detailed else None,
        }
        usages: dict[str | None, dict[str, Any]] = {}
        request_ids: list[str] = []
        last = None
        pages = self._usage_pages("/os-simple-tenant-usage", "tenant_usages", params)
        for response, page in pages:
            _merge(usages, page)
            request_ids += base._request_ids(response)
            last = response
        return base.ListWithMeta([self._resource(u, last) for u in usages.values()], request_ids)

    def iter(
        self,
        start: datetime.date | str | None = None,
        end: datetime.date | str | None = None,
        detailed: bool = False,
    ) -> Iterator[base.Resource]:
        """Like :meth:`list`, one project at a time. Every page is read
        first: nova pages the servers, not the projects, so a project's
        usage is only whole once the last page was summed."""
        return iter(self.list(start, end, detailed))

    def get(
        self,
        project_id: str | None = None,
        start: datetime.date | str | None = None,
        end: datetime.date | str | None = None,
    ) -> base.Resource:
        """One project's usage (the token's project by default): a Usage
        with ``server_usages``; empty (no ``tenant_id``) when none of its
        servers ran in the period."""
        self.check_period(start, end)
        project_id = project_id or self.client.session.get_project_id()
        params = {"start": _utc_text(start, "start"), "end": _utc_text(end, "end")}
        usages: dict[str | None, dict[str, Any]] = {}
        last = None
        url = "/os-simple-tenant-usage/" + quote(str(project_id), safe="")
        for response, page in self._usage_pages(url, "tenant_usage", params):
            _merge(usages, page)
            last = response
        info = next(iter(usages.values()), {})
        return self._resource(info, last)


class InstanceUsageAuditLogManager(compute.ComputeManager):
    """``client.usage_audit_logs``: nova's instance usage audit (admin)."""

    resource_class = InstanceUsageAuditLog

    def get(self, before: datetime.datetime | str | None = None) -> base.Resource:
        """The audit of the last period completed before ``before`` (a
        datetime, sent as UTC, or ``YYYY-MM-DD HH:MM:SS[.ffffff]``; None:
        now)."""
        if before is None:
            return self._get("/os-instance_usage_audit_log", "instance_usage_audit_logs")
        if isinstance(before, datetime.datetime):
            if before.tzinfo is not None:
                before = before.astimezone(datetime.timezone.utc).replace(tzinfo=None)
            before = before.strftime("%Y-%m-%d %H:%M:%S.%f")
        elif not isinstance(before, str):
            raise exceptions.ValidationError(
                "{before} must be a datetime or text.", params=("before",)
            )
        return self._get(
            "/os-instance_usage_audit_log/" + quote(before, safe=""), "instance_usage_audit_log"
        )
