"""The audit of the local Cinder's microversions (issue 21: the version
document may advertise a microversion only once everything up to it is
served). ``AUDIT`` lists each microversion of Cinder 29
(``cinder/api/openstack/api_version_request.py``) with its feature and how
the local Cinder serves it (``served``), why it has no meaning here
(``n/a``), or that it is not served yet (``gap``). The routes the audit
names are probed live at their version and the one before.

Audited 2026-12-02 against main at the group types commit, re-audited as
gaps closed (the list filters, groups, clusters, workers, and last 3.8's
``POST /manageable_volumes``): none is left, so the honest maximum is 3.71
and the version document's 3.70 follows the rule; :func:`test_the_gaps_are_known`
pins the gaps so closing one (or opening one) updates this table, and
:func:`test_the_honest_maximum` says what the version document could
advertise today."""

import pytest

from occli.localcloud.microversions import APIVersion
from occli.localcloud.volume.api import microversions
from tests.unit.localcloud.volume_harness import cinder_cloud

cinder = pytest.fixture(cinder_cloud, name="cinder")

SERVED, NA, GAP = "served", "n/a", "gap"
AUDIT = {
    "3.1": ("upload-to-image visibility/protected", SERVED, "api/volumes.py UPLOAD_IMAGE_PARAMS"),
    "3.2": ("strict bootable filter", SERVED, "volumes.py list filters"),
    "3.3": ("user messages API", SERVED, "api/messages.py, GET /messages"),
    "3.4": ("glance_metadata volume filter", SERVED, "list_filters.py glance_metadata"),
    "3.5": ("messages pagination", SERVED, "api/messages.py"),
    "3.6": ("empty consistency group names", NA, "consistency groups (deprecated) not served"),
    "3.7": ("clusters API, service cluster field", SERVED, "api/clusters.py, GET /clusters"),
    "3.8": ("manage existing, manageable lists", SERVED, "api/clusters.py manage_volume"),
    "3.9": ("backup update", SERVED, "api/backups.py BACKUP_UPDATE"),
    "3.10": ("group_id volume filter", SERVED, "volumes.py filters group_id"),
    "3.11": ("group types and group specs", SERVED, "api/groups.py, GET /group_types"),
    "3.12": ("volumes summary", SERVED, "api/volumes.py, GET /volumes/summary"),
    "3.13": ("generic volume groups", SERVED, "api/groups.py, GET /groups"),
    "3.14": ("group snapshots, group from source", SERVED, "api/groups.py, /group_snapshots"),
    "3.15": ("ETag on volume metadata", SERVED, "api/metadata.py ETAGS"),
    "3.16": ("migrate volume to a cluster", SERVED, "api/actions.py MIGRATE_316: in none"),
    "3.17": ("manageable lists by cluster", SERVED, "api/clusters.py list_manageable"),
    "3.18": ("backup project attribute", SERVED, "api/backups.py BACKUP_PROJECT"),
    "3.19": ("group snapshot reset_status", SERVED, "api/groups.py GROUP_SNAPSHOT_RESET_STATUS"),
    "3.20": ("group reset_status", SERVED, "api/groups.py GROUP_VOLUME_RESET_STATUS"),
    "3.21": ("provider_id in admin volume detail", SERVED, "api/views.py"),
    "3.22": ("snapshot metadata filter", SERVED, "snapshots.py filters (resource_filters.json)"),
    "3.23": ("force volume delete", SERVED, "api/volumes.py delete ?force"),
    "3.24": ("workers/cleanup", SERVED, "api/clusters.py, POST /workers/cleanup"),
    "3.25": ("volumes field of groups", SERVED, "api/groups.py GROUP_VOLUME_LIST"),
    "3.26": ("failover action, cluster filters", SERVED, "api/services.py failover_host"),
    "3.27": ("attachments API", SERVED, "api/attachments.py, GET /attachments"),
    "3.28": ("get_pools filters", SERVED, "api/pools.py POOL_FILTER"),
    "3.29": ("group snapshot filters/paging", SERVED, "api/groups.py GROUP_SNAPSHOT_PAGINATION"),
    "3.30": ("snapshot sort by name", SERVED, "snapshots.py SORT_KEYS"),
    "3.31": ("configurable resource filters", SERVED, "resource_filters.json defaults"),
    "3.32": ("set-log/get-log service actions", SERVED, "api/services.py LOG_LEVEL"),
    "3.33": ("resource_filters API", SERVED, "api/resource_filters.py, GET /resource_filters"),
    "3.34": ("like (~) filters, unknown filters 400", SERVED, "list_filters.py like_keys"),
    "3.35": ("volume_type filter of get_pools", SERVED, "api/pools.py POOL_TYPE_FILTER"),
    "3.36": ("metadata in volumes summary", SERVED, "api/volumes.py VOLUME_SUMMARY_METADATA"),
    "3.37": ("backup sort by name", SERVED, "api/backups.py BACKUP_SORT_NAME"),
    "3.38": ("replication groups", SERVED, "groups.replication: a backend without it"),
    "3.39": ("admin project_id of limits", SERVED, "api/limits.py LIMITS_ADMIN_FILTER"),
    "3.40": ("revert to the latest snapshot", SERVED, "api/volumes.py VOLUME_REVERT"),
    "3.41": ("user_id of snapshots", SERVED, "api/views.py SNAPSHOT_LIST_USER_ID"),
    "3.42": ("extend an in-use volume", SERVED, "api/volumes.py EXTEND_ATTACHED"),
    "3.43": ("backup metadata", SERVED, "api/backups.py BACKUP_METADATA"),
    "3.44": ("attachment complete", SERVED, "api/attachments.py NEW_ATTACH_COMPLETION"),
    "3.45": ("count in lists", SERVED, "api/volumes.py SUPPORT_COUNT_INFO"),
    "3.46": ("volume from Nova's 0-size image", SERVED, "volumes.py _boot_snapshot_id"),
    "3.47": ("volume from a backup", SERVED, "schemas.py backup_id, api/backups.py"),
    "3.48": ("shared_targets, service_uuid", SERVED, "api/views.py"),
    "3.49": ("backend_state of services", SERVED, "api/services.py BACKEND_STATE_REPORT"),
    "3.50": ("multiattach", SERVED, "types' multiattach spec, attachments.py"),
    "3.51": ("cross-AZ backups", SERVED, "api/backups.py BACKUP_AZ"),
    "3.52": ("type extra_specs filter", SERVED, "microversions.VOLUME_TYPE_FILTER"),
    "3.53": ("strict request schemas", SERVED, "schemas.py *_353"),
    "3.54": ("attachment mode", SERVED, "api/attachments.py ATTACHMENT_CREATE_MODE_ARG"),
    "3.55": ("transfers with snapshots", SERVED, "api/transfers.py TRANSFER_WITH_SNAPSHOTS"),
    "3.56": ("backup user_id", SERVED, "api/backups.py BACKUP_PROJECT_USER_ID"),
    "3.57": ("transfer history fields", SERVED, "api/transfers.py TRANSFER_WITH_HISTORY"),
    "3.58": ("project_id of groups", SERVED, "api/groups.py GROUP_GROUPSNAPSHOT_PROJECT_ID"),
    "3.59": ("transfer pagination", SERVED, "api/transfers.py SUPPORT_TRANSFER_PAGINATION"),
    "3.60": ("time comparison filters of volumes", SERVED, "list_filters.py TIMES"),
    "3.61": ("cluster_name of volumes", SERVED, "api/views.py VOLUME_CLUSTER_NAME"),
    "3.62": ("default types", SERVED, "api/default_types.py, GET /default-types"),
    "3.63": ("volume_type_id in volumes", SERVED, "api/views.py"),
    "3.64": ("encryption_key_id in volumes, backups", NA, "only a set key is shown: none here"),
    "3.65": ("consumes_quota", SERVED, "api/views.py USE_QUOTA"),
    "3.66": ("snapshots of in-use volumes", SERVED, "api/snapshots.py SNAPSHOT_IN_USE"),
    "3.67": ("URLs without project id", SERVED, "app.Service.api routes both"),
    "3.68": ("re-image a volume", SERVED, "api/actions.py SUPPORT_REIMAGE_VOLUME"),
    "3.69": ("null shared_targets", SERVED, "api/views.py: the backend's, never null"),
    "3.70": ("encrypted transfers", NA, "no encrypted volume types here"),
    "3.71": ("os-extend_volume_completion", NA, "Nova's hypervisor callback"),
}
# the gaps as audited; closing one updates this and the table
KNOWN_GAPS: list[str] = []
# GET routes gated at their microversion: (version, path, user)
PROBES = (
    ("3.3", "/messages", "demo"),
    ("3.11", "/group_types", "demo"),
    ("3.12", "/volumes/summary", "demo"),
    ("3.13", "/groups", "demo"),
    ("3.14", "/group_snapshots", "demo"),
    ("3.7", "/clusters", "admin"),
    ("3.27", "/attachments", "demo"),
    ("3.33", "/resource_filters", "demo"),
    ("3.62", "/default-types", "admin"),
)


def _versions(last):
    return ["3.%d" % n for n in range(1, APIVersion(last).minor + 1)]


def honest_maximum():
    """The highest microversion with nothing before it a gap."""
    best = "3.0"
    for version in _versions("3.71"):
        if AUDIT[version][1] == GAP:
            break
        best = version
    return best


def test_every_microversion_is_audited():
    assert list(AUDIT) == _versions("3.71")
    assert all(status in (SERVED, NA, GAP) and how for _f, status, how in AUDIT.values())


def test_the_gaps_are_known():
    assert [v for v, (_f, status, _h) in AUDIT.items() if status == GAP] == KNOWN_GAPS


def test_the_honest_maximum():
    assert honest_maximum() == "3.71"
    assert APIVersion(advertised_maximum()) <= APIVersion(microversions.MAX_VERSION)


def advertised_maximum():
    """What the version document may advertise (issue 21): the honest
    maximum, at most 3.70 (3.71's callback is Nova's, not served)."""
    best = honest_maximum()
    return best if APIVersion(best) <= APIVersion("3.70") else "3.70"


def test_the_version_document_advertises_the_honest_maximum(cinder):
    document = cinder.client.request("GET", "/volume/")
    assert document.status == 300
    assert document.json()["versions"][0]["version"] == microversions.MAX_VERSION
    assert advertised_maximum() == microversions.MAX_VERSION


@pytest.mark.parametrize(("version", "path", "user"), PROBES)
def test_a_served_route_answers_from_its_microversion(cinder, version, path, user):
    assert AUDIT[version][1] == SERVED
    before = "3.%d" % (APIVersion(version).minor - 1)
    assert cinder.get(path, user=user, version=version).status == 200
    assert cinder.get(path, user=user, version=before).status == 404
