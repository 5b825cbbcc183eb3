"""``/scheduler-stats/get_pools`` (``cinder/api/contrib/scheduler_stats.py``)
and ``/capabilities/{host}`` (``contrib/capabilities.py``): the admin reads
the local backend's pool (``detail``: its capabilities; ``name`` filter
3.28, ``volume_type`` 3.35, another filter 400 from 3.34) and what the
backend reports it can do."""

from occli.localcloud.app import Response
from occli.localcloud.volume import pools
from occli.localcloud.volume import schemas
from occli.localcloud.volume.api import common
from occli.localcloud.volume.api import microversions


def register(service):
    service.api("GET", "/scheduler-stats/get_pools", get_pools)
    service.api("GET", "/capabilities/{host}", show_capabilities)


def get_pools(req):
    if not req.context.is_admin:
        raise common.policy_denied("scheduler_extension:scheduler_stats:get_pools")
    params = common.query_params(req)
    detail = schemas.truthy(params.pop("detail", "false"))
    found = common.filters(req, params, ("name", "volume_type"))
    if req.microversion < microversions.POOL_FILTER:
        found = {}
    if req.microversion < microversions.POOL_TYPE_FILTER:
        found.pop("volume_type", None)
    listed = pools.pools(req.db, req.context, found.get("name"), found.get("volume_type"))
    if not detail:
        listed = [{"name": p["name"]} for p in listed]
    return Response(200, {"pools": listed})


def show_capabilities(req):
    if not req.context.is_admin:
        raise common.policy_denied("volume_extension:capabilities")
    return Response(200, pools.backend_capabilities(req.db, req.params["host"]))
