"""Files only their owner may use: the token cache and the plugin index.

Both live in a directory of their own under the cache directory: the token
cache holds bearer tokens, the plugin index names the modules occli
imports, so whoever can write either acts as the user. One set of rules:

* the directory is created 0700; one that others may only read is
  tightened to 0700; a symbolic link, a directory owned by another user or
  one that others may write is refused: a warning (once per process and
  directory) and the caller works without it;
* a file is read only if it is a regular file (never through a symbolic
  link) owned by the user, with no permission for group or others;
  anything else is a miss, and the caller rebuilds it;
* a file is written atomically: a unique 0600 temporary file in the same
  directory (``tempfile.mkstemp``), then ``os.replace``.

Ownership and modes are checked where the platform has them (POSIX).
"""

import logging
import os
import stat

LOG = logging.getLogger(__name__)

_POSIX = hasattr(os, "getuid")
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
_warned: set[str] = set()


class NotPrivate(OSError):
    """A directory that others could use to plant or read files."""


def read(path, what):
    """The bytes of the private file ``path``, or None (a miss).

    ``what`` names the cache in log messages ("token cache").
    """
    try:
        if not _private_dir(os.path.dirname(path), what, create=False):
            return None
        fd = os.open(path, _OPEN_FLAGS)
    except FileNotFoundError:
        return None
    except OSError as exc:  # a symlink (ELOOP), a refused directory, …
        LOG.debug("%s: cannot open %s: %s", what, path, exc)
        return None
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(f.fileno())
        if not stat.S_ISREG(st.st_mode) or not _owned(st) or (_POSIX and st.st_mode & 0o077):
            LOG.debug("%s: ignoring %s (not a private file)", what, path)
            return None
        try:
            return f.read()
        except OSError as exc:
            LOG.debug("%s: cannot read %s: %s", what, path, exc)
            return None


def write(path, data, what):
    """Replace ``path`` with ``data`` (bytes) atomically; False on failure.

    Never raises on I/O errors: a cache problem never fails a command.
    """
    import tempfile

    directory = os.path.dirname(path)
    tmp = None
    try:
        _private_dir(directory, what, create=True)
        fd, tmp = tempfile.mkstemp(
            dir=directory, prefix="." + os.path.basename(path) + ".", suffix=".tmp"
        )
        with os.fdopen(fd, "wb") as f:
            if hasattr(os, "fchmod"):
                os.fchmod(f.fileno(), 0o600)  # in case the umask removed u+rw
            f.write(data)
        os.replace(tmp, path)
        tmp = None
        return True
    except OSError as exc:
        LOG.debug("%s: cannot write %s: %s", what, path, exc)
        return False
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def _owned(st):
    """Is the file of ``os.stat`` result ``st`` the user's own?"""
    return not _POSIX or st.st_uid == os.getuid()


def _private_dir(directory, what, create):
    """True when ``directory`` may hold private files; False if missing.

    Raises NotPrivate (after a warning) for a directory others control.
    """
    if create:
        os.makedirs(directory, mode=0o700, exist_ok=True)
    try:
        st = os.lstat(directory)
    except FileNotFoundError:
        return False
    if stat.S_ISLNK(st.st_mode):
        reason = "is a symbolic link"
    elif not stat.S_ISDIR(st.st_mode):
        raise NotADirectoryError("%s is not a directory" % directory)
    elif not _owned(st):
        reason = "is owned by another user"
    elif _POSIX and st.st_mode & 0o022:
        reason = "is writable by other users"
    else:
        if _POSIX and st.st_mode & 0o077:
            os.chmod(directory, 0o700)
        return True
    if directory not in _warned:
        _warned.add(directory)
        LOG.warning("Not using the %s: %s %s.", what, directory, reason)
    raise NotPrivate("%s %s" % (directory, reason))
