"""Swift container commands: ``container …``, with python-openstackclient's
names, options and columns (openstackclient/object/v1/container.py)."""

import logging

from occli import columns
from occli import exceptions
from occli import utils
from occli.v2.object_store import objects

LOG = logging.getLogger(__name__)


def listing_options(what):
    """``--prefix``, ``--marker``, ``--end-marker``, ``--limit``, ``--long``
    and ``--all`` of ``container list`` and ``object list`` (OSC's)."""
    options = [
        utils.arg("--prefix", metavar="<prefix>", help="Filter list using <prefix>"),
        utils.arg("--marker", metavar="<marker>",
                  help="The first position in the collection to return results from "
                  "(the last name of a previous page)."),
        utils.arg("--end-marker", metavar="<end-marker>", help="End anchor for paging"),
        utils.arg("--limit", type=utils.non_negative_int, metavar="<limit>",
                  help="The maximum number of entries to return per page (Swift's "
                  "limit, 10000 by default)."),
        utils.arg("--long", action="store_true", help="List additional fields in output"),
        utils.arg("--all", action="store_true",
                  help="List all %s, page after page (default is 10000)" % what),
    ]  # fmt: skip

    def decorator(func):
        for option in reversed(options):
            func = option(func)
        return func

    return decorator


def set_property_option(what):
    """``--property <key=value>`` (required, repeatable) of the ``set`` commands."""
    return utils.arg(
        "--property",
        dest="properties",
        action="append",
        type=utils.key_value("--property"),
        required=True,
        metavar="<key=value>",
        help="Set a property on this %s (repeat option to set multiple properties)" % what,
    )


def unset_property_option(what):
    """``--property <key>`` (required, repeatable) of the ``unset`` commands."""
    return utils.arg(
        "--property",
        dest="properties",
        action="append",
        required=True,
        metavar="<key>",
        help="Property to remove from %s (repeat option to remove multiple properties)" % what,
    )


def for_each_named(names, action, verb, noun, plural):
    """Run ``action(name)`` for each name, each failure reported on its own
    line: CommandError (exit 1) with the count when any failed (as
    ``image delete`` counts them)."""
    failed = []

    def act(name):
        try:
            action(name)
        except exceptions.ClientException:
            failed.append(name)
            raise

    utils.for_each(names, act, "%s %s" % (verb, noun), label="'%s'".__mod__)
    if failed:
        raise exceptions.CommandError(
            "Failed to %s %d of %d %s." % (verb, len(failed), len(names), plural)
        )


@utils.arg("--public", action="store_true", help="Make the container publicly accessible")
@utils.arg(
    "--storage-policy",
    metavar="<storage-policy>",
    help="Specify a particular storage policy to use.",
)
@utils.arg("containers", nargs="+", metavar="<container-name>", help="New container name(s)")
@utils.output("list")
def do_container_create(client, args):
    """Create new container.

    With --public, anyone may read its objects and list them, without a
    token.

    Example: occli container create --public photos
    """
    results = []
    for container in args.containers:
        if len(container) > 256:
            LOG.warning(
                "Container name is %d characters long, the default limit is 256", len(container)
            )
        results.append(
            client.object_store.create_container(
                container, public=args.public, storage_policy=args.storage_policy
            )
        )
    return columns.table(results, ["account", "container", "x-trans-id"])


@utils.arg(
    "--recursive",
    "-r",
    action="store_true",
    help="Recursively delete objects and container",
)
@utils.arg("containers", nargs="+", metavar="<container>", help="Container(s) to delete")
def do_container_delete(client, args):
    """Delete container.

    Swift refuses to delete a container that still has objects (HTTP 409)
    unless --recursive, which deletes them first.

    Example: occli container delete --recursive photos
    """
    for_each_named(
        args.containers,
        lambda c: client.object_store.delete_container(c, recursive=args.recursive),
        "delete",
        "container",
        "containers",
    )


@listing_options("containers")
@utils.output("list")
def do_container_list(client, args):
    """List containers.

    Example: occli container list --prefix photo --long
    """
    containers = client.object_store.list_containers(
        prefix=args.prefix,
        marker=args.marker,
        end_marker=args.end_marker,
        limit=args.limit or None,
        full=args.all,
    )
    cols, headers = ["name"], ["Name"]
    if args.long:
        cols += ["bytes", "count"]
        headers += ["Bytes", "Count"]
    return columns.table(containers, cols, headers=headers)


@utils.arg("container", metavar="<container>", help="Container to save")
def do_container_save(client, args):
    """Save container contents locally.

    Each object is written to a file of its name in the current directory
    (a / makes a subdirectory), its ETag checked; a name that would be
    written elsewhere (absolute, with a .. part) is refused, the others
    are saved.

    Example: occli container save photos
    """
    import os

    store = client.object_store
    directory = os.getcwd()
    names = [o["name"] for o in store.list_objects(args.container, full=True) if "name" in o]
    for_each_named(
        names,
        lambda name: store.save_object(args.container, name, objects.local_path(directory, name)),
        "save",
        "object",
        "objects",
    )


@utils.arg("container", metavar="<container>", help="Container to modify")
@set_property_option("container")
@utils.option_names(properties="--property")
def do_container_set(client, args):
    """Set container properties.

    Example: occli container set --property color=blue photos
    """
    client.object_store.set_container_properties(args.container, dict(args.properties))


@utils.arg("container", metavar="<container>", help="Container to display")
@utils.output("show")
def do_container_show(client, args):
    """Display container details.

    Example: occli container show photos
    """
    return columns.show(client.object_store.show_container(args.container))


@utils.arg("container", metavar="<container>", help="Container to modify")
@unset_property_option("container")
@utils.option_names(properties="--property")
def do_container_unset(client, args):
    """Unset container properties.

    Example: occli container unset --property color photos
    """
    client.object_store.unset_container_properties(args.container, args.properties)
