"""Identity administration: projects, users, roles, role assignments and
domains, with OpenStackClient's names and options.

Projects, users and domains are named by name or id; a project or user
name is looked up in ``--domain`` (``--project-domain``/``--user-domain``
where both appear) when given. Most of these commands need the admin role;
a member may show its own project and user and change its own password.
"""

from occli import columns
from occli import exceptions
from occli import utils
from occli.v2.identity import project_tags

_HIDDEN = ("links",)


def _show(resource):
    info = {k: v for k, v in resource.to_dict().items() if k not in _HIDDEN}
    info.pop("password", None)  # never shown, were a cloud to echo it
    return columns.show(info)


def _domain_id(client, domain):
    return None if domain is None else client.domains.find_resource(domain).id


def _project(client, name_or_id, domain=None):
    return client.projects.find_resource(name_or_id, domain=domain)


def _user(client, name_or_id, domain=None):
    return client.users.find_resource(name_or_id, domain=domain)


def enable_options(what, default=" (default)"):
    """``--enable``/``--disable`` (``args.enabled``: True, False, or None
    when neither is given)."""

    def decorator(func):
        func = utils.arg(
            "--disable",
            dest="enabled",
            action="store_const",
            const=False,
            help="Disable the %s." % what,
        )(func)
        return utils.arg(
            "--enable",
            dest="enabled",
            action="store_const",
            const=True,
            help="Enable the %s%s." % (what, default),
        )(func)

    return decorator


def or_show_option(what):
    """``--or-show`` of a create command (``args.or_show``): show the
    existing ``what`` of that name instead of failing on a conflict."""
    return utils.arg(
        "--or-show",
        action="store_true",
        help="Show the existing %s of that name instead of failing." % what,
    )


def _enabled(args):
    """The state to create with: enabled unless ``--disable``."""
    return args.enabled is not False


# -- projects ------------------------------------------------------------------


@utils.arg("--domain", metavar="<domain>", help="Only projects of this domain (name or ID).")
@utils.arg("--parent", metavar="<parent>", help="Only the children of this project (name or ID).")
@utils.arg(
    "--user", metavar="<user>", help="Only the projects this user has a role on (name or ID)."
)
@utils.arg("--long", action="store_true", help="Also list domain, description and status.")
@project_tags.filter_options
@utils.output("list")
def do_project_list(client, args):
    """List projects.

    Example: occli project list --domain default
    """
    cols = ["id", "name"]
    headers = ["ID", "Name"]
    if args.long:
        cols += ["domain_id", "description", "enabled"]
        headers += ["Domain ID", "Description", "Enabled"]
    domain = _domain_id(client, args.domain)
    if args.user:
        projects = client.users.iter_projects(_user(client, args.user))
        if domain is not None:
            projects = [p for p in projects if p.domain_id == domain]
    else:
        parent = _project(client, args.parent, domain).id if args.parent else None
        projects = client.projects.iter(
            domain=domain, parent=parent, tag_filters=project_tags.filters(args)
        )
    return columns.table(projects, cols, headers=headers)


@utils.arg("project", metavar="<project>", help="Project (name or ID).")
@utils.arg("--domain", metavar="<domain>", help="Domain owning the project (name or ID).")
@utils.output("show")
def do_project_show(client, args):
    """Show a project.

    Example: occli project show team-a
    """
    project = _project(client, args.project, args.domain)
    return _show(client.projects.get(project))


@utils.arg("name", metavar="<project-name>", help="Name of the new project.")
@utils.arg(
    "--domain",
    metavar="<domain>",
    help="Domain owning the project (name or ID; default: the token's domain or Default).",
)
@utils.arg("--parent", metavar="<project>", help="Parent of the project (name or ID).")
@utils.arg("--description", metavar="<description>", help="Project description.")
@utils.property_option("Set a property on the project (repeat for several).", pairs=False)
@utils.arg(
    "--tag",
    dest="tags",
    metavar="<tag>",
    action="append",
    help="Add a tag to the project (repeat for several).",
)
@enable_options("project")
@or_show_option("project")
@utils.output("show")
def do_project_create(client, args):
    """Create a project (admin).

    Example: occli project create --domain default --description 'Team A' team-a
    """
    properties = utils.parse_key_values(args.properties, "--property")
    domain = _domain_id(client, args.domain)
    parent = _project(client, args.parent, domain).id if args.parent else None
    try:
        project = client.projects.create(
            args.name,
            domain=domain,
            description=args.description,
            enabled=_enabled(args),
            parent=parent,
            tags=args.tags,
            **properties,
        )
    except exceptions.Conflict:
        if not args.or_show:
            raise
        project = _project(client, args.name, domain)
    return _show(project)


@utils.arg("projects", metavar="<project>", nargs="+", help="Project(s) to delete (name or ID).")
@utils.arg("--domain", metavar="<domain>", help="Domain owning the projects (name or ID).")
@utils.concurrency_option
def do_project_delete(client, args):
    """Delete projects (admin; a project with children cannot be deleted).

    Example: occli project delete team-a
    """
    domain = _domain_id(client, args.domain)
    return utils.for_each(
        args.projects,
        lambda p: client.projects.delete(_project(client, p, domain)),
        "delete project",
        concurrency=args.concurrency,
    )


@utils.arg("project", metavar="<project>", help="Project to change (name or ID).")
@utils.arg("--domain", metavar="<domain>", help="Domain owning the project (name or ID).")
@utils.arg("--name", metavar="<name>", help="New name.")
@utils.arg("--description", metavar="<description>", help="New description.")
@utils.property_option("Set a property on the project (repeat for several).", pairs=False)
@project_tags.set_options
@enable_options("project", default="")
def do_project_set(client, args):
    """Change a project (admin; disabling it ends the tokens scoped to it).

    Example: occli project set --disable --property tier=gold team-a
    """
    properties = utils.parse_key_values(args.properties, "--property")
    changes = dict(name=args.name, description=args.description, enabled=args.enabled)
    tagging = project_tags.wanted(args)
    if not properties and not tagging and all(value is None for value in changes.values()):
        raise exceptions.ValidationError(
            "Nothing to change: give --name, --description, --property, --enable or --disable."
        )
    project = _project(client, args.project, _domain_id(client, args.domain))
    if tagging:
        changes["tags"] = project_tags.updated(args, getattr(project, "tags", None))
    client.projects.update(project, **changes, **properties)


# -- users ---------------------------------------------------------------------


@utils.arg("--domain", metavar="<domain>", help="Only users of this domain (name or ID).")
@utils.arg(
    "--project", metavar="<project>", help="Only users with a role on this project (name or ID)."
)
@utils.arg(
    "--long",
    action="store_true",
    help="Also list default project, domain, description, email and status.",
)
@utils.output("list")
def do_user_list(client, args):
    """List users (admin).

    Example: occli user list --domain default
    """
    cols = ["id", "name"]
    headers = ["ID", "Name"]
    if args.long:
        cols += ["default_project_id", "domain_id", "description", "email", "enabled"]
        headers += ["Project", "Domain", "Description", "Email", "Enabled"]
    domain = _domain_id(client, args.domain)
    users = client.users.iter(domain=domain)
    if args.project:
        project = _project(client, args.project, domain)
        ids = {a.user["id"] for a in client.role_assignments.iter(project=project) if "user" in a}
        users = [u for u in users if u.id in ids]
    return columns.table(users, cols, headers=headers)


@utils.arg("user", metavar="<user>", help="User (name or ID).")
@utils.arg("--domain", metavar="<domain>", help="Domain owning the user (name or ID).")
@utils.output("show")
def do_user_show(client, args):
    """Show a user.

    Example: occli user show alice
    """
    return _show(client.users.get(_user(client, args.user, args.domain)))


def _prompt_password(
    prompt="User Password: ",
    confirm=True,
    no_terminal="--password-prompt needs a terminal; give --password instead.",
):
    """A password read from the terminal (twice if ``confirm``, as OSC's
    ``get_password``), never echoed; a usage error ``no_terminal`` when
    stdin is not a terminal (nothing is read from a pipe)."""
    import getpass
    import sys

    if not sys.stdin.isatty():
        raise exceptions.ValidationError(no_terminal)
    first = getpass.getpass(prompt)
    second = getpass.getpass("Repeat " + prompt) if confirm else first
    if first != second:
        raise exceptions.CommandError("The passwords entered were not the same.")
    if not first:
        raise exceptions.CommandError("No password entered.")
    return first


@utils.arg("name", metavar="<name>", help="Name of the new user.")
@utils.arg(
    "--domain",
    metavar="<domain>",
    help="Domain owning the user (name or ID; default: the token's domain or Default).",
)
@utils.arg("--project", metavar="<project>", help="Default project of the user (name or ID).")
@utils.arg(
    "--project-domain", metavar="<project-domain>", help="Domain owning --project (name or ID)."
)
@utils.arg("--password", metavar="<password>", help="Password of the user.")
@utils.arg(
    "--password-prompt",
    action="store_true",
    help="Ask for the password on the terminal (not echoed).",
)
@utils.arg("--email", metavar="<email-address>", help="Email address.")
@utils.arg("--description", metavar="<description>", help="User description.")
@enable_options("user")
@or_show_option("user")
@utils.output("show")
def do_user_create(client, args):
    """Create a user (admin).

    Example: occli user create --domain default --password-prompt alice
    """
    if args.password is not None and args.password_prompt:
        raise exceptions.ValidationError("Give --password or --password-prompt, not both.")
    password = _prompt_password() if args.password_prompt else args.password
    domain = _domain_id(client, args.domain)
    project = _project(client, args.project, args.project_domain).id if args.project else None
    try:
        user = client.users.create(
            args.name,
            domain=domain,
            password=password,
            email=args.email,
            description=args.description,
            default_project=project,
            enabled=_enabled(args),
        )
    except exceptions.Conflict:
        if not args.or_show:
            raise
        user = _user(client, args.name, domain)
    return _show(user)


@utils.arg("users", metavar="<user>", nargs="+", help="User(s) to delete (name or ID).")
@utils.arg("--domain", metavar="<domain>", help="Domain owning the users (name or ID).")
@utils.concurrency_option
def do_user_delete(client, args):
    """Delete users (admin; their tokens stop working).

    Example: occli user delete alice
    """
    domain = _domain_id(client, args.domain)
    return utils.for_each(
        args.users,
        lambda u: client.users.delete(_user(client, u, domain)),
        "delete user",
        concurrency=args.concurrency,
    )


@utils.arg("user", metavar="<user>", help="User to change (name or ID).")
@utils.arg("--domain", metavar="<domain>", help="Domain owning the user (name or ID).")
@utils.arg("--name", metavar="<name>", help="New name.")
@utils.arg("--project", metavar="<project>", help="New default project (name or ID).")
@utils.arg(
    "--project-domain", metavar="<project-domain>", help="Domain owning --project (name or ID)."
)
@utils.arg("--password", metavar="<password>", help="New password.")
@utils.arg(
    "--password-prompt",
    action="store_true",
    help="Ask for the new password on the terminal (not echoed).",
)
@utils.arg("--email", metavar="<email-address>", help="New email address.")
@utils.arg("--description", metavar="<description>", help="New description.")
@enable_options("user", default="")
def do_user_set(client, args):
    """Change a user (admin; a new password or disabling ends its tokens).

    Example: occli user set --disable alice
    """
    if args.password is not None and args.password_prompt:
        raise exceptions.ValidationError("Give --password or --password-prompt, not both.")
    changes = dict(
        name=args.name,
        password=args.password,
        email=args.email,
        description=args.description,
        enabled=args.enabled,
    )
    if not (args.project or args.password_prompt) and all(v is None for v in changes.values()):
        raise exceptions.ValidationError(
            "Nothing to change: give --name, --project, --password, --password-prompt,"
            " --email, --description, --enable or --disable."
        )
    if args.password_prompt:
        changes["password"] = _prompt_password()
    user = _user(client, args.user, _domain_id(client, args.domain))
    project = _project(client, args.project, args.project_domain) if args.project else None
    client.users.update(user, default_project=project, **changes)


@utils.arg("--password", metavar="<new-password>", help="New password (asked if not given).")
@utils.arg(
    "--original-password",
    metavar="<original-password>",
    help="Current password (asked if not given).",
)
def do_user_password_set(client, args):
    """Change your own password (your tokens, this one too, stop working).

    A password not given is asked for on the terminal (not echoed); with
    no terminal the command refuses.

    Example: occli user password set --original-password "$OLD" --password "$NEW"
    """
    original = args.original_password
    if original is None:
        original = _prompt_password(
            "Current Password: ",
            confirm=False,
            no_terminal="No terminal to ask for the current password on;"
            " give --original-password.",
        )
    password = args.password
    if password is None:
        password = _prompt_password(
            "New Password: ",
            no_terminal="No terminal to ask for the new password on; give --password.",
        )
    user_id = client.checked_token().user_id
    client.users.change_password(user_id, original, password)
    client.forget_token()  # revoked with every token of the user


# -- roles ---------------------------------------------------------------------


@utils.output("list")
def do_role_list(client, args):
    """List roles (admin).

    Example: occli role list
    """
    return columns.table(client.roles.iter(), ("id", "name"), headers=("ID", "Name"))


@utils.arg("role", metavar="<role>", help="Role (name or ID).")
@utils.output("show")
def do_role_show(client, args):
    """Show a role (admin).

    Example: occli role show member
    """
    return _show(client.roles.get(client.roles.find_resource(args.role)))


@utils.arg("name", metavar="<role-name>", help="Name of the new role.")
@utils.arg("--description", metavar="<description>", help="Role description.")
@or_show_option("role")
@utils.output("show")
def do_role_create(client, args):
    """Create a role (admin).

    Example: occli role create auditor
    """
    try:
        role = client.roles.create(args.name, description=args.description)
    except exceptions.Conflict:
        if not args.or_show:
            raise
        role = client.roles.find_resource(args.name)
    return _show(role)


@utils.arg("roles", metavar="<role>", nargs="+", help="Role(s) to delete (name or ID).")
@utils.concurrency_option
def do_role_delete(client, args):
    """Delete roles (admin; their assignments go with them).

    Example: occli role delete auditor
    """
    return utils.for_each(
        args.roles,
        lambda r: client.roles.delete(client.roles.find_resource(r)),
        "delete role",
        concurrency=args.concurrency,
    )


@utils.arg("role", metavar="<role>", help="Role to change (name or ID).")
@utils.arg("--name", metavar="<name>", help="New name.")
@utils.arg("--description", metavar="<description>", help="New description.")
def do_role_set(client, args):
    """Change a role's name or description (admin).

    Example: occli role set --description 'Reads audit logs' auditor
    """
    if args.name is None and args.description is None:
        raise exceptions.ValidationError("Nothing to change: give --name or --description.")
    role = client.roles.find_resource(args.role)
    client.roles.update(role, name=args.name, description=args.description)


def _grant_options(func):
    options = (
        (("role",), dict(metavar="<role>", help="Role (name or ID).")),
        (("--user",), dict(metavar="<user>", help="User (name or ID).")),
        (
            ("--user-domain",),
            dict(metavar="<user-domain>", help="Domain owning --user (name or ID)."),
        ),
        (("--group",), dict(metavar="<group>", help="Group (name or ID), instead of --user.")),
        (
            ("--group-domain",),
            dict(metavar="<group-domain>", help="Domain owning --group (name or ID)."),
        ),
        (
            ("--project",),
            dict(metavar="<project>", help="The role is on this project (name or ID)."),
        ),
        (
            ("--project-domain",),
            dict(metavar="<project-domain>", help="Domain owning --project (name or ID)."),
        ),
        (("--domain",), dict(metavar="<domain>", help="The role is on this domain (name or ID).")),
        (
            ("--system",),
            dict(metavar="<system>", choices=["all"], help="The role is on the system (all)."),
        ),
    )
    for args, kwargs in reversed(options):
        func = utils.arg(*args, **kwargs)(func)
    return utils.option_names(
        user="--user", group="--group", project="--project", domain="--domain", system="--system"
    )(func)


def _grant_targets(client, args):
    """``(role, user, project, domain, group)`` of ``role add|remove``,
    checked before any lookup."""
    client.roles.check_grant(
        user=args.user,
        project=args.project,
        domain=args.domain,
        group=args.group,
        system=args.system,
    )
    user = _user(client, args.user, args.user_domain) if args.user else None
    group = (
        client.groups.find_resource(args.group, domain=args.group_domain) if args.group else None
    )
    project = _project(client, args.project, args.project_domain) if args.project else None
    domain = client.domains.find_resource(args.domain) if args.domain else None
    role = client.roles.find_resource(args.role)
    return role, user, project, domain, group


@_grant_options
def do_role_add(client, args):
    """Give a user or a group a role on a project, a domain or the system (admin).

    Example: occli role add --group developers --project team-a member
    """
    role, user, project, domain, group = _grant_targets(client, args)
    client.roles.grant(role, user, project=project, domain=domain, group=group, system=args.system)


@_grant_options
def do_role_remove(client, args):
    """Take a role away from a user or group: on a project, domain or system (admin).

    Example: occli role remove --user alice --project team-a member
    """
    role, user, project, domain, group = _grant_targets(client, args)
    client.roles.revoke(
        role, user, project=project, domain=domain, group=group, system=args.system
    )


_ASSIGNMENT_HEADERS = ("Role", "User", "Group", "Project", "Domain", "System", "Inherited")


def _named(ref):
    """``name@domain`` of an ``include_names`` reference (OSC's form)."""
    if not ref:
        return ""
    name = ref.get("name") or ref.get("id", "")
    domain = ref.get("domain")
    return "%s@%s" % (name, domain.get("name") or domain.get("id")) if domain else name


def _assignment_row(assignment, names):
    info = assignment.to_dict()
    scope = info.get("scope") or {}
    project, domain = scope.get("project"), scope.get("domain")
    role, user, group = info.get("role"), info.get("user"), info.get("group")
    if names:
        cells = (
            _named(role),
            _named(user),
            _named(group),
            _named(project),
            (domain or {}).get("name", ""),
        )
    else:
        cells = tuple((ref or {}).get("id", "") for ref in (role, user, group, project, domain))
    system = "all" if scope.get("system") else ""
    inherited = bool(scope.get("OS-INHERIT:inherited_to"))
    return cells + (system, inherited)


@utils.arg("--user", metavar="<user>", help="Only this user's (name or ID).")
@utils.arg("--user-domain", metavar="<user-domain>", help="Domain owning --user (name or ID).")
@utils.arg("--group", metavar="<group>", help="Only this group's (name or ID).")
@utils.arg("--group-domain", metavar="<group-domain>", help="Domain owning --group (name or ID).")
@utils.arg("--project", metavar="<project>", help="Only those on this project (name or ID).")
@utils.arg(
    "--project-domain", metavar="<project-domain>", help="Domain owning --project (name or ID)."
)
@utils.arg("--domain", metavar="<domain>", help="Only those on this domain (name or ID).")
@utils.arg("--system", metavar="<system>", choices=["all"], help="Only those on the system (all).")
@utils.arg("--role", metavar="<role>", help="Only this role (name or ID).")
@utils.arg(
    "--auth-user",
    action="store_true",
    help="Only the assignments of the user of the token in use.",
)
@utils.arg(
    "--auth-project", action="store_true", help="Only those on the project of the token in use."
)
@utils.arg(
    "--effective",
    action="store_true",
    help="List what users have: their groups' roles too, and the roles the assigned ones imply.",
)
@utils.arg("--names", action="store_true", help="Show names instead of IDs.")
@utils.option_names(
    project="--project",
    domain="--domain",
    user="--user",
    group="--group",
    effective="--effective",
    system="--system",
)
@utils.output("list")
def do_role_assignment_list(client, args):
    """List role assignments (admin).

    Example: occli role assignment list --user alice --names
    """
    if args.user and args.auth_user:
        raise exceptions.ValidationError("Give --user or --auth-user, not both.")
    if args.project and args.auth_project:
        raise exceptions.ValidationError("Give --project or --auth-project, not both.")
    client.role_assignments.check_list(
        project=args.project or args.auth_project or None,
        domain=args.domain,
        user=args.user or args.auth_user or None,
        group=args.group,
        effective=args.effective,
        system=args.system,
    )
    access = None
    if args.auth_user or args.auth_project:
        access = client.checked_token()
    user = (
        access.user_id
        if access is not None and args.auth_user
        else _user(client, args.user, args.user_domain)
        if args.user
        else None
    )
    project = (
        access.project_id
        if access is not None and args.auth_project
        else _project(client, args.project, args.project_domain)
        if args.project
        else None
    )
    domain = client.domains.find_resource(args.domain) if args.domain else None
    role = client.roles.find_resource(args.role) if args.role else None
    group = (
        client.groups.find_resource(args.group, domain=args.group_domain) if args.group else None
    )
    assignments = client.role_assignments.iter(
        group=group,
        user=user,
        project=project,
        domain=domain,
        role=role,
        effective=args.effective,
        include_names=args.names,
        system=args.system,
    )
    return _ASSIGNMENT_HEADERS, [_assignment_row(a, args.names) for a in assignments]


# -- domains -------------------------------------------------------------------


@utils.output("list")
def do_domain_list(client, args):
    """List domains (admin).

    Example: occli domain list
    """
    return columns.table(
        client.domains.iter(),
        ("id", "name", "enabled", "description"),
        headers=("ID", "Name", "Enabled", "Description"),
    )


@utils.arg("domain", metavar="<domain>", help="Domain (name or ID).")
@utils.output("show")
def do_domain_show(client, args):
    """Show a domain.

    Example: occli domain show team-a
    """
    return _show(client.domains.get(client.domains.find_resource(args.domain)))


@utils.arg("name", metavar="<domain-name>", help="Name of the new domain.")
@utils.arg("--description", metavar="<description>", help="Domain description.")
@enable_options("domain")
@or_show_option("domain")
@utils.output("show")
def do_domain_create(client, args):
    """Create a domain (admin).

    Example: occli domain create --description 'Team A' team-a
    """
    try:
        domain = client.domains.create(
            args.name, description=args.description, enabled=_enabled(args)
        )
    except exceptions.Conflict:
        if not args.or_show:
            raise
        domain = client.domains.find_resource(args.name)
    return _show(domain)


@utils.arg("domain", metavar="<domain>", help="Domain (name or ID).")
@utils.arg("--name", metavar="<name>", help="New name.")
@utils.arg("--description", metavar="<description>", help="New description.")
@enable_options("domain", default="")
def do_domain_set(client, args):
    """Change a domain (admin; disable it before deleting it).

    Example: occli domain set --disable team-a
    """
    changes = dict(name=args.name, description=args.description, enabled=args.enabled)
    if all(value is None for value in changes.values()):
        raise exceptions.ValidationError(
            "Nothing to change: give --name, --description, --enable or --disable."
        )
    domain = client.domains.find_resource(args.domain)
    client.domains.update(domain, **changes)


@utils.arg(
    "domains",
    metavar="<domain>",
    nargs="+",
    help="Domain(s) to delete (name or ID; disabled first).",
)
@utils.concurrency_option
def do_domain_delete(client, args):
    """Delete domains with their projects and users (admin).

    Each domain must be disabled first.

    Example: occli domain delete team-a
    """
    return utils.for_each(
        args.domains,
        lambda d: client.domains.delete(client.domains.find_resource(d)),
        "delete domain",
        concurrency=args.concurrency,
    )
