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

    def list(  # type: ignore[override]
        self, limit: int | None = None, marker: str | None = None, **filters: Any
    ) -> base.ListWithMeta:
        """Every message, following pages (volume API 3.5)."""
        params = {k: v for k, v in filters.items() if v is not None}
        params["marker"] = marker
        return self._list_all(
            self._url(self.collection),
            self.collection,
            params=params,
            limit=limit,
            microversion=MESSAGES_PAGINATION_VERSION,
        )

    def get(self, message: base.Resource | str) -> base.Resource:
        response = self._request(
            "GET", self._url(self.collection, base.getid(message)), microversion=MESSAGES_VERSION
        )
        return self._resource(self._member(response, self._body(response), "message"), response)

    def delete(self, message: base.Resource | str) -> base.Result:
        return self._delete(
            self._url(self.collection, base.getid(message)), microversion=MESSAGES_VERSION
        )
