"""``GET /limits``: the project's absolute limits and usage (another
project's with ``?tenant_id=``, admin only); which keys appear depends on
the microversion."""

from occli.localcloud.compute import keypairs, quotas
from occli.localcloud.compute.api import common

UNLIMITED = quotas.UNLIMITED


def register(service):
    service.api("GET", "/limits", show_limits)


def show_limits(req):
    project_id = req.arg("tenant_id") or req.context.project_id
    if project_id != req.context.project_id:
        common.require_admin(req, "os_compute_api:limits:other_project")
    used = quotas.usage(req.db, project_id)
    version = req.microversion
    absolute = {
        "maxServerMeta": quotas.MAX_METADATA_ITEMS,
        "maxTotalCores": UNLIMITED,
        "maxTotalInstances": req.cloud.config.quota_instances,
        "maxTotalKeypairs": keypairs.MAX_KEYPAIRS,
        "maxTotalRAMSize": UNLIMITED,
        "maxServerGroups": quotas.MAX_SERVER_GROUPS,
        "maxServerGroupMembers": quotas.MAX_SERVER_GROUP_MEMBERS,
        "totalCoresUsed": used["cores"],
        "totalInstancesUsed": used["instances"],
        "totalRAMUsed": used["ram"],
        "totalServerGroupsUsed": 0,
    }
    if version < "2.36":
        absolute.update({"maxSecurityGroups": UNLIMITED,
                         "maxSecurityGroupRules": UNLIMITED,
                         "maxTotalFloatingIps": UNLIMITED,
                         "totalSecurityGroupsUsed": 0,
                         "totalFloatingIpsUsed": 0})
    if version < "2.39":
        absolute["maxImageMeta"] = quotas.MAX_IMAGE_META
    if version < "2.57":
        absolute.update({"maxPersonality": quotas.MAX_PERSONALITY_FILES,
                         "maxPersonalitySize": quotas.MAX_PERSONALITY_BYTES})
    return {"limits": {"absolute": absolute, "rate": []}}
