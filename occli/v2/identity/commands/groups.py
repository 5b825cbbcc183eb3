"""Group commands (Keystone): ``group …``, with OpenStackClient's names,
options and columns (``openstackclient/identity/v3/group.py``).

Groups and users are named by name or id; a name is looked up in
``--domain`` (``--group-domain``/``--user-domain`` where both appear) when
given. Managing groups needs the admin role; a user may list its own
groups (``group list --user <itself>``).
"""

from occli import columns
from occli import exceptions
from occli import utils
from occli.v2.identity.commands.identity_admin import or_show_option

# OSC's _format_group
_COLUMNS = ("description", "domain_id", "id", "name")


def _domain_id(client, domain):
    return None if domain is None else client.domains.find_resource(domain).id


def _group(client, name_or_id, domain=None):
    return client.groups.find_resource(name_or_id, domain=domain)


def _user(client, name_or_id, domain=None):
    return client.users.find_resource(name_or_id, domain=domain)


def _membership_options(func):
    """``<group> <user>…`` and their domains (``nargs``: ``+`` for add and
    remove, one user to check)."""
    func = utils.arg(
        "--user-domain", metavar="<user-domain>", help="Domain owning the users (name or ID)."
    )(func)
    return utils.arg(
        "--group-domain", metavar="<group-domain>", help="Domain owning <group> (name or ID)."
    )(func)


@utils.arg("--domain", metavar="<domain>", help="Only groups of this domain (name or ID).")
@utils.arg("--user", metavar="<user>", help="Only the groups of this user (name or ID).")
@utils.arg("--user-domain", metavar="<user-domain>", help="Domain owning --user (name or ID).")
@utils.arg("--long", action="store_true", help="Also list domain and description.")
@utils.output("list")
def do_group_list(client, args):
    """List groups (admin; a user may list its own with --user).

    Example: occli group list --user alice
    """
    cols = ["id", "name"]
    headers = ["ID", "Name"]
    if args.long:
        cols += ["domain_id", "description"]
        headers += ["Domain ID", "Description"]
    domain = _domain_id(client, args.domain)
    user = _user(client, args.user, args.user_domain) if args.user else None
    groups = client.groups.iter(domain=None if user else domain, user=user)
    return columns.table(groups, cols, headers=headers)


@utils.arg("group", metavar="<group>", help="Group (name or ID).")
@utils.arg("--domain", metavar="<domain>", help="Domain owning the group (name or ID).")
@utils.output("show")
def do_group_show(client, args):
    """Show a group (admin).

    Example: occli group show developers
    """
    group = _group(client, args.group, args.domain)
    return columns.show(client.groups.get(group), _COLUMNS)


@utils.arg("name", metavar="<group-name>", help="Name of the new group.")
@utils.arg(
    "--domain",
    metavar="<domain>",
    help="Domain owning the group (name or ID; default: the token's domain or Default).",
)
@utils.arg("--description", metavar="<description>", help="Group description.")
@or_show_option("group")
@utils.output("show")
def do_group_create(client, args):
    """Create a group (admin).

    Example: occli group create --description 'Contract developers' developers
    """
    domain = _domain_id(client, args.domain)
    try:
        group = client.groups.create(args.name, domain=domain, description=args.description)
    except exceptions.Conflict:
        if not args.or_show:
            raise
        group = _group(client, args.name, domain)
    return columns.show(group, _COLUMNS)


@utils.arg("group", metavar="<group>", help="Group (name or ID).")
@utils.arg("--domain", metavar="<domain>", help="Domain owning the group (name or ID).")
@utils.arg("--name", metavar="<name>", help="New name.")
@utils.arg("--description", metavar="<description>", help="New description.")
def do_group_set(client, args):
    """Change a group's name or description (admin).

    Example: occli group set --description 'Full-time developers' developers
    """
    if args.name is None and args.description is None:
        raise exceptions.ValidationError("Nothing to change: give --name or --description.")
    group = _group(client, args.group, args.domain)
    client.groups.update(group, name=args.name, description=args.description)


@utils.arg("groups", metavar="<group>", nargs="+", help="Group(s) to delete (name or ID).")
@utils.arg("--domain", metavar="<domain>", help="Domain owning the groups (name or ID).")
@utils.concurrency_option
def do_group_delete(client, args):
    """Delete groups (admin; their members lose the roles they gave).

    Example: occli group delete developers
    """
    domain = _domain_id(client, args.domain)
    return utils.for_each(
        args.groups,
        lambda g: client.groups.delete(_group(client, g, domain)),
        "delete group",
        concurrency=args.concurrency,
    )


@utils.arg("group", metavar="<group>", help="Group to contain the users (name or ID).")
@utils.arg("users", metavar="<user>", nargs="+", help="User(s) to add (name or ID).")
@_membership_options
def do_group_add_user(client, args):
    """Add users to a group (admin).

    Example: occli group add user developers alice bob
    """
    group = _group(client, args.group, args.group_domain)
    return utils.for_each(
        args.users,
        lambda u: client.groups.add_user(group, _user(client, u, args.user_domain)),
        "add user",
        label=lambda u: "%s to group %s" % (u, args.group),
    )


@utils.arg("group", metavar="<group>", help="Group containing the users (name or ID).")
@utils.arg("users", metavar="<user>", nargs="+", help="User(s) to remove (name or ID).")
@_membership_options
def do_group_remove_user(client, args):
    """Remove users from a group (admin; their tokens are revoked).

    Example: occli group remove user developers alice
    """
    group = _group(client, args.group, args.group_domain)
    return utils.for_each(
        args.users,
        lambda u: client.groups.remove_user(group, _user(client, u, args.user_domain)),
        "remove user",
        label=lambda u: "%s from group %s" % (u, args.group),
    )


@utils.arg("group", metavar="<group>", help="Group to check (name or ID).")
@utils.arg("user", metavar="<user>", help="User to check (name or ID).")
@_membership_options
def do_group_contains_user(client, args):
    """Check whether a user is a member of a group (admin).

    Prints "<user> in group <group>" on stdout, or "<user> not in group
    <group>" on stderr (also when the check is refused); exits 0 either
    way, as OpenStackClient does.

    Example: occli group contains user developers alice
    """
    user = _user(client, args.user, args.user_domain)
    group = _group(client, args.group, args.group_domain)
    try:
        member = client.groups.has_user(group, user)
    except exceptions.Forbidden:
        member = False  # OSC: assume False if forbidden
    if member:
        utils.stdout(args).write("%s in group %s\n" % (args.user, args.group))
    else:
        utils.stderr(args).write("%s not in group %s\n" % (args.user, args.group))
