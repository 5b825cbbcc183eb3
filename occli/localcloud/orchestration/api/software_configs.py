"""``/software_configs``: list (limit, marker; the project for admins),
create (up to the service's ``max_software_configs_per_tenant``), show and
delete. The rules are in :mod:`occli.localcloud.orchestration.configs`."""

from occli.localcloud.app import Response
from occli.localcloud.orchestration import configs
from occli.localcloud.orchestration.api import common
from occli.localcloud.orchestration.api.views import format_config

PATH = common.BASE + "/software_configs"


def register(service):
    service.route("GET", PATH, list_configs)
    service.route("POST", PATH, create_config)
    service.route("GET", PATH + "/{config_id}", show_config)
    service.route("DELETE", PATH + "/{config_id}", delete_config)


def create_config(req):
    body = common.json_object(req)
    row = configs.create(
        req.db,
        req.context,
        body.get("name"),
        body.get("group"),
        body.get("config"),
        body.get("inputs"),
        body.get("outputs"),
        body.get("options"),
        limit=req.cloud.orchestration.max_software_configs_per_tenant,
    )
    return Response(200, {"software_config": format_config(row)})


def list_configs(req):
    limit = common.non_negative_int(req.arg("limit"), "limit")
    rows = configs.page(req.db, req.context, limit, req.arg("marker"))
    return Response(
        200,
        {
            "software_configs": [
                format_config(r, detail=False, include_project=req.context.is_admin) for r in rows
            ]
        },
    )


def show_config(req):
    row = configs.get(req.db, req.context, req.params["config_id"])
    return Response(200, {"software_config": format_config(row)})


def delete_config(req):
    configs.delete(req.db, req.context, req.params["config_id"])
    return Response(204)
