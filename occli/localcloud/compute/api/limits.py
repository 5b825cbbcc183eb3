"""``GET /limits``: nova's ``LimitsController``: the project's quotas as
absolute limits and its usage (:mod:`..quotas`); which keys appear depends
on the microversion (2.36 drops the nova-network ones, 2.39
``maxImageMeta``, 2.57 the personality ones). ``?tenant_id=`` asks for
another project's (any project id, not checked, as nova): it needs an
admin whatever its value (nova checks ``os_compute_api:limits:
other_project`` as soon as the parameter is there). ``rate`` is always
empty (nova has had no rate limits since Newton); from 2.75 a parameter
other than ``tenant_id`` (the old ``reserved`` too) is a 400.
"""

from occli.localcloud.app import Response
from occli.localcloud.compute import quotas
from occli.localcloud.compute.api import common
from occli.localcloud.compute.api.quotas import reject_unknown

# nova's ViewBuilder.limit_names (in its order) and _build_used_limits
LIMIT_NAMES = (
    ("ram", ("maxTotalRAMSize",)),
    ("instances", ("maxTotalInstances",)),
    ("cores", ("maxTotalCores",)),
    ("key_pairs", ("maxTotalKeypairs",)),
    ("floating_ips", ("maxTotalFloatingIps",)),
    ("metadata_items", ("maxServerMeta", "maxImageMeta")),
    ("injected_files", ("maxPersonality",)),
    ("injected_file_content_bytes", ("maxPersonalitySize",)),
    ("security_groups", ("maxSecurityGroups",)),
    ("security_group_rules", ("maxSecurityGroupRules",)),
    ("server_groups", ("maxServerGroups",)),
    ("server_group_members", ("maxServerGroupMembers",)),
)
USED_NAMES = (
    ("totalRAMUsed", "ram"),
    ("totalCoresUsed", "cores"),
    ("totalInstancesUsed", "instances"),
    ("totalFloatingIpsUsed", "floating_ips"),
    ("totalSecurityGroupsUsed", "security_groups"),
    ("totalServerGroupsUsed", "server_groups"),
)
FILTERED_V236 = ("floating_ips", "security_groups", "security_group_rules")
FILTERED_V257 = FILTERED_V236 + ("injected_files", "injected_file_content_bytes")


def register(service):
    service.api("GET", "/limits", show_limits)


def show_limits(req):
    version = req.microversion
    if version >= "2.75":
        reject_unknown(req, ("tenant_id",))
    project_id = req.context.project_id
    if "tenant_id" in req.query:
        project_id = req.arg("tenant_id")
        common.require_admin(req, "os_compute_api:limits:other_project")
    filtered: tuple[str, ...] = ()
    if version >= "2.57":
        filtered = FILTERED_V257
    elif version >= "2.36":
        filtered = FILTERED_V236
    detail = quotas.detail(req.db, project_id, req.cloud.config)
    absolute = {}
    for resource, names in LIMIT_NAMES:
        if resource in filtered:
            continue
        for name in names:
            if name == "maxImageMeta" and version >= "2.39":
                continue
            absolute[name] = detail[resource]["limit"]
    for name, resource in USED_NAMES:
        if resource not in filtered:
            absolute[name] = detail[resource]["in_use"]
    return Response(200, {"limits": {"rate": [], "absolute": absolute}})
