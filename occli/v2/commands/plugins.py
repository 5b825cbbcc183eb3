"""Plugin commands: what the plugin registry found and what it made of it."""

import os

from occli import columns
from occli import plugins
from occli import utils

_KEYS = ("name", "source", "module", "commands", "managers", "status")
_STATUSES = ("loaded", "unavailable", "conflict")


class _Lines(columns.ListColumn):
    """One item per line in a table (command lists are long), a list in JSON."""

    def human_readable(self):
        return "\n".join(str(v) for v in self._value or ())


@utils.arg("--status", choices=_STATUSES, help="Only plugins with this status.")
@utils.no_client
@utils.output("list")
def do_plugin_list(client, args):
    """List plugins (built-in and third-party) and what each provides.

    Example: occli plugin list
    """
    found = plugins.registry().plugins
    if args.status:
        found = [p for p in found if p.status.partition(":")[0] == args.status]
    rows = [
        {
            "name": p.name,
            "source": p.origin,
            "module": p.target if p.source == plugins.ENTRY_POINT else os.path.basename(p.target),
            "commands": p.commands,
            "managers": p.managers,
            "status": p.status,
        }
        for p in found
    ]
    return columns.table(
        rows,
        _KEYS,
        headers=tuple(k.title() for k in _KEYS),
        formatters={"commands": _Lines, "managers": _Lines},
    )
