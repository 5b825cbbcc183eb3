"""Neutron's tables, one store component per part (``network.<part>``).

Append steps, never edit a released one.
"""

CORE = [
    """
    CREATE TABLE network_networks (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        project_id TEXT NOT NULL,
        name TEXT NOT NULL DEFAULT '',
        description TEXT NOT NULL DEFAULT '',
        admin_state_up INTEGER NOT NULL DEFAULT 1,
        shared INTEGER NOT NULL DEFAULT 0,
        external INTEGER NOT NULL DEFAULT 0,
        is_default INTEGER NOT NULL DEFAULT 0,
        mtu INTEGER NOT NULL DEFAULT 1500,
        status TEXT NOT NULL DEFAULT 'ACTIVE',
        revision_number INTEGER NOT NULL DEFAULT 1,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE TABLE network_subnets (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        network_id TEXT NOT NULL REFERENCES network_networks (id),
        project_id TEXT NOT NULL,
        name TEXT NOT NULL DEFAULT '',
        description TEXT NOT NULL DEFAULT '',
        cidr TEXT NOT NULL,
        ip_version INTEGER NOT NULL DEFAULT 4,
        gateway_ip TEXT,
        enable_dhcp INTEGER NOT NULL DEFAULT 1,
        allocation_pools TEXT NOT NULL DEFAULT '[]',
        dns_nameservers TEXT NOT NULL DEFAULT '[]',
        host_routes TEXT NOT NULL DEFAULT '[]',
        revision_number INTEGER NOT NULL DEFAULT 1,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE INDEX network_subnets_network ON network_subnets (network_id);
    CREATE TABLE network_ports (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        network_id TEXT NOT NULL REFERENCES network_networks (id),
        project_id TEXT NOT NULL,
        name TEXT NOT NULL DEFAULT '',
        description TEXT NOT NULL DEFAULT '',
        mac_address TEXT NOT NULL,
        admin_state_up INTEGER NOT NULL DEFAULT 1,
        device_id TEXT NOT NULL DEFAULT '',
        device_owner TEXT NOT NULL DEFAULT '',
        status TEXT NOT NULL DEFAULT 'DOWN',
        binding_host TEXT NOT NULL DEFAULT '',
        port_security_enabled INTEGER NOT NULL DEFAULT 1,
        revision_number INTEGER NOT NULL DEFAULT 1,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        UNIQUE (network_id, mac_address)
    );
    CREATE INDEX network_ports_device ON network_ports (device_id);
    CREATE INDEX network_ports_network ON network_ports (network_id);
    -- one row per fixed IP: an address is allocated once per subnet
    CREATE TABLE network_port_ips (
        port_id TEXT NOT NULL REFERENCES network_ports (id) ON DELETE CASCADE,
        subnet_id TEXT NOT NULL REFERENCES network_subnets (id),
        ip_address TEXT NOT NULL,
        PRIMARY KEY (subnet_id, ip_address)
    );
    CREATE INDEX network_port_ips_port ON network_port_ips (port_id);
    """
]

SECURITY = [
    """
    CREATE TABLE network_security_groups (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        project_id TEXT NOT NULL,
        name TEXT NOT NULL DEFAULT '',
        description TEXT NOT NULL DEFAULT '',
        stateful INTEGER NOT NULL DEFAULT 1,
        revision_number INTEGER NOT NULL DEFAULT 1,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE INDEX network_security_groups_project ON network_security_groups (project_id);
    -- neutron's default_security_group: each project's ``default`` group
    CREATE TABLE network_default_security_groups (
        project_id TEXT PRIMARY KEY,
        security_group_id TEXT NOT NULL UNIQUE
    );
    CREATE TABLE network_security_group_rules (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        security_group_id TEXT NOT NULL
            REFERENCES network_security_groups (id) ON DELETE CASCADE,
        project_id TEXT NOT NULL,
        direction TEXT NOT NULL,
        ethertype TEXT NOT NULL,
        protocol TEXT,
        port_range_min INTEGER,
        port_range_max INTEGER,
        remote_ip_prefix TEXT,
        remote_group_id TEXT,
        description TEXT NOT NULL DEFAULT '',
        revision_number INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE INDEX network_sg_rules_group ON network_security_group_rules (security_group_id);
    CREATE TABLE network_port_security_groups (
        port_id TEXT NOT NULL REFERENCES network_ports (id) ON DELETE CASCADE,
        security_group_id TEXT NOT NULL REFERENCES network_security_groups (id),
        PRIMARY KEY (port_id, security_group_id)
    );
    CREATE INDEX network_port_sgs_group ON network_port_security_groups (security_group_id);
    """,
    # a rule's description may be NULL: the rules neutron makes itself (a
    # group's egress, the default group's ingress) have none; the table
    # rebuilt, its rows copied as they are
    """
    CREATE TABLE network_security_group_rules_new (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        security_group_id TEXT NOT NULL
            REFERENCES network_security_groups (id) ON DELETE CASCADE,
        project_id TEXT NOT NULL,
        direction TEXT NOT NULL,
        ethertype TEXT NOT NULL,
        protocol TEXT,
        port_range_min INTEGER,
        port_range_max INTEGER,
        remote_ip_prefix TEXT,
        remote_group_id TEXT,
        description TEXT,
        revision_number INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    INSERT INTO network_security_group_rules_new SELECT seq, id, security_group_id,
        project_id, direction, ethertype, protocol, port_range_min, port_range_max,
        remote_ip_prefix, remote_group_id, description, revision_number, created_at,
        updated_at FROM network_security_group_rules;
    DROP TABLE network_security_group_rules;
    ALTER TABLE network_security_group_rules_new RENAME TO network_security_group_rules;
    CREATE INDEX network_sg_rules_group ON network_security_group_rules (security_group_id);
    """,
]

FLOATING_IPS = [
    """
    CREATE TABLE network_floating_ips (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        project_id TEXT NOT NULL,
        floating_network_id TEXT NOT NULL REFERENCES network_networks (id),
        floating_port_id TEXT NOT NULL,
        floating_ip_address TEXT NOT NULL,
        port_id TEXT,
        fixed_ip_address TEXT,
        router_id TEXT,
        status TEXT NOT NULL DEFAULT 'DOWN',
        description TEXT NOT NULL DEFAULT '',
        revision_number INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE INDEX network_floating_ips_port ON network_floating_ips (port_id);
    """
]

# limits set through PUT /v2.0/quotas/{project_id}
QUOTAS = [
    """
    CREATE TABLE network_quotas (
        project_id TEXT NOT NULL,
        resource TEXT NOT NULL,
        hard_limit INTEGER NOT NULL,
        PRIMARY KEY (project_id, resource)
    );
    """
]

# routers: the gateway and interfaces are ports whose device is the router
ROUTERS = [
    """
    CREATE TABLE network_routers (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        project_id TEXT NOT NULL,
        name TEXT NOT NULL DEFAULT '',
        description TEXT NOT NULL DEFAULT '',
        admin_state_up INTEGER NOT NULL DEFAULT 1,
        status TEXT NOT NULL DEFAULT 'ACTIVE',
        gw_network_id TEXT REFERENCES network_networks (id),
        enable_snat INTEGER NOT NULL DEFAULT 1,
        distributed INTEGER NOT NULL DEFAULT 0,
        ha INTEGER NOT NULL DEFAULT 0,
        routes TEXT NOT NULL DEFAULT '[]',
        revision_number INTEGER NOT NULL DEFAULT 1,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE INDEX network_routers_gateway ON network_routers (gw_network_id);
    """
]

# tags of the standard-attribute resources (resource: the collection's key),
# dropped with their resource
TAGS = [
    """
    CREATE TABLE network_tags (
        resource TEXT NOT NULL,
        resource_id TEXT NOT NULL,
        tag TEXT NOT NULL,
        PRIMARY KEY (resource, resource_id, tag)
    );
    CREATE TRIGGER network_tags_networks AFTER DELETE ON network_networks BEGIN
        DELETE FROM network_tags WHERE resource = 'networks' AND resource_id = OLD.id;
    END;
    CREATE TRIGGER network_tags_subnets AFTER DELETE ON network_subnets BEGIN
        DELETE FROM network_tags WHERE resource = 'subnets' AND resource_id = OLD.id;
    END;
    CREATE TRIGGER network_tags_ports AFTER DELETE ON network_ports BEGIN
        DELETE FROM network_tags WHERE resource = 'ports' AND resource_id = OLD.id;
    END;
    CREATE TRIGGER network_tags_routers AFTER DELETE ON network_routers BEGIN
        DELETE FROM network_tags WHERE resource = 'routers' AND resource_id = OLD.id;
    END;
    CREATE TRIGGER network_tags_security_groups AFTER DELETE ON network_security_groups BEGIN
        DELETE FROM network_tags WHERE resource = 'security_groups' AND resource_id = OLD.id;
    END;
    CREATE TRIGGER network_tags_floatingips AFTER DELETE ON network_floating_ips BEGIN
        DELETE FROM network_tags WHERE resource = 'floatingips' AND resource_id = OLD.id;
    END;
    """
]

# address scopes and subnet pools (neutron's ``address-scope`` and
# ``subnet_allocation``); a subnet records the pool it was allocated from
SUBNET_POOLS = [
    """
    CREATE TABLE network_address_scopes (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        project_id TEXT NOT NULL,
        name TEXT NOT NULL DEFAULT '',
        shared INTEGER NOT NULL DEFAULT 0,
        ip_version INTEGER NOT NULL
    );
    CREATE TABLE network_subnetpools (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        project_id TEXT NOT NULL,
        name TEXT NOT NULL DEFAULT '',
        description TEXT NOT NULL DEFAULT '',
        ip_version INTEGER NOT NULL,
        prefixes TEXT NOT NULL DEFAULT '[]',
        default_prefixlen INTEGER NOT NULL,
        min_prefixlen INTEGER NOT NULL,
        max_prefixlen INTEGER NOT NULL,
        default_quota INTEGER,
        address_scope_id TEXT REFERENCES network_address_scopes (id),
        is_default INTEGER NOT NULL DEFAULT 0,
        shared INTEGER NOT NULL DEFAULT 0,
        revision_number INTEGER NOT NULL DEFAULT 1,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE INDEX network_subnetpools_scope ON network_subnetpools (address_scope_id);
    ALTER TABLE network_subnets ADD COLUMN subnetpool_id TEXT
        REFERENCES network_subnetpools (id);
    CREATE INDEX network_subnets_pool ON network_subnets (subnetpool_id);
    """,
    # a pool's tags go with it (as the network.tags triggers)
    """
    CREATE TRIGGER network_tags_subnetpools AFTER DELETE ON network_subnetpools BEGIN
        DELETE FROM network_tags WHERE resource = 'subnetpools' AND resource_id = OLD.id;
    END;
    """,
]

# a port's allowed address pairs (the allowed-address-pairs extension)
ADDRESS_PAIRS = [
    """
    CREATE TABLE network_port_address_pairs (
        port_id TEXT NOT NULL REFERENCES network_ports (id) ON DELETE CASCADE,
        mac_address TEXT NOT NULL,
        ip_address TEXT NOT NULL,
        PRIMARY KEY (port_id, mac_address, ip_address)
    );
    """
]

# a network's and a router's availability zone hints, as JSON
ZONES = [
    """
    ALTER TABLE network_networks ADD COLUMN availability_zone_hints TEXT NOT NULL DEFAULT '[]';
    """,
    # a router's (router_availability_zone)
    """
    ALTER TABLE network_routers ADD COLUMN availability_zone_hints TEXT NOT NULL DEFAULT '[]';
    """,
]

# a subnet's IPv6 modes (neutron-lib's subnet definition), NULL: unset
IPV6_MODES = [
    """
    ALTER TABLE network_subnets ADD COLUMN ipv6_ra_mode TEXT;
    ALTER TABLE network_subnets ADD COLUMN ipv6_address_mode TEXT;
    """
]

# a network's port_security_enabled (the port-security extension), which
# its new ports inherit
PORT_SECURITY = [
    """
    ALTER TABLE network_networks ADD COLUMN port_security_enabled INTEGER NOT NULL DEFAULT 1;
    """
]

# (store component, steps), applied in this order by the cloud
COMPONENTS = (
    ("network.core", CORE),
    ("network.security", SECURITY),
    ("network.floatingips", FLOATING_IPS),
    ("network.quotas", QUOTAS),
    ("network.routers", ROUTERS),
    ("network.tags", TAGS),
    ("network.subnetpools", SUBNET_POOLS),
    ("network.address_pairs", ADDRESS_PAIRS),
    ("network.zones", ZONES),
    ("network.ipv6_modes", IPV6_MODES),
    ("network.port_security", PORT_SECURITY),
)
