"""``/v2.0/quotas[/{quota_project_id}[/details|/default]]``: list, show,
details (usage), defaults, and the admin's update and delete."""

from occli.localcloud.app import Response
from occli.localcloud.network import quotas


def register(service):
    quota = "/v2.0/quotas/{quota_project_id}"
    service.route("GET", "/v2.0/quotas", list_quotas)
    service.route("GET", quota, show_quota)
    service.route("GET", quota + "/details", quota_details)
    service.route("GET", quota + "/default", default_quota)
    # the admin check is the rules' (neutron's update_quota policy)
    service.route("PUT", quota, update_quota, role=None)
    service.route("DELETE", quota, delete_quota, role=None)


def list_quotas(req):
    return Response(200, {"quotas": quotas.listing(req.db, req.context)})


def show_quota(req):
    found = quotas.show(req.db, req.context, req.params["quota_project_id"])
    return Response(200, {"quota": found})


def quota_details(req):
    found = quotas.details(req.db, req.context, req.params["quota_project_id"])
    return Response(200, {"quota": found})


def default_quota(req):
    found = quotas.defaults(req.db, req.context, req.params["quota_project_id"])
    return Response(200, {"quota": found})


def update_quota(req):
    project_id = req.params["quota_project_id"]
    return Response(200, {"quota": quotas.update(req.db, req.context, project_id, req.json())})


def delete_quota(req):
    quotas.delete(req.db, req.context, req.params["quota_project_id"])
    return Response(204)
