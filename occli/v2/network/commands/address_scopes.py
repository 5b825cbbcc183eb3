"""Address scope commands (Neutron): ``address scope …``, with
OpenStackClient's names, options and columns: the address space of one IP
version that subnet pools join."""

from occli import columns
from occli import exceptions
from occli import utils
from occli.v2.network.commands import options

_SCOPE_ARG = dict(metavar="<address-scope>", help="Address scope (name or ID).")


def _show(scope):
    info = scope.to_dict()
    info.pop("tenant_id", None)
    return columns.show(info)


def _share(func):
    return options.switch(
        "shared", "--share", "--no-share", "Share the address scope between projects (admin).",
        "Do not share the address scope between projects.",
    )(func)  # fmt: skip


@utils.arg("--name", metavar="<name>", help="Only the address scopes of this exact name.")
@utils.arg("--ip-version", type=int, choices=(4, 6), help="Only the scopes of this IP version.")
@utils.arg("--project", metavar="<project-id>", help="Only the scopes of this project.")
@options.switch("shared", "--share", "--no-share", "Only the scopes shared between projects.",
                "Only the scopes not shared between projects.")  # fmt: skip
@utils.output("list")
def do_address_scope_list(client, args):
    """List address scopes.

    Example: occli address scope list --ip-version 6
    """
    scopes = client.address_scopes.iter(
        name=args.name, ip_version=args.ip_version, project_id=args.project, shared=args.shared
    )
    return columns.table(
        scopes,
        ["id", "name", "ip_version", "shared", "project_id"],
        ["ID", "Name", "IP Version", "Shared", "Project"],
    )


@utils.arg("address_scope", **_SCOPE_ARG)
@utils.output("show")
def do_address_scope_show(client, args):
    """Show an address scope.

    Example: occli address scope show web-scope
    """
    return _show(client.address_scopes.find_resource(args.address_scope))


@utils.arg("name", metavar="<name>", help="Name of the new address scope.")
@utils.arg("--ip-version", type=int, default=4, choices=(4, 6), help="IP version (default 4).")
@utils.arg("--project", metavar="<project-id>", help="Owner's project (admin).")
@_share
@utils.output("show")
def do_address_scope_create(client, args):
    """Create an address scope.

    Example: occli address scope create --ip-version 6 web-scope
    """
    extra = {"shared": args.shared, "project_id": args.project}
    scope = client.address_scopes.create(
        args.name, args.ip_version, **{k: v for k, v in extra.items() if v is not None}
    )
    return _show(scope)


@utils.arg("address_scope", **_SCOPE_ARG)
@utils.arg("--name", metavar="<name>", help="New name.")
@_share
def do_address_scope_set(client, args):
    """Change an address scope (a shared one cannot be unshared).

    Example: occli address scope set --name web-v6 web-scope
    """
    given = {"name": args.name, "shared": args.shared}
    attributes = {k: v for k, v in given.items() if v is not None}
    if not attributes:
        raise exceptions.ValidationError("Nothing to set: give --name, --share or --no-share.")
    scope = client.address_scopes.find_resource(args.address_scope)
    client.address_scopes.update(scope, **attributes)


@utils.arg("address_scopes", nargs="+", metavar="<address-scope>",
           help="Address scope(s) to delete (name or ID).")  # fmt: skip
def do_address_scope_delete(client, args):
    """Delete address scopes.

    A scope subnet pools belong to cannot be deleted (409).

    Example: occli address scope delete web-scope
    """

    def delete(ref):
        client.address_scopes.delete(client.address_scopes.find_resource(ref))

    return utils.for_each(args.address_scopes, delete, "delete address scope")
