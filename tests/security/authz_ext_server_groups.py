"""Authorization of the server group and server tag routes.

``/os-server-groups``: nova's defaults (list and show for the project's
readers, create and delete for its members; admins see every group,
another project's group is 404). ``/servers/{id}/tags…``: as the server's
metadata (A's readers read, members write; another project's server is
404 here, where nova 34 answers a policy 403). A's server carries the tag
``{tag}``; the writes that remove it act on a fresh server given the tag
by the ``tag`` factory.
"""

_GROUPS = "/v2.1/os-server-groups"
_TAGS = "/v2.1/servers/{server_id}/tags"
_V = "compute 2.96"


def _new_group(world):
    name = world.secret("authz-a-group-" + world.ids["key"][-4:] + str(len(world.secrets)))
    body = {"server_group": {"name": name, "policy": "anti-affinity"}}
    response = world.as_(
        "a_member",
        "POST",
        "/compute/v2.1/os-server-groups",
        headers={"OpenStack-API-Version": _V},
        json_body=body,
    )
    return world.secret(response.json()["server_group"]["id"])


def _tag_newest_server(world):
    """Tag A's newest server (the fresh ``server_id`` made just before)."""
    headers = {"OpenStack-API-Version": _V}
    servers = world.as_("a_member", "GET", "/compute/v2.1/servers", headers=headers).json()[
        "servers"
    ]
    tag = world.ids["tag"]
    world.as_(
        "a_member",
        "PUT",
        "/compute/v2.1/servers/%s/tags/%s" % (servers[0]["id"], tag),
        headers=headers,
    )
    return tag


FACTORIES = {"group_id": _new_group, "tag": _tag_newest_server}


def setup(world, ids):
    ids["tag"] = world.secret("authz-a-tag")
    ids["group_id"] = _new_group(world)
    world.as_(
        "a_member",
        "PUT",
        "/compute/v2.1/servers/%s/tags/%s" % (ids["server_id"], ids["tag"]),
        headers={"OpenStack-API-Version": _V},
    )


def rules():
    from tests.security.test_authz_matrix import _unique
    from tests.security.test_authz_matrix import rule

    return {
        ("compute", "GET", _GROUPS): rule("any"),
        ("compute", "POST", _GROUPS): rule(
            "create",
            body=lambda ids: {"server_group": {"name": _unique("authz-g"), "policy": "affinity"}},
        ),
        ("compute", "GET", _GROUPS + "/{group_id}"): rule("read"),
        ("compute", "DELETE", _GROUPS + "/{group_id}"): rule("write", 204, fresh=("group_id",)),
        ("compute", "GET", _TAGS): rule("read"),
        ("compute", "PUT", _TAGS): rule(
            "write", fresh=("server_id",), body=lambda ids: {"tags": ["authz-new"]}
        ),
        ("compute", "DELETE", _TAGS): rule("write", 204, fresh=("server_id",)),
        ("compute", "GET", _TAGS + "/{tag}"): rule("read", 204),
        ("compute", "PUT", _TAGS + "/{tag}"): rule("write", 201, fresh=("server_id",)),
        ("compute", "DELETE", _TAGS + "/{tag}"): rule("write", 204, fresh=("server_id", "tag")),
    }
