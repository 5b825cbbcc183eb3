"""The object-store tables, applied under the store component
``objectstore`` (append steps, never edit a released one).

Step 2 moves object bytes out of the database (``swift_objects.body``
BLOBs) into files (:mod:`.files`) and rebuilds the table without that
column: it needs the cloud's files, so :func:`components` builds the
``(component, steps)`` pairs (every service's migrations shape) for them.
Step 3 adds the accounts' system metadata (their quotas), step 4 the
containers' ACLs (``X-Container-Read``/``-Write``), step 5 the objects'
``X-Delete-At``, step 6 their system metadata (a static large object's
etag and size, a dynamic one's ``X-Object-Manifest``).
"""

from occli.localcloud import files as files_

# Step 1: the tables, object bytes in BLOBs
TABLES = """
    CREATE TABLE swift_accounts (
        account TEXT PRIMARY KEY,
        metadata TEXT NOT NULL DEFAULT '{}',
        created_at REAL NOT NULL);
    CREATE TABLE swift_containers (
        account TEXT NOT NULL,
        name TEXT NOT NULL,
        metadata TEXT NOT NULL DEFAULT '{}',
        created_at REAL NOT NULL,
        PRIMARY KEY (account, name));
    CREATE TABLE swift_objects (
        account TEXT NOT NULL,
        container TEXT NOT NULL,
        name TEXT NOT NULL,
        body BLOB NOT NULL,
        size INTEGER NOT NULL,
        etag TEXT NOT NULL,
        content_type TEXT NOT NULL,
        metadata TEXT NOT NULL DEFAULT '{}',
        timestamp REAL NOT NULL,
        PRIMARY KEY (account, container, name),
        FOREIGN KEY (account, container)
            REFERENCES swift_containers (account, name))
"""

_OBJECTS_WITH_FILES = """
    CREATE TABLE swift_objects_v2 (
        account TEXT NOT NULL,
        container TEXT NOT NULL,
        name TEXT NOT NULL,
        file TEXT NOT NULL,
        size INTEGER NOT NULL,
        etag TEXT NOT NULL,
        content_type TEXT NOT NULL,
        metadata TEXT NOT NULL DEFAULT '{}',
        timestamp REAL NOT NULL,
        PRIMARY KEY (account, container, name),
        FOREIGN KEY (account, container)
            REFERENCES swift_containers (account, name))
"""


def move_bodies_to_files(files):
    """Step 2: each object's BLOB written to a file of ``files`` (one row
    in memory at a time), then ``swift_objects`` rebuilt with a ``file``
    column instead of ``body``."""

    def step(db):
        db.execute(_OBJECTS_WITH_FILES)
        for (rowid,) in db.execute("SELECT rowid FROM swift_objects").fetchall():
            row = db.execute("SELECT * FROM swift_objects WHERE rowid = ?", (rowid,)).fetchone()
            body = bytes(row["body"])
            stored = files.store(
                body[i : i + files_.CHUNK] for i in range(0, len(body), files_.CHUNK)
            )
            db.execute(
                "INSERT INTO swift_objects_v2 (account, container, name, file,"
                " size, etag, content_type, metadata, timestamp)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    row["account"],
                    row["container"],
                    row["name"],
                    stored.name,
                    stored.size,
                    row["etag"],
                    row["content_type"],
                    row["metadata"],
                    row["timestamp"],
                ),
            )
        db.execute("DROP TABLE swift_objects")
        db.execute("ALTER TABLE swift_objects_v2 RENAME TO swift_objects")

    return step


# Step 3: the accounts' system metadata (account_quotas' quota-bytes and
# quota-count), which only the reseller admin sets
_ACCOUNT_SYSMETA = "ALTER TABLE swift_accounts ADD COLUMN sysmeta TEXT NOT NULL DEFAULT '{}'"

# Step 4: the containers' ACLs, {"read"|"write": Swift's ACL string}
_CONTAINER_ACLS = "ALTER TABLE swift_containers ADD COLUMN acl TEXT NOT NULL DEFAULT '{}'"


# Step 5: the objects' X-Delete-At (Unix seconds, NULL: never), indexed
# for the expirer's sweep
_OBJECT_DELETE_AT = """
    ALTER TABLE swift_objects ADD COLUMN delete_at INTEGER;
    CREATE INDEX swift_objects_delete_at ON swift_objects (delete_at)
        WHERE delete_at IS NOT NULL
"""

# Step 6: the objects' system metadata, {"slo_etag", "slo_size"} of a static
# large object's manifest, {"manifest": "<container>/<prefix>"} of a dynamic
# one's (Swift's X-Object-Sysmeta-Slo-*, X-Object-Manifest): an object POST
# keeps it
_OBJECT_SYSMETA = "ALTER TABLE swift_objects ADD COLUMN sysmeta TEXT NOT NULL DEFAULT '{}'"


def components(files: files_.Files) -> tuple[tuple[str, list], ...]:
    """``(store component, steps)`` for a cloud whose object files are
    ``files``: every step, in order."""
    steps = [
        TABLES,
        move_bodies_to_files(files),
        _ACCOUNT_SYSMETA,
        _CONTAINER_ACLS,
        _OBJECT_DELETE_AT,
        _OBJECT_SYSMETA,
    ]
    return (("objectstore", steps),)
