"""``/v2.0/networks``: list, create, show, update, delete."""

from occli.localcloud.app import Response
from occli.localcloud.network import floating_ips
from occli.localcloud.network import networks
from occli.localcloud.network.api import common

NETWORKS = common.Collection(
    "network", "networks", networks.ATTRIBUTES, networks.SORT_KEYS, networks.not_found
)


def register(service):
    service.route("GET", "/v2.0/networks", list_networks)
    service.route("POST", "/v2.0/networks", create_network)
    service.route("GET", "/v2.0/networks/{network_id}", show_network)
    service.route("PUT", "/v2.0/networks/{network_id}", update_network)
    service.route("DELETE", "/v2.0/networks/{network_id}", delete_network, mode=None)


def list_networks(req):
    return common.list_body(req, NETWORKS, networks.listing)


def create_network(req):
    return common.create_body(req, NETWORKS, networks.create)


def show_network(req):
    found = networks.show(req.db, req.context, req.params["network_id"])
    return common.show_body(req, NETWORKS, found)


def update_network(req):
    updated = networks.update(req.db, req.context, req.params["network_id"], req.json())
    return Response(200, {"network": common.tagged(req, NETWORKS, updated)})


def delete_network(req):
    """Its floating IPs without a port go in a transaction of their own
    (kept when the delete fails, as in neutron), then the network."""
    network_id = req.params["network_id"]
    with req.cloud.store.transaction() as db:
        floating_ips.release_on_network(db, req.context, network_id)
    with req.cloud.store.transaction() as db:
        networks.delete(db, req.context, network_id)
    return Response(204)
