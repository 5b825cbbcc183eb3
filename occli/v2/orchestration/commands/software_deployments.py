"""Software deployment commands (Heat), signal path included."""

from occli import columns
from occli import exceptions
from occli import utils
from occli.v2.commands import files

SHOW_COLUMNS = (
    "id",
    "server_id",
    "config_id",
    "creation_time",
    "updated_time",
    "status",
    "status_reason",
    "input_values",
    "action",
)
LOG_OUTPUTS = ("deploy_stdout", "deploy_stderr")
TRUNCATE_LINES = 10


def _show(deployment, long=True):
    cols = SHOW_COLUMNS + (("output_values",) if long else ())
    return columns.show(deployment, cols)


def _server_id(client, server):
    return client.servers.find_resource(server).id


@utils.arg(
    "--server", metavar="<server>", help="Only the deployments of this server (name or ID)."
)
@utils.arg("--long", action="store_true", help="Also show creation time and status reason.")
@utils.output("list")
def do_software_deployment_list(client, args):
    """List software deployments (oldest first).

    Example: occli software deployment list --server vm1
    """
    server_id = _server_id(client, args.server) if args.server else None
    cols: tuple[str, ...] = ("id", "config_id", "server_id", "action", "status")
    headers: tuple[str, ...] = ("ID", "Config ID", "Server ID", "Action", "Status")
    if args.long:
        cols += ("creation_time", "status_reason")
        headers += ("Creation Time", "Status Reason")
    return columns.table(
        client.software_deployments.iter(server_id=server_id), cols, headers=headers
    )


@utils.arg("deployment", metavar="<deployment>", help="Deployment ID.")
@utils.arg("--long", action="store_true", help="Also show the output values.")
@utils.output("show")
def do_software_deployment_show(client, args):
    """Show a software deployment.

    Example: occli software deployment show ef422fa5-719a-419e-a10c-72e3a367b0b8
    """
    return _show(client.software_deployments.get(args.deployment), args.long)


@utils.arg(
    "name",
    metavar="<name>",
    help="Name of the derived config; the server's agent runs its "
    "deployments sorted by this name.",
)
@utils.arg(
    "--config",
    metavar="<config>",
    required=True,
    help="Source config to deploy (ID or unique name).",
)
@utils.arg("--server", metavar="<server>", required=True, help="Server to deploy to (name or ID).")
@utils.arg(
    "--input-value",
    metavar="<key=value>",
    action="append",
    default=[],
    dest="input_values",
    help="Value of an input (repeatable); inputs the config does not "
    "declare are added as String inputs.",
)
@utils.arg(
    "--action",
    metavar="<action>",
    default="CREATE",
    help="Action being deployed: CREATE, UPDATE, DELETE, SUSPEND, "
    "RESUME or a custom one (default: CREATE).",
)
@utils.arg(
    "--signal-transport",
    metavar="<transport>",
    choices=("TEMP_URL_SIGNAL", "NO_SIGNAL"),
    default="TEMP_URL_SIGNAL",
    help="TEMP_URL_SIGNAL (default): the server signals its results "
    "with an HTTP PUT to a Swift temp URL; NO_SIGNAL: the "
    "deployment is COMPLETE at once, without waiting for a signal.",
)
@utils.arg(
    "--container",
    metavar="<name>",
    help="Swift container for the TEMP_URL_SIGNAL object (default: <name>-<uuid>, created).",
)
@utils.arg(
    "--signal-timeout",
    "--timeout",
    metavar="<minutes>",
    type=utils.positive_int,
    default=60,
    dest="timeout",
    help="How long the server may take to signal: the validity of "
    "the signal temp URL, in minutes (default: 60). Also spelt "
    "--timeout, as in heatclient.",
)
@utils.arg(
    "--wait",
    action="store_true",
    help="Wait until the deployment is COMPLETE or FAILED (exit 1 on FAILED).",
)
@utils.arg(
    "--wait-timeout",
    metavar="<seconds>",
    type=utils.seconds,
    default=3600,
    help="Give up waiting after this long (default: 3600).",
)
@utils.arg(
    "--wait-interval",
    metavar="<seconds>",
    type=utils.seconds,
    default=2,
    help="Seconds between polls while waiting (default: 2).",
)
@utils.output("show")
def do_software_deployment_create(client, args):
    """Deploy a software config to a server (a derived config + a deployment).

    Example: occli software deployment create --config web --server vm1 --wait web
    """
    if args.container and args.signal_transport != "TEMP_URL_SIGNAL":
        raise exceptions.ValidationError(
            "--container is only used with --signal-transport TEMP_URL_SIGNAL."
        )
    deployment = client.software_deployments.deploy(
        args.server,
        args.config,
        name=args.name,
        input_values=utils.parse_key_values(args.input_values, "--input-value"),
        action=args.action,
        signal_transport=args.signal_transport,
        timeout=args.timeout,
        container=args.container,
    )
    if args.wait:
        from occli import waiters

        deployment = waiters.wait_for_deployment(
            client.software_deployments, deployment, **utils.wait_args(args)
        )
    return _show(deployment)


@utils.arg("deployment", metavar="<deployment>", nargs="+", help="Deployment ID(s).")
@utils.arg("--keep-config", action="store_true", help="Keep the derived configs.")
@utils.arg(
    "--keep-signal",
    action="store_true",
    help="Keep the TEMP_URL_SIGNAL objects (and their containers).",
)
@utils.concurrency_option
def do_software_deployment_delete(client, args):
    """Delete deployments with their derived configs and signal objects.

    Example: occli software deployment delete ef422fa5-719a-419e-a10c-72e3a367b0b8
    """

    def delete(ref):
        client.software_deployments.delete(
            ref, keep_config=args.keep_config, keep_signal=args.keep_signal
        )

    return utils.for_each(
        args.deployment, delete, "delete deployment", concurrency=args.concurrency
    )


@utils.arg("server", metavar="<server>", help="Server name or ID.")
@utils.arg(
    "-f",
    "--format",
    dest="formatter",
    choices=("json", "yaml"),
    default="json",
    help="Output format (default: json).",
)
def do_software_deployment_metadata_show(client, args):
    """Print the deployment metadata the server's agent reads.

    The metadata is nested (a list of deployments, each with its config
    and inputs), so it prints as JSON or, with -f yaml, as YAML.

    Example: occli software deployment metadata show vm1 -f yaml
    """
    metadata = client.software_deployments.metadata(_server_id(client, args.server))
    if args.formatter == "yaml":
        import yaml

        text = yaml.safe_dump(
            metadata, default_flow_style=False, allow_unicode=True, sort_keys=False
        )
    else:
        import json

        text = json.dumps(metadata, indent=2) + "\n"
    utils.stdout(args).write(text)


@utils.arg("deployment", metavar="<deployment>", help="Deployment ID.")
@utils.arg("output", metavar="<output>", nargs="?", help="Name of the output to show.")
@utils.arg("--all", action="store_true", dest="all_outputs", help="Show all the outputs.")
@utils.arg(
    "--long",
    action="store_true",
    help="Show deploy_stdout/deploy_stderr in full in a table (by "
    "default their last %d lines)." % TRUNCATE_LINES,
)
@utils.output("show")
def do_software_deployment_output_show(client, args):
    """Show deployment outputs (the values the server signalled).

    Example: occli software deployment output show --all ef422fa5-719a-419e-a10c-72e3a367b0b8
    """
    if bool(args.all_outputs) == (args.output is not None):
        raise exceptions.ValidationError("Give either an <output> name or --all.")
    deployment = client.software_deployments.get(args.deployment)
    fields = deployment.to_dict()
    outputs = fields.get("output_values") or {}
    if not outputs and fields.get("status") == "IN_PROGRESS":
        raise exceptions.CommandError(
            "Deployment %s has not signalled yet (status IN_PROGRESS): it "
            "has no outputs until its server's agent signals. Check it "
            "with: occli software deployment show %s" % (args.deployment, args.deployment)
        )
    if args.all_outputs:
        names = list(outputs)
    elif args.output not in outputs:
        raise exceptions.CommandError(
            "Output %s does not exist in deployment %s." % (args.output, args.deployment)
        )
    else:
        names = [args.output]
    shorten = args.formatter == "table" and not args.long
    values = {
        n: _truncate(outputs[n]) if shorten and n in LOG_OUTPUTS else outputs[n] for n in names
    }
    return columns.show(values, names)


def _truncate(text):
    lines = str(text or "").splitlines()
    if len(lines) <= TRUNCATE_LINES:
        return text
    return "\n".join(["..."] + lines[-TRUNCATE_LINES:] + ["(truncated, view all with --long)"])


@utils.arg("deployment", metavar="<deployment>", help="Deployment ID.")
@utils.arg(
    "--status-code",
    metavar="<n>",
    type=int,
    default=0,
    help="Exit code of the deployment (default 0; non-zero: FAILED).",
)
@utils.arg("--stdout", metavar="<file>", help="File with the deployment's stdout ('-' for stdin).")
@utils.arg("--stderr", metavar="<file>", help="File with the deployment's stderr ('-' for stdin).")
@utils.arg(
    "--output",
    metavar="<key=value>",
    action="append",
    default=[],
    dest="outputs",
    help="An output value (repeatable), as the config declares it.",
)
@utils.output("show")
def do_software_deployment_signal(client, args):
    """Signal a deployment as its server's agent would (TEMP_URL_SIGNAL).

    Example: occli software deployment signal --output result=42 ef422fa5-719a-419e
    """
    if args.stdout == "-" and args.stderr == "-":
        raise exceptions.ValidationError("Only one of --stdout and --stderr can read stdin.")
    outputs = utils.parse_key_values(args.outputs, "--output")
    deployment = client.software_deployments.signal(
        args.deployment,
        status_code=args.status_code,
        stdout=files.read_text(args.stdout, "--stdout") if args.stdout else "",
        stderr=files.read_text(args.stderr, "--stderr") if args.stderr else "",
        outputs=outputs,
    )
    return _show(deployment)
