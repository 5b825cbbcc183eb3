"""Files only their owner may use: the token cache, the plugin index, the
parsed clouds.yaml files and the ``--log-file``.

The first three live in a directory of their own under the cache directory
(``$OCCLI_CACHE_DIR``, ``~/.cache/occli``): the token cache holds bearer
tokens, the plugin index names the modules occli imports, a parsed
clouds.yaml (:mod:`occli.clouds_yaml`) holds its passwords and is taken
for the file, so whoever can write any of them acts as the user. One set
of rules:

* the directory and the cache directory holding it are created 0700; one
  that others may only read is tightened to 0700; a symbolic link, a
  directory owned by another user or one that others may write is refused:
  a warning (once per process and directory) and the caller works without
  it;
* a file is read only if it is a regular file (never through a symbolic
  link) owned by the user, with no permission for group or others;
  anything else is a miss, and the caller rebuilds it;
* a file is written atomically: a unique 0600 temporary file in the same
  directory (``tempfile.mkstemp``), then ``os.replace``.

The log file (:func:`open_append`) holds the redacted debug log: request
URLs, names, bodies. It is created 0600 and appended to only if it is the
user's regular file with no permission for group or others, reached
without a symbolic link; anything else is an error. Its directory is the
user's choice and left as it is.

Ownership and modes are checked where the platform has them (POSIX).
"""

import io
import logging
import os
import stat

LOG = logging.getLogger(__name__)

_POSIX = hasattr(os, "getuid")
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
_APPEND_FLAGS = (
    os.O_WRONLY
    | os.O_CREAT
    | os.O_APPEND
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_NONBLOCK", 0)
)
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


def open_append(path: str, what: str, encoding: str | None = None) -> io.TextIOWrapper:
    """``path`` opened to append text, created 0600 (see the module's rules).

    Raises NotPrivate for a file that is not private, OSError when it
    cannot be opened.
    """
    try:
        fd = os.open(path, _APPEND_FLAGS, 0o600)
    except OSError:
        if os.path.islink(path):  # O_NOFOLLOW's ELOOP
            raise NotPrivate("Not using the %s: %s is a symbolic link." % (what, path)) from None
        raise
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            reason = "is not a regular file"
        elif not _owned(st):
            reason = "is owned by another user"
        elif _POSIX and st.st_mode & 0o077:
            reason = "is open to other users (chmod 600 it)"
        else:
            return os.fdopen(fd, "a", encoding=encoding)
    except BaseException:
        os.close(fd)
        raise
    os.close(fd)
    raise NotPrivate("Not using the %s: %s %s." % (what, path, reason))


def _owned(st):
    """Is the file of ``os.stat`` result ``st`` the user's own?"""
    return not _POSIX or st.st_uid == os.getuid()


def _private_dir(directory, what, create):
    """True when ``directory`` and the cache directory holding it (its
    parent) may hold private files; False if either is missing.

    Raises NotPrivate (after a warning) for a directory others control.
    """
    root = os.path.dirname(directory)
    if create and not os.path.lexists(directory):
        # makedirs gives its mode to the last directory only; the directory
        # is made in a root that passes
        os.makedirs(root, mode=0o700, exist_ok=True)
        _checked_dir(root, what)
        os.makedirs(directory, mode=0o700, exist_ok=True)
    return _checked_dir(directory, what) and _checked_dir(root, what)


def _checked_dir(directory, what):
    """:func:`_private_dir`'s rules for one directory."""
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
