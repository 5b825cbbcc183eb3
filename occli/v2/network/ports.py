"""Neutron ports (``client.ports``): a server's interfaces are ports whose
``device_id`` is the server's id."""

from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Mapping

from occli import base
from occli import exceptions
from occli.v2.network import base as neutron


class Port(base.Resource):
    """A Neutron port (``fixed_ips``, ``mac_address``, ``device_id``)."""


class PortManager(neutron.NeutronManager):
    resource_class = Port
    collection = "ports"
    member = "port"

    def list(
        self,
        limit: int | None = None,
        marker: str | None = None,
        fields: Iterable[str] | None = None,
        server: base.Resource | str | None = None,
        network: base.Resource | str | None = None,
        **filters: object,
    ) -> base.ListWithMeta:
        """Every port (see :meth:`NeutronManager.list`); ``server`` (a
        Server or id) keeps its interfaces (``device_id``), ``network``
        those on a network; ``fixed_ip`` (``"ip_address=10.0.0.3"``) is
        Neutron's ``fixed_ips`` filter. :meth:`iter` yields them lazily."""
        return super().list(limit, marker, fields, **self._list_filters(server, network, filters))

    def iter(
        self,
        limit: int | None = None,
        marker: str | None = None,
        fields: Iterable[str] | None = None,
        server: base.Resource | str | None = None,
        network: base.Resource | str | None = None,
        **filters: object,
    ) -> Iterator[base.Resource]:
        """Like :meth:`list`, lazily: yield ports, asking for each page
        when the previous one was used."""
        return super().iter(limit, marker, fields, **self._list_filters(server, network, filters))

    def _list_filters(
        self,
        server: base.Resource | str | None,
        network: base.Resource | str | None,
        filters: dict[str, object],
    ) -> dict[str, object]:
        """The Neutron filters of a port list."""
        if server is not None:
            filters["device_id"] = base.getid(server)
        if network is not None:
            filters["network_id"] = base.getid(network)
        fixed_ip = filters.pop("fixed_ip", None)
        if fixed_ip is not None:
            filters["fixed_ips"] = fixed_ip
        return filters

    def create(
        self,
        network: base.Resource | str,
        name: str | None = None,
        fixed_ips: Iterable[Mapping[str, str]] | None = None,
        security_groups: Iterable[base.Resource | str] | None = None,
        **attributes: object,
    ) -> base.Resource:
        """Create a port on ``network``; ``fixed_ips`` as Neutron takes
        them (``[{"ip_address": …}]`` or ``[{"subnet_id": …}]``),
        ``security_groups`` ids."""
        body = dict(attributes, network_id=base.getid(network))
        if name is not None:
            body["name"] = name
        if fixed_ips is not None:
            body["fixed_ips"] = list(fixed_ips)
        if security_groups is not None:
            body["security_groups"] = [base.getid(g) for g in security_groups]
        return self._create_body(body)

    def update(self, port: base.Resource | str, **attributes: object) -> base.Resource:
        """Change a port (``name``, ``fixed_ips``, ``security_groups``, …)."""
        if not attributes:
            raise exceptions.ValidationError("Nothing to change in port %s." % base.getid(port))
        return self._update_body(port, attributes)
