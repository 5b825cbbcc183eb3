"""Console commands: ``console url show``, ``console log show`` (``server
console log`` prints the same log)."""

from occli import columns
from occli import utils

# option → console type (OSC's flags)
_TYPES = (
    ("--novnc", "novnc", "noVNC console (the default)."),
    ("--xvpvnc", "xvpvnc", "XVP VNC console."),
    ("--spice", "spice-html5", "SPICE HTML5 console."),
    ("--serial", "serial", "Serial console (a websocket URL)."),
    ("--rdp", "rdp-html5", "RDP console (gone with Nova's Hyper-V driver)."),
    ("--mks", "webmks", "WebMKS console (compute API 2.8+)."),
)


def _console_types(func):
    for option, console_type, text in reversed(_TYPES):
        func = utils.arg(
            option, dest="console_type", action="store_const", const=console_type, help=text
        )(func)
    return func


@utils.arg("server", metavar="<server>", help="Server (name or ID).")
@_console_types
@utils.option_names(console_type="--novnc/--spice/--serial/--rdp/--mks")
@utils.output("show")
def do_console_url_show(client, args):
    """Show the URL of a server's remote console.

    Nova's remote-consoles API from compute API 2.6, its older console
    actions before. Exit code 1 if the cloud does not offer that console
    (400) or the server has no host yet (409).

    Example: occli console url show --serial vm1
    """
    console_type = args.console_type or "novnc"
    client.servers.check_console_type(console_type)
    server = client.servers.find_resource(args.server)
    console = client.servers.get_console_url(server, console_type)
    info = {"type": console.get("type"), "url": console.get("url")}
    if "protocol" in console:
        info["protocol"] = console["protocol"]
    return columns.show(info, [k for k in ("protocol", "type", "url") if k in info])


@utils.arg("server", metavar="<server>", help="Server (name or ID).")
@utils.arg("--lines", type=utils.positive_int, metavar="<n>", help="Only the last N lines.")
def do_console_log_show(client, args):
    """Print a server's console log.

    Example: occli console log show --lines 20 vm1
    """
    from occli.v2.compute.commands import servers  # only this command needs it

    servers.do_server_console_log(client, args)
