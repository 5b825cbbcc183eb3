"""Neutron subnet pools (``client.subnet_pools``): prefixes subnets take
their ranges from (``subnet create --subnet-pool``), with prefix-length
bounds, a per-project quota in addresses and an optional address scope;
one pool per IP version may be the default (admin)."""

from collections.abc import Iterable

from occli import base
from occli import exceptions
from occli.v2.network import base as neutron


class SubnetPool(base.Resource):
    """A Neutron subnet pool (``prefixes``, ``default_prefixlen`` — the
    prefix lengths are text in Neutron's bodies —, ``address_scope_id``)."""


class SubnetPoolManager(neutron.NeutronManager):
    resource_class = SubnetPool
    collection = "subnetpools"
    member = "subnetpool"
    noun = "subnet pool"

    def create(self, name: str, prefixes: Iterable[str], **attributes: object) -> base.Resource:
        """Create a pool of ``prefixes`` (CIDRs): ``default_prefixlen``,
        ``min_prefixlen``, ``max_prefixlen``, ``default_quota``,
        ``address_scope_id``, admin-only ``shared`` and ``is_default``, …"""
        return self._create_body(dict(attributes, name=name, prefixes=list(prefixes)))

    def update(self, pool: base.Resource | str, **attributes: object) -> base.Resource:
        """Change a pool (``name``, ``prefixes`` — the current ones must
        stay among them —, the prefix lengths, ``address_scope_id`` — None
        leaves the scope —, ``is_default``, ``default_quota``, …)."""
        if not attributes:
            raise exceptions.ValidationError(
                "Nothing to change in subnet pool %s." % base.getid(pool)
            )
        return self._update_body(pool, attributes)
