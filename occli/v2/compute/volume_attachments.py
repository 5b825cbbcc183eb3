"""Nova's volume attachments of a server (``client.volume_attachments``,
``/servers/{id}/os-volume_attachments``): attach, list, change, detach.

Nova attaches through Cinder (the volume goes ``in-use``) and answers with
the attachment. A ``tag`` needs compute API 2.49, ``delete_on_termination``
2.79 and changing it on an attachment (:meth:`update`) 2.85: the checks
(:meth:`check_create`, :meth:`check_update`) raise before anything is
sent.
"""

from collections.abc import Iterator
from typing import Any

from occli import base
from occli import exceptions
from occli.v2.compute import base as compute


class VolumeAttachment(base.Resource):
    """A volume attached to a server (``volumeId``, ``serverId``,
    ``device``; ``tag`` from 2.70, ``delete_on_termination`` from 2.79)."""


class VolumeAttachmentManager(compute.ComputeManager):
    resource_class = VolumeAttachment

    def _url(self, server: base.Resource | str, volume: base.Resource | str | None = None) -> str:
        url = "/servers/%s/os-volume_attachments" % base.getid(server)
        return url if volume is None else "%s/%s" % (url, base.getid(volume))

    def list(
        self, server: base.Resource | str, limit: int | None = None, offset: int | None = None
    ) -> base.ListWithMeta:
        """The server's attachments: a list with ``request_ids``
        (:class:`occli.base.ListWithMeta`), as novaclient's; ``limit`` and
        ``offset`` page on the server side. :meth:`iter` yields them
        lazily."""
        return self._list_all(*self._list_request(server, limit, offset))

    def iter(
        self, server: base.Resource | str, limit: int | None = None, offset: int | None = None
    ) -> Iterator[base.Resource]:
        """Like :meth:`list`, lazily: each page is asked for when the
        previous one was used."""
        return self._list(*self._list_request(server, limit, offset))

    list_iter = iter

    def _list_request(
        self, server: base.Resource | str, limit: int | None, offset: int | None
    ) -> tuple[str, str, dict[str, Any]]:
        """``(url, response key, params)`` of an attachment list."""
        return self._url(server), "volumeAttachments", {"limit": limit, "offset": offset}

    def get(self, server: base.Resource | str, volume: base.Resource | str) -> base.Resource:
        """The attachment of ``volume`` (a volume or its id) to ``server``."""
        return self._get(self._url(server, volume), "volumeAttachment")

    def create(
        self,
        server: base.Resource | str,
        volume: base.Resource | str,
        device: str | None = None,
        tag: str | None = None,
        delete_on_termination: bool | None = None,
    ) -> base.Resource:
        """Attach ``volume`` to ``server``; ``device`` a hint
        (``/dev/vdb``), ``tag`` (2.49), ``delete_on_termination`` (2.79:
        delete the volume with the server). Returns the attachment."""
        body = self.check_create(device, tag, delete_on_termination)
        body["volumeId"] = str(base.getid(volume))
        return self._create(self._url(server), {"volumeAttachment": body}, "volumeAttachment")

    def check_create(
        self,
        device: str | None = None,
        tag: str | None = None,
        delete_on_termination: bool | None = None,
    ) -> dict[str, Any]:
        """:meth:`create`'s body without the volume; UnsupportedVersion for
        what the microversion lacks."""
        body: dict[str, Any] = {}
        if device is not None:
            body["device"] = device
        if tag is not None:
            self._require(self.api_version, "2.49", what="a volume attachment tag")
            body["tag"] = tag
        if delete_on_termination is not None:
            self._require(
                self.api_version, "2.79", what="a volume attachment's delete_on_termination"
            )
            body["delete_on_termination"] = bool(delete_on_termination)
        return body

    def update(
        self,
        server: base.Resource | str,
        volume: base.Resource | str,
        delete_on_termination: bool | None = None,
        new_volume: base.Resource | str | None = None,
    ) -> base.Result:
        """Change an attachment: ``delete_on_termination`` (2.85), or swap
        the volume for ``new_volume`` (admin). A Result."""
        body = self.check_update(delete_on_termination, new_volume)
        body["volumeId"] = str(base.getid(new_volume if new_volume is not None else volume))
        response = self._request("PUT", self._url(server, volume), body={"volumeAttachment": body})
        return self._result(response, self._body(response))

    def check_update(
        self,
        delete_on_termination: bool | None = None,
        new_volume: base.Resource | str | None = None,
    ) -> dict[str, Any]:
        """ValidationError when :meth:`update` has nothing to change;
        UnsupportedVersion for ``delete_on_termination`` before 2.85."""
        if delete_on_termination is None and new_volume is None:
            raise exceptions.ValidationError(
                "Nothing to change: give {delete_on_termination} or {new_volume}.",
                params=("delete_on_termination", "new_volume"),
            )
        body: dict[str, Any] = {}
        if delete_on_termination is not None:
            self._require(
                self.api_version, "2.85", what="changing delete_on_termination of an attachment"
            )
            body["delete_on_termination"] = bool(delete_on_termination)
        return body

    def delete(self, server: base.Resource | str, volume: base.Resource | str) -> base.Result:
        """Detach ``volume`` from ``server``; a Result."""
        return self._delete(self._url(server, volume))

    # novaclient's names: its ``client.volumes`` is this API (Nova's
    # os-volume_attachments), where occli's ``client.volumes`` is Cinder.

    def create_server_volume(
        self,
        server_id: base.Resource | str,
        volume_id: base.Resource | str,
        device: str | None = None,
        tag: str | None = None,
        delete_on_termination: bool = False,
    ) -> base.Resource:
        """novaclient's :meth:`create`."""
        return self.create(server_id, volume_id, device, tag, delete_on_termination or None)

    def update_server_volume(
        self,
        server_id: base.Resource | str,
        src_volid: base.Resource | str,
        dest_volid: base.Resource | str,
        delete_on_termination: bool | None = None,
    ) -> base.Result:
        """novaclient's :meth:`update`: attach ``dest_volid`` in place of
        ``src_volid`` (the same id with ``delete_on_termination`` changes
        only that)."""
        new_volume = None if str(dest_volid) == str(src_volid) else dest_volid
        if new_volume is None and delete_on_termination is None:
            new_volume = dest_volid
        return self.update(server_id, src_volid, delete_on_termination, new_volume)

    def get_server_volume(
        self,
        server_id: base.Resource | str,
        volume_id: base.Resource | str | None = None,
        attachment_id: base.Resource | str | None = None,
    ) -> base.Resource:
        """novaclient's :meth:`get` (``attachment_id`` its old name)."""
        return self.get(server_id, _volume_of(volume_id, attachment_id))

    def get_server_volumes(self, server_id: base.Resource | str) -> base.ListWithMeta:
        """novaclient's :meth:`list`."""
        return self.list(server_id)

    def delete_server_volume(
        self,
        server_id: base.Resource | str,
        volume_id: base.Resource | str | None = None,
        attachment_id: base.Resource | str | None = None,
    ) -> base.Result:
        """novaclient's :meth:`delete` (``attachment_id`` its old name)."""
        return self.delete(server_id, _volume_of(volume_id, attachment_id))


def _volume_of(
    volume_id: base.Resource | str | None, attachment_id: base.Resource | str | None
) -> base.Resource | str:
    if volume_id is not None and attachment_id is not None:
        raise TypeError("You cannot specify both volume_id and attachment_id arguments.")
    volume = attachment_id if volume_id is None else volume_id
    if volume is None:
        raise TypeError("volume_id is required argument.")
    return volume
