"""Flavor commands (OpenStackClient's names and options).

Flavors show their extra specs as ``properties`` and, for a private
flavor an admin looks at, the projects given access as
``access_project_ids``.
"""

import logging

from occli import columns
from occli import exceptions
from occli import utils

LOG = logging.getLogger(__name__)

_RENAME = {"extra_specs": "properties"}
_FORMATTERS = {
    "extra_specs": columns.DictColumn,
    # null for a public flavor, as OSC (compute/v2/flavor.py ShowFlavor)
    "access_project_ids": lambda ids: None if ids is None else columns.ListColumn(ids),
}
_SHOWN = (
    "id",
    "name",
    "ram",
    "disk",
    "OS-FLV-EXT-DATA:ephemeral",
    "swap",
    "vcpus",
    "rxtx_factor",
    "os-flavor-access:is_public",
    "OS-FLV-DISABLED:disabled",
    "description",
    "extra_specs",
    "access_project_ids",
)
_FLAVOR_ARG = dict(metavar="<flavor>", help="Flavor (name or ID).")
_PROJECT_DOMAIN = dict(
    metavar="<project-domain>",
    help="Domain the project belongs to (name or ID), for a --project given by name.",
)


def _show(flavor, access=None):
    """A flavor's fields; ``access_project_ids`` as OpenStackClient shows
    it: the projects of a private flavor's access list, else empty."""
    info = flavor.to_dict() if hasattr(flavor, "to_dict") else dict(flavor)
    info["access_project_ids"] = access
    # in the order of the names shown, as OSC's
    keys = sorted((k for k in _SHOWN if k in info), key=lambda k: _RENAME.get(k, k))
    return columns.show(info, columns=keys, rename=_RENAME, formatters=_FORMATTERS)


def _project_id(client, project, domain=None, must_exist=True):
    """The id of ``--project`` (name or ID, looked up in keystone); with
    ``must_exist`` False a project keystone no longer knows is taken as
    an ID (its access may still be removed)."""
    try:
        return client.projects.find_resource(project, domain=domain).id
    except exceptions.NotFound:
        if must_exist:
            raise
        return project


def _access(client, flavor):
    """The projects of a private flavor's access list; None for a public
    flavor or a caller that may not read the list (it is admin-only)."""
    if getattr(flavor, "os-flavor-access:is_public", True) is not False:
        return None
    try:
        return [a.tenant_id for a in client.flavors.access_list(flavor)]
    except exceptions.Forbidden:
        return None


def _properties_of(client, flavor):
    """The flavor with its extra specs (fetched before 2.61, whose views
    lack them)."""
    if "extra_specs" not in flavor:
        info = flavor.to_dict()
        info["extra_specs"] = client.flavors.get_extra_specs(flavor)
        return info
    return flavor.to_dict()


# -- list and show -------------------------------------------------------------


def _sort(text):
    """``--sort <key>[:<asc|desc>]`` → ``(key, dir)``."""
    key, _, direction = text.partition(":")
    return key, direction or None


@utils.arg(
    "--public",
    dest="visibility",
    action=utils.Switch,
    const="public",
    other="--private/--all",
    default=None,
    help="List only public flavors (the default).",
)
@utils.arg(
    "--private",
    dest="visibility",
    action=utils.Switch,
    const="private",
    other="--public/--all",
    help="List only private flavors (admin).",
)
@utils.arg(
    "--all",
    dest="visibility",
    action=utils.Switch,
    const="all",
    other="--public/--private",
    help="List all flavors, public or private (admin).",
)
@utils.arg(
    "--min-ram",
    type=utils.positive_int,
    metavar="<size-mb>",
    help="Only flavors with at least this much RAM (MiB).",
)
@utils.arg(
    "--min-disk",
    type=utils.positive_int,
    metavar="<size-gb>",
    help="Only flavors with at least this much disk (GiB).",
)
@utils.arg("--long", action="store_true", help="Also list swap, RX/TX factor and properties.")
@utils.arg(
    "--sort",
    type=utils.arg_type(_sort, "KEY[:DIR]"),
    metavar="<key>[:<asc|desc>]",
    help="Sort on the cloud by a flavor field (flavorid, name, "
    "memory_mb, vcpus, root_gb, …); --sort-column sorts the "
    "rows here instead.",
)
@utils.arg(
    "--limit",
    type=utils.list_limit,
    default=None,
    metavar="<n>",
    help="At most this many flavors (-1: all).",
)
@utils.arg("--marker", metavar="<flavor-id>", help="Start after this flavor.")
@utils.option_names(sort_key="--sort", sort_dir="--sort")
@utils.output("list")
def do_flavor_list(client, args):
    """List flavors.

    Members see the public flavors and the private ones their project may
    use; --private and --all are for admins (nova ignores them for
    others).

    Example: occli flavor list --all
    """
    sort_key, sort_dir = args.sort or (None, None)
    client.flavors.check_list(sort_key=sort_key, sort_dir=sort_dir)
    is_public = {"private": False, "all": "all"}.get(args.visibility)
    flavors = client.flavors.iter(
        limit=args.limit,
        marker=args.marker,
        is_public=is_public,
        min_ram=args.min_ram,
        min_disk=args.min_disk,
        sort_key=sort_key,
        sort_dir=sort_dir,
    )
    cols = [
        "id",
        "name",
        "ram",
        "disk",
        "OS-FLV-EXT-DATA:ephemeral",
        "vcpus",
        "os-flavor-access:is_public",
    ]
    headers = ["ID", "Name", "RAM", "Disk", "Ephemeral", "VCPUs", "Is Public"]
    if args.long:
        cols += ["swap", "rxtx_factor", "extra_specs"]
        headers += ["Swap", "RXTX Factor", "Properties"]
        flavors = (_properties_of(client, f) for f in flavors)
    return columns.table(flavors, cols, headers=headers, formatters=_FORMATTERS)


@utils.arg("flavor", **_FLAVOR_ARG)
@utils.output("show")
def do_flavor_show(client, args):
    """Show a flavor and its properties.

    For a private flavor an admin also sees the projects that may use it.

    Example: occli flavor show m1.tiny
    """
    flavor = client.flavors.find_resource(args.flavor)
    return _show(_properties_of(client, flavor), _access(client, flavor))


# -- create, set, unset, delete -----------------------------------------------


@utils.arg("name", metavar="<flavor-name>", help="Name of the new flavor.")
@utils.arg(
    "--id",
    dest="flavor_id",
    metavar="<id>",
    help="Its ID (default, or 'auto': the cloud picks a UUID).",
)
@utils.arg(
    "--ram",
    type=utils.positive_int,
    default=256,
    metavar="<size-mb>",
    help="Memory in MiB (default 256).",
)
@utils.arg(
    "--disk",
    type=utils.non_negative_int,
    default=0,
    metavar="<size-gb>",
    help="Root disk in GiB (default 0: volume-backed servers only, for members).",
)
@utils.arg(
    "--ephemeral",
    type=utils.non_negative_int,
    default=0,
    metavar="<size-gb>",
    help="Ephemeral disk in GiB (default 0).",
)
@utils.arg(
    "--swap",
    type=utils.non_negative_int,
    default=0,
    metavar="<size-mb>",
    help="Swap in MiB (default 0).",
)
@utils.arg(
    "--vcpus",
    type=utils.positive_int,
    default=1,
    metavar="<vcpus>",
    help="Virtual CPUs (default 1).",
)
@utils.arg(
    "--rxtx-factor",
    type=float,
    metavar="<factor>",
    help="RX/TX factor (compute API 2.101 or earlier).",
)
@utils.arg(
    "--public",
    dest="public",
    action=utils.Switch,
    const=True,
    other="--private",
    default=None,
    help="Any project may use it (the default).",
)
@utils.arg(
    "--private",
    dest="public",
    action=utils.Switch,
    const=False,
    other="--public",
    help="Only the projects given access may use it.",
)
@utils.property_option("An extra spec (repeat for several).", pairs=False)
@utils.arg(
    "--project",
    metavar="<project>",
    help="Give this project (name or ID) access (needs --private).",
)
@utils.arg("--project-domain", **_PROJECT_DOMAIN)
@utils.arg(
    "--description", metavar="<description>", help="Description (compute API 2.55 or later)."
)
@utils.option_names(rxtx_factor="--rxtx-factor", description="--description")
@utils.output("show")
def do_flavor_create(client, args):
    """Create a flavor (admin).

    With --property or --project the flavor is created, then given them;
    if that fails the new flavor is deleted again (so a corrected retry
    does not meet a half-made one) and the command fails.

    Example: occli flavor create --ram 512 --disk 1 --vcpus 1 m1.small
    """
    if args.project and args.public is not False:
        raise exceptions.ValidationError("--project is only allowed with --private.")
    properties = utils.parse_key_values(args.properties, "--property", max_length=255)
    client.flavors.check_create(rxtx_factor=args.rxtx_factor, description=args.description)
    project = _project_id(client, args.project, args.project_domain) if args.project else None
    flavor_id = None if args.flavor_id in (None, "auto") else args.flavor_id
    flavor = client.flavors.create(
        args.name,
        args.ram,
        args.vcpus,
        args.disk,
        flavor_id=flavor_id,
        ephemeral=args.ephemeral,
        swap=args.swap,
        rxtx_factor=args.rxtx_factor,
        is_public=args.public is not False,
        description=args.description,
    )
    try:
        if project:
            client.flavors.add_tenant_access(flavor, project)
        if properties:
            client.flavors.set_extra_specs(flavor, properties)
            flavor = client.flavors.get(flavor)
    except Exception:
        try:
            client.flavors.delete(flavor)
        except exceptions.ClientException:
            pass
        raise
    if "extra_specs" not in flavor:
        flavor = _properties_of(client, flavor)
    return _show(flavor, [project] if project else ([] if args.public is False else None))


@utils.arg("flavor", **_FLAVOR_ARG)
@utils.property_option("Add or change an extra spec (repeat for several).", pairs=False)
@utils.arg(
    "--no-property",
    action="store_true",
    help="Remove every extra spec first (then add any --property).",
)
@utils.arg(
    "--project",
    metavar="<project>",
    help="Give this project (name or ID) access to the private flavor (admin).",
)
@utils.arg("--project-domain", **_PROJECT_DOMAIN)
@utils.arg(
    "--description", metavar="<description>", help="New description (compute API 2.55 or later)."
)
@utils.option_names(description="--description")
def do_flavor_set(client, args):
    """Change a flavor's description, extra specs or access (admin).

    Errors found before any change (a malformed --property, --description
    below compute API 2.55, --project for a public flavor, an unknown
    project) change nothing.

    Example: occli flavor set --property hw:cpu_policy=dedicated m1.small
    """
    properties = utils.parse_key_values(args.properties, "--property", max_length=255)
    if not (properties or args.no_property or args.project or args.description is not None):
        raise exceptions.ValidationError(
            "Nothing to set: give --property, --no-property, --project or --description."
        )
    if args.description is not None:
        client.flavors.check_update()
    flavor = client.flavors.find_resource(args.flavor)
    project = None
    if args.project:
        if getattr(flavor, "os-flavor-access:is_public", True) is not False:
            raise exceptions.CommandError("Cannot set access for a public flavor.")
        project = _project_id(client, args.project, args.project_domain)
    if args.description is not None:
        client.flavors.update(flavor, args.description)
    if args.no_property:
        for key in _properties_of(client, flavor)["extra_specs"]:
            if key not in properties:
                client.flavors.unset_extra_spec(flavor, key)
    if properties:
        client.flavors.set_extra_specs(flavor, properties)
    if project:
        client.flavors.add_tenant_access(flavor, project)


@utils.arg("flavor", **_FLAVOR_ARG)
@utils.arg(
    "--property",
    dest="properties",
    metavar="<key>",
    action="append",
    default=[],
    help="Remove this extra spec (repeat for several).",
)
@utils.arg(
    "--project",
    metavar="<project>",
    help="Take access away from this project (name or ID; admin).",
)
@utils.arg("--project-domain", **_PROJECT_DOMAIN)
def do_flavor_unset(client, args):
    """Remove extra specs or a project's access from a flavor (admin).

    Example: occli flavor unset --property hw:cpu_policy m1.small
    """
    if not (args.properties or args.project):
        raise exceptions.ValidationError("Nothing to unset: give --property or --project.")
    if not all(key.strip() for key in args.properties):
        raise exceptions.ValidationError("--property expects a key.")
    flavor = client.flavors.find_resource(args.flavor)
    if args.project and getattr(flavor, "os-flavor-access:is_public", True) is not False:
        raise exceptions.CommandError("Cannot remove access for a public flavor.")
    project = (
        _project_id(client, args.project, args.project_domain, must_exist=False)
        if args.project
        else None
    )
    code = utils.for_each(
        args.properties,
        lambda key: client.flavors.unset_extra_spec(flavor, key),
        "unset flavor property",
    )
    if project:
        client.flavors.remove_tenant_access(flavor, project)
    return code


@utils.arg("flavors", metavar="<flavor>", nargs="+", help="Flavor(s) to delete (name or ID).")
@utils.concurrency_option
def do_flavor_delete(client, args):
    """Delete flavors (admin).

    Servers keep the flavor they were built with.

    Example: occli flavor delete m1.small
    """
    manager = client.flavors
    return utils.for_each(
        args.flavors,
        lambda f: manager.delete(manager.find_resource(f)),
        "delete flavor",
        concurrency=args.concurrency,
    )
