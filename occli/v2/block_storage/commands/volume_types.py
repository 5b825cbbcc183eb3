"""Volume type commands (Cinder): ``volume type …``, with OpenStackClient's
names, options and columns. OSC's ``--encryption-*`` options are left
out: the local cloud serves no volume encryption types (their routes,
``/types/{id}/encryption``, are not emulated)."""

from occli import columns
from occli import exceptions
from occli import utils

_TYPE_ARG = dict(metavar="<volume-type>", help="Volume type (name or ID).")
_PROJECT_DOMAIN = dict(
    metavar="<project-domain>",
    help="Domain the project belongs to (name or ID), for a --project given by name.",
)
_IS_TRUE = "<is> True"


def _show(volume_type, access=None, with_access=False):
    """OSC's ``_format_type``: ``extra_specs`` shown as ``properties``;
    ``with_access`` (``volume type show``): ``access_project_ids`` too,
    null for a public type as OSC's ``ShowVolumeType`` shows it."""
    info = volume_type.to_dict()
    info.pop("os-volume-type-access:is_public", None)
    info.pop("qos_specs_id", None)
    info["properties"] = columns.DictColumn(info.pop("extra_specs", None) or {})
    if access is not None:
        info["access_project_ids"] = columns.ListColumn(access)
    elif with_access:
        info["access_project_ids"] = None
    return columns.show(info)


def _public_switch(on_help, off_help, others=""):
    """OSC's ``--public``/``--private`` pair (``args.is_public``: True,
    False or None); ``others``: more flags sharing ``is_public``."""

    def decorator(func):
        func = utils.arg(
            "--private", dest="is_public", action=utils.Switch, const=False,
            other="--public" + others, help=off_help,
        )(func)  # fmt: skip
        return utils.arg(
            "--public", dest="is_public", action=utils.Switch, const=True,
            other="--private" + others, default=None, help=on_help,
        )(func)  # fmt: skip

    return decorator


def _spec_aliases(func):
    """OSC's aliases of ``--property``: ``--multiattach``, ``--cacheable``,
    ``--replicated`` and ``--availability-zone`` (repeatable)."""
    for option, key in (
        ("--multiattach", "multiattach"),
        ("--cacheable", "cacheable"),
        ("--replicated", "replication_enabled"),
    ):
        func = utils.arg(
            option,
            action="store_true",
            help="Alias for '--property %s=<is> True' (requires driver support)." % key,
        )(func)
    return utils.arg(
        "--availability-zone",
        dest="availability_zones",
        action="append",
        metavar="<zone>",
        help="Alias for '--property RESKEY:availability_zones=<zone>,…' (repeatable).",
    )(func)


def _properties(args):
    """The extra specs ``--property`` and its aliases give."""
    specs = dict(args.properties)
    for flag, key in (
        ("multiattach", "multiattach"),
        ("cacheable", "cacheable"),
        ("replicated", "replication_enabled"),
    ):
        if getattr(args, flag):
            specs[key] = _IS_TRUE
    if args.availability_zones:
        specs["RESKEY:availability_zones"] = ",".join(args.availability_zones)
    return specs


def _project(client, args):
    from occli.v2.image.commands.members import project_id

    return project_id(client, args.project, args.project_domain)


@utils.arg("--long", action="store_true", help="Also list description and properties.")
@utils.arg(
    "--default",
    dest="is_public",
    action=utils.Switch,
    const="default",
    other="--public/--private",
    help="List the default volume type only.",
)
@_public_switch("List only public types.", "List only private types (admin).", "/--default")
@utils.output("list")
def do_volume_type_list(client, args):
    """List volume types.

    Members see the public types and the private ones their project was
    given access to; admins see the public ones unless --private.

    Example: occli volume type list --long
    """
    if args.is_public == "default":
        found = [client.volume_types.default()]
    else:
        found = client.volume_types.iter(
            is_public=True if args.is_public is None else args.is_public
        )
    cols, headers = ["id", "name", "is_public"], ["ID", "Name", "Is Public"]
    if args.long:
        cols += ["description", "extra_specs"]
        headers += ["Description", "Properties"]
    return columns.table(found, cols, headers, formatters={"extra_specs": columns.DictColumn})


@utils.arg("volume_type", **_TYPE_ARG)
@utils.output("show")
def do_volume_type_show(client, args):
    """Show a volume type (a private one with the projects given access).

    Example: occli volume type show __DEFAULT__
    """
    volume_type = client.volume_types.find_resource(args.volume_type)
    access = None
    if not getattr(volume_type, "is_public", True):
        access = [a["project_id"] for a in client.volume_types.list_access(volume_type)]
    return _show(volume_type, access, with_access=True)


@utils.arg("name", metavar="<name>", help="Volume type name.")
@utils.arg("--description", metavar="<description>", help="Volume type description.")
@_public_switch(
    "Volume type is accessible to the public (the default).",
    "Volume type is not accessible to the public.",
)
@utils.property_option("Set a property on this volume type (repeatable).")
@_spec_aliases
@utils.arg(
    "--project",
    metavar="<project>",
    help="Allow <project> to access private type (name or ID); needs --private (admin only).",
)
@utils.arg("--project-domain", **_PROJECT_DOMAIN)
@utils.output("show")
def do_volume_type_create(client, args):
    """Create new volume type (admin).

    Example: occli volume type create --private --project demo --property tier=gold gold
    """
    if args.project and args.is_public is not False:
        raise exceptions.ValidationError("--project is only allowed with --private")
    specs = _properties(args)
    client.volume_types.check_create(args.name, args.description, specs)
    project = _project(client, args) if args.project else None
    volume_type = client.volume_types.create(
        args.name,
        description=args.description,
        is_public=args.is_public is not False,
        extra_specs=specs or None,
    )
    if project is not None:
        client.volume_types.add_project_access(volume_type, project)
    return _show(volume_type)


@utils.arg("volume_type", **_TYPE_ARG)
@utils.arg("--name", metavar="<name>", help="Set volume type name.")
@utils.arg("--description", metavar="<description>", help="Set volume type description.")
@utils.property_option("Set a property on this volume type (repeatable).")
@_spec_aliases
@utils.arg(
    "--project",
    metavar="<project>",
    help="Set volume type access to project (name or ID) (admin only).",
)
@utils.arg("--project-domain", **_PROJECT_DOMAIN)
@_public_switch(
    "Volume type is accessible to the public.", "Volume type is not accessible to the public."
)
def do_volume_type_set(client, args):
    """Set volume type properties (admin).

    Cinder refuses property changes while volumes have the type.

    Example: occli volume type set --property multiattach="<is> True" gold
    """
    specs = _properties(args)
    attributes = (args.name, args.description, args.is_public)
    if all(a is None for a in attributes) and not specs and not args.project:
        raise exceptions.ValidationError(
            "Nothing to set: give --name, --description, --public, --private, --property"
            " (or an alias) or --project."
        )
    client.volume_types.check_extra_specs(specs)
    volume_type = client.volume_types.find_resource(args.volume_type)
    if any(a is not None for a in attributes):
        client.volume_types.update(
            volume_type, name=args.name, description=args.description, is_public=args.is_public
        )
    if specs:
        client.volume_types.set_extra_specs(volume_type, specs)
    if args.project:
        client.volume_types.add_project_access(volume_type, _project(client, args))


@utils.arg("volume_type", **_TYPE_ARG)
@utils.arg(
    "--property",
    dest="properties",
    action="append",
    default=[],
    metavar="<key>",
    help="Remove a property from this volume type (repeatable).",
)
@utils.arg(
    "--project",
    metavar="<project>",
    help="Removes volume type access to project (name or ID) (admin only).",
)
@utils.arg("--project-domain", **_PROJECT_DOMAIN)
def do_volume_type_unset(client, args):
    """Unset volume type properties (admin).

    Example: occli volume type unset --property multiattach gold
    """
    if not args.properties and not args.project:
        raise exceptions.ValidationError("Nothing to unset: give --property or --project.")
    volume_type = client.volume_types.find_resource(args.volume_type)
    if args.properties:
        client.volume_types.unset_extra_specs(volume_type, args.properties)
    if args.project:
        client.volume_types.remove_project_access(volume_type, _project(client, args))


@utils.arg(
    "volume_types",
    nargs="+",
    metavar="<volume-type>",
    help="Volume type(s) to delete (name or ID).",
)
def do_volume_type_delete(client, args):
    """Delete volume type(s) (admin).

    Cinder refuses the default type and a type volumes have (exit 1).

    Example: occli volume type delete gold
    """

    def delete(ref):
        client.volume_types.delete(client.volume_types.find_resource(ref))

    return utils.for_each(args.volume_types, delete, "delete volume type")
