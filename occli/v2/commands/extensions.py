"""API extension commands: ``extension list`` (Nova's legacy list and
Neutron's), ``extension show`` (one of Nova's)."""

import itertools

from occli import columns
from occli import utils

_COLUMNS = ["name", "alias", "description"]
_HEADERS = ["Name", "Alias", "Description"]


@utils.arg("--compute", action="store_true", help="List Nova's extensions.")
@utils.arg("--network", action="store_true", help="List Neutron's extensions.")
@utils.arg("--long", action="store_true", help="Also list the namespace, update time and links.")
@utils.output("list")
def do_extension_list(client, args):
    """List API extensions: Nova's, and Neutron's if the cloud has Neutron.

    Nova answers a fixed legacy list (every extension it ever had; its
    microversion says what it supports), Neutron what it supports.
    --compute or --network lists only those (exit 1 if the cloud has no
    such service).

    Example: occli extension list --network --long
    """
    everything = not (args.compute or args.network)
    found = []
    if args.compute or everything:
        found.append(client.extensions.iter())
    if args.network or (everything and client.network_extensions.available()):
        found.append(client.network_extensions.iter())
    cols = list(_COLUMNS)
    headers = list(_HEADERS)
    if args.long:
        cols += ["namespace", "updated", "links"]
        headers += ["Namespace", "Updated", "Links"]
    formatters = {"links": columns.ListColumn}
    return columns.table(
        itertools.chain.from_iterable(found), cols, headers=headers, formatters=formatters
    )


@utils.arg("extension", metavar="<alias>", help="The extension's alias (see extension list).")
@utils.output("show")
def do_extension_show(client, args):
    """Show one of the compute API's extensions by its alias.

    Exit code 1 if Nova has no extension of that alias (404).

    Example: occli extension show os-server-password
    """
    extension = client.extensions.get(args.extension)
    return columns.show(extension, formatters={"links": columns.ListColumn})
