"""``POST /os-server-external-events`` (nova's
``ServerExternalEventsController``; schemas
nova/api/openstack/compute/schemas/server_external_events.py): the event
names each microversion accepts, policy ``service_or_admin``. Rules in
:mod:`occli.localcloud.compute.external_events`."""

from occli.localcloud.app import Response
from occli.localcloud.compute import external_events
from occli.localcloud.compute.api import common
from occli.localcloud.compute.api import schemas

POLICY = "os_compute_api:os-server-external-events:create"
# the event names and the microversion adding each
_NAMES = (
    ("network-changed", "2.0"),
    ("network-vif-plugged", "2.0"),
    ("network-vif-unplugged", "2.0"),
    ("network-vif-deleted", "2.0"),
    ("volume-extended", "2.51"),
    ("power-update", "2.76"),
    ("accelerator-request-bound", "2.82"),
    ("volume-reimaged", "2.93"),
)
# nova's objects.external_event.EVENT_STATUSES
_STATUSES = ["failed", "completed", "in-progress"]


def _schema(version):
    names = [name for name, since in _NAMES if version >= since]
    return {
        "type": "object",
        "properties": {
            "events": {
                "type": "array",
                "minItems": 1,
                "items": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string", "enum": names},
                        "server_uuid": {"type": "string", "format": "uuid"},
                        "status": {"type": "string", "enum": _STATUSES},
                        "tag": {"type": "string", "maxLength": 255},
                    },
                    "required": ["name", "server_uuid"],
                    "additionalProperties": False,
                },
            }
        },
        "required": ["events"],
        "additionalProperties": False,
    }


def register(service):
    # service_or_admin: the handler checks it (role=None: no project role)
    service.api("POST", "/os-server-external-events", create_events, role=None)


def create_events(req):
    # nova validates the body before its policy check
    body = schemas.validate(_schema(req.microversion), req.json())
    common.require_admin(req, POLICY)
    status, events = external_events.deliver(
        req.db, common.caller(req), body["events"], req.request_id
    )
    return Response(status, {"events": events})
