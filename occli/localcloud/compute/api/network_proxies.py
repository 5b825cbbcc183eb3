"""Nova's deprecated proxies to Neutron, served up to 2.35 (nova removed
them at 2.36: a bare 404 after): ``os-floating-ip-pools``,
``os-floating-ips``, ``os-security-groups``, ``os-security-group-rules``
and ``os-networks`` (GET). Each answers in nova's old shapes over the
local Neutron's rules, as the caller (a project sees its own floating IPs
and groups). ``/servers/{id}/os-security-groups`` is no proxy of those:
nova serves it at every microversion (its ServerSecurityGroupController
has no version bound)."""

import ipaddress

from occli.localcloud import errors
from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.compute import networks
from occli.localcloud.compute.api import common
from occli.localcloud.compute.api import schemas
from occli.localcloud.compute.api.servers import load
from occli.localcloud.network import interface as neutron

MAX_VERSION = "2.35"
# nova's [neutron] default_floating_pool here
DEFAULT_POOL = "public"

_GROUP_BODY = {
    "type": "object",
    "properties": {
        "security_group": {
            "type": "object",
            "properties": {
                "name": {"type": "string", "minLength": 1, "maxLength": 255},
                "description": {"type": "string", "maxLength": 255},
            },
            "required": ["name", "description"],
        }
    },
    "required": ["security_group"],
}
_RULE_BODY = {
    "type": "object",
    "properties": {
        "security_group_rule": {
            "type": "object",
            "properties": {
                "parent_group_id": {"type": "string"},
                "ip_protocol": {"type": ["string", "null"]},
                "from_port": {"type": ["integer", "string", "null"]},
                "to_port": {"type": ["integer", "string", "null"]},
                "cidr": {"type": ["string", "null"]},
                "group_id": {"type": ["string", "null"]},
            },
            "required": ["parent_group_id"],
        }
    },
    "required": ["security_group_rule"],
}
_POOL_BODY = {
    "type": ["object", "null"],
    "properties": {"pool": {"type": ["string", "null"]}},
}

# (method, pattern) → nova's policy rule (os_compute_api:…)
POLICY_RULES = {
    ("POST", "/os-floating-ips"): "os-floating-ips:create",
    ("DELETE", "/os-floating-ips/{floating_ip_id}"): "os-floating-ips:delete",
    ("POST", "/os-security-groups"): "os-security-groups:create",
    ("PUT", "/os-security-groups/{group_id}"): "os-security-groups:update",
    ("DELETE", "/os-security-groups/{group_id}"): "os-security-groups:delete",
    ("POST", "/os-security-group-rules"): "os-security-groups:rule:create",
    ("DELETE", "/os-security-group-rules/{rule_id}"): "os-security-groups:rule:delete",
}


def policy_rule(method, pattern):
    """Nova's rule for a proxy route (``pattern`` without the API prefix
    and project segment), or None."""
    return POLICY_RULES.get((method, pattern.replace(common.API_PREFIX, "", 1)))


def _member_only(handler, rule):
    """``handler`` checking nova's member policy ``rule`` itself, after
    the version gate (nova answers 404 for a gone route before its policy)."""

    def checked(req):
        if not ("member" in req.context.roles or req.context.is_admin):
            raise HTTPError(403, "Policy doesn't allow os_compute_api:%s to be performed." % rule)
        return handler(req)

    checked.__name__ = handler.__name__
    return checked


def register(service):
    def api(method, pattern, handler):
        rule = POLICY_RULES.get((method, pattern))
        if rule is not None:
            handler = _member_only(handler, rule)
        service.api(method, pattern, handler, max_version=MAX_VERSION, role=None)

    api("GET", "/os-floating-ip-pools", list_pools)
    api("GET", "/os-floating-ips", list_floating_ips)
    api("POST", "/os-floating-ips", create_floating_ip)
    api("GET", "/os-floating-ips/{floating_ip_id}", show_floating_ip)
    api("DELETE", "/os-floating-ips/{floating_ip_id}", delete_floating_ip)
    api("GET", "/os-security-groups", list_groups)
    api("POST", "/os-security-groups", create_group)
    api("GET", "/os-security-groups/{group_id}", show_group)
    api("PUT", "/os-security-groups/{group_id}", update_group)
    api("DELETE", "/os-security-groups/{group_id}", delete_group)
    api("POST", "/os-security-group-rules", create_rule)
    api("DELETE", "/os-security-group-rules/{rule_id}", delete_rule)
    service.api("GET", "/servers/{server_id}/os-security-groups", server_groups)
    api("GET", "/os-networks", list_networks)
    api("GET", "/os-networks/{network_id}", show_network)


# -- floating IPs ----------------------------------------------------------------------


def list_pools(req):
    pools = [n["name"] for n in neutron.listing(req.db, req.context) if n["router:external"]]
    return Response(200, {"floating_ip_pools": [{"name": name} for name in pools]})


def _fip_view(db, fip):
    network = neutron.networks_row(db, fip["floating_network_id"])
    port = neutron.ports_row(db, fip["port_id"]) if fip["port_id"] else None
    return {
        "id": fip["id"],
        "ip": fip["floating_ip_address"],
        "pool": network["name"] if network is not None else None,
        "fixed_ip": fip["fixed_ip_address"],
        "instance_id": port["device_id"] if port is not None and port["device_id"] else None,
    }


def list_floating_ips(req):
    rows = neutron.floating_ips_of_project(req.db, req.context.project_id)
    return Response(200, {"floating_ips": [_fip_view(req.db, f) for f in rows]})


def _fip(req):
    fip_id = req.params["floating_ip_id"]
    found = neutron.floating_ips_row(req.db, fip_id)
    if found is None or found["project_id"] != req.context.project_id:
        raise HTTPError(404, "Floating IP not found for ID %s" % fip_id)
    return found


def show_floating_ip(req):
    return Response(200, {"floating_ip": _fip_view(req.db, _fip(req))})


def create_floating_ip(req):
    body = schemas.validate(_POOL_BODY, req.json(required=False))
    pool = (body or {}).get("pool") or DEFAULT_POOL
    network = neutron.external(req.db, pool)
    if network is None:
        raise HTTPError(404, "Floating IP pool not found.")
    try:
        fip_id = neutron.allocate(req.db, req.context, network, req.context.project_id, {})
    except errors.Conflict as exc:
        if exc.extra.get("type") == "OverQuota":
            raise HTTPError(403, "IP allocation over quota in pool %s." % pool) from None
        raise HTTPError(404, "No more floating IPs in pool %s." % pool) from None
    return Response(
        200, {"floating_ip": _fip_view(req.db, neutron.floating_ips_row(req.db, fip_id))}
    )


def delete_floating_ip(req):
    fip = _fip(req)
    port = neutron.ports_row(req.db, fip["port_id"]) if fip["port_id"] else None
    neutron.floating_ips_delete(req.db, req.context, fip["id"])
    if port is not None and port["device_owner"].startswith("compute:"):
        req.cloud.compute.network_changed(req.db, [port["device_id"]])
    return Response(202)


# -- security groups -------------------------------------------------------------------


def _rule_view(db, rule):
    group = {}
    if rule["remote_group_id"]:
        remote = neutron.security_groups_row(db, rule["remote_group_id"])
        if remote is not None:
            group = {"name": remote["name"], "tenant_id": remote["project_id"]}
    return {
        "id": rule["id"],
        "parent_group_id": rule["security_group_id"],
        "ip_protocol": rule["protocol"],
        "from_port": -1 if rule["port_range_min"] is None else rule["port_range_min"],
        "to_port": -1 if rule["port_range_max"] is None else rule["port_range_max"],
        "group": group,
        "ip_range": {} if group else {"cidr": rule["remote_ip_prefix"] or "0.0.0.0/0"},
    }


def _group_view(db, group):
    rules = neutron.ingress_rules(db, group["id"])
    return {
        "id": group["id"],
        "name": group["name"],
        "description": group["description"],
        "tenant_id": group["project_id"],
        "rules": [_rule_view(db, r) for r in rules],
    }


def _group(req, group_id):
    if not neutron.is_uuid(group_id):
        raise HTTPError(400, "Security group id should be uuid")
    found = neutron.security_groups_row(req.db, group_id)
    if found is None or found["project_id"] != req.context.project_id:
        raise HTTPError(404, "Security group %s does not exist" % group_id)
    return found


def list_groups(req):
    """Nova's ``security_group_api.list``: an admin's ``all_tenants`` (any
    value) asks Neutron for every project's groups."""
    every = req.context.is_admin and "all_tenants" in req.query
    rows = neutron.security_groups_of_project(req.db, None if every else req.context.project_id)
    return Response(200, {"security_groups": [_group_view(req.db, g) for g in rows]})


def show_group(req):
    return Response(
        200, {"security_group": _group_view(req.db, _group(req, req.params["group_id"]))}
    )


def _neutron_call(call):
    """A Neutron refusal as nova's proxy answers it (its 409s are 400s)."""
    try:
        return call()
    except errors.Conflict as exc:
        raise HTTPError(400, exc.message) from None


def create_group(req):
    body = schemas.validate(_GROUP_BODY, req.json())["security_group"]
    created = _neutron_call(
        lambda: neutron.create(
            req.db,
            req.context,
            {"security_group": {"name": body["name"], "description": body["description"]}},
        )
    )
    return Response(200, {"security_group": _group_view(req.db, _group(req, created["id"]))})


def update_group(req):
    body = schemas.validate(_GROUP_BODY, req.json())["security_group"]
    group = _group(req, req.params["group_id"])
    _neutron_call(
        lambda: neutron.update(
            req.db,
            req.context,
            group["id"],
            {"security_group": {"name": body["name"], "description": body["description"]}},
        )
    )
    return Response(200, {"security_group": _group_view(req.db, _group(req, group["id"]))})


def delete_group(req):
    group = _group(req, req.params["group_id"])
    _neutron_call(lambda: neutron.security_groups_delete(req.db, req.context, group["id"]))
    return Response(202)


def _port(value, name):
    if value is None or value == "":
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        raise HTTPError(400, "Invalid input received: %s is not an integer." % name) from None


def create_rule(req):
    body = schemas.validate(_RULE_BODY, req.json())["security_group_rule"]
    parent = _group(req, body["parent_group_id"])
    protocol = body.get("ip_protocol")
    low, high = _port(body.get("from_port"), "from_port"), _port(body.get("to_port"), "to_port")
    if protocol and protocol.lower() == "icmp" and low == -1 and high == -1:
        low = high = None
    cidr = body.get("cidr")
    remote = body.get("group_id")
    if remote:
        _group(req, remote)
    ethertype = "IPv4"
    if cidr:
        try:
            ethertype = "IPv%d" % ipaddress.ip_network(cidr, strict=False).version
        except ValueError:
            raise HTTPError(400, "%s is not a valid IP network." % cidr) from None
    values = {
        "security_group_id": parent["id"],
        "direction": "ingress",
        "ethertype": ethertype,
        "protocol": protocol.lower() if protocol else None,
        "port_range_min": low,
        "port_range_max": high,
        "remote_ip_prefix": None if remote else (cidr or "0.0.0.0/0"),
        "remote_group_id": remote or None,
    }
    try:
        created = neutron.create_rule(req.db, req.context, {"security_group_rule": values})
    except errors.Conflict:
        raise HTTPError(400, "This rule already exists in group %s" % parent["id"]) from None
    except errors.Error as exc:
        raise HTTPError(400, exc.message) from None
    rule = neutron.rule_row(req.db, created["id"])
    return Response(200, {"security_group_rule": _rule_view(req.db, rule)})


def delete_rule(req):
    rule_id = req.params["rule_id"]
    if not neutron.is_uuid(rule_id):
        raise HTTPError(400, "Security group id should be uuid")
    found = neutron.rule_row(req.db, rule_id)
    if found is None or found["project_id"] != req.context.project_id:
        raise HTTPError(404, "Security group rule %s does not exist" % rule_id)
    neutron.delete_rule(req.db, req.context, rule_id)
    return Response(202)


def server_groups(req):
    server = load(req)
    ids = []
    for port in networks.ports_of(req.db, server):
        ids += neutron.group_ids(req.db, port["id"])
    groups = [neutron.security_groups_row(req.db, g) for g in dict.fromkeys(ids)]
    views = [_group_view(req.db, g) for g in groups if g is not None]
    # nova sorts them by (tenant_id, name)
    return Response(
        200, {"security_groups": sorted(views, key=lambda g: (g["tenant_id"], g["name"]))}
    )


# -- networks ----------------------------------------------------------------------------

_NETWORK_FIELDS = (
    "bridge", "bridge_interface", "broadcast", "cidr", "cidr_v6", "created_at", "deleted",
    "deleted_at", "dhcp_server", "dhcp_start", "dns1", "dns2", "enable_dhcp", "gateway",
    "gateway_v6", "host", "injected", "mtu", "multi_host", "netmask", "netmask_v6",
    "priority", "project_id", "rxtx_base", "share_address", "updated_at", "vlan",
    "vpn_private_address", "vpn_public_address", "vpn_public_port",
)  # fmt: skip


def _network_view(network):
    body = dict.fromkeys(_NETWORK_FIELDS)
    body.update({"id": network["id"], "label": network["name"]})
    return body


def list_networks(req):
    return Response(
        200,
        {"networks": [_network_view(n) for n in neutron.listing(req.db, req.context)]},
    )


def show_network(req):
    network_id = req.params["network_id"]
    found = neutron.networks_row(req.db, network_id)
    if found is None or not neutron.networks_visible(req.context, found):
        raise HTTPError(404, "Network not found")
    return Response(200, {"network": _network_view(neutron.view(req.db, found))})
