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
"""
]

# (store component, steps), applied in this order by the cloud
COMPONENTS = (("orchestration", ORCHESTRATION),)
