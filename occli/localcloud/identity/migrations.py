"""Keystone's tables (store component ``identity``): append steps, never
edit released ones."""

IDENTITY = [
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
    # the admin API: descriptions, tags, hierarchy, extra attributes.
    # users.default_project replaces default_project_id, whose foreign key
    # keystone does not have (it keeps a deleted or unknown project's id)
    """
    ALTER TABLE domains ADD COLUMN description TEXT NOT NULL DEFAULT '';
    ALTER TABLE domains ADD COLUMN tags TEXT NOT NULL DEFAULT '[]';
    ALTER TABLE projects ADD COLUMN description TEXT NOT NULL DEFAULT '';
    ALTER TABLE projects ADD COLUMN parent_id TEXT;
    ALTER TABLE projects ADD COLUMN tags TEXT NOT NULL DEFAULT '[]';
    ALTER TABLE projects ADD COLUMN extra TEXT NOT NULL DEFAULT '{}';
    UPDATE projects SET parent_id = domain_id;
    CREATE INDEX projects_parent_id ON projects (parent_id);
    ALTER TABLE users ADD COLUMN extra TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE users ADD COLUMN default_project TEXT;
    UPDATE users SET default_project = default_project_id,
        default_project_id = NULL;
    ALTER TABLE roles ADD COLUMN description TEXT;
    CREATE INDEX role_assignments_target
        ON role_assignments (target_type, target_id);
    CREATE INDEX role_assignments_role ON role_assignments (role_id);
    CREATE INDEX tokens_project_id ON tokens (project_id);
    """,
    # keystone's local_user.failed_auth_count / failed_auth_at: the failed
    # password logins counted for [security_compliance] lockout
    """
    ALTER TABLE users ADD COLUMN failed_auth_count INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE users ADD COLUMN failed_auth_at REAL;
    """,
    # the catalog as data (keystone's region, service and endpoint tables);
    # catalog_seeded: the service types registered once from the registry
    """
    CREATE TABLE regions (
        id TEXT PRIMARY KEY,
        description TEXT NOT NULL DEFAULT '',
        parent_region_id TEXT,
        extra TEXT NOT NULL DEFAULT '{}'
    );
    CREATE TABLE services (
        id TEXT PRIMARY KEY,
        type TEXT NOT NULL,
        enabled INTEGER NOT NULL DEFAULT 1,
        extra TEXT NOT NULL DEFAULT '{}'
    );
    CREATE TABLE endpoints (
        id TEXT PRIMARY KEY,
        interface TEXT NOT NULL,
        region_id TEXT REFERENCES regions (id),
        service_id TEXT NOT NULL REFERENCES services (id),
        url TEXT NOT NULL,
        enabled INTEGER NOT NULL DEFAULT 1,
        extra TEXT NOT NULL DEFAULT '{}'
    );
    CREATE INDEX endpoints_service_id ON endpoints (service_id);
    CREATE INDEX endpoints_region_id ON endpoints (region_id);
    CREATE TABLE catalog_seeded (type TEXT PRIMARY KEY);
    """,
]

# keystone's group, user_group_membership and the group rows of its
# assignment table (component ``identity.groups``); the triggers drop a
# deleted project's or domain's group grants, as keystone does
GROUPS = [
    """
    CREATE TABLE groups (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        domain_id TEXT NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
        description TEXT,
        extra TEXT NOT NULL DEFAULT '{}',
        UNIQUE (domain_id, name)
    );
    CREATE TABLE user_group_membership (
        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        group_id TEXT NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
        PRIMARY KEY (user_id, group_id)
    );
    CREATE INDEX user_group_membership_group ON user_group_membership (group_id);
    CREATE TABLE group_role_assignments (
        group_id TEXT NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
        target_type TEXT NOT NULL CHECK (target_type IN ('project', 'domain')),
        target_id TEXT NOT NULL,
        role_id TEXT NOT NULL REFERENCES roles (id) ON DELETE CASCADE,
        PRIMARY KEY (group_id, target_type, target_id, role_id)
    );
    CREATE INDEX group_role_assignments_target
        ON group_role_assignments (target_type, target_id);
    CREATE TRIGGER group_grants_of_deleted_project AFTER DELETE ON projects
    BEGIN
        DELETE FROM group_role_assignments
            WHERE target_type = 'project' AND target_id = OLD.id;
    END;
    CREATE TRIGGER group_grants_of_deleted_domain AFTER DELETE ON domains
    BEGIN
        DELETE FROM group_role_assignments
            WHERE target_type = 'domain' AND target_id = OLD.id;
    END;
    """,
]

# keystone's system_assignment (the ``system`` target's grants, of a user
# or a group), implied_role and the system scope of a token (component
# ``identity.system``); the triggers drop a deleted user's or group's
# system grants
SYSTEM = [
    """
    CREATE TABLE system_role_assignments (
        actor TEXT NOT NULL CHECK (actor IN ('user', 'group')),
        actor_id TEXT NOT NULL,
        role_id TEXT NOT NULL REFERENCES roles (id) ON DELETE CASCADE,
        PRIMARY KEY (actor, actor_id, role_id)
    );
    CREATE TABLE implied_roles (
        prior_role_id TEXT NOT NULL REFERENCES roles (id) ON DELETE CASCADE,
        implied_role_id TEXT NOT NULL REFERENCES roles (id) ON DELETE CASCADE,
        PRIMARY KEY (prior_role_id, implied_role_id)
    );
    ALTER TABLE tokens ADD COLUMN system INTEGER NOT NULL DEFAULT 0;
    CREATE TRIGGER system_grants_of_deleted_user AFTER DELETE ON users
    BEGIN
        DELETE FROM system_role_assignments
            WHERE actor = 'user' AND actor_id = OLD.id;
    END;
    CREATE TRIGGER system_grants_of_deleted_group AFTER DELETE ON groups
    BEGIN
        DELETE FROM system_role_assignments
            WHERE actor = 'group' AND actor_id = OLD.id;
    END;
    """,
]

# keystone's access_rule and application_credential_access_rule
# (component ``identity.access_rules``): a user's rules, shared by the
# credentials that name them; a user's deletion drops them
ACCESS_RULES = [
    """
    CREATE TABLE access_rules (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        service TEXT NOT NULL,
        path TEXT NOT NULL,
        method TEXT NOT NULL,
        UNIQUE (user_id, service, path, method)
    );
    CREATE TABLE application_credential_access_rules (
        application_credential_id TEXT NOT NULL
            REFERENCES application_credentials (id) ON DELETE CASCADE,
        access_rule_id TEXT NOT NULL REFERENCES access_rules (id),
        PRIMARY KEY (application_credential_id, access_rule_id)
    );
    CREATE INDEX application_credential_access_rules_rule
        ON application_credential_access_rules (access_rule_id);
    """,
]

# keystone's trust and trust_role (component ``identity.trusts``) and the
# trust of a trust-scoped token; a user's or project's deletion drops its
# trusts
TRUSTS = [
    """
    CREATE TABLE trusts (
        id TEXT PRIMARY KEY,
        trustor_user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        trustee_user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        project_id TEXT REFERENCES projects (id) ON DELETE CASCADE,
        impersonation INTEGER NOT NULL,
        expires_at REAL,
        remaining_uses INTEGER,
        created_at REAL NOT NULL
    );
    CREATE INDEX trusts_trustor ON trusts (trustor_user_id);
    CREATE INDEX trusts_trustee ON trusts (trustee_user_id);
    CREATE TABLE trust_roles (
        trust_id TEXT NOT NULL REFERENCES trusts (id) ON DELETE CASCADE,
        role_id TEXT NOT NULL REFERENCES roles (id) ON DELETE CASCADE,
        PRIMARY KEY (trust_id, role_id)
    );
    ALTER TABLE tokens ADD COLUMN trust_id TEXT;
    CREATE INDEX tokens_trust_id ON tokens (trust_id);
    """,
]

# keystone's credential (component ``identity.credentials``): the blob is
# kept in the store (0600 in the private data dir), where keystone
# encrypts it with its credential keys; a user's deletion drops them
CREDENTIALS = [
    """
    CREATE TABLE credentials (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        project_id TEXT,
        type TEXT NOT NULL,
        blob TEXT NOT NULL,
        extra TEXT NOT NULL DEFAULT '{}',
        created_at REAL NOT NULL
    );
    CREATE INDEX credentials_user_id ON credentials (user_id);
    """,
]

# keystone's consumer (component ``identity.oauth1``): OAuth1 consumers as
# data (no request or access tokens)
OAUTH1 = [
    """
    CREATE TABLE oauth1_consumers (
        id TEXT PRIMARY KEY,
        description TEXT,
        secret TEXT NOT NULL,
        extra TEXT NOT NULL DEFAULT '{}',
        created_at REAL NOT NULL
    );
    """,
]

# keystone keeps an application credential's ``unrestricted`` as given
# (component ``identity.app_credentials``): null when the request had none
APP_CREDENTIALS = [
    """
    ALTER TABLE application_credentials ADD COLUMN unrestricted_given INTEGER;
    UPDATE application_credentials SET unrestricted_given = unrestricted;
    """,
]

# keystone's whitelisted_config and sensitive_config (component
# ``identity.domain_config``): a domain's options as data
DOMAIN_CONFIG = [
    """
    CREATE TABLE domain_configs (
        domain_id TEXT NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
        group_name TEXT NOT NULL,
        option TEXT NOT NULL,
        value TEXT NOT NULL,
        sensitive INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (domain_id, group_name, option)
    );
    """,
]

# (store component, steps), applied in this order by the cloud
COMPONENTS = (
    ("identity", IDENTITY),
    ("identity.groups", GROUPS),
    ("identity.system", SYSTEM),
    ("identity.access_rules", ACCESS_RULES),
    ("identity.trusts", TRUSTS),
    ("identity.credentials", CREDENTIALS),
    ("identity.oauth1", OAUTH1),
    ("identity.domain_config", DOMAIN_CONFIG),
    ("identity.app_credentials", APP_CREDENTIALS),
)
