"""Glance's table (store component ``image``): append steps, never edit
released ones."""

IMAGE = [
    """
    CREATE TABLE images (
        id TEXT PRIMARY KEY,
        name TEXT,
        status TEXT NOT NULL,
        visibility TEXT NOT NULL DEFAULT 'private',
        owner TEXT,
        container_format TEXT,
        disk_format TEXT,
        size INTEGER,
        virtual_size INTEGER,
        checksum TEXT,
        os_hash_algo TEXT,
        os_hash_value TEXT,
        min_disk INTEGER NOT NULL DEFAULT 0,
        min_ram INTEGER NOT NULL DEFAULT 0,
        protected INTEGER NOT NULL DEFAULT 0,
        properties TEXT NOT NULL DEFAULT '{}',
        tags TEXT NOT NULL DEFAULT '[]',
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE INDEX images_created_at ON images (created_at, id);
    """,
    # snapshots and backups (issue 11): a queued image becomes active at
    # ready_at (a time stamp), lazily, as servers finish their operations
    "ALTER TABLE images ADD COLUMN ready_at REAL",
    # image writes (issue 20): the name of the image's data file (under
    # <data_dir>/images, see image.data) and Glance's os_hidden
    """
    ALTER TABLE images ADD COLUMN file TEXT;
    ALTER TABLE images ADD COLUMN os_hidden INTEGER NOT NULL DEFAULT 0;
    """,
]

# image members (issue 20): the projects a shared image is shared with,
# one row per (image, member) as Glance keeps one membership per pair
IMAGE_MEMBERS = [
    """
    CREATE TABLE image_members (
        image_id TEXT NOT NULL REFERENCES images (id) ON DELETE CASCADE,
        member TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'pending',
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (image_id, member)
    );
    CREATE INDEX image_members_member ON image_members (member, status);
    """,
]

# Glance's tasks (issue 20, glance/db/sqlalchemy/models.py ``Task`` and
# ``TaskInfo`` in one row; times as image.tasks writes them)
TASKS = [
    """
    CREATE TABLE tasks (
        id TEXT PRIMARY KEY,
        type TEXT NOT NULL,
        status TEXT NOT NULL,
        owner TEXT NOT NULL,
        expires_at TEXT,
        image_id TEXT,
        request_id TEXT,
        user_id TEXT,
        input TEXT NOT NULL DEFAULT 'null',
        result TEXT NOT NULL DEFAULT 'null',
        message TEXT NOT NULL DEFAULT '',
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE INDEX tasks_image_id ON tasks (image_id);
    """,
]

# Glance's metadata definitions (issue 20, glance/db/sqlalchemy/models_metadef.py;
# an item's namespace is its namespace's row id)
METADEFS = [
    """
    CREATE TABLE metadef_namespaces (
        id INTEGER PRIMARY KEY,
        namespace TEXT NOT NULL UNIQUE,
        display_name TEXT,
        description TEXT,
        visibility TEXT,
        protected INTEGER NOT NULL DEFAULT 0,
        owner TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE TABLE metadef_resource_types (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        protected INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE TABLE metadef_associations (
        namespace_id INTEGER NOT NULL,
        resource_type_id INTEGER NOT NULL,
        prefix TEXT,
        properties_target TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        UNIQUE (namespace_id, resource_type_id)
    );
    CREATE TABLE metadef_objects (
        id INTEGER PRIMARY KEY,
        namespace_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        description TEXT,
        required TEXT NOT NULL DEFAULT '[]',
        json_schema TEXT NOT NULL DEFAULT '{}',
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        UNIQUE (namespace_id, name)
    );
    CREATE TABLE metadef_properties (
        id INTEGER PRIMARY KEY,
        namespace_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        json_schema TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        UNIQUE (namespace_id, name)
    );
    CREATE TABLE metadef_tags (
        id INTEGER PRIMARY KEY,
        namespace_id INTEGER NOT NULL,
        name TEXT NOT NULL COLLATE NOCASE,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        UNIQUE (namespace_id, name)
    );
    """,
]

# (store component, steps), applied in this order by the cloud
COMPONENTS = (
    ("image", IMAGE),
    ("image.members", IMAGE_MEMBERS),
    ("image.tasks", TASKS),
    ("image.metadefs", METADEFS),
)
