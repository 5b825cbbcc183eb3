"""``/v3/endpoints``: list (``?interface``, ``?service_id``,
``?region_id``) and show (admin or a system reader), create, update and
delete (admin). A disabled endpoint (or
one of a disabled service) leaves the tokens' catalog; the service still
answers on its path. The rules are in
:mod:`occli.localcloud.identity.catalog` (keystone/api/endpoints.py)."""

from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.identity import catalog
from occli.localcloud.identity import catalog_schemas
from occli.localcloud.identity import policy
from occli.localcloud.identity.api.common import collection
from occli.localcloud.identity.api.common import url


def register(service):
    service.route("GET", "/v3/endpoints", list_endpoints)
    service.route("POST", "/v3/endpoints", create_endpoint)
    service.route("GET", "/v3/endpoints/{endpoint_id}", get_endpoint)
    service.route("PATCH", "/v3/endpoints/{endpoint_id}", update_endpoint)
    service.route("DELETE", "/v3/endpoints/{endpoint_id}", delete_endpoint)


def endpoint_view(req, row):
    """keystone's ``_filter_endpoint``: ``region`` repeats ``region_id``."""
    view = catalog.extra(row)
    view.update(
        id=row["id"],
        interface=row["interface"],
        region_id=row["region_id"],
        service_id=row["service_id"],
        url=row["url"],
        enabled=bool(row["enabled"]),
        region=row["region_id"],
        links={"self": url(req, "endpoints", row["id"])},
    )
    return view


def list_endpoints(req):
    query = catalog_schemas.check_query("ENDPOINT_QUERY", req.query)
    policy.admin_or_system_reader(req.context, "list_endpoints")
    rows = catalog.select_endpoints(
        req.db,
        interface=query.get("interface"),
        service_id=query.get("service_id"),
        region_id=query.get("region_id"),
    )
    return Response(200, collection(req, "endpoints", [endpoint_view(req, r) for r in rows]))


def create_endpoint(req):
    data = catalog_schemas.check_body("ENDPOINT_CREATE", req.json())["endpoint"]
    policy.admin_only(req.context, "create_endpoint")
    row = catalog.create_endpoint(req.db, data)
    return Response(201, {"endpoint": endpoint_view(req, row)})


def get_endpoint(req):
    policy.admin_or_system_reader(req.context, "get_endpoint")
    row = catalog.get_endpoint(req.db, req.params["endpoint_id"])
    return Response(200, {"endpoint": endpoint_view(req, row)})


def update_endpoint(req):
    data = catalog_schemas.check_body("ENDPOINT_UPDATE", req.json())["endpoint"]
    policy.admin_only(req.context, "update_endpoint")
    endpoint_id = req.params["endpoint_id"]
    if data.get("id") is not None and data["id"] != endpoint_id:
        raise HTTPError(400, "Cannot change ID")
    data.pop("id", None)
    row = catalog.update_endpoint(req.db, endpoint_id, data)
    return Response(200, {"endpoint": endpoint_view(req, row)})


def delete_endpoint(req):
    policy.admin_only(req.context, "delete_endpoint")
    catalog.delete_endpoint(req.db, req.params["endpoint_id"])
    return Response(204)
