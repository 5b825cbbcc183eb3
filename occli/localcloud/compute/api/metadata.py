"""``/servers/{id}/metadata`` and ``…/metadata/{key}``."""

from occli.localcloud.app import Response
from occli.localcloud.compute import metadata
from occli.localcloud.compute.api import common
from occli.localcloud.compute.api import schemas
from occli.localcloud.compute.api.servers import load


def register(service):
    path = "/servers/{server_id}/metadata"
    service.api("GET", path, list_metadata)
    service.api("POST", path, merge_metadata)
    service.api("PUT", path, replace_metadata)
    service.api("GET", path + "/{key}", show_item)
    service.api("PUT", path + "/{key}", set_item)
    service.api("DELETE", path + "/{key}", delete_item)


def list_metadata(req):
    return Response(200, {"metadata": metadata.items(load(req))})


def merge_metadata(req):
    body = schemas.validate(schemas.metadata_set, req.json())
    return Response(
        200, {"metadata": metadata.merge(req.db, common.caller(req), load(req), body["metadata"])}
    )


def replace_metadata(req):
    body = schemas.validate(schemas.metadata_set, req.json())
    return Response(
        200,
        {"metadata": metadata.replace(req.db, common.caller(req), load(req), body["metadata"])},
    )


def show_item(req):
    return Response(200, {"meta": metadata.item(load(req), req.params["key"])})


def set_item(req):
    body = schemas.validate(schemas.metadata_item, req.json())
    key = req.params["key"]
    if key not in body["meta"]:
        raise common.bad_request("Request body and URI mismatch")
    return Response(
        200,
        {"meta": metadata.set_item(req.db, common.caller(req), load(req), key, body["meta"][key])},
    )


def delete_item(req):
    metadata.delete_item(req.db, common.caller(req), load(req), req.params["key"])
    return Response(204)
