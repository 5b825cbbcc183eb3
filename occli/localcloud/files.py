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
"""

import hashlib
import os
import re
import stat
import tempfile
import uuid
from typing import NamedTuple

DIRECTORY = "objects"
CHUNK = 64 * 1024
_NAME = re.compile(r"[0-9a-f]{32}")
_POSIX = hasattr(os, "getuid")
_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)


class NotPrivate(OSError):
    """A directory or file others could read or plant."""


class Stored(NamedTuple):
    """A file written by :meth:`Files.store`: its name, size and MD5 (hex)."""

    name: str
    size: int
    md5: str


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

    def store(self, chunks):
        """Write the bytes of ``chunks`` (an iterable) to a new file; its
        :class:`Stored`. Whatever ``chunks`` raises (a 413, a client gone)
        leaves no file behind."""
        fd, tmp = tempfile.mkstemp(dir=self.root, prefix=".put-", suffix=".tmp")
        try:
            md5, size = hashlib.md5(), 0
            with os.fdopen(fd, "wb") as f:
                os.fchmod(f.fileno(), 0o600)  # in case the umask removed u+rw
                for chunk in chunks:
                    md5.update(chunk)
                    size += len(chunk)
                    f.write(chunk)
            name = uuid.uuid4().hex
            os.replace(tmp, self.path(name))
        except BaseException:
            _unlink(tmp)
            raise
        return Stored(name, size, md5.hexdigest())

    def open(self, name):
        """File ``name`` open for reading (binary); NotPrivate if it is not
        a regular file of this user, OSError if it cannot be opened."""
        fd = os.open(self.path(name), _READ_FLAGS)
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


def _unlink(path):
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
