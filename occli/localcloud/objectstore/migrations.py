"""The object-store tables, applied under the store component
``objectstore`` (append steps, never edit a released one)."""

MIGRATIONS = [
    """
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
]
