"""Helpers shared by the network API modules: a collection's names, its
list and show answers, neutron's nova notifier."""

from occli.localcloud.app import Response
from occli.localcloud.network import attributes as attrs
from occli.localcloud.network import ports
from occli.localcloud.network import query
from occli.localcloud.network import tags

API = "/v2.0"


class Collection:
    """One neutron collection: ``member`` (a body's key), ``collection``
    (its path under ``API``), the attributes a list filters on, its sort
    keys and its 404 (``not_found(id)``)."""

    def __init__(self, member, collection, attributes, sort_keys, not_found):
        self.member = member
        self.collection = collection
        self.attributes = attributes
        self.sort_keys = sort_keys
        self.not_found = not_found
        # a list's key (security_groups for /security-groups)
        self.key = collection.replace("-", "_")


def list_body(req, kind, listing):
    """``kind``'s list answer of what ``listing(db, context)`` returns:
    filters, ``fields=``, sorting and pages (:mod:`..query`), the query
    checked before anything is listed."""
    found = query.Listing(req.query, kind.attributes, kind.sort_keys)
    items = tags.attach(req.db, kind.key, listing(req.db, req.context))
    page = found.apply(items, kind.not_found)
    body = {kind.key: [found.select(i) for i in page]}
    links = found.links(req.base_url + req.path, page)
    if links is not None:
        body[kind.key + "_links"] = links
    return Response(200, body)


def show_body(req, kind, found):
    """One resource's answer; ``fields=`` selects attributes as on a list."""
    found = tagged(req, kind, found)
    fields = [f for f in req.query.get("fields", []) if f]
    if fields:
        found = {k: v for k, v in found.items() if k in fields}
    return Response(200, {kind.member: found})


def create_body(req, kind, create, after=None):
    """A create's answer (201): ``create(db, context, body)`` of the
    request's ``{member: {...}}``, or of each item of ``{collection:
    [...]}`` (neutron's bulk create, ``neutron/api/v2/base.py``: all or
    none, as the route's one transaction is; quotas count every item);
    ``after(view)`` is called for each created resource."""
    body = req.json()
    bulk = isinstance(body, dict) and kind.key in body
    if bulk:
        items = body[kind.key]
        if not items:
            raise attrs.bad_request("Resources required")
        if not isinstance(items, list):
            raise attrs.bad_request("Body contains invalid data")
        bodies = [
            i if isinstance(i, dict) and kind.member in i else {kind.member: i} for i in items
        ]
    else:
        bodies = [body]
    created = [tagged(req, kind, create(req.db, req.context, b)) for b in bodies]
    for view in created:
        if after is not None:
            after(view)
    if bulk:
        return Response(201, {kind.key: created})
    return Response(201, {kind.member: created[0]})


def tagged(req, kind, found):
    """``found`` (a view of ``kind``) with its stored ``tags``."""
    if "tags" in found:
        found["tags"] = tags.of(req.db, kind.key, found["id"])
    return found


def port_devices(db, port_ids):
    """The servers (``compute:`` ports' device ids) of these ports."""
    devices = set()
    for port_id in port_ids:
        port = ports.row(db, port_id)
        if port is not None and port["device_owner"].startswith("compute:"):
            devices.add(port["device_id"])
    return devices


def notify(req, server_ids):
    """Tell compute which servers' ports changed (neutron's nova
    notifier: nova refreshes its network info cache)."""
    compute = req.cloud.compute
    if server_ids and compute is not None and hasattr(compute, "network_changed"):
        compute.network_changed(req.db, sorted(server_ids))
