"""``/volumes/{volume_id}/metadata[/{key}]``: show, create (merge),
replace, and one item's show, update and delete."""

from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.volume import schemas
from occli.localcloud.volume import volumes
from occli.localcloud.volume.api import common


def register(service):
    service.api("GET", "/volumes/{volume_id}/metadata", show_metadata)
    service.api("POST", "/volumes/{volume_id}/metadata", create_metadata)
    service.api("PUT", "/volumes/{volume_id}/metadata", replace_metadata)
    service.api("GET", "/volumes/{volume_id}/metadata/{key}", show_metadata_item)
    service.api("PUT", "/volumes/{volume_id}/metadata/{key}", update_metadata_item)
    service.api("DELETE", "/volumes/{volume_id}/metadata/{key}", delete_metadata_item)


def show_metadata(req):
    return Response(200, {"metadata": volumes.metadata(common.volume(req))})


def create_metadata(req):
    items = schemas.validate(schemas.METADATA, req.json())["metadata"]
    volume = common.volume(req)
    return Response(200, {"metadata": volumes.set_metadata(req.db, volume, items)})


def replace_metadata(req):
    items = schemas.validate(schemas.METADATA, req.json())["metadata"]
    volume = common.volume(req)
    return Response(200, {"metadata": volumes.set_metadata(req.db, volume, items, replace=True)})


def show_metadata_item(req):
    volume, key = common.volume(req), req.params["key"]
    current = volumes.metadata(volume)
    if key not in current:
        raise HTTPError(404, "Volume %s has no metadata with key %s." % (volume["id"], key))
    return Response(200, {"meta": {key: current[key]}})


def update_metadata_item(req):
    item = schemas.validate(schemas.METADATA_ITEM, req.json())["meta"]
    key = req.params["key"]
    if key not in item:
        raise HTTPError(400, "Request body and URI mismatch")
    if len(item) > 1:
        raise HTTPError(400, "Request body contains too many items")
    volumes.set_metadata(req.db, common.volume(req), item)
    return Response(200, {"meta": item})


def delete_metadata_item(req):
    volumes.delete_metadata(req.db, common.volume(req), req.params["key"])
    return Response(200)
