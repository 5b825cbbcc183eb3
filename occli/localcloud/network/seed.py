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
        # the DHCP port takes the first address, as neutron's DHCP agent's does
        ports.insert(
            db,
            _Admin(),
            networks.existing(db, PRIVATE_NETWORK_ID),
            owner,
            {
                "device_id": "dhcp-" + PRIVATE_NETWORK_ID,
                "device_owner": "network:dhcp",
                "binding:host_id": "host1",
            },
        )
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
