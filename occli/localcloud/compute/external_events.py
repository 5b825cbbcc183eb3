"""Server external events (nova's ``ServerExternalEventsController``).

Neutron and Cinder tell nova about a server's ports and volumes: each event
of the list gets its own ``code`` (200 accepted, 404 no such live server,
400 a tag-requiring event without its tag, 422 a server with no host yet)
and ``status`` (``completed`` or ``failed``); the answer is 200 when every
event was accepted, 207 otherwise. As nova's compute API, an accepted
``volume-extended`` records the server's ``extend_volume`` action and a
``power-update`` its ``start`` (``POWER_ON``) or ``stop`` (``POWER_OFF``)
action (any other tag records nothing). The local cloud has no guest to
tell: an accepted event changes nothing else (nova's fake driver does not
either; only Ironic's acts on ``power-update``).
"""

import sqlite3
from typing import Any

from occli.localcloud.compute import instance_actions
from occli.localcloud.compute import server_rows
from occli.localcloud.compute.caller import Caller

# events accepted only with a tag (nova's TAG_REQUIRED)
TAG_REQUIRED = ("volume-extended", "power-update", "accelerator-request-bound")
# power-update's tag → the instance action nova records
POWER_ACTIONS = {"POWER_ON": "start", "POWER_OFF": "stop"}
# the compute manager's methods (wrap_instance_event) the events run
_ACTION_EVENTS = {
    "extend_volume": ("compute_extend_volume",),
    "start": ("compute_power_update",),
    "stop": ("compute_power_update",),
}


def _action(event: dict) -> str | None:
    if event["name"] == "volume-extended":
        return "extend_volume"
    if event["name"] == "power-update":
        return POWER_ACTIONS.get(event.get("tag", ""))
    return None


def deliver(
    db: sqlite3.Connection, caller: Caller, events: list[dict], request_id: str
) -> tuple[int, list[dict[str, Any]]]:
    """Deliver ``events`` (validated): the overall status and each event
    as nova answers it (``status`` and ``code`` added)."""
    answered = []
    result = 200
    for sent in events:
        event = dict(sent)
        server = server_rows.live(db, event["server_uuid"])
        if server is None:
            event.update(status="failed", code=404)
        elif event["name"] in TAG_REQUIRED and "tag" not in event:
            event.update(status="failed", code=400)
        elif server["host"]:
            event.update(status="completed", code=200)
            action = _action(event)
            if action is not None:
                instance_actions.record(
                    db,
                    server,
                    action,
                    request_id,
                    caller.user_id,
                    caller.project_id,
                    events=_ACTION_EVENTS[action],
                )
        else:
            event.update(status="failed", code=422)
        if event["code"] != 200:
            result = 207
        answered.append(event)
    return result, answered
