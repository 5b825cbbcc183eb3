"""Glance metadata definitions: ``image metadef namespace
list/show/create/delete`` and ``image metadef resource type list``, with
OpenStackClient's options and columns
(``openstackclient/image/v2/metadef_namespaces.py``,
``metadef_resource_types.py``). Every caller reads the public namespaces
and its project's; only admins create and delete them."""

from occli import columns
from occli import exceptions
from occli import utils

# openstackclient/image/v2/metadef_namespaces.py _format_namespace
_FIELDS = (
    "created_at",
    "description",
    "display_name",
    "namespace",
    "owner",
    "protected",
    "tags",
    "schema",
    "updated_at",
    "visibility",
)


def _namespace_info(namespace):
    """OSC's fields of a namespace; its resource type associations and
    properties by name."""
    data = namespace.to_dict()
    info = {key: value for key, value in data.items() if key in _FIELDS}
    if "tags" in info:
        info["tags"] = [tag.get("name") for tag in info["tags"]]
    if "resource_type_associations" in data:
        info["resource_type_associations"] = [
            a.get("name") for a in data["resource_type_associations"]
        ]
    if "properties" in data:
        info["properties"] = list(data["properties"])
    listed = ("tags", "resource_type_associations", "properties")
    return columns.show(info, formatters=dict.fromkeys(listed, columns.ListColumn))


@utils.arg("--resource-types", metavar="<resource_types>", help="Filter resource types.")
@utils.arg("--visibility", metavar="<visibility>", help="Filter on visibility.")
@utils.output("list")
def do_image_metadef_namespace_list(client, args):
    """List metadef namespaces.

    Example: occli image metadef namespace list --resource-types OS::Glance::Image
    """
    found = client.metadef_namespaces.list(
        resource_types=args.resource_types, visibility=args.visibility
    )
    return columns.table(found, ["namespace"])


@utils.arg("namespace", metavar="<namespace>", help="Metadef namespace to show (name).")
@utils.output("show")
def do_image_metadef_namespace_show(client, args):
    """Show a metadef namespace.

    Example: occli image metadef namespace show OS::Compute::Libvirt
    """
    return _namespace_info(client.metadef_namespaces.get(args.namespace))


@utils.arg("namespace", metavar="<namespace>", help="New metadef namespace name.")
@utils.arg(
    "--display-name", metavar="<display_name>", help="A user-friendly name for the namespace."
)
@utils.arg("--description", metavar="<description>", help="A description of the namespace.")
@utils.arg(
    "--public",
    dest="visibility",
    action=utils.Switch,
    const="public",
    other="--private",
    default=None,
    help="Set namespace visibility 'public'.",
)
@utils.arg(
    "--private",
    dest="visibility",
    action=utils.Switch,
    const="private",
    other="--public",
    help="Set namespace visibility 'private'.",
)
@utils.arg(
    "--protected",
    dest="protected",
    action=utils.Switch,
    const=True,
    other="--unprotected",
    default=None,
    help="Prevent metadef namespace from being deleted.",
)
@utils.arg(
    "--unprotected",
    dest="protected",
    action=utils.Switch,
    const=False,
    other="--protected",
    help="Allow metadef namespace to be deleted (default).",
)
@utils.output("show")
def do_image_metadef_namespace_create(client, args):
    """Create a metadef namespace (an admin's).

    Example: occli image metadef namespace create Example::Ns --public
    """
    created = client.metadef_namespaces.create(
        args.namespace,
        display_name=args.display_name,
        description=args.description,
        visibility=args.visibility,
        protected=args.protected,
    )
    return _namespace_info(created)


@utils.arg(
    "namespaces", nargs="+", metavar="<namespace>", help="Metadef namespace(s) to delete (name)."
)
def do_image_metadef_namespace_delete(client, args):
    """Delete metadef namespaces (an admin's).

    A protected namespace is refused (403): exit 1, after the others were
    deleted.

    Example: occli image metadef namespace delete Example::Ns
    """
    failed = []

    def delete(name):
        try:
            client.metadef_namespaces.delete(name)
        except exceptions.ClientException:
            failed.append(name)
            raise

    utils.for_each(
        args.namespaces, delete, "delete namespace with name or ID", label="'%s'".__mod__
    )
    if failed:
        raise exceptions.CommandError(
            "%d of %d namespace failed to delete." % (len(failed), len(args.namespaces))
        )


@utils.output("list")
def do_image_metadef_resource_type_list(client, args):
    """List metadef resource types.

    Example: occli image metadef resource type list
    """
    return columns.table(client.metadef_resource_types.list(), ["name"], headers=["Name"])
