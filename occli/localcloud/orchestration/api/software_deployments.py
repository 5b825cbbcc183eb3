"""``/software_deployments``: list (``?server_id``), create (up to the
service's ``max_software_deployments_per_tenant``), a server's metadata,
show (an in-progress deployment polls its TEMP_URL_SIGNAL first), update
and delete. The rules are in :mod:`occli.localcloud.orchestration.deployments`
and :mod:`occli.localcloud.orchestration.signals`."""

from occli.localcloud.app import Response
from occli.localcloud.orchestration import deployments
from occli.localcloud.orchestration import signals
from occli.localcloud.orchestration.api import common
from occli.localcloud.orchestration.api.views import format_config
from occli.localcloud.orchestration.api.views import format_deployment
from occli.localcloud.orchestration.fields import IN_PROGRESS

PATH = common.BASE + "/software_deployments"


def register(service):
    service.route("GET", PATH, list_deployments)
    service.route("POST", PATH, create_deployment)
    service.route("GET", PATH + "/metadata/{server_id}", deployment_metadata)
    service.route("GET", PATH + "/{deployment_id}", show_deployment)
    service.route("PUT", PATH + "/{deployment_id}", update_deployment)
    service.route("DELETE", PATH + "/{deployment_id}", delete_deployment)


def create_deployment(req):
    row = deployments.create(
        req.db,
        req.context,
        common.json_object(req),
        limit=req.cloud.orchestration.max_software_deployments_per_tenant,
    )
    # the simulated agent (if on, or opted into by the server) signals it
    req.cloud.orchestration.engine.ensure_agent()
    return Response(200, {"software_deployment": format_deployment(row)})


def list_deployments(req):
    rows = deployments.select(req.db, req.context, req.arg("server_id"))
    return Response(200, {"software_deployments": [format_deployment(r) for r in rows]})


def show_deployment(req):
    row = deployments.get(req.db, req.context, req.params["deployment_id"])
    if row["status"] == IN_PROGRESS:
        row = signals.poll(req.db, req.cloud.store, row, req.cloud.objectstore)
    return Response(200, {"software_deployment": format_deployment(row)})


def update_deployment(req):
    deployment_id = req.params["deployment_id"]
    deployments.get(req.db, req.context, deployment_id)  # 404 first
    row = deployments.update(req.db, req.context, deployment_id, common.json_object(req))
    return Response(200, {"software_deployment": format_deployment(row)})


def delete_deployment(req):
    deployments.delete(req.db, req.context, req.params["deployment_id"])
    return Response(204)


def deployment_metadata(req):
    rows = deployments.server_configs(req.db, req.context, req.params["server_id"])
    return Response(200, {"metadata": [format_config(r) for r in rows]})
