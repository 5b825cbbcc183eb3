"""The events of Heat stacks (``/stacks/<name>/<id>/events``), with
heatclient's argument names (``heatclient/v1/events.py``). Heat names no
next page of events: a list is one request, paged by ``limit``/``marker``."""

from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from occli import base
from occli.v2.orchestration import stacks


class StackEvent(base.Resource):
    pass


def is_stack_event(event: base.Resource | Mapping[str, Any], stack_name: str) -> bool:
    """Whether ``event`` is about the stack itself, not one of its
    resources: named as the stack, its physical id the stack's id (from
    its ``stack`` link), as heatclient's ``poll_for_events`` tells them."""
    info = event.to_dict() if isinstance(event, base.Resource) else dict(event)
    if info.get("resource_name") != stack_name:
        return False
    physical = info.get("physical_resource_id") or ""
    stack_id = physical
    for link in info.get("links") or ():
        if isinstance(link, Mapping) and link.get("rel") == "stack" and link.get("href"):
            stack_id = str(link["href"]).rstrip("/").rsplit("/", 1)[-1]
    return bool(physical) and stack_id == physical


class StackEventManager(stacks.StackChildManager):
    """Events of stacks: ``client.stack_events``."""

    resource_class = StackEvent

    def list(
        self,
        stack_id: base.Resource | str,
        resource_name: str | None = None,
        **kwargs: Any,
    ) -> base.ListWithMeta:
        """The stack's events (one resource's with ``resource_name``):
        ``limit``, ``marker``, ``sort_dir`` (``asc``: oldest first),
        ``sort_keys``, ``nested_depth`` and ``filters`` (a dict:
        ``resource_status``, ``resource_action``, ``resource_name``,
        ``resource_type``…)."""
        params = dict(kwargs.pop("filters", None) or {})
        params.update({k: v for k, v in kwargs.items() if v})
        if resource_name is None:
            url = self._stack_url(stack_id, "events")
        else:
            url = self._stack_url(
                stack_id, "resources/%s/events" % quote(resource_name, safe=""), True
            )
        response = self._request("GET", url, params=params)
        items = self._items(response, self._body(response), "events")
        return base.ListWithMeta(
            [self._resource(i, response) for i in items], self._result(response).request_ids
        )

    def get(
        self, stack_id: base.Resource | str, resource_name: str, event_id: str
    ) -> base.Resource:
        """One event of one resource."""
        url = self._stack_url(
            stack_id,
            "resources/%s/events/%s" % (quote(resource_name, safe=""), quote(event_id, safe="")),
            True,
        )
        return self._get(url, "event")

    def last(self, stack_id: base.Resource | str) -> str | None:
        """The id of the newest event of the stack (the marker a wait for
        the next action starts after), None if there is none."""
        events = self.list(stack_id, sort_dir="desc", limit=1)
        return events[0].id if events else None

    def _noun(self) -> str:
        return "stack event"
