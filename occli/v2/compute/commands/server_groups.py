"""Server group commands: ``server group create/list/show/delete``.

Groups are named by name or ID. The policy is shown as ``policy`` whatever
the microversion (a ``policies`` list before 2.64), the members as a list
of server IDs.
"""

from occli import columns
from occli import exceptions
from occli import utils

_FORMATTERS = {"members": columns.ListColumn, "rules": columns.DictColumn}
_GROUP_ARG = dict(metavar="<server-group>", help="Server group (name or ID).")


def _info(group):
    info = group.to_dict()
    info.pop("policies", None)
    info.pop("metadata", None)
    info["policy"] = group.policy
    info.setdefault("rules", {})
    return info


def _show(group):
    return columns.show(_info(group), formatters=_FORMATTERS)


def _rule(text):
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise exceptions.ValidationError("--rule expects KEY=VALUE, got %r." % text)
    return key, value


@utils.arg("name", metavar="<name>", help="Name of the new server group.")
@utils.arg(
    "--policy",
    metavar="<policy>",
    default="affinity",
    help="affinity (default), anti-affinity, soft-affinity or soft-anti-affinity "
    "(the soft ones from compute API 2.15).",
)
@utils.arg(
    "--rule",
    dest="rules",
    action="append",
    default=[],
    metavar="<key=value>",
    type=utils.arg_type(_rule, "--rule"),
    help="A rule of an anti-affinity group: max_server_per_host=N (compute API 2.64+).",
)
@utils.option_names(policy="--policy", rules="--rule")
@utils.output("show")
def do_server_group_create(client, args):
    """Create a server group.

    Servers created with --server-group join it, and the scheduler places
    them by its policy: affinity puts them on one host, anti-affinity on
    different hosts (at most max_server_per_host each); a server that
    cannot be placed ends in ERROR. The soft policies prefer, never refuse.

    Example: occli server group create --policy anti-affinity --rule max_server_per_host=2 web
    """
    rules = dict(args.rules)
    client.server_groups.check_create(args.policy, rules)
    return _show(client.server_groups.create(args.name, args.policy, rules=rules or None))


@utils.arg(
    "--all-projects",
    action="store_true",
    help="Groups of every project (admin; others get their own).",
)
@utils.arg("--long", action="store_true", help="Also show members, project and user.")
@utils.arg("--limit", type=utils.non_negative_int, metavar="<n>", help="At most this many groups.")
@utils.arg(
    "--offset", type=utils.non_negative_int, metavar="<n>", help="Skip this many groups first."
)
@utils.output("list")
def do_server_group_list(client, args):
    """List server groups.

    Example: occli server group list --long
    """
    groups = client.server_groups.iter(
        all_projects=args.all_projects, limit=args.limit, offset=args.offset
    )
    cols = ["id", "name", "policy"]
    headers = ["ID", "Name", "Policy"]
    if args.long:
        cols += ["rules", "members", "project_id", "user_id"]
        headers += ["Rules", "Members", "Project Id", "User Id"]
    return columns.table((_info(g) for g in groups), cols, headers=headers, formatters=_FORMATTERS)


@utils.arg("group", **_GROUP_ARG)
@utils.output("show")
def do_server_group_show(client, args):
    """Show a server group and its members.

    Example: occli server group show web
    """
    return _show(client.server_groups.find_resource(args.group))


@utils.arg("groups", metavar="<server-group>", nargs="+", help="Server group(s) (name or ID).")
@utils.concurrency_option
def do_server_group_delete(client, args):
    """Delete server groups (their servers stay).

    Example: occli server group delete web db
    """
    manager = client.server_groups
    return utils.for_each(
        args.groups,
        lambda ref: manager.delete(manager.find_resource(ref)),
        "delete server group",
        concurrency=args.concurrency,
    )
