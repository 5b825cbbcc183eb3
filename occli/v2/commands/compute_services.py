"""Compute service, hypervisor and limits commands."""

import argparse

from occli import api_versions
from occli import columns
from occli import exceptions
from occli import utils


class _Switch(argparse.Action):
    """One of a pair of flags setting ``dest`` to ``const``; giving both
    flags is a usage error (exit 2), as with argparse's exclusive groups."""

    def __init__(self, option_strings, dest, other=None, **kwargs):
        kwargs["nargs"] = 0
        super().__init__(option_strings, dest, **kwargs)
        self.other = other

    def __call__(self, parser, namespace, values, option_string=None):
        current = getattr(namespace, self.dest, None)
        if current is not None and current != self.const:
            parser.error("argument %s: not allowed with argument %s"
                         % (option_string, self.other))
        setattr(namespace, self.dest, self.const)


@utils.arg("--host", metavar="<host>", help="Only services on this host.")
@utils.arg("--service", dest="binary", metavar="<binary>",
           help="Only this service binary, e.g. nova-compute.")
@utils.output("list")
def do_compute_service_list(client, args):
    """List compute services (from API 2.11 with a Forced Down column)."""
    services = client.services.list(host=args.host, binary=args.binary)
    cols = ["id", "binary", "host", "zone", "status", "state", "updated_at",
            "disabled_reason"]
    headers = ["ID", "Binary", "Host", "Zone", "Status", "State",
               "Updated At", "Disabled Reason"]
    if api_versions.APIVersion(client.services.api_version) >= "2.11":
        cols.append("forced_down")
        headers.append("Forced Down")
    return columns.table(services, cols, headers=headers)


@utils.arg("host", metavar="<host>", help="Name of the service's host.")
@utils.arg("service", metavar="<service>",
           help="Name of the service (binary), e.g. nova-compute.")
@utils.arg("--enable", dest="status", action=_Switch, const="enabled",
           other="--disable", default=None,
           help="Enable the service: the scheduler may place servers there.")
@utils.arg("--disable", dest="status", action=_Switch, const="disabled",
           other="--enable", help="Disable the service (no new servers).")
@utils.arg("--disable-reason", metavar="<reason>",
           help="Why the service is disabled (only with --disable).")
@utils.arg("--up", dest="forced_down", action=_Switch, const=False,
           other="--down", default=None,
           help="The service is no longer forced down (API 2.11+).")
@utils.arg("--down", dest="forced_down", action=_Switch, const=True,
           other="--up",
           help="Force the service down: the scheduler skips it "
                "(API 2.11+).")
def do_compute_service_set(client, args):
    """Enable, disable or force down a compute service (admin).

    Like OpenStackClient it prints nothing on success (check the result
    with ``compute service list``). From API 2.53 the service is found by
    listing with the host and binary filters and updated by its uuid;
    before, the host and binary go in the request. --enable/--disable is
    applied first, then --up/--down. Errors: no option, or
    --disable-reason without --disable, exit 1 before any request;
    --up/--down below 2.11 exit 1 before any request; no such service
    exits 1.
    """
    if args.disable_reason and args.status != "disabled":
        raise exceptions.CommandError(
            "Cannot specify option --disable-reason without --disable "
            "specified.")
    if args.status is None and args.forced_down is None:
        raise exceptions.CommandError(
            "Nothing to set: give --enable, --disable, --up or --down.")
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
