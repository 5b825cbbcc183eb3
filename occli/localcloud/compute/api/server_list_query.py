"""The parts of nova's ``GET /servers`` query schema (schemas/servers.py
``index_query``) whose errors the list checks first, in the schema's
property order (jsonschema reports the first): the ``format: regex``
parameters (a value Python cannot compile, or an empty one, is nova's
``'(' is not a 'regex'``), ``sort_key`` against its enum, then ``limit``
as a non-negative integer (pagination parameters come after the
others), the tags parameters from 2.26 last; each value of a repeated
parameter in turn.
"""

import re

from occli.localcloud.compute.api import common

# nova's SERVER_LIST_IGNORE_SORT_KEY: accepted and ignored
IGNORED_SORT_KEYS = [
    "architecture", "cell_name", "cleaned", "default_ephemeral_device",
    "default_swap_device", "deleted", "deleted_at", "disable_terminate",
    "ephemeral_gb", "ephemeral_key_uuid", "id", "key_data", "launched_on",
    "locked", "memory_mb", "os_type", "reservation_id", "root_gb",
    "shutdown_terminate", "user_data", "vcpus", "vm_mode",
]  # fmt: skip
# nova's VALID_SORT_KEYS enum, in its order
SORT_KEYS = [
    "access_ip_v4", "access_ip_v6", "auto_disk_config", "availability_zone",
    "config_drive", "created_at", "display_description", "display_name", "host",
    "hostname", "image_ref", "instance_type_id", "kernel_id", "key_name",
    "launch_index", "launched_at", "locked_by", "node", "power_state", "progress",
    "project_id", "ramdisk_id", "root_device_name", "task_state", "terminated_at",
    "updated_at", "user_id", "uuid", "vm_state",
] + IGNORED_SORT_KEYS  # fmt: skip


# nova's properties in their order: the regex ones, and where sort_key
# and limit come among them
_ORDER = [
    "kernel_id", "ramdisk_id", "hostname", "key_name", "power_state", "node", "flavor",
    "reservation_id", "launched_at", "terminated_at", "availability_zone", "name",
    "display_name", "description", "display_description", "locked_by", "root_device_name",
    "config_drive", "access_ip_v4", "access_ip_v6", "auto_disk_config", "progress",
    "sort_key", "ip", "ip6", "created_at", "limit",
]  # fmt: skip
_TAGS = ["tags", "tags-any", "not-tags", "not-tags-any"]


def sort_key_enum(version):
    """The ``sort_key`` enum at ``version``. From 2.73 ``locked`` is a real
    key and nova builds the list from sets (its order varies per process;
    here sorted)."""
    if version < "2.73":
        return SORT_KEYS
    ignored = [k for k in IGNORED_SORT_KEYS if k != "locked"]
    valid = sorted(set(SORT_KEYS) - set(IGNORED_SORT_KEYS))
    if version < "2.75":
        return ["locked", *valid, *ignored]
    return sorted({"locked", *valid})


def _invalid(name, value, reason):
    return common.bad_request(
        "Invalid input for query parameters %s. Value: %s. %s" % (name, value, reason)
    )


def check(req):
    """400 with nova's schema message for a bad regex parameter,
    ``sort_key`` or ``limit``."""
    order = _ORDER + (_TAGS if req.microversion >= "2.26" else [])
    for name in order:
        for value in req.query.get(name, []):
            if name == "sort_key":
                _check_sort_key(req.microversion, value)
            elif name == "limit":
                _check_limit(value)
            elif not _is_regex(value):
                raise _invalid(name, value, "%r is not a 'regex'" % value)


def _is_regex(value):
    """nova's ``regex`` format: a non-empty text ``re`` compiles."""
    if not value:
        return False
    try:
        re.compile(value)
    except (re.error, RecursionError, OverflowError):
        return False
    return True


def _check_sort_key(version, value):
    enum = sort_key_enum(version)
    if value not in enum:
        raise _invalid("sort_key", value, "%r is not one of %r" % (value, enum))


def _check_limit(value):
    if not value.isdigit() or not value.isascii():
        reason = "%r should be non-empty" if value == "" else "%r does not match '^[0-9]*$'"
        raise _invalid("limit", value, reason % value)
