"""Shelve, rescue and crash dump commands: ``server shelve``, ``server
unshelve``, ``server rescue``, ``server unrescue``, ``server dump create``
(``server set --state/--password`` and ``server show --diagnostics/
--topology`` are in :mod:`occli.v2.compute.commands.servers`)."""

from occli import exceptions
from occli import utils
from occli import waiters
from occli.v2.commands import bulk
from occli.v2.compute import server_lifecycle

_SERVERS_ARG = dict(nargs="+", metavar="<server>", help="Server(s) (name or ID).")
SHELVED = frozenset(("SHELVED", "SHELVED_OFFLOADED"))


@utils.arg("servers", **_SERVERS_ARG)
@utils.arg(
    "--offload",
    action="store_true",
    help="Also remove the shelved servers from their hosts (admin by default policy).",
)
@utils.wait_options("the servers are SHELVED (SHELVED_OFFLOADED with --offload)")
@utils.concurrency_option
def do_server_shelve(client, args):
    """Shelve servers: power them off and keep their disks.

    The host is freed once they are offloaded.

    Many clouds offload shelved servers at once. Servers shelved already
    are left as they are. With --offload the command waits for each server
    to be shelved, then offloads those still on a host (exit 1 if a server
    fails, e.g. 403 for a non-admin).

    Example: occli server shelve --offload --wait vm1
    """

    def shelve(server):
        # as OSC: a server shelved already is not shelved again
        if server.status not in SHELVED:
            client.servers.shelve(server)
        if not args.offload:
            return
        settled = waiters.wait_for_server(client.servers, server, SHELVED, **_quiet(args))
        if settled is not None and settled.status == "SHELVED":
            client.servers.shelve_offload(server)

    until = {"SHELVED_OFFLOADED"} if args.offload else SHELVED
    return bulk.each(client, args.servers, "shelve", shelve, args, until=until)


def _quiet(args):
    """Wait options without a progress line (the offload's own wait)."""
    options = utils.wait_args(args)
    options["stream"] = None
    return options


@utils.arg("servers", **_SERVERS_ARG)
@utils.arg(
    "--availability-zone",
    metavar="<zone>",
    help="Unshelve an offloaded server into this zone (compute API 2.77+).",
)
@utils.arg(
    "--no-availability-zone",
    action="store_true",
    help="Unpin an offloaded server from its zone (compute API 2.91+).",
)
@utils.arg(
    "--host",
    metavar="<host>",
    help="Unshelve an offloaded server on this host (admin, compute API 2.91+).",
)
@utils.wait_options("the servers are ACTIVE")
@utils.concurrency_option
@utils.option_names(availability_zone="--availability-zone", host="--host")
def do_server_unshelve(client, args):
    """Unshelve servers.

    An offloaded server is scheduled again; a zone or a host may only be
    given for offloaded servers (exit 1 otherwise).

    Example: occli server unshelve --availability-zone nova --wait vm1
    """
    if args.availability_zone and args.no_availability_zone:
        raise exceptions.ValidationError(
            "--availability-zone cannot be combined with --no-availability-zone."
        )
    zone = server_lifecycle.NO_ZONE if args.no_availability_zone else args.availability_zone
    client.servers.check_unshelve(zone, args.host)
    return bulk.each(
        client,
        args.servers,
        "unshelve",
        lambda s: client.servers.unshelve(s, availability_zone=zone, host=args.host),
        args,
        until={"ACTIVE"},
    )


@utils.arg("server", metavar="<server>", help="Server (name or ID).")
@utils.arg("--image", metavar="<image>", help="Boot from this image (name or ID).")
@utils.arg(
    "--password",
    metavar="<password>",
    help="The rescued guest's administrator password (default: the cloud makes one).",
)
@utils.wait_options("the server is in RESCUE")
@utils.output("show")
def do_server_rescue(client, args):
    """Rescue a server: boot it from a rescue image, its disk attached.

    Shows the rescue administrator password (adminPass) the cloud uses.

    Example: occli server rescue --image cirros vm1
    """
    image = client.images.find_resource(args.image) if args.image else None
    server = client.servers.find_resource(args.server)
    result = client.servers.rescue(server, password=args.password, image=image)
    _wait(client, server, {"RESCUE"}, args)
    return ("adminPass",), ((result.body or {}).get("adminPass"),)


@utils.arg("server", metavar="<server>", help="Server (name or ID).")
@utils.wait_options("the server is ACTIVE")
def do_server_unrescue(client, args):
    """Unrescue a server: boot it from its own disk again.

    Example: occli server unrescue vm1
    """
    server = client.servers.find_resource(args.server)
    client.servers.unrescue(server)
    _wait(client, server, {"ACTIVE"}, args)


def _wait(client, server, until, args):
    if args.wait:
        with waiters.accepted("the request was accepted but waiting failed"):
            waiters.wait_for_server(client.servers, server, until, **utils.wait_args(args))


@utils.arg("servers", **_SERVERS_ARG)
@utils.concurrency_option
def do_server_dump_create(client, args):
    """Trigger a crash dump in servers (compute API 2.17+).

    The guest kernel receives an NMI; the server must be ACTIVE, PAUSED,
    RESCUE, VERIFY_RESIZE or ERROR (exit 1 otherwise).

    Example: occli server dump create vm1
    """
    client.servers.check_trigger_crash_dump()
    return bulk.each(client, args.servers, "dump", client.servers.trigger_crash_dump, args)
