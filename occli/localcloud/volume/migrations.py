"""Cinder's tables, one store component per part (``volume.<part>``).

Append steps, never edit a released one.
"""

import json

from occli.localcloud import common

VOLUMES: list = [
    """
    CREATE TABLE volume_types (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        description TEXT,
        is_public INTEGER NOT NULL DEFAULT 1,
        extra_specs TEXT NOT NULL DEFAULT '{}'
    );
    CREATE TABLE volumes (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        project_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        name TEXT,
        description TEXT,
        size INTEGER NOT NULL,
        status TEXT NOT NULL,
        attach_status TEXT NOT NULL DEFAULT 'detached',
        availability_zone TEXT NOT NULL DEFAULT 'nova',
        bootable INTEGER NOT NULL DEFAULT 0,
        volume_type_id TEXT NOT NULL,
        snapshot_id TEXT,
        source_volid TEXT,
        image_id TEXT,
        image_metadata TEXT,
        metadata TEXT NOT NULL DEFAULT '{}',
        created_at TEXT NOT NULL,
        updated_at TEXT,
        -- the lazy transition (creating -> available): see compute.states
        pending TEXT,
        task_started_at REAL
    );
    CREATE INDEX volumes_project ON volumes (project_id, created_at);
    CREATE TABLE volume_snapshots (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        project_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        volume_id TEXT NOT NULL,
        name TEXT,
        description TEXT,
        size INTEGER NOT NULL,
        status TEXT NOT NULL,
        progress TEXT NOT NULL DEFAULT '0%',
        metadata TEXT NOT NULL DEFAULT '{}',
        created_at TEXT NOT NULL,
        updated_at TEXT,
        pending TEXT,
        task_started_at REAL
    );
    CREATE INDEX volume_snapshots_volume ON volume_snapshots (volume_id);
    CREATE TABLE volume_attachments (
        id TEXT PRIMARY KEY,
        volume_id TEXT NOT NULL,
        instance_uuid TEXT NOT NULL,
        mountpoint TEXT,
        attached_host TEXT,
        attach_mode TEXT NOT NULL DEFAULT 'rw',
        attach_status TEXT NOT NULL DEFAULT 'attached',
        attached_at TEXT NOT NULL
    );
    CREATE INDEX volume_attachments_volume ON volume_attachments (volume_id);
    CREATE INDEX volume_attachments_instance ON volume_attachments (instance_uuid);
    """,
]

QUOTAS = [
    """
    CREATE TABLE volume_quotas (
        project_id TEXT NOT NULL,
        resource TEXT NOT NULL,
        hard_limit INTEGER NOT NULL,
        PRIMARY KEY (project_id, resource)
    );
    """,
]

# the id the backfill gives the volume type of volumes it adopts
DEFAULT_TYPE_ID = "5fed9d7c-401d-46e2-8e80-f30c70cb7e1d"


def _adopt_fake_volumes(db):
    """Before Cinder existed here, ``servers.volumes`` listed opaque volume
    ids. Give each one (of a live server) a volume row, ``in-use`` with an
    attachment, so detach, delete_on_termination and the Cinder API see
    them; the server's list gains the device names."""
    if not db.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'servers'"
    ).fetchone():
        return
    now = common.iso_naive_micro(common.utcnow())
    rows = db.execute(
        "SELECT seq, id, project_id, user_id, host, volumes FROM servers"
        " WHERE deleted = 0 AND volumes != '[]'"
    ).fetchall()
    for seq, server_id, project_id, user_id, host, text in rows:
        items = json.loads(text)
        for index, item in enumerate(items):
            device = item.get("device") or "/dev/vd%s" % chr(ord("b") + index)
            item.setdefault("device", device)
            if db.execute("SELECT 1 FROM volumes WHERE id = ?", (item["id"],)).fetchone():
                continue
            db.execute(
                "INSERT INTO volumes (id, project_id, user_id, size, status, attach_status,"
                " volume_type_id, created_at, updated_at)"
                " VALUES (?, ?, ?, 1, 'in-use', 'attached', ?, ?, ?)",
                (item["id"], project_id, user_id, DEFAULT_TYPE_ID, now, now),
            )
            db.execute(
                "INSERT INTO volume_attachments (id, volume_id, instance_uuid, mountpoint,"
                " attached_host, attached_at) VALUES (?, ?, ?, ?, ?, ?)",
                (common.new_uuid(), item["id"], server_id, device, host, now),
            )
        db.execute("UPDATE servers SET volumes = ? WHERE seq = ?", (json.dumps(items), seq))


VOLUMES.append(_adopt_fake_volumes)

# cinder's transfers table: the auth key is kept as its salted hash only
TRANSFERS = [
    """
    CREATE TABLE volume_transfers (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        volume_id TEXT NOT NULL,
        display_name TEXT,
        salt TEXT NOT NULL,
        crypt_hash TEXT NOT NULL,
        no_snapshots INTEGER NOT NULL DEFAULT 0,
        source_project_id TEXT NOT NULL,
        destination_project_id TEXT,
        accepted INTEGER NOT NULL DEFAULT 0,
        deleted INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        updated_at TEXT
    );
    CREATE INDEX volume_transfers_volume ON volume_transfers (volume_id);
    """,
]

BACKUPS = [
    """
    CREATE TABLE volume_backups (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        project_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        volume_id TEXT NOT NULL,
        snapshot_id TEXT,
        parent_id TEXT,
        name TEXT,
        description TEXT,
        status TEXT NOT NULL,
        fail_reason TEXT,
        size INTEGER NOT NULL,
        object_count INTEGER NOT NULL DEFAULT 0,
        availability_zone TEXT,
        container TEXT,
        service_metadata TEXT,
        restore_volume_id TEXT,
        metadata TEXT NOT NULL DEFAULT '{}',
        data_timestamp TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT,
        pending TEXT,
        task_started_at REAL
    );
    CREATE INDEX volume_backups_project ON volume_backups (project_id, created_at);
    CREATE INDEX volume_backups_volume ON volume_backups (volume_id);
    CREATE INDEX volume_backups_parent ON volume_backups (parent_id);
    """,
]

# volume types beyond the seeded one: their times, QoS association and
# project access (private types)
TYPES = [
    """
    ALTER TABLE volume_types ADD COLUMN created_at TEXT;
    ALTER TABLE volume_types ADD COLUMN updated_at TEXT;
    ALTER TABLE volume_types ADD COLUMN qos_specs_id TEXT;
    UPDATE volume_types SET created_at = '2024-01-01T00:00:00.000000' WHERE created_at IS NULL;
    CREATE TABLE volume_type_projects (
        volume_type_id TEXT NOT NULL,
        project_id TEXT NOT NULL,
        PRIMARY KEY (volume_type_id, project_id)
    );
    """,
]

# QoS specs (the types' qos_specs_id is volume.types')
QOS = [
    """
    CREATE TABLE volume_qos_specs (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        consumer TEXT NOT NULL DEFAULT 'back-end',
        specs TEXT NOT NULL DEFAULT '{}',
        created_at TEXT NOT NULL,
        updated_at TEXT
    );
    """,
]
# the default type of a project (3.62's /default-types)
DEFAULT_TYPES = [
    """
    CREATE TABLE volume_default_types (
        project_id TEXT PRIMARY KEY,
        volume_type_id TEXT NOT NULL
    );
    """,
]

# the attachments API (3.27): a reservation has no instance or attach time
# yet; the connector and the connection info the driver built; a volume's
# admin metadata (``readonly``, os-update_readonly_flag)
ATTACHMENTS = [
    """
    CREATE TABLE volume_attachments_new (
        id TEXT PRIMARY KEY,
        volume_id TEXT NOT NULL,
        instance_uuid TEXT,
        mountpoint TEXT,
        attached_host TEXT,
        attach_mode TEXT NOT NULL DEFAULT 'rw',
        attach_status TEXT NOT NULL DEFAULT 'attached',
        attached_at TEXT,
        detached_at TEXT,
        connector TEXT,
        connection_info TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT
    );
    INSERT INTO volume_attachments_new (id, volume_id, instance_uuid, mountpoint,
        attached_host, attach_mode, attach_status, attached_at, created_at)
        SELECT id, volume_id, instance_uuid, mountpoint, attached_host, attach_mode,
        attach_status, attached_at, attached_at FROM volume_attachments;
    DROP TABLE volume_attachments;
    ALTER TABLE volume_attachments_new RENAME TO volume_attachments;
    CREATE INDEX volume_attachments_volume ON volume_attachments (volume_id);
    CREATE INDEX volume_attachments_instance ON volume_attachments (instance_uuid);
    ALTER TABLE volumes ADD COLUMN admin_metadata TEXT NOT NULL DEFAULT '{}';
    """,
]

# cinder's messages table: user messages about failed operations
MESSAGES = [
    """
    CREATE TABLE volume_messages (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        project_id TEXT NOT NULL,
        request_id TEXT,
        resource_type TEXT,
        resource_uuid TEXT,
        event_id TEXT NOT NULL,
        message_level TEXT NOT NULL,
        action_id TEXT,
        detail_id TEXT,
        created_at TEXT NOT NULL,
        expires_at TEXT
    );
    CREATE INDEX volume_messages_project ON volume_messages (project_id, created_at);
    """,
]

# what an admin set on a service (os-services, os-hosts) and the quota
# classes (os-quota-class-sets; the "default" class is the defaults)
SERVICES = [
    """
    CREATE TABLE volume_services (
        binary TEXT NOT NULL,
        host TEXT NOT NULL,
        disabled INTEGER NOT NULL DEFAULT 0,
        disabled_reason TEXT,
        frozen INTEGER NOT NULL DEFAULT 0,
        modified_at TEXT,
        PRIMARY KEY (binary, host)
    );
    CREATE TABLE volume_quota_classes (
        class_name TEXT NOT NULL,
        resource TEXT NOT NULL,
        hard_limit INTEGER NOT NULL,
        PRIMARY KEY (class_name, resource)
    );
    """,
]

# group types and their specs (3.11)
GROUPS: list = [
    """
    CREATE TABLE volume_group_types (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        description TEXT,
        is_public INTEGER NOT NULL DEFAULT 1,
        group_specs TEXT NOT NULL DEFAULT '{}',
        created_at TEXT NOT NULL
    );
    """,
]

# the id of the group type Cinder's migration makes for cgsnapshots
DEFAULT_CGSNAPSHOT_TYPE_ID = "5c7a9f39-3b4e-4c2d-9f86-1d0e6a2b8c44"


def _default_cgsnapshot_type(db):
    """Cinder's ``default_cgsnapshot_type`` group type (its migration makes
    it, for the consistency groups it migrated; recorded in
    tests/fixtures/volume/realcloud/cinder-29-groups.json)."""
    db.execute(
        "INSERT OR IGNORE INTO volume_group_types (id, name, description, is_public,"
        " group_specs, created_at) VALUES (?, ?, ?, 1, ?, ?)",
        (
            DEFAULT_CGSNAPSHOT_TYPE_ID,
            "default_cgsnapshot_type",
            "Default group type for migrating cgsnapshot",
            json.dumps({"consistent_group_snapshot_enabled": "<is> True"}),
            common.iso_naive_micro(common.utcnow()),
        ),
    )


GROUPS.append(_default_cgsnapshot_type)

# a volume's migration (os-migrate_volume): Cinder's migration_status and
# _name_id (the back-end volume's id when it is not the volume's own)
MIGRATION = [
    """
    ALTER TABLE volumes ADD COLUMN migration_status TEXT;
    ALTER TABLE volumes ADD COLUMN name_id TEXT;
    """,
]

# generic volume groups and group snapshots (3.13, 3.14): a volume's
# group_id, a snapshot's group_snapshot_id
VOLUME_GROUPS = [
    """
    CREATE TABLE volume_groups (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        project_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        name TEXT,
        description TEXT,
        status TEXT NOT NULL,
        availability_zone TEXT NOT NULL,
        group_type_id TEXT NOT NULL,
        volume_type_ids TEXT NOT NULL DEFAULT '[]',
        group_snapshot_id TEXT,
        source_group_id TEXT,
        replication_status TEXT NOT NULL DEFAULT 'disabled',
        created_at TEXT NOT NULL,
        updated_at TEXT
    );
    CREATE TABLE volume_group_snapshots (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        project_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        group_id TEXT NOT NULL,
        group_type_id TEXT NOT NULL,
        name TEXT,
        description TEXT,
        status TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT
    );
    ALTER TABLE volumes ADD COLUMN group_id TEXT;
    ALTER TABLE volume_snapshots ADD COLUMN group_snapshot_id TEXT;
    """,
]

# the log levels an admin set on a service's loggers (3.32 set-log)
LOG_LEVELS = [
    """
    CREATE TABLE volume_log_levels (
        binary TEXT NOT NULL,
        logger TEXT NOT NULL,
        level TEXT NOT NULL,
        PRIMARY KEY (binary, logger)
    );
    """,
]

COMPONENTS = (
    ("volume.volumes", VOLUMES),
    ("volume.quotas", QUOTAS),
    ("volume.transfers", TRANSFERS),
    ("volume.backups", BACKUPS),
    ("volume.types", TYPES),
    ("volume.qos", QOS),
    ("volume.default_types", DEFAULT_TYPES),
    ("volume.attachments", ATTACHMENTS),
    ("volume.messages", MESSAGES),
    ("volume.services", SERVICES),
    ("volume.groups", GROUPS),
    ("volume.migration", MIGRATION),
    ("volume.volume_groups", VOLUME_GROUPS),
    ("volume.log_levels", LOG_LEVELS),
)
