"""Block storage API microversions: Cinder's range, the microversions the
API modules gate on and negotiation.

``MAX_VERSION`` is 3.70, the newest microversion whose behaviour is
emulated for what this cloud serves: 3.67 (no project id in URLs) is routed,
3.68 (re-image) and 3.70 (encrypted transfers) concern operations not
served here (their routes answer as at any version), while 3.71 adds the
``os-extend_volume_completion`` action, Nova's callback after a hypervisor
extended an attached volume, which has no meaning without one. The version
class and the range check are the shared :mod:`occli.localcloud.microversions`.
"""

from occli.localcloud import microversions
from occli.localcloud.app import HTTPError
from occli.localcloud.microversions import APIVersion

MIN_VERSION = "3.0"
MAX_VERSION = "3.70"
HEADER = microversions.HEADER
# cinder/api/microversions.py
UPLOAD_IMAGE_PARAMS = "3.1"
NEW_ATTACH = "3.27"
RESOURCE_FILTER = "3.34"
EXTEND_ATTACHED = "3.42"
SUPPORT_COUNT_INFO = "3.45"
SNAPSHOT_IN_USE = "3.66"
DEFAULT_TYPE_OVERRIDES = "3.62"
VOLUME_TYPE_FILTER = "3.52"
# volume summary, its metadata, revert (cinder/api/microversions.py)
VOLUME_SUMMARY = "3.12"
VOLUME_SUMMARY_METADATA = "3.36"
VOLUME_REVERT = "3.40"
# backups (cinder/api/microversions.py)
BACKUP_UPDATE = "3.9"
BACKUP_PROJECT = "3.18"
BACKUP_SORT_NAME = "3.37"
BACKUP_METADATA = "3.43"
BACKUP_AZ = "3.51"
BACKUP_PROJECT_USER_ID = "3.56"
# the attachments API (cinder/api/microversions.py)
NEW_ATTACH_COMPLETION = "3.44"
ATTACHMENT_CREATE_MODE_ARG = "3.54"

# services, pools, hosts, limits, resource filters (cinder/api/microversions.py)
CLUSTER_SUPPORT = "3.7"
POOL_FILTER = "3.28"
RESOURCE_FILTER_CONFIG = "3.33"
POOL_TYPE_FILTER = "3.35"
GROUP_REPLICATION = "3.38"
LIMITS_ADMIN_FILTER = "3.39"
BACKEND_STATE_REPORT = "3.49"
# os-migrate_volume's cluster (cinder/api/microversions.py)
VOLUME_MIGRATE_CLUSTER = "3.16"
# group types and their specs (cinder/api/microversions.py)
GROUP_TYPE = "3.11"
# clusters, manageable lists, workers cleanup, replication clusters
# (cinder/api/microversions.py)
MANAGE_EXISTING_LIST = "3.8"
MANAGE_EXISTING_CLUSTER = "3.17"
WORKERS_CLEANUP = "3.24"
# volume metadata ETags (cinder/api/microversions.py)
ETAGS = "3.15"
# a volume from Nova's snapshot image of a volume-backed server
SUPPORT_NOVA_IMAGE = "3.46"
# os-reimage (cinder/api/microversions.py)
SUPPORT_REIMAGE_VOLUME = "3.68"
# set-log / get-log of os-services (cinder/api/microversions.py)
LOG_LEVEL = "3.32"
REPLICATION_CLUSTER = "3.26"
# volume list filters (cinder/api/microversions.py VOLUME_LIST_GLANCE_METADATA,
# RESOURCE_FILTER: the configured filters replace the per-version ones, LIKE_FILTER)
VOLUME_LIST_GLANCE_METADATA = "3.4"
RESOURCE_FILTER_CONFIGURED = "3.31"
LIKE_FILTER = "3.34"


def _refused_headers(version):
    """A 406's headers: Cinder 29's fault names a too new version (and
    ``Vary``), not a too old one (asked of the real Cinder 29: ``volume
    3.72`` → ``OpenStack-API-Version: volume 3.72``, ``volume 2.0`` →
    neither header)."""
    if version > MAX_VERSION:
        return {HEADER: "volume %s" % version, "Vary": HEADER}
    return {}


def negotiate(header):
    """The APIVersion a request asks for (Cinder's
    ``set_api_version_request``): none → 3.0, ``latest`` → max, malformed
    → 400, out of range → 406."""
    if header is None:
        return APIVersion(MIN_VERSION)
    text = None
    for item in header.split(","):
        if "volume " in item:
            parts = item.split()
            text = parts[1] if len(parts) == 2 else None
            break
    if not text:
        raise HTTPError(400, "API version %s is not supported on this method." % text)
    if text == "latest":
        return APIVersion(MAX_VERSION)
    return microversions.check(text, MIN_VERSION, MAX_VERSION, _refused_headers)
