"""Neutron quotas (``client.network_quotas``): a project's limits on
networks, subnets, ports, floating IPs, routers and security groups
(``/v2.0/quotas/{project_id}``), named as Neutron names them
(``floatingip``, ``port``, ``security_group_rule``…); -1 is unlimited.

Reading your own project's limits is open to members; another project's,
and every change, needs an admin (Neutron's ``get_quota`` and
``update_quota`` policies).
"""

from collections.abc import Collection
from collections.abc import Mapping
from urllib.parse import quote

from occli import base
from occli import exceptions
from occli.v2.network import base as neutron

#: Neutron's quota resources, in its order
RESOURCES = (
    "floatingip",
    "network",
    "port",
    "rbac_policy",
    "router",
    "security_group",
    "security_group_rule",
    "subnet",
    "subnetpool",
)
#: the largest limit Neutron stores
MAX_LIMIT = 2**31 - 1


class NetworkQuota(base.Resource):
    """A project's Neutron limits; from ``get(detail=True)`` each limit is
    ``{"limit", "used", "reserved"}``."""


def check_limits(
    limits: Mapping[str, object], known: Collection[str], max_limit: int = MAX_LIMIT
) -> None:
    """``ValidationError`` unless every name is ``known`` and every value an
    integer from -1 to ``max_limit``."""
    if not limits:
        raise exceptions.ValidationError("Give at least one limit to set.")
    for name, value in limits.items():
        if name not in known:
            raise exceptions.ValidationError(
                "Unknown quota %r (known: %s)." % (name, ", ".join(known))
            )
        if isinstance(value, bool) or not isinstance(value, int) or not -1 <= value <= max_limit:
            raise exceptions.ValidationError(
                "{%s} must be an integer from -1 (unlimited) to %d." % (name, max_limit),
                params=(name,),
            )


class NetworkQuotaManager(neutron.NeutronManager):
    """Show, set and revert a project's Neutron limits."""

    resource_class = NetworkQuota
    noun = "network quota"

    def _quota_url(self, project_id: str | None, *parts: str) -> str:
        project = project_id or self.client.session.get_project_id()
        return self._url("quotas", quote(str(project), safe=""), *parts)

    def get(  # type: ignore[override]
        self, project_id: str | None = None, detail: bool = False
    ) -> base.Resource:
        """The project's limits; with ``detail``, each with its usage
        (``{"limit", "used", "reserved"}``)."""
        if detail:
            return self._get(self._quota_url(project_id, "details"), "quota")
        return self._get(self._quota_url(project_id), "quota")

    def defaults(self, project_id: str | None = None) -> base.Resource:
        """The limits a project gets unless some are set for it."""
        return self._get(self._quota_url(project_id, "default"), "quota")

    def check_update(self, **limits: int) -> None:
        """The checks of :meth:`update`, before any request."""
        check_limits(limits, RESOURCES)

    def update(self, project_id: str, force: bool = False, **limits: int) -> base.Resource:
        """Set some of ``project_id``'s limits (admin); Neutron refuses a
        limit below the usage unless ``force``. The answer holds them all."""
        self.check_update(**limits)
        body = dict(limits)
        if force:
            body["force"] = True
        return self._update(self._quota_url(project_id), {"quota": body}, "quota")

    def delete(self, project_id: str) -> base.Result:  # type: ignore[override]
        """Revert ``project_id`` to Neutron's defaults (admin); a Result."""
        if not project_id:
            raise exceptions.ValidationError("Name the project whose quotas to revert.")
        return self._delete(self._quota_url(project_id))
