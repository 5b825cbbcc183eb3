"""Volume and volume snapshot commands (Cinder): ``occli volume …`` and
``occli volume snapshot …``, with OpenStackClient's names and options.
``server add volume`` attaches one (:mod:`occli.v2.compute.commands.server_volumes`)."""

import logging
from collections.abc import Callable
from typing import Any

from cliff import columns as cliff_columns

from occli import columns
from occli import exceptions
from occli import utils
from occli import waiters

LOG = logging.getLogger(__name__)
_VOLUME_ARG = dict(metavar="<volume>", help="Volume (name or ID).")


class AttachmentsColumn(cliff_columns.FormattableColumn):
    """A volume's attachments: ``Attached to <server> on <device>`` lines
    (the server's name when ``names`` has it); the list in JSON."""

    def __init__(self, value, names=None):
        super().__init__(value)
        self.names = names or {}

    def human_readable(self):
        return "\n".join(
            "Attached to %s on %s"
            % (self.names.get(a.get("server_id")) or a.get("server_id"), a.get("device"))
            for a in self._value or ()
        )

    def machine_readable(self):
        return list(self._value or ())


_FORMATTERS = {"attachments": AttachmentsColumn, "metadata": columns.DictColumn}


#: Cinder's keys a volume shows under OSC's names (openstackclient/volume/
#: v3/volume.py ``_format_volume``); ``-c`` still takes Cinder's
VOLUME_OSC_NAMES = {"volume_type": "type", "metadata": "properties"}
#: the fields OSC shows of every volume, None where Cinder's answer (an older
#: microversion's, a non-admin's) lacks them: openstacksdk's
#: block_storage/v3/volume.py ``Volume`` by Cinder's names
VOLUME_OSC_FIELDS = (
    "attachments",
    "availability_zone",
    "backup_id",
    "bootable",
    "cluster_name",
    "consumes_quota",
    "created_at",
    "description",
    "encrypted",
    "group_id",
    "id",
    "multiattach",
    "name",
    "os-vol-host-attr:host",
    "os-vol-mig-status-attr:migstat",
    "os-vol-mig-status-attr:name_id",
    "os-vol-tenant-attr:tenant_id",
    "properties",
    "provider_id",
    "replication_status",
    "service_uuid",
    "shared_targets",
    "size",
    "snapshot_id",
    "source_volid",
    "status",
    "type",
    "updated_at",
    "user_id",
    "volume_type_id",
)
#: shown only when set (``_format_volume``'s ``optional_columns``)
VOLUME_OSC_OPTIONAL = ("consistencygroup_id", "encryption_key_id", "volume_image_metadata")


def _show_volume(args, volume):
    """A volume as OSC shows it: OSC's names and fields, ``bootable`` a
    boolean (Cinder's ``"true"``/``"false"``)."""
    info = columns.osc_fields(volume, VOLUME_OSC_NAMES, VOLUME_OSC_FIELDS)
    info.pop("links", None)
    for name in VOLUME_OSC_OPTIONAL:
        if info.get(name) is None:
            info.pop(name, None)
    if isinstance(info.get("bootable"), str):
        info["bootable"] = info["bootable"].lower() == "true"
    # OSC's volume show formats only properties: attachments print as a list
    formatters = dict(_FORMATTERS, attachments=columns.ReprColumn, properties=columns.DictColumn)
    shown = columns.show(info, formatters=formatters)
    return columns.with_raw_keys(args, shown, VOLUME_OSC_NAMES)


#: OSC's columns of a snapshot (openstackclient/volume/v3/volume_snapshot.py
#: ``_format_snapshot``: openstacksdk's Snapshot less its ``ignored_columns``)
SNAPSHOT_OSC_COLUMNS = (
    "created_at",
    "description",
    "id",
    "name",
    "properties",
    "size",
    "status",
    "volume_id",
)
SNAPSHOT_OSC_NAMES = {"metadata": "properties"}


def _show_snapshot(args, snapshot):
    """A snapshot as OSC shows it; ``-c`` still takes Cinder's names, those
    OSC renames (``metadata``) and those it leaves out
    (``os-extended-snapshot-attributes:project_id``)."""
    info = columns.osc_fields(snapshot, SNAPSHOT_OSC_NAMES, SNAPSHOT_OSC_COLUMNS)
    wanted = getattr(args, "columns", None) or ()
    extra = tuple(dict.fromkeys(k for k in wanted if k in info and k not in SNAPSHOT_OSC_COLUMNS))
    shown = columns.show(
        info, SNAPSHOT_OSC_COLUMNS + extra, formatters={"properties": columns.DictColumn}
    )
    return columns.with_raw_keys(args, shown, SNAPSHOT_OSC_NAMES)


def _wait(fetch, label, args, until="available"):
    """Poll until the status is ``until``; an ``error…`` status fails."""

    def failed(obj):
        status = str(getattr(obj, "status", ""))
        if status.startswith("error"):
            return "%s went to status %s." % (label, status)
        return None

    with waiters.accepted("%s was accepted but waiting failed" % label):
        return waiters.wait_for(
            fetch,
            lambda obj: obj is not None and obj.status == until,
            failed=failed,
            describe=lambda obj: obj.status,
            label=label,
            **utils.wait_args(args),
        )


# -- volumes ------------------------------------------------------------------


@utils.arg("--long", action="store_true", help="Also list type, bootable and properties.")
@utils.arg("--all-projects", action="store_true", help="Volumes of all projects (admin).")
@utils.arg("--name", metavar="<name>", help="Only volumes of this name.")
@utils.arg("--status", metavar="<status>", help="Only volumes in this status (available, …).")
@utils.arg(
    "--limit", type=utils.list_limit, metavar="<n>", help="At most this many volumes (-1: all)."
)
@utils.arg("--marker", metavar="<volume-id>", help="Start after this volume.")
@utils.arg(
    "-n",
    "--no-name-lookup",
    action="store_true",
    help="Show the IDs of the servers volumes are attached to, not their names.",
)
@utils.output("list")
def do_volume_list(client, args):
    """List volumes.

    Example: occli volume list --long
    """
    volumes = client.volumes.iter(
        all_projects=args.all_projects,
        name=args.name,
        status=args.status,
        limit=args.limit,
        marker=args.marker,
    )
    cols = ["id", "name", "status", "size", "attachments"]
    headers = ["ID", "Name", "Status", "Size", "Attached to"]
    if args.long:
        cols[4:4] = ["volume_type", "bootable"]
        headers[4:4] = ["Type", "Bootable"]
        cols.append("metadata")
        headers.append("Properties")
    if args.all_projects:
        cols.insert(1, "os-vol-tenant-attr:tenant_id")
        headers.insert(1, "Project")
    formatters: dict[str, Callable[[Any], cliff_columns.FormattableColumn]] = dict(_FORMATTERS)
    if utils.column_used(args, "Attached to") and not args.no_name_lookup:
        names = _ServerNames(client, args.all_projects)
        volumes = names.reading(volumes)
        formatters["attachments"] = lambda value: AttachmentsColumn(value, names.known)
    return columns.table(volumes, cols, headers, formatters=formatters)


class _ServerNames:
    """``{server id: name}`` of the attached servers, from one server list
    read when the first attached volume is listed (as OSC shows names);
    a failing lookup leaves the ids shown."""

    def __init__(self, client, all_projects):
        self.client = client
        self.all_projects = all_projects
        self.known = {}
        self.read = False

    def reading(self, volumes):
        for volume in volumes:
            if not self.read and volume.to_dict().get("attachments"):
                self.read = True
                self._read()
            yield volume

    def _read(self):
        search = {"all_tenants": True} if self.all_projects else None
        try:
            for server in self.client.servers.iter(detailed=False, search_opts=search):
                self.known[server.id] = getattr(server, "name", None)
        except Exception as exc:  # noqa: BLE001 - names are decoration
            LOG.debug("server name lookup failed: %s", exc)


@utils.arg("volume", **_VOLUME_ARG)
@utils.output("show")
def do_volume_show(client, args):
    """Show a volume.

    Example: occli volume show data
    """
    return _show_volume(args, client.volumes.show(client.volumes.find_resource(args.volume)))


@utils.arg("name", metavar="<name>", help="Name of the new volume.")
@utils.arg(
    "--size",
    type=utils.positive_int,
    metavar="<GiB>",
    help="Size in GiB (default with --snapshot or --source: theirs).",
)
@utils.arg("--image", metavar="<image>", help="Make it from this image (name or ID).")
@utils.arg("--snapshot", metavar="<snapshot>", help="Make it from this snapshot (name or ID).")
@utils.arg("--source", metavar="<volume>", help="Make it a copy of this volume (name or ID).")
@utils.arg("--description", metavar="<text>", help="Description.")
@utils.arg("--type", metavar="<volume-type>", help="Volume type.")
@utils.arg("--availability-zone", metavar="<zone>", help="Availability zone.")
@utils.property_option("Property (metadata; repeatable).")
@utils.wait_options("the volume is available")
@utils.option_names(
    size="--size", image="--image", snapshot="--snapshot", source_volume="--source"
)
@utils.output("show")
def do_volume_create(client, args):
    """Create a volume: blank, or from an image, a snapshot or a volume.

    Example: occli volume create --size 1 --wait data
    """
    client.volumes.check_create(args.size, args.image, args.snapshot, args.source)
    image = client.images.find_resource(args.image) if args.image else None
    snapshot = client.volume_snapshots.find_resource(args.snapshot) if args.snapshot else None
    source = client.volumes.find_resource(args.source) if args.source else None
    volume = client.volumes.create(
        size=args.size,
        name=args.name,
        description=args.description,
        image=image,
        snapshot=snapshot,
        source_volume=source,
        volume_type=args.type,
        availability_zone=args.availability_zone,
        metadata=dict(args.properties) or None,
    )
    if args.wait:
        label = "volume %s (%s)" % (args.name, volume.id)
        volume = _wait(lambda: client.volumes.get(volume.id), label, args)
    return _show_volume(args, volume)


@utils.arg("volumes", nargs="+", metavar="<volume>", help="Volume(s) (name or ID).")
@utils.arg(
    "--force",
    action="store_true",
    help="Delete whatever the status, except attached (admin; volume API 3.23).",
)
@utils.arg("--purge", action="store_true", help="Delete the volumes' snapshots too.")
def do_volume_delete(client, args):
    """Delete volumes.

    Cinder refuses to delete an attached volume or one with snapshots
    (without --purge): exit 1.

    Example: occli volume delete data
    """

    def delete(ref):
        volume = client.volumes.find_resource(ref)
        client.volumes.delete(volume, cascade=args.purge, force=args.force)

    return utils.for_each(args.volumes, delete, "delete volume")


def _switch(flag, dest, const, other, help, default=False):
    """One flag of a ``--x``/``--no-x`` pair (both given: exit 2)."""
    extra = {"default": None} if default else {}
    return utils.arg(
        flag, dest=dest, action=utils.Switch, const=const, other=other, help=help, **extra
    )


_STATES = ("available", "error", "creating", "deleting", "in-use", "attaching", "detaching",
           "error_deleting", "maintenance")  # fmt: skip


@utils.arg("volume", **_VOLUME_ARG)
@utils.arg("--name", metavar="<name>", help="New volume name.")
@utils.arg("--description", metavar="<description>", help="New volume description.")
@utils.arg("--size", type=utils.positive_int, metavar="<size>", help="Extend volume size in GB.")
@utils.arg(
    "--no-property",
    action="store_true",
    help="Remove all properties from <volume> (with --property: before setting those).",
)
@utils.property_option("Set a property on this volume (repeatable).")
@utils.arg(
    "--image-property",
    dest="image_properties",
    action="append",
    default=[],
    type=utils.key_value("--image-property"),
    metavar="<key=value>",
    help="Set an image property on this volume (repeatable).",
)
@utils.arg(
    "--state",
    choices=_STATES,
    metavar="<state>",
    help="New volume state (admin only; the database only, whatever the volume's real state).",
)
@_switch("--attached", "attach_status", "attached", "--detached",
         "Set volume attachment status to attached (admin only).", default=True)  # fmt: skip
@_switch("--detached", "attach_status", "detached", "--attached",
         "Set volume attachment status to detached (admin only).")  # fmt: skip
@utils.arg("--type", metavar="<volume-type>", help="New volume type (name or ID).")
@utils.arg(
    "--migration-policy",
    "--retype-policy",
    dest="migration_policy",
    choices=("never", "on-demand"),
    metavar="<migration-policy>",
    help="Migration policy while re-typing volume (never or on-demand, default never;"
    " only with --type).",
)
@_switch("--bootable", "bootable", True, "--non-bootable", "Mark volume as bootable.",
         default=True)  # fmt: skip
@_switch("--non-bootable", "bootable", False, "--bootable", "Mark volume as non-bootable.")
@_switch("--read-only", "read_only", True, "--read-write",
         "Set volume to read-only access mode.", default=True)  # fmt: skip
@_switch("--read-write", "read_only", False, "--read-only",
         "Set volume to read-write access mode.")  # fmt: skip
@utils.option_names(new_size="--size", migration_policy="--migration-policy")
def do_volume_set(client, args):
    """Set volume properties.

    Each change is its own request, as OSC makes them; one that fails is
    reported and the others are still made (exit 1).

    Example: occli volume set --size 2 --property backup=daily data
    """
    if args.migration_policy and not args.type:
        raise exceptions.ValidationError(
            "'--migration-policy' option will not work without '--type' option."
        )
    changes = (
        args.name, args.description, args.size, args.state, args.attach_status, args.type,
        args.bootable, args.read_only,
    )  # fmt: skip
    if all(c is None for c in changes) and not (
        args.properties or args.image_properties or args.no_property
    ):
        raise exceptions.ValidationError(
            "Nothing to set: give --name, --description, --property or another option."
        )
    volume = client.volumes.find_resource(args.volume)
    if args.size is not None and args.size <= volume.size:
        raise exceptions.ValidationError("New size must be greater than %s GB" % volume.size)
    steps: list[tuple[str, Callable[[], object]]] = []
    if args.size is not None:
        steps.append(("size", lambda: client.volumes.extend(volume, args.size)))
    if args.no_property:
        steps.append(("clean properties", lambda: client.volumes.update(volume, metadata={})))
    if args.properties:
        props = dict(args.properties)
        steps.append(("properties", lambda: client.volumes.set_metadata(volume, props)))
    if args.image_properties:
        image_props = dict(args.image_properties)
        steps.append(
            ("image properties", lambda: client.volumes.set_image_metadata(volume, image_props))
        )
    if args.state:
        steps.append(("state", lambda: client.volumes.reset_state(volume, status=args.state)))
    if args.attach_status:
        steps.append(
            (
                "attach-status",
                lambda: client.volumes.reset_state(volume, attach_status=args.attach_status),
            )
        )
    if args.bootable is not None:
        steps.append(
            ("bootable property", lambda: client.volumes.set_bootable(volume, args.bootable))
        )
    if args.read_only is not None:
        steps.append(
            (
                "read-only access mode flag",
                lambda: client.volumes.set_readonly(volume, args.read_only),
            )
        )
    if args.type:
        policy = args.migration_policy or "never"
        steps.append(("type", lambda: client.volumes.retype(volume, args.type, policy)))
    if args.name is not None or args.description is not None:
        steps.append(
            (
                "display name or display description",
                lambda: client.volumes.update(
                    volume, name=args.name, description=args.description
                ),
            )
        )
    return _run_steps(steps)


def _run_steps(steps):
    """Run each ``(what, call)``; a failure is logged (``Failed to set
    volume <what>: …``) and the rest still run. 1 if any failed."""
    failed = 0
    for what, call in steps:
        try:
            call()
        except exceptions.ClientException as exc:
            LOG.error("Failed to set volume %s: %s", what, exc)
            failed += 1
    if failed:
        raise exceptions.CommandError("One or more of the set operations failed")
    return 0


@utils.arg("volume", **_VOLUME_ARG)
@utils.arg(
    "--property",
    dest="properties",
    action="append",
    default=[],
    metavar="<key>",
    help="Remove a property from volume (repeatable).",
)
@utils.arg(
    "--image-property",
    dest="image_properties",
    action="append",
    default=[],
    metavar="<key>",
    help="Remove an image property from volume (repeatable).",
)
def do_volume_unset(client, args):
    """Unset volume properties.

    Example: occli volume unset --property backup data
    """
    if not (args.properties or args.image_properties):
        raise exceptions.ValidationError("Nothing to unset: give --property or --image-property.")
    volume = client.volumes.find_resource(args.volume)
    steps: list[tuple[str, Callable[[], object]]] = []
    if args.properties:
        steps.append(
            ("properties", lambda: client.volumes.delete_metadata(volume, args.properties))
        )
    if args.image_properties:
        steps.append(
            (
                "image properties",
                lambda: client.volumes.delete_image_metadata(volume, args.image_properties),
            )
        )
    return _run_steps(steps)


@utils.arg(
    "snapshot",
    metavar="<snapshot>",
    help="Name or ID of the snapshot to restore. The snapshot must be the most recent one"
    " known to cinder.",
)
def do_volume_revert(client, args):
    """Revert a volume to a snapshot (volume API 3.40): its latest one.

    Example: occli volume revert data-snap
    """
    snapshot = client.volume_snapshots.find_resource(args.snapshot)
    client.volumes.revert_to_snapshot(snapshot.volume_id, snapshot)


@utils.arg("volume", metavar="<volume>", help="Volume to migrate (name or ID)")
@utils.arg(
    "--host",
    metavar="<host>",
    required=True,
    help="Destination host (takes the form: host@backend-name#pool)",
)
@utils.arg(
    "--force-host-copy",
    action="store_true",
    help="Enable generic host-based force-migration, which bypasses driver optimizations",
)
@utils.arg(
    "--lock-volume",
    action="store_true",
    help="If specified, the volume state will be locked and will not allow a migration to be"
    " aborted (possibly by another operation)",
)
def do_volume_migrate(client, args):
    """Migrate volume to a new host (admin).

    The volume's migration status (volume show, as an admin) goes
    starting, migrating, then success or error.

    Example: occli volume migrate data --host localcloud@lvm --force-host-copy
    """
    volume = client.volumes.find_resource(args.volume)
    client.volumes.migrate_volume(volume, args.host, args.force_host_copy, args.lock_volume)


@utils.arg("--all-projects", action="store_true", help="Include all projects (admin only).")
@utils.output("show")
def do_volume_summary(client, args):
    """Show a summary of volumes.

    Their count, total size and metadata (volume API 3.12, the metadata
    3.36).

    Example: occli volume summary
    """
    summary = client.volumes.summary(all_projects=args.all_projects)
    info = {"Total Count": summary["total_count"], "Total Size": summary["total_size"]}
    if "metadata" in summary:
        info["Metadata"] = summary["metadata"]
    return columns.show(info, formatters={"Metadata": columns.DictColumn})


# -- snapshots ----------------------------------------------------------------


@utils.arg("--long", action="store_true", help="Also list creation time, volume and properties.")
@utils.arg("--all-projects", action="store_true", help="Snapshots of all projects (admin).")
@utils.arg("--volume", metavar="<volume>", help="Only this volume's snapshots (name or ID).")
@utils.output("list")
def do_volume_snapshot_list(client, args):
    """List volume snapshots.

    Example: occli volume snapshot list --volume data
    """
    volume = client.volumes.find_resource(args.volume) if args.volume else None
    snapshots = client.volume_snapshots.iter(all_projects=args.all_projects, volume=volume)
    cols = ["id", "name", "description", "status", "size"]
    headers = ["ID", "Name", "Description", "Status", "Size"]
    if args.long:
        cols += ["created_at", "volume_id", "metadata"]
        headers += ["Created At", "Volume", "Properties"]
    return columns.table(snapshots, cols, headers, formatters=_FORMATTERS)


@utils.arg("snapshot", metavar="<snapshot>", help="Snapshot (name or ID).")
@utils.output("show")
def do_volume_snapshot_show(client, args):
    """Show a volume snapshot.

    Example: occli volume snapshot show data-snap
    """
    return _show_snapshot(args, client.volume_snapshots.find_resource(args.snapshot))


@utils.arg("name", metavar="<name>", help="Name of the new snapshot.")
@utils.arg("--volume", metavar="<volume>", required=True, help="Volume to snapshot (name or ID).")
@utils.arg(
    "--force", action="store_true", help="Snapshot the volume even while attached (in-use)."
)
@utils.arg("--description", metavar="<text>", help="Description.")
@utils.property_option("Property (metadata; repeatable).")
@utils.wait_options("the snapshot is available")
@utils.output("show")
def do_volume_snapshot_create(client, args):
    """Snapshot a volume.

    Example: occli volume snapshot create --volume data data-snap
    """
    volume = client.volumes.find_resource(args.volume)
    snapshot = client.volume_snapshots.create(
        volume,
        name=args.name,
        description=args.description,
        force=args.force,
        metadata=dict(args.properties) or None,
    )
    if args.wait:
        label = "snapshot %s (%s)" % (args.name, snapshot.id)
        snapshot = _wait(lambda: client.volume_snapshots.get(snapshot.id), label, args)
    return _show_snapshot(args, snapshot)


@utils.arg("snapshots", nargs="+", metavar="<snapshot>", help="Snapshot(s) (name or ID).")
@utils.arg(
    "--force", action="store_true", help="Delete whatever the status (admin; os-force_delete)."
)
def do_volume_snapshot_delete(client, args):
    """Delete volume snapshots.

    Example: occli volume snapshot delete data-snap
    """

    def delete(ref):
        snapshot = client.volume_snapshots.find_resource(ref)
        client.volume_snapshots.delete(snapshot, force=args.force)

    return utils.for_each(args.snapshots, delete, "delete snapshot")


@utils.arg("snapshot", metavar="<snapshot>", help="Snapshot to modify (name or ID).")
@utils.arg("--name", metavar="<name>", help="New snapshot name.")
@utils.arg("--description", metavar="<description>", help="New snapshot description.")
@utils.arg(
    "--no-property",
    action="store_true",
    help="Remove all properties from <snapshot> (with --property: before setting those).",
)
@utils.property_option("Property to add/change for this snapshot (repeatable).")
def do_volume_snapshot_set(client, args):
    """Set volume snapshot properties.

    Example: occli volume snapshot set --property tier=gold data-snap
    """
    if (
        args.name is None
        and args.description is None
        and not (args.properties or args.no_property)
    ):
        raise exceptions.ValidationError(
            "Nothing to set: give --name, --description, --property or --no-property."
        )
    snapshot = client.volume_snapshots.find_resource(args.snapshot)
    manager = client.volume_snapshots
    if args.no_property:
        manager.set_metadata(snapshot, dict(args.properties), replace=True)
    elif args.properties:
        manager.set_metadata(snapshot, dict(args.properties))
    if args.name is not None or args.description is not None:
        manager.update(snapshot, name=args.name, description=args.description)


@utils.arg("snapshot", metavar="<snapshot>", help="Snapshot to modify (name or ID).")
@utils.arg(
    "--property",
    dest="properties",
    action="append",
    default=[],
    metavar="<key>",
    help="Property to remove from snapshot (repeatable).",
)
def do_volume_snapshot_unset(client, args):
    """Unset volume snapshot properties.

    Example: occli volume snapshot unset --property tier data-snap
    """
    if not args.properties:
        raise exceptions.ValidationError("Nothing to unset: give --property.")
    snapshot = client.volume_snapshots.find_resource(args.snapshot)
    client.volume_snapshots.delete_metadata(snapshot, args.properties)
