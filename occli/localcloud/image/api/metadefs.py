"""``/v2/metadefs``: Glance's metadata definitions (namespaces and their
objects, properties, resource type associations and tags; every write an
admin's, policy ``metadef_admin``). The rules are in
:mod:`occli.localcloud.image.metadefs`."""

from urllib.parse import urlencode

from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.image import metadefs
from occli.localcloud.image.api.body import json_body

NS = "/v2/metadefs/namespaces"
ONE = NS + "/{namespace}"


def register(service):
    # metadef_admin decides the writes: role=None, the rules check it
    def route(method, pattern, handler):
        service.route(method, pattern, handler, role=None)

    route("GET", "/v2/metadefs/resource_types", list_resource_types)
    route("GET", NS, list_namespaces)
    route("POST", NS, create_namespace)
    route("GET", ONE, show_namespace)
    route("PUT", ONE, update_namespace)
    route("DELETE", ONE, delete_namespace)
    for kind in ("objects", "properties", "tags"):
        route("DELETE", ONE + "/" + kind, delete_all)
    route("GET", ONE + "/objects", list_objects)
    route("POST", ONE + "/objects", create_object)
    route("GET", ONE + "/objects/{object_name}", show_object)
    route("PUT", ONE + "/objects/{object_name}", update_object)
    route("DELETE", ONE + "/objects/{object_name}", delete_object)
    route("GET", ONE + "/properties", list_properties)
    route("POST", ONE + "/properties", create_property)
    route("GET", ONE + "/properties/{property_name}", show_property)
    route("PUT", ONE + "/properties/{property_name}", update_property)
    route("DELETE", ONE + "/properties/{property_name}", delete_property)
    route("GET", ONE + "/resource_types", list_associations)
    route("POST", ONE + "/resource_types", create_association)
    route("DELETE", ONE + "/resource_types/{resource_type}", delete_association)
    route("GET", ONE + "/tags", list_tags)
    route("POST", ONE + "/tags", create_tags)
    route("GET", ONE + "/tags/{tag_name}", show_tag)
    route("POST", ONE + "/tags/{tag_name}", create_tag)
    route("PUT", ONE + "/tags/{tag_name}", update_tag)
    route("DELETE", ONE + "/tags/{tag_name}", delete_tag)


def _list_query(req):
    """limit, marker, sort_key, sort_dir and the filters, checked as
    Glance's ``RequestDeserializer.index``."""
    params = {key: values[-1] for key, values in req.query.items()}
    sort_dir = params.pop("sort_dir", "desc")
    if sort_dir not in ("asc", "desc"):
        raise HTTPError(400, "Invalid sort direction: %s" % sort_dir)
    visibility = params.get("visibility")
    if visibility and visibility not in ("public", "private"):
        raise HTTPError(400, "Invalid visibility value: %s" % visibility)
    limit = params.pop("limit", None)
    try:
        limit = metadefs.DEFAULT_LIMIT if limit is None else int(limit)
    except ValueError:
        raise HTTPError(400, "limit param must be an integer") from None
    if limit < 0:
        raise HTTPError(400, "limit param must be positive")
    marker = params.pop("marker", None)
    sort_key = params.pop("sort_key", "created_at")
    return params, min(limit, metadefs.MAX_LIMIT), marker, sort_key, sort_dir


def list_namespaces(req):
    """``GET /v2/metadefs/namespaces`` with Glance's ``first``/``next``."""
    filters, limit, marker, sort_key, sort_dir = _list_query(req)
    found = metadefs.list_namespaces(
        req.db, req.context, filters, limit, marker, sort_key, sort_dir
    )
    pairs = [(k, v[-1]) for k, v in req.query.items() if k != "marker"]
    body = {
        "namespaces": found,
        "first": NS + ("?" + urlencode(pairs) if pairs else ""),
        "schema": "/v2/schemas/metadefs/namespaces",
    }
    if found and len(found) == limit:
        body["next"] = NS + "?" + urlencode(pairs + [("marker", found[-1]["namespace"])])
    return Response(200, body)


def create_namespace(req):
    ns = metadefs.create_namespace(req.db, req.context, json_body(req))
    return Response(201, ns, headers={"Location": ns["self"]})


def show_namespace(req):
    resource_type = req.arg("resource_type")
    ns = metadefs.show_namespace(req.db, req.context, req.params["namespace"], resource_type)
    return Response(200, ns)


def update_namespace(req):
    ns = metadefs.update_namespace(req.db, req.context, req.params["namespace"], json_body(req))
    return Response(200, ns)


def delete_namespace(req):
    metadefs.delete_namespace(req.db, req.context, req.params["namespace"])
    return Response(204)


def delete_all(req):
    """``DELETE …/objects``, ``…/properties``, ``…/tags``: 204."""
    kind = req.path.rsplit("/", 1)[1]
    metadefs.delete_all(req.db, req.context, req.params["namespace"], kind)
    return Response(204)


def list_objects(req):
    found = metadefs.list_objects(req.db, req.context, req.params["namespace"])
    # Glance's text: no leading slash
    return Response(200, {"objects": found, "schema": "v2/schemas/metadefs/objects"})


def create_object(req):
    return Response(
        201, metadefs.create_object(req.db, req.context, req.params["namespace"], json_body(req))
    )


def show_object(req):
    p = req.params
    return Response(
        200, metadefs.show_object(req.db, req.context, p["namespace"], p["object_name"])
    )


def update_object(req):
    p = req.params
    obj = metadefs.update_object(
        req.db, req.context, p["namespace"], p["object_name"], json_body(req)
    )
    return Response(200, obj)


def delete_object(req):
    metadefs.delete_object(req.db, req.context, req.params["namespace"], req.params["object_name"])
    return Response(204)


def list_properties(req):
    found = metadefs.list_properties(req.db, req.context, req.params["namespace"])
    return Response(200, {"properties": found})


def create_property(req):
    return Response(
        201, metadefs.create_property(req.db, req.context, req.params["namespace"], json_body(req))
    )


def show_property(req):
    p = req.params
    found = metadefs.show_property(req.db, req.context, p["namespace"], p["property_name"])
    return Response(200, found)


def update_property(req):
    p = req.params
    found = metadefs.update_property(
        req.db, req.context, p["namespace"], p["property_name"], json_body(req)
    )
    return Response(200, found)


def delete_property(req):
    p = req.params
    metadefs.delete_property(req.db, req.context, p["namespace"], p["property_name"])
    return Response(204)


def list_resource_types(req):
    return Response(200, {"resource_types": metadefs.list_resource_types(req.db)})


def list_associations(req):
    found = metadefs.list_associations(req.db, req.context, req.params["namespace"])
    return Response(200, {"resource_type_associations": found})


def create_association(req):
    found = metadefs.create_association(
        req.db, req.context, req.params["namespace"], json_body(req)
    )
    return Response(201, found)


def delete_association(req):
    p = req.params
    metadefs.delete_association(req.db, req.context, p["namespace"], p["resource_type"])
    return Response(204)


def list_tags(req):
    found = metadefs.list_tags(req.db, req.context, req.params["namespace"])
    return Response(200, {"tags": [{"name": tag["name"]} for tag in found]})


def create_tags(req):
    """``POST …/tags``: 201; ``X-Openstack-Append: true`` keeps the others."""
    append = (req.header("X-Openstack-Append") or "").strip().lower() in (
        "1",
        "true",
        "yes",
        "on",
        "y",
        "t",
    )
    found = metadefs.create_tags(
        req.db, req.context, req.params["namespace"], json_body(req), append
    )
    return Response(201, {"tags": found})


def show_tag(req):
    p = req.params
    return Response(200, metadefs.show_tag(req.db, req.context, p["namespace"], p["tag_name"]))


def create_tag(req):
    p = req.params
    return Response(201, metadefs.create_tag(req.db, req.context, p["namespace"], p["tag_name"]))


def update_tag(req):
    p = req.params
    found = metadefs.update_tag(req.db, req.context, p["namespace"], p["tag_name"], json_body(req))
    return Response(200, found)


def delete_tag(req):
    metadefs.delete_tag(req.db, req.context, req.params["namespace"], req.params["tag_name"])
    return Response(204)
