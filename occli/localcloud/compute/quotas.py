"""Quotas and limits: what a project may have and what it uses.

Cores and RAM are not capped (nova's "unlimited", -1); instances are capped
per project by ``config.quota_instances`` (-1 by default) and one create by
``config.max_servers_per_request``; per-server limits (metadata items,
personality files) and keypairs (:mod:`.keypairs`) are enforced with
nova's 403 texts.
"""

import base64
import binascii
import json

from occli.localcloud import errors

UNLIMITED = -1
MAX_METADATA_ITEMS = 128
MAX_PERSONALITY_FILES = 5
MAX_PERSONALITY_PATH = 255
MAX_PERSONALITY_BYTES = 10240
MAX_SERVER_GROUPS = 10
MAX_SERVER_GROUP_MEMBERS = 10
MAX_IMAGE_META = 128


def check_metadata(metadata):
    if len(metadata) > MAX_METADATA_ITEMS:
        raise errors.OverLimit("Maximum number of metadata items exceeds %d"
                               % MAX_METADATA_ITEMS)


def check_personality(files):
    """Nova's injected-file quota checks (403) and content decoding (400)."""
    if len(files) > MAX_PERSONALITY_FILES:
        raise errors.OverLimit("Personality file limit exceeded")
    for item in files:
        path = item.get("path", "")
        try:
            contents = base64.b64decode(item.get("contents", ""),
                                        validate=True)
        except (binascii.Error, ValueError):
            raise errors.BadRequest("Personality content for %s cannot be "
                                    "decoded" % path) from None
        if len(path) > MAX_PERSONALITY_PATH:
            raise errors.OverLimit("Personality file path exceeds maximum %d"
                                   % MAX_PERSONALITY_PATH)
        if len(contents) > MAX_PERSONALITY_BYTES:
            raise errors.OverLimit("Personality file content exceeds maximum"
                                   " %d" % MAX_PERSONALITY_BYTES)


def instance_count(db, config, project_id, min_count, max_count):
    """How many servers a create makes, checked before anything is created.

    Nova's ``check_num_instances_quota`` for the instances quota
    (``config.quota_instances``, -1 unlimited): a ``max_count`` above the
    project's headroom is trimmed to it if that still covers ``min_count``,
    else 403 ``TooManyInstances``. ``config.max_servers_per_request``, the
    local cloud's own bound on the work one request does under the write
    lock, trims and refuses the same way.
    """
    requested = (str(min_count) if min_count == max_count
                 else "%d-%d" % (min_count, max_count))
    if config.quota_instances >= 0:
        used = db.execute(
            "SELECT COUNT(*) FROM servers WHERE project_id = ?"
            " AND deleted = 0", (project_id,)).fetchone()[0]
        allowed = config.quota_instances - used
        if max_count > allowed:
            if allowed <= 0 or min_count > allowed:
                raise errors.OverLimit(
                    "Quota exceeded for instances: Requested %s, but already"
                    " used %d of %d instances"
                    % (requested, used, config.quota_instances))
            max_count = allowed
    ceiling = config.max_servers_per_request
    if max_count > ceiling:
        if min_count > ceiling:
            raise errors.OverLimit(
                "Quota exceeded for instances: Requested %s, but this local"
                " cloud creates at most %d servers per request"
                % (requested, ceiling))
        max_count = ceiling
    return max_count


def usage(db, project_id):
    """``{"instances", "cores", "ram"}`` the project's live servers use."""
    used = {"instances": 0, "cores": 0, "ram": 0}
    for row in db.execute("SELECT flavor FROM servers WHERE project_id = ?"
                          " AND deleted = 0", (project_id,)):
        flavor = json.loads(row["flavor"])
        used["instances"] += 1
        used["cores"] += flavor["vcpus"]
        used["ram"] += flavor["ram"]
    return used
