"""Nova's removed APIs: the routes nova 34 keeps for APIs it removed
(nova/api/openstack/compute/routes.py), whose controllers raise
``HTTPGone`` under ``@wsgi.removed`` (agents, cells, certificates,
cloudpipe, fixed_ips, floating_ip_dns, floating_ips_bulk, fping,
networks' writes and networks_associate, security_group_default_rules,
consoles, virtual_interfaces).

410 for every caller at every microversion, after the token
(keystonemiddleware's 401) and before any policy, nothing stored. What
nova's ``wsgi.Resource`` does first is kept: a POST or PUT body must be
JSON (``Malformed request body``, 400; an empty one is none), and an
``/action`` route picks its controller method by ``action_peek`` (one
key, one of the controller's actions). As recorded in
tests/fixtures/compute/realcloud/nova-34-removed.json."""

from occli.localcloud.app import HTTPError
from occli.localcloud.compute.api import common

# webob's HTTPGone explanation, nova's @wsgi.removed answer
GONE = "This resource is no longer available. No forwarding address is given."

# (method, pattern) of each removed controller's routes
ROUTES = (
    ("GET", "/os-agents"),
    ("POST", "/os-agents"),
    ("PUT", "/os-agents/{agent_id}"),
    ("DELETE", "/os-agents/{agent_id}"),
    ("GET", "/os-cells"),
    ("POST", "/os-cells"),
    ("GET", "/os-cells/capacities"),
    ("GET", "/os-cells/detail"),
    ("GET", "/os-cells/info"),
    ("POST", "/os-cells/sync_instances"),
    ("GET", "/os-cells/{cell_id}"),
    ("PUT", "/os-cells/{cell_id}"),
    ("DELETE", "/os-cells/{cell_id}"),
    ("GET", "/os-cells/{cell_id}/capacities"),
    ("POST", "/os-certificates"),
    ("GET", "/os-certificates/{certificate_id}"),
    ("GET", "/os-cloudpipe"),
    ("POST", "/os-cloudpipe"),
    ("PUT", "/os-cloudpipe/{cloudpipe_id}"),
    ("GET", "/os-fixed-ips/{fixed_ip}"),
    ("GET", "/os-floating-ip-dns"),
    ("PUT", "/os-floating-ip-dns/{domain_id}"),
    ("DELETE", "/os-floating-ip-dns/{domain_id}"),
    ("GET", "/os-floating-ip-dns/{domain_id}/entries/{entry_id}"),
    ("PUT", "/os-floating-ip-dns/{domain_id}/entries/{entry_id}"),
    ("DELETE", "/os-floating-ip-dns/{domain_id}/entries/{entry_id}"),
    ("GET", "/os-floating-ips-bulk"),
    ("POST", "/os-floating-ips-bulk"),
    ("GET", "/os-floating-ips-bulk/{bulk_id}"),
    ("PUT", "/os-floating-ips-bulk/{bulk_id}"),
    ("GET", "/os-fping"),
    ("GET", "/os-fping/{fping_id}"),
    ("POST", "/os-networks"),
    ("POST", "/os-networks/add"),
    ("DELETE", "/os-networks/{network_id}"),
    ("GET", "/os-security-group-default-rules"),
    ("POST", "/os-security-group-default-rules"),
    ("GET", "/os-security-group-default-rules/{rule_id}"),
    ("DELETE", "/os-security-group-default-rules/{rule_id}"),
    ("GET", "/servers/{server_id}/consoles"),
    ("POST", "/servers/{server_id}/consoles"),
    ("GET", "/servers/{server_id}/consoles/{console_id}"),
    ("DELETE", "/servers/{server_id}/consoles/{console_id}"),
    ("GET", "/servers/{server_id}/os-virtual-interfaces"),
)
# the removed ``/action`` routes: pattern → the controllers' @wsgi.action names
ACTIONS = {
    "/os-fixed-ips/{fixed_ip}/action": ("reserve", "unreserve"),
    "/os-networks/{network_id}/action": (
        "disassociate",
        "disassociate_host",
        "disassociate_project",
        "associate_host",
    ),
}
MALFORMED = "Malformed request body"


def register(service):
    # gone for every caller: no role first, nothing stored
    for method, pattern in ROUTES:
        service.api(method, pattern, gone, role=None, mode="read")
    for pattern, names in ACTIONS.items():
        service.api("POST", pattern, action_gone(names), role=None, mode="read")


def gone(req):
    """``HTTPGone``, once a POST or PUT body is JSON (nova's wsgi reads
    the body of those two methods only; an empty one is none)."""
    if req.method in ("POST", "PUT"):
        _parsed(req)
    raise HTTPError(410, GONE)


def action_gone(names: tuple[str, ...]):
    """The handler of a removed ``/action`` route whose actions are
    ``names``: ``HTTPGone`` after nova's ``action_peek``."""

    def gone_action(req):
        """A body that is not JSON (an empty one too) or has not exactly
        one key is malformed; one without keys (``len``: a number, null;
        ``keys``: a list, a string) routes to nothing (404); a key not
        in ``names`` is no such action."""
        if not req.body:
            raise common.bad_request(MALFORMED)
        body = _parsed(req)
        if not isinstance(body, (dict, list, str)):
            raise common.not_found()
        if len(body) != 1:
            raise common.bad_request(MALFORMED)
        if not isinstance(body, dict):
            raise common.not_found()
        (action,) = body
        if action not in names:
            raise common.bad_request("There is no such action: %s" % action)
        raise HTTPError(410, GONE)

    return gone_action


def _parsed(req):
    """The body as nova's ``JSONDeserializer`` reads it (None when empty)."""
    try:
        return req.json(required=False)
    except HTTPError:
        raise common.bad_request(MALFORMED) from None
