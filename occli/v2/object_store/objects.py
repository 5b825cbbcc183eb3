"""Swift objects: uploaded from a file and downloaded a chunk at a time
(never the whole of one in memory), their MD5 ``ETag`` checked;
listed with markers, shown, their properties set and removed. Facts from
python-openstackclient's openstackclient/api/object_store_v1.py and
Swift's proxy (the ``ETag`` of a plain object is the MD5 of its bytes).

:class:`ObjectMixin` is the group of object methods of
:class:`occli.v2.object_store.object_store.ObjectStoreManager`."""

import os
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Mapping
from typing import TYPE_CHECKING
from typing import Any
from typing import BinaryIO

from occli import base
from occli import exceptions
from occli.digests import Digests
from occli.v2.object_store import base as swift

if TYPE_CHECKING:
    import requests
    from requests.structures import CaseInsensitiveDict

#: Bytes read from a file or from the wire at a time (1 MiB: a 1 GiB object
#: in 1,024 pieces, not 16,384).
CHUNK_SIZE = 1024 * 1024
#: Bytes asked of the wire at a time by a download (256 KiB: urllib3's reads
#: of 1 MiB cost twice the CPU of these).
READ_SIZE = 256 * 1024
#: The object headers ``show_object`` gives when the object has them (OSC's keys).
_IF_PRESENT = ("content-length", "last-modified", "etag", "x-object-manifest")


def local_path(directory: str, name: str) -> str:
    """Where object ``name`` is saved under ``directory`` (its ``/`` make
    subdirectories): a CommandError for a name that would be written
    elsewhere (absolute, with a ``..`` part, through a symbolic link
    leading out) or is no file's name (``photos/``, a NUL)."""
    parts = name.split("/")
    if name.startswith("/") or ".." in parts or not parts[-1] or "\0" in name:
        raise exceptions.CommandError(
            "Refusing to save object %r: its name is not a file inside %s." % (name, directory)
        )
    root = os.path.realpath(directory)
    path = os.path.realpath(os.path.join(root, name))
    if os.path.commonpath([root, path]) != root:
        raise exceptions.CommandError(
            "Refusing to save object %r: it would be written outside %s." % (name, directory)
        )
    return path


class ObjectMixin(swift.SwiftManager):
    """The objects of the account's containers; ``self`` is an
    ObjectStoreManager."""

    def list_objects(
        self,
        container: str,
        prefix: str | None = None,
        delimiter: str | None = None,
        marker: str | None = None,
        end_marker: str | None = None,
        limit: int | None = None,
        full: bool = False,
    ) -> Iterator[dict[str, Any]]:
        """A container's objects (``name``, ``bytes``, ``hash``,
        ``content_type``, ``last_modified``; a ``subdir`` for a name
        rolled up at ``delimiter``) in name order: one page (``limit`` at
        most), or with ``full`` all of them, page after page."""
        return self._listing(
            swift.container_path(container),
            full,
            prefix=prefix,
            delimiter=delimiter,
            marker=marker,
            end_marker=end_marker,
            limit=limit,
        )

    def put_object(
        self, container: str, name: str, data: bytes | str = b"", content_type: str | None = None
    ) -> base.Result:
        """Create or replace an object with ``data`` (held in memory: for
        a file, :meth:`create_object`)."""
        if isinstance(data, str):
            data = data.encode("utf-8")
        headers = {"Content-Type": content_type or "application/octet-stream"}
        return self._result(
            self._request("PUT", swift.object_path(container, name), data=data, headers=headers)
        )

    def create_object(
        self,
        container: str,
        path: str,
        name: str | None = None,
        progress: Callable[[int, int | None], object] | None = None,
    ) -> dict[str, Any]:
        """Upload the file ``path`` as object ``name`` (default: ``path``
        as given, as OSC names it, less its ``.`` parts: ``./a`` is ``a``,
        as the URL OSC sends reaches it), streamed a chunk at a time with its
        length and no content type (Swift guesses it from the name, as for
        OSC), its MD5 computed beside the stream and checked against the
        ``ETag`` Swift answers (swiftclient's check: a file read twice, to
        send its MD5 first, cost a second pass over it, 1.5 s a GiB).
        ``progress(sent, size)`` is called after each chunk. OSC's
        ``object``, ``container`` and ``etag``."""
        import stat

        if name is None:
            name = "/".join(part for part in path.split("/") if part != ".")
        url = swift.object_path(container, name)
        try:
            if not stat.S_ISREG(os.stat(path).st_mode):
                raise exceptions.ValidationError(
                    "{file}: %s is not a regular file." % path, params=("file",)
                )
            data = open(path, "rb")  # noqa: SIM115 - closed below
        except OSError as exc:
            raise exceptions.ValidationError(
                "{file}: cannot read %s: %s" % (path, exc.strerror or exc), params=("file",)
            ) from None
        digests = Digests(["md5"])
        try:
            with data:
                size = os.fstat(data.fileno()).st_size
                response = self._request(
                    "PUT",
                    url,
                    data=_Upload(data, size, progress, digests),
                    headers={"Content-Length": str(size)},
                    connect_retries=0,  # a stream read once cannot be sent again
                    status_code_retries=0,
                )
        finally:
            md5 = digests.hexdigests()["md5"]
        answered = (response.headers.get("Etag") or "").strip('"')
        if answered and answered != md5:
            raise exceptions.ClientException(
                "Swift stored object %s with the ETag %s, not the MD5 %s of the bytes sent "
                "from %s: the object stored is corrupt (it has not been removed)."
                % (name, answered, md5, path)
            )
        return {
            "account": self.account,
            "container": container,
            "object": name,
            "x-trans-id": response.headers.get("X-Trans-Id"),
            "etag": answered or md5,
        }

    def head_object(self, container: str, name: str) -> "CaseInsensitiveDict[str]":
        """An object's headers (``Last-Modified``, ``X-Timestamp``, …)."""
        return self._request("HEAD", swift.object_path(container, name)).headers

    def show_object(self, container: str, name: str) -> dict[str, Any]:
        """OSC's object details: ``account``, ``container``, ``object``,
        ``content-type``, the length, date, ETag and manifest it has, and
        its ``properties`` (when it has any)."""
        headers = self.head_object(container, name)
        info: dict[str, Any] = {
            "account": self.account,
            "container": container,
            "object": name,
            "content-type": headers.get("Content-Type"),
        }
        info.update((key, headers[key]) for key in _IF_PRESENT if key in headers)
        properties = swift.properties_of(headers, "Object")
        if properties:
            info["properties"] = properties
        return info

    def get_object(self, container: str, name: str) -> bytes:
        """An object's content as bytes (a small one: for any size,
        :meth:`object_data`)."""
        return self._request("GET", swift.object_path(container, name)).content

    def object_data(
        self,
        container: str,
        name: str,
        chunk_size: int = READ_SIZE,
        progress: Callable[[int, int | None], object] | None = None,
    ) -> Iterator[bytes]:
        """An object's bytes, a chunk at a time, checked when the last one
        is read: ClientException (exit 1) when their MD5 is not the
        ``ETag`` Swift sent (a large object's manifest ETag is not an MD5
        of its bytes: not checked). ``progress(received, total)`` is
        called after each chunk."""
        response = self._request("GET", swift.object_path(container, name), stream=True)
        try:
            headers = response.headers
            expected = (headers.get("Etag") or "").strip('"')
            if "X-Object-Manifest" in headers or headers.get("X-Static-Large-Object"):
                expected = ""
            total = headers.get("Content-Length")
            whole = int(total) if total and total.isdigit() else None
            # hashed in a thread of its own, beside the download
            digests = Digests(["md5"])
            received = 0
            try:
                for chunk in _chunks(response, chunk_size, container, name):
                    digests.update(chunk)
                    received += len(chunk)
                    yield chunk
                    if progress is not None:
                        progress(received, whole)
            finally:
                md5 = digests.hexdigests()["md5"]
        finally:
            response.close()
        if expected and md5 != expected:
            raise exceptions.ClientException(
                "The MD5 of the data downloaded for object %s is %s, not its ETag %s: the "
                "data is corrupt." % (name, md5, expected)
            )

    def save_object(
        self,
        container: str,
        name: str,
        path: str,
        progress: Callable[[int, int | None], object] | None = None,
    ) -> None:
        """Write an object's bytes to the file ``path`` (its directories
        made), checked as :meth:`object_data` checks them: written beside
        it, then moved, so that corrupt or cut-short data leaves no file."""
        import tempfile

        target = os.path.abspath(path)
        try:
            os.makedirs(os.path.dirname(target), exist_ok=True)
            fd, partial = tempfile.mkstemp(prefix=".occli-", dir=os.path.dirname(target))
        except OSError as exc:
            raise exceptions.ValidationError(
                "{file}: cannot write %s: %s" % (path, exc.strerror or exc), params=("file",)
            ) from None
        try:
            with os.fdopen(fd, "wb") as f:
                for chunk in self.object_data(container, name, progress=progress):
                    f.write(chunk)
            os.replace(partial, target)
        except BaseException:
            os.unlink(partial)
            raise

    def set_object_properties(
        self, container: str, name: str, properties: Mapping[str, str]
    ) -> base.Result:
        """Add or replace an object's ``properties`` (one POST: Swift
        keeps the others, as ``object set`` in OSC shows)."""
        headers = swift.meta_headers("Object", properties)
        return self._post(swift.object_path(container, name), headers)

    def unset_object_properties(
        self, container: str, name: str, keys: Iterable[str]
    ) -> base.Result:
        """Remove an object's properties ``keys`` (one POST)."""
        headers = swift.remove_headers("Object", keys)
        return self._post(swift.object_path(container, name), headers)

    def delete_object(self, container: str, name: str) -> base.Result:
        return self._result(self._request("DELETE", swift.object_path(container, name)))


class _Upload:
    """A binary file requests sends with a ``Content-Length`` (``len``),
    read :data:`CHUNK_SIZE` bytes at a time, each chunk given to
    ``digests`` and what was read reported. No ``read``: urllib3 would
    read it in pieces of 16 KiB."""

    def __init__(
        self,
        data: BinaryIO,
        size: int,
        progress: Callable[[int, int | None], object] | None,
        digests: Digests,
    ) -> None:
        self.data = data
        self.size = size
        self.progress = progress
        self.digests = digests
        self.sent = 0

    def __len__(self) -> int:
        return self.size

    def __iter__(self) -> Iterator[bytes]:
        while chunk := self.data.read(CHUNK_SIZE):
            self.digests.update(chunk)
            self.sent += len(chunk)
            if self.progress is not None:
                self.progress(self.sent, self.size)
            yield chunk


def _chunks(
    response: "requests.Response", chunk_size: int, container: str, name: str
) -> Iterator[bytes]:
    """The body of ``response`` a chunk at a time; a connection lost or an
    answer cut short is a ClientException naming the object."""
    import requests

    try:
        yield from response.iter_content(chunk_size)
    except requests.exceptions.RequestException as exc:
        raise exceptions.ClientException(
            "The download of object %s/%s ended early: %s" % (container, name, exc)
        ) from None
