"""Authorization of the Neutron routes (``/network/v2.0/…``) and of Nova's
network routes (``/servers/{id}/os-interface``, the proxies gone at 2.36).

Neutron's defaults: a project's readers read its networks, subnets, ports,
security groups, floating IPs and routers, its members write them; shared and
external networks are visible to all (A's own network here is neither);
admins see and change everything; another project's resource is 404
(``NetworkNotFound``…). Quotas: a project's readers read its own
(``{quota_project_id}`` is A), admins read every project's and alone change
them. Creating a subnet or a rule under A's network or
group is 404 for project B, whose callers cannot see them. A's server
``{iface_server_id}`` has the port ``{port_id}`` (attached through
os-interface); A's ``{server_id}`` has none.
"""

from occli.localcloud.network.seed import PUBLIC_NETWORK_ID

_N = "/v2.0"
_V = {"OpenStack-API-Version": "compute 2.96"}
_PRIVATE = "4fd44f30-2920-4a4b-a2b0-0e6c2dbd2a4b"
_NOT_B = {"b_member": 404, "b_own_url": 404}


# every kind an allowed write makes afresh: unlimited for A
_UNLIMITED = {
    kind: -1 for kind in ("network", "subnet", "port", "router", "security_group", "floatingip")
}


def _unlimited(world):
    """Lift A's network quotas (again: the matrix's own ``DELETE`` of A's
    quotas puts Neutron's defaults back, whatever ran before it)."""
    response = world.as_(
        "admin",
        "PUT",
        "/network" + _N + "/quotas/%s" % world.projects["A"],
        json_body={"quota": dict(_UNLIMITED, security_group_rule=-1)},
    )
    assert response.status == 200, response.body


def _post(world, path, body):
    url = "/network" + _N + path
    response = world.as_("a_member", "POST", url, json_body=body, expect=(201, 409))
    if response.status == 409 and b"OverQuota" in response.body:
        _unlimited(world)
        response = world.as_("a_member", "POST", "/network" + _N + path, json_body=body)
    assert response.status == 201, response.body
    ((_, created),) = response.json().items()
    return created


def _new_network(world):
    name = world.secret("authz-a-net-%d" % len(world.secrets))
    return world.secret(_post(world, "/networks", {"network": {"name": name}})["id"])


def _new_subnet(world):
    network_id = _new_network(world)
    body = {"subnet": {"network_id": network_id, "ip_version": 4, "cidr": "10.9.0.0/24"}}
    return world.secret(_post(world, "/subnets", body)["id"])


def _new_group(world):
    name = world.secret("authz-a-sg-%d" % len(world.secrets))
    return world.secret(_post(world, "/security-groups", {"security_group": {"name": name}})["id"])


def _new_rule(world):
    body = {
        "security_group_rule": {
            "security_group_id": world.ids["security_group_id"],
            "direction": "ingress",
            "protocol": "tcp",
            "port_range_min": 1000 + len(world.secrets),
            "port_range_max": 1000 + len(world.secrets),
        }
    }
    return world.secret(_post(world, "/security-group-rules", body)["id"])


def _new_floating_ip(world):
    body = {"floatingip": {"floating_network_id": world.ids["public_id"]}}
    return world.secret(_post(world, "/floatingips", body)["id"])


def _new_router(world):
    name = world.secret("authz-a-router-%d" % len(world.secrets))
    return world.secret(_post(world, "/routers", {"router": {"name": name}})["id"])


# the matrix's world, for bodies that need a fresh resource of A's
_WORLD = []


def _fresh_subnet_body(ids):
    return {"subnet_id": _new_subnet(_WORLD[0])}


def _attach(world, server_id):
    response = world.as_(
        "a_member",
        "POST",
        "/compute/v2.1/servers/%s/os-interface" % server_id,
        headers=_V,
        json_body={"interfaceAttachment": {"net_id": _PRIVATE}},
    )
    assert response.status == 200, response.body
    return world.secret(response.json()["interfaceAttachment"]["port_id"])


def _port_of_newest_server(world):
    """A port attached to A's newest server (the fresh ``server_id``)."""
    servers = world.as_("a_member", "GET", "/compute/v2.1/servers", headers=_V).json()["servers"]
    return _attach(world, servers[0]["id"])


def _iface_server(ids):
    return {"server_id": ids["iface_server_id"]}


FACTORIES = {
    "network_id": _new_network,
    "subnet_id": _new_subnet,
    "security_group_id": _new_group,
    "security_group_rule_id": _new_rule,
    "floatingip_id": _new_floating_ip,
    "port_id": _port_of_newest_server,
    "router_id": _new_router,
}


def setup(world, ids):
    ids["public_id"] = PUBLIC_NETWORK_ID
    ids["network_id"] = _new_network(world)
    ids["subnet_id"] = _new_subnet(world)
    ids["security_group_id"] = _new_group(world)
    ids["security_group_rule_id"] = _new_rule(world)
    ids["floatingip_id"] = _new_floating_ip(world)
    # every allowed write makes a fresh resource: past Neutron's default
    # quotas for A
    _unlimited(world)
    ids["router_id"] = _new_router(world)
    _WORLD[:] = [world]
    ids["quota_project_id"] = world.projects["A"]
    # a server of A's own for the ports (A's {server_id} stays portless)
    ids["iface_server_id"] = world.new_server()
    ids["port_id"] = _attach(world, ids["iface_server_id"])
    # the proxies' parameters (their routes are gone at the matrix's version)
    ids["floating_ip_id"] = ids["floatingip_id"]
    ids["rule_id"] = ids["security_group_rule_id"]


def rules():
    from tests.security.test_authz_matrix import _unique
    from tests.security.test_authz_matrix import rule

    def named(member):
        return lambda ids: {member: {"name": _unique("authz-new")}}

    def n(method, path, access, ok=200, **kw):
        return {("network", method, _N + path): rule(access, ok, **kw)}

    table = {("network", "GET", "/"): rule("public")}
    table.update(n("GET", "", "any"))
    table.update(n("GET", "/extensions", "any"))
    resources = (
        ("networks", "network", named("network")),
        ("subnets", "subnet", None),
        ("ports", "port", named("port")),
        ("security-groups", "security_group", named("security_group")),
        ("security-group-rules", "security_group_rule", None),
        ("floatingips", "floatingip", lambda ids: {"floatingip": {"description": "authz"}}),
        ("routers", "router", named("router")),
    )
    for collection, member, update_body in resources:
        one = "/%s/{%s_id}" % (collection, member)
        table.update(n("GET", "/" + collection, "any"))
        table.update(n("GET", one, "read"))
        if update_body is not None:
            table.update(n("PUT", one, "write", fresh=(member + "_id",), body=update_body))
        elif member == "subnet":
            table.update(n("PUT", one, "write", fresh=("subnet_id",), body=named("subnet")))
        table.update(n("DELETE", one, "write", 204, fresh=(member + "_id",)))
    table.update(n("POST", "/networks", "create", 201, body=named("network")))
    table.update(
        n(
            "POST",
            "/subnets",
            "create",
            201,
            override=_NOT_B,
            body=lambda ids: {
                "subnet": {
                    "network_id": ids["network_id"],
                    "ip_version": 4,
                    "cidr": "10.%d.%d.0/24" % divmod(int(_unique("")[-4:], 16) % 60000, 250),
                }
            },
        )
    )
    table.update(
        n("POST", "/ports", "create", 201, body=lambda ids: {"port": {"network_id": _PRIVATE}})
    )
    table.update(n("POST", "/security-groups", "create", 201, body=named("security_group")))
    table.update(
        n(
            "POST",
            "/security-group-rules",
            "create",
            201,
            override=_NOT_B,
            body=lambda ids: {
                "security_group_rule": {
                    "security_group_id": ids["security_group_id"],
                    "direction": "egress",
                    "protocol": "udp",
                    # one port: neutron wants both ends of a range
                    **dict.fromkeys(
                        ("port_range_min", "port_range_max"),
                        int(_unique("")[-4:], 16) % 60000 + 1,
                    ),
                }
            },
        )
    )
    table.update(
        n(
            "POST",
            "/floatingips",
            "create",
            201,
            body=lambda ids: {"floatingip": {"floating_network_id": ids["public_id"]}},
        )
    )
    table.update(n("POST", "/routers", "create", 201, body=named("router")))
    router = "/routers/{router_id}"
    table.update(
        n(
            "PUT",
            router + "/add_router_interface",
            "write",
            fresh=("router_id",),
            body=_fresh_subnet_body,
        )
    )
    # A's subnet is on no router: A's members get Neutron's 404
    # (RouterInterfaceNotFoundForSubnet) once the policy let them through,
    # A's readers the 403, other projects the router's 404
    table.update(
        n(
            "PUT",
            router + "/remove_router_interface",
            "write",
            404,
            fresh=("router_id",),
            body=lambda ids: {"subnet_id": ids["subnet_id"]},
        )
    )
    quota = "/quotas/{quota_project_id}"
    table.update(n("GET", "/quotas", "admin"))
    table.update(n("GET", quota, "project_read"))
    table.update(n("GET", quota + "/details", "project_read"))
    table.update(n("GET", quota + "/default", "project_read"))
    table.update(n("PUT", quota, "admin", body=lambda ids: {"quota": {"subnetpool": -1}}))
    table.update(n("DELETE", quota, "admin", 204))
    iface = "/v2.1/servers/{server_id}/os-interface"
    table.update(
        {
            ("compute", "GET", iface): rule("read", params=_iface_server),
            ("compute", "POST", iface): rule(
                "write",
                fresh=("server_id",),
                body=lambda ids: {"interfaceAttachment": {"net_id": _PRIVATE}},
            ),
            ("compute", "GET", iface + "/{port_id}"): rule("read", params=_iface_server),
            ("compute", "DELETE", iface + "/{port_id}"): rule(
                "write", 202, fresh=("server_id", "port_id")
            ),
        }
    )
    for method, path in (
        ("GET", "/os-floating-ip-pools"),
        ("GET", "/os-floating-ips"),
        ("POST", "/os-floating-ips"),
        ("GET", "/os-floating-ips/{floating_ip_id}"),
        ("DELETE", "/os-floating-ips/{floating_ip_id}"),
        ("GET", "/os-security-groups"),
        ("POST", "/os-security-groups"),
        ("GET", "/os-security-groups/{group_id}"),
        ("PUT", "/os-security-groups/{group_id}"),
        ("DELETE", "/os-security-groups/{group_id}"),
        ("POST", "/os-security-group-rules"),
        ("DELETE", "/os-security-group-rules/{rule_id}"),
        ("GET", "/os-networks"),
        ("GET", "/os-networks/{network_id}"),
    ):
        table[("compute", method, "/v2.1" + path)] = rule("gone")
    # not a proxy: nova serves it at every microversion
    table[("compute", "GET", "/v2.1/servers/{server_id}/os-security-groups")] = rule("read")
    return table
