"""``/os-services`` (``cinder/api/v3/services.py``): the admin lists the
services (``host``/``binary`` filters; ``cluster`` 3.7, ``backend_state``
3.49) and enables, disables (with a reason), freezes and thaws them. The
body is checked before the policy, as by Cinder's ``@validation.schema``;
``failover_host`` is refused as for a backend without replication (a
``cluster`` from 3.26); ``set-log`` and ``get-log`` (3.32) set and show
the levels of the services' loggers; another action is the ``update``
fallback's 400 ``Unknown action``."""

from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.volume import pools
from occli.localcloud.volume import schemas
from occli.localcloud.volume import services
from occli.localcloud.volume.api import common
from occli.localcloud.volume.api import microversions

_INDEX = "volume_extension:services:index"
_UPDATE = "volume_extension:services:update"


def register(service):
    service.api("GET", "/os-services", list_services)
    service.api("PUT", "/os-services/{action}", update_service, role=None)


def _admin(req, rule):
    if not req.context.is_admin:
        raise common.policy_denied(rule)


def _view(req, svc, backend_state):
    view = {
        "binary": svc["binary"],
        "host": svc["host"],
        "zone": svc["zone"],
        "status": "disabled" if svc["disabled"] else "enabled",
        "state": "up",
        "updated_at": svc["updated_at"],
    }
    if req.microversion >= microversions.BACKEND_STATE_REPORT and svc["binary"] == services.VOLUME:
        view["backend_state"] = backend_state
    if req.microversion >= microversions.CLUSTER_SUPPORT:
        view["cluster"] = None
    view["disabled_reason"] = svc["disabled_reason"]
    if svc["binary"] == services.VOLUME:
        view["replication_status"] = "disabled"
        view["active_backend_id"] = None
        view["frozen"] = svc["frozen"]
    return view


def list_services(req):
    _admin(req, _INDEX)
    params = common.query_params(req)
    found = services.listing(req.db, params.get("host"), params.get("binary"))
    backend_state = pools.capabilities(req.db)["backend_state"]
    return Response(200, {"services": [_view(req, s, backend_state) for s in found]})


def _host(body):
    host = body.get("host")
    if not host:
        raise HTTPError(400, "Invalid input received: Host field is missing.")
    return host


def _set(req, schema, disabled):
    body = schemas.validate(schema, req.json())
    _admin(req, _UPDATE)
    host = _host(body)
    service, binary = body.get("service", ""), body.get("binary", "")
    reason = body.get("disabled_reason")
    services.set_disabled(req.db, host, binary or service, disabled, reason)
    result = {
        "host": host,
        "service": service,
        "binary": binary,
        "status": "disabled" if disabled else "enabled",
        "disabled": disabled,
    }
    if schema is services.DISABLE_REASON:
        result["disabled_reason"] = reason
    return Response(200, result)


def _freeze(req, frozen):
    body = schemas.validate(services.FREEZE, req.json())
    _admin(req, _UPDATE)
    services.set_frozen(req.db, _host(body), frozen)
    return Response(200)


def _failover(req):
    body = schemas.validate(services.FAILOVER, req.json())
    _admin(req, _UPDATE)
    if req.microversion >= microversions.REPLICATION_CLUSTER:
        cluster, reason = body.get("cluster"), "One and only one of cluster and host must be set."
    else:
        cluster, reason = None, "Host field is missing."
    host = body.get("host")
    if bool(cluster) == bool(host):
        raise HTTPError(400, "Invalid input received: " + reason)
    services.failover(req.db, host, cluster)


def _set_log(req):
    body = schemas.validate(services.SET_LOG, req.json())
    _admin(req, _UPDATE)
    services.set_log(req.db, body)
    return Response(202, content_type=common.WEBOB_TYPE)


def _get_log(req):
    body = schemas.validate(services.GET_LOG, req.json())
    _admin(req, _UPDATE)
    return Response(200, {"log_levels": services.get_log(req.db, body)})


def update_service(req):
    action = req.params["action"]
    if action == "enable":
        return _set(req, services.ENABLE, False)
    if action == "disable":
        return _set(req, services.ENABLE, True)
    if action == "disable-log-reason":
        return _set(req, services.DISABLE_REASON, True)
    if action in ("freeze", "thaw"):
        return _freeze(req, action == "freeze")
    if action == "failover_host":
        return _failover(req)
    if action in ("set-log", "get-log"):
        if req.microversion < microversions.LOG_LEVEL:
            # Cinder's VersionNotFoundForAPIMethod
            raise HTTPError(404, "The resource could not be found.")
        return _set_log(req) if action == "set-log" else _get_log(req)
    _admin(req, _UPDATE)
    raise HTTPError(400, "Invalid input received: Unknown action")
