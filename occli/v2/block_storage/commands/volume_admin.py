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
