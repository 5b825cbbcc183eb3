"""Nova's image proxy: ``/images`` and ``/images/detail`` (list with nova's
filters and paging), ``GET``/``DELETE /images/{id}`` (up to 2.35, a 404
from 2.36) and ``/images/{id}/metadata[/{key}]`` (up to 2.38), as
nova/api/openstack/compute/images.py, image_metadata.py and
views/images.py: nova's status and progress of a Glance status,
``minRam``/``minDisk``, ``OS-EXT-IMG-SIZE:size``, the ``server`` of a
snapshot and the Glance ``alternate`` link. Rules in
:mod:`occli.localcloud.compute.image_proxy`."""

from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.compute import image_proxy
from occli.localcloud.compute import snapshots
from occli.localcloud.compute.api import common
from occli.localcloud.compute.api import schemas

MAX_VERSION = "2.35"
METADATA_MAX_VERSION = "2.38"
# nova's ViewBuilder._get_status / _get_progress
STATUSES = {
    "active": "ACTIVE",
    "queued": "SAVING",
    "saving": "SAVING",
    "deleted": "DELETED",
    "pending_delete": "DELETED",
    "killed": "ERROR",
}
PROGRESS = {"queued": 25, "saving": 50, "active": 100}


def register(service):
    def api(method, pattern, handler, max_version=MAX_VERSION, mode="auto"):
        # Glance decides who may change what (its 403s): no project role
        service.api(method, pattern, handler, max_version=max_version, role=None, mode=mode)

    api("GET", "/images", list_images)
    api("GET", "/images/detail", list_images_detail)
    api("GET", "/images/{image_id}", show_image)
    api("DELETE", "/images/{image_id}", delete_image, mode=None)
    meta = "/images/{image_id}/metadata"
    api("GET", meta, list_metadata, METADATA_MAX_VERSION)
    api("POST", meta, create_metadata, METADATA_MAX_VERSION)
    api("PUT", meta, replace_metadata, METADATA_MAX_VERSION)
    api("GET", meta + "/{key}", show_metadata, METADATA_MAX_VERSION)
    api("PUT", meta + "/{key}", update_metadata, METADATA_MAX_VERSION)
    api("DELETE", meta + "/{key}", delete_metadata, METADATA_MAX_VERSION)


def _links(req, image_id):
    glance = req.cloud.image.prefix if req.cloud.image is not None else "/image"
    return common.links(req, "images", image_id) + [
        {
            "rel": "alternate",
            "type": "application/vnd.openstack.image",
            "href": "%s%s/images/%s" % (req.base_url, glance, image_id),
        }
    ]


def _metadata(image):
    return {k: v for k, v in image.items() if k not in snapshots.IMAGE_FIELDS}


def _basic(req, image):
    return {"id": image["id"], "name": image["name"], "links": _links(req, image["id"])}


def _detail(req, image):
    metadata = _metadata(image)
    view = {
        "id": image["id"],
        "name": image["name"],
        "minRam": int(image["min_ram"] or 0),
        "minDisk": int(image["min_disk"] or 0),
        "metadata": metadata,
        "created": image["created_at"],
        "updated": image["updated_at"],
        "status": STATUSES.get(image["status"], "UNKNOWN"),
        "progress": PROGRESS.get(image["status"], 0),
        # nova's glance module: no size yet (a queued image) is 0
        "OS-EXT-IMG-SIZE:size": image["size"] or 0,
        "links": _links(req, image["id"]),
    }
    server_id = metadata.get("instance_uuid")
    if server_id is not None:
        view["server"] = {"id": server_id, "links": common.links(req, "servers", server_id)}
    disk_config = metadata.get("auto_disk_config")
    if isinstance(disk_config, str):
        auto = disk_config.strip().lower() in ("1", "t", "true", "on", "y", "yes")
        view["OS-DCF:diskConfig"] = "AUTO" if auto else "MANUAL"
    return view


def _list(req, view, path):
    limit = common.parse_limit(req)
    found = image_proxy.listing(req.db, req.context, req.query, limit, req.arg("marker"))
    body = {"images": [view(req, image) for image in found]}
    links = common.next_links(req, found, limit, lambda image: image["id"], path)
    if links:
        body["images_links"] = links
    return Response(200, body)


def list_images(req):
    return _list(req, _basic, "images")


def list_images_detail(req):
    return _list(req, _detail, "images/detail")


def show_image(req):
    image = image_proxy.show(req.db, req.context, req.params["image_id"])
    return Response(200, {"image": _detail(req, image)})


def delete_image(req):
    """Deleted through Glance; the data file goes after the commit."""
    with req.cloud.store.transaction() as db:
        file = image_proxy.delete(db, req.context, req.params["image_id"])
    req.cloud.image.files.remove(file)
    req.cloud.image.staging.remove(file)
    return Response(204)


def list_metadata(req):
    found = image_proxy.metadata(req.db, req.context, req.params["image_id"])
    return Response(200, {"metadata": found})


def show_metadata(req):
    found = image_proxy.metadata(req.db, req.context, req.params["image_id"])
    key = req.params["key"]
    if key not in found:
        raise HTTPError(404, "The resource could not be found.")
    return Response(200, {"meta": {key: found[key]}})


def create_metadata(req):
    body = schemas.validate(schemas.metadata_set, req.json())
    image_id = req.params["image_id"]
    current = image_proxy.metadata(req.db, req.context, image_id)
    merged = dict(current, **body["metadata"])
    return Response(
        200, {"metadata": image_proxy.set_metadata(req.db, req.context, image_id, merged)}
    )


def replace_metadata(req):
    body = schemas.validate(schemas.metadata_set, req.json())
    found = image_proxy.set_metadata(req.db, req.context, req.params["image_id"], body["metadata"])
    return Response(200, {"metadata": found})


def update_metadata(req):
    meta = schemas.validate(schemas.metadata_item, req.json())["meta"]
    key, image_id = req.params["key"], req.params["image_id"]
    if key not in meta:
        raise HTTPError(400, "Request body and URI mismatch")
    current = image_proxy.metadata(req.db, req.context, image_id)
    image_proxy.set_metadata(req.db, req.context, image_id, dict(current, **meta))
    return Response(200, {"meta": meta})


def delete_metadata(req):
    key, image_id = req.params["key"], req.params["image_id"]
    current = image_proxy.metadata(req.db, req.context, image_id)
    if key not in current:
        raise HTTPError(404, "Invalid metadata key")
    del current[key]
    image_proxy.set_metadata(req.db, req.context, image_id, current)
    return Response(204)
