"""Glance v2 image writes: create, update (JSON patch), delete, tags, the
image data uploaded, staged and downloaded a chunk at a time, and the
interoperable import.

:class:`WriteMixin` is :class:`occli.v2.image.images.ImageManager`'s group
of write methods. Facts from glance/api/v2/images.py (the PATCH media type,
``add``/``replace``/``remove``, the read-only attributes) and
python-openstackclient's openstackclient/image/v2/image.py.
"""

import builtins
import hashlib
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Mapping
from typing import TYPE_CHECKING
from typing import Any
from typing import BinaryIO
from urllib.parse import quote

from occli import base
from occli import exceptions
from occli.digests import Digests
from occli.v2.image import base as glance

if TYPE_CHECKING:
    import requests

#: Glance's JSON-patch media type (v2.1: ``add`` replaces a present member).
PATCH_MEDIA_TYPE = "application/openstack-images-v2.1-json-patch"
#: Bytes read or written at a time when image data is streamed (1 MiB: a
#: 1 GiB image in 1,024 pieces, not 16,384).
CHUNK_SIZE = 1024 * 1024
#: Bytes asked of the wire at a time by a download (256 KiB: urllib3's reads
#: of 1 MiB cost twice the CPU of these).
READ_SIZE = 256 * 1024
VISIBILITIES = ("public", "private", "shared", "community")
#: Attributes Glance sets itself: a property of one of these names is
#: refused (Glance answers 403 "Attribute '…' is read-only.").
READ_ONLY = frozenset(
    (
        "id",
        "status",
        "checksum",
        "size",
        "virtual_size",
        "created_at",
        "updated_at",
        "file",
        "schema",
        "self",
        "direct_url",
        "os_hash_algo",
        "os_hash_value",
    )
)
#: Attributes every image has: set with ``replace``, never removed.
BASE_ATTRIBUTES = (
    "name",
    "visibility",
    "protected",
    "min_disk",
    "min_ram",
    "disk_format",
    "container_format",
)


class WriteMixin(glance.GlanceManager):
    """Create, change, delete, upload and download images; ``self`` is an
    ImageManager."""

    def check_attributes(
        self,
        visibility: str | None = None,
        min_disk: int | None = None,
        min_ram: int | None = None,
        properties: Mapping[str, str] | None = None,
        tags: Iterable[str] | None = None,
    ) -> None:
        """ValidationError for what Glance would refuse: an unknown
        visibility, a negative or non-integer size, a property Glance
        keeps read-only or that names an attribute, an empty tag."""
        if visibility is not None and visibility not in VISIBILITIES:
            raise exceptions.ValidationError(
                "{visibility} must be one of %s, not %r." % (", ".join(VISIBILITIES), visibility),
                params=("visibility",),
            )
        for name, value in (("min_disk", min_disk), ("min_ram", min_ram)):
            if value is not None and (
                isinstance(value, bool) or not isinstance(value, int) or value < 0
            ):
                raise exceptions.ValidationError(
                    "{%s} must be an integer of 0 or more, not %r." % (name, value),
                    params=(name,),
                )
        for key in properties or ():
            if key in READ_ONLY:
                raise exceptions.ValidationError(
                    "{properties}: Attribute '%s' is read-only." % key, params=("properties",)
                )
            if key in BASE_ATTRIBUTES or key == "tags":
                raise exceptions.ValidationError(
                    "{properties}: '%s' is an image attribute, not a property." % key,
                    params=("properties",),
                )
        if tags is not None and not all(isinstance(t, str) and t for t in tags):
            raise exceptions.ValidationError("{tags} must be non-empty texts.", params=("tags",))

    def create(
        self,
        name: str | None = None,
        disk_format: str | None = None,
        container_format: str | None = None,
        visibility: str | None = None,
        protected: bool | None = None,
        min_disk: int | None = None,
        min_ram: int | None = None,
        tags: Iterable[str] | None = None,
        properties: Mapping[str, str] | None = None,
    ) -> base.Resource:
        """Create an image record (``queued``, no data yet: :meth:`upload`
        gives it its bytes); ``properties`` are its extra properties."""
        tags = None if tags is None else list(tags)
        self.check_attributes(visibility, min_disk, min_ram, properties, tags)
        attributes = {
            "name": name,
            "disk_format": disk_format,
            "container_format": container_format,
            "visibility": visibility,
            "protected": protected,
            "min_disk": min_disk,
            "min_ram": min_ram,
            "tags": tags,
        }
        body = {k: v for k, v in attributes.items() if v is not None}
        body.update(properties or {})
        response = self._request("POST", "/v2/images", body=body)
        return self._resource(self._body(response), response)

    def check_update(
        self,
        name: str | None = None,
        visibility: str | None = None,
        protected: bool | None = None,
        min_disk: int | None = None,
        min_ram: int | None = None,
        disk_format: str | None = None,
        container_format: str | None = None,
        tags: Iterable[str] | None = None,
        properties: Mapping[str, str] | None = None,
        remove: Iterable[str] = (),
    ) -> builtins.list[dict[str, Any]]:
        """The JSON patch of :meth:`update`: ValidationError when it would
        change nothing or Glance would refuse a value."""
        tags = None if tags is None else list(tags)
        remove = list(remove)
        self.check_attributes(visibility, min_disk, min_ram, properties, tags)
        values = {
            "name": name,
            "visibility": visibility,
            "protected": protected,
            "min_disk": min_disk,
            "min_ram": min_ram,
            "disk_format": disk_format,
            "container_format": container_format,
            "tags": tags,
        }
        patch = [
            {"op": "replace", "path": _pointer(k), "value": v}
            for k, v in values.items()
            if v is not None
        ]
        patch += [
            {"op": "add", "path": _pointer(k), "value": v} for k, v in (properties or {}).items()
        ]
        for key in remove:
            if key in READ_ONLY or key in BASE_ATTRIBUTES or key == "tags":
                raise exceptions.ValidationError(
                    "{remove}: Property %s may not be removed." % key, params=("remove",)
                )
            patch.append({"op": "remove", "path": _pointer(key)})
        if not patch:
            raise exceptions.ValidationError("Nothing to change.")
        return patch

    def update(self, image: base.Resource | str, **changes: Any) -> base.Resource:
        """Change an image with one PATCH in Glance's JSON-patch media type:
        the attributes given (as :meth:`check_update` takes them) replaced,
        ``properties`` added or replaced, the properties named by
        ``remove`` removed, ``tags`` the whole new list of tags."""
        patch = self.check_update(**changes)
        response = self._request(
            "PATCH",
            "/v2/images/%s" % base.getid(image),
            body=patch,
            headers={"Content-Type": PATCH_MEDIA_TYPE},
        )
        return self._resource(self._body(response), response)

    def delete(self, image: base.Resource | str) -> base.Result:
        """Delete an image (Glance refuses a protected one: 403)."""
        return self._result(self._request("DELETE", "/v2/images/%s" % base.getid(image)))

    def add_tag(self, image: base.Resource | str, tag: str) -> base.Result:
        return self._result(self._request("PUT", _tag_url(image, tag)))

    def remove_tag(self, image: base.Resource | str, tag: str) -> base.Result:
        """Remove a tag (NotFound when the image does not have it)."""
        return self._result(self._request("DELETE", _tag_url(image, tag)))

    def upload(
        self,
        image: base.Resource | str,
        data: BinaryIO,
        size: int | None = None,
        progress: Callable[[int], object] | None = None,
    ) -> base.Result:
        """Send ``data`` (a binary file) as the image's bytes, a chunk at a
        time, never the whole of it in memory: with a ``Content-Length``
        when ``size`` is known, else chunked. ``progress(sent)`` is called
        after each chunk. Sent once (a stream cannot be sent again)."""
        return self._send("/v2/images/%s/file" % base.getid(image), data, size, progress)

    def stage(
        self,
        image: base.Resource | str,
        data: BinaryIO,
        size: int | None = None,
        progress: Callable[[int], object] | None = None,
    ) -> base.Result:
        """Send ``data`` to the image's staging area (Glance's interoperable
        import: the image turns ``uploading``; :meth:`import_image` with
        ``glance-direct`` makes it ``active``), streamed as :meth:`upload`."""
        return self._send("/v2/images/%s/stage" % base.getid(image), data, size, progress)

    def _send(
        self,
        url: str,
        data: BinaryIO,
        size: int | None,
        progress: Callable[[int], object] | None,
    ) -> base.Result:
        reader = _Reader(data, size, progress)
        response = self._request(
            "PUT",
            url,
            data=reader if size is not None else iter(reader),
            headers={"Content-Type": "application/octet-stream"},
            connect_retries=0,
            status_code_retries=0,
        )
        return self._result(response)

    def import_image(
        self,
        image: base.Resource | str,
        method: str = "glance-direct",
        stores: Iterable[str] | None = None,
        all_stores: bool | None = None,
        all_stores_must_succeed: bool | None = None,
        extra: Mapping[str, str] | None = None,
    ) -> base.Result:
        """Start the import of an image's data (``POST …/import``, 202):
        ``method`` is one of :meth:`import_methods`; ``extra`` the method's
        own members (``uri`` of ``web-download``, ``glance_region``… of
        ``glance-download``). Glance may finish it later: poll the image."""
        body: dict[str, Any] = {"method": dict(extra or {}, name=method)}
        if stores is not None:
            body["stores"] = list(stores)
        if all_stores is not None:
            body["all_stores"] = all_stores
        if all_stores_must_succeed is not None:
            body["all_stores_must_succeed"] = all_stores_must_succeed
        response = self._request("POST", "/v2/images/%s/import" % base.getid(image), body=body)
        return self._result(response)

    def import_methods(self) -> builtins.list[str]:
        """The import methods the cloud offers (``GET /v2/info/import``;
        NotFound where Glance has no interoperable import)."""
        body = self._body(self._request("GET", "/v2/info/import"))
        return list(body.get("import-methods", {}).get("value") or ())

    def stores(self) -> builtins.list[dict[str, Any]]:
        """The cloud's stores (``GET /v2/info/stores``; NotFound where
        Glance has a single store)."""
        return list(self._body(self._request("GET", "/v2/info/stores")).get("stores") or ())

    def data(
        self,
        image: base.Resource | str,
        chunk_size: int = READ_SIZE,
        progress: Callable[[int, int | None], object] | None = None,
    ) -> Iterator[bytes]:
        """The image's bytes, a chunk at a time, checked when the last one
        is read: ClientException (exit 1) when their ``os_hash_algo`` digest
        differs from the image's ``os_hash_value``, or, for an image without
        one (or of an algorithm hashlib lacks), their MD5 from the
        ``Content-MD5`` Glance sends (or the image's ``checksum``): one
        digest, as openstacksdk's ``image/_download.py`` (OSC's ``image
        save``) and glanceclient check. ``progress(received, total)`` is
        called after each chunk."""
        found = image if isinstance(image, base.Resource) else self.get(image)
        info = found.to_dict()
        response = self._request("GET", "/v2/images/%s/file" % found.id, stream=True)
        try:
            if response.status_code == 204:
                raise exceptions.ClientException("Image %s has no data." % found.id)
            algorithm = info.get("os_hash_algo")
            expected: dict[str, str | None]
            if algorithm in hashlib.algorithms_available and info.get("os_hash_value"):
                expected = {str(algorithm): info["os_hash_value"]}
            else:
                expected = {"md5": response.headers.get("Content-MD5") or info.get("checksum")}
            # hashed in a thread of its own, beside the download
            digests = Digests([name for name, value in expected.items() if value])
            total = response.headers.get("Content-Length")
            received = 0
            try:
                for chunk in _chunks(response, chunk_size, found.id):
                    digests.update(chunk)
                    received += len(chunk)
                    yield chunk
                    if progress is not None:
                        progress(received, int(total) if total and total.isdigit() else None)
            finally:
                got = digests.hexdigests()
        finally:
            response.close()
        for name, value in got.items():
            if value != expected[name]:
                raise exceptions.ClientException(
                    "The %s of the data downloaded for image %s is %s, not %s: the "
                    "data is corrupt." % (name, found.id, value, expected[name])
                )


class _Reader:
    """A binary file read :data:`CHUNK_SIZE` bytes at a time, reporting
    what was read: requests streams it with a ``Content-Length`` (``len``),
    or chunked (an iterator of it). No ``read``: urllib3 would read it in
    pieces of 16 KiB."""

    def __init__(
        self, data: BinaryIO, size: int | None, progress: Callable[[int], object] | None
    ) -> None:
        self.data = data
        self.size = size
        self.progress = progress
        self.sent = 0

    def __len__(self) -> int:
        return self.size or 0

    def __iter__(self) -> Iterator[bytes]:
        while chunk := self.data.read(CHUNK_SIZE):
            self.sent += len(chunk)
            if self.progress is not None:
                self.progress(self.sent)
            yield chunk


def _chunks(response: "requests.Response", chunk_size: int, image_id: str) -> Iterator[bytes]:
    """The body of ``response`` a chunk at a time; a connection lost or
    an answer cut short is a ClientException naming the image."""
    import requests

    try:
        yield from response.iter_content(chunk_size)
    except requests.exceptions.RequestException as exc:
        raise exceptions.ClientException(
            "The download of image %s ended early: %s" % (image_id, exc)
        ) from None


def _pointer(key: str) -> str:
    """The JSON pointer of a top-level member (RFC 6901 escapes)."""
    return "/" + key.replace("~", "~0").replace("/", "~1")


def _tag_url(image: base.Resource | str, tag: str) -> str:
    return "/v2/images/%s/tags/%s" % (base.getid(image), quote(tag, safe=""))
