"""``/v3/regions``: list (``?parent_region_id``; any token, keystone's
``get/list_region`` check ``""``), create (``POST``, or ``PUT`` with the
id in the URL), show, update and delete (admin). The rules are in
:mod:`occli.localcloud.identity.catalog` (keystone/api/regions.py)."""

from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.identity import catalog
from occli.localcloud.identity import catalog_schemas
from occli.localcloud.identity import policy
from occli.localcloud.identity.api.common import collection
from occli.localcloud.identity.api.common import url


def register(service):
    service.route("GET", "/v3/regions", list_regions)
    service.route("POST", "/v3/regions", create_region)
    service.route("GET", "/v3/regions/{region_id}", get_region)
    service.route("PUT", "/v3/regions/{region_id}", put_region)
    service.route("PATCH", "/v3/regions/{region_id}", update_region)
    service.route("DELETE", "/v3/regions/{region_id}", delete_region)


def region_view(req, row):
    view = catalog.extra(row)
    view.update(
        id=row["id"],
        description=row["description"],
        parent_region_id=row["parent_region_id"],
        links={"self": url(req, "regions", row["id"])},
    )
    return view


def list_regions(req):
    query = catalog_schemas.check_query("REGION_QUERY", req.query)
    rows = catalog.select_regions(req.db, query.get("parent_region_id"))
    return Response(200, collection(req, "regions", [region_view(req, r) for r in rows]))


def create_region(req):
    data = catalog_schemas.check_body("REGION_CREATE", req.json())["region"]
    policy.admin_only(req.context, "create_region")
    return Response(201, {"region": region_view(req, catalog.create_region(req.db, data))})


def put_region(req):
    """``PUT /v3/regions/{region_id}``: create the region of that id."""
    data = catalog_schemas.check_body("REGION_CREATE", req.json())["region"]
    policy.admin_only(req.context, "create_region")
    region_id = req.params["region_id"]
    if "id" not in data:
        data["id"] = region_id
    elif data["id"] != region_id:
        raise HTTPError(
            400, 'Conflicting region IDs specified: "%s" != "%s"' % (region_id, data["id"])
        )
    return Response(201, {"region": region_view(req, catalog.create_region(req.db, data))})


def get_region(req):
    row = catalog.get_region(req.db, req.params["region_id"])
    return Response(200, {"region": region_view(req, row)})


def update_region(req):
    data = catalog_schemas.check_body("REGION_UPDATE", req.json())["region"]
    policy.admin_only(req.context, "update_region")
    region_id = req.params["region_id"]
    if data.get("id") is not None and data["id"] != region_id:
        raise HTTPError(400, "Cannot change ID")
    data.pop("id", None)
    row = catalog.update_region(req.db, region_id, data)
    return Response(200, {"region": region_view(req, row)})


def delete_region(req):
    policy.admin_only(req.context, "delete_region")
    catalog.delete_region(req.db, req.params["region_id"])
    return Response(204)
