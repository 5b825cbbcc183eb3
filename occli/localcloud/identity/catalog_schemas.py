"""Keystone's request schemas of the catalog API (keystone/catalog/schema.py:
regions, services, endpoints), checked as :mod:`.admin_schemas` checks the
others (the first error, ``Invalid input for field/attribute …``).

Where keystone answers a 500 (a ``POST /v3/services`` body without
``service``), the local cloud answers a 400: the member is a required
property, as in the other create bodies.
"""

from typing import Any

from occli.localcloud import validation

_DESCRIPTION = {"type": ["string", "null"], "maxLength": 255}
_REGION_ID = {"type": ["string", "null"], "minLength": 1, "maxLength": 255}
_REGION = {
    "description": _DESCRIPTION,
    "id": _REGION_ID,
    "parent_region_id": _REGION_ID,
}
REGION_CREATE = {
    "type": "object",
    "properties": {
        "region": {
            "type": "object",
            # an empty id is allowed (one is generated)
            "properties": dict(_REGION, id=dict(_REGION_ID, minLength=0)),
        }
    },
    "required": ["region"],
}
REGION_UPDATE = {
    "type": "object",
    "properties": {"region": {"type": "object", "properties": _REGION, "minProperties": 1}},
    "required": ["region"],
    "additionalProperties": False,
}
REGION_QUERY = {
    "type": "object",
    "properties": {"parent_region_id": _REGION_ID},
    "additionalProperties": False,
}

_SERVICE = {
    "enabled": {"type": "boolean"},
    "type": {"type": "string", "minLength": 1, "maxLength": 255},
    "name": {"type": "string", "minLength": 1, "maxLength": 255},
}
SERVICE_CREATE = {
    "type": "object",
    "properties": {"service": {"type": "object", "properties": _SERVICE, "required": ["type"]}},
    "required": ["service"],
}
SERVICE_UPDATE = {
    "type": "object",
    "properties": {"service": {"type": "object", "properties": _SERVICE, "minProperties": 1}},
    "required": ["service"],
}

_INTERFACE = {"type": "string", "enum": ["admin", "internal", "public"]}
_ENDPOINT = {
    "enabled": {"type": "boolean"},
    "interface": _INTERFACE,
    "region_id": {"type": ["string", "null"]},
    "region": {"type": ["string", "null"]},
    "service_id": {"type": "string"},
    "url": {"type": "string", "minLength": 0, "maxLength": 225, "pattern": "^[a-zA-Z0-9+.-]+:.+"},
    "name": {"type": "string"},
    "description": {"type": ["string", "null"]},
}
ENDPOINT_CREATE = {
    "type": "object",
    "properties": {
        "endpoint": {
            "type": "object",
            "properties": dict(_ENDPOINT, id={"type": "string"}),
            "required": ["interface", "service_id", "url"],
        }
    },
    "required": ["endpoint"],
    "additionalProperties": False,
}
ENDPOINT_UPDATE = {
    "type": "object",
    "properties": {"endpoint": {"type": "object", "properties": _ENDPOINT, "minProperties": 1}},
    "required": ["endpoint"],
    "additionalProperties": False,
}
ENDPOINT_QUERY = {
    "type": "object",
    "properties": {
        "interface": _INTERFACE,
        "region_id": {"type": ["string", "null"]},
        "service_id": {"type": "string"},
    },
}


def check_body(key: str, body: Any) -> Any:
    """``body`` checked against the schema named ``key`` (e.g.
    ``"REGION_CREATE"``); BadRequest with keystone's text otherwise."""
    return validation.check(globals()[key], body, draft=validation.DRAFT2020_12)


def check_query(key: str, query: dict[str, list[str]]) -> dict[str, str]:
    """The last value of each query parameter, checked like a body."""
    return check_body(key, {name: items[-1] for name, items in query.items()})
