"""The smaller server APIs nova still serves: ``/servers/{id}/ips``
(and ``/ips/{network}``), ``/extensions`` (the legacy list),
``/servers/{id}/os-server-password`` (get, clear), and the actions
``injectNetworkInfo`` (admin), ``restore`` and ``forceDelete`` (soft
delete: :mod:`occli.localcloud.compute.soft_delete`)."""

import json

from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.compute import extensions
from occli.localcloud.compute import server_rows
from occli.localcloud.compute import soft_delete
from occli.localcloud.compute.api import common
from occli.localcloud.compute.api.server_views import addresses
from occli.localcloud.compute.api.servers import load


def register(service):
    service.api("GET", "/servers/{server_id}/ips", list_ips)
    service.api("GET", "/servers/{server_id}/ips/{network}", show_ips)
    service.api("GET", "/extensions", list_extensions)
    service.api("GET", "/extensions/{alias}", show_extension)
    service.api("GET", "/servers/{server_id}/os-server-password", show_password)
    service.api("DELETE", "/servers/{server_id}/os-server-password", clear_password)


def _addresses(server):
    if server["vm_state"] == "building":
        return {}
    return addresses(json.loads(server["ports"]), extended=False)


def list_ips(req):
    return Response(200, {"addresses": _addresses(load(req))})


def show_ips(req):
    network = req.params["network"]
    found = _addresses(load(req))
    if network not in found:
        raise HTTPError(404, "Instance is not a member of specified network")
    return Response(200, {network: found[network]})


def list_extensions(req):
    return Response(200, {"extensions": extensions.all_extensions()})


def show_extension(req):
    found = extensions.find(req.params["alias"])
    if found is None:
        raise common.not_found()
    return Response(200, {"extension": found})


def show_password(req):
    """The encrypted password a guest posted to the metadata service:
    none ever does here, so it is empty (as nova's until one does)."""
    load(req)
    return Response(200, {"password": ""})


def clear_password(req):
    load(req)
    return Response(204)


def inject_network_info(req, server, value):
    """Admin only; nova ignores the body. The guest's network is the
    ports'; there is nothing to inject into here."""
    common.require_admin(req, "os_compute_api:os-admin-actions:inject_network_info")
    server_rows.check_lock(common.caller(req), server)
    return Response(202)


def restore(req, server, value):
    soft_delete.restore(req.db, common.caller(req), server)
    return Response(202)


def force_delete(req, server, value):
    soft_delete.force_delete(req.db, common.caller(req), server)
    return Response(202)
