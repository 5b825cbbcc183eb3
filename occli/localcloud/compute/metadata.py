"""Server metadata: merge, replace, set and delete items.

Writes need a server that is not locked (unless the caller is an admin)
and in a writable vm_state; every write is checked against the metadata
quota.
"""

import json

from occli.localcloud import errors
from occli.localcloud.compute import quotas
from occli.localcloud.compute import server_rows

WRITABLE_STATES = ("active", "paused", "suspended", "stopped")


def items(server):
    """The server's metadata dict."""
    return json.loads(server["metadata"])


def item(server, key):
    """``{key: value}``, or NotFound."""
    metadata = items(server)
    if key not in metadata:
        raise errors.NotFound("Metadata item was not found")
    return {key: metadata[key]}


def check_writable(caller, server, action):
    server_rows.check_lock(caller, server)
    server_rows.check_state(server, action, WRITABLE_STATES, must_have_launched=False)


def _store(db, caller, server, metadata, check=True):
    # nova checks the caller's project's metadata_items quota (not when an
    # item is deleted)
    if check:
        quotas.check_metadata(metadata, db, caller.project_id)
    server["metadata"] = json.dumps(metadata)
    server_rows.touch(server)
    server_rows.save(db, server)
    return metadata


def merge(db, caller, server, values):
    """Merge ``values`` into the metadata; returns the whole of it."""
    check_writable(caller, server, "update metadata")
    metadata = items(server)
    metadata.update(values)
    return _store(db, caller, server, metadata)


def replace(db, caller, server, values):
    """Replace the metadata by ``values``."""
    check_writable(caller, server, "update metadata")
    return _store(db, caller, server, values)


def set_item(db, caller, server, key, value):
    check_writable(caller, server, "update metadata")
    metadata = items(server)
    metadata[key] = value
    _store(db, caller, server, metadata)
    return {key: value}


def delete_item(db, caller, server, key):
    check_writable(caller, server, "delete metadata")
    metadata = items(server)
    if key not in metadata:
        raise errors.NotFound("Metadata item was not found")
    del metadata[key]
    _store(db, caller, server, metadata, check=False)
