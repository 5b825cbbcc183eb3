"""Legacy compute API extension commands: ``extension list``, ``extension show``."""

from occli import columns
from occli import utils

_COLUMNS = ["name", "alias", "description"]
_HEADERS = ["Name", "Alias", "Description"]


@utils.arg("--long", action="store_true", help="Also list the namespace, update time and links.")
@utils.output("list")
def do_extension_list(client, args):
    """List the compute API's extensions (Nova's fixed legacy list).

    Current Nova answers every extension it ever had, for scripts that
    look an alias up before using a feature; the microversion, not this
    list, says what a cloud supports.

    Example: occli extension list --long
    """
    cols = list(_COLUMNS)
    headers = list(_HEADERS)
    if args.long:
        cols += ["namespace", "updated", "links"]
        headers += ["Namespace", "Updated", "Links"]
    formatters = {"links": columns.ListColumn}
    return columns.table(client.extensions.list(), cols, headers=headers, formatters=formatters)


@utils.arg("extension", metavar="<alias>", help="The extension's alias (see extension list).")
@utils.output("show")
def do_extension_show(client, args):
    """Show a compute API extension by its alias (exit 1 if Nova has none).

    Example: occli extension show os-server-password
    """
    extension = client.extensions.get(args.extension)
    return columns.show(extension, formatters={"links": columns.ListColumn})
