"""What other services may ask of Neutron.

Compute (Nova's network API, its proxies and server builds) calls these
and nothing else of the network service's rules, so the boundary stays
small and named. A name two rules modules share is prefixed with its
module's name.
"""

from occli.localcloud.network.attributes import is_uuid
from occli.localcloud.network.floating_ips import allocate
from occli.localcloud.network.floating_ips import associate
from occli.localcloud.network.floating_ips import by_port
from occli.localcloud.network.floating_ips import delete as floating_ips_delete
from occli.localcloud.network.floating_ips import of_project as floating_ips_of_project
from occli.localcloud.network.floating_ips import row as floating_ips_row
from occli.localcloud.network.networks import existing
from occli.localcloud.network.networks import external
from occli.localcloud.network.networks import listing
from occli.localcloud.network.networks import row as networks_row
from occli.localcloud.network.networks import view
from occli.localcloud.network.networks import visible as networks_visible
from occli.localcloud.network.ports import apply_update
from occli.localcloud.network.ports import by_device
from occli.localcloud.network.ports import enforce
from occli.localcloud.network.ports import fixed_ips
from occli.localcloud.network.ports import group_ids
from occli.localcloud.network.ports import insert
from occli.localcloud.network.ports import remove
from occli.localcloud.network.ports import row as ports_row
from occli.localcloud.network.ports import visible as ports_visible
from occli.localcloud.network.security_groups import create
from occli.localcloud.network.security_groups import create_rule
from occli.localcloud.network.security_groups import delete as security_groups_delete
from occli.localcloud.network.security_groups import delete_rule
from occli.localcloud.network.security_groups import find
from occli.localcloud.network.security_groups import ingress_rules
from occli.localcloud.network.security_groups import names
from occli.localcloud.network.security_groups import of_project as security_groups_of_project
from occli.localcloud.network.security_groups import row as security_groups_row
from occli.localcloud.network.security_groups import rule_row
from occli.localcloud.network.security_groups import update
from occli.localcloud.network.seed import PRIVATE_NETWORK_ID

__all__ = [
    "PRIVATE_NETWORK_ID",
    "allocate",
    "apply_update",
    "associate",
    "by_device",
    "by_port",
    "create",
    "create_rule",
    "delete_rule",
    "enforce",
    "existing",
    "external",
    "find",
    "fixed_ips",
    "floating_ips_delete",
    "floating_ips_of_project",
    "floating_ips_row",
    "group_ids",
    "ingress_rules",
    "insert",
    "is_uuid",
    "listing",
    "names",
    "networks_row",
    "networks_visible",
    "ports_row",
    "ports_visible",
    "remove",
    "rule_row",
    "security_groups_delete",
    "security_groups_of_project",
    "security_groups_row",
    "update",
    "view",
]
