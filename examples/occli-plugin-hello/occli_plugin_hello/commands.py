"""The ``hello`` command group: ``occli hello world|list|show|create|delete``.

Written exactly like occli's built-in commands: ``do_*`` functions with the
``occli.utils`` decorators, calling the plugin's manager as ``client.hello``
and writing through ``utils.stdout(args)`` (the app's stdout).
"""

from occli import columns
from occli import utils

_COLUMNS = ("id", "message", "language")
_HEADERS = ("ID", "Message", "Language")


@utils.arg("--name", default="world", metavar="<name>", help="Whom to greet (default: world).")
@utils.no_client
def do_hello_world(client, args):
    """Print a greeting (needs no cloud)."""
    utils.stdout(args).write("Hello, %s!\n" % args.name)


@utils.arg("--language", metavar="<code>", help="Only greetings in this language.")
@utils.arg("--limit", type=int, default=None, metavar="<n>", help="At most this many greetings.")
@utils.output("list")
def do_hello_list(client, args):
    """List greetings."""
    greetings = client.hello.list(language=args.language, limit=args.limit)
    return columns.table(greetings, _COLUMNS, headers=_HEADERS)


@utils.arg("greeting", metavar="<greeting>", help="Greeting ID.")
@utils.output("show")
def do_hello_show(client, args):
    """Show a greeting."""
    return columns.show(client.hello.find_resource(args.greeting))


@utils.arg("message", metavar="<message>", help="The greeting's text.")
@utils.arg("--language", metavar="<code>", help="Language code, e.g. en.")
@utils.output("show")
def do_hello_create(client, args):
    """Create a greeting."""
    return columns.show(client.hello.create(args.message, language=args.language))


@utils.arg("greeting", metavar="<greeting>", help="Greeting ID.")
def do_hello_delete(client, args):
    """Delete a greeting."""
    client.hello.delete(args.greeting)
