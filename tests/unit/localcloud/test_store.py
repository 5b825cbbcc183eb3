"""Store: WAL, versioned migrations, transactions, restarts, concurrency."""

import sqlite3
import threading

import pytest

from occli.localcloud import store as store_module
from occli.localcloud.store import MigrationError
from occli.localcloud.store import Store
from occli.localcloud.store import _split_sql

SCHEMA = ["CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL)"]


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "cloud.db")
    yield s
    s.close()


def test_wal_mode(store):
    mode = store._conn().execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


def test_migrations_are_versioned_and_idempotent(store):
    store.migrate("things", SCHEMA)
    store.migrate("things", SCHEMA)
    assert store.version("things") == 1
    with store.transaction() as db:
        db.execute("INSERT INTO items (name) VALUES ('a')")
    store.migrate("things", SCHEMA + ["ALTER TABLE items ADD COLUMN size INTEGER"])
    assert store.version("things") == 2
    with store.transaction() as db:
        rows = db.execute("SELECT name, size FROM items").fetchall()
    assert [tuple(r) for r in rows] == [("a", None)]
    assert store.version("other") == 0


def test_migration_steps_may_be_callables(store):
    store.migrate(
        "things", SCHEMA + [lambda db: db.execute("INSERT INTO items (name) VALUES ('seeded')")]
    )
    with store.transaction() as db:
        assert db.execute("SELECT name FROM items").fetchone()["name"] == "seeded"


def test_failed_migration_applies_nothing(store):
    with pytest.raises(sqlite3.OperationalError):
        store.migrate("things", SCHEMA + ["CREATE TABLE broken (syntax error"])
    assert store.version("things") == 0
    with store.transaction() as db:
        tables = db.execute("SELECT name FROM sqlite_master WHERE name = 'items'")
        assert tables.fetchall() == []


def test_database_from_newer_code_is_refused(store):
    store.migrate("things", SCHEMA + ["ALTER TABLE items ADD COLUMN size INTEGER"])
    with pytest.raises(MigrationError, match="version 2"):
        store.migrate("things", SCHEMA)


def test_split_sql_keeps_triggers_and_strings_whole():
    script = (
        "CREATE TABLE a (x TEXT); CREATE TRIGGER t AFTER INSERT ON a"
        " BEGIN UPDATE a SET x = 'p;q'; END; INSERT INTO a VALUES (';');"
    )
    assert _split_sql(script) == [
        "CREATE TABLE a (x TEXT);",
        "CREATE TRIGGER t AFTER INSERT ON a BEGIN UPDATE a SET x = 'p;q'; END;",
        "INSERT INTO a VALUES (';');",
    ]


def test_rollback_on_error_leaves_nothing(store):
    store.migrate("things", SCHEMA)
    with pytest.raises(RuntimeError), store.transaction() as db:
        db.execute("INSERT INTO items (name) VALUES ('a')")
        with store.transaction() as inner:
            inner.execute("INSERT INTO items (name) VALUES ('b')")
        raise RuntimeError("boom")
    with store.transaction() as db:
        assert db.execute("SELECT COUNT(*) FROM items").fetchone()[0] == 0


def test_nested_transaction_joins_outer(store):
    store.migrate("things", SCHEMA)
    with store.transaction() as outer:
        with store.transaction() as inner:
            assert inner is outer
            inner.execute("INSERT INTO items (name) VALUES ('a')")
        assert outer.in_transaction
    with store.transaction() as db:
        assert db.execute("SELECT COUNT(*) FROM items").fetchone()[0] == 1


def test_restart_keeps_data(tmp_path):
    first = Store(tmp_path / "cloud.db")
    first.migrate("things", SCHEMA)
    with first.transaction() as db:
        db.execute("INSERT INTO items (name) VALUES ('kept')")
    first.close()
    second = Store(tmp_path / "cloud.db")
    second.migrate("things", SCHEMA)
    with second.transaction() as db:
        assert [r["name"] for r in db.execute("SELECT name FROM items")] == ["kept"]
    assert second.version("things") == 1
    second.close()


def test_concurrent_transactions_lose_nothing(store):
    store.migrate(
        "things",
        SCHEMA
        + [
            "CREATE TABLE counter (id INTEGER PRIMARY KEY, n INTEGER NOT NULL);"
            " INSERT INTO counter VALUES (1, 0)"
        ],
    )
    errors = []

    def worker(t):
        try:
            for i in range(50):
                with store.transaction() as db:
                    n = db.execute("SELECT n FROM counter").fetchone()["n"]
                    db.execute("INSERT INTO items (name) VALUES (?)", ("%d-%d" % (t, i),))
                    db.execute("UPDATE counter SET n = ?", (n + 1,))
        except Exception as exc:  # noqa: BLE001 - reported by the test
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    with store.transaction() as db:
        assert db.execute("SELECT COUNT(DISTINCT name) FROM items").fetchone()[0] == 400
        assert db.execute("SELECT n FROM counter").fetchone()["n"] == 400


def test_read_is_a_query_only_snapshot(store):
    store.migrate("things", SCHEMA)
    with store.read() as db:
        assert db.execute("SELECT COUNT(*) FROM items").fetchone()[0] == 0
        with store.transaction() as writer:
            assert writer is not db
            writer.execute("INSERT INTO items (name) VALUES ('a')")
        # the write committed; the read keeps the snapshot it started with
        assert db.execute("SELECT COUNT(*) FROM items").fetchone()[0] == 0
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            db.execute("INSERT INTO items (name) VALUES ('b')")
    with store.read() as db:
        assert db.execute("SELECT COUNT(*) FROM items").fetchone()[0] == 1


def test_read_inside_a_write_joins_it(store):
    store.migrate("things", SCHEMA)
    with store.transaction() as writer:
        writer.execute("INSERT INTO items (name) VALUES ('a')")
        with store.read() as db:
            assert db is writer
            assert db.execute("SELECT COUNT(*) FROM items").fetchone()[0] == 1
    with store.read() as outer, store.read() as inner:
        assert inner is outer


def test_readers_do_not_wait_for_the_writer(store):
    store.migrate("things", SCHEMA)
    locked, release = threading.Event(), threading.Event()

    def writer():
        with store.transaction() as db:
            db.execute("INSERT INTO items (name) VALUES ('pending')")
            locked.set()
            release.wait(30)

    holder = threading.Thread(target=writer)
    holder.start()
    assert locked.wait(10)
    seen = []
    reader = threading.Thread(target=lambda: seen.append(_read_count(store)))
    reader.start()
    reader.join(20)
    finished = not reader.is_alive()
    release.set()
    holder.join()
    reader.join()
    assert finished, "a read waited for the write lock"
    assert seen == [0]


def test_a_thread_reuses_its_connections(store):
    store.migrate("things", SCHEMA)
    with store.read() as first:
        pass
    with store.read() as second:
        assert second is first
    with store.transaction() as w1:
        pass
    with store.transaction() as w2:
        assert w2 is w1 and w2 is not first
    seen = []

    def reader():
        for _ in range(3):
            with store.read() as db:
                seen.append(db)
        # reading never opened this thread's write connection
        seen.append(getattr(store._local, "write", None))

    thread = threading.Thread(target=reader)
    thread.start()
    thread.join()
    assert seen[0] is seen[1] is seen[2] and seen[0] is not first
    assert seen[3] is None
    assert len(store._all) == 3


def test_connections_map_the_database(store):
    with store.read() as db:
        mapped = db.execute("PRAGMA mmap_size").fetchone()[0]
    # 0 only where SQLite was built without memory-mapped I/O
    assert mapped in (0, store_module.MMAP_SIZE)


def _in_database_file(store, tmp_path):
    """Rows of ``items`` in the database file alone (without its WAL)."""
    import shutil

    copy = tmp_path / "alone.db"
    shutil.copyfile(store.path, copy)
    conn = sqlite3.connect(copy)
    try:
        return conn.execute("SELECT COUNT(*) FROM items").fetchone()[0]
    finally:
        conn.close()


@pytest.mark.parametrize("rows,copied", [(store_module.CHECKPOINT_ROWS, True), (3, False)])
def test_a_big_write_inside_a_read_is_checkpointed_when_it_ends(store, tmp_path, rows, copied):
    store.migrate("things", SCHEMA)
    statements = []
    store._conn().execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the table
    with store.transaction() as db:
        db.execute("PRAGMA wal_autocheckpoint=0")  # only what the store does
        db.set_trace_callback(statements.append)
    with store.read() as db:
        assert db.execute("SELECT COUNT(*) FROM items").fetchone()[0] == 0
        with store.transaction() as writer:
            writer.executemany(
                "INSERT INTO items (name) VALUES (?)", [("r%d" % i,) for i in range(rows)]
            )
        # the read's snapshot still pins the WAL
        assert not any("wal_checkpoint" in s for s in statements)
        assert db.execute("SELECT COUNT(*) FROM items").fetchone()[0] == 0
    assert any("wal_checkpoint" in s for s in statements) == copied
    assert _in_database_file(store, tmp_path) == (rows if copied else 0)
    # a write outside any read is left to SQLite's own checkpoints
    del statements[:]
    with store.transaction() as writer:
        writer.executemany(
            "INSERT INTO items (name) VALUES (?)", [("w%d" % i,) for i in range(300)]
        )
    with store.read():
        pass
    assert not any("wal_checkpoint" in s for s in statements)


def _read_count(store):
    with store.read() as db:
        return db.execute("SELECT COUNT(*) FROM items").fetchone()[0]
