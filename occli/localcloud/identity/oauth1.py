"""OAuth1 consumers (keystone/api/os_oauth1.py, keystone/oauth1/): CRUD
only, admins only. A consumer's ``secret`` is generated and shown once,
by its creation. Not served: request and access tokens, their
authorization, the ``oauth1`` auth method (an OAuth-scoped token)."""

import json
import uuid

from occli.localcloud import common
from occli.localcloud import errors

NOT_FOUND = "Consumer not found"


def _extra(data):
    return {k: v for k, v in data.items() if k not in ("id", "description", "secret")}


def create(db, data):
    """Store a consumer (``data`` its checked body: a given ``secret`` is
    replaced, as keystone does); its row."""
    consumer_id = uuid.uuid4().hex
    db.execute(
        "INSERT INTO oauth1_consumers (id, description, secret, extra, created_at)"
        " VALUES (?, ?, ?, ?, ?)",
        (
            consumer_id,
            data.get("description"),
            uuid.uuid4().hex,
            json.dumps(_extra(data)),
            common.utcnow().timestamp(),
        ),
    )
    return get(db, consumer_id)


def get(db, consumer_id):
    """The consumer row, or NotFound (keystone's text)."""
    row = db.execute("SELECT * FROM oauth1_consumers WHERE id = ?", (consumer_id,)).fetchone()
    if row is None:
        raise errors.NotFound(NOT_FOUND)
    return row


def select(db):
    return db.execute("SELECT * FROM oauth1_consumers ORDER BY created_at, id").fetchall()


def update(db, consumer_id, data):
    row = get(db, consumer_id)
    description = data["description"] if "description" in data else row["description"]
    extra = dict(json.loads(row["extra"]), **_extra(data))
    db.execute(
        "UPDATE oauth1_consumers SET description = ?, extra = ? WHERE id = ?",
        (description, json.dumps(extra), consumer_id),
    )
    return get(db, consumer_id)


def delete(db, consumer_id):
    get(db, consumer_id)
    db.execute("DELETE FROM oauth1_consumers WHERE id = ?", (consumer_id,))
