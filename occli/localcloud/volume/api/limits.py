"""``/limits`` (``cinder/api/v3/limits.py``, ``views/limits.py`` and the
``os-used-limits`` extension): the project's absolute limits and what it
uses; no rate limits. An admin's ``project_id`` (or ``tenant_id``) names
another project from 3.39 (limits and used counts alike: Cinder's
used-limits check is ``> 3.38``)."""

from occli.localcloud.app import Response
from occli.localcloud.volume import quotas
from occli.localcloud.volume.api import common
from occli.localcloud.volume.api import microversions

_MAX = {
    "gigabytes": "maxTotalVolumeGigabytes",
    "backup_gigabytes": "maxTotalBackupGigabytes",
    "volumes": "maxTotalVolumes",
    "snapshots": "maxTotalSnapshots",
    "backups": "maxTotalBackups",
}
_USED = {
    "totalVolumesUsed": "volumes",
    "totalGigabytesUsed": "gigabytes",
    "totalSnapshotsUsed": "snapshots",
    "totalBackupsUsed": "backups",
    "totalBackupGigabytesUsed": "backup_gigabytes",
}


def register(service):
    service.api("GET", "/limits", show_limits)


def _project(req):
    params = common.query_params(req)
    if req.microversion < microversions.LIMITS_ADMIN_FILTER or not req.context.is_admin:
        return req.context.project_id
    return params.get("project_id", params.get("tenant_id", req.context.project_id))


def show_limits(req):
    project_id = _project(req)
    limits = quotas.limits(req.db, project_id)
    absolute = {_MAX[k]: v for k, v in limits.items() if k in _MAX}
    used = quotas.usage(req.db, project_id)
    absolute.update({name: used[key] for name, key in _USED.items()})
    return Response(200, {"limits": {"rate": [], "absolute": absolute}})
