"""Server tags (nova's ``os-server-tags``, 2.26+) over ``servers.tags``.

At most :data:`MAX_TAGS` per server, each 1-60 characters without ``/``
or ``,`` (the API checks the text); tags change only while the server is
ACTIVE, PAUSED, SUSPENDED or SHUTOFF (nova's vm_states active, paused,
suspended, stopped; 409 otherwise); reading them works in any state.
Tags are not a server change: ``updated_at`` stays, as in nova, whose
tags live in a table of their own.
"""

import json

from occli.localcloud import errors
from occli.localcloud.compute import server_rows

MAX_TAGS = 50
# nova's ServerTagsController._check_instance_in_valid_state
_WRITABLE_STATES = ("active", "paused", "suspended", "stopped")


def of(server):
    """The server's tags, in the order they were set."""
    return json.loads(server["tags"])


def check_writable(server, action):
    """409 ``Cannot '<action>' instance …`` outside the writable states."""
    server_rows.check_state(server, action, _WRITABLE_STATES, None, must_have_launched=False)


def _store(db, server, tags):
    server["tags"] = json.dumps(tags)
    server_rows.save(db, server)


def has(server, tag):
    """NotFound ``Server <id> has no tag '<tag>'`` unless it has it."""
    if tag not in of(server):
        raise errors.NotFound("Server %s has no tag '%s'" % (server["id"], tag))


def add(db, server, tag):
    """Add ``tag`` (text already checked); True if it was new. The limit is
    checked first, so a full server refuses even a tag it has (nova)."""
    check_writable(server, "update tag")
    tags = of(server)
    if len(tags) >= MAX_TAGS:
        raise errors.BadRequest("The number of tags exceeded the per-server limit %d" % MAX_TAGS)
    if tag in tags:
        return False
    _store(db, server, tags + [tag])
    return True


def replace(db, server, tags):
    """Set the tags to ``tags`` (checked, at most 50), duplicates once."""
    check_writable(server, "update tags")
    tags = list(dict.fromkeys(tags))
    _store(db, server, tags)
    return tags


def remove(db, server, tag):
    check_writable(server, "delete tag")
    tags = of(server)
    if tag not in tags:
        raise errors.NotFound("Instance %s has no tag '%s'" % (server["id"], tag))
    tags.remove(tag)
    _store(db, server, tags)


def clear(db, server):
    check_writable(server, "delete tags")
    _store(db, server, [])
