"""``NetworkService``: Neutron v2.0's HTTP edge at ``/network``.

Neutron's error body ``{"NeutronError": {"type", "message", "detail"}}``
and policy 403 (``error_body``, ``policy_denied``), the tables
(``migrations``) and the seeded networks (``seed``); one module per
resource with ``register(service)`` (``RESOURCES``), list queries in
:mod:`occli.localcloud.network.query`, the rules the package's other
modules.
"""

from occli.localcloud.app import HTTPError
from occli.localcloud.app import Service
from occli.localcloud.network import migrations
from occli.localcloud.network import seed
from occli.localcloud.network.api import address_scopes
from occli.localcloud.network.api import availability_zones
from occli.localcloud.network.api import common
from occli.localcloud.network.api import extensions
from occli.localcloud.network.api import floating_ips
from occli.localcloud.network.api import networks
from occli.localcloud.network.api import ports
from occli.localcloud.network.api import quotas
from occli.localcloud.network.api import routers
from occli.localcloud.network.api import security_groups
from occli.localcloud.network.api import subnet_pools
from occli.localcloud.network.api import subnets
from occli.localcloud.network.api import tags
from occli.localcloud.network.api import versions

# The API modules, each with register(service), in route order.
RESOURCES = (
    versions,
    extensions,
    networks,
    subnets,
    ports,
    security_groups,
    floating_ips,
    routers,
    quotas,
    subnet_pools,
    address_scopes,
    availability_zones,
    tags,
)

# webob's exception class names, neutron's ``type`` for plain HTTP errors
_TYPES = {
    400: "HTTPBadRequest",
    401: "HTTPUnauthorized",
    403: "HTTPForbidden",
    404: "HTTPNotFound",
    405: "HTTPMethodNotAllowed",
    409: "HTTPConflict",
    413: "HTTPRequestEntityTooLarge",
    503: "HTTPServiceUnavailable",
}


class NetworkService(Service):
    """Neutron v2.0 at ``/network`` (catalog type ``network``)."""

    name = "network"
    prefix = "/network"
    write_role = "member"

    def __init__(self, cloud):
        super().__init__(cloud)
        self.add_resources(RESOURCES)

    def migrations(self):
        """One store component per part (``network.core``, …)."""
        return list(migrations.COMPONENTS)

    def seed(self, db):
        owner = demo = None
        if self.cloud.identity is not None:
            owner = self.cloud.identity.project_id(db, "admin")
            demo = self.cloud.identity.project_id(db, "demo")
        if self.cloud.config.seed == "devstack":
            seed.seed_devstack(db, owner, demo)
        else:
            seed.seed(db, owner)

    def error_body(self, status, message, extra):
        if status == 401:
            return {"error": {"code": 401, "title": "Unauthorized", "message": message}}
        kind = extra.get("type") or _TYPES.get(status, "HTTPError")
        return {"NeutronError": {"type": kind, "message": message, "detail": ""}}

    def policy_denied(self, req, route):
        collection = route.pattern[len(common.API) + 1 :].split("/")[0].replace("-", "_")
        member = {"floatingips": "floatingip"}.get(collection, collection.rstrip("s"))
        action = {"POST": "create", "PUT": "update", "DELETE": "delete"}.get(route.method, "get")
        rule = "%s_%s" % (action, member)
        if "/tags" in route.pattern:
            rule += ":tags"  # the tags API's own rules (neutron/extensions/tagging.py)
        if route.pattern.endswith("_router_interface"):
            rule = route.pattern.rsplit("/", 1)[1]  # add_router_interface, remove_…
        return HTTPError(
            403,
            "rule:%s is disallowed by policy" % rule,
            extra={"type": "PolicyNotAuthorized"},
        )

    def not_found(self, req):
        return HTTPError(404, "The resource could not be found.")
