"""Flavor commands."""

from occli import columns
from occli import utils


@utils.arg("--all", dest="all_flavors", action="store_true",
           help="List private flavors too (admin).")
@utils.arg("--limit", type=utils.list_limit, default=None, metavar="<n>",
           help="At most this many flavors (-1: all).")
@utils.arg("--marker", metavar="<flavor-id>", help="Start after this flavor.")
@utils.output("list")
def do_flavor_list(client, args):
    """List flavors."""
    flavors = client.flavors.list(
        limit=args.limit, marker=args.marker,
        is_public="all" if args.all_flavors else None)
    return columns.table(
        flavors, ("id", "name", "ram", "disk", "OS-FLV-EXT-DATA:ephemeral",
                  "vcpus", "os-flavor-access:is_public"),
        headers=("ID", "Name", "RAM", "Disk", "Ephemeral", "VCPUs",
                 "Is Public"))


@utils.arg("flavor", metavar="<flavor>", help="Flavor name or ID.")
@utils.output("show")
def do_flavor_show(client, args):
    """Show a flavor."""
    flavor = client.flavors.find_resource(args.flavor)
    return columns.show(flavor, formatters={"extra_specs": columns.DictColumn})
