"""Stack resource commands (Heat), with OSC's names, options and columns
(``heatclient/osc/v1/resource.py``)."""

import json

from occli import columns
from occli import exceptions
from occli import utils
from occli.v2.commands import files
from occli.v2.orchestration import template_utils
from occli.v2.orchestration.commands import stack_data


@utils.arg("stack", metavar="<stack>", help="Name or ID of the stack.")
@utils.arg("--long", action="store_true", help="More detail for each resource.")
@utils.arg(
    "-n",
    "--nested-depth",
    metavar="<nested-depth>",
    type=utils.non_negative_int,
    help="Depth of nested stacks whose resources are listed too.",
)
@utils.arg(
    "--filter",
    metavar="<key=value>",
    action="append",
    help="Filter on name, status, type, action, id or physical_resource_id (repeatable).",
)
@utils.option_names(filter="--filter")
@utils.output("list")
def do_stack_resource_list(client, args):
    """List a stack's resources.

    Example: occli stack resource list -n 2 app
    """
    resources = client.stack_resources.list(
        args.stack,
        nested_depth=args.nested_depth,
        with_detail=args.long,
        filters=template_utils.format_parameters(args.filter, param="filter"),
    )
    cols = ["resource_name", "physical_resource_id", "resource_type", "resource_status"]
    cols.append("updated_time")
    if resources and "resource_name" not in resources[0]:
        cols[0] = "logical_resource_id"
    if args.nested_depth or args.long:
        cols.append("stack_name")
    rows = [dict(r.to_dict(), stack_name=r.stack_name) for r in resources]
    return columns.table(rows, cols)


@utils.arg("stack", metavar="<stack>", help="Name or ID of the stack.")
@utils.arg("resource", metavar="<resource>", help="Name of the resource.")
@utils.arg(
    "--with-attr",
    metavar="<attribute>",
    action="append",
    help="Attribute to show (repeatable).",
)
@utils.output("show")
def do_stack_resource_show(client, args):
    """Show a stack resource.

    Example: occli stack resource show --with-attr first_address app server
    """
    resource = client.stack_resources.get(args.stack, args.resource, with_attr=args.with_attr)
    info = resource.to_dict()
    return columns.show(info, list(info))


@utils.arg("stack", metavar="<stack>", help="Stack to display (name or ID).")
@utils.arg("resource", metavar="<resource>", help="Name of the resource.")
@stack_data.document_format("json")
def do_stack_resource_metadata(client, args):
    """Print a resource's metadata.

    Example: occli stack resource metadata app server
    """
    metadata = client.stack_resources.metadata(args.stack, args.resource)
    stack_data.print_document(args, dict(metadata))


@utils.arg("stack", metavar="<stack>", help="Name or ID of the stack the resource belongs to.")
@utils.arg("resource", metavar="<resource>", help="Name of the resource to signal.")
@utils.arg("--data", metavar="<data>", help="JSON data to send to the signal handler.")
@utils.arg(
    "--data-file", metavar="<data-file>", help="File of JSON data to send to the signal handler."
)
def do_stack_resource_signal(client, args):
    """Signal a resource with optional data.

    Example: occli stack resource signal --data '{"status": "SUCCESS"}' app wait_handle
    """
    if args.data and args.data_file:
        raise exceptions.ValidationError("Should only specify one of data or data-file")
    option = "--data-file" if args.data_file else "--data"
    data = files.read_text(args.data_file, "--data-file") if args.data_file else args.data
    body = None
    if data:
        try:
            body = json.loads(data)
        except ValueError as exc:
            raise exceptions.ValidationError(
                "%s: Data should be in JSON format: %s" % (option, exc)
            ) from None
        if not isinstance(body, dict):
            raise exceptions.ValidationError("%s: Data should be a JSON dict" % option)
    client.stack_resources.signal(args.stack, args.resource, data=body)


@utils.arg("stack", metavar="<stack>", help="Name or ID of the stack the resource belongs to.")
@utils.arg("resource", metavar="<resource>", help="Name of the resource.")
@utils.arg("reason", nargs="?", default="", help="Reason for the state change.")
@utils.arg("--reset", action="store_true", help="Set the resource as healthy.")
def do_stack_resource_mark_unhealthy(client, args):
    """Mark a resource unhealthy (or, with --reset, healthy).

    Example: occli stack resource mark unhealthy app server "disk gone"
    """
    client.stack_resources.mark_unhealthy(
        args.stack, args.resource, not args.reset, args.reason or ""
    )
