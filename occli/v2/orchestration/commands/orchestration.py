"""``orchestration`` commands (Heat): template validate, template version
and function lists, resource types, build info, with OSC's names, options
and columns (``heatclient/osc/v1/template.py``, ``resource_type.py``,
``build_info.py``)."""

from occli import columns
from occli import exceptions
from occli import utils
from occli.v2.orchestration import template_utils
from occli.v2.orchestration.commands import stack_data
from occli.v2.orchestration.commands import stacks as stack_commands


@utils.arg("-t", "--template", metavar="<template>", required=True, help="Path to the template.")
@utils.arg(
    "-e",
    "--environment",
    metavar="<environment>",
    action="append",
    help="Path to the environment. Can be specified multiple times.",
)
@utils.arg(
    "--show-nested", action="store_true", help="Resolve parameters of nested templates too."
)
@utils.arg("--parameter", metavar="<key=value>", action="append", help="Parameter value.")
@utils.arg(
    "-s",
    "--files-container",
    metavar="<files-container>",
    help="Swift files container name: Heat reads the other files from it.",
)
@utils.arg("--ignore-errors", metavar="<error1,error2,...>", help="List of heat errors to ignore.")
@stack_data.document_format("yaml")
@utils.option_names(**stack_commands.OPTION_NAMES)
def do_orchestration_template_validate(client, args):
    """Validate a template.

    Example: occli orchestration template validate -t app.yaml -e env.yaml
    """
    args.parameter_file = None
    fields = stack_commands.stack_fields(args)
    fields["parameters"] = template_utils.format_parameters(args.parameter)
    validation = client.stacks.validate(
        show_nested=args.show_nested, ignore_errors=args.ignore_errors, **fields
    )
    stack_data.print_document(args, dict(validation))


class _AliasesColumn(columns.ListColumn):
    """Aliases joined by commas, as heatclient's ListColumn."""

    def human_readable(self):
        return ",".join(self._value or ())


@utils.output("list")
def do_orchestration_template_version_list(client, args):
    """List the template versions the cloud's Heat knows.

    Example: occli orchestration template version list
    """
    versions = client.template_versions.list()
    if len(versions) > 1 and "aliases" in versions[1]:
        return columns.table(
            versions,
            ("version", "type", "aliases"),
            headers=("Version", "Type", "Aliases"),
            formatters={"aliases": _AliasesColumn},
        )
    return columns.table(versions, ("version", "type"), headers=("Version", "Type"))


@utils.arg("template_version", metavar="<template-version>", help="Template version.")
@utils.arg(
    "--with_conditions",
    "--with-conditions",
    dest="with_conditions",
    action="store_true",
    help="Show the condition functions too.",
)
@utils.output("list")
def do_orchestration_template_function_list(client, args):
    """List the functions of a template version.

    Example: occli orchestration template function list heat_template_version.2018-08-31
    """
    try:
        functions = client.template_versions.get(
            args.template_version, with_condition_func=args.with_conditions
        )
    except exceptions.NotFound:
        raise exceptions.CommandError(
            "Template version not found: %s" % args.template_version
        ) from None
    return columns.table(functions, ("functions", "description"), ("Functions", "Description"))


@utils.arg(
    "--filter",
    metavar="<key=value>",
    action="append",
    help="Filter on name, version or support_status (repeatable).",
)
@utils.arg("--long", action="store_true", help="Show each type's description.")
@utils.option_names(filter="--filter")
@utils.output("list")
def do_orchestration_resource_type_list(client, args):
    """List the resource types of the cloud's Heat.

    Example: occli orchestration resource type list --filter name=OS::Heat::*
    """
    types = client.resource_types.list(
        filters=template_utils.format_parameters(args.filter, param="filter"),
        with_description=args.long,
    )
    if args.long:
        rows = sorted(
            ([t.resource_type, getattr(t, "description", None)] for t in types),
            key=lambda r: r[0],
        )
        return ("Resource Type", "Description"), rows
    return ("Resource Type",), sorted([t.resource_type] for t in types)


@utils.arg("resource_type", metavar="<resource-type>", help="Resource type.")
@utils.arg(
    "--template-type",
    metavar="<template-type>",
    help="Generate a template using the type instead: hot or cfn.",
)
@utils.arg("--long", action="store_true", help="Show the type's description too.")
@stack_data.document_format("yaml")
def do_orchestration_resource_type_show(client, args):
    """Show a resource type's properties and attributes, or a template using it.

    Example: occli orchestration resource type show OS::Heat::RandomString
    """
    if args.template_type is not None and args.long:
        raise exceptions.ValidationError("Cannot use --template-type and --long in one time.")
    if args.template_type is not None:
        kind = args.template_type.lower()
        if kind not in ("hot", "cfn"):
            raise exceptions.ValidationError("Template type invalid: %s" % args.template_type)
        data = client.resource_types.generate_template(args.resource_type, kind)
    else:
        data = client.resource_types.get(args.resource_type, args.long)
    stack_data.print_document(args, dict(data))


@utils.output("show")
def do_orchestration_build_info(client, args):
    """Show Heat's build information.

    Example: occli orchestration build info
    """
    info = client.heat_build_info.build_info()
    return columns.show(dict(info), sorted(info))
