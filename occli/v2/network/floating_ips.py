"""Neutron floating IPs (``client.floating_ips``): made from an external
network, associated with a port (a server's interface) by setting their
``port_id``."""

import ipaddress
from typing import Any

from occli import base
from occli import exceptions
from occli.v2.network import base as neutron


class FloatingIP(base.Resource):
    """A floating IP (``floating_ip_address``, ``port_id``,
    ``fixed_ip_address``)."""


class FloatingIPManager(neutron.NeutronManager):
    resource_class = FloatingIP
    collection = "floatingips"
    member = "floatingip"
    noun = "floating IP"

    def create(
        self,
        floating_network: base.Resource | str,
        port: base.Resource | str | None = None,
        fixed_ip_address: str | None = None,
        floating_ip_address: str | None = None,
        description: str | None = None,
        **attributes: Any,
    ) -> base.Resource:
        """Allocate a floating IP from ``floating_network`` (an external
        network or its id), associated with ``port`` if given."""
        body = dict(attributes, floating_network_id=base.getid(floating_network))
        optional = {
            "port_id": base.getid(port) if port is not None else None,
            "fixed_ip_address": fixed_ip_address,
            "floating_ip_address": floating_ip_address,
            "description": description,
        }
        body.update((k, v) for k, v in optional.items() if v is not None)
        return self._create_body(body)

    def associate(
        self,
        floating_ip: base.Resource | str,
        port: base.Resource | str,
        fixed_ip_address: str | None = None,
    ) -> base.Resource:
        """Point ``floating_ip`` at ``port`` (at one of its fixed IPs if
        given); the updated FloatingIP."""
        body = {"port_id": base.getid(port)}
        if fixed_ip_address is not None:
            body["fixed_ip_address"] = fixed_ip_address
        return self._update_body(floating_ip, body)

    def update(self, floating_ip: base.Resource | str, **attributes: object) -> base.Resource:
        """Change a floating IP (``port_id`` — None detaches it —,
        ``fixed_ip_address``, ``description``, …)."""
        if not attributes:
            raise exceptions.ValidationError(
                "Nothing to change in floating IP %s." % base.getid(floating_ip)
            )
        return self._update_body(floating_ip, attributes)

    def disassociate(self, floating_ip: base.Resource | str) -> base.Resource:
        """Detach ``floating_ip`` from its port (``port_id`` null)."""
        return self._update_body(floating_ip, {"port_id": None})

    def find_resource(self, name_or_id: base.Resource | str, **filters: Any) -> base.Resource:
        """A floating IP by its address (``?floating_ip_address=``) or id
        (``name_or_id``, the parameter's name in every manager)."""
        if isinstance(name_or_id, base.Resource):
            return name_or_id
        value = str(name_or_id)
        missing = exceptions.NotFound(
            "No floating IP with an address or ID of '%s' exists." % value, code=404
        )
        if not _is_ip(value):
            try:
                return self.get(value)
            except exceptions.NotFound:
                raise missing from None
        matches = self.list(floating_ip_address=value, **filters)
        if not matches:
            raise missing
        if len(matches) > 1:
            raise self._ambiguous("address %s" % value, matches)
        return matches[0]


def _is_ip(value: str) -> bool:
    try:
        ipaddress.ip_address(value)
    except ValueError:
        return False
    return True
