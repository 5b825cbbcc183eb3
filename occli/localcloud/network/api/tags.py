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
    for path, param, member, resource, get in TAGGABLE:
        kind = _Kind(param, member, resource, get)
        base = "/v2.0/%s/{%s}/tags" % (path, param)
        service.route("GET", base, kind.list_tags)
        service.route("POST", base, kind.create_tags)
        service.route("PUT", base, kind.replace_tags)
        service.route("DELETE", base, kind.delete_tags)
        service.route("GET", base + "/{tag}", kind.show_tag)
        service.route("PUT", base + "/{tag}", kind.add_tag)
        service.route("DELETE", base + "/{tag}", kind.delete_tag)


class _Kind:
    """The tag handlers of one collection."""

    def __init__(self, param, member, resource, get):
        self.param = param
        self.member = member
        self.resource = resource
        self.get = get

    def _found(self, req, action=None):
        """The resource's id: its 404 when not seen, the tag policy's 403
        for a write by someone who may not update it."""
        found = self.get(req.db, req.context, req.params[self.param])
        if action is not None:
            tags.writable(req.context, found, self.member, action)
        return found["id"]

    def list_tags(self, req):
        return Response(200, {"tags": tags.of(req.db, self.resource, self._found(req))})

    def show_tag(self, req):
        tag = tags.check_tag(req.params["tag"])
        tags.has(req.db, self.resource, self._found(req), tag)
        return Response(204)

    def create_tags(self, req):
        wanted = tags.check_body(req.json())
        tags.add(req.db, self.resource, self._found(req, "create"), wanted)
        return Response(200, {"tags": wanted})

    def replace_tags(self, req):
        wanted = tags.check_body(req.json())
        tags.replace(req.db, self.resource, self._found(req, "update"), wanted)
        return Response(200, {"tags": wanted})

    def add_tag(self, req):
        tag = tags.check_tag(req.params["tag"])
        tags.add_one(req.db, self.resource, self._found(req, "update"), tag)
        return Response(201)

    def delete_tags(self, req):
        tags.clear(req.db, self.resource, self._found(req, "delete"))
        return Response(204)

    def delete_tag(self, req):
        tag = tags.check_tag(req.params["tag"])
        tags.remove(req.db, self.resource, self._found(req, "delete"), tag)
        return Response(204)
