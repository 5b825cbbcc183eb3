"""Private files of bytes: one file per stored thing under a directory of
the data dir (Swift's objects under ``<data_dir>/objects``, Glance's image
data under ``<data_dir>/images``), shared by the services that keep bytes.

The database holds an object's metadata and the name of its file; the bytes
never enter it, so a large PUT holds the write lock only for its metadata
row, and neither a PUT nor a GET holds a whole object in memory (reads and
writes of at most ``CHUNK`` bytes). The directory is 0700 (tightened if
looser; a symbolic link, a non-directory or another user's directory is
refused at start); a file is written 0600 under a unique temporary name,
then renamed to its final name (random, never reused) at once; it is read
only if it is a regular file of this user (never through a symbolic link).

An upload larger than waitress keeps in memory reaches the app as waitress's
anonymous spool file (``tempfile.TemporaryFile``: Linux's ``O_TMPFILE``):
:meth:`Files.store` given it as ``source`` counts the chunks read from it as
ever, then links that file into place instead of writing a copy, so that
the bytes of a 1 GiB upload hit the disk once, as ``cp``'s do. The digests
a store asks for (Swift's MD5, Glance's MD5 and SHA-512) were hashed by the
server as the body arrived (:mod:`.spool`), else they are hashed here,
beside each other (:class:`Digests`).
"""

import hashlib
import os
import queue
import re
import stat
import sys
import tempfile
import threading
import uuid
from collections.abc import Iterable
from collections.abc import Mapping
from types import MappingProxyType
from typing import NamedTuple

DIRECTORY = "objects"
# 1 MiB: a 1 GiB body in 1,024 reads, not 16,384 (the per-read Python work
# was a tenth of a download)
CHUNK = 1024 * 1024
_NAME = re.compile(r"[0-9a-f]{32}")
_POSIX = hasattr(os, "getuid")
_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)
MD5 = ("md5",)
#: Chunks a digest's thread may be behind the stream (then the stream waits).
DEPTH = 4


#: Reads of a request whose file went missing, each in a newer snapshot,
#: before it gives up (see :class:`Stale`).
STALE_ATTEMPTS = 5


class NotPrivate(OSError):
    """A directory or file others could read or plant."""


class Stale(FileNotFoundError):
    """The file a row named is gone: the row was read in a snapshot older
    than the write that replaced or deleted it, which unlinks the old file
    once it commits. A read in a new snapshot finds the row as it is now."""


class Stored(NamedTuple):
    """A file written by :meth:`Files.store`: its name, size, MD5 (hex;
    empty if not asked for) and each digest asked for by name (hex)."""

    name: str
    size: int
    md5: str
    hashes: Mapping[str, str] = MappingProxyType({})


class Digests:
    """Named hashlib digests of one stream (``md5``, ``sha512``): the first
    updated in the caller's thread, each other in a thread of its own fed
    through a short queue (at most :data:`DEPTH` chunks waiting). hashlib
    lets go of the GIL while it hashes a large chunk, so Glance's MD5 and
    SHA-512 of an upload take the time of the slower one, not of both.

    The client's ``occli.digests`` does the same for downloads; the local
    cloud never imports the client, hence this small copy of its own."""

    def __init__(self, names: Iterable[str]) -> None:
        self.digests = {name: hashlib.new(name, usedforsecurity=False) for name in names}
        self.size = 0
        self._first = next(iter(self.digests.values()), None)
        self._queues: list[queue.Queue[bytes | None]] = []
        self._threads: list[threading.Thread] = []
        for digest in list(self.digests.values())[1:]:
            chunks: queue.Queue[bytes | None] = queue.Queue(DEPTH)
            thread = threading.Thread(target=_feed, args=(digest, chunks), daemon=True)
            thread.start()
            self._queues.append(chunks)
            self._threads.append(thread)

    def update(self, chunk: bytes) -> None:
        self.size += len(chunk)
        for chunks in self._queues:
            chunks.put(chunk)
        if self._first is not None:
            self._first.update(chunk)

    def close(self) -> None:
        """End the threads once they have hashed what they were given (also
        when the stream failed: call it in a ``finally``)."""
        for chunks in self._queues:
            chunks.put(None)
        for thread in self._threads:
            thread.join()
        self._queues, self._threads = [], []

    def hexdigests(self) -> dict[str, str]:
        """Each digest of all the chunks given (the threads ended)."""
        self.close()
        return {name: digest.hexdigest() for name, digest in self.digests.items()}

    def stored(self, name: str) -> Stored:
        """The :class:`Stored` of file ``name`` holding the bytes hashed."""
        hashes = self.hexdigests()
        return Stored(name, self.size, hashes.get("md5", ""), MappingProxyType(hashes))


def _feed(digest: "hashlib._Hash", chunks: "queue.Queue[bytes | None]") -> None:
    while (chunk := chunks.get()) is not None:
        digest.update(chunk)


def _owned(st):
    return not _POSIX or st.st_uid == os.getuid()


def make_private_dir(path):
    """Create ``path`` 0700 or tighten an existing one to 0700; NotPrivate
    for a symbolic link, a non-directory or another user's directory."""
    os.makedirs(path, mode=0o700, exist_ok=True)
    st = os.lstat(path)
    if stat.S_ISLNK(st.st_mode) or not stat.S_ISDIR(st.st_mode):
        raise NotPrivate("%s is not a directory of its own" % path)
    if not _owned(st):
        raise NotPrivate("%s is owned by another user" % path)
    if stat.S_IMODE(st.st_mode) != 0o700:
        os.chmod(path, 0o700)


class Reader:
    """A WSGI body: an open object file (from where it stands, at most
    ``left`` bytes if given) in reads of at most ``CHUNK`` bytes, closed
    when read to its end or by ``close()`` (the server's)."""

    def __init__(self, file, left=None):
        self.file = file
        self.left = left

    def __iter__(self):
        try:
            while self.left is None or self.left > 0:
                size = CHUNK if self.left is None else min(CHUNK, self.left)
                chunk = self.file.read(size)
                if not chunk:
                    return
                if self.left is not None:
                    self.left -= len(chunk)
                yield chunk
        finally:
            self.close()

    def close(self):
        self.file.close()


class Files:
    """The files of one cloud under ``<data_dir>/<directory>`` (default
    ``objects``, Swift's)."""

    def __init__(self, data_dir, directory=DIRECTORY):
        self.root = os.path.join(data_dir, directory)
        make_private_dir(self.root)

    def path(self, name):
        """The path of file ``name`` (ValueError for a name this store
        never makes)."""
        if not _NAME.fullmatch(name or ""):
            raise ValueError("not an object file name: %r" % (name,))
        return os.path.join(self.root, name)

    def store(self, chunks, source=None, digests=MD5):
        """Write the bytes of ``chunks`` (an iterable) to a new file; its
        :class:`Stored` with the hashlib ``digests`` named (MD5 by default;
        none for bytes hashed later, a staged image's). Whatever ``chunks``
        raises (a 413, a client gone) leaves no file behind.

        ``source``: the file ``chunks`` are read from, start to end (a
        request's ``wsgi.input``). When it is an anonymous regular file on
        this directory's file system holding exactly the bytes read (the
        server's spool of a large body), it becomes the stored file (a
        link, no copy), with the digests the spool computed as the body
        arrived when it has them (``spool.SpoolFile.digested``); otherwise,
        or if Linux refuses the link, the bytes read (``source``'s first
        ones) are copied from it."""
        spool = _spool(source, self.root)
        if spool is None:
            return self._write(chunks, digests)
        # the server's spool may have hashed the bytes as they arrived
        digested = getattr(source, "digested", None)
        hashing = Digests(() if digested else digests)
        try:
            for chunk in chunks:
                hashing.update(chunk)
        finally:
            hashing.close()
        name, size = uuid.uuid4().hex, hashing.size
        if os.fstat(spool).st_size == size and source.tell() == size:
            hashes = digested(digests, size) if digested else hashing.hexdigests()
            if hashes is None:  # not the digests asked for: read it again
                source.seek(0)
                again = Digests(digests)
                try:
                    for chunk in _first(source, size):
                        again.update(chunk)
                finally:
                    again.close()
                hashes = again.hexdigests()
            try:
                _link(spool, self.root, name)
                return Stored(name, size, hashes.get("md5", ""), MappingProxyType(hashes))
            except OSError:
                pass
        source.seek(0)
        return self._write(_first(source, size), digests)

    def _write(self, chunks, digests=MD5):
        fd, tmp = tempfile.mkstemp(dir=self.root, prefix=".put-", suffix=".tmp")
        hashing = Digests(digests)
        try:
            with os.fdopen(fd, "wb") as f:
                os.fchmod(f.fileno(), 0o600)  # in case the umask removed u+rw
                for chunk in chunks:
                    hashing.update(chunk)
                    f.write(chunk)
            name = uuid.uuid4().hex
            os.replace(tmp, self.path(name))
        except BaseException:
            _unlink(tmp)
            raise
        finally:
            hashing.close()
        return hashing.stored(name)

    def open(self, name):
        """File ``name`` open for reading (binary); NotPrivate if it is not
        a regular file of this user, :class:`Stale` if it is gone, OSError
        if it cannot be opened."""
        try:
            fd = os.open(self.path(name), _READ_FLAGS)
        except FileNotFoundError as exc:
            raise Stale(exc.errno, exc.strerror, exc.filename) from None
        f = os.fdopen(fd, "rb")
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode) or not _owned(st):
                raise NotPrivate("%s is not a private object file" % self.path(name))
            if _POSIX and st.st_mode & 0o077:
                os.fchmod(fd, 0o600)
        except BaseException:
            f.close()
            raise
        return f

    def reader(self, name, start=0, length=None):
        """A :class:`Reader` of file ``name``: ``length`` bytes (all if
        None) from offset ``start`` (a Range request's part)."""
        f = self.open(name)
        f.seek(start)
        return Reader(f, length)

    def read(self, name):
        """The whole content of file ``name`` (for small objects: heat's
        signals)."""
        with self.open(name) as f:
            return f.read()

    def remove(self, name):
        """Delete file ``name`` (already gone is fine)."""
        if name:
            _unlink(self.path(name))


def _spool(source, root):
    """The descriptor of ``source`` if it is an anonymous (no name left:
    ``st_nlink`` 0) regular file of this user, 0600, on ``root``'s file
    system (Linux); else None."""
    fileno = getattr(source, "fileno", None)
    if fileno is None or not sys.platform.startswith("linux"):
        return None
    try:
        fd = fileno()
        st = os.fstat(fd)
    except (OSError, ValueError):
        return None
    private = _owned(st) and not st.st_mode & 0o077
    if st.st_nlink or not stat.S_ISREG(st.st_mode) or not private:
        return None
    return fd if st.st_dev == os.stat(root).st_dev else None


def _first(source, size):
    """The first ``size`` bytes of file ``source`` (from where it stands),
    in reads of at most ``CHUNK`` bytes."""
    while size > 0:
        chunk = source.read(min(CHUNK, size))
        if not chunk:
            return
        size -= len(chunk)
        yield chunk


def _link(fd, root, name):
    """Give the anonymous file ``fd`` the name ``name`` in ``root``:
    ``linkat`` of ``/proc/self/fd/<fd>`` with ``AT_SYMLINK_FOLLOW``, as
    open(2) shows for ``O_TMPFILE`` (Python calls it, not ``link``, given a
    directory descriptor)."""
    directory = os.open(root, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.link("/proc/self/fd/%d" % fd, name, dst_dir_fd=directory)
    finally:
        os.close(directory)


def _unlink(path):
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
