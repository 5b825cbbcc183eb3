"""Authorization of the local Neutron's tags
(``/v2.0/{collection}/{id}/tags[/{tag}]``, neutron 29's ``<action>_<member>:tags``
policies): whoever reads the resource reads its tags, its project's members
(its update policy) and admins write them, another project gets the
resource's 404. Each of A's resources from ``authz_ext_network`` carries the
tag ``matrix-tag`` (each ``{tag}`` here); an allowed write runs on a fresh
resource (tagged first when it removes the tag: the pseudo-parameter
``tagged_<resource>``)."""

_N = "/v2.0"
TAG = "matrix-tag"
# (collection, path parameter, tags' resource key, table)
TAGGED = (
    ("networks", "network_id", "networks", "network_networks"),
    ("subnets", "subnet_id", "subnets", "network_subnets"),
    ("ports", "port_id", "ports", "network_ports"),
    ("routers", "router_id", "routers", "network_routers"),
    ("security-groups", "security_group_id", "security_groups", "network_security_groups"),
    ("floatingips", "floatingip_id", "floatingips", "network_floating_ips"),
)


def _tag_newest(resource, table):
    """A pseudo-parameter's factory: A's newest ``table`` row (the fresh
    resource made just before) gets the tag, so removing it is allowed."""

    def factory(world):
        from occli.localcloud.network import tags

        with world.cloud.store.transaction() as db:
            (newest,) = db.execute(
                "SELECT id FROM %s WHERE project_id = ? ORDER BY seq DESC LIMIT 1" % table,
                (world.projects["A"],),
            ).fetchone()
            tags.add(db, resource, newest, [TAG])
        return "tagged"

    return factory


FACTORIES = {"tagged_" + key: _tag_newest(key, table) for _, _, key, table in TAGGED}


def setup(world, ids):
    # every allowed tag write makes a fresh resource: past A's default quotas
    unlimited = world.as_(
        "admin",
        "PUT",
        "/network%s/quotas/%s" % (_N, world.projects["A"]),
        json_body={"quota": {"security_group": -1, "floatingip": -1, "port": -1}},
    )
    assert unlimited.status == 200, unlimited.body
    for collection, param, _, _ in TAGGED:
        path = "/network%s/%s/%s/tags" % (_N, collection, ids[param])
        response = world.as_("a_member", "PUT", path, json_body={"tags": [TAG]})
        assert response.status == 200, response.body


def rules():
    from tests.security.test_authz_matrix import rule

    def n(method, path, access, ok=200, **kw):
        return {("network", method, _N + path): rule(access, ok, **kw)}

    def tag(ids):
        # the matrix's own ``{tag}`` (compute's server tags) is another one
        return {"tag": TAG}

    table = {}
    for collection, param, key, _ in TAGGED:
        tags = "/%s/{%s}/tags" % (collection, param)
        fresh = (param,)
        body = lambda ids: {"tags": ["authz-new"]}  # noqa: E731
        table.update(n("GET", tags, "read"))
        table.update(n("GET", tags + "/{tag}", "read", 204, params=tag))
        table.update(n("PUT", tags, "write", fresh=fresh, body=body))
        table.update(n("POST", tags, "write", 200, fresh=fresh, body=body))
        table.update(n("DELETE", tags, "write", 204, fresh=fresh))
        table.update(n("PUT", tags + "/{tag}", "write", 201, fresh=fresh, params=tag))
        table.update(
            n("DELETE", tags + "/{tag}", "write", 204, fresh=(param, "tagged_" + key), params=tag)
        )
    return table
