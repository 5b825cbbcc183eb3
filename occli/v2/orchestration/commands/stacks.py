"""Stack commands (Heat): create, update, adopt, delete, list, show, with
OSC's names, options and columns (``heatclient/osc/v1/stack.py``)."""

import itertools
import sys

from occli import columns
from occli import exceptions
from occli import utils
from occli.v2.orchestration import template_utils
from occli.v2.orchestration.commands import stack_wait

#: The columns of a stack in lists and short shows (heatclient's).
LIST_COLUMNS = ("id", "stack_name", "stack_status", "creation_time", "updated_time")
LIST_HEADERS = ("ID", "Stack Name", "Stack Status", "Creation Time", "Updated Time")
SHORT_SHOW = (
    "id",
    "stack_name",
    "description",
    "creation_time",
    "updated_time",
    "stack_status",
    "stack_status_reason",
)
TAG_MODES = {"any": "tags_any", "not": "not_tags", "not-any": "not_tags_any"}
OPTION_NAMES = dict(
    template="--template",
    environment="--environment",
    parameter="--parameter",
    parameter_file="--parameter-file",
)


def template_options(func):
    """``-e``, ``--parameter``, ``--parameter-file`` and ``-s``."""
    for args, kwargs in reversed(
        (
            (
                ("-e", "--environment"),
                dict(
                    metavar="<environment>",
                    action="append",
                    help="Path to the environment. Can be specified multiple times.",
                ),
            ),
            (
                ("-s", "--files-container"),
                dict(
                    metavar="<files-container>",
                    help="Swift files container name: local files other than "
                    "the root template are not read, Heat reads them from it.",
                ),
            ),
            (
                ("--parameter",),
                dict(
                    metavar="<key=value>",
                    action="append",
                    help="Parameter value (repeatable; one may hold several, ';'-separated).",
                ),
            ),
            (
                ("--parameter-file",),
                dict(
                    metavar="<key=file>",
                    action="append",
                    help="Parameter value read from a file (repeatable), "
                    "relative to the template's folder.",
                ),
            ),
        )
    ):
        func = utils.arg(*args, **kwargs)(func)
    return utils.option_names(**OPTION_NAMES)(func)


def wait_options(what):
    """``--wait``, ``--wait-timeout`` and ``--poll`` (heatclient's, seconds
    between event polls)."""

    def decorator(func):
        for args, kwargs in reversed(
            (
                (("--wait",), dict(action="store_true", help="Wait until %s." % what)),
                (
                    ("--wait-timeout",),
                    dict(
                        type=utils.seconds,
                        default=3600,
                        metavar="<seconds>",
                        help="Give up waiting after this many seconds (default 3600).",
                    ),
                ),
                (
                    ("--poll", "--wait-interval"),
                    dict(
                        type=utils.seconds,
                        default=5,
                        dest="wait_interval",
                        metavar="<seconds>",
                        help="Seconds between event polls with --wait (default 5).",
                    ),
                ),
            )
        ):
            func = utils.arg(*args, **kwargs)(func)
        return func

    return decorator


def stack_fields(args, existing=False):
    """The template, files, environment and parameters of the command's
    options, read and checked before any request."""
    fetch_child = getattr(args, "files_container", None) is None
    files, template = template_utils.process_template_path(
        args.template, existing=existing, fetch_child=fetch_child
    )
    env_list: list[str] = []
    env_files, env = template_utils.process_multiple_environments_and_files(
        args.environment, env_list_tracker=env_list
    )
    fields: dict[str, object] = {
        "parameters": template_utils.format_all_parameters(
            args.parameter, getattr(args, "parameter_file", None), args.template
        ),
        "template": template,
        "files": dict(files, **env_files),
        "environment": env,
    }
    if env_list:
        fields["environment_files"] = env_list
    if getattr(args, "files_container", None):
        fields["files_container"] = args.files_container
    return fields


def wait(client, args, stack, action, marker=None):
    """``--wait``: the events of ``stack`` streamed to stderr until its
    ``action`` ends; a FAILED stack exits 1 naming the failed resource."""
    stack_wait.wait_for_stack(
        client,
        stack,
        action,
        marker=marker,
        timeout=args.wait_timeout,
        interval=args.wait_interval,
        stream=utils.stderr(args),
    )


def show_stack(client, stack_id, short=False, resolve_outputs=True):
    """``(columns, values)`` of a stack as ``stack show`` shows it."""
    resolve = resolve_outputs and not short
    stack = client.stacks.get(stack_id, resolve_outputs=resolve)
    cols = list(SHORT_SHOW)
    if not short:
        cols.append("parameters")
        if resolve:
            cols.append("outputs")
        cols.append("links")
        cols += [k for k in stack.to_dict() if k not in cols and k != "template_description"]
    return columns.show(stack, cols)


@utils.arg("name", metavar="<stack-name>", help="Name of the stack to create.")
@utils.arg("-t", "--template", metavar="<template>", required=True, help="Path to the template.")
@template_options
@utils.arg("--timeout", metavar="<timeout>", type=utils.positive_int, help="Timeout in minutes.")
@utils.arg(
    "--pre-create",
    metavar="<resource>",
    action="append",
    help="Set a pre-create hook on a resource (nested ones as 'nested/inner/name', "
    "wildcards allowed; repeatable).",
)
@utils.arg("--enable-rollback", action="store_true", help="Enable rollback on create failure.")
@utils.arg("--tags", metavar="<tag1,tag2...>", help="Tags of the stack.")
@utils.arg(
    "--dry-run",
    action="store_true",
    help="Show what would be created (Heat's preview), create nothing.",
)
@wait_options("the stack is CREATE_COMPLETE (exit 1 on CREATE_FAILED)")
@utils.output("show")
def do_stack_create(client, args):
    """Create a stack.

    Example: occli stack create -t app.yaml --parameter flavor=m1.small --wait app
    """
    fields = stack_fields(args)
    fields.update(stack_name=args.name, disable_rollback=not args.enable_rollback)
    if args.pre_create:
        template_utils.hooks_to_env(fields["environment"], args.pre_create, "pre-create")
    if args.tags:
        fields["tags"] = args.tags
    if args.timeout:
        fields["timeout_mins"] = args.timeout
    if args.dry_run:
        preview = client.stacks.preview(**fields)
        return columns.show(preview)
    created = client.stacks.create(**fields)["stack"]
    if args.wait:
        stack = client.stacks.resource_class(
            client.stacks, {"id": created["id"], "stack_name": args.name}
        )
        wait(client, args, stack, "CREATE")
    return show_stack(client, "%s/%s" % (args.name, created["id"]), short=True)


@utils.arg("stack", metavar="<stack>", help="Name or ID of the stack to update.")
@utils.arg("-t", "--template", metavar="<template>", help="Path to the template.")
@template_options
@utils.arg(
    "--pre-update",
    metavar="<resource>",
    action="append",
    help="Set a pre-update hook on a resource (as --pre-create of stack create).",
)
@utils.arg("--timeout", metavar="<timeout>", type=utils.positive_int, help="Timeout in minutes.")
@utils.arg(
    "--rollback",
    metavar="<value>",
    default="keep",
    choices=("enabled", "disabled", "keep"),
    help="Rollback on update failure: enabled, disabled, or keep the stack's (default).",
)
@utils.arg("--dry-run", action="store_true", help="Show what would change, change nothing.")
@utils.arg("--show-nested", action="store_true", help="Show nested stacks with --dry-run.")
@utils.arg(
    "--existing",
    action="store_true",
    help="Keep the stack's template, parameters and environment, changing only "
    "what is given (--parameter patches its parameters).",
)
@utils.arg(
    "--clear-parameter",
    metavar="<parameter>",
    action="append",
    help="Remove a parameter of the stack's, back to the template's default (repeatable).",
)
@utils.arg("--tags", metavar="<tag1,tag2...>", help="The stack's new tags.")
@utils.arg("--converge", action="store_true", help="Update with observe on reality.")
@wait_options("the stack is UPDATE_COMPLETE (exit 1 on UPDATE_FAILED)")
@utils.output("show")
def do_stack_update(client, args):
    """Update a stack.

    Example: occli stack update --existing --parameter count=3 --wait app
    """
    fields = stack_fields(args, existing=args.existing)
    if args.pre_update:
        template_utils.hooks_to_env(fields["environment"], args.pre_update, "pre-update")
    if args.tags:
        fields["tags"] = args.tags
    if args.timeout:
        fields["timeout_mins"] = args.timeout
    if args.clear_parameter:
        fields["clear_parameters"] = list(args.clear_parameter)
    if args.rollback != "keep":
        fields["disable_rollback"] = args.rollback == "disabled"
    if fields["template"] is None:
        del fields["template"]
    stack = client.stacks.get(args.stack, resolve_outputs=False)
    if args.dry_run:
        changes = client.stacks.preview_update(
            stack, existing=args.existing, show_nested=args.show_nested, **fields
        ).get("resource_changes", {})
        keys = sorted(changes)
        return tuple(keys), tuple(columns.JSONColumn(changes[k]) for k in keys)
    if args.converge:
        fields["converge"] = True
    marker = client.stack_events.last(stack) if args.wait else None
    client.stacks.update(stack, existing=args.existing, **fields)
    if args.wait:
        wait(client, args, stack, "UPDATE", marker)
    return show_stack(client, stack.identifier, short=True)


@utils.arg("name", metavar="<stack-name>", help="Name of the stack to adopt.")
@utils.arg(
    "--adopt-file", metavar="<adopt-file>", required=True, help="Path to the adopt stack data."
)
@utils.arg(
    "-e",
    "--environment",
    metavar="<environment>",
    action="append",
    help="Path to the environment. Can be specified multiple times.",
)
@utils.arg("--timeout", metavar="<timeout>", type=utils.positive_int, help="Timeout in minutes.")
@utils.arg("--enable-rollback", action="store_true", help="Enable rollback on failure.")
@utils.arg("--parameter", metavar="<key=value>", action="append", help="Parameter value.")
@wait_options("the stack is ADOPT_COMPLETE (exit 1 on ADOPT_FAILED)")
@utils.option_names(**OPTION_NAMES)
@utils.output("show")
def do_stack_adopt(client, args):
    """Adopt a stack: take resources an abandoned stack left behind.

    Example: occli stack adopt --adopt-file abandoned.json app
    """
    import yaml

    from occli.v2.commands import files as local_files

    data = local_files.read_text(args.adopt_file, "--adopt-file")
    try:
        adopt = yaml.safe_load(data) or {}
    except yaml.YAMLError as exc:
        raise exceptions.ValidationError(
            "--adopt-file: %s is not JSON or YAML: %s" % (args.adopt_file, one_line(exc))
        ) from None
    if not isinstance(adopt, dict):
        raise exceptions.ValidationError("--adopt-file: %s is not a mapping." % args.adopt_file)
    env_files, env = template_utils.process_multiple_environments_and_files(args.environment)
    fields = {
        "stack_name": args.name,
        "disable_rollback": not args.enable_rollback,
        "adopt_stack_data": data,
        "parameters": template_utils.format_parameters(args.parameter),
        "files": dict(adopt.get("files") or {}, **env_files),
        "environment": env,
    }
    if args.timeout:
        fields["timeout_mins"] = args.timeout
    created = client.stacks.create(**fields)["stack"]
    if args.wait:
        stack = client.stacks.resource_class(
            client.stacks, {"id": created["id"], "stack_name": args.name}
        )
        wait(client, args, stack, "ADOPT")
    return show_stack(client, "%s/%s" % (args.name, created["id"]), short=True)


def one_line(text):
    return " ".join(str(text).split())


@utils.arg("stack", metavar="<stack>", nargs="+", help="Stack(s) to delete (name or ID).")
@utils.arg("-y", "--yes", action="store_true", help="Skip the yes/no prompt (assume yes).")
@wait_options("each stack is deleted (exit 1 if one is DELETE_FAILED)")
def do_stack_delete(client, args):
    """Delete stacks.

    Example: occli stack delete -y --wait app
    """
    if not args.yes and sys.stdin.isatty():
        try:
            answer = input("Are you sure you want to delete this stack(s) [y/N]? ")
        except (EOFError, KeyboardInterrupt):
            answer = ""
        if not answer.lower().startswith("y"):
            utils.stderr(args).write("User did not confirm stack delete so taking no action.\n")
            return 0

    def delete(ref):
        stack = client.stacks.get(ref, resolve_outputs=False)
        marker = client.stack_events.last(stack) if args.wait else None
        client.stacks.delete(stack)
        if args.wait:
            try:
                wait(client, args, stack, "DELETE", marker)
            except exceptions.NotFound:
                pass  # the stack and its events are gone: deleted

    return utils.for_each(args.stack, delete, "delete stack")


@utils.arg("--deleted", action="store_true", help="Include soft-deleted stacks.")
@utils.arg("--nested", action="store_true", help="Include nested stacks (a Parent column).")
@utils.arg("--hidden", action="store_true", help="Include hidden stacks.")
@utils.arg(
    "--property",
    dest="properties",
    metavar="<key=value>",
    action="append",
    help="Filter on a stack property (id, name, status, action…; repeatable).",
)
@utils.arg("--project", metavar="<project>", help="Only this project's stacks (admin only).")
@utils.arg("--tags", metavar="<tag1,tag2...>", help="Only stacks with these tags.")
@utils.arg(
    "--tag-mode",
    metavar="<mode>",
    choices=tuple(TAG_MODES),
    help="How --tags match: any, not, not-any (default: all of them).",
)
@utils.arg("--limit", metavar="<limit>", type=utils.list_limit, help="At most this many stacks.")
@utils.arg("--marker", metavar="<id>", help="Only stacks after this stack ID.")
@utils.arg(
    "--sort",
    metavar="<key>[:<direction>]",
    help="Sort by keys and directions (asc or desc), comma-separated.",
)
@utils.arg("--all-projects", action="store_true", help="Include all projects (admin only).")
@utils.arg("--short", action="store_true", help="Fewer columns.")
@utils.arg("--long", action="store_true", help="More columns (implied by --all-projects).")
@utils.option_names(property="--property")
@utils.output("list")
def do_stack_list(client, args):
    """List stacks.

    Example: occli stack list --property status=CREATE_FAILED
    """
    cols, headers = list(LIST_COLUMNS), list(LIST_HEADERS)
    kwargs = {
        "limit": args.limit,
        "marker": args.marker,
        "filters": template_utils.format_parameters(args.properties, param="property"),
        "global_tenant": args.all_projects or args.long,
        "show_deleted": args.deleted,
        "show_hidden": args.hidden,
        "show_nested": args.nested,
    }
    if args.tags:
        kwargs[TAG_MODES.get(args.tag_mode or "", "tags")] = args.tags
    if args.sort:
        keys, dirs = [], []
        for part in args.sort.split(","):
            key, _, direction = part.partition(":")
            keys.append(key)
            dirs.append(direction)
        kwargs["sort_keys"] = keys
        if dirs[0]:
            kwargs["sort_dir"] = dirs[0]
    if args.short:
        del cols[3:], headers[3:]
    if args.long:
        cols.insert(2, "stack_owner")
        headers.insert(2, "Stack Owner")
    if args.nested:
        cols.append("parent")
        headers.append("Parent")
    if args.deleted:
        cols.append("deletion_time")
        headers.append("Deletion Time")
    if args.project:
        kwargs["tenant"] = client.projects.find_resource(args.project).id
    stacks = client.stacks.iter(**{k: v for k, v in kwargs.items() if v})
    first = next(stacks, None)
    if first is not None and "project" in first:
        cols.insert(2, "project")
        headers.insert(2, "Project")
    rows = itertools.chain([first] if first is not None else [], stacks)
    return columns.table(rows, cols, headers=headers)


@utils.arg("stack", metavar="<stack>", help="Stack to display (name or ID).")
@utils.arg("--no-resolve-outputs", action="store_true", help="Do not resolve the stack's outputs.")
@utils.output("show")
def do_stack_show(client, args):
    """Show a stack.

    Example: occli stack show app
    """
    return show_stack(client, args.stack, resolve_outputs=not args.no_resolve_outputs)
