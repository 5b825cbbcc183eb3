"""Volume backup commands (Cinder): ``volume backup …`` and ``volume
backup record export/import``, with OpenStackClient's names, options and
columns (``openstackclient/volume/v3/volume_backup.py``,
``openstackclient/volume/v2/backup_record.py``). Cinder keeps a backup's
data in the object store (container ``volumebackups`` by default)."""

from occli import columns
from occli import exceptions
from occli import utils
from occli.v2.block_storage import backups as backups_api

_BACKUP_ARG = dict(metavar="<backup>", help="Backup (name or ID).")
_FORMATTERS = {"metadata": columns.DictColumn}
# OSC's ``volume backup show`` columns
_SHOW = ("availability_zone", "container", "created_at", "data_timestamp", "description",
         "encryption_key_id", "fail_reason", "has_dependent_backups", "id", "is_incremental",
         "metadata", "name", "object_count", "project_id", "size", "snapshot_id", "status",
         "updated_at", "user_id", "volume_id")  # fmt: skip


def _show(backup):
    info = backup.to_dict()
    info.setdefault("project_id", info.get("os-backup-project-attr:project_id"))
    return columns.show(info, _SHOW, formatters=_FORMATTERS)


@utils.arg("volume", metavar="<volume>", help="Volume to backup (name or ID).")
@utils.arg("--name", metavar="<name>", help="Name of the backup.")
@utils.arg("--description", metavar="<description>", help="Description of the backup.")
@utils.arg("--container", metavar="<container>", help="Optional backup container name.")
@utils.arg("--snapshot", metavar="<snapshot>", help="Snapshot to backup (name or ID).")
@utils.arg("--force", action="store_true", help="Allow to back up an in-use volume.")
@utils.arg("--incremental", action="store_true", help="Perform an incremental backup.")
@utils.arg(
    "--no-incremental",
    dest="incremental",
    action="store_false",
    help="Do not perform an incremental backup.",
)
@utils.property_option("Set a property on this backup (repeatable; volume API 3.43).")
@utils.arg(
    "--availability-zone",
    metavar="<zone-name>",
    help="AZ where the backup should be stored (volume API 3.51).",
)
@utils.output("show")
def do_volume_backup_create(client, args):
    """Create new volume backup.

    Example: occli volume backup create --name nightly --force data
    """
    volume = client.volumes.find_resource(args.volume)
    snapshot = client.volume_snapshots.find_resource(args.snapshot) if args.snapshot else None
    backup = client.volume_backups.create(
        volume,
        name=args.name,
        description=args.description,
        container=args.container,
        snapshot=snapshot,
        force=args.force,
        incremental=args.incremental,
        metadata=dict(args.properties) or None,
        availability_zone=args.availability_zone,
    )
    info = dict(backup.to_dict(), volume_id=volume.id)
    return columns.show(info, ("id", "name", "volume_id"))


@utils.arg("backups", nargs="+", metavar="<backup>", help="Backup(s) to delete (name or ID).")
@utils.arg(
    "--force",
    action="store_true",
    help="Allow delete in state other than error or available (admin only).",
)
def do_volume_backup_delete(client, args):
    """Delete volume backup(s) and the objects that hold them.

    Example: occli volume backup delete nightly
    """

    def delete(ref):
        backup = client.volume_backups.find_resource(ref)
        client.volume_backups.delete(backup, force=args.force)

    return utils.for_each(args.backups, delete, "delete backup with name or ID")


@utils.arg("--long", action="store_true", help="List additional fields in output.")
@utils.arg("--name", metavar="<name>", help="Filters results by the backup name.")
@utils.arg(
    "--status",
    metavar="<status>",
    choices=backups_api.STATUSES,
    help="Filters results by the backup status, one of: %s." % ", ".join(backups_api.STATUSES),
)
@utils.arg(
    "--volume", metavar="<volume>", help="Filters results by the volume they back up (name or ID)."
)
@utils.arg("--marker", metavar="<volume-backup>", help="The last backup ID of the previous page.")
@utils.arg(
    "--limit", type=utils.list_limit, metavar="<num-backups>", help="Maximum number to display."
)
@utils.arg("--all-projects", action="store_true", help="Include all projects (admin only).")
@utils.output("list")
def do_volume_backup_list(client, args):
    """List volume backups.

    Example: occli volume backup list --long --volume data
    """
    volume_id = None
    if args.volume:
        try:
            volume_id = client.volumes.find_resource(args.volume).id
        except exceptions.NotFound:
            volume_id = args.volume  # OSC: look for backups of that ID all the same
    marker = client.volume_backups.find_resource(args.marker).id if args.marker else None
    found = client.volume_backups.iter(
        all_projects=args.all_projects,
        name=args.name,
        status=args.status,
        volume_id=volume_id,
        limit=args.limit,
        marker=marker,
    )
    cols = ["id", "name", "description", "status", "size", "is_incremental", "created_at"]
    headers = ["ID", "Name", "Description", "Status", "Size", "Incremental", "Created At"]
    if args.long:
        cols += ["availability_zone", "volume_id", "container"]
        headers += ["Availability Zone", "Volume", "Container"]
    return columns.table(found, cols, headers)


@utils.arg("backup", metavar="<backup>", help="Backup to restore (name or ID).")
@utils.arg(
    "volume",
    nargs="?",
    metavar="<volume>",
    help="Volume to restore to (name or ID for existing volume, name only for new volume).",
)
@utils.arg("--force", action="store_true", help="Restore the backup to an existing volume.")
@utils.output("show")
def do_volume_backup_restore(client, args):
    """Restore volume backup, to a new volume or (with --force) an existing one.

    Example: occli volume backup restore nightly data-copy
    """
    backup = client.volume_backups.find_resource(args.backup)
    volume_id = name = None
    if args.volume is not None:
        try:
            volume_id = client.volumes.find_resource(args.volume).id
        except exceptions.NotFound:
            name = args.volume
        else:
            if not args.force:
                raise exceptions.CommandError(
                    "Volume '%s' already exists; if you want to restore the backup to it you"
                    " need to specify the '--force' option" % args.volume
                )
    restore = client.volume_backups.restore(backup, volume=volume_id, name=name)
    info = {"id": restore["backup_id"], **restore}
    return columns.show(info, ("id", "volume_id", "volume_name"))


@utils.arg("backup", **_BACKUP_ARG)
@utils.arg("--name", metavar="<name>", help="New backup name.")
@utils.arg("--description", metavar="<description>", help="New backup description.")
@utils.arg(
    "--state",
    choices=backups_api.RESET_STATES,
    metavar="<state>",
    help='New backup state ("available" or "error") (admin only; only the database changes).',
)
@utils.arg(
    "--no-property",
    action="store_true",
    help="Remove all properties from this backup (before setting --property ones).",
)
@utils.property_option("Set a property on this backup (repeatable).")
def do_volume_backup_set(client, args):
    """Set volume backup properties.

    Example: occli volume backup set --name weekly --property keep=yes nightly
    """
    if not (args.name or args.description or args.state or args.properties or args.no_property):
        raise exceptions.ValidationError(
            "Nothing to set: give --name, --description, --state, --property or --no-property."
        )
    backup = client.volume_backups.find_resource(args.backup)
    if args.state:
        client.volume_backups.reset_state(backup, args.state)
    changes = {}
    if args.name:
        changes["name"] = args.name
    if args.description:
        changes["description"] = args.description
    if args.properties or args.no_property:
        metadata = {} if args.no_property else dict(getattr(backup, "metadata", None) or {})
        metadata.update(dict(args.properties))
        changes["metadata"] = metadata
    if changes:
        client.volume_backups.update(backup, **changes)


@utils.arg("backup", **_BACKUP_ARG)
@utils.arg(
    "--property",
    dest="properties",
    action="append",
    default=[],
    required=True,
    metavar="<key>",
    help="Property to remove from this backup (repeatable).",
)
def do_volume_backup_unset(client, args):
    """Unset volume backup properties.

    Example: occli volume backup unset --property keep nightly
    """
    backup = client.volume_backups.find_resource(args.backup)
    metadata = dict(getattr(backup, "metadata", None) or {})
    for key in args.properties:
        metadata.pop(key, None)
    client.volume_backups.update(backup, metadata=metadata)


@utils.arg("backup", metavar="<backup>", help="Backup to display (name or ID).")
@utils.output("show")
def do_volume_backup_show(client, args):
    """Display volume backup details.

    Example: occli volume backup show nightly
    """
    return _show(client.volume_backups.find_resource(args.backup))


@utils.arg("backup", metavar="<backup>", help="Backup to export (name or ID).")
@utils.output("show")
def do_volume_backup_record_export(client, args):
    """Export volume backup details (admin only).

    The record imports the backup into a new or rebuilt service.

    Example: occli volume backup record export nightly
    """
    backup = client.volume_backups.find_resource(args.backup)
    record = client.volume_backups.export_record(backup)
    if getattr(args, "formatter", "table") == "table":
        info = {"Backup Service": record["backup_service"], "Metadata": record["backup_url"]}
        return columns.show(info)
    return columns.show(record)


@utils.arg(
    "backup_service", metavar="<backup_service>", help="Backup service containing the backup."
)
@utils.arg(
    "backup_metadata", metavar="<backup_metadata>", help="Encoded backup metadata from export."
)
@utils.output("show")
def do_volume_backup_record_import(client, args):
    """Import volume backup details (admin only) exported by record export.

    Example: occli volume backup record import cinder.backup.drivers.swift.SwiftBackupDriver eyJ…
    """
    backup = client.volume_backups.import_record(args.backup_service, args.backup_metadata)
    info = backup.to_dict()
    info.pop("links", None)
    return columns.show(info)
