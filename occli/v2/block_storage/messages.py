"""Cinder user messages (``client.volume_messages``): what an operation
that failed after its request was accepted (an extend, a backup…) left
for the project to read, at volume API 3.3 (Cinder's ``MESSAGES``):
``event_id``, ``message_level``, ``user_message``, the resource.
"""

from typing import Any

from occli import base
from occli.v2.block_storage import base as cinder

#: ``/messages`` (cinder's ``MESSAGES``)
MESSAGES_VERSION = "3.3"
#: marker, limit and sort on a list (cinder's ``MESSAGES_PAGINATION``)
MESSAGES_PAGINATION_VERSION = "3.5"


class VolumeMessage(base.Resource):
    """A user message (``user_message``, ``resource_uuid``)."""


class VolumeMessageManager(cinder.CinderManager):
    """List, show and delete the project's user messages."""

    resource_class = VolumeMessage
    collection = "messages"
    member = "message"
    noun = "volume message"

    def _request(self, method: str, url: str, *args: Any, **kwargs: Any) -> Any:
        """Every request at volume API 3.5: ``/messages`` is not served
        before 3.3, its paging not before 3.5."""
        kwargs.setdefault("microversion", MESSAGES_PAGINATION_VERSION)
        return super()._request(method, url, *args, **kwargs)

    def list(  # type: ignore[override]
        self, limit: int | None = None, marker: str | None = None, **filters: Any
    ) -> base.ListWithMeta:
        """Every message, following ``messages_links`` pages."""
        params = {k: v for k, v in filters.items() if v is not None}
        params["marker"] = marker
        return self._list_all(self._url(self.collection), self.collection, params, limit)

    def delete(self, message: base.Resource | str) -> base.Result:
        return self._delete(self._url(self.collection, base.getid(message)))
