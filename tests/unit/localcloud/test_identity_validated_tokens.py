"""The memo of validated tokens (``tokens.Validated``, issue 26): a token
is loaded once per thread while the database is unchanged, and any commit,
of this thread or another, makes the next request load it again, so a
revocation is still seen at once."""

import sqlite3
import threading

from occli.localcloud.identity import tokens

GLANCE = "/image/v2/images"


def _traced(db: sqlite3.Connection) -> list[str]:
    """The statements ``db`` runs from now on (a list that fills up)."""
    statements: list[str] = []
    db.set_trace_callback(statements.append)
    return statements


def test_a_token_is_loaded_once_while_nothing_is_committed(cloud, client):
    raw = client.token()
    validated = tokens.Validated()
    with cloud.store.read() as db:
        first = validated.load(db, raw)
    with cloud.store.read() as db:
        statements = _traced(db)
        try:
            again = validated.load(db, raw)
        finally:
            db.set_trace_callback(None)
    assert first is not None and again is first
    assert [s for s in statements if s.startswith("SELECT")] == []
    assert statements == ["PRAGMA data_version"]


def test_a_commit_makes_the_next_read_load_the_token_again(cloud, client):
    raw = client.token()
    validated = tokens.Validated()
    with cloud.store.read() as db:
        assert validated.load(db, raw) is not None
    with cloud.store.transaction() as db:
        db.execute("INSERT INTO regions (id) VALUES ('elsewhere')")
    with cloud.store.read() as db:
        statements = _traced(db)
        try:
            assert validated.load(db, raw) is not None
        finally:
            db.set_trace_callback(None)
    assert any(s.startswith("SELECT t.*") for s in statements)
    with cloud.store.transaction() as db:
        tokens.revoke(db, raw)
    with cloud.store.read() as db:
        assert validated.load(db, raw) is None


def test_a_write_transaction_never_answers_from_the_memo(cloud, client):
    raw = client.token()
    validated = tokens.Validated()
    with cloud.store.transaction() as db:
        assert validated.load(db, raw) is not None
        # the write connection's own change leaves its data_version as it was
        tokens.revoke(db, raw)
        assert validated.load(db, raw) is None


def test_an_expired_token_is_refused_from_the_memo(cloud, client, clock):
    raw = client.token()
    validated = tokens.Validated()
    with cloud.store.read() as db:
        token = validated.load(db, raw)
    assert token is not None
    clock.advance(token["expires_at"] - clock.now.timestamp() + 1)
    with cloud.store.read() as db:
        assert validated.load(db, raw) is None


def test_a_revocation_by_another_thread_is_seen_by_the_next_request(client):
    token = client.token()
    assert client.get(GLANCE, token=token).status == 200
    assert client.get(GLANCE, token=token).status == 200  # from this thread's memo
    answers = []

    def revoke():
        answers.append(
            client.delete("/v3/auth/tokens", token=token, headers={"X-Subject-Token": token})
        )

    other = threading.Thread(target=revoke)
    other.start()
    other.join(timeout=30)
    assert [a.status for a in answers] == [204]
    assert client.get(GLANCE, token=token).status == 401


def test_a_role_removed_in_another_thread_refuses_the_token(cloud, client):
    token = client.token()
    assert client.get(GLANCE, token=token).status == 200

    removed = []

    def unassign():
        with cloud.store.transaction() as db:
            removed.append(
                db.execute(
                    "DELETE FROM role_assignments"
                    " WHERE user_id = (SELECT id FROM users WHERE name = ?)",
                    ("demo",),
                ).rowcount
            )

    other = threading.Thread(target=unassign)
    other.start()
    other.join(timeout=30)
    assert removed and removed[0] > 0
    assert client.get(GLANCE, token=token).status == 401
