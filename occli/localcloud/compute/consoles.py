"""Remote consoles: what a nova with no console proxy answers.

The local cloud runs no noVNC, SPICE, serial or WebMKS proxy (a websocket
RFB server does not fit its WSGI server), so it answers as nova 34 does with
``[vnc]``, ``[spice]``, ``[serial_console]`` and ``[mks]`` ``enabled =
false`` (the real one of ../shared/realcloud): after the compute API's
checks (a host, ``Instance <id> is not ready``, 409; no deletion or
migration under way) the compute manager's ``get_*_console`` raises
``ConsoleTypeUnavailable`` for every type, before comparing it with the
protocol (nova/compute/manager.py): 400 ``Unavailable console type
<type>.``.
"""

from typing import Any
from typing import NoReturn

from occli.localcloud import errors
from occli.localcloud.compute import actions

REJECTED_TASKS = ("deleting", "migrating")


def check_server(server: Any, method: str) -> None:
    """``check_instance_host`` and ``reject_instance_state`` (409)."""
    actions.check_host(server)
    if server["task_state"] in REJECTED_TASKS:
        raise errors.Conflict(
            "Instance %s in task_state %s. Cannot %s while the instance is in this state."
            % (server["id"], server["task_state"], method)
        )


def open_console(server: Any, protocol: str, console_type: str) -> NoReturn:
    """Nova's answer to a ``protocol``/``console_type`` console of
    ``server``: its checks, then ``ConsoleTypeUnavailable`` (400)."""
    check_server(server, "get_%s_console" % protocol)
    raise errors.BadRequest("Unavailable console type %s." % console_type)
