"""Host aggregate and availability zone commands (admin).

Aggregates are named by integer id, name, or uuid (compute API 2.41+); the
API itself is always called with the integer id. ``metadata`` is shown as
``properties``, as OpenStackClient does.
"""

import re

from occli import api_versions
from occli import columns
from occli import exceptions
from occli import utils

#: nova's keys under OSC's names (openstacksdk's Aggregate's, which
#: openstackclient/compute/v2/aggregate.py shows)
_RENAME = {"metadata": "properties", "deleted": "is_deleted"}
# nova's metadata key schema (the value may be any string up to 255)
_PROPERTY_KEY = re.compile(r"^[a-zA-Z0-9-_:. ]{1,255}$")
_FORMATTERS = {"hosts": columns.ListColumn, "metadata": columns.DictColumn}
_AGGREGATE_ARG = dict(metavar="<aggregate>", help="Aggregate name or ID (or UUID from API 2.41).")


def _show(aggregate):
    info = aggregate.to_dict()
    keys = sorted(info, key=lambda k: _RENAME.get(k, k))
    return columns.show(info, columns=keys, rename=_RENAME, formatters=_FORMATTERS)


def _properties(items):
    properties = utils.parse_key_values(items, "--property", max_length=255)
    for key in properties:
        if not _PROPERTY_KEY.match(key):
            raise exceptions.ValidationError(
                "--property key %r is not valid: use letters, digits, spaces "
                "and '-_:.' only." % key
            )
    return properties


@utils.arg(
    "--long", action="store_true", help="Also list properties and hosts (and UUIDs from API 2.41)."
)
@utils.output("list")
def do_aggregate_list(client, args):
    """List host aggregates.

    Example: occli aggregate list --long
    """
    aggregates = client.aggregates.iter()
    cols = ["id", "name", "availability_zone"]
    headers = ["ID", "Name", "Availability Zone"]
    # UUID from 2.41 with or without --long, as OSC's (compute/v2/aggregate.py)
    if api_versions.APIVersion(client.aggregates.api_version).matches("2.41"):
        cols.insert(1, "uuid")
        headers.insert(1, "UUID")
    if args.long:
        cols += ["metadata", "hosts"]
        headers += ["Properties", "Hosts"]
    return columns.table(aggregates, cols, headers=headers, formatters=_FORMATTERS)


@utils.arg("aggregate", **_AGGREGATE_ARG)
@utils.output("show")
def do_aggregate_show(client, args):
    """Show a host aggregate.

    Example: occli aggregate show agg1
    """
    return _show(client.aggregates.find_resource(args.aggregate))


@utils.arg("name", metavar="<name>", help="Name of the new aggregate.")
@utils.arg(
    "--zone",
    metavar="<availability-zone>",
    help="Make the aggregate an availability zone of this name.",
)
@utils.property_option("Set a property (repeat for several; 'key=' sets '').", pairs=False)
@utils.output("show")
def do_aggregate_create(client, args):
    """Create a host aggregate.

    Example: occli aggregate create --zone az1 agg1
    """
    properties = _properties(args.properties)
    aggregate = client.aggregates.create(args.name, availability_zone=args.zone)
    if properties:
        try:
            aggregate = client.aggregates.set_metadata(aggregate, properties)
        except Exception:
            # no half-made aggregate: it would block a corrected retry (409)
            try:
                client.aggregates.delete(aggregate)
            except exceptions.ClientException:
                pass
            raise
    return _show(aggregate)


@utils.arg("aggregate", **_AGGREGATE_ARG)
@utils.arg("--name", metavar="<name>", help="New name.")
@utils.arg("--zone", metavar="<availability-zone>", help="New availability zone.")
@utils.property_option("Set a property (repeat for several; 'key=' sets '').", pairs=False)
@utils.arg(
    "--no-property",
    action="store_true",
    help="Remove every property except availability_zone (before setting any --property).",
)
def do_aggregate_set(client, args):
    """Change a host aggregate's name, zone or properties.

    Example: occli aggregate set --property ssd=true agg1
    """
    properties = _properties(args.properties)
    aggregate = client.aggregates.find_resource(args.aggregate)
    if args.name is not None or args.zone is not None:
        client.aggregates.update(aggregate, name=args.name, availability_zone=args.zone)
    metadata = {}
    if args.no_property:
        metadata = {
            k: None for k in getattr(aggregate, "metadata", None) or {} if k != "availability_zone"
        }
    metadata.update(properties)
    if metadata:
        client.aggregates.set_metadata(aggregate, metadata)


@utils.arg("aggregate", **_AGGREGATE_ARG)
@utils.arg(
    "--property",
    dest="properties",
    metavar="<key>",
    action="append",
    required=True,
    help="Remove this property (repeat for several).",
)
def do_aggregate_unset(client, args):
    """Remove properties from a host aggregate.

    Example: occli aggregate unset --property ssd agg1
    """
    if not all(key.strip() for key in args.properties):
        raise exceptions.ValidationError("--property expects a property name.")
    aggregate = client.aggregates.find_resource(args.aggregate)
    client.aggregates.set_metadata(aggregate, {key: None for key in args.properties})


@utils.arg(
    "aggregates", metavar="<aggregate>", nargs="+", help="Aggregate(s) to delete (name or ID)."
)
@utils.concurrency_option
def do_aggregate_delete(client, args):
    """Delete host aggregates (each must have no hosts).

    Example: occli aggregate delete agg1
    """
    manager = client.aggregates

    def delete(ref):
        aggregate = manager.find_resource(ref)
        try:
            manager.delete(aggregate)
        except exceptions.BadRequest as exc:
            if "not empty" in (exc.message or ""):
                hosts = getattr(aggregate, "hosts", None) or ["<host>"]
                exc.message += " Remove its hosts first: occli aggregate remove host %s %s" % (
                    ref,
                    " ".join(hosts),
                )
            raise

    return utils.for_each(
        args.aggregates, delete, "delete aggregate", concurrency=args.concurrency
    )


@utils.arg("aggregate", **_AGGREGATE_ARG)
@utils.arg("hosts", metavar="<host>", nargs="+", help="Compute host(s) to add.")
@utils.concurrency_option
@utils.output("show")
def do_aggregate_add_host(client, args):
    """Add compute hosts to a host aggregate.

    Example: occli aggregate add host agg1 compute1
    """
    return _each_host(client, args, "add", client.aggregates.add_host)


@utils.arg("aggregate", **_AGGREGATE_ARG)
@utils.arg("hosts", metavar="<host>", nargs="+", help="Compute host(s) to remove.")
@utils.concurrency_option
@utils.output("show")
def do_aggregate_remove_host(client, args):
    """Remove compute hosts from a host aggregate.

    Example: occli aggregate remove host agg1 compute1
    """
    return _each_host(client, args, "remove", client.aggregates.remove_host)


def _each_host(client, args, verb, action):
    """Add (or remove) each host, then show the aggregate.

    One host: its answer is shown, and its failure is the command's error.
    Several: up to ``--concurrency`` at a time, each failure one line on
    stderr (exit 1), then the aggregate as it is after all of them.
    """
    aggregate = client.aggregates.find_resource(args.aggregate)
    if len(args.hosts) == 1:
        return _show(action(aggregate, args.hosts[0]))
    code = utils.for_each(
        args.hosts,
        lambda host: action(aggregate, host),
        "%s host" % verb,
        label=lambda host: (
            "%s %s aggregate %s" % (host, "to" if verb == "add" else "from", aggregate.name)
        ),
        concurrency=args.concurrency,
    )
    return _show(client.aggregates.get(aggregate)) + (code,)


@utils.arg("aggregate", **_AGGREGATE_ARG)
@utils.arg("images", metavar="<image>", nargs="+", help="Image(s) to cache (name or ID).")
def do_aggregate_cache_image(client, args):
    """Cache images on the hosts of an aggregate (compute API 2.81).

    Example: occli --os-compute-api-version 2.81 aggregate cache image agg1 cirros
    """
    client.aggregates.check_cache_images()
    aggregate = client.aggregates.find_resource(args.aggregate)
    images = [client.images.find_resource(i) for i in args.images]
    client.aggregates.cache_images(aggregate, images)


@utils.arg("--long", action="store_true", help="Also list each zone's hosts and services (admin).")
@utils.arg("--compute", action="store_true", help="List compute availability zones.")
@utils.arg("--network", action="store_true", help="List network availability zones.")
@utils.arg("--volume", action="store_true", help="List volume availability zones.")
@utils.output("list")
def do_availability_zone_list(client, args):
    """List availability zones (compute, network and volume).

    Every service's zones, as OSC lists them, unless --compute, --network
    or --volume picks some.

    Example: occli availability zone list
    """
    every = not (args.compute or args.network or args.volume)
    headers = ["Zone Name", "Zone Status"]
    if args.long:
        headers += ["Zone Resource", "Host Name", "Service Name", "Service Status"]
    rows = []
    if args.compute or every:
        zones = client.availability_zones.iter(detailed=args.long)
        rows += [row for zone in zones for row in _zone_rows(zone, args.long)]
    networks = client.network_availability_zones
    # OSC's _xform_network_availability_zone, where Neutron has the extension
    if (
        (args.network or every)
        and networks.available()
        and client.network_extensions.supports("availability_zone")
    ):
        rows += [
            _long_row(z.name, _NETWORK_STATES.get(z.state, z.state), args.long, z.resource)
            for z in networks.iter()
        ]
    volumes = client.volume_availability_zones
    if (args.volume or every) and volumes.available():
        rows += [_long_row(z.zoneName, _status(z.to_dict()), args.long) for z in volumes.iter()]
    return tuple(headers), rows


#: a Neutron zone's state as OSC shows it
_NETWORK_STATES = {"unavailable": "not available"}


def _status(info):
    """A Nova or Cinder zone's ``zoneState`` as OSC's Zone Status."""
    return "available" if (info.get("zoneState") or {}).get("available") else "not available"


def _long_row(name, status, long, resource=""):
    """A zone's row; with --long its resource and empty host columns."""
    return (name, status, resource, "", "", "") if long else (name, status)


def _zone_rows(zone, long):
    info = zone.to_dict()
    if not long:
        return [(info.get("zoneName"), _status(info))]
    head = (info.get("zoneName"), _status(info), "")
    rows = []
    for host, services in sorted((info.get("hosts") or {}).items()):
        for name, svc in sorted(services.items()):
            rows.append(
                head
                + (
                    host,
                    name,
                    "%s %s"
                    % (
                        "enabled" if svc.get("active") else "disabled",
                        "up" if svc.get("available") else "down",
                    ),
                )
            )
    return rows or [head + ("", "", "")]
