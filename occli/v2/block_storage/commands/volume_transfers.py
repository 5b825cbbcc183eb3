"""Volume transfer commands (Cinder): ``volume transfer request …``, with
OpenStackClient's names, options and columns
(``openstackclient/volume/v3/volume_transfer_request.py``). The auth key
is shown by the create only; the recipient project accepts with it."""

from occli import columns
from occli import utils

_TRANSFER_ARG = dict(metavar="<transfer-request>", help="Volume transfer request (name or ID).")


def _show(transfer):
    info = transfer.to_dict()
    info.pop("links", None)
    return columns.show(info)


@utils.arg("volume", metavar="<volume>", help="Volume to transfer (name or ID).")
@utils.arg("--name", metavar="<name>", help="New transfer request name (default to None).")
@utils.arg(
    "--no-snapshots",
    action="store_true",
    help="Do not allow the transfer of snapshots with volume (volume API 3.55).",
)
@utils.output("show")
def do_volume_transfer_request_create(client, args):
    """Create volume transfer request.

    The auth key is shown this once: give it and the request's ID to the
    project that is to accept the volume.

    Example: occli volume transfer request create --name gift data
    """
    volume = client.volumes.find_resource(args.volume)
    return _show(
        client.volume_transfers.create(volume, name=args.name, no_snapshots=args.no_snapshots)
    )


@utils.arg(
    "transfer_request",
    metavar="<transfer-request-id>",
    help="Volume transfer request to accept (ID only).",
)
@utils.arg(
    "--auth-key",
    metavar="<key>",
    required=True,
    help="Volume transfer request authentication key.",
)
@utils.output("show")
def do_volume_transfer_request_accept(client, args):
    """Accept volume transfer request; the volume is then this project's.

    Example: occli volume transfer request accept --auth-key 0a1b2c3d4e5f6a7b <id>
    """
    return _show(client.volume_transfers.accept(args.transfer_request, args.auth_key))


@utils.arg(
    "transfer_requests",
    nargs="+",
    metavar="<transfer-request>",
    help="Volume transfer request(s) to delete (name or ID).",
)
def do_volume_transfer_request_delete(client, args):
    """Delete volume transfer request(s); each volume is available again.

    Example: occli volume transfer request delete gift
    """

    def delete(ref):
        client.volume_transfers.delete(client.volume_transfers.find_resource(ref))

    return utils.for_each(args.transfer_requests, delete, "delete volume transfer request")


@utils.arg("--all-projects", action="store_true", help="Include all projects (admin only).")
@utils.output("list")
def do_volume_transfer_request_list(client, args):
    """Lists all volume transfer requests.

    Example: occli volume transfer request list
    """
    transfers = client.volume_transfers.iter(all_projects=args.all_projects)
    return columns.table(transfers, ["id", "name", "volume_id"], ["ID", "Name", "Volume"])


@utils.arg("transfer_request", **_TRANSFER_ARG)
@utils.output("show")
def do_volume_transfer_request_show(client, args):
    """Show volume transfer request details.

    Example: occli volume transfer request show gift
    """
    return _show(client.volume_transfers.find_resource(args.transfer_request))
