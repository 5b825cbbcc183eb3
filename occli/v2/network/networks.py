"""Neutron networks and subnets (``client.networks``, ``client.subnets``).

See :mod:`occli.v2.network.base` for the URLs, filters, pages and name lookups
they share.
"""

from collections.abc import Iterable
from collections.abc import Iterator

from occli import base
from occli.v2.network import base as neutron


class Network(base.Resource):
    """A Neutron network (``router:external`` says whether it holds
    floating IPs)."""


class Subnet(base.Resource):
    """A Neutron subnet (``cidr``, ``ip_version``, ``network_id``)."""


class NetworkManager(neutron.NeutronManager):
    resource_class = Network
    collection = "networks"
    member = "network"

    def list(
        self,
        limit: int | None = None,
        marker: str | None = None,
        fields: Iterable[str] | None = None,
        external: bool | None = None,
        **filters: object,
    ) -> base.ListWithMeta:
        """Every network (see :meth:`NeutronManager.list`); ``external``
        True or False keeps only external (``router:external``) or
        internal networks. :meth:`iter` yields them lazily."""
        return super().list(limit, marker, fields, **self._list_filters(external, filters))

    def iter(
        self,
        limit: int | None = None,
        marker: str | None = None,
        fields: Iterable[str] | None = None,
        external: bool | None = None,
        **filters: object,
    ) -> Iterator[base.Resource]:
        """Like :meth:`list`, lazily: yield networks, asking for each page
        when the previous one was used."""
        return super().iter(limit, marker, fields, **self._list_filters(external, filters))

    def _list_filters(
        self, external: bool | None, filters: dict[str, object]
    ) -> dict[str, object]:
        """The Neutron filters of a network list."""
        if external is not None:
            filters["router:external"] = bool(external)
        return filters

    def create(self, name: str, **attributes: object) -> base.Resource:
        """Create a network (``admin_state_up``, ``shared``, …)."""
        return self._create_body(dict(attributes, name=name))


class SubnetManager(neutron.NeutronManager):
    resource_class = Subnet
    collection = "subnets"
    member = "subnet"

    def list(
        self,
        limit: int | None = None,
        marker: str | None = None,
        fields: Iterable[str] | None = None,
        network: base.Resource | str | None = None,
        **filters: object,
    ) -> base.ListWithMeta:
        """Every subnet (see :meth:`NeutronManager.list`); ``network`` (a
        Network or id) keeps that network's. :meth:`iter` yields them
        lazily."""
        return super().list(limit, marker, fields, **self._list_filters(network, filters))

    def iter(
        self,
        limit: int | None = None,
        marker: str | None = None,
        fields: Iterable[str] | None = None,
        network: base.Resource | str | None = None,
        **filters: object,
    ) -> Iterator[base.Resource]:
        """Like :meth:`list`, lazily: yield subnets, asking for each page
        when the previous one was used."""
        return super().iter(limit, marker, fields, **self._list_filters(network, filters))

    def _list_filters(
        self, network: base.Resource | str | None, filters: dict[str, object]
    ) -> dict[str, object]:
        """The Neutron filters of a subnet list."""
        if network is not None:
            filters["network_id"] = base.getid(network)
        return filters
