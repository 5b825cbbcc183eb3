"""The names of the OpenStack WSGI lineage's fault bodies.

Nova and Cinder answer an error as ``{"<name>": {"code": …, "message":
…}}``, the name chosen by status in their ``wsgi.Fault._fault_names``;
one table for both, Nova's adding 429 (cinder answers it
``computeFault``).
"""

FAULT_NAMES: dict[int, str] = {
    400: "badRequest",
    401: "unauthorized",
    403: "forbidden",
    404: "itemNotFound",
    405: "badMethod",
    409: "conflictingRequest",
    413: "overLimit",
    415: "badMediaType",
    501: "notImplemented",
    503: "serviceUnavailable",
}
#: nova's table: cinder's and 429 (nova/api/openstack/wsgi.py)
NOVA_FAULT_NAMES: dict[int, str] = {**FAULT_NAMES, 429: "overLimit"}
#: the name of every status neither table names
DEFAULT = "computeFault"


def fault_name(status: int, names: dict[int, str] = FAULT_NAMES) -> str:
    """The fault body's name for ``status`` in ``names``."""
    return names.get(status, DEFAULT)
