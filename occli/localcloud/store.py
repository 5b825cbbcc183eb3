"""SQLite storage for the local cloud: WAL mode, read and write transactions.

A request runs in a *read* transaction (a deferred ``BEGIN`` on a per-thread
connection that is ``query_only``: it sees one snapshot and never takes the
write lock, so readers never queue behind writers or each other) or in a
*write* transaction (``BEGIN IMMEDIATE`` on another per-thread connection:
one writer at a time).

Each service module registers its own schema as a list of migrations under a
component name; the store records the version applied per component in
``schema_versions`` and applies only the missing steps, so data survives
restarts and upgrades.
"""

import collections
import contextlib
import os
import sqlite3
import threading

# Reads map the database file (shared with the OS page cache and every
# connection) instead of copying its pages into each connection's 2 MB page
# cache: a 10,000-server list page scans ~10 MB, so each read re-read most
# of it. An address-space bound, not memory used.
MMAP_SIZE = 256 * 1024 * 1024
# A write of at least this many rows committed while the same thread reads
# (a GET persisting the progress of many servers) is checkpointed when the
# read ends; see Store.transaction.
CHECKPOINT_ROWS = 256
# seconds a writer waits for the write lock before "database is locked"
# (the connections' busy_timeout)
BUSY_TIMEOUT = 30


class MigrationError(Exception):
    """The database was written by a newer version of the local cloud."""


class TurnLock:
    """A lock its waiters get in the order they asked (FIFO).

    ``threading.Lock`` lets the thread that releases it take it again
    before a waiting thread wakes, so a writer making many short
    transactions in a row (a 200-server boot's chunks) got it back
    chunk after chunk while another tenant's write waited (issue 19).
    Here a release hands the lock to the longest waiter: each writer waits
    at most for those that asked before it.
    """

    def __init__(self) -> None:
        self._mutex = threading.Lock()
        self._held = False
        self._waiters: collections.deque[threading.Lock] = collections.deque()

    def acquire(self, timeout: float) -> bool:
        """Take the lock, waiting at most ``timeout`` seconds; whether it
        was taken."""
        with self._mutex:
            if not self._held:
                self._held = True
                return True
            turn = threading.Lock()
            turn.acquire()
            self._waiters.append(turn)
        if turn.acquire(timeout=timeout):
            return True
        with self._mutex:
            if turn in self._waiters:
                self._waiters.remove(turn)
                return False
        return True  # handed over just as the wait timed out

    def waiting(self) -> int:
        """How many threads wait for the lock (diagnostics, tests)."""
        with self._mutex:
            return len(self._waiters)

    def release(self) -> None:
        """Hand the lock to the longest waiter, or free it."""
        with self._mutex:
            if self._waiters:
                self._waiters.popleft().release()
            else:
                self._held = False


class Store:
    """A SQLite database shared by the threads of the local cloud.

    Each thread gets its own write connection and its own read connection
    (``PRAGMA query_only``), opened on first use and kept for the thread's
    life (the server's worker threads reuse theirs for every request; a
    read never opens the write connection); every connection is tracked
    so :meth:`close` can release them all. Connections memory-map the
    database (``MMAP_SIZE``). ``durable=False``: commits and checkpoints
    never fsync (a crash of the machine may lose or corrupt the database).
    """

    def __init__(self, path, durable=True):
        self.path = str(path)
        # False: SQLite's synchronous=OFF, no fsync ever (a throwaway
        # database: an occli.testing cloud's, removed at its stop)
        self.durable = durable
        # created 0600: SQLite gives -wal and -shm the database file's mode
        os.close(os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600))
        self._local = threading.local()
        self._all = []
        self._all_lock = threading.Lock()
        # this process's writers queue here in turn, not in SQLite's busy
        # handler (see transaction)
        self._writer = TurnLock()
        conn = self._conn()
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_versions ("
            " component TEXT PRIMARY KEY, version INTEGER NOT NULL)"
        )

    def _connect(self):
        conn = sqlite3.connect(
            self.path, timeout=BUSY_TIMEOUT, isolation_level=None, check_same_thread=False
        )
        conn.row_factory = sqlite3.Row
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute("PRAGMA busy_timeout=%d" % (BUSY_TIMEOUT * 1000))
        conn.execute("PRAGMA synchronous=%s" % ("NORMAL" if self.durable else "OFF"))
        conn.execute("PRAGMA mmap_size=%d" % MMAP_SIZE)
        return conn

    def _conn(self, kind="write"):
        conn = getattr(self._local, kind, None)
        if conn is None:
            conn = self._connect()
            if kind == "read":
                conn.execute("PRAGMA query_only=ON")
            setattr(self._local, kind, conn)
            with self._all_lock:
                self._all.append(conn)
        return conn

    def writing(self):
        """Whether this thread is inside a write transaction."""
        conn = getattr(self._local, "write", None)
        return conn is not None and conn.in_transaction

    @contextlib.contextmanager
    def read(self):
        """Yield a read-only connection inside a deferred ``BEGIN``.

        The transaction sees one snapshot of the database and never holds
        the write lock; writing through it raises ``sqlite3.OperationalError``
        (attempt to write a readonly database). Inside a write transaction
        it joins that one (to see its own changes); nested reads join.
        """
        if self.writing():
            yield self._conn()
            return
        conn = self._conn("read")
        if conn.in_transaction:
            yield conn
            return
        conn.execute("BEGIN")
        try:
            yield conn
        finally:
            if conn.in_transaction:
                conn.execute("COMMIT")
            if getattr(self._local, "checkpoint", False):
                self._local.checkpoint = False
                self._checkpoint()

    @contextlib.contextmanager
    def transaction(self):
        """Yield a connection inside ``BEGIN IMMEDIATE``; commit or roll back.

        Nested use joins the outer transaction. Inside a read transaction
        it opens a separate, short write (the read keeps its snapshot).

        SQLite checkpoints the WAL when a commit leaves it over 1000 pages,
        but never past the snapshot of a reader still open: this thread's
        own read, for a write made inside it. After such a write of
        ``CHECKPOINT_ROWS`` rows or more the read checkpoints when it ends;
        else every later read would fetch those pages from the WAL (a
        syscall each: 2.6 ms of a server list after creating 10,000) until
        some later write checkpoints.

        The threads of this process take turns through a lock of the store
        (:class:`TurnLock`, first come first served) before ``BEGIN
        IMMEDIATE``: a writer waiting in SQLite's busy handler sleeps in
        growing steps (up to 100 ms) and loses the lock to any writer that
        asks between two of its polls, so a tenant writing in quick
        successive transactions (a 200-server boot) starved the others'
        writes for seconds (issue 19). Other processes (``serve
        --workers``) still meet in the busy handler; a writer waiting longer
        than ``BUSY_TIMEOUT`` gets SQLite's error, as from the busy handler.
        """
        conn = self._conn()
        if conn.in_transaction:
            yield conn
            return
        reader = getattr(self._local, "read", None)
        changes = conn.total_changes
        if not self._writer.acquire(timeout=BUSY_TIMEOUT):
            raise sqlite3.OperationalError("database is locked")
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
        finally:
            self._writer.release()
        if (
            reader is not None
            and reader.in_transaction
            and conn.total_changes - changes >= CHECKPOINT_ROWS
        ):
            self._local.checkpoint = True

    def _checkpoint(self):
        """Copy the WAL into the database as far as readers allow (never
        waits for them: a busy checkpoint is left to later commits)."""
        try:
            self._conn().execute("PRAGMA wal_checkpoint(PASSIVE)")
        except sqlite3.OperationalError:
            pass  # e.g. another connection is checkpointing

    def migrate(self, component, migrations):
        """Apply the migrations of ``component`` not applied yet.

        ``migrations`` is a list of SQL scripts (or callables taking the
        connection); their index + 1 is their version. Never reorder or edit
        a released step: append a new one.
        """
        with self.transaction() as conn:
            row = conn.execute(
                "SELECT version FROM schema_versions WHERE component = ?", (component,)
            ).fetchone()
            current = row["version"] if row else 0
            if current > len(migrations):
                raise MigrationError(
                    "%s schema is at version %d but this code knows only %d"
                    " migrations; the data directory was written by a newer"
                    " occli" % (component, current, len(migrations))
                )
            for version, step in enumerate(migrations, start=1):
                if version <= current:
                    continue
                if callable(step):
                    step(conn)
                else:
                    for statement in _split_sql(step):
                        conn.execute(statement)
                conn.execute(
                    "INSERT INTO schema_versions (component, version)"
                    " VALUES (?, ?) ON CONFLICT(component)"
                    " DO UPDATE SET version = excluded.version",
                    (component, version),
                )

    def version(self, component):
        """The migration version applied for ``component`` (0 if none)."""
        row = (
            self._conn()
            .execute("SELECT version FROM schema_versions WHERE component = ?", (component,))
            .fetchone()
        )
        return row["version"] if row else 0

    def versions(self):
        """Every component's applied migration version, one query."""
        rows = self._conn().execute("SELECT component, version FROM schema_versions")
        return {row["component"]: row["version"] for row in rows}

    def close(self):
        """Close every connection opened by any thread."""
        with self._all_lock:
            conns, self._all = self._all, []
        for conn in conns:
            conn.close()
        self._local = threading.local()


def _split_sql(script):
    """Split a script into complete statements (``;`` inside strings or
    trigger bodies does not split)."""
    statements, current = [], ""
    for piece in script.split(";"):
        current += piece + ";"
        if sqlite3.complete_statement(current):
            if current.strip(" \t\n;"):
                statements.append(current.strip())
            current = ""
    if current.strip(" \t\n;"):
        statements.append(current.strip())
    return statements
