"""Keystone's request checks: the ``POST /v3/auth/tokens`` body and the
application credential create body. Plain values in, plain values out;
BadRequest (or Unauthorized, where keystone answers 401) otherwise."""

import datetime
import re

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud import validation
from occli.localcloud.identity import app_credentials
from occli.localcloud.identity.projects import domain_ref_ok

METHODS = ("password", "token", "application_credential")
SCOPE_KEYS = ("project", "domain", "system", "OS-TRUST:trust", "unscoped")
_FIELD = "Invalid input for field '%s': %s"
# keystone.exception.ValidationError's text
_EXPECTING = (
    "Expecting to find %s in %s. The server could not comply with the request since it is"
    " either malformed or otherwise incorrect. The client is assumed to be in error."
)
_STRING = {"type": "string"}
_ID_NAME = {"type": "object", "properties": {"id": _STRING, "name": _STRING}}
# keystone/auth/schema.py token_issue, as keystone 30 checks an auth body
# without identity (its 400 is jsonschema's whole text: keystone-30-tokens.json)
TOKEN_ISSUE = {
    "type": "object",
    "properties": {
        "identity": {
            "type": "object",
            "properties": {
                "methods": {"type": "array", "items": _STRING},
                "password": {
                    "type": "object",
                    "properties": {
                        "user": {
                            "type": "object",
                            "properties": {
                                "id": _STRING,
                                "name": _STRING,
                                "password": _STRING,
                                "domain": _ID_NAME,
                            },
                        }
                    },
                },
                "token": {"type": "object", "properties": {"id": _STRING}, "required": ["id"]},
            },
            "required": ["methods"],
        },
        "scope": {
            "type": ["object", "string"],
            "properties": {
                "project": {
                    "type": "object",
                    "properties": {"name": _STRING, "id": _STRING, "domain": _ID_NAME},
                },
                "domain": _ID_NAME,
                "OS-TRUST:trust": {"type": "object", "properties": {"id": _STRING}},
                "system": {
                    "type": "object",
                    "properties": {"all": {"type": "boolean", "enum": [True, False, None]}},
                },
            },
        },
    },
    "required": ["identity"],
}


def _bad(message):
    return errors.BadRequest(message)


def parse_auth(body):
    """``(methods, identity, scope)`` of an auth request body, checked in
    keystone's order; ``scope`` as :func:`parse_scope` returns it."""
    auth = body.get("auth") if isinstance(body, dict) else None
    if not isinstance(auth, dict):
        raise _bad("Invalid input for field 'auth': 'auth' is a required property.")
    identity = auth.get("identity")
    if not isinstance(identity, dict):
        validation.check(TOKEN_ISSUE, auth, text=validation.path_text)
        raise _bad("Invalid input for field 'identity': 'identity' is a required property.")
    methods = identity.get("methods")
    if (
        not isinstance(methods, list)
        or not methods
        or not all(isinstance(m, str) for m in methods)
    ):
        raise _bad(
            "Invalid input for field 'identity/methods': expected a non-empty list of strings."
        )
    methods = list(dict.fromkeys(methods))
    for method in methods:
        if not isinstance(identity.get(method), dict):
            raise _bad(_EXPECTING % (method, "identity"))
    scope = parse_scope(auth.get("scope"))
    if any(m not in METHODS for m in methods):
        raise errors.Unauthorized(
            "Attempted to authenticate with an unsupported method.",
            identity={"methods": list(METHODS)},
        )
    if "application_credential" in methods and "scope" in auth:
        # keystone AuthInfo: the credential's project is the scope
        raise errors.Unauthorized(app_credentials.NO_SCOPE)
    if "token" in methods:
        raw = identity["token"].get("id")
        if not isinstance(raw, str) or not raw:
            raise _bad("Invalid input for field 'identity/token': 'id' is a required property.")
    return methods, identity, scope


def parse_scope(scope):
    """``None`` (default scoping), ``("unscoped",)``, or
    ``(kind, payload)`` for project/domain/system/trust."""
    if scope is None:
        return None
    if isinstance(scope, str):
        if scope != "unscoped":
            raise _bad("Invalid input for field 'scope': '%s' is not one of ['unscoped']." % scope)
        return ("unscoped",)
    if not isinstance(scope, dict):
        raise _bad("Invalid input for field 'scope': expected an object or 'unscoped'.")
    keys = [k for k in scope if k in SCOPE_KEYS]
    if len(scope) > 1 or len(keys) != len(scope):
        raise _bad(
            "Invalid input for field 'scope': exactly one"
            " of %s is allowed." % ", ".join(SCOPE_KEYS)
        )
    if not keys:
        return None
    kind = keys[0]
    if kind == "unscoped":
        return ("unscoped",)
    payload = scope[kind]
    if not isinstance(payload, dict):
        raise _bad("Invalid input for field 'scope/%s': expected an object." % kind)
    if kind == "project":
        if "id" not in payload:
            if "name" not in payload:
                raise _bad(
                    "Invalid input for field 'scope/project': either id or name is required."
                )
            if not domain_ref_ok(payload.get("domain")):
                raise _bad(
                    "Invalid input for field 'scope/project/domain':"
                    " a domain id or name is required with a project"
                    " name."
                )
    elif kind == "domain" and "id" not in payload and "name" not in payload:
        raise _bad("Invalid input for field 'scope/domain': either id or name is required.")
    return (kind, payload)


def parse_expires_at(value):
    """An ISO 8601 time (naive = UTC) as a timestamp, not in the past."""
    try:
        parsed = datetime.datetime.fromisoformat(value.strip())
    except ValueError:
        raise _bad(
            "Timestamp not in expected format. The server could not comply"
            " with the request since it is either malformed or otherwise"
            " incorrect. The client is assumed to be in error."
        ) from None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=datetime.timezone.utc)
    if parsed <= common.utcnow():
        # keystone.exception.ValidationExpirationError
        raise _bad(
            "The 'expires_at' must not be before now. The server could not comply with the"
            " request since it is either malformed or otherwise incorrect. The client is"
            " assumed to be in error."
        )
    return parsed.timestamp()


def app_cred_create_input(body):
    """The checked ``application_credential`` of a create request (keystone's
    schema): ``name``, ``description``, ``secret``, ``expires_at`` (a
    timestamp or None), ``roles`` (None = the token's), ``unrestricted``
    (and ``unrestricted_given``: None when the request had none)."""
    data = body.get("application_credential") if isinstance(body, dict) else None
    if not isinstance(data, dict):
        raise _bad(
            _FIELD % ("application_credential", "'application_credential' is a required property.")
        )
    name = data.get("name")
    if "name" not in data:  # keystone.api.validation's text (keystone-30-app_credentials.json)
        raise _bad(
            "Invalid input for field/attribute application_credential. Value: %s."
            " 'name' is a required property" % (data,)
        )
    if not isinstance(name, str) or not 1 <= len(name) <= 255:
        raise _bad(
            _FIELD % ("name", "'name' is a required property (a string of 1 to 255 characters).")
        )
    for key in ("description", "secret", "expires_at"):
        if data.get(key) is not None and not isinstance(data[key], str):
            raise _bad(_FIELD % (key, "expected a string or null."))
    unrestricted = data.get("unrestricted", False)
    if not isinstance(unrestricted, bool):
        raise _bad(_FIELD % ("unrestricted", "expected a boolean."))
    roles = data.get("roles")
    if roles is not None:
        if not isinstance(roles, list) or not all(
            isinstance(r, dict) and len(r) == 1 and set(r) <= {"id", "name"} for r in roles
        ):
            raise _bad(
                _FIELD % ("roles", "expected a list of objects with one of 'id' or 'name'.")
            )
        roles = roles or None
    access_rules = access_rules_input(data.get("access_rules"))
    expires_at = data.get("expires_at")
    return {
        "name": name,
        "description": data.get("description"),
        "secret": data.get("secret") or None,
        "expires_at": (parse_expires_at(expires_at) if expires_at else None),
        "roles": roles,
        "unrestricted": unrestricted,
        "unrestricted_given": data.get("unrestricted"),  # as shown: null when absent
        "access_rules": access_rules,
    }


# keystone/application_credential/schema.py: an access rule's properties
ACCESS_RULE_METHODS = ("DELETE", "GET", "HEAD", "PATCH", "POST", "PUT")
_SERVICE_TYPE = re.compile(r"^[a-zA-Z0-9-]+$")


def access_rules_input(rules):
    """The checked ``access_rules`` of a credential (``[]`` for none):
    each ``{"id"}`` of an existing rule, or ``service``, ``path`` (``/…``,
    at most 225 characters) and ``method``, with an optional ``id``."""
    if rules is None:
        return []
    field = "access_rules"
    if not isinstance(rules, list) or not all(isinstance(r, dict) for r in rules):
        raise _bad(_FIELD % (field, "expected a list of objects."))
    checked = []
    for rule in rules:
        extra = set(rule) - {"id", "service", "path", "method"}
        if extra:
            raise _bad(
                _FIELD
                % (
                    field,
                    "Additional properties are not allowed (%r was unexpected)." % min(extra),
                )
            )
        rule_id = rule.get("id")
        if rule_id is not None and (not isinstance(rule_id, str) or not 1 <= len(rule_id) <= 64):
            raise _bad(_FIELD % (field + "/id", "expected a string of 1 to 64 characters."))
        if set(rule) == {"id"}:
            checked.append({"id": rule_id})
            continue
        service, path, method = rule.get("service"), rule.get("path"), rule.get("method")
        if not isinstance(service, str) or len(service) > 64 or not _SERVICE_TYPE.match(service):
            raise _bad(_FIELD % (field + "/service", "expected a service type."))
        if not isinstance(path, str) or len(path) > 225 or not path.startswith("/"):
            raise _bad(
                _FIELD % (field + "/path", "expected a path starting with '/' (225 characters)")
            )
        if method not in ACCESS_RULE_METHODS:
            raise _bad(
                _FIELD
                % (field + "/method", "%r is not one of %s" % (method, list(ACCESS_RULE_METHODS)))
            )
        checked.append(dict(rule))
    return checked
