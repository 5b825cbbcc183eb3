"""Compute service, hypervisor and limits commands."""

from occli import columns
from occli import utils


@utils.arg("--host", metavar="<host>", help="Only services on this host.")
@utils.arg("--service", dest="binary", metavar="<binary>",
           help="Only this service binary, e.g. nova-compute.")
@utils.output("list")
def do_compute_service_list(client, args):
    """List compute services."""
    services = client.services.list(host=args.host, binary=args.binary)
    return columns.table(
        services, ("id", "binary", "host", "zone", "status", "state",
                   "updated_at", "disabled_reason"),
        headers=("ID", "Binary", "Host", "Zone", "Status", "State",
                 "Updated At", "Disabled Reason"))


@utils.arg("--long", action="store_true", help="More columns.")
@utils.output("list")
def do_hypervisor_list(client, args):
    """List hypervisors."""
    hypervisors = client.hypervisors.list(detailed=args.long)
    cols = ["id", "hypervisor_hostname", "state", "status"]
    headers = ["ID", "Hypervisor Hostname", "State", "Status"]
    if args.long:
        cols += ["hypervisor_type", "host_ip"]
        headers += ["Hypervisor Type", "Host IP"]
    return columns.table(hypervisors, cols, headers=headers)


@utils.arg("--project", metavar="<project-id>",
           help="Another project's limits (admin).")
@utils.arg("--reserved", action="store_true",
           help="Include reserved resources in the usage.")
@utils.output("list")
def do_limits_show(client, args):
    """Show the project's absolute compute limits and their usage."""
    limits = client.limits.get(project_id=args.project, reserved=args.reserved)
    absolute = limits.to_dict().get("absolute") or {}
    return ("Name", "Value"), sorted(absolute.items())
