"""``/volumes/{volume_id}/metadata[/{key}]``: show, create (merge),
replace, and one item's show, update and delete; from 3.15 the show sends
an ``Etag`` and the two updates honour ``If-Match`` (412 for a stale one),
against lost updates (cinder/api/v3/volume_metadata.py)."""

import hashlib
import json

from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.volume import schemas
from occli.localcloud.volume import volumes
from occli.localcloud.volume.api import common
from occli.localcloud.volume.api import microversions


def register(service):
    service.api("GET", "/volumes/{volume_id}/metadata", show_metadata)
    service.api("POST", "/volumes/{volume_id}/metadata", create_metadata)
    service.api("PUT", "/volumes/{volume_id}/metadata", replace_metadata)
    service.api("GET", "/volumes/{volume_id}/metadata/{key}", show_metadata_item)
    service.api("PUT", "/volumes/{volume_id}/metadata/{key}", update_metadata_item)
    service.api("DELETE", "/volumes/{volume_id}/metadata/{key}", delete_metadata_item)


def _etag(metadata):
    """Cinder's ETag: the MD5 of ``{"metadata": …}`` as jsonutils dumps it."""
    data = json.dumps({"metadata": metadata}).encode()
    return hashlib.md5(data, usedforsecurity=False).hexdigest()


def _stale(req):
    """Whether, from 3.15, an ``If-Match`` names no ETag of the current
    metadata (webob's list of quoted or bare tags)."""
    header = req.header("If-Match")
    if req.microversion < microversions.ETAGS or not header:
        return False
    tags = [tag.strip().strip('"') for tag in header.split(",")]
    return _etag(volumes.metadata(common.volume(req))) not in tags


def show_metadata(req):
    metadata = volumes.metadata(common.volume(req))
    if req.microversion >= microversions.ETAGS:
        return Response(
            200,
            {"metadata": metadata},
            headers={"Etag": _etag(metadata)},
            content_type=common.WEBOB_TYPE,
        )
    return Response(200, {"metadata": metadata})


def create_metadata(req):
    items = schemas.validate(schemas.METADATA, req.json())["metadata"]
    volume = common.volume(req)
    return Response(200, {"metadata": volumes.set_metadata(req.db, volume, items)})


def replace_metadata(req):
    items = schemas.validate(schemas.METADATA, req.json())["metadata"]
    if _stale(req):
        return Response(412, content_type=common.WEBOB_TYPE)
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
    if _stale(req):
        return Response(412, content_type=common.WEBOB_TYPE)
    key = req.params["key"]
    if key not in item:
        raise HTTPError(400, "Request body and URI mismatch")
    if len(item) > 1:
        raise HTTPError(400, "Request body contains too many items")
    volumes.set_metadata(req.db, common.volume(req), item)
    return Response(200, {"meta": item})


def delete_metadata_item(req):
    volumes.delete_metadata(req.db, common.volume(req), req.params["key"])
    return Response(200, content_type=common.WEBOB_TYPE)
