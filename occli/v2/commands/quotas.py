"""Compute quota commands: show, set and revert a project's limits, and
the quota classes (``default`` holds the defaults every project gets).

Projects are named by name or ID (names are looked up in keystone when
the client can; your own project is the default where one may be left
out). Limits are shown with
nova's names, one per row; -1 is unlimited.
"""

import re

from occli import exceptions
from occli import utils

# (option, aliases, nova's name, help)
LIMIT_OPTIONS = (
    ("--instances", (), "instances", "Servers."),
    ("--cores", (), "cores", "vCPUs of all servers."),
    ("--ram", (), "ram", "RAM of all servers, in MB."),
    ("--key-pairs", (), "key_pairs", "Key pairs per user."),
    ("--server-groups", (), "server_groups", "Server groups."),
    ("--server-group-members", (), "server_group_members", "Servers per server group."),
    ("--metadata-items", ("--properties",), "metadata_items", "Metadata items per server."),
    (
        "--injected-files",
        (),
        "injected_files",
        "Personality files per server (compute API before 2.57).",
    ),
    (
        "--injected-file-size",
        (),
        "injected_file_content_bytes",
        "Bytes per personality file (compute API before 2.57).",
    ),
    (
        "--injected-path-size",
        (),
        "injected_file_path_bytes",
        "Characters per personality file path (compute API before 2.57).",
    ),
    ("--floating-ips", (), "floating_ips", "nova-network floating IPs (compute API before 2.36)."),
    ("--fixed-ips", (), "fixed_ips", "nova-network fixed IPs (compute API before 2.36)."),
    (
        "--security-groups",
        ("--secgroups",),
        "security_groups",
        "nova-network security groups (compute API before 2.36).",
    ),
    (
        "--security-group-rules",
        ("--secgroup-rules",),
        "security_group_rules",
        "nova-network security group rules (compute API before 2.36).",
    ),
    ("--networks", (), "networks", "nova-network networks (compute API before 2.36)."),
)
_OPTION_NAMES = {name: option for option, _, name, _ in LIMIT_OPTIONS}
# keystone project IDs: uuid4 hex (or a dashed UUID)
_ID = re.compile(r"^[0-9a-fA-F]{32}$|^[0-9a-fA-F-]{36}$")


#: argparse type of a limit: an integer, -1 for unlimited.
quota_value = utils.int_at_least(-1, "%r: use -1 for unlimited, or 0 or more", "limit")


def _limit_options(func):
    for option, aliases, name, help_text in reversed(LIMIT_OPTIONS):
        func = utils.arg(
            option, *aliases, dest=name, type=quota_value, metavar="<n>", help=help_text
        )(func)
    return utils.option_names(**_OPTION_NAMES)(func)


def project_id(client, name_or_id):
    """The project ID a command means: the token's project when none is
    given or when it names it (by name or ID); a value shaped like a
    keystone ID as it is; else the project of that name or ID (looked up
    in keystone where the client can: an unknown one is NotFound, one the
    caller may not look up is taken as an ID)."""
    session = client.session
    if not name_or_id:
        return session.get_project_id()
    access = session.auth.get_access(session)
    if name_or_id in (access.project_id, access.project_name):
        return access.project_id
    if _ID.match(name_or_id) or "projects" not in type(client).builtin_managers():
        return name_or_id
    try:
        return client.projects.find_resource(name_or_id).id
    except exceptions.NotFound:
        raise
    except exceptions.ClientException:
        return name_or_id


def _rows(info, usage):
    rows = []
    for name in sorted(k for k in info if k != "id"):
        value = info[name]
        if usage:
            rows.append((name, value.get("limit"), value.get("in_use"), value.get("reserved")))
        else:
            rows.append((name, value))
    return rows


@utils.arg(
    "project",
    metavar="<project>",
    nargs="?",
    help="Project ID (or your project's name; default: your "
    "project), or with --class a quota class (default: "
    "default).",
)
@utils.arg(
    "--default",
    action="store_true",
    help="The default limits: what a project without limits of its own gets.",
)
@utils.arg(
    "--class",
    dest="quota_class",
    action="store_true",
    help="Show a quota class instead of a project (admin).",
)
@utils.arg(
    "--usage", action="store_true", help="Also show what the project uses (In Use, Reserved)."
)
@utils.output("list")
def do_quota_show(client, args):
    """Show a project's compute quotas (another project's: admin).

    Example: occli quota show team-a
    """
    if args.quota_class and (args.default or args.usage):
        raise exceptions.ValidationError("--class cannot be combined with --default or --usage.")
    if args.default and args.usage:
        raise exceptions.ValidationError("--usage cannot be combined with --default.")
    if args.quota_class:
        found = client.quota_classes.get(args.project or "default")
    elif args.default:
        found = client.quotas.defaults(project_id(client, args.project))
    else:
        found = client.quotas.get(project_id(client, args.project), detail=args.usage)
    headers = ("Resource", "Limit")
    if args.usage:
        headers += ("In Use", "Reserved")
    return headers, _rows(found.to_dict(), args.usage)


@utils.arg(
    "project",
    metavar="<project>",
    help="Project ID (or your project's name), or with --class a quota class (e.g. default).",
)
@utils.arg(
    "--class",
    dest="quota_class",
    action="store_true",
    help="Set a quota class's limits (default: the defaults of every project).",
)
@utils.arg("--force", action="store_true", help="Allow limits below what the project uses.")
@_limit_options
def do_quota_set(client, args):
    """Set compute quotas of a project or a quota class (admin).

    Example: occli quota set --instances 20 --cores 40 team-a
    """
    limits = {
        name: getattr(args, name)
        for _, _, name, _ in LIMIT_OPTIONS
        if getattr(args, name) is not None
    }
    if not limits:
        raise exceptions.ValidationError("Give at least one limit to set (e.g. --instances).")
    if args.quota_class:
        if args.force:
            raise exceptions.ValidationError("--force applies to projects, not to quota classes.")
        client.quota_classes.check_update(**limits)
        client.quota_classes.update(args.project, **limits)
    else:
        client.quotas.check_update(**limits)
        client.quotas.update(project_id(client, args.project), force=args.force, **limits)


@utils.arg("project", metavar="<project>", help="Project ID (or your project's name).")
def do_quota_delete(client, args):
    """Revert a project's compute quotas to the defaults (admin).

    Example: occli quota delete team-a
    """
    client.quotas.delete(project_id(client, args.project))
