"""Glance tasks: ``image task list`` and ``image task show``, with
OpenStackClient's options and columns (``openstackclient/image/v2/task.py``).
Glance 33 lets only admins use its tasks API."""

from occli import columns
from occli import utils

# openstackclient/image/v2/task.py _format_task: what ``show`` lists apart
_FIELDS = (
    "created_at",
    "expires_at",
    "id",
    "input",
    "message",
    "owner",
    "result",
    "status",
    "type",
    "updated_at",
)


@utils.arg(
    "--sort-key",
    metavar="<key>",
    help="Sort by this attribute: created_at, id, status, type, updated_at (default created_at).",
)
@utils.arg("--sort-dir", metavar="<direction>", help="Sort direction: asc or desc (default desc).")
@utils.arg(
    "--limit",
    type=utils.list_limit,
    default=None,
    metavar="<n>",
    help="At most this many tasks (-1: all).",
)
@utils.arg("--marker", metavar="<task-id>", help="Start after this task.")
@utils.arg("--type", metavar="<type>", choices=["import"], help="Only tasks of this type.")
@utils.arg(
    "--status",
    metavar="<status>",
    choices=["pending", "processing", "success", "failure"],
    help="Only tasks in this status.",
)
@utils.output("list")
def do_image_task_list(client, args):
    """List tasks (an admin's).

    Example: occli image task list --status failure
    """
    tasks = client.image_tasks.list(
        limit=args.limit,
        marker=args.marker,
        sort_key=args.sort_key,
        sort_dir=args.sort_dir,
        type=args.type,
        status=args.status,
    )
    return columns.table(
        tasks, ["id", "type", "status", "owner"], headers=["ID", "Type", "Status", "Owner"]
    )


@utils.arg("task", metavar="<task-id>", help="Task to display (ID).")
@utils.output("show")
def do_image_task_show(client, args):
    """Show a task.

    The fields Glance adds (image_id, request_id, user_id) are shown
    under properties, as OSC shows them.

    Example: occli image task show 4a1a9c2e-4c3a-4c9e-9b55-2b3c8c9e1d00
    """
    task = client.image_tasks.get(args.task).to_dict()
    info = {key: task.get(key) for key in _FIELDS}
    info["properties"] = {
        key: value
        for key, value in task.items()
        if key not in _FIELDS and key not in ("self", "schema")
    }
    return columns.show(info, formatters={"properties": columns.DictColumn})
