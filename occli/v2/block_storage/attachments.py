"""Cinder's attachments API (``client.block_storage_attachments``): the
volume service's own attachment records (``/attachments``, volume API
3.27+), not Nova's ``os-volume_attachments`` (``client.volume_attachments``,
the compute side that ``server add volume`` uses). A create reserves an
attachment of a volume for a server (connected at once with a
``connector``), an update connects it, ``complete`` (3.44) marks it
attached; none of them makes Nova attach anything.
"""

from collections.abc import Mapping
from typing import Any

from occli import base
from occli.v2.block_storage import base as cinder

#: ``/attachments`` (cinder's ``NEW_ATTACH``)
NEW_ATTACH_VERSION = "3.27"
#: ``os-complete`` (cinder's ``NEW_ATTACH_COMPLETION``)
ATTACH_COMPLETION_VERSION = "3.44"
#: the create's ``mode`` (cinder's ``ATTACHMENT_CREATE_MODE_ARG``)
ATTACHMENT_MODE_VERSION = "3.54"


class Attachment(base.Resource):
    """A Cinder attachment (``volume_id``, ``instance``, ``status``,
    ``connection_info``)."""


class AttachmentManager(cinder.CinderManager):
    """Create, update, complete, list, show and delete Cinder attachments."""

    resource_class = Attachment
    collection = "attachments"
    member = "attachment"
    noun = "volume attachment"

    def _request(self, method: str, url: str, *args: Any, **kwargs: Any) -> Any:
        """Every request at volume API 3.27 at least: ``/attachments`` is
        not served before."""
        kwargs.setdefault("microversion", NEW_ATTACH_VERSION)
        return super()._request(method, url, *args, **kwargs)

    def list(  # type: ignore[override]
        self,
        detailed: bool = False,
        all_projects: bool = False,
        limit: int | None = None,
        marker: str | None = None,
        **filters: Any,
    ) -> base.ListWithMeta:
        """The attachments (summaries unless ``detailed``); ``filters``:
        Cinder's ``volume_id``, ``status``, ``instance_id``."""
        return super().list(detailed, all_projects, limit, marker, **filters)

    def create(
        self,
        volume: base.Resource | str,
        server: base.Resource | str,
        connector: Mapping[str, Any] | None = None,
        mode: str | None = None,
    ) -> base.Resource:
        """Reserve an attachment of ``volume`` for ``server``; with a
        ``connector`` it is connected at once. ``mode`` (``rw``/``ro``)
        needs volume API 3.54."""
        body: dict[str, Any] = {
            "volume_uuid": str(base.getid(volume)),
            "instance_uuid": str(base.getid(server)),
            "connector": dict(connector) if connector else None,
        }
        version = NEW_ATTACH_VERSION
        if mode is not None:
            body["mode"], version = mode, ATTACHMENT_MODE_VERSION
        return self._create(
            self._url(self.collection), {"attachment": body}, "attachment", microversion=version
        )

    def update(
        self, attachment: base.Resource | str, connector: Mapping[str, Any]
    ) -> base.Resource:
        """Connect the attachment with the host's ``connector``."""
        return self._update(
            self._url(self.collection, base.getid(attachment)),
            {"attachment": {"connector": dict(connector)}},
            "attachment",
        )

    def complete(self, attachment: base.Resource | str) -> base.Result:
        """Mark the attachment attached, the volume ``in-use`` (3.44)."""
        return self._action(
            self._url(self.collection, base.getid(attachment), "action"),
            "os-complete",
            None,
            microversion=ATTACH_COMPLETION_VERSION,
        )

    def delete(self, attachment: base.Resource | str) -> base.Result:
        """Delete the attachment record (Cinder refuses one Nova uses)."""
        return self._delete(self._url(self.collection, base.getid(attachment)))
