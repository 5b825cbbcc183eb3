"""Glance's interoperable import: ``image stage`` and ``image import``
(OpenStackClient's ``StageImage`` and ``ImportImage`` in
openstackclient/image/v2/image.py: their options, checks and texts)."""

from occli import columns
from occli import exceptions
from occli import utils
from occli import waiters

#: OSC's choices of ``image import --method``.
METHODS = ("glance-direct", "web-download", "glance-download", "copy-image")
_IMAGE = dict(metavar="<image>")


def _open(args):
    """The data of ``--file`` (with its size) or of a piped standard input
    (size unknown); (None, None) when there is neither."""
    import os

    from occli.v2.image.commands import images

    if not args.file:
        return images._stdin_data(), None
    try:
        data = open(args.file, "rb")  # noqa: SIM115 - closed by the caller
    except OSError as exc:
        raise exceptions.ValidationError(
            "--file: cannot read %s: %s" % (args.file, exc.strerror or exc)
        ) from None
    return data, os.fstat(data.fileno()).st_size


def stage(client, args, image, label):
    """Stage the data of ``--file`` or standard input for ``image``, with
    progress on a terminal; False when there is no data to stage."""
    from occli.v2.image.commands import images

    data, size = _open(args)
    if data is None:
        return False
    try:
        progress = images._progress(args, label, size)
        try:
            client.images.stage(image, data, size=size, progress=progress)
        finally:
            images._end_progress(args, progress)
    finally:
        if args.file:
            data.close()
    return True


@utils.arg("image", help="Image to upload data for (name or ID).", **_IMAGE)
@utils.arg(
    "--file",
    metavar="<file>",
    help="Local file that contains the image's data (default: standard input).",
)
def do_image_stage(client, args):
    """Upload data for an image to staging, for 'image import'.

    The data is streamed a chunk at a time, with progress on a terminal;
    the image becomes uploading (Glance's interoperable import).

    Example: occli image stage --file cirros.qcow2 cirros
    """
    image = client.images.find_resource(args.image)
    if not stage(client, args, image, "Staging %s" % image.id):
        raise exceptions.ValidationError("No data to stage: give --file or pipe it to stdin.")


def _check_method_options(args):
    """OSC's checks of the options each method needs or refuses."""
    method = args.method
    if method == "web-download":
        from urllib.parse import urlparse

        if not args.uri:
            raise exceptions.CommandError(
                "The '--uri' option is required when using '--method=web-download'"
            )
        parsed = urlparse(args.uri)
        if not (parsed.scheme and parsed.netloc):
            raise exceptions.CommandError("'%s' is not a valid url" % args.uri)
    elif args.uri:
        raise exceptions.CommandError(
            "The '--uri' option is only supported when using '--method=web-download'"
        )
    if method == "glance-download":
        if not (args.remote_region and args.remote_image):
            raise exceptions.CommandError(
                "The '--remote-region' and '--remote-image' options are required when"
                " using '--method=glance-download'"
            )
    else:
        for option, value in (
            ("--remote-region", args.remote_region),
            ("--remote-image", args.remote_image),
            ("--remote-service-interface", args.remote_service_interface),
        ):
            if value:
                raise exceptions.CommandError(
                    "The '%s' option is only supported when using"
                    " '--method=glance-download'" % option
                )
    if method == "copy-image" and not (args.stores or args.all_stores):
        raise exceptions.CommandError(
            "The '--stores' or '--all-stores' options are required when using"
            " '--method=copy-image'"
        )


#: The status each method needs, as OSC checks it before asking.
_NEEDED_STATUS = {"glance-direct": "uploading", "web-download": "queued", "copy-image": "active"}


def import_image(client, args, image):
    """Check and start ``image``'s import as ``args`` say; the image, once
    settled with ``--wait`` (active, or back to ``queued`` on failure)."""
    try:
        offered = client.images.import_methods()
    except exceptions.NotFound:
        raise exceptions.CommandError(
            "The Image Import feature is not supported by this deployment"
        ) from None
    if args.method not in offered:
        raise exceptions.CommandError(
            "The '%s' import method is not supported by this deployment. Supported: %s"
            % (args.method, ", ".join(offered))
        )
    info = image.to_dict()
    if not info.get("container_format") and not info.get("disk_format"):
        raise exceptions.CommandError(
            "The 'container_format' and 'disk_format' properties must be set on an"
            " image before it can be imported"
        )
    needed = _NEEDED_STATUS.get(args.method)
    if needed is not None and info.get("status") != needed:
        raise exceptions.CommandError(
            "The '%s' import method can only be used with an image in status '%s'"
            % (args.method, needed)
        )
    extra = {
        "uri": args.uri,
        "glance_region": args.remote_region,
        "glance_image_id": args.remote_image,
        "glance_service_interface": args.remote_service_interface,
    }
    client.images.import_image(
        image,
        method=args.method,
        stores=args.stores,
        all_stores=args.all_stores or None,
        all_stores_must_succeed=args.all_stores_must_succeed,
        extra={k: v for k, v in extra.items() if v},
    )
    if not args.wait:
        return client.images.get(image.id)
    return waiters.wait_for(
        lambda: client.images.get(image.id),
        lambda found: found is not None and found.status == "active",
        failed=_failed,
        describe=lambda found: found.status,
        label="image %s" % image.id,
        **utils.wait_args(args),
    )


def _failed(image):
    """The error of an import Glance gave up (the image neither importing
    nor active: back to ``queued``), else None."""
    if image.status in ("uploading", "importing", "active"):
        return None
    return "The import of image %s failed: it is %s." % (image.id, image.status)


def import_options(func):
    """The options of ``image import``, as OSC names them."""
    func = utils.wait_options("the image is active")(func)
    func = utils.arg(
        "--disallow-failure",
        dest="all_stores_must_succeed",
        action="store_const",
        const=True,
        help="With several stores: revert the import if any of them fails.",
    )(func)
    func = utils.arg(
        "--allow-failure",
        dest="all_stores_must_succeed",
        action="store_const",
        const=False,
        default=None,
        help="With several stores: go on if some of them fail.",
    )(func)
    func = utils.arg(
        "--all-stores",
        action="store_true",
        help="Make the image available in every store.",
    )(func)
    func = utils.arg(
        "--store",
        dest="stores",
        action="append",
        metavar="<store>",
        help="Store to import the image to (repeatable; see /v2/info/stores).",
    )(func)
    for option, what in (
        ("--remote-service-interface", "The remote Glance's interface"),
        ("--remote-region", "The remote Glance's region"),
        ("--remote-image", "The remote Glance's image ID"),
    ):
        func = utils.arg(option, metavar="<value>", help=what + " (glance-download only).")(func)
    func = utils.arg(
        "--uri", metavar="<uri>", help="URI to download the image from (web-download only)."
    )(func)
    return utils.arg(
        "--method",
        choices=METHODS,
        default="glance-direct",
        metavar="<method>",
        help="Import method: one of %s (default glance-direct, which needs the data"
        " staged by 'image stage')." % ", ".join(METHODS),
    )(func)


@utils.arg("image", help="Image to import (name or ID).", **_IMAGE)
@import_options
@utils.output("show")
def do_image_import(client, args):
    """Import an image's data (by default the data staged by 'image stage').

    Glance checks and converts the data, then makes the image active; with
    --wait the command returns once it has.

    Example: occli image import --wait cirros
    """
    if args.all_stores and args.stores:
        raise exceptions.ValidationError("--store and --all-stores cannot be combined.")
    _check_method_options(args)
    image = client.images.find_resource(args.image)
    return columns.show(import_image(client, args, image))
