"""Neutron networks and subnets (``client.networks``, ``client.subnets``).

See :mod:`occli.v2.network.base` for the URLs, filters, pages and name lookups
they share.
"""

from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Mapping

from occli import base
from occli import exceptions
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

    def update(self, network: base.Resource | str, **attributes: object) -> base.Resource:
        """Change a network (``name``, ``admin_state_up``, ``shared``,
        ``router:external``, ``mtu``, ``description``, …)."""
        if not attributes:
            raise exceptions.ValidationError(
                "Nothing to change in network %s." % base.getid(network)
            )
        return self._update_body(network, attributes)


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

    def create(
        self,
        network: base.Resource | str,
        cidr: str | None = None,
        ip_version: int = 4,
        name: str | None = None,
        allocation_pools: Iterable[Mapping[str, str]] | None = None,
        host_routes: Iterable[Mapping[str, str]] | None = None,
        dns_nameservers: Iterable[str] | None = None,
        **attributes: object,
    ) -> base.Resource:
        """Create a subnet on ``network`` (a Network or id): ``cidr``
        unless a ``subnetpool_id`` gives the range; ``allocation_pools``
        ``[{"start": …, "end": …}]``, ``host_routes``
        ``[{"destination": …, "nexthop": …}]``; ``gateway_ip`` None for
        none. See :meth:`check_create` for what is refused before
        sending."""
        self.check_create(
            cidr,
            ip_version,
            attributes.get("subnetpool_id"),
            bool(attributes.get("use_default_subnetpool")),
        )
        body = dict(attributes, network_id=base.getid(network), ip_version=ip_version)
        for key, value in (("cidr", cidr), ("name", name)):
            if value is not None:
                body[key] = value
        lists = (
            ("allocation_pools", allocation_pools),
            ("host_routes", host_routes),
            ("dns_nameservers", dns_nameservers),
        )
        for key, items in lists:
            if items is not None:
                body[key] = [dict(i) if isinstance(i, Mapping) else i for i in items]
        return self._create_body(body)

    def check_create(
        self,
        cidr: str | None = None,
        ip_version: int = 4,
        subnetpool_id: object = None,
        use_default_subnetpool: bool = False,
    ) -> None:
        """ValidationError for a subnet without a range (neither ``cidr``
        nor ``subnetpool_id`` nor ``use_default_subnetpool``) or of an IP
        version other than 4 or 6."""
        if cidr is None and subnetpool_id is None and not use_default_subnetpool:
            raise exceptions.ValidationError(
                "A subnet needs a range: give {cidr} or {subnetpool_id}.",
                params=("cidr", "subnetpool_id"),
            )
        if ip_version not in (4, 6):
            raise exceptions.ValidationError(
                "{ip_version} must be 4 or 6, not %r." % (ip_version,), params=("ip_version",)
            )

    def update(self, subnet: base.Resource | str, **attributes: object) -> base.Resource:
        """Change a subnet (``name``, ``gateway_ip``, ``enable_dhcp``,
        ``allocation_pools``, ``dns_nameservers``, ``host_routes``, …):
        Neutron replaces each list given whole."""
        if not attributes:
            raise exceptions.ValidationError(
                "Nothing to change in subnet %s." % base.getid(subnet)
            )
        return self._update_body(subnet, attributes)
