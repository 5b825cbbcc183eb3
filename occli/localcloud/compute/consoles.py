"""Remote consoles: nova's checks and the URLs its console proxies give.

The URLs are data only (nothing listens on them): each carries a fresh
token on nova's default proxy addresses. As nova's compute API, a console
needs a host (``Instance <id> is not ready``, 409) and no deletion or
migration under way; the compute manager then checks the console type
against the protocol (``Invalid console type <type>``, 400). The local cloud
enables every console kind but RDP (gone with the Hyper-V driver).
"""

from urllib.parse import quote

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud.compute import actions

# protocol: (the type its proxy serves, nova's default proxy base URL)
PROXIES = {
    "vnc": ("novnc", "http://127.0.0.1:6080/vnc_auto.html"),
    "spice": ("spice-html5", "http://127.0.0.1:6082/spice_auto.html"),
    "serial": ("serial", "ws://127.0.0.1:6083/"),
    "mks": ("webmks", "http://127.0.0.1:6090/"),
}
REJECTED_TASKS = ("deleting", "migrating")


def check_server(server, method):
    """``check_instance_host`` and ``reject_instance_state`` (409)."""
    actions.check_host(server)
    if server["task_state"] in REJECTED_TASKS:
        raise errors.Conflict(
            "Instance %s in task_state %s. Cannot %s while the instance is in this state."
            % (server["id"], server["task_state"], method)
        )


def url(server, protocol, console_type):
    """The console URL of ``protocol``/``console_type`` for ``server``."""
    check_server(server, "get_%s_console" % protocol)
    served, base = PROXIES[protocol]
    if console_type != served:
        raise errors.BadRequest("Invalid console type %s" % console_type)
    token = common.new_uuid()
    if console_type == "novnc":
        return "%s?path=%s" % (base, quote("?token=%s" % token, safe=""))
    return "%s?token=%s" % (base, token)
