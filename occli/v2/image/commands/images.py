"""Image commands (Glance v2), with OpenStackClient's names and options."""

import logging

from occli import columns
from occli import exceptions
from occli import utils
from occli.v2.commands import progress as progress_line
from occli.v2.image import images as images_api

LOG = logging.getLogger(__name__)


class _OneOf(utils.Switch):
    """One of several flags setting ``dest`` to ``const``: giving two of
    them is a usage error (exit 2) naming both."""

    def __call__(self, parser, namespace, values, option_string=None):
        given = getattr(namespace, "_given_" + self.dest, None)
        if given is not None and given != option_string:
            parser.error("argument %s: not allowed with argument %s" % (option_string, given))
        setattr(namespace, "_given_" + self.dest, option_string)
        setattr(namespace, self.dest, self.const)


_LIST_VISIBILITY_HELPS = {
    "--public": "List only public images.",
    "--private": "List only private images.",
    "--community": "List only community images.",
    "--shared": "List only shared images (with --member-status: in that status).",
    "--all": "List all images.",
}


def _list_visibility_options(func):
    for flag in reversed(tuple(_LIST_VISIBILITY_HELPS)):
        func = utils.arg(
            flag,
            dest="visibility",
            action=_OneOf,
            const=flag[2:],
            default=None,
            help=_LIST_VISIBILITY_HELPS[flag],
        )(func)
    return func


@_list_visibility_options
@utils.property_option("Only images with this property value (repeatable).")
@utils.arg("--name", metavar="<name>", help="Only images with this exact name.")
@utils.arg("--status", metavar="<status>", help="Only images in this status.")
@utils.arg(
    "--member-status",
    type=str.lower,
    choices=images_api.MEMBER_STATUSES,
    metavar="<member-status>",
    help="Only shared images whose membership is in this status: one of %s."
    % ", ".join(images_api.MEMBER_STATUSES),
)
@utils.arg("--project", metavar="<project>", help="Only images of this project (name or ID).")
@utils.arg(
    "--project-domain",
    metavar="<project-domain>",
    help="Domain the project belongs to (name or ID), for a --project given by name.",
)
@utils.arg(
    "--tag",
    dest="tags",
    action="append",
    default=[],
    metavar="<tag>",
    help="Only images with this tag (repeatable: with every one).",
)
@utils.arg("--hidden", action="store_true", help="List hidden images (os_hidden) instead.")
@utils.arg(
    "--sort",
    type=utils.arg_type(images_api.parse_sort, "KEY[:DIR]"),
    default=images_api.parse_sort("name:asc"),
    metavar="<key>[:<direction>]",
    help="Sort the rows by these image fields and directions (asc or desc),"
    " separated by commas (default name:asc).",
)
@utils.arg(
    "--limit",
    type=utils.list_limit,
    default=None,
    metavar="<n>",
    help="At most this many images (-1: all).",
)
@utils.arg("--marker", metavar="<image>", help="Start after this image (name or ID).")
@utils.arg("--long", action="store_true", help="More columns.")
@utils.option_names(
    visibility="--public/--private/--community/--shared/--all",
    member_status="--member-status",
    tags="--tag",
    sort="--sort",
)
@utils.output("list")
def do_image_list(client, args):
    """List images, sorted by name unless --sort says otherwise.

    --property is compared here, as OSC does; the other filters are
    Glance's. --limit counts the images listed.

    Example: occli image list --shared --member-status pending --long
    """
    from occli.v2.image.commands.members import project_id

    marker = client.images.find_resource(args.marker).id if args.marker else None
    owner = project_id(client, args.project, args.project_domain) if args.project else None
    images = client.images.iter(
        limit=args.limit,
        marker=marker,
        name=args.name,
        status=args.status,
        visibility=args.visibility,
        member_status=args.member_status,
        owner=owner,
        tags=args.tags,
        hidden=args.hidden,
        properties=dict(args.properties),
    )
    images = images_api.sort_images(images, args.sort)
    cols = ["id", "name"]
    headers = ["ID", "Name"]
    if args.long:
        cols += ["disk_format", "container_format", "size", "checksum"]
        headers += ["Disk Format", "Container Format", "Size", "Checksum"]
    cols.append("status")
    headers.append("Status")
    if args.long:
        cols += ["visibility", "protected", "owner", "os_hash_algo", "os_hash_value", "tags"]
        headers += ["Visibility", "Protected", "Project", "Hash Algorithm", "Hash Value", "Tags"]
    return columns.table(images, cols, headers=headers)


@utils.arg("image", metavar="<image>", help="Image name or ID.")
@utils.output("show")
def do_image_show(client, args):
    """Show an image.

    Example: occli image show cirros
    """
    image = client.images.find_resource(args.image)
    return osc_image(args, image)


#: the fields OSC's image commands show apart; the others (but ``self``)
#: are ``properties`` (openstackclient/image/v2/image.py ``_format_image``)
OSC_FIELDS = (
    "status",
    "name",
    "container_format",
    "created_at",
    "size",
    "disk_format",
    "updated_at",
    "visibility",
    "min_disk",
    "protected",
    "id",
    "file",
    "checksum",
    "owner",
    "virtual_size",
    "min_ram",
    "schema",
)


def osc_image(args, image):
    """``(names, values)`` of an image as OSC shows it: its fields that
    are set, ``tags``, and the rest as ``properties`` (when any); ``-c``
    also takes a property's own name (``-c os_distro``), as before."""
    info = image.to_dict()
    shown = {k: info[k] for k in OSC_FIELDS if info.get(k) is not None}
    shown["tags"] = info.get("tags") or []
    properties = {
        k: v for k, v in info.items() if k not in OSC_FIELDS and k not in ("tags", "self")
    }
    if properties:
        shown["properties"] = properties
    names, values = columns.show(shown, formatters={"properties": columns.DictColumn})
    wanted = [c for c in getattr(args, "columns", None) or () if c in properties]
    return names + tuple(wanted), values + tuple(properties[c] for c in wanted)


# -- writes (OpenStackClient's openstackclient/image/v2/image.py) -------------

#: OSC's choices and defaults of ``--disk-format`` and ``--container-format``.
DISK_FORMATS = (
    "ami",
    "ari",
    "aki",
    "vhd",
    "vmdk",
    "raw",
    "qcow2",
    "vhdx",
    "vdi",
    "iso",
    "ploop",
)
CONTAINER_FORMATS = ("ami", "ari", "aki", "bare", "docker", "ova", "ovf")
_IMAGE_ARG = dict(metavar="<image>", help="Image (name or ID).")
_VISIBILITY_FLAGS = ("--public", "--private", "--shared", "--community")


def _attribute_options(func, creating):
    """The options ``image create`` and ``image set`` share, as OSC names them."""
    helps = {
        "--public": "Image is accessible and visible to all users.",
        "--private": "Image is only accessible by the owner.",
        "--shared": "Image is only accessible by the owner and image members.",
        "--community": "Image is accessible by all users but listed only for its owner.",
    }
    for flag in reversed(_VISIBILITY_FLAGS):
        func = utils.arg(
            flag,
            dest="visibility",
            action=_OneOf,
            const=flag[2:],
            default=None,
            help=helps[flag],
        )(func)
    func = utils.arg(
        "--unprotected",
        dest="protected",
        action=_OneOf,
        const=False,
        help="Allow the image to be deleted (default).",
    )(func)
    func = utils.arg(
        "--protected",
        dest="protected",
        action=_OneOf,
        const=True,
        default=None,
        help="Prevent the image from being deleted.",
    )(func)
    func = utils.arg(
        "--tag",
        dest="tags",
        action="append",
        default=[],
        metavar="<tag>",
        help="Set a tag on the image (repeatable).",
    )(func)
    func = utils.property_option("Set a property on the image (repeatable).")(func)
    for option, choices, default in (
        ("--disk-format", DISK_FORMATS, "raw"),
        ("--container-format", CONTAINER_FORMATS, "bare"),
    ):
        func = utils.arg(
            option,
            choices=choices,
            default=default if creating else None,
            metavar=option.replace("--", "<") + ">",
            help="Image %s: one of %s%s."
            % (
                option[2:].replace("-", " "),
                ", ".join(choices),
                " (default %s)" % default if creating else "",
            ),
        )(func)
    func = utils.arg(
        "--min-ram",
        type=utils.non_negative_int,
        metavar="<ram-mb>",
        help="Minimum RAM size needed to boot the image, in megabytes.",
    )(func)
    func = utils.arg(
        "--min-disk",
        type=utils.non_negative_int,
        metavar="<disk-gb>",
        help="Minimum disk size needed to boot the image, in gigabytes.",
    )(func)
    return utils.option_names(
        min_disk="--min-disk",
        min_ram="--min-ram",
        visibility="--public/--private/--shared/--community",
        properties="--property",
        tags="--tag",
        remove="--property",
    )(func)


def _attribute_options_create(func):
    return _attribute_options(func, creating=True)


def _attribute_options_set(func):
    return _attribute_options(func, creating=False)


#: The progress line of uploads and downloads (shared with ``object …``).
_progress = progress_line.start
_end_progress = progress_line.end


def _stdin_data():
    """Standard input when it is a pipe or a file (as ``… < disk.img``);
    None for a terminal, a closed stdin or a device such as /dev/null, so
    that a script with no data creates the image without any."""
    import os
    import stat
    import sys

    stream = sys.stdin
    try:
        if stream is None or stream.isatty():
            return None
        mode = os.fstat(stream.fileno()).st_mode
    except (OSError, ValueError):
        return None
    if not (stat.S_ISFIFO(mode) or stat.S_ISREG(mode)):
        return None
    return getattr(stream, "buffer", stream)


@utils.arg("name", metavar="<image-name>", help="New image name.")
@utils.arg("--file", metavar="<file>", help="Upload the image's data from this file.")
@utils.arg(
    "--volume",
    metavar="<volume>",
    help="Create the image from this volume (name or ID): Cinder uploads it.",
)
@utils.arg(
    "--force",
    action="store_true",
    help="Upload the volume even if it is in use (only with --volume; the cloud may ignore it).",
)
@utils.arg(
    "--import",
    dest="use_import",
    action="store_true",
    help="Use Glance's image import (stage, then glance-direct) instead of a direct upload.",
)
@_attribute_options_create
@utils.option_names(disk_format="--disk-format", image_name="<image-name>")
@utils.output("show")
def do_image_create(client, args):
    """Create an image, uploading its data from --file or standard input.

    The data is streamed a chunk at a time, with progress on a terminal;
    if the upload fails, the new image is deleted. With --import the data
    is staged and imported with glance-direct ('image stage', then
    'image import'). With --volume, Cinder uploads the volume and prints
    its answer (the volume 'uploading', the new image's id).

    Example: occli image create --file cirros.qcow2 --disk-format qcow2 cirros
    """
    import os

    if args.volume:
        return _create_from_volume(client, args)
    options = _attributes(args)
    client.images.check_attributes(
        options["visibility"],
        options["min_disk"],
        options["min_ram"],
        options["properties"],
        options["tags"],
    )
    if args.file:
        try:
            data = open(args.file, "rb")  # noqa: SIM115 - closed below
        except OSError as exc:
            raise exceptions.ValidationError(
                "--file: cannot read %s: %s" % (args.file, exc.strerror or exc)
            ) from None
        size = os.fstat(data.fileno()).st_size
    else:
        data, size = _stdin_data(), None
    try:
        image = client.images.create(args.name, **options)
        if data is not None:
            progress = _progress(args, "Uploading %s" % args.name, size)
            try:
                if args.use_import:
                    client.images.stage(image, data, size=size, progress=progress)
                    client.images.import_image(image, method="glance-direct")
                else:
                    client.images.upload(image, data, size=size, progress=progress)
            except BaseException:
                _discard(client, image)
                raise
            finally:
                _end_progress(args, progress)
    finally:
        if args.file:
            data.close()
    return osc_image(args, client.images.get(image.id))


#: ``image create`` options a volume upload ignores (OSC warns of them)
_NOT_FOR_VOLUMES = (
    ("file", "--file"),
    ("min_disk", "--min-disk"),
    ("min_ram", "--min-ram"),
    ("properties", "--property"),
    ("tags", "--tag"),
    ("use_import", "--import"),
)


def _create_from_volume(client, args):
    """``image create --volume`` (OSC's ``_take_action_volume``): Cinder's
    ``os-volume_upload_image`` at volume API 3.1 (visibility ``private``
    and not protected unless given), its answer shown with the volume
    type's name."""
    if args.file:
        raise exceptions.ValidationError("argument --volume: not allowed with argument --file")
    if _stdin_data() is not None:
        raise exceptions.CommandError(
            "Uploading data and using container are not allowed at the same time"
        )
    for dest, option in _NOT_FOR_VOLUMES:
        if getattr(args, dest, None):
            LOG.warning(
                "'%s' was given, which is not supported when creating an image from a volume."
                " This will be an error in a future version.",
                option,
            )
    visibility = args.visibility or "private"
    client.volumes.check_upload_to_image(args.name, args.disk_format, visibility)
    volume = client.volumes.find_resource(args.volume)
    info = dict(
        client.volumes.upload_to_image(
            volume,
            args.name,
            force=args.force,
            disk_format=args.disk_format,
            container_format=args.container_format,
            visibility=visibility,
            protected=bool(args.protected),
        )
    )
    volume_type = info.get("volume_type")
    info["volume_type"] = volume_type.get("name") if isinstance(volume_type, dict) else None
    return columns.show(info)


def _discard(client, image):
    """Delete the image an upload failed to fill (as openstacksdk does),
    so that no empty ``queued`` image is left behind; a failure to is
    logged, the upload's error is the one reported."""
    try:
        client.images.delete(image)
    except exceptions.ClientException as exc:
        LOG.warning("Could not delete image %s after its upload failed: %s", image.id, exc)


@utils.arg("images", nargs="+", metavar="<image>", help="Image(s) to delete (name or ID).")
@utils.concurrency_option
def do_image_delete(client, args):
    """Delete images.

    Glance refuses to delete a protected image (403): exit 1, after the
    others were deleted.

    Example: occli image delete cirros old-snapshot
    """
    failed = []

    def delete(ref):
        try:
            client.images.delete(client.images.find_resource(ref))
        except exceptions.ClientException:
            failed.append(ref)
            raise

    utils.for_each(
        args.images,
        delete,
        "delete image with name or ID",
        label="'%s'".__mod__,
        concurrency=args.concurrency,
    )
    if failed:
        raise exceptions.CommandError(
            "Failed to delete %d of %d images." % (len(failed), len(args.images))
        )


@utils.arg("image", **_IMAGE_ARG)
@utils.arg(
    "--file",
    metavar="<filename>",
    help="Save the image's data to this file (default: standard output).",
)
@utils.arg(
    "--chunk-size",
    type=utils.positive_int,
    default=256 * 1024,
    metavar="<bytes>",
    help="Bytes read from the wire at a time (default 262144).",
)
def do_image_save(client, args):
    """Save an image's data locally, checking its checksum.

    Data that does not match the image's checksum is an error (exit 1) and
    leaves no file behind; the file is written beside its name, then moved.

    Example: occli image save --file cirros.img cirros
    """
    import os
    import tempfile

    image = client.images.find_resource(args.image)
    progress = _progress(args, "Downloading %s" % image.id, image.to_dict().get("size"))
    chunks = client.images.data(image, chunk_size=args.chunk_size, progress=progress)
    if not args.file:
        out = utils.stdout(args).buffer
        for chunk in chunks:
            out.write(chunk)
        out.flush()
        _end_progress(args, progress)
        return
    target = os.path.abspath(args.file)
    try:
        fd, partial = tempfile.mkstemp(prefix=".occli-", dir=os.path.dirname(target))
    except OSError as exc:
        raise exceptions.ValidationError(
            "--file: cannot write %s: %s" % (args.file, exc.strerror or exc)
        ) from None
    try:
        with os.fdopen(fd, "wb") as f:
            for chunk in chunks:
                f.write(chunk)
        os.replace(partial, target)
    except BaseException:
        os.unlink(partial)
        raise
    finally:
        _end_progress(args, progress)


@utils.arg("image", **_IMAGE_ARG)
@utils.arg("--name", metavar="<name>", help="New image name.")
@_attribute_options_set
@utils.arg(
    "--accept",
    dest="membership",
    action=_OneOf,
    const="accepted",
    default=None,
    help="Accept the image membership for either the project indicated by '--project',"
    " if provided, or the current user's project.",
)
@utils.arg(
    "--reject",
    dest="membership",
    action=_OneOf,
    const="rejected",
    help="Reject the image membership for either the project indicated by '--project',"
    " if provided, or the current user's project.",
)
@utils.arg(
    "--pending",
    dest="membership",
    action=_OneOf,
    const="pending",
    help="Reset the image membership to 'pending'.",
)
@utils.arg(
    "--project",
    metavar="<project>",
    help="The member project (name or ID) whose membership --accept, --reject or --pending sets.",
)
@utils.arg(
    "--project-domain",
    metavar="<project-domain>",
    help="Domain the project belongs to (name or ID), for a --project given by name.",
)
def do_image_set(client, args):
    """Change an image's attributes, properties and tags (tags are added).

    --accept, --reject and --pending set a project's membership of a
    shared image (the member project's own call) before the other changes.

    Example: occli image set --property os_distro=cirros --tag test cirros
    """
    from occli.v2.image.commands.members import project_id

    if args.project and args.membership is None:
        raise exceptions.ValidationError("--project needs --accept, --reject or --pending.")
    options = _attributes(args)
    changes = args.name is not None or any(v is not None for v in options.values())
    tags = options.pop("tags")
    if changes or args.membership is None:
        client.images.check_update(name=args.name, tags=tags, **options)
    image = client.images.find_resource(args.image)
    if args.membership is not None:
        member = (
            project_id(client, args.project, args.project_domain)
            if args.project
            else client.session.get_project_id()
        )
        client.image_members.update(image, member, args.membership)
    if not changes:
        return
    if tags:
        tags = list(dict.fromkeys(list(image.to_dict().get("tags") or ()) + tags))
    client.images.update(image, name=args.name, tags=tags, **options)


@utils.arg("image", **_IMAGE_ARG)
@utils.arg(
    "--tag",
    dest="tags",
    action="append",
    default=[],
    metavar="<tag>",
    help="Unset a tag on the image (repeatable).",
)
@utils.arg(
    "--property",
    dest="properties",
    action="append",
    default=[],
    metavar="<property-key>",
    help="Unset a property on the image (repeatable).",
)
@utils.option_names(remove="--property")
def do_image_unset(client, args):
    """Remove tags and properties from an image, in one PATCH.

    A tag or property the image does not have is reported and the others
    are removed: exit 1, with OSC's count of failures.

    Example: occli image unset --property os_distro --tag test cirros
    """
    if not args.tags and not args.properties:
        raise exceptions.ValidationError("Nothing to unset: give --tag or --property.")
    if args.properties:
        client.images.check_update(remove=args.properties)
    image = client.images.find_resource(args.image)
    tags = list(image.to_dict().get("tags") or ())
    missing_tags = [t for t in dict.fromkeys(args.tags) if t not in tags]
    missing = [k for k in dict.fromkeys(args.properties) if k not in image]
    for tag in missing_tags:
        LOG.error("tag unset failed, '%s' is a nonexistent tag ", tag)
    for key in missing:
        LOG.error("property unset failed, '%s' is a nonexistent property ", key)
    remove = [k for k in dict.fromkeys(args.properties) if k in image]
    if remove or len(missing_tags) < len(set(args.tags)):
        client.images.update(
            image,
            tags=[t for t in tags if t not in args.tags] if args.tags else None,
            remove=remove,
        )
    failures = []
    if missing_tags:
        failures.append("Failed to unset %d of %d tags." % (len(missing_tags), len(args.tags)))
    if missing:
        failures.append(
            "Failed to unset %d of %d properties." % (len(missing), len(args.properties))
        )
    if failures:
        raise exceptions.CommandError(" ".join(failures))


def _attributes(args):
    """The attribute keywords of ``image create``/``image set``'s options."""
    return {
        "disk_format": args.disk_format,
        "container_format": args.container_format,
        "visibility": args.visibility,
        "protected": args.protected,
        "min_disk": args.min_disk,
        "min_ram": args.min_ram,
        "tags": list(args.tags) or None,
        "properties": dict(args.properties) or None,
    }
