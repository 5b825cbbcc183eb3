"""Swift object commands: ``object …``, with python-openstackclient's
names, options and columns (openstackclient/object/v1/object.py); the
data is streamed a chunk at a time, its ETag (MD5) checked both ways."""

import logging

from occli import columns
from occli import exceptions
from occli import utils
from occli.v2.commands import progress as progress_line
from occli.v2.object_store import objects
from occli.v2.object_store.commands.containers import for_each_named
from occli.v2.object_store.commands.containers import listing_options
from occli.v2.object_store.commands.containers import set_property_option
from occli.v2.object_store.commands.containers import unset_property_option

LOG = logging.getLogger(__name__)


@utils.arg("container", metavar="<container>", help="Container for new object")
@utils.arg("files", nargs="+", metavar="<filename>", help="Local filename(s) to upload")
@utils.arg(
    "--name",
    metavar="<name>",
    help="Upload a file and rename it. Can only be used when uploading a single object",
)
@utils.option_names(file="<filename>")
@utils.output("list")
def do_object_create(client, args):
    """Upload object to container.

    Each file is streamed a chunk at a time, its MD5 computed as it is sent
    and checked against the ETag Swift answers (exit 1 if they differ), with
    progress on a terminal; the object is named after the file as given
    (less its ./ parts), or --name.

    Example: occli object create photos cat.jpg
    """
    if args.name and len(args.files) > 1:
        raise exceptions.ValidationError(
            "Attempting to upload multiple objects and using --name is not permitted"
        )
    results = []
    for path in args.files:
        name = args.name or path
        if len(name) > 1024:
            LOG.warning("Object name is %s characters long, default limit is 1024", len(name))
        progress = progress_line.start(args, "Uploading %s" % name, None)
        try:
            results.append(
                client.object_store.create_object(
                    args.container, path, name=args.name, progress=progress
                )
            )
        finally:
            progress_line.end(args, progress)
    return columns.table(results, ["object", "container", "etag"])


@utils.arg("container", metavar="<container>", help="Delete object(s) from <container>")
@utils.arg("objects", nargs="+", metavar="<object>", help="Object(s) to delete")
def do_object_delete(client, args):
    """Delete object from container.

    Example: occli object delete photos cat.jpg dog.jpg
    """
    for_each_named(
        args.objects,
        lambda name: client.object_store.delete_object(args.container, name),
        "delete",
        "object",
        "objects",
    )


@utils.arg("container", metavar="<container>", help="Container to list")
@utils.arg("--delimiter", metavar="<delimiter>", help="Roll up items with <delimiter>")
@listing_options("objects in container")
@utils.output("list")
def do_object_list(client, args):
    """List objects.

    With --delimiter, the names that go on past it are rolled up into one
    entry (a pseudo-directory such as photos/).

    Example: occli object list --prefix 2024/ --delimiter / photos
    """
    entries = client.object_store.list_objects(
        args.container,
        prefix=args.prefix,
        delimiter=args.delimiter,
        marker=args.marker,
        end_marker=args.end_marker,
        limit=args.limit or None,
        full=args.all,
    )
    cols, headers = ["name"], ["Name"]
    if args.long:
        cols += ["bytes", "hash", "content_type", "last_modified"]
        headers += ["Bytes", "Hash", "Content Type", "Last Modified"]
    rows = (e if "name" in e else dict(e, name=e.get("subdir")) for e in entries)
    return columns.table(rows, cols, headers=headers)


@utils.arg(
    "--file",
    metavar="<filename>",
    help="Destination filename (defaults to object name); using '-' as the filename "
    "will print the file to stdout",
)
@utils.arg("container", metavar="<container>", help="Download <object> from <container>")
@utils.arg("object", metavar="<object>", help="Object to save")
def do_object_save(client, args):
    """Save object locally, checking its ETag.

    Data that does not match the ETag is an error (exit 1) and leaves no
    file behind. Without --file, a name that would be written outside the
    current directory (absolute, with a .. part) is refused.

    Example: occli object save --file - photos notes.txt
    """
    import os

    store = client.object_store
    progress = progress_line.start(args, "Downloading %s" % args.object, None)
    try:
        if args.file == "-":
            out = utils.stdout(args).buffer
            for chunk in store.object_data(args.container, args.object, progress=progress):
                out.write(chunk)
            out.flush()
            return
        path = args.file or objects.local_path(os.getcwd(), args.object)
        store.save_object(args.container, args.object, path, progress=progress)
    finally:
        progress_line.end(args, progress)


@utils.arg("container", metavar="<container>", help="Modify <object> from <container>")
@utils.arg("object", metavar="<object>", help="Object to modify")
@set_property_option("object")
@utils.option_names(properties="--property")
def do_object_set(client, args):
    """Set object properties.

    Example: occli object set --property owner=alice photos cat.jpg
    """
    client.object_store.set_object_properties(args.container, args.object, dict(args.properties))


@utils.arg("container", metavar="<container>", help="Display <object> from <container>")
@utils.arg("object", metavar="<object>", help="Object to display")
@utils.output("show")
def do_object_show(client, args):
    """Display object details.

    Example: occli object show photos cat.jpg
    """
    return columns.show(client.object_store.show_object(args.container, args.object))


@utils.arg("container", metavar="<container>", help="Modify <object> from <container>")
@utils.arg("object", metavar="<object>", help="Object to modify")
@unset_property_option("object")
@utils.option_names(properties="--property")
def do_object_unset(client, args):
    """Unset object properties.

    Example: occli object unset --property owner photos cat.jpg
    """
    client.object_store.unset_object_properties(args.container, args.object, args.properties)
