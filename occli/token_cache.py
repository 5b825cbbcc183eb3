"""Per-identity cache of keystoneauth1 auth state between invocations.

One JSON file per :meth:`occli.config.CloudConfig.identity_key` under
``$OCCLI_CACHE_DIR/tokens`` (default ``platformdirs.user_cache_dir("occli")
/tokens``)::

    {"version": 1, "expires_at": 1700000000.0, "expires": "...Z",
     "auth_state": "<plugin.get_auth_state() JSON>", "extra": {...}}

``auth_state`` is keystoneauth's own serialisation: the token id and the
token body (catalog, roles, project); never the password or secret.  The
token itself is a bearer credential, so the directory (and the cache
directory holding it) and the files are private (:mod:`occli.private_files`:
0700 and 0600, written through a unique temporary file, foreign, open or
symlinked ones refused).  ``extra``
holds small facts tied to the token's lifetime, such as the compute version
range discovered at the endpoint.

A command finding a valid token here runs with
:class:`occli.cached_auth.CachedTokenAuth` (:func:`cached_auth`): the
token answers, and the configured auth plugin is built only to
authenticate again.

Every failure (unreadable directory, corrupt or foreign file, wrong format
version, expired token, a token without a service catalog) is logged at
debug level and treated as a cache miss; a bad file is overwritten by the
next :func:`save`.  A tokens directory that others control is refused with
a warning, and occli works without the cache.
"""

import json
import logging
import os
import time

from occli import private_files

LOG = logging.getLogger(__name__)

__all__ = [
    "cache_dir",
    "cached_auth",
    "invalidate",
    "load",
    "load_extra",
    "restore",
    "save",
    "update_extra",
]

#: Bump when the file layout changes; other versions are ignored.
FORMAT_VERSION = 1

#: A cached token is used only if it lives at least this long.  Matches
#: keystoneauth's ``BaseIdentityPlugin.MIN_TOKEN_LIFE_SECONDS``, so a token
#: that :func:`load` accepts is not re-requested by the plugin right away.
STALE_SECONDS = 120


def cache_dir(environ=None):
    """Directory holding the token files (not created here)."""
    environ = os.environ if environ is None else environ
    root = environ.get("OCCLI_CACHE_DIR")
    if not root:
        from occli import userdirs

        root = userdirs.user_cache_dir("occli")
    return os.path.join(os.path.expanduser(root), "tokens")


def _path(key, directory=None):
    if not key or not all(c.isalnum() or c in "-_" for c in key):
        raise ValueError(f"invalid token cache key {key!r}")
    return os.path.join(directory or cache_dir(), key + ".json")


def _read(key):
    """The valid, unexpired entry for ``key``, or None."""
    try:
        path = _path(key)
    except ValueError as exc:
        LOG.debug("token cache: %s", exc)
        return None
    data = private_files.read(path, "token cache")
    if data is None:
        return None
    try:
        entry = json.loads(data)
    except ValueError as exc:
        LOG.debug("token cache: ignoring unreadable %s: %s", path, exc)
        return None
    if not isinstance(entry, dict) or entry.get("version") != FORMAT_VERSION:
        LOG.debug("token cache: ignoring %s (format version)", path)
        return None
    expires_at = entry.get("expires_at")
    if not isinstance(expires_at, (int, float)) or not isinstance(entry.get("auth_state"), str):
        LOG.debug("token cache: ignoring malformed %s", path)
        return None
    if expires_at - STALE_SECONDS <= time.time():
        LOG.debug("token cache: %s has expired", path)
        return None
    return entry


def restore(plugin, key):
    """Install the cached auth state for ``key`` into ``plugin``.

    Returns the entry's ``extra`` dict when a valid, unexpired token was
    installed (the plugin then needs no request to the identity service),
    None otherwise; the plugin is left untouched on a miss. One read.
    """
    entry = _read(key)
    if entry is None:
        return None
    try:
        plugin.set_auth_state(entry["auth_state"])
        ref = plugin.auth_ref
        if ref is None or ref.will_expire_soon(STALE_SECONDS):
            raise ValueError("expired or empty auth state")
        if not (ref.has_service_catalog() and ref.service_catalog.catalog):
            raise ValueError("no service catalog")
    except Exception as exc:  # noqa: BLE001 - any bad state is a cache miss
        LOG.debug("token cache: cannot use entry %s: %s", key, exc)
        try:
            plugin.set_auth_state(None)
        except Exception:  # noqa: BLE001, S110 - already a miss
            pass
        return None
    LOG.debug("token cache: using cached token %s", key)
    extra = entry.get("extra")
    return dict(extra) if isinstance(extra, dict) else {}


def cached_auth(key, factory):
    """``(plugin, extra)`` answering from the cached token of ``key``, or
    None on a miss.

    The plugin is a :class:`occli.cached_auth.CachedTokenAuth`: it builds
    the configured plugin (``factory()``) only when the token no longer
    does (a 401, the token about to expire). The entry is checked as
    :func:`restore` checks it. One read.
    """
    entry = _read(key)
    if entry is None:
        return None
    from occli import cached_auth

    try:
        ref = cached_auth.from_state(entry["auth_state"])
        if ref is None or ref.will_expire_soon(STALE_SECONDS):
            raise ValueError("expired or empty auth state")
        if not (ref.has_service_catalog() and ref.service_catalog.catalog):
            raise ValueError("no service catalog")
    except Exception as exc:  # noqa: BLE001 - any bad state is a cache miss
        LOG.debug("token cache: cannot use entry %s: %s", key, exc)
        return None
    LOG.debug("token cache: using cached token %s", key)
    extra = entry.get("extra")
    return (
        cached_auth.CachedTokenAuth(ref, factory),
        dict(extra) if isinstance(extra, dict) else {},
    )


def load(plugin, key):
    """Like :func:`restore`, as a bool: was a valid token installed?"""
    return restore(plugin, key) is not None


def load_extra(key):
    """The ``extra`` dict saved with a still-valid token, or {}."""
    entry = _read(key)
    extra = entry.get("extra") if entry else None
    return dict(extra) if isinstance(extra, dict) else {}


def save(plugin, key, extra=None):
    """Store ``plugin``'s auth state (and ``extra``) under ``key``.

    Does nothing (returns False) when the plugin has no state to save,
    e.g. it has not authenticated yet or is not an identity plugin, or when
    the token carries no expiry.  Never raises on I/O errors.
    """
    try:
        state = plugin.get_auth_state()
        expires = plugin.auth_ref.expires if state else None
    except Exception as exc:  # noqa: BLE001 - plugins without auth state
        LOG.debug("token cache: plugin has no auth state: %s", exc)
        return False
    if not state or expires is None:
        return False
    entry = {
        "version": FORMAT_VERSION,
        "expires_at": expires.timestamp(),
        "expires": expires.isoformat(),
        "saved_at": time.time(),
        "auth_state": state,
        "extra": dict(extra or {}),
    }
    return _write(key, entry)


def update_extra(key, extra):
    """Merge ``extra`` into the entry of a still-valid token; False if none."""
    entry = _read(key)
    if entry is None:
        return False
    merged = entry.get("extra") if isinstance(entry.get("extra"), dict) else {}
    merged.update(extra)
    entry["extra"] = merged
    return _write(key, entry)


def invalidate(key):
    """Forget the cached token for ``key`` (e.g. after a 401)."""
    try:
        os.unlink(_path(key))
    except FileNotFoundError:
        pass
    except (OSError, ValueError) as exc:
        LOG.debug("token cache: cannot remove entry %s: %s", key, exc)


def _write(key, entry):
    """Atomically replace the entry of ``key`` (see occli.private_files)."""
    try:
        path = _path(key)
        data = json.dumps(entry, separators=(",", ":")).encode()
    except (TypeError, ValueError) as exc:
        LOG.debug("token cache: cannot write entry %s: %s", key, exc)
        return False
    return private_files.write(path, data, "token cache")
