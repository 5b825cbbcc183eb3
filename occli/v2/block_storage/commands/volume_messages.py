"""Volume message commands (Cinder user messages, volume API 3.3):
``volume message list/show/delete``, with OpenStackClient's names,
options and columns (``openstackclient/volume/v3/volume_message.py``)."""

from occli import columns
from occli import utils
from occli.v2.image.commands.members import project_id

_SHOWN = ("created_at", "event_id", "guaranteed_until", "id", "message_level", "request_id",
          "resource_type", "resource_uuid", "user_message")  # fmt: skip
# OSC's names of the shown fields ("Event ID", "Resource UUID", …)
_HEADERS = {
    k: k.replace("_", " ").title().replace("Id", "ID").replace("Uuid", "UUID") for k in _SHOWN
}


@utils.arg(
    "--project", metavar="<project>", help="Filter results by project (name or ID) (admin only)."
)
@utils.arg(
    "--project-domain",
    metavar="<project-domain>",
    help="Domain the project belongs to (name or ID), for a project given by name.",
)
@utils.arg("--marker", metavar="<message-id>", help="The last message ID of the previous page.")
@utils.arg(
    "--limit",
    type=utils.list_limit,
    metavar="<num-messages>",
    help="Maximum number of messages to display.",
)
@utils.output("list")
def do_volume_message_list(client, args):
    """List volume failure messages.

    Example: occli volume message list
    """
    filters = {}
    if args.project:
        filters = {
            "all_tenants": 1,
            "project_id": project_id(client, args.project, args.project_domain),
        }
    found = client.volume_messages.list(limit=args.limit, marker=args.marker, **filters)
    cols = ["id", "event_id", "resource_type", "resource_uuid", "message_level", "user_message",
            "request_id", "created_at", "guaranteed_until"]  # fmt: skip
    headers = ["ID", "Event ID", "Resource Type", "Resource UUID", "Message Level",
               "User Message", "Request ID", "Created At", "Guaranteed Until"]  # fmt: skip
    return columns.table(found, cols, headers)


@utils.arg("message", metavar="<message-id>", help="Message to show (ID).")
@utils.output("show")
def do_volume_message_show(client, args):
    """Show a volume failure message.

    Example: occli volume message show 4a3bc3f2-1d16-4d70-bb36-dfd6ed5a0d2b
    """
    message = client.volume_messages.get(args.message)
    return columns.show(message, columns=_SHOWN, rename=_HEADERS)


@utils.arg("messages", nargs="+", metavar="<message-id>", help="Message(s) to delete (ID).")
def do_volume_message_delete(client, args):
    """Delete a volume failure message.

    Example: occli volume message delete 4a3bc3f2-1d16-4d70-bb36-dfd6ed5a0d2b
    """
    return utils.for_each(args.messages, client.volume_messages.delete, "delete message")
