"""Software config commands (Heat)."""

from occli import columns
from occli import exceptions
from occli import utils
from occli.v2.commands import files

SHOW_COLUMNS = ("id", "name", "group", "config", "inputs", "outputs", "options", "creation_time")
DEFINITION_KEYS = ("inputs", "outputs", "options")


@utils.arg(
    "--limit",
    type=utils.list_limit,
    default=None,
    metavar="<n>",
    help="At most this many configs.",
)
@utils.arg(
    "--marker",
    metavar="<config-id>",
    help="Start after this config (configs are listed newest first).",
)
@utils.output("list")
def do_software_config_list(client, args):
    """List software configs.

    Example: occli software config list
    """
    configs = client.software_configs.iter(limit=args.limit, marker=args.marker)
    return columns.table(
        configs,
        ("id", "name", "group", "creation_time"),
        headers=("ID", "Name", "Group", "Creation Time"),
    )


@utils.arg("config", metavar="<config>", help="Config ID or unique name.")
@utils.arg(
    "--config-only",
    action="store_true",
    help="Print only the config's script or payload, as it is.",
)
@utils.output("show")
def do_software_config_show(client, args):
    """Show a software config.

    Example: occli software config show --config-only web
    """
    config = client.software_configs.find_resource(args.config)
    if args.config_only:
        text = config.to_dict().get("config") or ""
        if args.formatter != "table":
            return ("config",), (text,)
        # raw text; the (empty) table adds the final newline
        utils.stdout(args).write(text[:-1] if text.endswith("\n") else text)
        return (), ()
    return columns.show(config, SHOW_COLUMNS)


@utils.arg("name", metavar="<name>", help="Name of the new config.")
@utils.arg(
    "--config-file",
    metavar="<file>",
    help="File holding the config itself: the script or the "
    "config-management payload ('-' for stdin).",
)
@utils.arg(
    "--definition-file",
    metavar="<file>",
    help="YAML or JSON file defining the config's 'inputs' and "
    "'outputs' (lists) and 'options' (a mapping) ('-' for stdin).",
)
@utils.arg(
    "--group",
    metavar="<group>",
    default="Heat::Ungrouped",
    help="Tool that applies the config on the server: script, "
    "ansible, puppet, … (default: Heat::Ungrouped).",
)
@utils.output("show")
def do_software_config_create(client, args):
    """Create a software config.

    Example: occli software config create --config-file deploy.sh --group script web
    """
    if args.config_file == "-" and args.definition_file == "-":
        raise exceptions.ValidationError(
            "Only one of --config-file and --definition-file can read stdin."
        )
    definition = {}
    if args.definition_file:
        definition = load_definition(
            files.read_text(args.definition_file, "--definition-file"), args.definition_file
        )
    script = files.read_text(args.config_file, "--config-file") if args.config_file else ""
    config = client.software_configs.create(
        args.name,
        group=args.group,
        config=script,
        inputs=definition.get("inputs") or (),
        outputs=definition.get("outputs") or (),
        options=definition.get("options") or {},
    )
    return columns.show(config, SHOW_COLUMNS)


@utils.arg("config", metavar="<config>", nargs="+", help="Config ID(s) or unique name(s).")
@utils.concurrency_option
def do_software_config_delete(client, args):
    """Delete software configs.

    Example: occli software config delete web
    """
    configs = client.software_configs

    def delete(ref):
        configs.delete(configs.find_resource(ref).id)

    return utils.for_each(
        args.config, delete, "delete software config", concurrency=args.concurrency
    )


def load_definition(text, path):
    """Parse and check a definition file (YAML, so JSON too)."""
    import yaml  # only this command needs it

    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise exceptions.ValidationError(
            "--definition-file %s is not valid YAML or JSON: %s" % (path, exc)
        ) from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise exceptions.ValidationError(
            "--definition-file %s must hold a mapping with %s."
            % (path, ", ".join(DEFINITION_KEYS))
        )
    unknown = sorted(set(data) - set(DEFINITION_KEYS))
    if unknown:
        raise exceptions.ValidationError(
            "--definition-file %s: unknown key(s) %s (expected %s)."
            % (path, ", ".join(map(str, unknown)), ", ".join(DEFINITION_KEYS))
        )
    for key in ("inputs", "outputs"):
        items = data.get(key)
        if items is None:
            continue
        if not isinstance(items, list) or not all(
            isinstance(i, dict) and i.get("name") for i in items
        ):
            raise exceptions.ValidationError(
                "--definition-file %s: '%s' must be a list of mappings, each "
                "with a 'name'." % (path, key)
            )
    if data.get("options") is not None and not isinstance(data["options"], dict):
        raise exceptions.ValidationError(
            "--definition-file %s: 'options' must be a mapping." % path
        )
    return data
