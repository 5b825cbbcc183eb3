"""``ComputeService``: nova's framing around the resource modules.

Microversion negotiation (``before``), the version headers and
``X-Compute-Request-Id`` (``after``), nova's fault bodies (``error_body``),
both URL forms of every route (``Service.api``: with and without
``/{project_id}``, with the version gate), the tables (``migrations``) and the seeded flavors and
hosts (``seed``).
"""

import sqlite3

from occli.localcloud import fault_names
from occli.localcloud.app import HTTPError
from occli.localcloud.app import Service
from occli.localcloud.compute import flavors as flavor_rules
from occli.localcloud.compute import hosts as host_rules
from occli.localcloud.compute import migrations
from occli.localcloud.compute import networks as network_rules
from occli.localcloud.compute.api import aggregates
from occli.localcloud.compute.api import assisted_snapshots
from occli.localcloud.compute.api import common
from occli.localcloud.compute.api import consoles
from occli.localcloud.compute.api import external_events
from occli.localcloud.compute.api import flavors
from occli.localcloud.compute.api import hosts
from occli.localcloud.compute.api import image_proxy
from occli.localcloud.compute.api import instance_actions
from occli.localcloud.compute.api import interfaces
from occli.localcloud.compute.api import keypairs
from occli.localcloud.compute.api import legacy_hosts
from occli.localcloud.compute.api import limits
from occli.localcloud.compute.api import metadata
from occli.localcloud.compute.api import microversions
from occli.localcloud.compute.api import network_actions
from occli.localcloud.compute.api import network_proxies
from occli.localcloud.compute.api import quotas
from occli.localcloud.compute.api import removed
from occli.localcloud.compute.api import server_actions
from occli.localcloud.compute.api import server_extras
from occli.localcloud.compute.api import server_groups
from occli.localcloud.compute.api import server_lifecycle
from occli.localcloud.compute.api import server_moves
from occli.localcloud.compute.api import servers
from occli.localcloud.compute.api import tags
from occli.localcloud.compute.api import tenant_networks
from occli.localcloud.compute.api import usage
from occli.localcloud.compute.api import versions
from occli.localcloud.compute.api import volume_attachments
from occli.localcloud.compute.api import volume_proxies

# The API modules, each with register(service), in route order.
RESOURCES = (
    versions,
    flavors,
    hosts,
    keypairs,
    servers,
    server_actions,
    server_lifecycle,
    server_moves,
    consoles,
    server_extras,
    metadata,
    tags,
    server_groups,
    limits,
    aggregates,
    quotas,
    usage,
    instance_actions,
    volume_attachments,
    volume_proxies,
    interfaces,
    network_proxies,
    external_events,
    assisted_snapshots,
    tenant_networks,
    legacy_hosts,
    image_proxy,
    removed,
)


# webob's HTTPNotFound as JSON: what nova's router answers for a path (or
# method) it has no route for
ROUTING_404 = "The resource could not be found.<br /><br />\n\n\n"


def _content_type(resp):
    """Nova's faults (``{name: {code, message}}``) are webob's JSON with a
    charset and its empty 204 answers still say JSON; a 401 comes from
    keystonemiddleware and an unrouted 404 from webob (no charset)."""
    if resp.status == 204:
        resp.headers["Content-Type"] = "application/json"
    elif (
        resp.status >= 400
        and isinstance(resp.body, dict)
        and len(resp.body) == 1
        and next(iter(resp.body)) in (*fault_names.NOVA_FAULT_NAMES.values(), fault_names.DEFAULT)
        and resp.status != 401
        and resp.content_type == "application/json"
    ):
        resp.content_type = "application/json; charset=UTF-8"


# nova's policy rules of the member-only routes and server actions
_ACTION_RULES = {
    "os-start": "servers:start",
    "os-stop": "servers:stop",
    "reboot": "servers:reboot",
    "rebuild": "servers:rebuild",
    "resize": "servers:resize",
    "confirmResize": "servers:confirm_resize",
    "revertResize": "servers:revert_resize",
    "createImage": "servers:create_image",
    "pause": "os-pause-server:pause",
    "unpause": "os-pause-server:unpause",
    "suspend": "os-suspend-server:suspend",
    "resume": "os-suspend-server:resume",
    "lock": "os-lock-server:lock",
    "unlock": "os-lock-server:unlock",
    "os-getConsoleOutput": "os-console-output",
    "createBackup": "os-create-backup",
    "os-getVNCConsole": "os-remote-consoles",
    "os-getSPICEConsole": "os-remote-consoles",
    "os-getSerialConsole": "os-remote-consoles",
    "os-getRDPConsole": "os-remote-consoles",
    "injectNetworkInfo": "os-admin-actions:inject_network_info",
    "restore": "os-deferred-delete:restore",
    "forceDelete": "os-deferred-delete:force",
    "changePassword": "os-admin-password",
    "shelve": "os-shelve:shelve",
    "shelveOffload": "os-shelve:shelve_offload",
    "unshelve": "os-shelve:unshelve",
    "rescue": "os-rescue",
    "unrescue": "os-unrescue",
    "os-resetState": "os-admin-actions:reset_state",
    "migrate": "os-migrate-server:migrate",
    "os-migrateLive": "os-migrate-server:migrate_live",
    "evacuate": "os-evacuate",
    **network_actions.POLICY_RULES,
}
_METADATA_RULES = {
    ("POST", False): "create",
    ("PUT", False): "update_all",
    ("PUT", True): "update",
    ("DELETE", True): "delete",
}


_TAG_RULES = {
    ("PUT", False): "update_all",
    ("PUT", True): "update",
    ("DELETE", False): "delete_all",
    ("DELETE", True): "delete",
}


def policy_rule(req, route):
    """The nova policy rule guarding ``route`` (as nova names it)."""
    pattern = route.pattern.replace("/{project_id}", "", 1)
    if pattern.endswith("/action"):
        body = req.json(required=False)
        action = next(iter(body), "") if isinstance(body, dict) else ""
        rule = _ACTION_RULES.get(action, "servers:%s" % action)
    elif "/os-interface" in pattern:
        rule = "os-attach-interfaces:" + ("create" if route.method == "POST" else "delete")
    elif network_proxies.policy_rule(route.method, pattern):
        rule = network_proxies.policy_rule(route.method, pattern)
    elif pattern.endswith("/remote-consoles"):
        rule = "os-remote-consoles"
    elif pattern.endswith("/os-server-password"):
        rule = "os-server-password:clear"
    elif "/os-volume_attachments" in pattern:
        rule = "os-volumes-attachments:" + {"POST": "create", "PUT": "update"}.get(
            route.method, "delete"
        )
    elif "/os-server-groups" in pattern:
        rule = "os-server-groups:" + ("create" if route.method == "POST" else "delete")
    elif "/tags" in pattern:
        key = (route.method, pattern.endswith("{tag}"))
        rule = "os-server-tags:" + _TAG_RULES.get(key, "index")
    elif "/metadata" in pattern:
        rule = "server-metadata:" + _METADATA_RULES.get(
            (route.method, pattern.endswith("{key}")), "create"
        )
    else:
        rule = "servers:" + {"POST": "create", "PUT": "update"}.get(route.method, "delete")
    return "os_compute_api:" + rule


class ComputeService(Service):
    """Nova's API v2.1 at ``/compute``."""

    name = "compute"
    prefix = "/compute"
    # services a cloud with compute mounts too (nova's ports are neutron's)
    requires = ("network",)
    write_role = "member"
    # service.api(...) routes /v2.1<pattern> and /v2.1/{project_id}<pattern>
    api_prefix = common.API_PREFIX

    def __init__(self, cloud):
        super().__init__(cloud)
        self.add_resources(RESOURCES)

    def api_handler(self, method, pattern, handler):
        """Nova's instance actions, recorded for every route acting on a
        server."""
        return instance_actions.recording(method, pattern, handler)

    def not_found(self, req):
        """No route. Under an API nova's router answers webob's plain 404
        (not a fault), but keystonemiddleware answers first: without a valid
        token that is its 401. Elsewhere nova's root versions app answers
        300 with the choices."""
        sub = req.path[len(self.prefix) :]
        if not any(sub == api or sub.startswith(api + "/") for api in (common.API_PREFIX, "/v2")):
            # outside the APIs nova's root versions app answers every path
            return HTTPError(300, "", extra={"choices": versions.choices(req, sub.rstrip("/"))})
        with self.cloud.store.read() as db:
            req.db = db
            try:
                self.cloud.authenticate(req)
            finally:
                req.db = None
        return HTTPError(404, ROUTING_404, extra={"routing": True})

    def method_not_allowed(self, req):
        """Nova's routes are per method: a known path with another method
        is just unrouted (404), never 405."""
        return self.not_found(req)

    def policy_denied(self, req, route):
        """Nova's 403 naming the policy rule the caller's roles fail."""
        return HTTPError(403, "Policy doesn't allow %s to be performed." % policy_rule(req, route))

    def migrations(self):
        """One store component per part (``compute.flavors``, …)."""
        return list(migrations.COMPONENTS)

    def seed(self, db):
        flavor_rules.seed(db, self.cloud.config.seed)
        host_rules.seed(db, self.cloud.config.compute_hosts)
        network_rules.adopt_legacy(db)

    def network_changed(self, db: sqlite3.Connection, server_ids: list[str]) -> None:
        """Neutron changed these servers' ports: refresh their cache."""
        network_rules.refresh(db, server_ids)

    def before(self, req):
        sub = req.path[len(self.prefix) :].rstrip("/")
        if sub != common.API_PREFIX and not sub.startswith(common.API_PREFIX + "/"):
            return
        if sub != common.API_PREFIX and req.path.endswith("/"):
            # nova's routes take no trailing slash: "/os-volumes/" is
            # unrouted (tests/fixtures/compute/realcloud/nova-34-empty-ids.json)
            raise HTTPError(404, ROUTING_404, extra={"routing": True})
        req.microversion = microversions.negotiate(microversions.requested(req.header))
        project_id = req.params.get("project_id")
        if project_id is None:
            return
        if not common.valid_project_segment(project_id):
            raise common.not_found()
        if req.context is not None and project_id != req.context.project_id:
            raise common.bad_request(
                "Malformed request URL: URL's project_id '%s' doesn't match "
                "Context's project_id '%s'" % (project_id, req.context.project_id)
            )

    def after(self, req, resp):
        if req.path.rstrip("/") == self.prefix or resp.status == 300:
            # nova 34: the root version document and the choices of its
            # root versions app (served outside the API pipeline) have no
            # request id header at all
            resp.headers["x-openstack-request-id"] = None
            return
        resp.headers["X-Compute-Request-Id"] = req.request_id
        if req.microversion is not None:
            resp.headers.update(microversions.response_headers(req.microversion))
        _content_type(resp)

    def error_body(self, status, message, extra):
        if status == 401:
            return {"error": {"code": 401, "title": "Unauthorized", "message": message}}
        if "choices" in extra:
            return extra["choices"]
        if extra.get("routing"):
            return {"message": message, "code": "404 Not Found", "title": "Not Found"}
        body = {"code": status, "message": message}
        if status in (413, 429) and "retryAfter" in extra:
            body["retryAfter"] = extra["retryAfter"]
        return {fault_names.fault_name(status, fault_names.NOVA_FAULT_NAMES): body}
