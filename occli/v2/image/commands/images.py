"""Image commands (Glance v2)."""

from occli import columns
from occli import utils


@utils.arg("--name", metavar="<name>", help="Only images with this exact name.")
@utils.arg("--status", metavar="<status>", help="Only images in this status.")
@utils.arg(
    "--limit",
    type=utils.list_limit,
    default=None,
    metavar="<n>",
    help="At most this many images (-1: all).",
)
@utils.arg("--marker", metavar="<image-id>", help="Start after this image.")
@utils.arg("--long", action="store_true", help="More columns.")
@utils.output("list")
def do_image_list(client, args):
    """List images.

    Example: occli image list
    """
    images = client.images.iter(
        limit=args.limit, marker=args.marker, name=args.name, status=args.status
    )
    cols = ["id", "name", "status"]
    headers = ["ID", "Name", "Status"]
    if args.long:
        cols += ["disk_format", "container_format", "size", "visibility", "min_disk", "min_ram"]
        headers += ["Disk Format", "Container Format", "Size", "Visibility", "Min Disk", "Min RAM"]
    return columns.table(images, cols, headers=headers)


@utils.arg("image", metavar="<image>", help="Image name or ID.")
@utils.output("show")
def do_image_show(client, args):
    """Show an image.

    Example: occli image show cirros
    """
    image = client.images.find_resource(args.image)
    return columns.show(image)
