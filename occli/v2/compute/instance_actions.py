"""Nova instance actions (``/servers/{id}/os-instance-actions``): what was
done to a server, by whom and when, and the events each action ran.

Listing pages (``limit``, ``marker``) and filters by ``changes_since``
from 2.58, ``changes_before`` from 2.66; non-admins see an action's
events from 2.51. A deleted server's actions stay readable from 2.21.
"""

import datetime
from collections.abc import Iterator
from typing import Any

from occli import base
from occli import exceptions
from occli.v2.compute import base as compute

PAGING_VERSION = "2.58"
CHANGES_BEFORE_VERSION = "2.66"


class InstanceAction(base.Resource):
    """One action; ``events`` is a list of dicts when the cloud shows them."""

    @property
    def id(self) -> str | None:
        return self._info.get("request_id")


def _timestamp(value: datetime.datetime | str, name: str) -> str:
    """An ISO 8601 text from a datetime or a string (checked)."""
    if isinstance(value, datetime.datetime):
        return value.isoformat()
    text = str(value)
    try:
        datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise exceptions.ValidationError(
            "{%s} must be an ISO 8601 date and time, not %r." % (name, text), params=(name,)
        ) from None
    return text


class InstanceActionManager(compute.ComputeManager):
    """``client.instance_action`` (novaclient's name)."""

    resource_class = InstanceAction

    def _url(self, server: base.Resource | str, request_id: str | None = None) -> str:
        url = "/servers/%s/os-instance-actions" % base.getid(server)
        return url if request_id is None else "%s/%s" % (url, request_id)

    def list(
        self,
        server: base.Resource | str,
        marker: str | None = None,
        limit: int | None = None,
        changes_since: datetime.datetime | str | None = None,
        changes_before: datetime.datetime | str | None = None,
    ) -> base.ListWithMeta:
        """The server's actions, newest first: a :class:`occli.base.ListWithMeta`
        (every page when the cloud pages)."""
        params = self.check_list(
            marker=marker, limit=limit, changes_since=changes_since, changes_before=changes_before
        )
        return self._list_all(
            self._url(server), "instanceActions", params=params, limit=limit, links_key="links"
        )

    def iter(
        self,
        server: base.Resource | str,
        marker: str | None = None,
        limit: int | None = None,
        changes_since: datetime.datetime | str | None = None,
        changes_before: datetime.datetime | str | None = None,
        *,
        read_ahead: bool = True,
    ) -> Iterator[base.Resource]:
        """Like :meth:`list`, lazily: the next page asked for ahead unless
        ``read_ahead`` is False (a caller that reads only the latest)."""
        params = self.check_list(
            marker=marker, limit=limit, changes_since=changes_since, changes_before=changes_before
        )
        return self._list(
            self._url(server),
            "instanceActions",
            params=params,
            limit=limit,
            links_key="links",
            read_ahead=read_ahead,
        )

    def check_list(
        self,
        marker: str | None = None,
        limit: int | None = None,
        changes_since: datetime.datetime | str | None = None,
        changes_before: datetime.datetime | str | None = None,
    ) -> dict[str, Any]:
        """The query of a listing; UnsupportedVersion for paging or
        ``changes_since`` before 2.58, ``changes_before`` before 2.66;
        ValidationError for a negative ``limit`` or a time that is not ISO
        8601 (or ``changes_since`` after ``changes_before``)."""
        version = self.api_version
        for value, name in (
            (marker, "marker"),
            (limit, "limit"),
            (changes_since, "changes_since"),
        ):
            if value is not None:
                self._require(version, PAGING_VERSION, what="{%s}" % name, params=(name,))
        if changes_before is not None:
            self._require(
                version,
                CHANGES_BEFORE_VERSION,
                what="{changes_before}",
                params=("changes_before",),
            )
        if limit is not None and (not isinstance(limit, int) or limit < 0):
            raise exceptions.ValidationError(
                "{limit} must be 0 or more, not %r." % (limit,), params=("limit",)
            )
        params: dict[str, Any] = {"marker": marker}
        if changes_since is not None:
            params["changes-since"] = _timestamp(changes_since, "changes_since")
        if changes_before is not None:
            params["changes-before"] = _timestamp(changes_before, "changes_before")
        since, before = params.get("changes-since"), params.get("changes-before")
        if since and before and _aware(since) > _aware(before):
            raise exceptions.ValidationError(
                "{changes_since} must not be after {changes_before}.",
                params=("changes_since", "changes_before"),
            )
        return params

    def get(self, server: base.Resource | str, request_id: base.Resource | str) -> base.Resource:
        """One action of the server with its ``events`` (as the cloud's
        policy and microversion show them)."""
        return self._get(self._url(server, base.getid(request_id)), "instanceAction")


def _aware(text: str) -> datetime.datetime:
    parsed = datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=datetime.timezone.utc)
    return parsed
