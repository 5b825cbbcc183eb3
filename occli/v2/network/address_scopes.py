"""Neutron address scopes (``client.address_scopes``): the address space
of one IP version that subnet pools join (their prefixes unique within
it); sharing one is the admin's."""

from occli import base
from occli import exceptions
from occli.v2.network import base as neutron


class AddressScope(base.Resource):
    """A Neutron address scope (``ip_version``, ``shared``)."""


class AddressScopeManager(neutron.NeutronManager):
    resource_class = AddressScope
    collection = "address_scopes"
    member = "address_scope"
    path = "address-scopes"

    def create(self, name: str, ip_version: int = 4, **attributes: object) -> base.Resource:
        """Create a scope of ``ip_version`` (4 or 6; fixed once made);
        ``shared`` (admin), ``project_id`` (admin)."""
        if ip_version not in (4, 6):
            raise exceptions.ValidationError(
                "{ip_version} must be 4 or 6, not %r." % (ip_version,), params=("ip_version",)
            )
        return self._create_body(dict(attributes, name=name, ip_version=ip_version))

    def update(self, scope: base.Resource | str, **attributes: object) -> base.Resource:
        """Change a scope's ``name`` or ``shared`` (admin; a shared scope
        cannot be unshared)."""
        if not attributes:
            raise exceptions.ValidationError(
                "Nothing to change in address scope %s." % base.getid(scope)
            )
        return self._update_body(scope, attributes)
