"""``/os-tenant-networks``: nova's ``TenantNetworkController`` over
Neutron (nova/api/openstack/compute/tenant_networks.py). List and show are
proxies served up to 2.35 (404 after): the networks the caller sees in
Neutron, each as ``{id, cidr, label}`` with nova's ``cidr`` the string
``"None"`` (its neutron-backed ``network_dict``); ``[api]
use_neutron_default_nets`` is off, as nova's default. Create and delete
went with nova-network: 410 at every microversion, before any policy
(``removed.gone``: a malformed body is nova's 400 first)."""

from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.compute.api import removed
from occli.localcloud.network import interface as neutron

MAX_VERSION = "2.35"


def register(service):
    service.api("GET", "/os-tenant-networks", list_networks, max_version=MAX_VERSION)
    service.api("GET", "/os-tenant-networks/{network_id}", show_network, max_version=MAX_VERSION)
    # gone for every caller: no role first, nothing stored
    service.api("POST", "/os-tenant-networks", removed.gone, role=None, mode="read")
    service.api("DELETE", "/os-tenant-networks/{network_id}", removed.gone, role=None, mode="read")


def _view(network):
    return {"id": network["id"], "cidr": str(None), "label": network["name"]}


def list_networks(req):
    networks = neutron.listing(req.db, req.context)
    return Response(200, {"networks": [_view(n) for n in networks]})


def show_network(req):
    found = neutron.networks_row(req.db, req.params["network_id"])
    if found is None or not neutron.networks_visible(req.context, found):
        raise HTTPError(404, "Network not found")
    return Response(200, {"network": _view(found)})
