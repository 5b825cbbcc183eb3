"""The seeded networks: ``private`` (10.0.0.0/16, the tenant network every
project boots on) and ``public`` (external: the floating IP pool), and
``router1`` joining them (its gateway on ``public``, an interface on
``private-subnet``), as DevStack builds them.

Both belong to the ``admin`` project, as an operator creates them in a
real deployment; ``private`` is shared, so every project sees it and can
put ports on it (its own ports: nobody sees another project's), and
``public`` is external, so every project sees it and takes floating IPs
from it. Ids are stable in every data directory (``private`` keeps the id
compute's fake network had).
"""

import sqlite3
import uuid

from occli.localcloud.network import networks
from occli.localcloud.network import ports
from occli.localcloud.network import routers
from occli.localcloud.network import subnets

PRIVATE_NETWORK_ID = "4fd44f30-2920-4a4b-a2b0-0e6c2dbd2a4b"
PRIVATE_SUBNET_ID = "6c2a6a0d-35fb-4e5c-8b35-1d7a4c9e2f10"
PUBLIC_NETWORK_ID = "0b5c2f9e-7a1d-4c3e-9f8a-2d6b4e1c7a95"
PUBLIC_SUBNET_ID = "9e1f7c3a-5b2d-4a6e-8c1f-3b7d5e9a2c48"
# the id floating IPs named as their router before routers were served
ROUTER_ID = "8d4c6e1e-2f3a-4b5c-9d6e-7f8091a2b3c4"
PRIVATE_CIDR = "10.0.0.0/16"
PUBLIC_CIDR = "172.24.4.0/24"


class _Admin:
    project_id = None
    user_id = None
    is_admin = True


def seed(db, owner):
    """Create the seeded networks unless they exist (idempotent)."""
    owner = owner or ""
    if networks.row(db, PRIVATE_NETWORK_ID) is None:
        networks.insert(db, owner, "private", shared=True, network_id=PRIVATE_NETWORK_ID)
        subnets.insert(
            db,
            PRIVATE_NETWORK_ID,
            owner,
            "private-subnet",
            PRIVATE_CIDR,
            subnet_id=PRIVATE_SUBNET_ID,
        )
        _dhcp_port(db, PRIVATE_NETWORK_ID, owner)
    if networks.row(db, PUBLIC_NETWORK_ID) is None:
        networks.insert(
            db, owner, "public", external=True, is_default=True, network_id=PUBLIC_NETWORK_ID
        )
        subnets.insert(
            db,
            PUBLIC_NETWORK_ID,
            owner,
            "public-subnet",
            PUBLIC_CIDR,
            subnet_id=PUBLIC_SUBNET_ID,
            enable_dhcp=False,
        )
    if routers.row(db, ROUTER_ID) is None:
        routers.insert(db, owner, "router1", router_id=ROUTER_ID)
        routers.set_gateway(db, _Admin(), ROUTER_ID, {"network_id": PUBLIC_NETWORK_ID})
        routers.add_interface(db, _Admin(), ROUTER_ID, {"subnet_id": PRIVATE_SUBNET_ID})


# -- the devstack profile (Config.seed) ----------------------------------------

_DEVSTACK_NAMESPACE = uuid.UUID("3b0f7f54-8c1e-4d1a-9a55-4f6d2c8e1b07")
# devstack stackrc IPV4_ADDRS_SAFE_TO_USE (10.0.0.0/22) is the v4 subnet
# pool's prefix and lib/neutron_plugins/services/l3 SUBNETPOOL_SIZE_V4 (26)
# its default prefix length: private-subnet is the pool's first /26
DEVSTACK_PRIVATE_CIDR = "10.0.0.0/26"
# lib/tempest configure_tempest: TEMPEST_SHARED_POOL
DEVSTACK_SHARED_CIDR = "192.168.233.0/24"


def devstack_id(name: str) -> str:
    """The stable id of the devstack profile's network, subnet or router
    ``name`` (the same in every data directory)."""
    return str(uuid.uuid5(_DEVSTACK_NAMESPACE, name))


def _dhcp_port(db, network_id, owner):
    """The DHCP agent's port, taking the network's first address."""
    ports.insert(
        db,
        _Admin(),
        networks.existing(db, network_id),
        owner,
        {
            "device_id": "dhcp-" + network_id,
            "device_owner": "network:dhcp",
            "binding:host_id": "host1",
        },
    )


def seed_devstack(db: sqlite3.Connection, admin: str | None, demo: str | None) -> None:
    """What stack.sh's create_neutron_initial_network (l3) and lib/tempest
    leave (idempotent): demo's ``private`` with ``private-subnet`` and
    ``router1`` (gateway on ``public``, an interface on private-subnet),
    the admin's external default ``public`` with ``public-subnet``
    (FLOATING_RANGE, no DHCP), and the admin's ``shared`` network
    (``--share``) with ``shared-subnet``. The IPv6 subnets and subnet
    pools DevStack adds are not seeded."""
    admin, demo = admin or "", demo or ""
    private, public, shared = (devstack_id(n) for n in ("private", "public", "shared"))
    private_subnet = devstack_id("private-subnet")
    if networks.row(db, private) is None:
        networks.insert(db, demo, "private", network_id=private)
        subnets.insert(
            db,
            private,
            demo,
            "private-subnet",
            DEVSTACK_PRIVATE_CIDR,
            subnet_id=private_subnet,
        )
        _dhcp_port(db, private, demo)
    if networks.row(db, public) is None:
        networks.insert(db, admin, "public", external=True, is_default=True, network_id=public)
        subnets.insert(
            db,
            public,
            admin,
            "public-subnet",
            PUBLIC_CIDR,
            subnet_id=devstack_id("public-subnet"),
            enable_dhcp=False,
        )
    router_id = devstack_id("router1")
    if routers.row(db, router_id) is None:
        routers.insert(db, demo, "router1", router_id=router_id)
        routers.set_gateway(db, _Admin(), router_id, {"network_id": public})
        routers.add_interface(db, _Admin(), router_id, {"subnet_id": private_subnet})
    if networks.row(db, shared) is None:
        networks.insert(db, admin, "shared", shared=True, network_id=shared)
        subnets.insert(
            db,
            shared,
            admin,
            "shared-subnet",
            DEVSTACK_SHARED_CIDR,
            subnet_id=devstack_id("shared-subnet"),
            description="shared-subnet",
        )
        _dhcp_port(db, shared, admin)
