"""Quota commands: show, set and revert a project's limits, and the
compute quota classes (``default`` holds the defaults every project gets).

As OSC does, they cover the compute, network (Neutron) and volume
(Cinder) services together, skipping a service the catalog lacks.
--floating-ips, --networks, --secgroups and --secgroup-rules set
Neutron's limits when the catalog has a network service and the compute
API in use is 2.36 or later (where nova dropped its own); nova-network's
otherwise.

Projects are named by name or ID (names are looked up in keystone when
the client can; your own project is the default where one may be left
out). Limits are shown as OSC 10.5
shows them (``do_quota_show``), one per row; -1 is unlimited.

--user (novaclient's ``quota-show --user`` and ``quota-update --user``;
OSC has no such option) shows, sets or reverts one user's compute limits
in the project: nova keeps them within what the project's limits leave
and counts that user's servers against them. Neutron and Cinder have no
per-user quotas, so --user takes compute limits only.
"""

import re
from typing import Any

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
    (
        "--floating-ips",
        (),
        "floating_ips",
        "Floating IPs (Neutron's; nova-network's before compute API 2.36).",
    ),
    ("--fixed-ips", (), "fixed_ips", "nova-network fixed IPs (compute API before 2.36)."),
    (
        "--security-groups",
        ("--secgroups",),
        "security_groups",
        "Security groups (Neutron's; nova-network's before compute API 2.36).",
    ),
    (
        "--security-group-rules",
        ("--secgroup-rules",),
        "security_group_rules",
        "Security group rules (Neutron's; nova-network's before compute API 2.36).",
    ),
    (
        "--networks",
        (),
        "networks",
        "Networks (Neutron's; nova-network's before compute API 2.36).",
    ),
)
# (option, Neutron's name, help): limits only Neutron has
NETWORK_OPTIONS = (
    ("--ports", "port", "Ports (network service)."),
    ("--subnets", "subnet", "Subnets (network service)."),
    ("--routers", "router", "Routers (network service)."),
    ("--subnetpools", "subnetpool", "Subnet pools (network service)."),
    ("--rbac-policies", "rbac_policy", "RBAC policies (network service)."),
)
# nova-network's limits Neutron took over: {nova's name: Neutron's}
TO_NEUTRON = {
    "floating_ips": "floatingip",
    "networks": "network",
    "security_groups": "security_group",
    "security_group_rules": "security_group_rule",
}
# (option, Cinder's name, help)
VOLUME_OPTIONS = (
    ("--volumes", "volumes", "Volumes (volume service; per type with --volume-type)."),
    ("--snapshots", "snapshots", "Volume snapshots (volume service; per type too)."),
    ("--gigabytes", "gigabytes", "GiB of volumes and snapshots (volume service; per type too)."),
    ("--backups", "backups", "Volume backups (volume service)."),
    ("--backup-gigabytes", "backup_gigabytes", "GiB of volume backups (volume service)."),
    ("--per-volume-gigabytes", "per_volume_gigabytes", "GiB of one volume (volume service)."),
)
#: the rows OSC 10.5 renames and moves to the end, in this order
#: (openstackclient/common/quota.py ``COMPUTE_QUOTAS``, ``VOLUME_QUOTAS``)
SHOWN_AS = {
    "injected_file_content_bytes": "injected-file-size",
    "injected_file_path_bytes": "injected-path-size",
    "injected_files": "injected-files",
    "key_pairs": "key-pairs",
    "metadata_items": "properties",
    "server_group_members": "server-group-members",
    "server_groups": "server-groups",
    "backup_gigabytes": "backup-gigabytes",
    "per_volume_gigabytes": "per-volume-gigabytes",
}
#: openstacksdk's fields of Nova's and Cinder's quota sets (compute/v2/
#: quota_set.py, block_storage/v3/quota_set.py, in its order, less the
#: ``force`` OSC drops): OSC 10.5 prints a null row for each the answer
#: lacks (nova-network's from compute API 2.36), after the answer's
SDK_COMPUTE_FIELDS = (
    "cores",
    "fixed_ips",
    "floating_ips",
    "injected_file_content_bytes",
    "injected_file_path_bytes",
    "injected_files",
    "instances",
    "key_pairs",
    "metadata_items",
    "networks",
    "ram",
    "security_group_rules",
    "security_groups",
    "server_groups",
    "server_group_members",
)
SDK_VOLUME_FIELDS = (
    "backup_gigabytes",
    "backups",
    "gigabytes",
    "groups",
    "per_volume_gigabytes",
    "snapshots",
    "volumes",
)
#: openstacksdk's fields of Neutron's quotas (network/v2/quota.py, in its
#: order: ``(its name, Neutron's)``), which OSC 10.5 prints under its
#: names, null where Neutron lacks one (Octavia's, ``project_id``): its
#: ``NETWORK_QUOTAS`` renames name Neutron's keys, so they never match. A
#: field in Nova's too (``floating_ips``…) keeps Nova's row, holding Neutron's.
SDK_NETWORK_FIELDS = (
    ("check_limit", "check_limit"),
    ("floating_ips", "floatingip"),
    ("health_monitors", "healthmonitor"),
    ("listeners", "listener"),
    ("load_balancers", "loadbalancer"),
    ("l7_policies", "l7policy"),
    ("networks", "network"),
    ("pools", "pool"),
    ("ports", "port"),
    ("project_id", "project_id"),
    ("tenant_id", "tenant_id"),
    ("rbac_policies", "rbac_policy"),
    ("router_routes", "router_route"),
    ("routers", "router"),
    ("subnets", "subnet"),
    ("subnet_pools", "subnetpool"),
    ("security_group_rules", "security_group_rule"),
    ("security_groups", "security_group"),
)
_OPTION_NAMES = {name: option for option, _, name, _ in LIMIT_OPTIONS}
# keystone project IDs: uuid4 hex (or a dashed UUID)
_ID = re.compile(r"^[0-9a-fA-F]{32}$|^[0-9a-fA-F-]{36}$")


#: argparse type of a limit: an integer, -1 for unlimited.
quota_value = utils.int_at_least(-1, "%r: use -1 for unlimited, or 0 or more", "limit")


def _limit_options(func):
    for option, name, help_text in reversed(VOLUME_OPTIONS + NETWORK_OPTIONS):
        func = utils.arg(
            option, dest="limit_" + name, type=quota_value, metavar="<n>", help=help_text
        )(func)
    for option, aliases, name, help_text in reversed(LIMIT_OPTIONS):
        func = utils.arg(
            option, *aliases, dest=name, type=quota_value, metavar="<n>", help=help_text
        )(func)
    return utils.option_names(**_OPTION_NAMES)(func)


def _service(manager):
    """``manager`` when the catalog has its service, else None."""
    return manager if manager.available() else None


def _neutron_takes_network_limits(client):
    """Whether --floating-ips and the like mean Neutron's limits: a
    network service, and a compute API from 2.36 (without nova's)."""
    if not client.network_quotas.available():
        return False
    return not client.api_version("compute") < "2.36"


def _split_limits(client, args):
    """The limits given, as ``(nova's, Neutron's, Cinder's)``."""
    compute = {
        name: getattr(args, name)
        for _, _, name, _ in LIMIT_OPTIONS
        if getattr(args, name) is not None
    }
    network = {
        name: getattr(args, "limit_" + name)
        for _, name, _ in NETWORK_OPTIONS
        if getattr(args, "limit_" + name) is not None
    }
    volume = {
        name: getattr(args, "limit_" + name)
        for _, name, _ in VOLUME_OPTIONS
        if getattr(args, "limit_" + name) is not None
    }
    if (network or volume) and args.quota_class:
        raise exceptions.ValidationError(
            "Quota classes hold compute limits only; network and volume limits are per project."
        )
    moved = set(compute) & set(TO_NEUTRON)
    if moved and not args.quota_class and _neutron_takes_network_limits(client):
        for name in moved:
            network[TO_NEUTRON[name]] = compute.pop(name)
    if network and not client.network_quotas.available():
        raise exceptions.ValidationError(
            "The catalog has no network service to set %s for." % (", ".join(sorted(network)))
        )
    if volume and not client.volume_quotas.available():
        raise exceptions.ValidationError(
            "The catalog has no volume service to set %s for." % (", ".join(sorted(volume)))
        )
    if args.volume_type and not volume:
        raise exceptions.ValidationError(
            "--volume-type goes with --volumes, --snapshots or --gigabytes."
        )
    return compute, network, volume


def _sdk_fields(found, fields):
    """A quota set's limits (``{name: limit}``, ``id`` left out) as
    openstacksdk gives them: the answer's, then ``fields`` it lacks, null."""
    info = {k: v for k, v in found.items() if k != "id"}
    info.update((name, None) for name in fields if name not in info)
    return info


def _rows(compute, volume, network, usage, key_pairs_used=False, sdk_fields=True):
    """The rows of each service's limits (``{name: limit}``, with ``usage``
    ``{"limit", "in_use" or "used", "reserved"}``; None: not read) as OSC
    10.5's ``ShowQuota`` orders and names them: Nova's (its missing
    openstacksdk fields null, nova-network's rows holding Neutron's
    limits), Cinder's, the rest of Neutron's (openstacksdk's names, null
    where Neutron lacks one, left out with ``usage`` as OSC does), then
    the renamed ones (:data:`SHOWN_AS`). With ``usage`` a null limit is 0
    and key pairs' use "N/A" (nova counts them per user) unless
    ``key_pairs_used``; without ``sdk_fields``, Nova's limits only (a
    quota class: OSC shows none)."""
    info: dict[str, Any] = {}
    if compute is not None:
        info.update(_sdk_fields(compute, SDK_COMPUTE_FIELDS if sdk_fields else ()))
    if volume is not None:
        info.update(_sdk_fields(volume, SDK_VOLUME_FIELDS))
    if network is not None:
        for name, raw in SDK_NETWORK_FIELDS:
            if not usage or isinstance(network.get(raw), dict):
                info[name] = network.get(raw)
    for raw, name in SHOWN_AS.items():
        if info.get(raw) is not None:
            info[name] = info.pop(raw)
    if not usage:
        return list(info.items())
    rows: list[tuple[object, ...]] = []
    for name, value in info.items():
        value = value or {}
        used = value.get("in_use", value.get("used", 0))
        if name == "key-pairs" and not key_pairs_used:
            used = "N/A"
        rows.append((name, value.get("limit") or 0, used, value.get("reserved", 0)))
    return rows


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


def user_id(client, name_or_id):
    """The user ID ``--user`` means: a value shaped like a keystone ID as
    it is, else the user of that name or ID (looked up in keystone where
    the client can; one the caller may not look up is taken as an ID)."""
    if _ID.match(name_or_id) or "users" not in type(client).builtin_managers():
        return name_or_id
    try:
        return client.users.find_resource(name_or_id).id
    except exceptions.NotFound:
        raise
    except exceptions.ClientException:
        return name_or_id


_USER_HELP = "One user's compute limits in the project (user ID or name; admin)."


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
@utils.arg("--compute", action="store_true", help="Only the compute limits.")
@utils.arg("--network", action="store_true", help="Only the network limits.")
@utils.arg("--volume", action="store_true", help="Only the volume limits.")
@utils.arg("--user", metavar="<user>", help=_USER_HELP)
@utils.output("list")
def do_quota_show(client, args):
    """Show a project's quotas (another project's: admin).

    Compute, network and volume limits together, one per row, named and
    ordered as OSC 10.5 shows them (key-pairs, properties, floating_ips,
    ports, backup-gigabytes…, and its null rows of fields that are no
    limits, such as project_id); compute's are read at compute API 2.56
    as OSC reads them (with the injected-file limits) unless
    --os-compute-api-version pins a version. A service the catalog lacks
    is left out. --compute, --network and --volume pick services; --user
    shows one user's compute limits (with --usage, what that user's
    servers and key pairs use).

    Example: occli quota show --usage team-a
    """
    if args.user and (args.quota_class or args.default or args.network or args.volume):
        raise exceptions.ValidationError(
            "--user shows compute limits only: not with --class, --default, --network or --volume."
        )
    if args.quota_class and (args.default or args.usage):
        raise exceptions.ValidationError("--class cannot be combined with --default or --usage.")
    if args.default and args.usage:
        raise exceptions.ValidationError("--usage cannot be combined with --default.")
    picked = args.compute or args.network or args.volume
    if args.quota_class and (args.network or args.volume):
        raise exceptions.ValidationError("--class shows compute limits only.")
    headers: tuple[str, ...] = ("Resource", "Limit")
    if args.usage:
        headers += ("In Use", "Reserved")
    if args.quota_class:
        found = client.quota_classes.get(args.project or "default")
        return headers, _rows(found.to_dict(), None, None, False, sdk_fields=False)
    project = project_id(client, args.project)
    compute = volume = network = None
    if args.compute or not picked:
        # at openstacksdk's microversion, for OSC's rows
        version = client.quotas.osc_version()
        if args.default:
            compute = client.quotas.defaults(project, microversion=version).to_dict()
        else:
            user = user_id(client, args.user) if args.user else None
            found = client.quotas.get(project, args.usage, user_id=user, microversion=version)
            compute = found.to_dict()
        if args.user:
            return headers, _rows(compute, None, None, args.usage, key_pairs_used=True)
    neutron = (args.network or not picked) and _service(client.network_quotas)
    if neutron:
        if args.default:
            network = neutron.defaults(project).to_dict()
        else:
            network = neutron.get(project, detail=args.usage).to_dict()
    cinder = (args.volume or not picked) and _service(client.volume_quotas)
    if cinder:
        if args.default:
            volume = cinder.defaults(project).to_dict()
        else:
            volume = cinder.get(project, usage=args.usage).to_dict()
    return headers, _rows(compute, volume, network, args.usage)


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
@utils.arg(
    "--volume-type",
    metavar="<type>",
    help="Set --volumes, --snapshots and --gigabytes of this volume type only.",
)
@utils.arg("--user", metavar="<user>", help=_USER_HELP)
@_limit_options
def do_quota_set(client, args):
    """Set quotas of a project or of a compute quota class (admin).

    A project's limits cover compute, network and volume. Each limit goes
    to the service that holds it (see the module help: --floating-ips and
    the like are Neutron's from compute API 2.36). --user sets one user's
    compute limits (within what the project's leave).

    Example: occli quota set --instances 20 --ports 100 --volumes 5 team-a
    """
    compute, network, volume = _split_limits(client, args)
    if not (compute or network or volume):
        raise exceptions.ValidationError("Give at least one limit to set (e.g. --instances).")
    if args.user and (args.quota_class or args.volume_type or network or volume):
        raise exceptions.ValidationError(
            "--user sets compute limits only: not with --class, --volume-type, or network or"
            " volume limits."
        )
    if args.quota_class:
        if args.force:
            raise exceptions.ValidationError("--force applies to projects, not to quota classes.")
        client.quota_classes.check_update(**compute)
        client.quota_classes.update(args.project, **compute)
        return
    if compute:
        client.quotas.check_update(**compute)
    if network:
        client.network_quotas.check_update(**network)
    if volume:
        client.volume_quotas.check_update(volume_type=args.volume_type, **volume)
    project = project_id(client, args.project)
    user = user_id(client, args.user) if args.user else None
    if compute:
        client.quotas.update(project, force=args.force, user_id=user, **compute)
    if network:
        client.network_quotas.update(project, force=args.force, **network)
    if volume:
        client.volume_quotas.update(project, volume_type=args.volume_type, **volume)


@utils.arg("project", metavar="<project>", help="Project ID (or your project's name).")
@utils.arg("--user", metavar="<user>", help="Revert one user's compute limits to the project's.")
def do_quota_delete(client, args):
    """Revert a project's quotas to the defaults (admin).

    Compute's, and network's and volume's where the catalog has them;
    with --user, that user's compute limits only.

    Example: occli quota delete team-a
    """
    project = project_id(client, args.project)
    if args.user:
        client.quotas.delete(project, user_id=user_id(client, args.user))
        return
    client.quotas.delete(project)
    for manager in (client.network_quotas, client.volume_quotas):
        if manager.available():
            manager.delete(project)
