"""Volume attachment commands (Cinder's attachments API, volume API 3.27+):
``volume attachment create/set/complete/delete/list/show``, with
OpenStackClient's names, options and columns
(``openstackclient/volume/v3/volume_attachment.py``). They change Cinder's
records only, through ``client.block_storage_attachments``: ``server add
volume`` is what attaches a volume to a server."""

from occli import columns
from occli import exceptions
from occli import utils
from occli.v2.image.commands.members import project_id

_SHOWN = ("id", "volume_id", "instance", "status", "attach_mode", "attached_at", "detached_at",
          "connection_info")  # fmt: skip
_HEADERS = dict(zip(_SHOWN, ("ID", "Volume ID", "Instance ID", "Status", "Attach Mode",
                             "Attached At", "Detached At", "Properties"),
                    strict=True))  # fmt: skip
_ATTACHMENT_ARG = dict(metavar="<attachment>", help="ID of volume attachment.")
_CONNECTOR = ("initiator", "ip", "platform", "host", "os_type", "multipath", "mountpoint")


def _show(attachment):
    return columns.show(attachment, columns=_SHOWN, rename=_HEADERS)


def _connector(args):
    """OSC's connector: every option's value, ``multipath`` False unless given."""
    connector = {key: getattr(args, key) for key in _CONNECTOR}
    connector["multipath"] = bool(args.multipath)
    return connector


def _connector_options(func):
    """The connector's options, shared by create and set."""
    for decorator in reversed(
        (
            utils.arg(
                "--initiator", metavar="<initiator>", help="IQN of the initiator attaching to"
            ),
            utils.arg("--ip", metavar="<ip>", help="IP of the system attaching to"),
            utils.arg("--host", metavar="<host>", help="Name of the host attaching to"),
            utils.arg("--platform", metavar="<platform>", help="Platform type"),
            utils.arg("--os-type", metavar="<ostype>", help="OS type"),
            utils.arg(
                "--multipath", dest="multipath", action=utils.Switch, const=True,
                other="--no-multipath", default=None, help="Use multipath",
            ),
            utils.arg(
                "--no-multipath", dest="multipath", action=utils.Switch, const=False,
                other="--multipath", default=None, help="Do not use multipath",
            ),
            utils.arg(
                "--mountpoint", metavar="<mountpoint>",
                help="Mountpoint volume will be attached at",
            ),
        )
    ):  # fmt: skip
        func = decorator(func)
    return func


@utils.arg("volume", metavar="<volume>", help="Name or ID of volume to attach to server.")
@utils.arg("server", metavar="<server>", help="Name or ID of server to attach volume to.")
@utils.arg(
    "--connect", dest="connect", action=utils.Switch, const=True, other="--no-connect",
    default=None, help="Make an active connection using provided connector info",
)  # fmt: skip
@utils.arg(
    "--no-connect", dest="connect", action=utils.Switch, const=False, other="--connect",
    default=None, help="Do not make an active connection using provided connector info",
)  # fmt: skip
@_connector_options
@utils.arg(
    "--mode",
    metavar="<mode>",
    help="Mode of volume attachment, rw, ro and null, where null indicates we want to honor"
    " any existing admin-metadata settings (volume API 3.54)",
)
@utils.output("show")
def do_volume_attachment_create(client, args):
    """Create an attachment for a volume.

    Only Cinder's record is made: the server is not given the volume
    (use 'server add volume' for that).

    Example: occli volume attachment create --connect --host node1 data vm1
    """
    connector = None
    if args.connect:
        connector = _connector(args)
    elif any(getattr(args, key) for key in _CONNECTOR):
        raise exceptions.CommandError(
            "You must specify the --connect option for any of the connection-specific options"
            " such as --initiator to be valid"
        )
    volume = client.volumes.find_resource(args.volume)
    server = client.servers.find_resource(args.server)
    return _show(
        client.block_storage_attachments.create(volume, server, connector, mode=args.mode)
    )


@utils.arg("attachment", **_ATTACHMENT_ARG)
@_connector_options
@utils.output("show")
def do_volume_attachment_set(client, args):
    """Update an attachment for a volume with the host's connector.

    Example: occli volume attachment set --host node1 --mountpoint /dev/vdb <attachment>
    """
    return _show(client.block_storage_attachments.update(args.attachment, _connector(args)))


@utils.arg(
    "attachment", metavar="<attachment>", help="ID of volume attachment to mark as completed"
)
def do_volume_attachment_complete(client, args):
    """Complete an attachment for a volume (volume API 3.44).

    Example: occli volume attachment complete <attachment>
    """
    client.block_storage_attachments.complete(args.attachment)


@utils.arg("attachment", metavar="<attachment>", help="ID of volume attachment to delete")
def do_volume_attachment_delete(client, args):
    """Delete an attachment for a volume.

    Only Cinder's record goes (Cinder refuses one a server still uses:
    use 'server remove volume').

    Example: occli volume attachment delete <attachment>
    """
    client.block_storage_attachments.delete(args.attachment)


@utils.arg(
    "--project", metavar="<project>", help="Filter results by project (name or ID) (admin only)"
)
@utils.arg(
    "--project-domain",
    metavar="<project-domain>",
    help="Domain the project belongs to (name or ID), for a project given by name.",
)
@utils.arg(
    "--all-projects", action="store_true", help="Shows details for all projects (admin only)."
)
@utils.arg("--volume-id", metavar="<volume-id>", help="Filters results by a volume ID.")
@utils.arg("--status", metavar="<status>", help="Filters results by a status.")
@utils.arg("--marker", metavar="<marker>", help="The last attachment ID of the previous page.")
@utils.arg(
    "--limit",
    type=utils.list_limit,
    metavar="<num-attachments>",
    help="Maximum number of attachments to display.",
)
@utils.output("list")
def do_volume_attachment_list(client, args):
    """Lists all volume attachments.

    Example: occli volume attachment list --volume-id <volume-id>
    """
    filters = {"status": args.status, "volume_id": args.volume_id}
    if args.project:
        filters["project_id"] = project_id(client, args.project, args.project_domain)
    found = client.block_storage_attachments.list(
        all_projects=bool(args.project) or args.all_projects,
        limit=args.limit,
        marker=args.marker,
        **filters,
    )
    return columns.table(
        found,
        ["id", "volume_id", "instance", "status"],
        ["ID", "Volume ID", "Server ID", "Status"],
    )


@utils.arg("attachment", **_ATTACHMENT_ARG)
@utils.output("show")
def do_volume_attachment_show(client, args):
    """Show detailed information for a volume attachment.

    Example: occli volume attachment show <attachment>
    """
    return _show(client.block_storage_attachments.get(args.attachment))
