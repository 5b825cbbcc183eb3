"""The orchestration tables, applied under the store component
``orchestration`` (append steps, never edit a released one)."""

ORCHESTRATION = [
    """
    CREATE TABLE heat_software_configs (
        id TEXT PRIMARY KEY,
        project_id TEXT NOT NULL,
        name TEXT,
        grp TEXT,
        body TEXT NOT NULL,
        created_at REAL NOT NULL);
    CREATE INDEX heat_software_configs_project
        ON heat_software_configs (project_id, created_at);
    CREATE TABLE heat_software_deployments (
        id TEXT PRIMARY KEY,
        project_id TEXT NOT NULL,
        stack_user_project_id TEXT,
        server_id TEXT NOT NULL,
        config_id TEXT NOT NULL
            REFERENCES heat_software_configs (id),
        input_values TEXT,
        output_values TEXT,
        action TEXT,
        status TEXT,
        status_reason TEXT,
        created_at REAL NOT NULL,
        updated_at REAL);
    CREATE INDEX heat_software_deployments_server
        ON heat_software_deployments (server_id, created_at);
    CREATE INDEX heat_software_deployments_config
        ON heat_software_deployments (config_id)
""",
    # issue 25: stacks, their resources, resource data and events
    """
    CREATE TABLE heat_stacks (
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        project_id TEXT NOT NULL,
        user_id TEXT,
        username TEXT,
        owner_id TEXT,
        parent_resource TEXT,
        nested_depth INTEGER NOT NULL DEFAULT 0,
        action TEXT NOT NULL,
        status TEXT NOT NULL,
        status_reason TEXT,
        template TEXT NOT NULL,
        environment TEXT NOT NULL,
        files TEXT NOT NULL,
        parameters TEXT NOT NULL,
        timeout_mins INTEGER,
        disable_rollback INTEGER NOT NULL DEFAULT 1,
        tags TEXT,
        trust TEXT NOT NULL,
        engine_id TEXT,
        cancel_requested TEXT,
        prev_template TEXT,
        created_at REAL NOT NULL,
        updated_at REAL,
        deleted_at REAL);
    CREATE INDEX heat_stacks_project ON heat_stacks (project_id, deleted_at, name);
    CREATE INDEX heat_stacks_owner ON heat_stacks (owner_id);
    CREATE TABLE heat_resources (
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        stack_id TEXT NOT NULL,
        name TEXT NOT NULL,
        type TEXT NOT NULL,
        physical_resource_id TEXT,
        action TEXT NOT NULL,
        status TEXT NOT NULL,
        status_reason TEXT,
        definition TEXT,
        properties TEXT,
        metadata TEXT,
        nested_stack_id TEXT,
        requires TEXT,
        replaced_by TEXT,
        created_at REAL NOT NULL,
        updated_at REAL);
    CREATE INDEX heat_resources_stack_name ON heat_resources (stack_id, name);
    CREATE INDEX heat_resources_physical ON heat_resources (physical_resource_id);
    CREATE TABLE heat_resource_data (
        resource_id TEXT NOT NULL,
        key TEXT NOT NULL,
        value TEXT,
        redact INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (resource_id, key));
    CREATE TABLE heat_events (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        stack_id TEXT NOT NULL,
        project_id TEXT NOT NULL,
        resource_name TEXT NOT NULL,
        physical_resource_id TEXT,
        logical_resource_id TEXT,
        resource_type TEXT,
        action TEXT,
        status TEXT,
        reason TEXT,
        properties TEXT,
        created_at REAL NOT NULL);
    CREATE INDEX heat_events_stack ON heat_events (stack_id, seq)
""",
]

# (store component, steps), applied in this order by the cloud
COMPONENTS = (("orchestration", ORCHESTRATION),)
