"""Neutron v2.0's HTTP edge at ``/network``: version documents, the
routes of networks, subnets, ports, security groups and their rules and
floating IPs, list queries (:mod:`.query`), neutron's error body
``{"NeutronError": {"type", "message", "detail"}}``. The rules are the
package's other modules."""

from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.app import Service
from occli.localcloud.network import floating_ips
from occli.localcloud.network import migrations
from occli.localcloud.network import networks
from occli.localcloud.network import ports
from occli.localcloud.network import query
from occli.localcloud.network import quotas
from occli.localcloud.network import security_groups
from occli.localcloud.network import seed
from occli.localcloud.network import subnets

API = "/v2.0"

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

# the extensions this emulation implements (GET /v2.0/extensions)
EXTENSIONS = (
    ("external-net", "Neutron external network", "Adds external network attribute"),
    ("security-group", "security-group", "The security groups extension."),
    ("standard-attr-description", "standard-attr-description", "Extension to add descriptions"),
    (
        "standard-attr-revisions",
        "Resource revision numbers",
        "This extension will display the revision number of neutron resources.",
    ),
    (
        "standard-attr-timestamp",
        "Resource timestamps",
        "Adds created_at and updated_at fields "
        "to all Neutron resources that have Neutron standard attributes.",
    ),
    (
        "project-id",
        "project_id field enabled",
        "Extension that indicates that project_id field is enabled.",
    ),
    ("binding", "Port Binding", "Expose port bindings of a virtual port to external application"),
    ("port-security", "Port Security", "Provides port security"),
    (
        "filter-validation",
        "Filter parameters validation",
        "Provides validation on filter parameters.",
    ),
    (
        "empty-string-filtering",
        "Empty String Filtering Extension",
        "Allow filtering by attributes with empty string value",
    ),
    (
        "fip-port-details",
        "Floating IP Port Details Extension",
        "Add port_details attribute to Floating IP resource",
    ),
)


class _Resource:
    """One collection: its names and the rules module's functions."""

    def __init__(
        self,
        member,
        collection,
        module,
        attributes,
        sort_keys,
        *,
        not_found,
        listing=None,
        show=None,
        create=None,
        update=None,
        delete=None,
    ):
        self.member = member
        self.collection = collection
        self.attributes = attributes
        self.sort_keys = sort_keys
        self.not_found = not_found
        self.listing = listing or module.listing
        self.show = show or module.show
        self.create = create or module.create
        self.update = update if update is not None else getattr(module, "update", None)
        self.delete = delete or module.delete


RESOURCES = (
    _Resource(
        "network",
        "networks",
        networks,
        networks.ATTRIBUTES,
        networks.SORT_KEYS,
        not_found=networks.not_found,
    ),
    _Resource(
        "subnet",
        "subnets",
        subnets,
        subnets.ATTRIBUTES,
        subnets.SORT_KEYS,
        not_found=subnets.not_found,
    ),
    _Resource(
        "port", "ports", ports, ports.ATTRIBUTES, ports.SORT_KEYS, not_found=ports.not_found
    ),
    _Resource(
        "security_group",
        "security-groups",
        security_groups,
        security_groups.GROUP_ATTRIBUTES,
        security_groups.GROUP_SORT_KEYS,
        not_found=security_groups.not_found,
    ),
    _Resource(
        "security_group_rule",
        "security-group-rules",
        security_groups,
        security_groups.RULE_ATTRIBUTES,
        security_groups.RULE_SORT_KEYS,
        not_found=security_groups.rule_not_found,
        listing=security_groups.rule_listing,
        show=security_groups.show_rule,
        create=security_groups.create_rule,
        update=False,
        delete=security_groups.delete_rule,
    ),
    _Resource(
        "floatingip",
        "floatingips",
        floating_ips,
        floating_ips.ATTRIBUTES,
        floating_ips.SORT_KEYS,
        not_found=floating_ips.not_found,
    ),
)
# collections whose list makes the caller's ``default`` group (a write)
_LIST_WRITES = ("security-groups", "security-group-rules")


class NetworkService(Service):
    """Neutron v2.0 at ``/network`` (catalog type ``network``)."""

    name = "network"
    prefix = "/network"
    write_role = "member"

    def __init__(self, cloud):
        super().__init__(cloud)
        self.route("GET", "/", self.versions, auth=False)
        self.route("GET", API, self.version)
        self.route("GET", API + "/extensions", self.extensions)
        for resource in RESOURCES:
            self._register(resource)
        quota = API + "/quotas/{quota_project_id}"
        self.route("GET", API + "/quotas", self.list_quotas)
        self.route("GET", quota, self.show_quota)
        self.route("GET", quota + "/details", self.quota_details)
        self.route("GET", quota + "/default", self.default_quota)
        # the admin check is the rules' (neutron's update_quota policy)
        self.route("PUT", quota, self.update_quota, role=None)
        self.route("DELETE", quota, self.delete_quota, role=None)

    def _register(self, res):
        base = API + "/" + res.collection
        item = base + "/{%s_id}" % res.member
        mode = "write" if res.collection in _LIST_WRITES else "auto"
        self.route("GET", base, lambda req: self.list(req, res), mode=mode)
        self.route("POST", base, lambda req: self.create(req, res))
        self.route("GET", item, lambda req: self.show(req, res))
        if res.update:
            self.route("PUT", item, lambda req: self.update(req, res))
        self.route("DELETE", item, lambda req: self.delete(req, res))

    def migrations(self):
        """One store component per part (``network.core``, …)."""
        return list(migrations.COMPONENTS)

    def seed(self, db):
        owner = None
        if self.cloud.identity is not None:
            owner = self.cloud.identity.project_id(db, "admin")
        seed.seed(db, owner)

    # -- framing --------------------------------------------------------------------

    def error_body(self, status, message, extra):
        if status == 401:
            return {"error": {"code": 401, "title": "Unauthorized", "message": message}}
        kind = extra.get("type") or _TYPES.get(status, "HTTPError")
        return {"NeutronError": {"type": kind, "message": message, "detail": ""}}

    def policy_denied(self, req, route):
        collection = route.pattern[len(API) + 1 :].split("/")[0].replace("-", "_")
        member = {"floatingips": "floatingip"}.get(collection, collection.rstrip("s"))
        action = {"POST": "create", "PUT": "update", "DELETE": "delete"}.get(route.method, "get")
        return HTTPError(
            403,
            "rule:%s_%s is disallowed by policy" % (action, member),
            extra={"type": "PolicyNotAuthorized"},
        )

    def not_found(self, req):
        return HTTPError(404, "The resource could not be found.")

    # -- version documents and extensions ---------------------------------------------

    def versions(self, req):
        return {
            "versions": [
                {
                    "id": "v2.0",
                    "status": "CURRENT",
                    "links": [{"rel": "self", "href": req.base_url + self.prefix + API + "/"}],
                }
            ]
        }

    def version(self, req):
        base = req.base_url + self.prefix + API + "/"
        return {
            "resources": [
                {
                    "name": res.member,
                    "collection": res.collection,
                    "links": [{"rel": "self", "href": base + res.collection}],
                }
                for res in RESOURCES
            ]
        }

    def extensions(self, req):
        return {
            "extensions": [
                {
                    "alias": alias,
                    "name": name,
                    "description": description,
                    "links": [],
                    "updated": "2013-01-01T10:00:00-00:00",
                }
                for alias, name, description in EXTENSIONS
            ]
        }

    # -- collections ----------------------------------------------------------------

    def list(self, req, res):
        listing = query.Listing(req.query, res.attributes, res.sort_keys)
        page = listing.apply(res.listing(req.db, req.context), res.not_found)
        body = {res.collection.replace("-", "_"): [listing.select(i) for i in page]}
        links = listing.links(req.base_url + req.path, page)
        if links is not None:
            body[res.collection.replace("-", "_") + "_links"] = links
        return body

    def show(self, req, res):
        """One resource; ``fields=`` selects attributes as on a list."""
        found = res.show(req.db, req.context, _ident(req, res))
        fields = [f for f in req.query.get("fields", []) if f]
        if fields:
            found = {k: v for k, v in found.items() if k in fields}
        return {res.member: found}

    def create(self, req, res):
        created = res.create(req.db, req.context, req.json())
        self._notify(req, _devices(req.db, res, created))
        return Response(201, {res.member: created})

    def update(self, req, res):
        before = _devices(req.db, res, {"id": _ident(req, res)})
        updated = res.update(req.db, req.context, _ident(req, res), req.json())
        self._notify(req, before | _devices(req.db, res, updated))
        return {res.member: updated}

    def delete(self, req, res):
        before = _devices(req.db, res, {"id": _ident(req, res)})
        res.delete(req.db, req.context, _ident(req, res))
        self._notify(req, before)
        return Response(204)

    # -- quotas ------------------------------------------------------------------------

    def list_quotas(self, req):
        return {"quotas": quotas.listing(req.db, req.context)}

    def show_quota(self, req):
        return {"quota": quotas.show(req.db, req.context, req.params["quota_project_id"])}

    def quota_details(self, req):
        return {"quota": quotas.details(req.db, req.context, req.params["quota_project_id"])}

    def default_quota(self, req):
        return {"quota": quotas.defaults(req.db, req.context, req.params["quota_project_id"])}

    def update_quota(self, req):
        project_id = req.params["quota_project_id"]
        return {"quota": quotas.update(req.db, req.context, project_id, req.json())}

    def delete_quota(self, req):
        quotas.delete(req.db, req.context, req.params["quota_project_id"])
        return Response(204)

    def _notify(self, req, server_ids):
        """Tell compute which servers' ports changed (neutron's nova
        notifier: nova refreshes its network info cache)."""
        compute = self.cloud.compute
        if server_ids and compute is not None and hasattr(compute, "network_changed"):
            compute.network_changed(req.db, sorted(server_ids))


def _ident(req, res):
    return req.params[res.member + "_id"]


def _devices(db, res, item):
    """The servers (``compute:`` ports' device ids) a change of ``item``
    touches: a port's own, a floating IP's port's."""
    if res.collection == "ports":
        port_ids = [item.get("id")]
    elif res.collection == "floatingips":
        found = floating_ips.row(db, item.get("id"))
        port_ids = [found["port_id"]] if found is not None and found["port_id"] else []
    else:
        return set()
    devices = set()
    for port_id in port_ids:
        port = ports.row(db, port_id)
        if port is not None and port["device_owner"].startswith("compute:"):
            devices.add(port["device_id"])
    return devices
