"""``/volumes``: list (summary and detail: filters, sorting, paging,
``with_count`` 3.45), create (blank, from an image, a snapshot or a
volume), show, update, delete (``force``, ``cascade``) and the
``os-extend``, ``os-volume_upload_image`` and admin ``os-force_delete`` actions."""

from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.volume import attachments
from occli.localcloud.volume import list_filters
from occli.localcloud.volume import schemas
from occli.localcloud.volume import snapshots
from occli.localcloud.volume import types
from occli.localcloud.volume import volumes
from occli.localcloud.volume.api import actions
from occli.localcloud.volume.api import common
from occli.localcloud.volume.api import microversions
from occli.localcloud.volume.api import views


def register(service):
    service.api("GET", "/volumes", list_volumes)
    service.api("GET", "/volumes/detail", list_volumes_detail)
    service.api(
        "GET", "/volumes/summary", volume_summary, min_version=microversions.VOLUME_SUMMARY
    )
    service.api("POST", "/volumes", create_volume)
    service.api("GET", "/volumes/{volume_id}", show_volume)
    service.api("PUT", "/volumes/{volume_id}", update_volume)
    service.api("DELETE", "/volumes/{volume_id}", delete_volume)
    service.api("POST", "/volumes/{volume_id}/action", volume_action)


def _view(req, volume, extended=True):
    """``extended=False``: without the API extensions' attributes, as
    Cinder 29's update answers (recorded in
    tests/fixtures/volume/realcloud/cinder-29-volumes.json)."""
    return views.volume_detail(
        req,
        volume,
        types.names(req.db),
        volumes.attachments(req.db, volume["id"]),
        extended=extended,
        multiattach_types=attachments.multiattach_types(req.db),
    )


def _allowed_filters(req):
    """The filters a volume list takes at the request's microversion
    (cinder/api/v3/volumes.py ``_MV_ADDED_FILTERS`` before the resource
    filters of 3.31; from them ``glance_metadata``, not configured, is an
    admin's; ``key~`` from 3.34)."""
    version = req.microversion
    allowed: tuple[str, ...] = volumes.FILTERS
    if version < microversions.RESOURCE_FILTER_CONFIGURED:
        allowed = tuple(f for f in allowed if f not in list_filters.TIMES)
    if version >= microversions.VOLUME_LIST_GLANCE_METADATA and (
        req.context.is_admin or version < microversions.RESOURCE_FILTER_CONFIGURED
    ):
        allowed += (list_filters.GLANCE_METADATA,)
    if version >= microversions.LIKE_FILTER:
        allowed += list_filters.like_keys(volumes.FILTERS)
    return allowed


def _list(req):
    params = common.query_params(req)
    filters = common.filters(req, params, _allowed_filters(req), counted=True)
    filters = volumes.parse_filters(filters)
    if "display_name" in params and "name" not in filters:
        filters["name"] = params["display_name"]
    order = volumes.sort_order(*common.sort(params))
    limit = common.limit(params)
    found = volumes.listing(
        req.db,
        req.context,
        common.volumes_lazy(req),
        common.scope(req, params),
        filters,
        order,
        params.get("marker"),
        None,
    )
    total = len(found)
    offset = params.get("offset")
    if offset is not None:
        try:
            start = int(offset)
        except ValueError:
            raise HTTPError(400, "offset param must be an integer") from None
        if start < 0:
            raise HTTPError(400, "offset param must be positive")
        found = found[start:]
    page = found if limit is None else found[:limit]
    return page, total, limit, params


def _list_body(req, render, collection):
    """A volume list answer; ``render(page)``: the page's views."""
    page, total, limit, params = _list(req)
    body = {"volumes": render(page)}
    link = views.next_link(req, collection, page, limit)
    if link:
        body["volumes_links"] = link
    if common.counts(req, params):
        body["count"] = total
    return Response(200, body)


def list_volumes(req):
    return _list_body(req, lambda page: [views.volume_summary(req, v) for v in page], "volumes")


def list_volumes_detail(req):
    def render(page):
        names, multi = types.names(req.db), attachments.multiattach_types(req.db)
        attached = volumes.attachments_of(req.db, [v["id"] for v in page])
        return [
            views.volume_detail(req, v, names, attached.get(v["id"], []), multiattach_types=multi)
            for v in page
        ]

    return _list_body(req, render, "volumes/detail")


def create_volume(req):
    schema = schemas.VOLUME_CREATE_353 if req.microversion >= "3.53" else schemas.VOLUME_CREATE
    body = schemas.validate(schema, req.json())["volume"]
    if body.get("multiattach") is not None and schemas.truthy(body["multiattach"]):
        raise HTTPError(
            400,
            "multiattach parameter has been removed. The default behavior is to use"
            " multiattach enabled volume types. Contact your administrator to create a"
            " multiattach enabled volume type and use it to create multiattach volumes.",
        )
    spec = {
        "name": body.get("name", body.get("display_name")),
        "description": body.get("description", body.get("display_description")),
        "volume_type": body.get("volume_type"),
        "metadata": body.get("metadata"),
        "snapshot_id": body.get("snapshot_id"),
        "source_volid": body.get("source_volid"),
        "imageRef": body.get("imageRef", body.get("image_id")),
        "availability_zone": body.get("availability_zone"),
        "size": schemas.size(body.get("size")),
        # cinder/api/v3/volumes.py: a group from 3.13 (GROUP_VOLUME)
        "group_id": body.get("group_id") if req.microversion >= "3.13" else None,
        "nova_images": req.microversion >= microversions.SUPPORT_NOVA_IMAGE,
    }
    for key in ("name", "description"):
        if isinstance(spec[key], str):
            spec[key] = spec[key].strip()
    volume = volumes.create(req.db, req.context, req.cloud.store, req.cloud.config, spec)
    view = views.volume_detail(
        req,
        volume,
        types.names(req.db),
        [],
        extended=False,
        multiattach_types=attachments.multiattach_types(req.db),
    )
    return Response(202, {"volume": view})


def show_volume(req):
    return Response(200, {"volume": _view(req, common.volume(req))})


def update_volume(req):
    schema = schemas.VOLUME_UPDATE_353 if req.microversion >= "3.53" else schemas.VOLUME_UPDATE
    body = schemas.validate(schema, req.json())["volume"]
    volume = common.volume(req)
    changes = common.name_changes(body)
    if "metadata" in body:
        changes["metadata"] = body["metadata"]
    volumes.update(req.db, volume, changes)
    return Response(200, {"volume": _view(req, volume, extended=False)})


def delete_volume(req):
    params = common.query_params(req)
    force = schemas.truthy(params.get("force", "false"))
    cascade = schemas.truthy(params.get("cascade", "false"))
    if force and not req.context.is_admin:
        raise common.policy_denied("volume:force_delete")
    volume = common.volume(req)
    if cascade:
        for snap in snapshots.listing(
            req.db, common.snapshots_lazy(req), None, {"volume_id": volume["id"]},
            snapshots.sort_order([], []), None, None,
        ):  # fmt: skip
            if not force and snap["status"] not in ("available", "error", "deleting"):
                raise HTTPError(400, "Invalid volume: Failed to update snapshot.")
            snapshots.delete(req.db, snap, force=True)
    volumes.delete(req.db, volume, force=force)
    return Response(202, content_type=common.WEBOB_TYPE)


def volume_action(req):
    """``POST /volumes/{id}/action``: the handler of ``ACTIONS`` the body
    names, Cinder's 400 for any other (an action of a later microversion
    than the request's: Cinder's 404)."""
    body = req.json()
    action = common.action_name(body)
    if action not in ACTIONS:
        raise common.no_such_action(action)
    min_version, handler = ACTIONS[action]
    if min_version is not None and req.microversion < min_version:
        # as the real Cinder 29 answers (its VersionNotFoundForAPIMethod)
        raise HTTPError(404, "The resource could not be found.")
    return handler(req, body)


def volume_summary(req):
    """``GET /volumes/summary`` (3.12; the metadata from 3.36): the
    project's volumes, every project's for an admin's ``all_tenants``."""
    params = common.query_params(req)
    count, size, metadata = volumes.summary(req.db, common.scope(req, params))
    summary: dict[str, object] = {"total_count": count, "total_size": size}
    if req.microversion >= microversions.VOLUME_SUMMARY_METADATA:
        summary["metadata"] = metadata
    return Response(200, {"volume-summary": summary})


def _revert(req, body):
    """``revert`` (cinder/api/v3/volumes.py): to the latest snapshot."""
    snapshot_id = schemas.validate(REVERT, body)["revert"].get("snapshot_id")
    volume = common.volume(req)
    volumes.revert(req.db, volume, snapshot_id, common.snapshots_lazy(req))
    return Response(202)


def _retype(req, body):
    """``os-retype``: the type by name or id as an admin finds it."""
    params = schemas.validate(RETYPE, body)["os-retype"]
    volume = common.volume(req)
    new_type = types.by_name_or_id(req.db, _Elevated(req.context), params["new_type"])
    volumes.retype(req.db, volume, new_type)
    return Response(202)


def _reset_status(req, body):
    """The admin's ``os-reset_status``: the lookup, then the policy."""
    update = schemas.validate(RESET_STATUS, body)["os-reset_status"]
    volume = common.volume(req)
    if not req.context.is_admin:
        raise common.policy_denied("volume_extension:volume_admin_actions:reset_status")
    volumes.reset_status(req.db, volume, update)
    return Response(202)


def _force_delete(req, body):
    """The admin's ``os-force_delete`` (cinder/api/contrib/admin_actions.py
    ``VolumeAdminController``): the lookup, then the policy, then the
    delete with ``force`` (any status, still not attached nor with
    snapshots)."""
    volume = common.volume(req)
    if not req.context.is_admin:
        raise common.policy_denied("volume_extension:volume_admin_actions:force_delete")
    volumes.delete(req.db, volume, force=True)
    return Response(202)


class _Elevated:
    """``context.elevated()``: the caller, with an admin's sight."""

    is_admin = True

    def __init__(self, caller):
        self.project_id, self.user_id = caller.project_id, caller.user_id


def _extend(req, body):
    new_size = schemas.validate(schemas.EXTEND, body)["os-extend"]["new_size"]
    volume = common.volume(req)
    volumes.extend(
        req.db,
        volume,
        schemas.size(new_size, "new_size"),
        req.microversion >= microversions.EXTEND_ATTACHED,
    )
    return Response(202)


def _upload_image(req, body):
    """``os-volume_upload_image`` (cinder/api/contrib/volume_actions.py
    ``_volume_upload_image``): 202 with the action's answer; ``visibility``
    and ``protected`` from 3.1 (a public image is an admin's), else the
    image is Glance's default ``shared``. ``force`` counts only when the
    cloud enables it (Cinder's ``enable_force_upload``)."""
    params_31 = req.microversion >= microversions.UPLOAD_IMAGE_PARAMS
    schema = schemas.UPLOAD_IMAGE_31 if params_31 else schemas.UPLOAD_IMAGE
    params = schemas.validate(schema, body)["os-volume_upload_image"]
    volume = common.volume(req)
    image = {
        "name": params["image_name"],
        "disk_format": params.get("disk_format", "raw"),
        "container_format": params.get("container_format", "bare"),
        "visibility": params.get("visibility", "private") if params_31 else "shared",
        "protected": params_31 and schemas.truthy(params.get("protected", False)),
    }
    if image["visibility"] == "public" and not req.context.is_admin:
        raise common.policy_denied("volume_extension:volume_actions:upload_public")
    force = schemas.truthy(params.get("force", False)) and req.cloud.config.enable_force_upload
    answer = volumes.upload_to_image(
        req.db, req.context, volume, image, force, req.cloud.config.build_time
    )
    return Response(202, {"os-volume_upload_image": answer})


# cinder/api/schemas/volumes.py revert, volume_actions.py retype,
# admin_actions.py reset_status_volume
REVERT = {
    "type": "object",
    "properties": {
        "revert": {
            "type": "object",
            "properties": {"snapshot_id": {"type": ["string", "null"]}},
            "additionalProperties": True,
        }
    },
    "required": ["revert"],
    "additionalProperties": False,
}
RETYPE = {
    "type": "object",
    "properties": {
        "os-retype": {
            "type": "object",
            "properties": {
                "new_type": {"type": "string"},
                "migration_policy": {"type": ["string", "null"], "enum": ["on-demand", "never"]},
            },
            "required": ["new_type"],
            "additionalProperties": False,
        }
    },
    "required": ["os-retype"],
    "additionalProperties": False,
}
_STATUS = {"type": ["string", "null"]}
RESET_STATUS = {
    "type": "object",
    "properties": {
        "os-reset_status": {
            "type": "object",
            "properties": dict.fromkeys(("status", "attach_status", "migration_status"), _STATUS),
            "additionalProperties": False,
        }
    },
    "required": ["os-reset_status"],
    "additionalProperties": False,
}

# the volume actions: name -> (the microversion they need or None, handler(req, body))
ACTIONS = {
    "os-extend": (None, _extend),
    "os-volume_upload_image": (None, _upload_image),
    "os-retype": (None, _retype),
    "os-reset_status": (None, _reset_status),
    "os-force_delete": (None, _force_delete),
    "revert": (microversions.VOLUME_REVERT, _revert),
}
# the attach flow, connections, flags and image metadata (api/actions.py)
ACTIONS.update(actions.ACTIONS)
