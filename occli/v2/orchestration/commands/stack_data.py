"""What a stack holds (Heat): outputs, template, environment, files,
failures, abandon and export data, with OSC's names and output
(``heatclient/osc/v1/stack.py``, ``stack_failures.py``). Nested documents
print as YAML or JSON (``-f``), as heatclient's YamlFormat/JsonFormat do."""

from occli import columns
from occli import exceptions
from occli import utils

#: Reasons and deployment logs in ``stack failures list`` (without --long).
TRUNCATE_LINES = 10


def document_format(default):
    """``-f json|yaml`` of a command printing one nested document."""
    return utils.arg(
        "-f",
        "--format",
        dest="formatter",
        choices=("json", "yaml"),
        default=default,
        help="Output format (default: %s)." % default,
    )


def print_document(args, data):
    """Write ``data`` as ``args.formatter`` (json or yaml) to stdout."""
    if args.formatter == "yaml":
        import yaml

        text = yaml.safe_dump(data, default_flow_style=False, allow_unicode=True)
    else:
        import json

        text = json.dumps(data, indent=2) + "\n"
    utils.stdout(args).write(text)


def write_or_print(args, data):
    """``--output-file``: ``data`` as JSON in that file, else printed."""
    if args.output_file is None:
        return print_document(args, data)
    import json

    try:
        with open(args.output_file, "w", encoding="utf-8") as f:
            f.write(json.dumps(data, indent=2))
    except OSError as exc:
        raise exceptions.CommandError(
            "--output-file: cannot write %s: %s" % (args.output_file, exc.strerror or exc)
        ) from None


@utils.arg("stack", metavar="<stack>", help="Name or ID of the stack.")
@utils.output("list")
def do_stack_output_list(client, args):
    """List a stack's outputs.

    Example: occli stack output list app
    """
    try:
        outputs = client.stacks.output_list(args.stack).get("outputs") or []
    except exceptions.NotFound:
        outputs = client.stacks.get(args.stack).to_dict().get("outputs") or []
    return columns.table(outputs, ("output_key", "description"))


@utils.arg("stack", metavar="<stack>", help="Name or ID of the stack.")
@utils.arg("output", metavar="<output>", nargs="?", help="Name of the output to show.")
@utils.arg("--all", action="store_true", dest="all_outputs", help="Show all the outputs.")
@utils.output("show")
def do_stack_output_show(client, args):
    """Show a stack output (resolved now).

    Example: occli stack output show app server_ip
    """
    if not args.all_outputs and args.output is None:
        raise exceptions.ValidationError("Either <OUTPUT NAME> or --all must be specified.")
    if args.all_outputs and args.output is not None:
        raise exceptions.ValidationError("Cannot specify both <OUTPUT NAME> and --all.")
    if args.all_outputs:
        outputs = client.stacks.get(args.stack).to_dict().get("outputs") or []
        return (
            tuple(o.get("output_key") for o in outputs),
            tuple(columns.JSONColumn(o) for o in outputs),
        )
    try:
        output = client.stacks.output_show(args.stack, args.output).get("output") or {}
    except exceptions.NotFound:
        outputs = client.stacks.get(args.stack).to_dict().get("outputs") or []
        found = [o for o in outputs if o.get("output_key") == args.output]
        if not found:
            raise exceptions.CommandError(
                "Stack %s or output %s not found." % (args.stack, args.output)
            ) from None
        output = found[0]
    if "output_error" in output:
        raise exceptions.CommandError("Output error: %s" % output["output_error"])
    return columns.show(output)


@utils.arg("stack", metavar="<stack>", help="Name or ID of the stack.")
@document_format("yaml")
def do_stack_template_show(client, args):
    """Print a stack's template.

    Example: occli stack template show app
    """
    print_document(args, dict(client.stacks.template(args.stack)))


@utils.arg("stack", metavar="<stack>", help="Name or ID of the stack.")
@document_format("yaml")
def do_stack_environment_show(client, args):
    """Print a stack's environment.

    Example: occli stack environment show app
    """
    env = client.stacks.environment(args.stack)
    keys = ("parameters", "resource_registry", "parameter_defaults")
    print_document(args, {k: env[k] for k in keys if k in env})


@utils.arg("stack", metavar="<stack>", help="Name or ID of the stack.")
@document_format("yaml")
def do_stack_file_list(client, args):
    """Print a stack's files map.

    Example: occli stack file list app
    """
    print_document(args, {"files": dict(client.stacks.files(args.stack))})


@utils.arg("stack", metavar="<stack>", help="Name or ID of the stack to abandon.")
@utils.arg("--output-file", metavar="<output-file>", help="File to write the abandon data to.")
@document_format("json")
def do_stack_abandon(client, args):
    """Abandon a stack: delete it, keep its resources, print its data.

    Example: occli stack abandon --output-file app.json app
    """
    write_or_print(args, dict(client.stacks.abandon(args.stack)))


@utils.arg("stack", metavar="<stack>", help="Name or ID of the stack to export.")
@utils.arg("--output-file", metavar="<output-file>", help="File to write the export data to.")
@document_format("json")
def do_stack_export(client, args):
    """Export a stack's data (as abandon does, the stack kept).

    Example: occli stack export app
    """
    write_or_print(args, dict(client.stacks.export(args.stack)))


def _indent(text, long):
    lines = str(text or "").splitlines() or [""]
    if not long and len(lines) > TRUNCATE_LINES:
        lines = ["..."] + lines[-TRUNCATE_LINES:]
    return "\n".join("    " + line for line in lines)


@utils.arg("stack", metavar="<stack>", help="Stack to display (name or ID).")
@utils.arg("--long", action="store_true", help="Show full deployment logs and reasons.")
def do_stack_failures_list(client, args):
    """Show the failed resources of a stack, nested ones included.

    Failed nested stacks are walked into; failed deployments show their
    deploy_stdout and deploy_stderr.

    Example: occli stack failures list app
    """
    out = utils.stdout(args)
    for path, rsc in client.stack_resources.failures(args.stack).items():
        out.write("%s:\n" % path)
        out.write("  resource_type: %s\n" % rsc.resource_type)
        out.write("  physical_resource_id: %s\n" % (rsc.physical_resource_id or ""))
        out.write("  status: %s\n" % rsc.resource_status)
        out.write("  status_reason: |\n%s\n" % _indent(rsc.resource_status_reason, args.long))
        if rsc.resource_type not in (
            "OS::Heat::SoftwareDeployment",
            "OS::Heat::StructuredDeployment",
        ):
            continue
        try:
            sd = client.software_deployments.get(rsc.physical_resource_id)
        except exceptions.NotFound:
            continue
        values = sd.to_dict().get("output_values") or {}
        for name in ("deploy_stdout", "deploy_stderr"):
            if values.get(name):
                out.write("  %s: |\n%s\n" % (name, _indent(values[name], args.long)))
