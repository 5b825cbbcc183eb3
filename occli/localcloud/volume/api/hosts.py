"""``/os-hosts`` (``cinder/api/contrib/hosts.py``, deprecated in Cinder):
the admin lists the enabled services' hosts (``zone`` filter) and reads a
volume host's usage per project. Cinder's update answers 500 (its
``HostAPI.set_host_enabled`` is not implemented) and is not served."""

from occli.localcloud import errors
from occli.localcloud.app import Response
from occli.localcloud.volume import services
from occli.localcloud.volume.api import common


def register(service):
    service.api("GET", "/os-hosts", list_hosts)
    service.api("GET", "/os-hosts/{host}", show_host)


def _admin(req):
    if not req.context.is_admin:
        raise common.policy_denied("volume_extension:hosts")


def list_hosts(req):
    _admin(req)
    zone = common.query_params(req).get("zone")
    hosts = [
        {
            "host_name": svc["host"],
            "service": svc["topic"],
            "zone": svc["zone"],
            "service-status": "available",
            "service-state": "enabled",
            "last-update": svc["updated_at"],
        }
        for svc in services.listing(req.db)
        if not svc["disabled"] and (not zone or svc["zone"] == zone)
    ]
    return Response(200, {"hosts": hosts})


def show_host(req):
    _admin(req)
    host = req.params["host"]
    if host != services.BACKEND:
        raise errors.NotFound(
            "Service %s could not be found on host %s." % (services.VOLUME, host)
        )
    usage = services.usage_by_project(req.db)
    total = {"host": host, "project": "(total)"}
    for key in ("volume_count", "total_volume_gb", "snapshot_count", "total_snapshot_gb"):
        total[key] = str(sum(u[key] for u in usage.values()))
    resources = [{"resource": total}]
    for project_id, used in usage.items():
        row = {"host": host, "project": project_id}
        row.update({k: str(v) for k, v in used.items()})
        resources.append({"resource": row})
    return Response(200, {"host": resources})
