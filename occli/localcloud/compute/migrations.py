"""Compute's tables, one store component per part (``compute.<part>``).

The component names are those of the modules that owned the tables before
the API/rules split, so existing data directories keep their versions.
Append steps, never edit a released one.
"""

from occli.localcloud.compute import hosts

FLAVORS = [
    """
    CREATE TABLE compute_flavors (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        memory_mb INTEGER NOT NULL,
        vcpus INTEGER NOT NULL,
        root_gb INTEGER NOT NULL,
        ephemeral_gb INTEGER NOT NULL DEFAULT 0,
        swap INTEGER NOT NULL DEFAULT 0,
        rxtx_factor REAL NOT NULL DEFAULT 1.0,
        is_public INTEGER NOT NULL DEFAULT 1,
        disabled INTEGER NOT NULL DEFAULT 0,
        description TEXT,
        extra_specs TEXT NOT NULL DEFAULT '{}'
    );
""",
    """
    -- flavor-manage and os-flavor-access (issue 12): nova's internal id
    -- (seq: creation order, named by flavor-access messages; set for rows
    -- inserted without one) and the projects given a private flavor
    ALTER TABLE compute_flavors ADD COLUMN seq INTEGER;
    UPDATE compute_flavors SET seq = rowid;
    CREATE TRIGGER compute_flavors_seq AFTER INSERT ON compute_flavors
    WHEN NEW.seq IS NULL BEGIN
        UPDATE compute_flavors SET seq = (
            SELECT COALESCE(MAX(seq), 0) + 1 FROM compute_flavors)
        WHERE id = NEW.id;
    END;
    CREATE TABLE compute_flavor_projects (
        flavor_id TEXT NOT NULL,
        project_id TEXT NOT NULL,
        PRIMARY KEY (flavor_id, project_id)
    );
""",
]

# The node size seeded before the scheduler existed (grown by step 2).
_OLD_NODE_SIZE = (16, 32768, 500)

HOSTS = [
    """
    CREATE TABLE compute_services (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        uuid TEXT NOT NULL UNIQUE,
        binary TEXT NOT NULL,
        host TEXT NOT NULL,
        disabled INTEGER NOT NULL DEFAULT 0,
        disabled_reason TEXT,
        forced_down INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        UNIQUE (binary, host)
    );
    CREATE TABLE compute_nodes (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        uuid TEXT NOT NULL UNIQUE,
        host TEXT NOT NULL UNIQUE,
        hypervisor_hostname TEXT NOT NULL,
        host_ip TEXT NOT NULL,
        vcpus INTEGER NOT NULL,
        memory_mb INTEGER NOT NULL,
        local_gb INTEGER NOT NULL,
        created_at TEXT NOT NULL
    );
    """,
    # the nodes became the scheduler's inventory: grow the old default size
    "UPDATE compute_nodes SET vcpus = %d, memory_mb = %d, local_gb = %d"
    " WHERE vcpus = %d AND memory_mb = %d AND local_gb = %d"
    % ((hosts.NODE_VCPUS, hosts.NODE_MEMORY_MB, hosts.NODE_LOCAL_GB) + _OLD_NODE_SIZE),
]

KEYPAIRS = [
    """
    CREATE TABLE compute_keypairs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        user_id TEXT NOT NULL,
        name TEXT NOT NULL,
        type TEXT NOT NULL DEFAULT 'ssh',
        public_key TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        created_at TEXT NOT NULL,
        UNIQUE (user_id, name)
    );
"""
]

SERVERS = [
    """
    CREATE TABLE servers (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        project_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        name TEXT NOT NULL,
        description TEXT,
        hostname TEXT NOT NULL,
        host TEXT,
        node TEXT,
        availability_zone TEXT,
        pinned_availability_zone TEXT,
        flavor TEXT NOT NULL,
        old_flavor TEXT,
        image_ref TEXT NOT NULL DEFAULT '',
        key_name TEXT,
        key_data TEXT,
        user_data TEXT,
        config_drive TEXT NOT NULL DEFAULT '',
        access_ipv4 TEXT,
        access_ipv6 TEXT,
        auto_disk_config INTEGER NOT NULL DEFAULT 1,
        metadata TEXT NOT NULL DEFAULT '{}',
        tags TEXT NOT NULL DEFAULT '[]',
        security_groups TEXT NOT NULL DEFAULT '[]',
        volumes TEXT NOT NULL DEFAULT '[]',
        ports TEXT NOT NULL DEFAULT '[]',
        scheduler_hints TEXT NOT NULL DEFAULT '{}',
        trusted_certs TEXT,
        vm_state TEXT NOT NULL,
        task_state TEXT,
        power_state INTEGER NOT NULL DEFAULT 0,
        progress INTEGER NOT NULL DEFAULT 0,
        locked_by TEXT,
        locked_reason TEXT,
        reservation_id TEXT NOT NULL,
        launch_index INTEGER NOT NULL DEFAULT 0,
        root_device_name TEXT,
        fault TEXT,
        pending TEXT,
        task_started_at REAL,
        launched_at TEXT,
        terminated_at TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        deleted_at TEXT,
        deleted INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX servers_project ON servers (project_id, deleted);
    CREATE INDEX servers_host ON servers (host, deleted);
""",
    # a list page (servers.Listing): the few servers with a pending
    # operation found without reading every row, the others walked in the
    # default order (newest first) rather than sorted on every page
    """
    CREATE INDEX servers_pending ON servers (project_id, deleted, pending)
        WHERE pending IS NOT NULL;
    CREATE INDEX servers_created ON servers (project_id, deleted, created_at, seq);
""",
]

AGGREGATES = [
    """
    CREATE TABLE compute_aggregates (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        uuid TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        updated_at TEXT
    );
    CREATE TABLE compute_aggregate_hosts (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        aggregate_id INTEGER NOT NULL
            REFERENCES compute_aggregates (id) ON DELETE CASCADE,
        host TEXT NOT NULL,
        UNIQUE (aggregate_id, host)
    );
    CREATE TABLE compute_aggregate_metadata (
        aggregate_id INTEGER NOT NULL
            REFERENCES compute_aggregates (id) ON DELETE CASCADE,
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (aggregate_id, key)
    );
    CREATE INDEX compute_aggregate_hosts_host
        ON compute_aggregate_hosts (host);
"""
]

# limits set through os-quota-sets (per project and per user) and
# os-quota-class-sets
QUOTAS = [
    """
    CREATE TABLE compute_quotas (
        project_id TEXT NOT NULL,
        resource TEXT NOT NULL,
        hard_limit INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT,
        PRIMARY KEY (project_id, resource)
    );
    CREATE TABLE compute_quota_classes (
        class_name TEXT NOT NULL,
        resource TEXT NOT NULL,
        hard_limit INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT,
        PRIMARY KEY (class_name, resource)
    );
""",
    """
    -- per-user limits (issue 23): nova's project_user_quotas
    CREATE TABLE compute_user_quotas (
        project_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        resource TEXT NOT NULL,
        hard_limit INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT,
        PRIMARY KEY (project_id, user_id, resource)
    );
""",
]

# nova's migration records (resize, cold and live migration, evacuation):
# see migration_records.py
MOVES = [
    """
    CREATE TABLE compute_migrations (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        uuid TEXT NOT NULL UNIQUE,
        instance_uuid TEXT NOT NULL,
        project_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        source_compute TEXT,
        source_node TEXT,
        dest_compute TEXT,
        dest_node TEXT,
        dest_host TEXT,
        old_instance_type_id INTEGER,
        new_instance_type_id INTEGER,
        old_flavor TEXT NOT NULL,
        new_flavor TEXT NOT NULL,
        migration_type TEXT NOT NULL,
        status TEXT NOT NULL,
        plan TEXT,
        started_at REAL NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT
    );
    CREATE INDEX compute_migrations_instance ON compute_migrations (instance_uuid);
"""
]

# server groups (server_groups.py) and their members (server uuids)
SERVER_GROUPS = [
    """
    CREATE TABLE compute_server_groups (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        uuid TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        project_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        policy TEXT NOT NULL,
        rules TEXT NOT NULL DEFAULT '{}',
        created_at TEXT NOT NULL
    );
    CREATE INDEX compute_server_groups_project ON compute_server_groups (project_id);
    CREATE TABLE compute_server_group_members (
        group_id INTEGER NOT NULL,
        server_id TEXT NOT NULL,
        PRIMARY KEY (group_id, server_id)
    );
    CREATE INDEX compute_server_group_members_server
        ON compute_server_group_members (server_id);
"""
]

# nova's instance actions and their events: see instance_actions.py
INSTANCE_ACTIONS = [
    """
    CREATE TABLE compute_instance_actions (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        instance_uuid TEXT NOT NULL,
        request_id TEXT NOT NULL,
        action TEXT NOT NULL,
        user_id TEXT,
        project_id TEXT,
        message TEXT,
        start_at REAL NOT NULL
    );
    CREATE INDEX compute_instance_actions_instance
        ON compute_instance_actions (instance_uuid, start_at);
    CREATE TABLE compute_instance_action_events (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        action_id INTEGER NOT NULL,
        event TEXT NOT NULL,
        start_at REAL NOT NULL,
        finish_at REAL,
        result TEXT,
        traceback TEXT,
        details TEXT,
        host TEXT
    );
    CREATE INDEX compute_instance_action_events_action
        ON compute_instance_action_events (action_id);
"""
]

# the image a shelved image-backed server was snapshot to: see shelve.py
SHELVE = [
    """
    CREATE TABLE compute_shelved_images (
        server_id TEXT PRIMARY KEY,
        image_id TEXT NOT NULL
    );
"""
]

# the roles of the request that built a server (nova's ``boot_roles``
# system metadata, copied onto its snapshots): see snapshots.py
BOOT_ROLES = [
    """
    CREATE TABLE compute_boot_roles (
        server_id TEXT PRIMARY KEY,
        roles TEXT NOT NULL
    );
"""
]

# (store component, steps), applied in this order by the cloud
COMPONENTS = (
    ("compute.flavors", FLAVORS),
    ("compute.hosts", HOSTS),
    ("compute.keypairs", KEYPAIRS),
    ("compute.servers", SERVERS),
    ("compute.aggregates", AGGREGATES),
    ("compute.quotas", QUOTAS),
    ("compute.instance_actions", INSTANCE_ACTIONS),
    ("compute.shelve", SHELVE),
    ("compute.server_groups", SERVER_GROUPS),
    ("compute.moves", MOVES),
    ("compute.boot_roles", BOOT_ROLES),
)
