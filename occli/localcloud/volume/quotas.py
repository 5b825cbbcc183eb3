"""Cinder's quotas: limits per project (``os-quota-sets``), usage counted
from the tables, and the checks a volume or snapshot create and an extend
make (413 with Cinder's ``QuotaError`` texts); quota classes
(``os-quota-class-sets``)."""

from occli.localcloud import errors
from occli.localcloud.volume import types

# cinder's [DEFAULT] quota_* options
DEFAULTS = {
    "volumes": 10,
    "snapshots": 10,
    "gigabytes": 1000,
    "backups": 10,
    "backup_gigabytes": 1000,
    "per_volume_gigabytes": -1,
    "groups": 10,
}
# per volume type limits (-1 unless set)
PER_TYPE = ("volumes", "snapshots", "gigabytes")
DB_MAX_INT = 0x7FFFFFFF
# the quota class whose limits are every project's defaults
DEFAULT_CLASS = "default"


class QuotaExceeded(errors.TooLarge):
    """Cinder's ``QuotaError``: 413 with ``Retry-After: 0``. ``name``: its
    exception class, which Cinder's fault middleware puts before the text
    of one no API method converts (cinder/api/middleware/fault.py,
    recorded in tests/fixtures/volume/realcloud/cinder-29-volumes.json);
    ``reason``: the bare text, for the methods that convert it."""

    def __init__(self, message, name=None):
        super().__init__("%s: %s" % (name, message) if name else message, retryAfter="0")
        self.name = name
        self.reason = message


def resources(db):
    """Every quota name: the global ones then ``<name>_<type name>``."""
    names = list(DEFAULTS)
    for type_name in sorted(types.names(db).values()):
        names.extend("%s_%s" % (r, type_name) for r in PER_TYPE)
    return names


def defaults(db):
    """The configured defaults, overridden by the ``default`` quota class
    (Cinder's ``use_default_quota_class``)."""
    return class_quotas(db, DEFAULT_CLASS)


def class_quotas(db, class_name):
    """Cinder's ``get_class_quotas``: the configured defaults, overridden
    by the class's limits."""
    values = {name: DEFAULTS.get(name, -1) for name in resources(db)}
    for row in db.execute(
        "SELECT resource, hard_limit FROM volume_quota_classes WHERE class_name = ?",
        (class_name,),
    ):
        if row["resource"] in values:
            values[row["resource"]] = row["hard_limit"]
    return values


def update_class(db, class_name, changes):
    """Cinder's ``QuotaClassSetsController.update``: each limit stored for
    the class (the schema checked names and integers; a name Cinder does
    not know is stored and never shown, as by its ``quota_class_create``)."""
    for key, value in changes.items():
        db.execute(
            "INSERT OR REPLACE INTO volume_quota_classes (class_name, resource, hard_limit)"
            " VALUES (?, ?, ?)",
            (class_name, key, int(value)),
        )


def limits(db, project_id):
    values = defaults(db)
    for row in db.execute(
        "SELECT resource, hard_limit FROM volume_quotas WHERE project_id = ?", (project_id,)
    ):
        if row["resource"] in values:
            values[row["resource"]] = row["hard_limit"]
    return values


def usage(db, project_id):
    """In-use counts: volumes, snapshots, gigabytes (volumes' and
    snapshots' sizes, as Cinder counts them), per type too; backups and
    backup_gigabytes."""
    used = dict.fromkeys(resources(db), 0)
    names = types.names(db)
    for row in db.execute(
        "SELECT volume_type_id, COUNT(*) AS n, COALESCE(SUM(size), 0) AS gb FROM volumes"
        " WHERE project_id = ? GROUP BY volume_type_id",
        (project_id,),
    ):
        suffix = "_" + names.get(row["volume_type_id"], "")
        used["volumes"] += row["n"]
        used["gigabytes"] += row["gb"]
        if "volumes" + suffix in used:
            used["volumes" + suffix] += row["n"]
            used["gigabytes" + suffix] += row["gb"]
    for row in db.execute(
        "SELECT v.volume_type_id AS type_id, COUNT(*) AS n, COALESCE(SUM(s.size), 0) AS gb"
        " FROM volume_snapshots s JOIN volumes v ON v.id = s.volume_id"
        " WHERE s.project_id = ? GROUP BY v.volume_type_id",
        (project_id,),
    ):
        suffix = "_" + names.get(row["type_id"], "")
        used["snapshots"] += row["n"]
        used["gigabytes"] += row["gb"]
        if "snapshots" + suffix in used:
            used["snapshots" + suffix] += row["n"]
            used["gigabytes" + suffix] += row["gb"]
    row = db.execute(
        "SELECT COUNT(*) AS n, COALESCE(SUM(size), 0) AS gb FROM volume_backups"
        " WHERE project_id = ?",
        (project_id,),
    ).fetchone()
    used["backups"], used["backup_gigabytes"] = row["n"], row["gb"]
    return used


def _check_gigabytes(limit, used, type_name, size):
    for name in ("gigabytes", "gigabytes_" + type_name):
        if limit.get(name, -1) >= 0 and used.get(name, 0) + size > limit[name]:
            raise QuotaExceeded(
                "Requested volume or snapshot exceeds allowed %s quota. Requested %sG,"
                " quota is %sG and %sG has been consumed." % (name, size, limit[name], used[name]),
                "VolumeSizeExceedsAvailableQuota",
            )


def _check_per_volume(limit, size):
    per_volume = limit["per_volume_gigabytes"]
    if per_volume >= 0 and size > per_volume:
        raise QuotaExceeded(
            "Requested volume size %dG is larger than maximum allowed limit %dG."
            % (size, per_volume),
            "VolumeSizeExceedsLimit",
        )


def check_volume(db, project_id, type_name, size):
    """A new volume of ``size`` GB."""
    limit, used = limits(db, project_id), usage(db, project_id)
    _check_per_volume(limit, size)
    _check_gigabytes(limit, used, type_name, size)
    for name in ("volumes", "volumes_" + type_name):
        if limit.get(name, -1) >= 0 and used.get(name, 0) + 1 > limit[name]:
            raise QuotaExceeded(
                "Maximum number of volumes allowed (%d) exceeded for quota '%s'."
                % (limit[name], name),
                "VolumeLimitExceeded",
            )


def check_extend(db, project_id, type_name, new_size, growth):
    limit = limits(db, project_id)
    _check_per_volume(limit, new_size)
    _check_gigabytes(limit, usage(db, project_id), type_name, growth)


def check_snapshot(db, project_id, type_name, size):
    limit, used = limits(db, project_id), usage(db, project_id)
    _check_gigabytes(limit, used, type_name, size)
    for name in ("snapshots", "snapshots_" + type_name):
        if limit.get(name, -1) >= 0 and used.get(name, 0) + 1 > limit[name]:
            raise QuotaExceeded(
                "Maximum number of snapshots allowed (%d) exceeded" % limit[name],
                "SnapshotLimitExceeded",
            )


def check_backup(db, project_id, size):
    """A new backup of ``size`` GB (Cinder's ``BackupLimitExceeded``,
    ``VolumeBackupSizeExceedsAvailableQuota``)."""
    limit, used = limits(db, project_id), usage(db, project_id)
    # the reservation's order (backups, then backup_gigabytes) is the order
    # cinder/quota_utils.py process_reserve_over_quota reports them in
    if limit["backups"] >= 0 and used["backups"] + 1 > limit["backups"]:
        raise QuotaExceeded(
            "Maximum number of backups allowed (%d) exceeded" % limit["backups"],
            "BackupLimitExceeded",
        )
    name = "backup_gigabytes"
    if limit[name] >= 0 and used[name] + size > limit[name]:
        raise QuotaExceeded(
            "Requested backup exceeds allowed Backup gigabytes quota. Requested %sG, quota is"
            " %sG and %sG has been consumed." % (size, limit[name], used[name]),
            "VolumeBackupSizeExceedsAvailableQuota",
        )


def update(db, project_id, changes):
    """Cinder's ``QuotaSetsController.update``: keys and integers checked
    (400), no limit under the usage (except ``per_volume_gigabytes`` and
    -1), then stored."""
    known = set(resources(db))
    bad = [k for k in changes if k not in known]
    if bad:
        raise errors.BadRequest(
            "Invalid input received: Bad key(s) in quota set: %s" % ", ".join(bad)
        )
    values = {}
    for key, value in changes.items():
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise errors.BadRequest("%s must be an integer." % key)
        try:
            number = int(value)
        except ValueError:
            raise errors.BadRequest("%s must be an integer." % key) from None
        if number < -1:
            raise errors.BadRequest("%s must be >= -1" % key)
        if number > DB_MAX_INT:
            raise errors.BadRequest("%s must be <= %d" % (key, DB_MAX_INT))
        values[key] = number
    used = usage(db, project_id)
    for key, value in values.items():
        if key != "per_volume_gigabytes" and value != -1 and value < used.get(key, 0):
            raise errors.BadRequest(
                "Quota %s limit must be equal or greater than existing resources. Current"
                " usage is %s and the requested limit is %s." % (key, used[key], value)
            )
    for key, value in values.items():
        db.execute(
            "INSERT OR REPLACE INTO volume_quotas (project_id, resource, hard_limit)"
            " VALUES (?, ?, ?)",
            (project_id, key, value),
        )


def delete(db, project_id):
    """Back to the defaults."""
    db.execute("DELETE FROM volume_quotas WHERE project_id = ?", (project_id,))
