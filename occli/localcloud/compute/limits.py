"""``GET /limits``: the project's absolute limits and usage.

The local cloud does not cap cores or RAM (reported as ``-1``, nova's
"unlimited"); instances are capped by ``config.quota_instances`` (-1 by
default); the per-server limits it enforces are reported with their real
values (metadata items, personality files, keypairs).
"""

import json

from occli.localcloud.compute import base, keypairs, servers

MIGRATIONS = []

UNLIMITED = -1


def register(service):
    service.api("GET", "/limits", show_limits)


def _usage(db, project_id):
    used = {"instances": 0, "cores": 0, "ram": 0}
    for row in db.execute("SELECT flavor FROM servers WHERE project_id = ?"
                          " AND deleted = 0", (project_id,)):
        flavor = json.loads(row["flavor"])
        used["instances"] += 1
        used["cores"] += flavor["vcpus"]
        used["ram"] += flavor["ram"]
    return used


def show_limits(req):
    project_id = req.arg("tenant_id") or req.context.project_id
    if project_id != req.context.project_id:
        base.require_admin(req, "os_compute_api:limits:other_project")
    used = _usage(req.db, project_id)
    version = req.microversion
    absolute = {
        "maxServerMeta": servers.MAX_METADATA_ITEMS,
        "maxTotalCores": UNLIMITED,
        "maxTotalInstances": req.cloud.config.quota_instances,
        "maxTotalKeypairs": keypairs.MAX_KEYPAIRS,
        "maxTotalRAMSize": UNLIMITED,
        "maxServerGroups": 10,
        "maxServerGroupMembers": 10,
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
        absolute["maxImageMeta"] = 128
    if version < "2.57":
        absolute.update({"maxPersonality": servers.MAX_PERSONALITY_FILES,
                         "maxPersonalitySize": servers.MAX_PERSONALITY_BYTES})
    return {"limits": {"absolute": absolute, "rate": []}}
