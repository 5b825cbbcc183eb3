"""Neutron routers (``client.routers``): a router joins subnets (its
interfaces, by subnet or by port) and reaches an external network through
its gateway (``external_gateway_info``), where floating IPs come from."""

from collections.abc import Iterable
from collections.abc import Mapping
from typing import Any

from occli import base
from occli import exceptions
from occli.v2.network import base as neutron


class Router(base.Resource):
    """A Neutron router (``external_gateway_info``, ``routes``)."""


def gateway_info(
    network: base.Resource | str | None,
    enable_snat: bool | None = None,
    fixed_ips: Iterable[Mapping[str, str]] | None = None,
    updating: bool = False,
) -> dict[str, Any] | None:
    """A router's ``external_gateway_info`` on ``network`` (a Network or
    id), with ``enable_snat`` and ``external_fixed_ips`` when given; None
    without a network. SNAT or fixed IPs without a network are refused as
    OSC refuses them (``updating``: the text of ``router set``)."""
    if network is None:
        if enable_snat is not None or fixed_ips:
            raise exceptions.ValidationError(
                "You must specify '{external_gateway}' in order to %s SNAT or fixed-ip values"
                % ("update the" if updating else "specify"),
                params=("external_gateway",),
            )
        return None
    info: dict[str, Any] = {"network_id": base.getid(network)}
    if enable_snat is not None:
        info["enable_snat"] = bool(enable_snat)
    if fixed_ips:
        info["external_fixed_ips"] = [dict(ip) for ip in fixed_ips]
    return info


class RouterManager(neutron.NeutronManager):
    resource_class = Router
    collection = "routers"
    member = "router"

    def create(self, name: str, **attributes: object) -> base.Resource:
        """Create a router (``admin_state_up``, ``external_gateway_info``
        as :func:`gateway_info` makes it, admin-only ``distributed`` and
        ``ha``, …)."""
        return self._create_body(dict(attributes, name=name))

    def update(self, router: base.Resource | str, **attributes: object) -> base.Resource:
        """Change a router (``name``, ``routes``, ``external_gateway_info``
        — None or ``{}`` clears the gateway —, …)."""
        if not attributes:
            raise exceptions.ValidationError(
                "Nothing to change in router %s." % base.getid(router)
            )
        return self._update_body(router, attributes)

    def add_interface(
        self,
        router: base.Resource | str,
        subnet: base.Resource | str | None = None,
        port: base.Resource | str | None = None,
    ) -> dict[str, Any]:
        """Join ``subnet`` (Neutron makes a port on its gateway IP) or an
        existing ``port`` to ``router``: Neutron's interface info
        (``subnet_id``, ``port_id``, …)."""
        return self._interface(router, "add_router_interface", subnet, port)

    def remove_interface(
        self,
        router: base.Resource | str,
        subnet: base.Resource | str | None = None,
        port: base.Resource | str | None = None,
    ) -> dict[str, Any]:
        """Take ``subnet`` or ``port`` off ``router`` (409 while floating
        IPs use it): Neutron's interface info."""
        return self._interface(router, "remove_router_interface", subnet, port)

    def add_routes(
        self, router: base.Resource | str, routes: Iterable[Mapping[str, str]]
    ) -> base.Resource:
        """Add static routes (``[{"destination": …, "nexthop": …}]``) to
        ``router`` atomically (Neutron's ``extraroute-atomic``
        ``add_extraroutes``; one already there is kept): the router."""
        return self._routes(router, "add_extraroutes", routes)

    def remove_routes(
        self, router: base.Resource | str, routes: Iterable[Mapping[str, str]]
    ) -> base.Resource:
        """Remove static routes from ``router`` atomically (Neutron's
        ``remove_extraroutes``; one not there is ignored): the router."""
        return self._routes(router, "remove_extraroutes", routes)

    def _routes(
        self, router: base.Resource | str, action: str, routes: Iterable[Mapping[str, str]]
    ) -> base.Resource:
        body = {"routes": [dict(r) for r in routes]}
        url = self._member_url(router) + "/" + action
        return self._update(url, {self.member: body}, self.member)

    def _interface(
        self,
        router: base.Resource | str,
        action: str,
        subnet: base.Resource | str | None,
        port: base.Resource | str | None,
    ) -> dict[str, Any]:
        if (subnet is None) == (port is None):
            raise exceptions.ValidationError(
                "Give {subnet} or {port}, not both or neither.", params=("subnet", "port")
            )
        body = {"subnet_id": base.getid(subnet)} if subnet is not None else {}
        if port is not None:
            body["port_id"] = base.getid(port)
        return self._update(self._member_url(router) + "/" + action, body)
