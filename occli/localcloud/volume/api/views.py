"""Cinder's JSON views of volumes and snapshots, per microversion
(``cinder/api/v3/views``)."""

import json

# microversions that add fields (cinder/api/microversions.py)
GROUP_VOLUME = "3.13"
GROUP_SNAPSHOTS = "3.14"
VOLUME_DETAIL_PROVIDER_ID = "3.21"
SNAPSHOT_LIST_USER_ID = "3.41"
VOLUME_SHARED_TARGETS_AND_SERVICE_FIELDS = "3.48"
VOLUME_CLUSTER_NAME = "3.61"
VOLUME_TYPE_ID_IN_VOLUME_DETAIL = "3.63"
USE_QUOTA = "3.65"
# the uuid of the local cinder-volume service, a scheduled volume's
# service_uuid (Cinder's services.uuid)
SERVICE_UUID = "6f3b2d0e-5c1a-4e8b-9f7d-2a4c6e8b0d13"


def _root(req):
    """``(service URL, "/<project id>" or "")`` as the request was routed."""
    project = req.params.get("project_id")
    return req.base_url + req.cloud.volume.prefix, "/" + project if project else ""


def links(req, collection, ident):
    base, part = _root(req)
    return [
        {"href": "%s/v3%s/%s/%s" % (base, part, collection, ident), "rel": "self"},
        {"href": "%s%s/%s/%s" % (base, part, collection, ident), "rel": "bookmark"},
    ]


def volume_summary(req, volume):
    return {
        "id": volume["id"],
        "name": volume["name"],
        "links": links(req, "volumes", volume["id"]),
    }


def _attachment(att, admin):
    return {
        "id": att["volume_id"],
        "attachment_id": att["id"],
        "volume_id": att["volume_id"],
        "server_id": att["instance_uuid"],
        "host_name": att["attached_host"] if admin else None,
        "device": att["mountpoint"],
        "attached_at": att["attached_at"],
    }


# cinder/utils.py's _visible_admin_metadata_keys
VISIBLE_ADMIN_METADATA = ("readonly", "attached_mode")


def _metadata(volume):
    """The volume's metadata with its visible admin metadata over it
    (Cinder's ``add_visible_admin_metadata``: ``readonly`` once attached
    or flagged, ``attached_mode`` while attached)."""
    metadata = json.loads(volume["metadata"])
    # a volume just created has none yet (its row not read back)
    admin = json.loads(volume["admin_metadata"]) if "admin_metadata" in volume.keys() else {}  # noqa: SIM118 - a row or a dict
    metadata.update({k: admin[k] for k in VISIBLE_ADMIN_METADATA if k in admin})
    return metadata


def volume_detail(req, volume, type_names, attachments, extended=True, multiattach_types=()):
    """``type_names``: ``{type id: name}``; ``attachments``: the volume's
    attachment rows; ``extended``: with the attributes Cinder's API
    extensions add to show and list answers (not to a create's);
    ``multiattach_types``: the ids of the multiattach types (Cinder's
    ``multiattach``: true for a volume of a type whose extra specs say
    ``multiattach: <is> True``)."""
    version, admin = req.microversion, req.context.is_admin
    view = {
        "id": volume["id"],
        "status": volume["status"],
        "size": volume["size"],
        "availability_zone": volume["availability_zone"],
        "created_at": volume["created_at"],
        "updated_at": volume["updated_at"],
        "name": volume["name"],
        "description": volume["description"],
        "volume_type": type_names.get(volume["volume_type_id"], volume["volume_type_id"]),
        "snapshot_id": volume["snapshot_id"],
        "source_volid": volume["source_volid"],
        "metadata": _metadata(volume),
        "links": links(req, "volumes", volume["id"]),
        "user_id": volume["user_id"],
        "bootable": "true" if volume["bootable"] else "false",
        "encrypted": False,
        "replication_status": None,
        "consistencygroup_id": None,
        "multiattach": volume["volume_type_id"] in multiattach_types,
        "attachments": [
            _attachment(a, admin) for a in attachments if a["attach_status"] == "attached"
        ],
    }
    if extended:
        view["os-vol-tenant-attr:tenant_id"] = volume["project_id"]
        if volume["image_metadata"]:
            view["volume_image_metadata"] = json.loads(volume["image_metadata"])
    if admin:
        view["migration_status"] = volume.get("migration_status")
    if admin and extended:
        view["os-vol-host-attr:host"] = "localcloud@lvm#lvm"
        view["os-vol-mig-status-attr:migstat"] = volume.get("migration_status")
        view["os-vol-mig-status-attr:name_id"] = volume.get("name_id")
    if version >= GROUP_VOLUME:
        view["group_id"] = volume.get("group_id")
    if admin and version >= VOLUME_DETAIL_PROVIDER_ID:
        view["provider_id"] = None
    if version >= VOLUME_SHARED_TARGETS_AND_SERVICE_FIELDS:
        # as Cinder 29 answers (tests/fixtures/volume/realcloud/): the
        # column's default (true) and no service until the volume is on a
        # host, then the backend's (the local one shares no targets)
        scheduled = volume["status"] != "creating"
        view["shared_targets"] = not scheduled
        view["service_uuid"] = SERVICE_UUID if scheduled else None
    if admin and version >= VOLUME_CLUSTER_NAME:
        view["cluster_name"] = None
    if version >= VOLUME_TYPE_ID_IN_VOLUME_DETAIL:
        view["volume_type_id"] = volume["volume_type_id"]
    if version >= USE_QUOTA:
        view["consumes_quota"] = True
    return view


def snapshot_summary(req, snap):
    """Cinder's summary of a snapshot, the list's (``GET /snapshots``):
    the same keys at every microversion."""
    return {
        "id": snap["id"],
        "created_at": snap["created_at"],
        "updated_at": snap["updated_at"],
        "name": snap["name"],
        "description": snap["description"],
        "volume_id": snap["volume_id"],
        "status": snap["status"],
        "size": snap["size"],
        "metadata": json.loads(snap["metadata"]),
    }


def snapshot(req, snap, extended=True):
    """Cinder's detail view of a snapshot with the microversions' keys;
    ``extended``: with the ``os-extended-snapshot-attributes`` extension's,
    which extends only show and the detail list (not create or update)."""
    version = req.microversion
    view = snapshot_summary(req, snap)
    if version >= GROUP_SNAPSHOTS:
        view["group_snapshot_id"] = snap.get("group_snapshot_id")
    if version >= SNAPSHOT_LIST_USER_ID:
        view["user_id"] = snap["user_id"]
    if version >= USE_QUOTA:
        view["consumes_quota"] = True
    if extended:
        view["os-extended-snapshot-attributes:progress"] = snap["progress"]
        view["os-extended-snapshot-attributes:project_id"] = snap["project_id"]
    return view


def next_link(req, collection, items, limit):
    """Cinder's ``_get_collection_links``: a next link when a page is full."""
    if limit is None or not items or len(items) < limit:
        return None
    from urllib.parse import urlencode

    params = [(k, v) for k, vs in req.query.items() if k != "marker" for v in vs]
    params.append(("marker", items[-1]["id"]))
    base, part = _root(req)
    return [{"href": "%s/v3%s/%s?%s" % (base, part, collection, urlencode(params)), "rel": "next"}]
