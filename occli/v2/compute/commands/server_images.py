"""Server snapshot and backup commands: ``server image create``,
``server backup create``. The image is shown as the image service has it
(``queued`` until the snapshot is uploaded; ``--wait`` waits for
``active``)."""

from occli import columns
from occli import exceptions
from occli import utils
from occli import waiters

_FAILED = ("killed", "deleted", "pending_delete")


class _Gone:
    """An image the image service no longer has (deleted meanwhile)."""

    status = "deleted"


def _wait_active(client, image_id, args, what, gone_ok):
    def fetch():
        try:
            return client.images.get(image_id)
        except exceptions.NotFound:
            return _Gone()

    def failed(image):
        status = getattr(image, "status", None)
        if status in _FAILED:
            return "Image %s is %s." % (image_id, status)
        return None

    def done(image):
        return image.status == "active" or (gone_ok and isinstance(image, _Gone))

    with waiters.accepted("%s; image %s exists but waiting failed" % (what, image_id)):
        return waiters.wait_for(
            fetch,
            done,
            failed=failed,
            describe=lambda image: getattr(image, "status", "?"),
            label="image %s" % image_id,
            **utils.wait_args(args),
        )


def _show_image(client, image_id, args, what, gone_ok=False):
    """The new image as a show; ``gone_ok``: it may be deleted already (a
    backup with rotation 0), shown as its id alone."""
    if image_id is None:
        # nova said nothing (a backup before 2.45 with rotation 0)
        return ("id",), ("",)
    try:
        if args.wait:
            image = _wait_active(client, image_id, args, what, gone_ok)
        else:
            image = client.images.get(image_id)
    except exceptions.NotFound:
        if not gone_ok:
            raise
        image = _Gone()
    if isinstance(image, _Gone):
        utils.stderr(args).write("Backup %s was rotated away (--rotate 0).\n" % image_id)
        return ("id",), (image_id,)
    info = image.to_dict()
    keys = [
        k
        for k in ("id", "name", "status", "owner", "visibility", "size", "min_disk", "created_at")
        if k in info
    ]
    properties = {
        k: v
        for k, v in info.items()
        if k
        not in set(keys)
        | {
            "self",
            "file",
            "schema",
            "checksum",
            "os_hash_algo",
            "os_hash_value",
            "tags",
            "protected",
            "os_hidden",
            "virtual_size",
            "min_ram",
            "container_format",
            "disk_format",
            "updated_at",
        }
    }
    info["properties"] = properties
    return columns.show(info, keys + ["properties"])


@utils.arg("server", metavar="<server>", help="Server to snapshot (name or ID).")
@utils.arg("--name", metavar="<image-name>", help="Name of the image (default: the server's).")
@utils.property_option("Image property to set (repeatable).")
@utils.option_names(metadata="--property")
@utils.wait_options("the image is active")
@utils.output("show")
def do_server_image_create(client, args):
    """Snapshot a server into a new image (createImage).

    The image is queued while the snapshot is uploaded; --wait waits until it
    is active. It carries the server's image properties and Nova's
    (image_type snapshot, instance_uuid, base_image_ref, …).

    Exit code 1 if the server is in a state that cannot be snapshotted
    (409), e.g. ERROR.

    Example: occli server image create --name vm1-snap --wait vm1
    """
    metadata = dict(args.properties)
    client.servers.check_metadata(metadata)
    server = client.servers.find_resource(args.server)
    name = args.name or server.name
    image_id = client.servers.create_image(server, name, metadata or None)
    return _show_image(client, image_id, args, "Server %s is being snapshotted" % server.name)


@utils.arg("server", metavar="<server>", help="Server to back up (name or ID).")
@utils.arg("--name", metavar="<image-name>", help="Name of the backup (default: the server's).")
@utils.arg(
    "--type",
    dest="backup_type",
    metavar="<backup-type>",
    default="",
    help="Backup type, e.g. daily or weekly (default: empty, as OSC sends).",
)
@utils.arg(
    "--rotate",
    type=utils.non_negative_int,
    default=1,
    metavar="<count>",
    help="How many backups of this type to keep (default 1); older ones are deleted.",
)
@utils.option_names(backup_type="--type", rotation="--rotate", name="--name")
@utils.wait_options("the backup image is active")
@utils.output("show")
def do_server_backup_create(client, args):
    """Back a server up into an image (createBackup) and rotate its backups.

    Nova keeps the newest --rotate backups of the server of this --type and
    deletes the older ones (--rotate 0 deletes them all, this one included).

    Exit code 1 for a volume-backed server (400) or a server in a state that
    cannot be backed up (409).

    Example: occli server backup create --type daily --rotate 7 vm1
    """
    server = client.servers.find_resource(args.server)
    name = args.name or server.name
    client.servers.check_backup(name, args.backup_type, args.rotate)
    image_id = client.servers.backup(server, name, args.backup_type, args.rotate)
    return _show_image(
        client,
        image_id,
        args,
        "Server %s is being backed up" % server.name,
        gone_ok=args.rotate == 0,
    )
