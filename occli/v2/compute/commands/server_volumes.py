"""Attaching volumes to servers (Nova's os-volume_attachments):
``occli server add|remove volume`` and ``occli server volume list|update``,
with OpenStackClient's names and options."""

from occli import api_versions
from occli import columns
from occli import exceptions
from occli import utils

_SERVER_ARG = dict(metavar="<server>", help="Server (name or ID).")
_VOLUME_ARG = dict(metavar="<volume>", help="Volume (name or ID).")


def _attachment_columns(version):
    """``(keys, headers)`` of an attachment at compute API ``version``."""
    keys = ["device", "serverId", "volumeId"]
    headers = ["Device", "Server ID", "Volume ID"]
    if not version.matches("2.89"):  # the attachment id replaces it
        keys.insert(0, "id")
        headers.insert(0, "ID")
    if version.matches("2.70"):
        keys.append("tag")
        headers.append("Tag")
    if version.matches("2.79"):
        keys.append("delete_on_termination")
        headers.append("Delete On Termination")
    if version.matches("2.89"):
        keys += ["attachment_id", "bdm_uuid"]
        headers += ["Attachment ID", "BlockDeviceMapping UUID"]
    return keys, headers


@utils.arg("server", **_SERVER_ARG)
@utils.arg("volume", **_VOLUME_ARG)
@utils.arg("--device", metavar="<device>", help="Device name hint, e.g. /dev/vdb.")
@utils.arg("--tag", metavar="<tag>", help="Device tag for the guest (compute API 2.49+).")
@utils.arg(
    "--enable-delete-on-termination",
    dest="delete_on_termination",
    action=utils.Switch,
    const=True,
    other="--disable-delete-on-termination",
    default=None,
    help="Delete the volume with the server (compute API 2.79+).",
)
@utils.arg(
    "--disable-delete-on-termination",
    dest="delete_on_termination",
    action=utils.Switch,
    const=False,
    other="--enable-delete-on-termination",
    help="Keep the volume when the server is deleted (the default; compute API 2.79+).",
)
@utils.output("show")
def do_server_add_volume(client, args):
    """Attach a volume to a server.

    The volume goes in-use; an attached volume cannot be deleted.

    Example: occli server add volume vm1 data
    """
    attachments = client.volume_attachments
    attachments.check_create(args.device, args.tag, args.delete_on_termination)
    server = client.servers.find_resource(args.server)
    volume = client.volumes.find_resource(args.volume)
    attachment = attachments.create(
        server,
        volume,
        device=args.device,
        tag=args.tag,
        delete_on_termination=args.delete_on_termination,
    )
    info = attachment.to_dict()
    keys = [
        k
        for k in ("id", "serverId", "volumeId", "device", "tag", "delete_on_termination")
        if k in info
    ]
    names = {"id": "ID", "serverId": "Server ID", "volumeId": "Volume ID", "device": "Device"}
    names.update(tag="Tag", delete_on_termination="Delete On Termination")
    return columns.show(info, columns=keys, rename=names)


@utils.arg("server", **_SERVER_ARG)
@utils.arg("volume", **_VOLUME_ARG)
def do_server_remove_volume(client, args):
    """Detach a volume from a server (it goes available again).

    Example: occli server remove volume vm1 data
    """
    server = client.servers.find_resource(args.server)
    volume = client.volumes.find_resource(args.volume)
    client.volume_attachments.delete(server, volume)


@utils.arg("server", **_SERVER_ARG)
@utils.output("list")
def do_server_volume_list(client, args):
    """List the volumes attached to a server.

    Example: occli server volume list vm1
    """
    server = client.servers.find_resource(args.server)
    found = client.volume_attachments.iter(server)
    version = api_versions.APIVersion(client.volume_attachments.api_version)
    keys, headers = _attachment_columns(version)
    return columns.table(found, keys, headers)


@utils.arg("server", **_SERVER_ARG)
@utils.arg("volume", **_VOLUME_ARG)
@utils.arg(
    "--delete-on-termination",
    dest="delete_on_termination",
    action=utils.Switch,
    const=True,
    other="--preserve-on-termination",
    default=None,
    help="Delete the volume with the server (compute API 2.85+).",
)
@utils.arg(
    "--preserve-on-termination",
    dest="delete_on_termination",
    action=utils.Switch,
    const=False,
    other="--delete-on-termination",
    help="Keep the volume when the server is deleted (compute API 2.85+).",
)
def do_server_volume_update(client, args):
    """Change a volume attachment: whether the volume goes with the server.

    Example: occli server volume update --delete-on-termination vm1 data
    """
    if args.delete_on_termination is None:
        raise exceptions.ValidationError(
            "Nothing to change: give --delete-on-termination or --preserve-on-termination."
        )
    client.volume_attachments.check_update(args.delete_on_termination)
    server = client.servers.find_resource(args.server)
    volume = client.volumes.find_resource(args.volume)
    client.volume_attachments.update(
        server, volume, delete_on_termination=args.delete_on_termination
    )
