"""Authorization of the local Neutron's subnet pools, address scopes,
availability zones and extensions by alias (``/network/v2.0/subnetpools``
and their ``/tags``, ``/address-scopes``, ``/availability_zones``,
``/extensions/{alias}``).

Neutron's defaults (``neutron/conf/policies/subnetpool.py``,
``address_scope.py``, ``availability_zone.py``): a project's readers read
its pools and scopes, its members write them, admins everything; another
project's private pool or scope is 404 (``SubnetPoolNotFound``,
``AddressScopeNotFound``); any project-scoped token lists the zones and
reads an extension.
"""

_N = "/v2.0"
# the tag of A's pool (each ``{tag}`` of its tag routes)
TAG = "matrix-tag"


def _post(world, path, body):
    response = world.as_("a_member", "POST", "/network" + _N + path, json_body=body)
    assert response.status == 201, response.body
    ((_, created),) = response.json().items()
    return created


def _new_pool(world):
    name = world.secret("authz-a-pool-%d" % len(world.secrets))
    body = {"subnetpool": {"name": name, "prefixes": ["10.200.0.0/16"]}}
    return world.secret(_post(world, "/subnetpools", body)["id"])


def _new_scope(world):
    name = world.secret("authz-a-scope-%d" % len(world.secrets))
    body = {"address_scope": {"name": name, "ip_version": 4}}
    return world.secret(_post(world, "/address-scopes", body)["id"])


def _tag_newest_pool(world):
    """The pseudo-parameter ``tagged_subnetpools``: A's newest pool (the
    fresh one made just before) gets the tag, so removing it is allowed."""
    from occli.localcloud.network import tags

    with world.cloud.store.transaction() as db:
        (newest,) = db.execute(
            "SELECT id FROM network_subnetpools WHERE project_id = ? ORDER BY seq DESC LIMIT 1",
            (world.projects["A"],),
        ).fetchone()
        tags.add(db, "subnetpools", newest, [TAG])
    return "tagged"


FACTORIES = {
    "subnetpool_id": _new_pool,
    "address_scope_id": _new_scope,
    "tagged_subnetpools": _tag_newest_pool,
}


def setup(world, ids):
    ids["subnetpool_id"] = _new_pool(world)
    ids["address_scope_id"] = _new_scope(world)
    path = "/network%s/subnetpools/%s/tags" % (_N, ids["subnetpool_id"])
    response = world.as_("a_member", "PUT", path, json_body={"tags": [TAG]})
    assert response.status == 200, response.body


def rules():
    from tests.security.test_authz_matrix import _unique
    from tests.security.test_authz_matrix import rule

    def n(method, path, access, ok=200, **kw):
        return {("network", method, _N + path): rule(access, ok, **kw)}

    table = {}
    table.update(n("GET", "/availability_zones", "any"))
    table.update(n("GET", "/extensions/{alias}", "any", params=lambda ids: {"alias": "router"}))
    resources = (
        ("subnetpools", "subnetpool", {"prefixes": ["10.201.0.0/16"]}),
        ("address-scopes", "address_scope", {"ip_version": 4}),
    )
    for collection, member, required in resources:
        one = "/%s/{%s_id}" % (collection, member)

        def created(ids, member=member, required=required):
            return {member: dict(required, name=_unique("authz-new"))}

        def renamed(ids, member=member):
            return {member: {"name": _unique("authz-renamed")}}

        table.update(n("GET", "/" + collection, "any"))
        table.update(n("POST", "/" + collection, "create", 201, body=created))
        table.update(n("GET", one, "read"))
        table.update(n("PUT", one, "write", fresh=(member + "_id",), body=renamed))
        table.update(n("DELETE", one, "write", 204, fresh=(member + "_id",)))
    # a pool's tags (``<action>_subnetpool:tags``), as authz_ext_network_tags
    tags = "/subnetpools/{subnetpool_id}/tags"
    fresh = ("subnetpool_id",)

    def tag(ids):
        return {"tag": TAG}

    def body(ids):
        return {"tags": ["authz-new"]}

    table.update(n("GET", tags, "read"))
    table.update(n("GET", tags + "/{tag}", "read", 204, params=tag))
    table.update(n("PUT", tags, "write", fresh=fresh, body=body))
    table.update(n("POST", tags, "write", 200, fresh=fresh, body=body))
    table.update(n("DELETE", tags, "write", 204, fresh=fresh))
    table.update(n("PUT", tags + "/{tag}", "write", 201, fresh=fresh, params=tag))
    table.update(
        n(
            "DELETE",
            tags + "/{tag}",
            "write",
            204,
            fresh=("subnetpool_id", "tagged_subnetpools"),
            params=tag,
        )
    )
    return table
