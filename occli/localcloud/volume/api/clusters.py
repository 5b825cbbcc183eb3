"""``/clusters`` (3.7: list, detail, show, enable, disable; replication
filters 3.26), ``/workers/cleanup`` (3.24) and ``/manageable_volumes``,
``/manageable_snapshots`` (3.8; by ``cluster`` 3.17), manage existing
(3.8 ``POST /manageable_volumes``, the legacy ``/os-volume-manage``;
cinder/api/contrib/volume_manage.py, :mod:`occli.localcloud.volume.manage`): Cinder's admin APIs
over backends (cinder/api/v3/clusters.py, workers.py,
resource_common_manage.py), answered as for a cloud with no clusters and
nothing unmanaged (:mod:`occli.localcloud.volume.clusters`). Bodies are
checked before the policy, as by Cinder's ``@validation.schema``."""

from typing import Any

from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.volume import clusters
from occli.localcloud.volume import manage
from occli.localcloud.volume import schemas
from occli.localcloud.volume import services
from occli.localcloud.volume import types
from occli.localcloud.volume.api import common
from occli.localcloud.volume.api import microversions
from occli.localcloud.volume.api import views

# cinder/api/schemas/clusters.py enable_cluster / disable_cluster
_NAME = {"type": ["string", "null"], "minLength": 0, "maxLength": 255}
ENABLE: dict[str, Any] = {
    "type": "object",
    "properties": {"name": _NAME, "binary": {"type": ["string", "null"]}},
    "required": ["name"],
    "additionalProperties": False,
}
DISABLE: dict[str, Any] = {
    **ENABLE,
    "properties": {**ENABLE["properties"], "disabled_reason": {"type": ["string", "null"]}},
}


_MANAGE = microversions.MANAGE_EXISTING_LIST


def register(service):
    gate = microversions.CLUSTER_SUPPORT
    service.api("GET", "/clusters", list_clusters, min_version=gate)
    service.api("GET", "/clusters/detail", list_clusters, min_version=gate)
    service.api("PUT", "/clusters/enable", enable_cluster, min_version=gate, role=None)
    service.api("PUT", "/clusters/disable", disable_cluster, min_version=gate, role=None)
    service.api("GET", "/clusters/{cluster_name}", show_cluster, min_version=gate)
    service.api(
        "POST",
        "/workers/cleanup",
        workers_cleanup,
        min_version=microversions.WORKERS_CLEANUP,
        role=None,
    )
    for collection in ("manageable_volumes", "manageable_snapshots"):
        for path in ("/" + collection, "/%s/detail" % collection):
            service.api(
                "GET", path, list_manageable, min_version=microversions.MANAGE_EXISTING_LIST
            )
    service.api("POST", "/manageable_volumes", manage_volume, min_version=_MANAGE, role=None)
    service.api("POST", "/os-volume-manage", manage_volume, role=None)


def _admin(req, rule):
    if not req.context.is_admin:
        raise common.policy_denied(rule)


def list_clusters(req):
    _admin(req, "clusters:get_all")
    replication = req.microversion >= microversions.REPLICATION_CLUSTER
    return Response(200, {"clusters": clusters.listing(common.query_params(req), replication)})


def show_cluster(req):
    _admin(req, "clusters:get")
    cluster = clusters.cluster(req.params["cluster_name"], services.VOLUME)
    return Response(200, {"cluster": cluster})


def _update(req, schema):
    body = schemas.validate(schema, req.json())
    _admin(req, "clusters:update")
    clusters.cluster(body["name"], body.get("binary", services.VOLUME))


def enable_cluster(req):
    return _update(req, ENABLE)


def disable_cluster(req):
    return _update(req, DISABLE)


def workers_cleanup(req):
    body = schemas.validate(clusters.CLEANUP, req.json(required=False) or {})
    _admin(req, "workers:cleanup")
    cleaning = clusters.cleanup(req.db, body)
    return Response(202, {"cleaning": cleaning, "unavailable": []})


def list_manageable(req):
    resource = "snapshot" if "/manageable_snapshots" in req.path else "volume"
    _admin(req, "%s_extension:list_manageable" % resource)
    params = common.query_params(req)
    if req.microversion >= microversions.MANAGE_EXISTING_CLUSTER:
        cluster_name, text = (
            params.get("cluster"),
            "One and only one of cluster and host must be set.",
        )
    else:
        cluster_name, text = None, "Host field is missing."
    host = params.get("host")
    if bool(cluster_name) == bool(host):
        raise HTTPError(400, "Invalid input received: " + text)
    common.limit(params)
    keys, dirs = common.sort(params)
    if "sort" not in params and "sort_key" not in params:
        keys = ["reference"]
    found = clusters.manageable(req.db, host, cluster_name, (keys, dirs))
    return Response(200, {"manageable-%ss" % resource: found})


def manage_volume(req):
    """Cinder's ``VolumeManageController.create`` (the legacy view, at any
    version, as Cinder's FIXME says); the cluster from 3.16."""
    clustered = req.microversion >= microversions.VOLUME_MIGRATE_CLUSTER
    body = schemas.validate(manage.MANAGE_316 if clustered else manage.MANAGE, req.json())
    _admin(req, "volume_extension:volume_manage")
    volume = body["volume"]
    if clustered:
        cluster_name, text = (
            volume.get("cluster"),
            "One and only one of cluster and host must be set.",
        )
    else:
        cluster_name, text = None, "Host field is missing."
    host = volume.get("host")
    if bool(cluster_name) == bool(host):
        raise HTTPError(400, "Invalid input received: " + text)
    keys = ("ref", "volume_type", "metadata", "availability_zone")
    spec = {key: volume.get(key) for key in keys}
    for key in ("name", "description"):
        if volume.get(key):
            spec[key] = volume[key].strip()
    spec["bootable"] = schemas.truthy(volume.get("bootable", False))
    row = manage.manage(req.db, req.context, host, cluster_name, spec)
    view = views.volume_detail(req, row, types.names(req.db), [], extended=False)
    return Response(202, {"volume": view})
