"""Keystone's request schemas for the admin API (domains, projects, users,
roles, role assignments), checked with jsonschema the way keystone 30 does
so that a 400 carries keystone's text:

* bodies and list queries (``keystone.api.validation``): the first error
  as ``Invalid input for field/attribute <key>. Value: <value>. <message>``,
  or the bare message when it concerns the top level (``'user' is a
  required property``);
* the password change body (``keystone.common.validation``, older):
  jsonschema's whole error text, ``Invalid input for field '<path>': …``
  when it has a path.

Where keystone answers a 500 (``enabled: "yes"`` is accepted by its schema
and then refused by its database; ``POST /v3/projects {}``), the local
cloud answers a 400 instead: booleans given as text are read like oslo's
``bool_from_string``, a missing ``project`` is a required property.
Resource ``options`` (``immutable``, the user options) are not supported:
``{}`` is accepted, any option is a 400 naming it.
"""

from occli.localcloud import validation

# keystone's parameter_types.boolean: what its schemas let through
_BOOLEAN = {
    "type": ["boolean", "string", "null"],
    "enum": [
        True,
        "True",
        "TRUE",
        "true",
        False,
        "False",
        "FALSE",
        "false",
        "",
        "1",
        "0",
        "y",
        "Y",
        "n",
        "N",
        "on",
        "ON",
        "off",
        "OFF",
        "yes",
        "no",
    ],
}
_PROJECT_NAME = {"type": "string", "minLength": 1, "maxLength": 64, "pattern": r"[\S]+"}
_NAME = {"type": "string", "minLength": 1, "maxLength": 255, "pattern": r"[\S]+"}
_ID_STRING = {"type": "string", "minLength": 1, "maxLength": 64, "pattern": r"^[a-zA-Z0-9-]+$"}
_DESCRIPTION = {"type": ["string", "null"]}
_TAGS = {
    "type": "array",
    "maxItems": 80,
    "uniqueItems": True,
    "items": {"type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[^,/]*$"},
}
# no resource option is supported (keystone: immutable, the user options)
_OPTIONS = {"type": "object", "properties": {}, "additionalProperties": False}


def _nullable(schema):
    return dict(schema, type=[schema["type"], "null"])


_PROJECT = {
    "description": _DESCRIPTION,
    "domain_id": _nullable(_ID_STRING),
    "enabled": _BOOLEAN,
    "is_domain": _BOOLEAN,
    "parent_id": _nullable(_ID_STRING),
    "name": _PROJECT_NAME,
    "tags": _TAGS,
    "options": _OPTIONS,
}
PROJECT_CREATE = {
    "type": "object",
    "properties": {"project": {"type": "object", "properties": _PROJECT, "required": ["name"]}},
    "required": ["project"],
    "additionalProperties": False,
}
PROJECT_UPDATE = {
    "type": "object",
    "properties": {
        "project": {
            "type": "object",
            "properties": {
                key: _PROJECT[key] for key in ("description", "enabled", "name", "options", "tags")
            },
        }
    },
    "required": ["project"],
    "additionalProperties": False,
}
PROJECT_QUERY = {
    "type": "object",
    "properties": {
        "domain_id": _ID_STRING,
        "enabled": _BOOLEAN,
        "name": _PROJECT_NAME,
        "is_domain": _BOOLEAN,
        "parent_id": {"type": "string"},
    },
}

_DOMAIN = {
    "description": _DESCRIPTION,
    "enabled": _BOOLEAN,
    "name": _PROJECT_NAME,
    "options": _OPTIONS,
    "tags": _TAGS,
}
DOMAIN_CREATE = {
    "type": "object",
    "properties": {
        "domain": {
            "type": "object",
            "properties": dict(_DOMAIN, explicit_domain_id=_ID_STRING),
            "required": ["name"],
        }
    },
    "required": ["domain"],
    "additionalProperties": False,
}
DOMAIN_UPDATE = {
    "type": "object",
    "properties": {"domain": {"type": "object", "properties": _DOMAIN, "minProperties": 1}},
    "required": ["domain"],
    "additionalProperties": False,
}
DOMAIN_QUERY = {
    "type": "object",
    "properties": {"enabled": _BOOLEAN, "name": _PROJECT_NAME},
}

_USER = {
    "default_project_id": {"type": ["string", "null"]},
    "description": {"type": ["string", "null"]},
    "domain_id": _ID_STRING,
    "enabled": _BOOLEAN,
    "name": _NAME,
    "password": {"type": ["string", "null"]},
    "options": _OPTIONS,
}
USER_CREATE = {
    "type": "object",
    "properties": {"user": {"type": "object", "properties": _USER, "required": ["name"]}},
    "required": ["user"],
    "additionalProperties": False,
}
USER_UPDATE = {
    "type": "object",
    "properties": {"user": {"type": "object", "properties": _USER, "minProperties": 1}},
    "required": ["user"],
    "additionalProperties": False,
}
USER_QUERY = {
    "type": "object",
    "properties": {"domain_id": _ID_STRING, "enabled": _BOOLEAN, "name": _NAME},
}
PASSWORD_CHANGE = {
    "type": "object",
    "properties": {"original_password": {"type": "string"}, "password": {"type": "string"}},
    "required": ["original_password", "password"],
    "additionalProperties": False,
}

_ROLE = {
    "name": {"type": "string", "minLength": 1, "maxLength": 255, "pattern": r"[\S]+"},
    "description": {"type": ["string", "null"]},
    "domain_id": _nullable(_ID_STRING),
    "options": _OPTIONS,
}
ROLE_CREATE = {
    "type": "object",
    "properties": {"role": {"type": "object", "properties": _ROLE, "required": ["name"]}},
    "required": ["role"],
    "additionalProperties": False,
}
ROLE_UPDATE = {
    "type": "object",
    "properties": {"role": {"type": "object", "properties": _ROLE, "minProperties": 1}},
    "required": ["role"],
    "additionalProperties": False,
}
ROLE_QUERY = {
    "type": "object",
    "properties": {"name": _NAME, "domain_id": _ID_STRING},
}

# keystone's identity/schema.py: a group keeps extra attributes
_GROUP = {"description": _DESCRIPTION, "domain_id": _ID_STRING, "name": _NAME}
GROUP_CREATE = {
    "type": "object",
    "properties": {"group": {"type": "object", "properties": _GROUP, "required": ["name"]}},
    "required": ["group"],
    "additionalProperties": False,
}
GROUP_UPDATE = {
    "type": "object",
    "properties": {
        "group": {
            "type": "object",
            "properties": {key: _GROUP[key] for key in ("description", "name")},
            "minProperties": 1,
        }
    },
    "required": ["group"],
    "additionalProperties": False,
}
GROUP_QUERY = {
    "type": "object",
    "properties": {"domain_id": _ID_STRING, "name": _NAME},
}


def _check(key, data, text=validation.field_text):
    return validation.check(globals()[key], data, draft=validation.DRAFT2020_12, text=text)


def check_body(key, body):
    """``body`` checked against the schema named ``key`` (e.g.
    ``"PROJECT_CREATE"``); BadRequest with keystone's text otherwise."""
    return _check(key, body)


def check_query(key, query):
    """The last value of each query parameter, checked like a body."""
    values = {name: items[-1] for name, items in query.items()}
    return check_body(key, values)


def check_password_change(body):
    """The ``user`` of a password change body (keystone's older
    validator: jsonschema's whole text)."""
    data = body.get("user", {}) if isinstance(body, dict) else body
    return _check("PASSWORD_CHANGE", data, text=validation.path_text)


def boolean(value, default=True):
    """A boolean the schemas let through (``True``, ``"no"``, ``""``, …),
    read like oslo's ``bool_from_string`` (unknown text: ``default``)."""
    return validation.bool_from_string(value, default=default)


def optional_boolean(value):
    """:func:`boolean` of a filter that may be absent (None stays None)."""
    return None if value is None else boolean(value)


# keystone/resource/schema.py's project_tags_update, in keystone's key
# order: a list's own error shows the schema (jsonschema's whole text)
PROJECT_TAGS = {
    "type": "array",
    "items": _TAGS["items"],
    "required": [],
    "maxItems": 80,
    "uniqueItems": True,
}
PROJECT_TAG = _TAGS["items"]


def lazy_text(error):
    """keystone's ``lazy_validate``: an item's error as the field text,
    the value's own as jsonschema's whole text."""
    return validation.field_text(error) if error.path else str(error)


# keystone/oauth1/schema.py, in keystone's key order
_CONSUMER = {"description": _nullable({"type": "string"})}
CONSUMER_CREATE = {"type": "object", "properties": _CONSUMER, "additionalProperties": True}
CONSUMER_UPDATE = {
    "type": "object",
    "properties": _CONSUMER,
    "not": {"required": ["secret"]},
    "minProperties": 1,
    "additionalProperties": True,
}


def check_lazy(key, value):
    """``value`` checked against the schema ``key`` as keystone's
    ``lazy_validate`` checks (an OAuth1 consumer, project tags)."""
    return _check(key, value, text=lazy_text)


def check_tags(key, value):
    """A project's tags (``"PROJECT_TAGS"``) or one tag (``"PROJECT_TAG"``),
    checked as keystone's ``lazy_validate`` checks them."""
    return _check(key, value, text=lazy_text)
