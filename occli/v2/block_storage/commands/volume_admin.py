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
