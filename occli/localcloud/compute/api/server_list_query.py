"""The parts of nova's ``GET /servers`` query schema (schemas/servers.py
``index_query``) whose errors the list checks first: ``sort_key`` against
its enum, then ``limit`` as a non-negative integer (pagination parameters
come last in nova's properties), each value of a repeated parameter in turn.
"""

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
    """400 with nova's schema message for a bad ``sort_key`` or ``limit``."""
    enum = sort_key_enum(req.microversion)
    for value in req.query.get("sort_key", []):
        if value not in enum:
            raise _invalid("sort_key", value, "%r is not one of %r" % (value, enum))
    for value in req.query.get("limit", []):
        if not value.isdigit() or not value.isascii():
            reason = "%r should be non-empty" if value == "" else "%r does not match '^[0-9]*$'"
            raise _invalid("limit", value, reason % value)
