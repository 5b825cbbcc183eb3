"""Server commands: ``occli server …`` (``server create`` is in
:mod:`occli.v2.compute.commands.server_create`).

Option values are parsed (and bad syntax refused, exit 2) by argparse
``type=`` functions; the manager checks the rest (``check_update``, …)
before the server is looked up. Names are resolved here; the manager only
sees ids.
"""

import logging

from occli import columns
from occli import exceptions
from occli import utils
from occli.v2.compute import servers as servers_api
from occli.v2.compute.commands import server_options
from occli.v2.compute.commands import server_views

LOG = logging.getLogger(__name__)

#: :mod:`server_views`' names, importable from here as before.
POWER_STATES = server_views.POWER_STATES
SHOW_FORMATTERS = server_views.SHOW_FORMATTERS
show_server = server_views.show_server
# -- acting on several servers -------------------------------------------


def _each(*args, **kwargs):
    """:func:`occli.v2.commands.bulk.each`, imported by the commands acting
    on servers only (``server list`` and ``show`` need none of it)."""
    from occli.v2.commands import bulk

    return bulk.each(*args, **kwargs)


_SERVERS_ARG = dict(nargs="+", metavar="<server>", help="Server(s) (name or ID).")


def _action_command(verb, doc, until=None, what=None):
    """A ``do_server_<verb>`` running ``client.servers.<verb>`` on servers."""

    @utils.arg("servers", **_SERVERS_ARG)
    @utils.concurrency_option
    def command(client, args):
        return _each(client, args.servers, verb, getattr(client.servers, verb), args, until)

    if until is not None:
        command = utils.wait_options(what)(command)
    command.__name__ = "do_server_" + verb
    command.__doc__ = "%s\n\nExample: occli server %s vm1\n" % (doc, verb)
    return command


# -- commands -------------------------------------------------------------


@utils.arg(
    "--long",
    action="store_true",
    help="Also show task state, power state, availability zone, host and properties.",
)
@utils.arg(
    "--name", metavar="<regex>", help="Only servers whose name matches this regular expression."
)
@utils.arg(
    "--status", metavar="<status>", help="Only servers in this status (ACTIVE, SHUTOFF, ERROR, …)."
)
@utils.arg("--flavor", metavar="<flavor>", help="Only servers of this flavor (name or ID).")
@utils.arg("--image", metavar="<image>", help="Only servers booted from this image (name or ID).")
@utils.arg("--host", metavar="<host>", help="Only servers on this host (admin).")
@utils.arg(
    "--ip",
    metavar="<ip-regex>",
    help="Only servers with an IPv4 address matching this regular expression.",
)
@utils.arg(
    "--ip6",
    metavar="<ip-regex>",
    help="Only servers with an IPv6 address matching this regular expression.",
)
@utils.arg("--all-projects", action="store_true", help="Servers of all projects (admin).")
@utils.arg(
    "--project", metavar="<project>", help="Only servers of this project (name or ID; admin)."
)
@utils.arg(
    "--user",
    metavar="<user>",
    help="Only servers of this user (name or ID; admin, any user from compute API 2.83).",
)
@utils.arg("--deleted", action="store_true", help="Only deleted servers (admin).")
@utils.arg("--reservation-id", metavar="<id>", help="Only servers of this reservation.")
@utils.arg(
    "--availability-zone",
    metavar="<zone>",
    help="Only servers in this zone (admin; any user from compute API 2.83).",
)
@utils.arg(
    "--key-name",
    metavar="<name>",
    help="Only servers with this key pair (admin; any user from compute API 2.83).",
)
@utils.arg(
    "--vm-state",
    metavar="<state>",
    help="Only servers in this vm_state, e.g. active, error (admin; any user from 2.83).",
)
@utils.arg(
    "--task-state",
    metavar="<state>",
    help="Only servers in this task_state, e.g. spawning (admin; any user from 2.83).",
)
@utils.arg(
    "--power-state",
    metavar="<state>",
    type=utils.arg_type(server_options.parse_power_state, "--power-state"),
    help="Only servers in this power state: pending, running, paused, shutdown, "
    "crashed, suspended (admin; any user from 2.83).",
)
@utils.arg(
    "--config-drive",
    action="store_const",
    const=True,
    dest="config_drive",
    help="Only servers with a config drive (admin; any user from 2.83).",
)
@utils.arg(
    "--no-config-drive",
    action="store_const",
    const=False,
    dest="config_drive",
    help="Only servers without a config drive (admin; any user from 2.83).",
)
@utils.arg(
    "--progress",
    metavar="<percent>",
    type=utils.int_at_least(0, "--progress must be 0 to 100, not %r"),
    help="Only servers whose progress is this number, 0-100 (admin; any user from 2.83).",
)
@utils.arg(
    "--locked",
    action="store_const",
    const=True,
    dest="locked",
    help="Only locked servers (compute API 2.73+).",
)
@utils.arg(
    "--unlocked",
    action="store_const",
    const=False,
    dest="locked",
    help="Only unlocked servers (compute API 2.73+).",
)
@utils.arg(
    "--tags",
    metavar="<tag,tag,...>",
    help="Only servers with all these tags (compute API 2.26+).",
)
@utils.arg(
    "--tags-any",
    metavar="<tag,tag,...>",
    help="Only servers with any of these tags (compute API 2.26+).",
)
@utils.arg(
    "--not-tags",
    metavar="<tag,tag,...>",
    help="Leave out servers with all these tags (compute API 2.26+).",
)
@utils.arg(
    "--not-tags-any",
    metavar="<tag,tag,...>",
    help="Leave out servers with any of these tags (compute API 2.26+).",
)
@utils.arg(
    "--changes-before",
    metavar="<time>",
    help="Only servers changed before this ISO 8601 time (includes deleted servers; "
    "compute API 2.66+).",
)
@utils.arg(
    "--changes-since",
    metavar="<time>",
    help="Only servers changed since this ISO 8601 time (includes deleted servers).",
)
@utils.arg(
    "--sort",
    action="append",
    metavar="<key>[:asc|desc]",
    type=utils.arg_type(server_options.parse_sort, "sort"),
    help="Sort on the server side by a Nova sort key (display_name, "
    "created_at, status, …; repeatable; direction defaults to desc).",
)
@utils.arg(
    "--limit",
    type=utils.list_limit,
    metavar="<n>",
    help="At most this many servers (-1: all, the default).",
)
@utils.arg("--marker", metavar="<server-id>", help="Start after this server.")
@utils.arg(
    "-n",
    "--no-name-lookup",
    action="store_true",
    help="Show image (and, before compute API 2.47, flavor) IDs "
    "rather than asking for their names.",
)
@utils.output("list")
def do_server_list(client, args):
    """List servers.

    Rows appear page by page as the cloud answers with -f value, csv or
    json; a table waits for every page. Leave out the Image column (for
    instance -c ID -c Name) for a faster listing.

    Example: occli server list --status ACTIVE --long
    """
    search = {
        "name": args.name,
        "host": args.host,
        "ip": args.ip,
        "ip6": args.ip6,
        "status": args.status.upper() if args.status else None,
        "changes-since": args.changes_since,
        "all_tenants": True if args.all_projects or args.project else None,
        "project_id": args.project,
        "user_id": args.user,
        "deleted": True if args.deleted else None,
        "reservation_id": args.reservation_id,
        "availability_zone": args.availability_zone,
        "key_name": args.key_name,
        "vm_state": args.vm_state,
        "task_state": args.task_state,
        "power_state": args.power_state,
        # nova searches the stored text ('True' or ''): a pattern
        "config_drive": {True: "True", False: "^$"}.get(args.config_drive),
        "progress": None if args.progress is None else "^%d$" % args.progress,
        "locked": args.locked,
        "tags": args.tags,
        "tags-any": args.tags_any,
        "not-tags": args.not_tags,
        "not-tags-any": args.not_tags_any,
        "changes-before": args.changes_before,
    }
    # the manager's version checks before any lookup
    client.servers.check_list(search)
    if args.project:
        search["project_id"] = server_options.identity_id(client, "projects", args.project)
    if args.user:
        search["user_id"] = server_options.identity_id(client, "users", args.user)
    if args.flavor:
        search["flavor"] = client.flavors.find_resource(args.flavor).id
    if args.image:
        search["image"] = client.images.find_resource(args.image).id
    sort = args.sort or ()
    pages = client.servers.pages(
        search_opts={k: v for k, v in search.items() if v is not None},
        limit=args.limit,
        marker=args.marker,
        sort_keys=[k for k, _ in sort] or None,
        sort_dirs=[d for _, d in sort] or None,
    )
    keys, headers = server_views.list_columns(client, args.long, args.all_projects)
    lookup = not args.no_name_lookup
    image_names = (
        server_views.Names(client, server_views.image_names)
        if lookup and utils.column_used(args, "Image Name" if args.long else "Image")
        else None
    )
    flavor_names = (
        server_views.Names(client, server_views.flavor_names)
        if lookup and utils.column_used(args, "Flavor")
        else None
    )
    out = utils.stdout(args)

    def rows():
        for page in pages:
            images = image_names.of(page) if image_names else {}
            flavors = flavor_names.of(page) if flavor_names else {}
            page.reverse()
            while page:  # emptied as it is written: the next page is read
                yield server_views.list_row(page.pop(), images, flavors, args.long)
            # what the formatter wrote of this page is out before the
            # next page is asked for
            out.flush()

    return columns.table(
        rows(),
        keys,
        headers,
        formatters=server_views.LIST_FORMATTERS,
    )


@utils.arg("server", metavar="<server>", help="Server (name or ID).")
@utils.arg(
    "--diagnostics",
    action="store_true",
    help="Show the hypervisor's diagnostics of the server instead (admin).",
)
@utils.arg(
    "--topology",
    action="store_true",
    help="Also show the server's NUMA topology (compute API 2.78+).",
)
@utils.output("show")
def do_server_show(client, args):
    """Show a server.

    The server is given by name or ID; its image as name (ID), as OSC
    (one Glance request, none when -c leaves the image out).

    Example: occli server show vm1
    """
    if args.diagnostics and args.topology:
        raise exceptions.ValidationError("--diagnostics cannot be combined with --topology.")
    if args.topology:
        client.servers.check_topology()
    server = client.servers.find_resource(args.server)
    if args.diagnostics:
        return columns.show(client.servers.diagnostics(server))
    extra = {"topology": dict(client.servers.topology(server))} if args.topology else None
    lookup = utils.column_used(args, "image")
    shown = show_server(client, server, extra=extra, lookup_image=lookup)
    return columns.with_raw_keys(args, shown, server_views.OSC_NAMES)


@utils.arg("servers", **_SERVERS_ARG)
@utils.arg(
    "--force",
    action="store_true",
    help="Delete at once (forceDelete), even a soft-deleted server, rather than "
    "soft-deleting on clouds with a reclaim interval.",
)
@utils.arg(
    "--all-projects",
    action="store_true",
    help="Look server names up in every project (admin).",
)
@utils.wait_options("the servers are gone")
@utils.concurrency_option
def do_server_delete(client, args):
    """Delete servers.

    On a cloud with a reclaim interval a deleted server is SOFT_DELETED
    first (see server restore) unless --force is given.

    Example: occli server delete --wait vm1
    """
    from occli import waiters

    action = client.servers.force_delete if args.force else client.servers.delete

    def find(ref):
        return client.servers.find_resource(ref, all_projects=args.all_projects)

    return _each(client, args.servers, "delete", action, args, until=waiters.GONE, find=find)


@utils.arg("servers", **_SERVERS_ARG)
@utils.wait_options("the servers are ACTIVE")
@utils.concurrency_option
def do_server_restore(client, args):
    """Restore soft-deleted servers before they are reclaimed.

    Servers are SOFT_DELETED on clouds with a reclaim interval.

    Exit code 1 if a server is not soft-deleted (409).

    Example: occli server restore vm1
    """
    return _each(
        client,
        args.servers,
        "restore",
        client.servers.restore,
        args,
        until={"ACTIVE"},
        pending={"SOFT_DELETED"},
    )


@utils.arg("server", metavar="<server>", help="Server (name or ID).")
@utils.arg("--name", metavar="<name>", help="New name.")
@utils.arg("--description", metavar="<text>", help="New description (compute API 2.19+).")
@utils.arg(
    "--hostname", metavar="<hostname>", help="New hostname in the guest (compute API 2.90+)."
)
@utils.property_option("Set a metadata property (repeatable; others are kept).")
@utils.arg(
    "--tag",
    dest="tags",
    action="append",
    default=[],
    metavar="<tag>",
    help="Add a tag (repeatable; others are kept; compute API 2.26+).",
)
@utils.arg(
    "--state",
    choices=servers_api.server_lifecycle.RESET_STATES,
    help="Reset the server's state to active or error (admin).",
)
@utils.arg(
    "--password",
    nargs="?",
    const=server_options.PROMPT,
    metavar="<password>",
    help="Change the guest's administrator password; without a value it is"
    " asked for on the terminal, never echoed (give the server first).",
)
@utils.arg(
    "--no-password",
    action="store_true",
    help="Clear the encrypted password the guest posted to the metadata service"
    " (the guest's password itself does not change).",
)
@utils.option_names(metadata="--property", tags="--tag", password="--password")
def do_server_set(client, args):
    """Change a server's settings.

    Its name, description, hostname, properties, tags, state or
    administrator password.

    --password without a value prompts twice on a terminal; with no
    terminal to ask on, it is a usage error (exit 2).
    --no-password and --password together are a usage error too.

    Example: occli server set --name vm2 --property owner=alice --tag web vm1
    """
    metadata = dict(args.properties)
    changes = {"name": args.name, "description": args.description, "hostname": args.hostname}
    if (
        all(v is None for v in changes.values())
        and not metadata
        and not args.tags
        and args.state is None
        and args.password is None
        and not args.no_password
    ):
        raise exceptions.ValidationError(
            "Nothing to set: give --name, --description, --hostname, --property, --tag,"
            " --state, --password or --no-password."
        )
    if args.no_password and args.password is not None:
        raise exceptions.ValidationError("Give --password or --no-password, not both.")
    password = server_options.new_password(args) if args.password is not None else None
    if password is not None:
        client.servers.check_change_password(password)
    # the manager's checks before the server lookup
    client.servers.check_update(**changes)
    client.servers.check_metadata(metadata)
    if args.tags:
        client.servers.check_tags(args.tags)
    server = client.servers.find_resource(args.server)
    if any(v is not None for v in changes.values()):
        client.servers.update(server, **changes)
    if metadata:
        client.servers.set_meta(server, metadata)
    for tag in args.tags:
        client.servers.add_tag(server, tag)
    if args.state is not None:
        client.servers.reset_state(server, args.state)
    if password is not None:
        client.servers.change_password(server, password)
    if args.no_password:
        client.servers.clear_password(server)


@utils.arg("server", metavar="<server>", help="Server (name or ID).")
@utils.arg(
    "--property",
    dest="properties",
    action="append",
    default=[],
    metavar="<key>",
    help="Remove this metadata property (repeatable).",
)
@utils.arg(
    "--description", action="store_true", help="Remove the description (compute API 2.19+)."
)
@utils.arg(
    "--tag",
    dest="tags",
    action="append",
    default=[],
    metavar="<tag>",
    help="Remove this tag (repeatable; compute API 2.26+).",
)
@utils.arg("--all-tags", action="store_true", help="Remove every tag (compute API 2.26+).")
def do_server_unset(client, args):
    """Remove properties, the description or tags from a server.

    Removing a tag the server does not have fails (exit 1).

    Example: occli server unset --property owner --tag web vm1
    """
    if not (args.properties or args.description or args.tags or args.all_tags):
        raise exceptions.ValidationError(
            "Nothing to unset: give --property, --description, --tag or --all-tags."
        )
    if args.tags and args.all_tags:
        raise exceptions.ValidationError("--tag cannot be combined with --all-tags.")
    if args.description:
        client.servers.check_update(description=servers_api.CLEAR)
    if args.tags or args.all_tags:
        client.servers.check_tags()
    server = client.servers.find_resource(args.server)
    if args.description:
        client.servers.update(server, description=servers_api.CLEAR)
    if args.properties:
        client.servers.delete_meta(server, args.properties)
    for tag in args.tags:
        client.servers.delete_tag(server, tag)
    if args.all_tags:
        client.servers.delete_all_tags(server)


@utils.arg("servers", **_SERVERS_ARG)
@utils.arg("--hard", action="store_true", help="Hard reboot (power cycle) instead of a soft one.")
@utils.wait_options("the servers are ACTIVE again")
@utils.concurrency_option
def do_server_reboot(client, args):
    """Reboot servers.

    Example: occli server reboot --hard --wait vm1
    """
    return _each(
        client,
        args.servers,
        "reboot",
        lambda s: client.servers.reboot(s, hard=args.hard),
        args,
        until={"ACTIVE"},
    )


do_server_start = _action_command(
    "start", "Start stopped servers.", {"ACTIVE"}, "the servers are ACTIVE"
)
do_server_stop = _action_command(
    "stop", "Stop (power off) servers.", {"SHUTOFF"}, "the servers are SHUTOFF"
)
do_server_pause = _action_command("pause", "Pause servers.", {"PAUSED"}, "the servers are PAUSED")
do_server_unpause = _action_command(
    "unpause", "Unpause paused servers.", {"ACTIVE"}, "the servers are ACTIVE"
)
do_server_suspend = _action_command(
    "suspend", "Suspend servers.", {"SUSPENDED"}, "the servers are SUSPENDED"
)
do_server_resume = _action_command(
    "resume", "Resume suspended servers.", {"ACTIVE"}, "the servers are ACTIVE"
)
do_server_unlock = _action_command("unlock", "Unlock servers.")


@utils.arg("servers", **_SERVERS_ARG)
@utils.arg("--reason", metavar="<text>", help="Why the servers are locked (compute API 2.73+).")
@utils.concurrency_option
def do_server_lock(client, args):
    """Lock servers: non-admin users can no longer change them.

    Example: occli server lock vm1
    """
    return _each(
        client, args.servers, "lock", lambda s: client.servers.lock(s, reason=args.reason), args
    )


@utils.arg("server", metavar="<server>", help="Server (name or ID).")
@utils.arg(
    "--image",
    metavar="<image>",
    help="Image to rebuild from (name or ID); default: the server's current image.",
)
@utils.arg("--name", metavar="<name>", help="New name.")
@utils.arg(
    "--password",
    "--admin-pass",
    dest="admin_pass",
    metavar="<password>",
    help="New administrator password (never logged).",
)
@utils.arg("--description", metavar="<text>", help="New description (compute API 2.19+).")
@utils.property_option("Set the server's properties to these (repeatable; replaces them all).")
@utils.arg(
    "--key-name",
    dest="key_name",
    metavar="<key-name>",
    help="Key pair to inject (compute API 2.54+).",
)
@utils.arg(
    "--no-key-name",
    dest="key_name",
    action="store_const",
    const=servers_api.CLEAR,
    help="Remove the server's key pair (compute API 2.54+).",
)
@utils.arg(
    "--user-data",
    metavar="<file>",
    help="File of new user data (compute API 2.57+).",
)
@utils.arg(
    "--no-user-data",
    action="store_true",
    help="Remove the server's user data (compute API 2.57+).",
)
@utils.arg(
    "--preserve-ephemeral",
    dest="preserve_ephemeral",
    action=utils.Switch,
    const=True,
    other="--no-preserve-ephemeral",
    help="Keep the ephemeral disk's data.",
)
@utils.arg(
    "--no-preserve-ephemeral",
    dest="preserve_ephemeral",
    action=utils.Switch,
    const=False,
    other="--preserve-ephemeral",
    help="Rebuild the ephemeral disk too (the default).",
)
@utils.arg(
    "--hostname", metavar="<hostname>", help="New hostname in the guest (compute API 2.90+)."
)
@utils.arg(
    "--trusted-image-cert",
    dest="trusted_certs",
    action="append",
    metavar="<cert-id>",
    help="Trusted certificate ID to verify the image with (repeatable; compute API 2.63+).",
)
@utils.arg(
    "--no-trusted-image-certs",
    action="store_true",
    help="Remove the server's trusted certificate IDs (compute API 2.63+).",
)
@utils.option_names(
    metadata="--property",
    key_name="--key-name",
    user_data="--user-data",
    trusted_image_certificates="--trusted-image-cert",
)
@utils.wait_options("the rebuild is done")
@utils.output("show")
def do_server_rebuild(client, args):
    """Rebuild a server from an image: its disk is replaced.

    By default the image it runs, as OSC does.

    Options left out keep what the server has; the --no-* options remove it.

    Example: occli server rebuild --image cirros --key-name mykey --wait vm1
    """
    options = server_options.rebuild_options(args)
    client.servers.check_rebuild(**{k: v for k, v in options.items() if k != "preserve_ephemeral"})
    server = client.servers.find_resource(args.server)
    current = server.to_dict().get("image") or {}
    if args.image is None and not (isinstance(current, dict) and current.get("id")):
        raise exceptions.ValidationError(
            "Server %s was booted from a volume: name the image to rebuild from (--image)."
            % server.id
        )
    image = client.images.find_resource(args.image or current["id"])
    rebuilt = client.servers.rebuild(
        server, image, name=args.name, admin_pass=args.admin_pass, **options
    )
    extra = {}
    if "adminPass" in rebuilt:
        extra["adminPass"] = rebuilt.adminPass
    if args.wait:
        from occli import waiters

        with waiters.accepted(
            "Server %s (id %s) is being rebuilt but waiting failed" % (server.name, server.id)
        ):
            rebuilt = waiters.wait_for_server(
                client.servers, rebuilt, {"ACTIVE", "SHUTOFF"}, **utils.wait_args(args)
            )
    return show_server(client, rebuilt, extra, images=[image])


@utils.arg("server", metavar="<server>", help="Server (name or ID).")
@utils.arg("--flavor", metavar="<flavor>", help="New flavor (name or ID).")
@utils.arg(
    "--confirm",
    action="store_true",
    help="Deprecated (as in OSC): confirm the resize; use 'occli server resize confirm'.",
)
@utils.arg(
    "--revert",
    action="store_true",
    help="Deprecated (as in OSC): revert the resize; use 'occli server resize revert'.",
)
@utils.wait_options("the resize waits for confirmation (VERIFY_RESIZE)")
def do_server_resize(client, args):
    """Resize a server to another flavor (then confirm or revert it).

    --flavor, or OSC's deprecated --confirm or --revert (an exclusive
    group, one of them required, as OSC's).

    Example: occli server resize --flavor m1.small --wait vm1
    """
    phases = [o for o in ("--flavor", "--confirm", "--revert") if getattr(args, o[2:])]
    if not phases:
        raise exceptions.ValidationError(
            "one of the arguments --flavor --confirm --revert is required"
        )
    if len(phases) > 1:
        raise exceptions.ValidationError(
            "argument %s: not allowed with argument %s" % (phases[1], phases[0])
        )
    if not args.flavor:
        # OSC's warning (openstackclient/compute/v2/server.py ResizeServer)
        LOG.warning(
            "The %s option has been deprecated. Please use the "
            "'occli server resize %s' command instead.",
            phases[0],
            phases[0][2:],
        )
        confirm = args.confirm
        return _each(
            client,
            [args.server],
            "confirm the resize of" if confirm else "revert the resize of",
            client.servers.confirm_resize if confirm else client.servers.revert_resize,
            args,
            until={"ACTIVE", "SHUTOFF"},
            pending={"VERIFY_RESIZE"} if confirm else (),
        )
    flavor = client.flavors.find_resource(args.flavor)
    return _each(
        client,
        [args.server],
        "resize",
        lambda s: client.servers.resize(s, flavor),
        args,
        until={"VERIFY_RESIZE"},
    )


@utils.arg("servers", **_SERVERS_ARG)
@utils.wait_options("the servers are ACTIVE (or SHUTOFF)")
@utils.concurrency_option
def do_server_resize_confirm(client, args):
    """Confirm a resize (the server keeps its new flavor).

    Example: occli server resize confirm vm1
    """
    # nova leaves the status VERIFY_RESIZE (task_state null) until done
    return _each(
        client,
        args.servers,
        "confirm the resize of",
        client.servers.confirm_resize,
        args,
        until={"ACTIVE", "SHUTOFF"},
        pending={"VERIFY_RESIZE"},
    )


@utils.arg("servers", **_SERVERS_ARG)
@utils.wait_options("the servers are ACTIVE (or SHUTOFF)")
@utils.concurrency_option
def do_server_resize_revert(client, args):
    """Revert a resize (back to the old flavor).

    Example: occli server resize revert vm1
    """
    return _each(
        client,
        args.servers,
        "revert the resize of",
        client.servers.revert_resize,
        args,
        until={"ACTIVE", "SHUTOFF"},
    )


@utils.arg("server", metavar="<server>", help="Server (name or ID).")
@utils.arg("--lines", type=utils.positive_int, metavar="<n>", help="Only the last N lines.")
def do_server_console_log(client, args):
    """Print a server's console log.

    Example: occli server console log --lines 20 vm1
    """
    server = client.servers.find_resource(args.server)
    text = client.servers.get_console_output(server, length=args.lines)
    utils.stdout(args).write(text if not text or text.endswith("\n") else text + "\n")
