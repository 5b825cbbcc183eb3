"""novaclient's ``flavor_access`` manager (novaclient/v2/flavor_access.py):
the projects that may use a private flavor, as ``client.flavor_access``.

The requests are :class:`~occli.v2.compute.flavors.FlavorManager`'s
(``access_list``, ``add_tenant_access``, ``remove_tenant_access``); this
manager gives them novaclient's names and arguments.
"""

from typing import Any

from occli import base
from occli.v2.compute import base as compute
from occli.v2.compute import flavors


class FlavorAccessManager(compute.ComputeManager):
    resource_class = flavors.FlavorAccess

    def list(self, **kwargs: Any) -> base.ListWithMeta:
        """The access list of ``flavor=`` (admin): :class:`FlavorAccess`
        items with ``flavor_id`` and ``tenant_id``, in a list with
        ``request_ids``. As novaclient, any other argument is
        NotImplementedError; NotFound for a public flavor."""
        if kwargs.get("flavor"):
            return self.client.flavors.access_list(kwargs["flavor"])
        raise NotImplementedError("Unknown list options.")

    def add_tenant_access(
        self, flavor: base.Resource | str, tenant: base.Resource | str
    ) -> base.ListWithMeta:
        """Let the project ``tenant`` (an id) use a private flavor; the new
        access list."""
        return self.client.flavors.add_tenant_access(flavor, tenant)

    def remove_tenant_access(
        self, flavor: base.Resource | str, tenant: base.Resource | str
    ) -> base.ListWithMeta:
        """Take a private flavor from the project ``tenant``; the new list."""
        return self.client.flavors.remove_tenant_access(flavor, tenant)
