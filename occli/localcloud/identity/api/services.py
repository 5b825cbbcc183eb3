"""``/v3/services``: list (``?type``, ``?name``) and show (admin or a
system reader), create, update and delete (with its endpoints; admin).
The rules are in
:mod:`occli.localcloud.identity.catalog` (keystone/api/services.py)."""

from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.identity import catalog
from occli.localcloud.identity import catalog_schemas
from occli.localcloud.identity import policy
from occli.localcloud.identity.api.common import collection
from occli.localcloud.identity.api.common import url


def register(service):
    service.route("GET", "/v3/services", list_services)
    service.route("POST", "/v3/services", create_service)
    service.route("GET", "/v3/services/{service_id}", get_service)
    service.route("PATCH", "/v3/services/{service_id}", update_service)
    service.route("DELETE", "/v3/services/{service_id}", delete_service)


def service_view(req, row):
    view = catalog.extra(row)
    view.update(
        id=row["id"],
        type=row["type"],
        enabled=bool(row["enabled"]),
        links={"self": url(req, "services", row["id"])},
    )
    return view


def list_services(req):
    policy.admin_or_system_reader(req.context, "list_services")
    rows = catalog.select_services(req.db, type=req.arg("type"), name=req.arg("name"))
    return Response(200, collection(req, "services", [service_view(req, r) for r in rows]))


def create_service(req):
    data = catalog_schemas.check_body("SERVICE_CREATE", req.json())["service"]
    policy.admin_only(req.context, "create_service")
    return Response(201, {"service": service_view(req, catalog.create_service(req.db, data))})


def get_service(req):
    policy.admin_or_system_reader(req.context, "get_service")
    row = catalog.get_service(req.db, req.params["service_id"])
    return Response(200, {"service": service_view(req, row)})


def update_service(req):
    data = catalog_schemas.check_body("SERVICE_UPDATE", req.json())["service"]
    policy.admin_only(req.context, "update_service")
    service_id = req.params["service_id"]
    if data.get("id") is not None and data["id"] != service_id:
        raise HTTPError(400, "Cannot change ID")
    data.pop("id", None)
    row = catalog.update_service(req.db, service_id, data)
    return Response(200, {"service": service_view(req, row)})


def delete_service(req):
    policy.admin_only(req.context, "delete_service")
    catalog.delete_service(req.db, req.params["service_id"])
    return Response(204)
