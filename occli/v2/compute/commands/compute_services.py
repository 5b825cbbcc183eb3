"""Compute service, hypervisor and limits commands."""

import re

from occli import api_versions
from occli import columns
from occli import exceptions
from occli import utils


@utils.arg("--host", metavar="<host>", help="Only services on this host.")
@utils.arg(
    "--service",
    dest="binary",
    metavar="<binary>",
    help="Only this service binary, e.g. nova-compute.",
)
@utils.arg(
    "--long",
    action="store_true",
    help="Also list why a service is disabled and (compute API 2.11 "
    "or later) whether it is forced down.",
)
@utils.output("list")
def do_compute_service_list(client, args):
    """List compute services (admin).

    From compute API 2.53 the IDs are UUIDs (what "compute service
    delete" takes at that version).

    Example: occli compute service list --service nova-compute
    """
    services = client.services.iter(host=args.host, binary=args.binary)
    cols = ["id", "binary", "host", "zone", "status", "state", "updated_at"]
    headers = ["ID", "Binary", "Host", "Zone", "Status", "State", "Updated At"]
    if args.long:
        cols.append("disabled_reason")
        headers.append("Disabled Reason")
        if api_versions.APIVersion(client.services.api_version) >= "2.11":
            cols.append("forced_down")
            headers.append("Forced Down")
    return columns.table(services, cols, headers=headers)


@utils.arg(
    "services",
    metavar="<service>",
    nargs="+",
    help="Compute service(s) to delete, by ID (a UUID from compute "
    "API 2.53, as 'compute service list' shows it then).",
)
def do_compute_service_delete(client, args):
    """Delete compute services (admin).

    Nova refuses to delete a nova-compute service whose host still runs
    servers (409): migrate or delete them first. Stop the compute
    service's process before deleting it, or it registers again (as the
    local cloud's hosts do when it restarts). Each failure is one line
    on stderr; the command exits 1 if any failed.

    Example: occli compute service delete 7
    """
    return utils.for_each(args.services, client.services.delete, "delete compute service")


@utils.arg("host", metavar="<host>", help="Name of the service's host.")
@utils.arg("service", metavar="<service>", help="Name of the service (binary), e.g. nova-compute.")
@utils.arg(
    "--enable",
    dest="status",
    action=utils.Switch,
    const="enabled",
    other="--disable",
    default=None,
    help="Enable the service: the scheduler may place servers there.",
)
@utils.arg(
    "--disable",
    dest="status",
    action=utils.Switch,
    const="disabled",
    other="--enable",
    help="Disable the service (no new servers).",
)
@utils.arg(
    "--disable-reason",
    metavar="<reason>",
    help="Why the service is disabled (only with --disable).",
)
@utils.arg(
    "--up",
    dest="forced_down",
    action=utils.Switch,
    const=False,
    other="--down",
    default=None,
    help="The service is no longer forced down (API 2.11+).",
)
@utils.arg(
    "--down",
    dest="forced_down",
    action=utils.Switch,
    const=True,
    other="--up",
    help="Force the service down: the scheduler skips it (API 2.11+).",
)
def do_compute_service_set(client, args):
    """Enable, disable or force down a compute service (admin).

    Prints nothing on success: check the result with "occli compute
    service list". --enable/--disable is applied first, then --up/--down
    (compute API 2.11 or later). A disabled service gets no new servers;
    a service forced down is skipped by the scheduler at once.

    Example: occli compute service set --disable compute1 nova-compute
    """
    if args.disable_reason and args.status != "disabled":
        raise exceptions.ValidationError(
            "Cannot specify option --disable-reason without --disable specified."
        )
    if args.status is None and args.forced_down is None:
        raise exceptions.ValidationError(
            "Nothing to set: give --enable, --disable, --up or --down."
        )
    services = client.services
    if args.forced_down is not None:
        services.check_force_down()  # before any change
    if api_versions.APIVersion(services.api_version) >= "2.53":
        target = services.find_by_host(args.host, args.service)
    else:
        target = (args.host, args.service)
    if args.status == "enabled":
        services.enable(target)
    elif args.status == "disabled":
        services.disable(target, reason=args.disable_reason)
    if args.forced_down is not None:
        services.force_down(target, forced_down=args.forced_down)


@utils.arg(
    "--matching",
    metavar="<hostname>",
    help="Only hypervisors whose hostname contains this (before "
    "compute API 2.53 without type and host IP).",
)
@utils.arg(
    "--long",
    action="store_true",
    help="Also list vCPUs and memory, used and total (compute API "
    "2.87 or earlier: nova dropped them at 2.88).",
)
@utils.arg(
    "--limit",
    type=utils.list_limit,
    default=None,
    metavar="<n>",
    help="At most this many hypervisors (-1: all).",
)
@utils.arg(
    "--marker",
    metavar="<hypervisor-id>",
    help="Start after this hypervisor (compute API 2.33 or later).",
)
@utils.option_names(hostname_pattern="--matching", limit="--limit", marker="--marker")
@utils.output("list")
def do_hypervisor_list(client, args):
    """List hypervisors (admin).

    Example: occli hypervisor list --long
    """
    manager = client.hypervisors
    manager.check_list(limit=args.limit, marker=args.marker, hostname_pattern=args.matching)
    hypervisors = manager.iter(
        detailed=True, limit=args.limit, marker=args.marker, hostname_pattern=args.matching
    )
    # OSC's columns (openstackclient/compute/v2/hypervisor.py ListHypervisor)
    cols = ["id", "hypervisor_hostname", "hypervisor_type", "host_ip", "state"]
    headers = ["ID", "Hypervisor Hostname", "Hypervisor Type", "Host IP", "State"]
    if args.long and api_versions.APIVersion(manager.api_version) < "2.88":
        cols += ["vcpus_used", "vcpus", "memory_mb_used", "memory_mb"]
        headers += ["vCPUs Used", "vCPUs", "Memory MB Used", "Memory MB"]
    return columns.table(hypervisors, cols, headers=headers)


_UPTIME = re.compile(r"\s*(.+)\sup\s+(.+),\s+(.+)\susers?,\s+load average:\s(.+)")


def _uptime_fields(uptime):
    """OpenStackClient's reading of ``uptime(1)``'s line: ``host_time``,
    ``uptime``, ``users``, ``load_average`` (nothing if it does not
    parse)."""
    match = _UPTIME.match(uptime or "")
    if not match:
        return {}
    return dict(zip(("host_time", "uptime", "users", "load_average"), match.groups(), strict=True))


@utils.arg("hypervisor", metavar="<hypervisor>", help="Hypervisor (hostname or ID).")
@utils.output("show")
def do_hypervisor_show(client, args):
    """Show a hypervisor (admin).

    Its details, uptime and aggregates, as OSC shows them; -c servers
    adds the servers it runs (UUID and instance name), -c
    service_disabled_reason why its service is disabled.

    Example: occli hypervisor show compute1
    """
    manager = client.hypervisors
    found = manager.find_resource(args.hypervisor)
    hypervisor = manager.get(found, with_servers=True)
    info = hypervisor.to_dict()
    service = info.pop("service", None) or {}
    info["service_id"] = service.get("id")
    info["service_host"] = service.get("host")
    info["service_disabled_reason"] = service.get("disabled_reason")
    info.pop("uptime", None)
    info.update(_uptime_fields(manager.uptime(hypervisor)))
    host = service.get("host") or info.get("hypervisor_hostname")
    info["aggregates"] = [
        a.name for a in client.aggregates.list() if host in (getattr(a, "hosts", None) or ())
    ]
    info["servers"] = [
        "%s (%s)" % (s.get("uuid"), s.get("name")) for s in info.get("servers") or ()
    ]
    if isinstance(info.get("cpu_info"), str):
        # before 2.28 a JSON text
        import json

        try:
            info["cpu_info"] = json.loads(info["cpu_info"] or "{}")
        except ValueError:
            pass
    info.setdefault("cpu_info", None)
    wanted = getattr(args, "columns", None) or ()
    return columns.show(
        info,
        sorted(k for k in info if k not in _HYPERVISOR_EXTRAS or k in wanted),
        formatters={
            "cpu_info": columns.DictColumn,
            "aggregates": columns.ListColumn,
            "servers": columns.ListColumn,
        },
    )


#: what occli shows of a hypervisor beyond OSC's columns, with ``-c`` only
#: (OSC hides ``servers``: openstackclient/compute/v2/hypervisor.py)
_HYPERVISOR_EXTRAS = ("servers", "service_disabled_reason")


@utils.output("show")
def do_hypervisor_stats_show(client, args):
    """Show the sums over every enabled hypervisor (admin).

    Compute API 2.88 removed it: occli asks at 2.87, and refuses when
    --os-compute-api-version pins 2.88 or later.

    Example: occli hypervisor stats show
    """
    return columns.show(client.hypervisors.statistics())


@utils.arg(
    "--absolute",
    dest="kind",
    action=utils.Switch,
    const="absolute",
    other="--rate",
    default=None,
    help="Show the absolute limits and their usage (the default).",
)
@utils.arg(
    "--rate",
    dest="kind",
    action=utils.Switch,
    const="rate",
    other="--absolute",
    help="Show the rate limits (nova has none since Newton).",
)
@utils.arg("--project", metavar="<project>", help="Another project's limits (admin; name or ID).")
@utils.arg(
    "--reserved",
    action="store_true",
    help="Include reserved resources in the usage (nova counts "
    "none; refused when --os-compute-api-version pins 2.75 or later).",
)
@utils.option_names(reserved="--reserved")
@utils.output("list")
def do_limits_show(client, args):
    """Show the project's compute and volume limits: absolute or rate.

    As OSC, compute's are read at compute API 2.1 (openstacksdk's), with
    the image meta, personality and nova-network limits, unless
    --os-compute-api-version pins another version.

    Example: occli limits show --absolute
    """
    from occli.v2.commands.quotas import project_id

    # at openstacksdk's microversion, for OSC's rows
    version = client.limits.osc_version()
    client.limits.check_get(reserved=args.reserved, microversion=version)
    project = project_id(client, args.project) if args.project else None
    found = client.limits.get(project_id=project, reserved=args.reserved, microversion=version)
    info = found.to_dict()
    # as OSC: Cinder's limits after Nova's where the catalog has a volume service
    volume = client.volume_quotas
    cinder = volume.limits(project).to_dict() if volume.available() else {}
    if args.kind == "rate":
        rows = [
            (
                limit.get("verb"),
                rate.get("uri"),
                limit.get("value"),
                limit.get("remaining"),
                limit.get("unit"),
                limit.get("next-available"),
            )
            for rate in (info.get("rate") or []) + (cinder.get("rate") or [])
            for limit in rate.get("limit") or ()
        ]
        return ("Verb", "URI", "Value", "Remain", "Unit", "Next Available"), rows
    absolute = dict(_osc_names(info.get("absolute") or {}, COMPUTE_LIMIT_NAMES))
    absolute.update(_osc_names(cinder.get("absolute") or {}, VOLUME_LIMIT_NAMES))
    return ("Name", "Value"), sorted(absolute.items())


#: Nova's absolute limits under the names OSC 10.5 prints: openstacksdk's
#: compute/v2/limits.py AbsoluteLimits attribute and its ``aka`` (OSC's
#: _format_absolute_limit lists both)
COMPUTE_LIMIT_NAMES = {
    "maxImageMeta": ("image_meta", "max_image_meta"),
    "maxPersonality": ("personality",),
    "maxPersonalitySize": ("personality_size",),
    "maxSecurityGroupRules": ("security_group_rules", "max_security_group_rules"),
    "maxSecurityGroups": ("security_groups", "max_security_groups"),
    "totalSecurityGroupsUsed": ("security_groups_used", "total_security_groups_used"),
    "maxServerMeta": ("server_meta", "max_server_meta"),
    "maxTotalCores": ("total_cores", "max_total_cores"),
    "totalCoresUsed": ("total_cores_used",),
    "maxTotalFloatingIps": ("floating_ips", "max_total_floating_ips"),
    "totalFloatingIpsUsed": ("floating_ips_used", "total_floating_ips_used"),
    "maxTotalInstances": ("instances", "max_total_instances"),
    "totalInstancesUsed": ("instances_used", "total_instances_used"),
    "maxTotalKeypairs": ("keypairs", "max_total_keypairs"),
    "maxTotalRAMSize": ("total_ram", "max_total_ram_size"),
    "totalRAMUsed": ("total_ram_used",),
    "maxServerGroups": ("server_groups", "max_server_groups"),
    "totalServerGroupsUsed": ("server_groups_used", "total_server_groups_used"),
    "maxServerGroupMembers": ("server_group_members", "max_server_group_members"),
}
#: Cinder's, by openstacksdk's block_storage/v3/limits.py AbsoluteLimit
VOLUME_LIMIT_NAMES = {
    "maxTotalBackupGigabytes": ("max_total_backup_gigabytes",),
    "maxTotalBackups": ("max_total_backups",),
    "maxTotalSnapshots": ("max_total_snapshots",),
    "maxTotalVolumeGigabytes": ("max_total_volume_gigabytes",),
    "maxTotalVolumes": ("max_total_volumes",),
    "totalBackupGigabytesUsed": ("total_backup_gigabytes_used",),
    "totalBackupsUsed": ("total_backups_used",),
    "totalGigabytesUsed": ("total_gigabytes_used",),
    "totalSnapshotsUsed": ("total_snapshots_used",),
    "totalVolumesUsed": ("total_volumes_used",),
}


def _osc_names(absolute, names):
    """``(name, value)`` of each limit under OSC's names (a limit the
    tables do not know keeps the service's)."""
    for key, value in absolute.items():
        for name in names.get(key, (key,)):
            yield name, value
