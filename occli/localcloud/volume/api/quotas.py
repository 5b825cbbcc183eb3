"""``/os-quota-sets/{target_id}[/defaults]``: show (``usage``), defaults,
and the admin's update and delete."""

from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.volume import quotas
from occli.localcloud.volume import schemas
from occli.localcloud.volume.api import common


def register(service):
    service.api("GET", "/os-quota-sets/{target_id}", show_quotas)
    service.api("GET", "/os-quota-sets/{target_id}/defaults", quota_defaults)
    # the admin checks are the handlers' (cinder's quotas:update/delete)
    service.api("PUT", "/os-quota-sets/{target_id}", update_quotas, role=None)
    service.api("DELETE", "/os-quota-sets/{target_id}", delete_quotas, role=None)


def _target(req, rule):
    target = req.params["target_id"]
    if target != req.context.project_id and not req.context.is_admin:
        raise common.policy_denied(rule)
    return target


def show_quotas(req):
    target = _target(req, "volume_extension:quotas:show")
    limits = quotas.limits(req.db, target)
    if schemas.truthy(common.query_params(req).get("usage", "false")):
        used = quotas.usage(req.db, target)
        body = {
            k: {"limit": v, "in_use": used.get(k, 0), "reserved": 0} for k, v in limits.items()
        }
    else:
        body = dict(limits)
    body["id"] = target
    return Response(200, {"quota_set": body})


def quota_defaults(req):
    target = _target(req, "volume_extension:quotas:show")
    return Response(200, {"quota_set": dict(quotas.defaults(req.db), id=target)})


def update_quotas(req):
    if not req.context.is_admin:
        raise common.policy_denied("volume_extension:quotas:update")
    body = schemas.validate(schemas.QUOTA_UPDATE, req.json())["quota_set"]
    target = req.params["target_id"]
    if len(target) > 255:
        raise HTTPError(400, "Invalid input received: quota_set_name exceeds 255 characters")
    quotas.update(req.db, target, body)
    return Response(200, {"quota_set": quotas.limits(req.db, target)})


def delete_quotas(req):
    if not req.context.is_admin:
        raise common.policy_denied("volume_extension:quotas:delete")
    quotas.delete(req.db, req.params["target_id"])
    return Response(200)
