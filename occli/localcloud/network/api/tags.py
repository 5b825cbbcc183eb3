"""``/v2.0/{collection}/{id}/tags[/{tag}]`` of every taggable collection
(neutron's ``TaggingController``): list (200), check one (204), add some
(``POST``, tag-creation: 200, as neutron 29 answers), replace all (``PUT``:
200), add one (``PUT …/{tag}``: 201), remove all or one (204)."""

from occli.localcloud.app import Response
from occli.localcloud.network import floating_ips
from occli.localcloud.network import networks
from occli.localcloud.network import ports
from occli.localcloud.network import routers
from occli.localcloud.network import security_groups
from occli.localcloud.network import subnet_pools
from occli.localcloud.network import subnets
from occli.localcloud.network import tags

# (path, id parameter, member, resource key, the rules' get(db, context, id))
TAGGABLE = (
    ("networks", "network_id", "network", "networks", networks.get),
    ("subnets", "subnet_id", "subnet", "subnets", subnets.get),
    ("ports", "port_id", "port", "ports", ports.get),
    ("routers", "router_id", "router", "routers", routers.get),
    (
        "security-groups",
        "security_group_id",
        "security_group",
        "security_groups",
        security_groups.get,
    ),
    ("floatingips", "floatingip_id", "floatingip", "floatingips", floating_ips.get),
    ("subnetpools", "subnetpool_id", "subnetpool", "subnetpools", subnet_pools.get),
)


def register(service):
    for path, param, _, _, _ in TAGGABLE:
        base = "/v2.0/%s/{%s}/tags" % (path, param)
        service.route("GET", base, list_tags)
        service.route("POST", base, create_tags)
        service.route("PUT", base, replace_tags)
        service.route("DELETE", base, delete_tags)
        service.route("GET", base + "/{tag}", show_tag)
        service.route("PUT", base + "/{tag}", add_tag)
        service.route("DELETE", base + "/{tag}", delete_tag)


def _found(req, action=None) -> tuple[str, str]:
    """``(resource key, id)`` of the route's resource (the kind its path
    parameter names): its 404 when not seen, the tag policy's 403 for a
    write by someone who may not update it."""
    for _, param, member, resource, get in TAGGABLE:
        if param in req.params:
            found = get(req.db, req.context, req.params[param])
            if action is not None:
                tags.writable(req.context, found, member, action)
            return resource, found["id"]
    raise LookupError("no taggable parameter in %r" % sorted(req.params))


def list_tags(req):
    return Response(200, {"tags": tags.of(req.db, *_found(req))})


def show_tag(req):
    tag = tags.check_tag(req.params["tag"])
    tags.has(req.db, *_found(req), tag)
    return Response(204)


def create_tags(req):
    wanted = tags.check_body(req.json())
    tags.add(req.db, *_found(req, "create"), wanted)
    return Response(200, {"tags": wanted})


def replace_tags(req):
    wanted = tags.check_body(req.json())
    tags.replace(req.db, *_found(req, "update"), wanted)
    return Response(200, {"tags": wanted})


def add_tag(req):
    tag = tags.check_tag(req.params["tag"])
    tags.add_one(req.db, *_found(req, "update"), tag)
    return Response(201)


def delete_tags(req):
    tags.clear(req.db, *_found(req, "delete"))
    return Response(204)


def delete_tag(req):
    tag = tags.check_tag(req.params["tag"])
    tags.remove(req.db, *_found(req, "delete"), tag)
    return Response(204)
