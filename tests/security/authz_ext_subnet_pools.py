"""Authorization of the local Neutron's subnet pools, address scopes,
availability zones and extensions by alias (``/network/v2.0/subnetpools``,
``/address-scopes``, ``/availability_zones``, ``/extensions/{alias}``).

Neutron's defaults (``neutron/conf/policies/subnetpool.py``,
``address_scope.py``, ``availability_zone.py``): a project's readers read
its pools and scopes, its members write them, admins everything; another
project's private pool or scope is 404 (``SubnetPoolNotFound``,
``AddressScopeNotFound``); any project-scoped token lists the zones and
reads an extension.
"""

_N = "/v2.0"


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


FACTORIES = {"subnetpool_id": _new_pool, "address_scope_id": _new_scope}


def setup(world, ids):
    ids["subnetpool_id"] = _new_pool(world)
    ids["address_scope_id"] = _new_scope(world)


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
    return table
