"""Keystone's tables (store component ``identity``): append steps, never
edit released ones."""

MIGRATIONS = [
    """
    CREATE TABLE domains (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        enabled INTEGER NOT NULL DEFAULT 1
    );
    CREATE TABLE projects (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        domain_id TEXT NOT NULL REFERENCES domains (id),
        enabled INTEGER NOT NULL DEFAULT 1,
        UNIQUE (domain_id, name)
    );
    CREATE TABLE users (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        domain_id TEXT NOT NULL REFERENCES domains (id),
        password_hash TEXT NOT NULL,
        default_project_id TEXT REFERENCES projects (id),
        enabled INTEGER NOT NULL DEFAULT 1,
        UNIQUE (domain_id, name)
    );
    CREATE TABLE roles (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE
    );
    CREATE TABLE role_assignments (
        user_id TEXT NOT NULL REFERENCES users (id),
        target_type TEXT NOT NULL CHECK (target_type IN ('project', 'domain')),
        target_id TEXT NOT NULL,
        role_id TEXT NOT NULL REFERENCES roles (id),
        PRIMARY KEY (user_id, target_type, target_id, role_id)
    );
    CREATE TABLE tokens (
        id_hash TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users (id),
        project_id TEXT,
        domain_id TEXT,
        methods TEXT NOT NULL,
        audit_ids TEXT NOT NULL,
        issued_at REAL NOT NULL,
        expires_at REAL NOT NULL,
        revoked INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX tokens_expires_at ON tokens (expires_at);
    CREATE INDEX tokens_user_id ON tokens (user_id);
    """,
    """
    CREATE TABLE application_credentials (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        description TEXT,
        user_id TEXT NOT NULL REFERENCES users (id),
        project_id TEXT NOT NULL REFERENCES projects (id),
        secret_hash TEXT NOT NULL,
        expires_at REAL,
        unrestricted INTEGER NOT NULL DEFAULT 0,
        created_at REAL NOT NULL,
        UNIQUE (user_id, name)
    );
    CREATE TABLE application_credential_roles (
        application_credential_id TEXT NOT NULL
            REFERENCES application_credentials (id) ON DELETE CASCADE,
        role_id TEXT NOT NULL REFERENCES roles (id),
        PRIMARY KEY (application_credential_id, role_id)
    );
    ALTER TABLE tokens ADD COLUMN app_cred_id TEXT;
    CREATE INDEX tokens_app_cred_id ON tokens (app_cred_id);
    """,
]
