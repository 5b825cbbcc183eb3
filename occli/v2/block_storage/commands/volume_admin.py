"""Cinder administration commands: ``volume service …``, ``volume host …``,
``volume backend pool …``, ``volume qos …``, ``volume group …``."""

from occli import columns
from occli import exceptions
from occli import utils

# -- volume qos … (QoS specifications; client.volume_qos) ---------------------------------

_QOS_ARG = dict(metavar="<qos-spec>", help="QoS specification (name or ID).")
_QOS_CONSUMERS = ("front-end", "back-end", "both")


def _show_qos(client, qos_spec):
    """OSC's QoS show: ``associations`` (type names) when there are some,
    ``specs`` as ``properties``."""
    info = {
        "consumer": qos_spec.consumer,
        "id": qos_spec.id,
        "name": qos_spec.name,
        "properties": getattr(qos_spec, "specs", None) or {},
    }
    names = [a["name"] for a in client.volume_qos.get_associations(qos_spec)]
    if names:
        info["associations"] = names
    return columns.show(
        info, formatters={"properties": columns.DictColumn, "associations": columns.ListColumn}
    )


@utils.output("list")
def do_volume_qos_list(client, args):
    """List QoS specifications (admin).

    Example: occli volume qos list
    """

    def rows():
        for qos_spec in client.volume_qos.iter():
            info = qos_spec.to_dict()
            info["associations"] = [
                a["name"] for a in client.volume_qos.get_associations(qos_spec)
            ]
            yield info

    return columns.table(
        rows(),
        ["id", "name", "consumer", "associations", "specs"],
        ["ID", "Name", "Consumer", "Associations", "Properties"],
        formatters={"associations": columns.ListColumn, "specs": columns.DictColumn},
    )


@utils.arg("qos_spec", **_QOS_ARG)
@utils.output("show")
def do_volume_qos_show(client, args):
    """Display QoS specification details (admin).

    Example: occli volume qos show fast
    """
    return _show_qos(client, client.volume_qos.find_resource(args.qos_spec))


@utils.arg("name", metavar="<name>", help="New QoS specification name.")
@utils.arg(
    "--consumer",
    metavar="<consumer>",
    choices=_QOS_CONSUMERS,
    default="both",
    help="Consumer of the QoS: front-end, back-end or both (defaults to 'both').",
)
@utils.property_option("Set a QoS specification property (repeatable).")
@utils.output("show")
def do_volume_qos_create(client, args):
    """Create new QoS specification (admin).

    Example: occli volume qos create --property total_iops_sec=1000 fast
    """
    specs = dict(args.properties)
    client.volume_qos.check_create(args.name, specs, args.consumer)
    qos_spec = client.volume_qos.create(args.name, specs, consumer=args.consumer)
    return _show_qos(client, qos_spec)


@utils.arg("qos_specs", nargs="+", metavar="<qos-spec>", help="QoS specification(s) (name or ID).")
@utils.arg("--force", action="store_true", help="Allow to delete in-use QoS specification(s).")
def do_volume_qos_delete(client, args):
    """Delete QoS specification (admin).

    Cinder refuses one a volume type uses unless --force (exit 1).

    Example: occli volume qos delete fast
    """

    def delete(ref):
        client.volume_qos.delete(client.volume_qos.find_resource(ref), force=args.force)

    return utils.for_each(args.qos_specs, delete, "delete QoS specification")


@utils.arg("qos_spec", **_QOS_ARG)
@utils.arg(
    "--no-property",
    action="store_true",
    help="Remove all properties from <qos-spec> (specify both --no-property and --property"
    " to remove the current properties before setting new ones).",
)
@utils.property_option("Property to add or modify for this QoS specification (repeatable).")
def do_volume_qos_set(client, args):
    """Set QoS specification properties (admin).

    Example: occli volume qos set --property total_iops_sec=2000 fast
    """
    if not args.no_property and not args.properties:
        raise exceptions.ValidationError("Nothing to set: give --property or --no-property.")
    qos_spec = client.volume_qos.find_resource(args.qos_spec)
    if args.no_property and getattr(qos_spec, "specs", None):
        client.volume_qos.unset_keys(qos_spec, list(qos_spec.specs))
    if args.properties:
        client.volume_qos.set_keys(qos_spec, dict(args.properties))


@utils.arg("qos_spec", **_QOS_ARG)
@utils.arg(
    "--property",
    dest="properties",
    action="append",
    default=[],
    metavar="<key>",
    help="Property to remove from the QoS specification (repeatable).",
)
def do_volume_qos_unset(client, args):
    """Unset QoS specification properties (admin).

    Example: occli volume qos unset --property total_iops_sec fast
    """
    if not args.properties:
        raise exceptions.ValidationError("Nothing to unset: give --property.")
    client.volume_qos.unset_keys(client.volume_qos.find_resource(args.qos_spec), args.properties)


@utils.arg("qos_spec", **_QOS_ARG)
@utils.arg(
    "volume_type", metavar="<volume-type>", help="Volume type to associate the QoS (name or ID)."
)
def do_volume_qos_associate(client, args):
    """Associate a QoS specification to a volume type (admin).

    Example: occli volume qos associate fast gold
    """
    qos_spec = client.volume_qos.find_resource(args.qos_spec)
    client.volume_qos.associate(qos_spec, client.volume_types.find_resource(args.volume_type))


@utils.arg("qos_spec", **_QOS_ARG)
@utils.arg(
    "--volume-type",
    metavar="<volume-type>",
    help="Volume type to disassociate the QoS from (name or ID).",
)
@utils.arg("--all", action="store_true", help="Disassociate the QoS from every volume type.")
def do_volume_qos_disassociate(client, args):
    """Disassociate a QoS specification from a volume type (admin).

    Example: occli volume qos disassociate --volume-type gold fast
    """
    if (args.volume_type is None) == (not args.all):
        raise exceptions.ValidationError("Give one of --volume-type and --all.")
    qos_spec = client.volume_qos.find_resource(args.qos_spec)
    if args.all:
        client.volume_qos.disassociate_all(qos_spec)
    else:
        volume_type = client.volume_types.find_resource(args.volume_type)
        client.volume_qos.disassociate(qos_spec, volume_type)


# -- volume service/host/backend … (client.volume_services) ----------------------------


@utils.arg("--host", metavar="<host>", help="List services on this host (name only).")
@utils.arg("--service", metavar="<service>", help="List only this service (binary name).")
@utils.arg("--long", action="store_true", help="Also list why a service is disabled.")
@utils.output("list")
def do_volume_service_list(client, args):
    """List Cinder's services (admin).

    Example: occli volume service list --service cinder-volume
    """
    found = client.volume_services.list(host=args.host, binary=args.service)
    cols = ["binary", "host", "zone", "status", "state", "updated_at"]
    headers = ["Binary", "Host", "Zone", "Status", "State", "Updated At"]
    if args.long:
        cols.append("disabled_reason")
        headers.append("Disabled Reason")
    return columns.table(found, cols, headers)


@utils.arg("host", metavar="<host>", help="Name of the service's host.")
@utils.arg("service", metavar="<service>", help="Name of the service (binary name).")
@utils.arg(
    "--enable",
    dest="status",
    action=utils.Switch,
    const="enabled",
    other="--disable",
    default=None,
    help="Enable the volume service.",
)
@utils.arg(
    "--disable",
    dest="status",
    action=utils.Switch,
    const="disabled",
    other="--enable",
    help="Disable the volume service.",
)
@utils.arg(
    "--disable-reason",
    metavar="<reason>",
    help="Why the service is disabled (only with --disable).",
)
def do_volume_service_set(client, args):
    """Enable or disable a Cinder service (admin).

    Example: occli volume service set --disable localcloud@lvm cinder-volume
    """
    if args.disable_reason and args.status != "disabled":
        raise exceptions.CommandError(
            "Cannot specify option --disable-reason without --disable specified."
        )
    if args.status == "enabled":
        client.volume_services.enable(args.host, args.service)
    elif args.status == "disabled":
        client.volume_services.disable(args.host, args.service, args.disable_reason)


@utils.arg("host", metavar="<host-name>", help="Name of the volume host (host@backend).")
@utils.arg(
    "--disable",
    dest="frozen",
    action=utils.Switch,
    const=True,
    other="--enable",
    default=None,
    help="Freeze and disable the volume host.",
)
@utils.arg(
    "--enable",
    dest="frozen",
    action=utils.Switch,
    const=False,
    other="--disable",
    help="Thaw and enable the volume host.",
)
def do_volume_host_set(client, args):
    """Freeze or thaw a volume host (admin).

    Example: occli volume host set --disable localcloud@lvm
    """
    if args.frozen is True:
        client.volume_services.freeze_host(args.host)
    elif args.frozen is False:
        client.volume_services.thaw_host(args.host)


@utils.arg("--long", action="store_true", help="Show each pool's capabilities.")
@utils.output("list")
def do_volume_backend_pool_list(client, args):
    """List the scheduler's storage pools (admin).

    Example: occli volume backend pool list --long
    """
    found = client.volume_services.pools(detailed=args.long)
    if args.long:
        return columns.table(
            found,
            ["name", "capabilities"],
            ["Name", "Capabilities"],
            formatters={"capabilities": columns.DictColumn},
        )
    return columns.table(found, ["name"], ["Name"])


@utils.arg("host", metavar="<host>", help="The backend to show (host@backend-name).")
@utils.output("list")
def do_volume_backend_capability_show(client, args):
    """Show the capabilities a volume backend lets extra specs set (admin).

    Example: occli volume backend capability show localcloud@lvm
    """
    properties = getattr(client.volume_services.capabilities(args.host), "properties", None)
    rows = [dict(value, key=key) for key, value in (properties or {}).items()]
    return columns.table(
        rows, ["title", "key", "type", "description"], ["Title", "Key", "Type", "Description"]
    )


# -- volume group type … (client.volume_group_types; volume API 3.11) ------------------

_GROUP_TYPE_ARG = dict(metavar="<group-type>", help="Volume group type (name or ID).")
_GROUP_TYPE_SHOWN = ("id", "name", "description", "is_public", "group_specs")
_GROUP_TYPE_HEADERS = {
    "id": "ID",
    "name": "Name",
    "description": "Description",
    "is_public": "Is Public",
    "group_specs": "Properties",
}


def _show_group_type(group_type):
    return columns.show(
        group_type,
        columns=_GROUP_TYPE_SHOWN,
        rename=_GROUP_TYPE_HEADERS,
        formatters={"group_specs": columns.DictColumn},
    )


def _group_type_public(public_help, private_help):
    """OSC's ``--public``/``--private`` pair (``args.is_public``)."""

    def decorate(func):
        func = utils.arg(
            "--private",
            dest="is_public",
            action=utils.Switch,
            const=False,
            other="--public",
            help=private_help,
        )(func)
        return utils.arg(
            "--public",
            dest="is_public",
            action=utils.Switch,
            const=True,
            other="--private",
            default=None,
            help=public_help,
        )(func)

    return decorate


@utils.arg("name", metavar="<name>", help="Name of new volume group type.")
@utils.arg("--description", metavar="<description>", help="Description of the group type.")
@_group_type_public(
    "Volume group type is available to other projects (default).",
    "Volume group type is not available to other projects.",
)
@utils.output("show")
def do_volume_group_type_create(client, args):
    """Create a volume group type (admin; volume API 3.11).

    Example: occli volume group type create --private grp-gold
    """
    group_type = client.volume_group_types.create(
        args.name, description=args.description, is_public=args.is_public is not False
    )
    return _show_group_type(group_type)


@utils.arg(
    "group_types", nargs="+", metavar="<group-type>", help="Group type(s) to delete (name or ID)."
)
def do_volume_group_type_delete(client, args):
    """Delete volume group type(s) (admin).

    Example: occli volume group type delete grp-gold
    """

    def delete(ref):
        client.volume_group_types.delete(client.volume_group_types.find_resource(ref))

    return utils.for_each(args.group_types, delete, "delete group type")


@utils.arg("--default", action="store_true", help="List the default volume group type.")
@utils.output("list")
def do_volume_group_type_list(client, args):
    """List volume group types.

    Example: occli volume group type list
    """
    found = (
        [client.volume_group_types.default()] if args.default else client.volume_group_types.list()
    )
    return columns.table(
        found,
        ["id", "name", "is_public", "group_specs"],
        ["ID", "Name", "Is Public", "Group Specs"],
        formatters={"group_specs": columns.DictColumn},
    )


@utils.arg("group_type", **_GROUP_TYPE_ARG)
@utils.output("show")
def do_volume_group_type_show(client, args):
    """Show a volume group type.

    Example: occli volume group type show grp-gold
    """
    return _show_group_type(client.volume_group_types.find_resource(args.group_type))


@utils.arg("group_type", **_GROUP_TYPE_ARG)
@utils.arg("--name", metavar="<name>", help="New name for the volume group type.")
@utils.arg("--description", metavar="<description>", help="New description.")
@_group_type_public(
    "Make the volume group type available to other projects.",
    "Make the volume group type unavailable to other projects.",
)
@utils.arg(
    "--no-property",
    action="store_true",
    help="Remove every property first (then --property sets new ones).",
)
@utils.property_option("Property to add or modify for this group type (repeatable).")
@utils.output("show")
def do_volume_group_type_set(client, args):
    """Set volume group type properties (admin).

    Example: occli volume group type set --property replication_enabled=true grp-gold
    """
    manager = client.volume_group_types
    group_type = manager.find_resource(args.group_type)
    if args.name is not None or args.description is not None or args.is_public is not None:
        group_type = manager.update(
            group_type, name=args.name, description=args.description, is_public=args.is_public
        )
    if args.no_property:
        manager.unset_specs(group_type, list(getattr(group_type, "group_specs", None) or {}))
    if args.properties:
        manager.set_specs(group_type, dict(args.properties))
    return _show_group_type(manager.get(group_type))


@utils.arg("group_type", **_GROUP_TYPE_ARG)
@utils.arg(
    "--property",
    dest="properties",
    action="append",
    default=[],
    metavar="<key>",
    help="Property to remove from this group type (repeatable).",
)
@utils.output("show")
def do_volume_group_type_unset(client, args):
    """Unset volume group type properties (admin).

    Example: occli volume group type unset --property replication_enabled grp-gold
    """
    manager = client.volume_group_types
    group_type = manager.find_resource(args.group_type)
    manager.unset_specs(group_type, args.properties)
    return _show_group_type(manager.get(group_type))


# -- volume group … (client.volume_groups; volume API 3.13) -----------------------------

_GROUP_ARG = dict(metavar="<group>", help="Name or ID of volume group.")
# openstackclient/volume/v3/volume_group.py _format_group
_GROUP_SHOWN = ("id", "status", "name", "description", "group_type", "volume_types",
                "availability_zone", "created_at", "volumes", "group_snapshot_id",
                "source_group_id")  # fmt: skip
_GROUP_HEADERS = dict(zip(_GROUP_SHOWN, ("ID", "Status", "Name", "Description", "Group Type",
                      "Volume Types", "Availability Zone", "Created At", "Volumes",
                      "Group Snapshot ID", "Source Group ID"), strict=True))  # fmt: skip


def _show_group(group):
    return columns.show(group, columns=_GROUP_SHOWN, rename=_GROUP_HEADERS)


@utils.arg("--volume-group-type", metavar="<volume_group_type>",
           help="Volume group type to use (name or ID)")  # fmt: skip
@utils.arg(
    "--volume-type",
    dest="volume_types",
    action="append",
    default=[],
    metavar="<volume_type>",
    help="Volume type(s) to use (name or ID) (required with --volume-group-type)",
)
@utils.arg("--source-group", metavar="<source-group>",
           help="Existing volume group to use (name or ID)")  # fmt: skip
@utils.arg("--group-snapshot", metavar="<group-snapshot>",
           help="Existing group snapshot to use (name or ID)")  # fmt: skip
@utils.arg("--name", metavar="<name>", help="Name of the volume group.")
@utils.arg("--description", metavar="<description>", help="Description of a volume group.")
@utils.arg(
    "--availability-zone",
    metavar="<availability-zone>",
    help="Availability zone for volume group. (not available if creating group from source)",
)
@utils.output("show")
def do_volume_group_create(client, args):
    """Create a volume group (volume API 3.13; from a source 3.14).

    Example: occli volume group create --volume-group-type gold --volume-type __DEFAULT__ --name g1
    """
    sources = [a for a in (args.volume_group_type, args.source_group, args.group_snapshot) if a]
    if len(sources) > 1:
        raise exceptions.CommandError(
            "argument --volume-group-type, --source-group and --group-snapshot are mutually"
            " exclusive"
        )
    groups = client.volume_groups
    if args.volume_group_type:
        if not args.volume_types:
            raise exceptions.CommandError(
                "--volume-types is a required argument when creating a group from group type."
            )
        group = groups.create(
            client.volume_group_types.find_resource(args.volume_group_type).id,
            [client.volume_types.find_resource(t).id for t in args.volume_types],
            name=args.name,
            description=args.description,
            availability_zone=args.availability_zone,
        )
    elif args.source_group or args.group_snapshot:
        group = groups.create_from_source(
            group_snapshot=args.group_snapshot
            and client.volume_group_snapshots.find_resource(args.group_snapshot).id,
            source_group=args.source_group and groups.find_resource(args.source_group).id,
            name=args.name,
            description=args.description,
        )
    else:
        raise exceptions.CommandError(
            "Either --source-group <source_group> or '--group-snapshot <group_snapshot>' needs"
            " to be provided to run the 'volume group create [--source-group|--group-snapshot]'"
            " command"
        )
    return _show_group(groups.get(group))


@utils.arg("group", metavar="<group>", help="Name or ID of volume group to delete")
@utils.arg(
    "--force",
    action="store_true",
    help="Delete the volume group even if it contains volumes. This will delete any remaining"
    " volumes in the group.",
)
def do_volume_group_delete(client, args):
    """Delete a volume group.

    Example: occli volume group delete --force g1
    """
    groups = client.volume_groups
    groups.delete(groups.find_resource(args.group), delete_volumes=args.force)


@utils.arg(
    "--all-projects", action="store_true", help="Shows details for all projects (admin only)."
)
@utils.output("list")
def do_volume_group_list(client, args):
    """List volume groups.

    Example: occli volume group list
    """
    found = client.volume_groups.list(all_projects=args.all_projects)
    return columns.table(found, ["id", "status", "name"], ["ID", "Status", "Name"])


@utils.arg("group", **_GROUP_ARG)
@utils.arg("--volumes", dest="show_volumes", action=utils.Switch, const=True,
           other="--no-volumes", default=None,
           help="Show volumes included in the group.")  # fmt: skip
@utils.arg("--no-volumes", dest="show_volumes", action=utils.Switch, const=False,
           other="--volumes", help="Do not show volumes included in the group.")  # fmt: skip
@utils.arg("--replication-targets", dest="show_replication_targets", action=utils.Switch,
           const=True, other="--no-replication-targets", default=None,
           help="Show replication targets for the group.")  # fmt: skip
@utils.arg("--no-replication-targets", dest="show_replication_targets", action=utils.Switch,
           const=False, other="--replication-targets",
           help="Do not show replication targets for the group.")  # fmt: skip
@utils.output("show")
def do_volume_group_show(client, args):
    """Show a volume group.

    Example: occli volume group show --volumes g1
    """
    groups = client.volume_groups
    group = groups.get(groups.find_resource(args.group), list_volume=bool(args.show_volumes))
    names, values = _show_group(group)
    if args.show_replication_targets:
        targets = groups.list_replication_targets(group)
        names += ("Replication Targets",)
        values += (columns.format_value(targets, columns.ListColumn),)
    return names, values


@utils.arg("group", **_GROUP_ARG)
@utils.arg("--name", metavar="<name>", help="New name for group.")
@utils.arg("--description", metavar="<description>", help="New description for group.")
@utils.arg("--add-volume", dest="add_volumes", action="append", default=[], metavar="<volume>",
           help="Volume to add to the group (name or ID; repeatable).")  # fmt: skip
@utils.arg("--remove-volume", dest="remove_volumes", action="append", default=[],
           metavar="<volume>",
           help="Volume to remove from the group (name or ID; repeatable).")  # fmt: skip
@utils.arg("--enable-replication", dest="enable_replication", action=utils.Switch, const=True,
           other="--disable-replication", default=None,
           help="Enable replication for group.")  # fmt: skip
@utils.arg("--disable-replication", dest="enable_replication", action=utils.Switch,
           const=False, other="--enable-replication",
           help="Disable replication for group.")  # fmt: skip
@utils.output("show")
def do_volume_group_set(client, args):
    """Update a volume group (replication: volume API 3.38).

    Example: occli volume group set --add-volume vol1 g1
    """
    groups = client.volume_groups
    group = groups.find_resource(args.group)
    if args.enable_replication is True:
        groups.enable_replication(group)
    elif args.enable_replication is False:
        groups.disable_replication(group)
    if (
        args.name is not None
        or args.description is not None
        or args.add_volumes
        or (args.remove_volumes)
    ):
        groups.update(
            group,
            name=args.name,
            description=args.description,
            add_volumes=[client.volumes.find_resource(v).id for v in args.add_volumes],
            remove_volumes=[client.volumes.find_resource(v).id for v in args.remove_volumes],
        )
    return _show_group(groups.get(group))


@utils.arg("group", metavar="<group>",
           help="Name or ID of volume group to failover replication for.")  # fmt: skip
@utils.arg("--allow-attached-volume", dest="allow_attached_volume", action=utils.Switch,
           const=True, other="--disallow-attached-volume", default=None,
           help="Allow group with attached volumes to be failed over.")  # fmt: skip
@utils.arg("--disallow-attached-volume", dest="allow_attached_volume", action=utils.Switch,
           const=False, other="--allow-attached-volume",
           help="Disallow group with attached volumes to be failed over.")  # fmt: skip
@utils.arg("--secondary-backend-id", metavar="<backend_id>", help="Secondary backend ID.")
def do_volume_group_failover(client, args):
    """Failover replication for a volume group (volume API 3.38).

    Example: occli volume group failover --secondary-backend-id site2 g1
    """
    groups = client.volume_groups
    groups.failover_replication(
        groups.find_resource(args.group),
        allow_attached_volume=bool(args.allow_attached_volume),
        secondary_backend_id=args.secondary_backend_id,
    )


# -- volume group snapshot … (client.volume_group_snapshots; volume API 3.14) ------------

# openstackclient/volume/v3/volume_group_snapshot.py _format_group_snapshot
_GROUP_SNAPSHOT_SHOWN = ("id", "status", "name", "description", "group_id", "group_type_id")
_GROUP_SNAPSHOT_HEADERS = dict(zip(_GROUP_SNAPSHOT_SHOWN, ("ID", "Status", "Name",
                               "Description", "Group", "Group Type"), strict=True))  # fmt: skip


def _show_group_snapshot(snapshot):
    return columns.show(snapshot, columns=_GROUP_SNAPSHOT_SHOWN, rename=_GROUP_SNAPSHOT_HEADERS)


@utils.arg("volume_group", metavar="<volume_group>",
           help="Name or ID of volume group to create a snapshot of.")  # fmt: skip
@utils.arg("--name", metavar="<name>", help="Name of the volume group snapshot.")
@utils.arg("--description", metavar="<description>",
           help="Description of a volume group snapshot.")  # fmt: skip
@utils.output("show")
def do_volume_group_snapshot_create(client, args):
    """Create a volume group snapshot.

    Example: occli volume group snapshot create --name gs1 g1
    """
    snapshots = client.volume_group_snapshots
    group = client.volume_groups.find_resource(args.volume_group)
    made = snapshots.create(group, name=args.name, description=args.description)
    return _show_group_snapshot(snapshots.get(made))


@utils.arg("snapshot", metavar="<snapshot>",
           help="Name or ID of volume group snapshot to delete")  # fmt: skip
def do_volume_group_snapshot_delete(client, args):
    """Delete a volume group snapshot.

    Example: occli volume group snapshot delete gs1
    """
    snapshots = client.volume_group_snapshots
    snapshots.delete(snapshots.find_resource(args.snapshot))


@utils.arg(
    "--all-projects", action="store_true", help="Shows details for all projects (admin only)."
)
@utils.output("list")
def do_volume_group_snapshot_list(client, args):
    """List volume group snapshots.

    Example: occli volume group snapshot list
    """
    found = client.volume_group_snapshots.list(all_projects=args.all_projects)
    return columns.table(found, ["id", "status", "name"], ["ID", "Status", "Name"])


@utils.arg("snapshot", metavar="<snapshot>", help="Name or ID of volume group snapshot.")
@utils.output("show")
def do_volume_group_snapshot_show(client, args):
    """Show a volume group snapshot.

    Example: occli volume group snapshot show gs1
    """
    snapshots = client.volume_group_snapshots
    return _show_group_snapshot(snapshots.get(snapshots.find_resource(args.snapshot)))
