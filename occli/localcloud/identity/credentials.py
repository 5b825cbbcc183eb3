"""Credentials (keystone/api/credentials.py, keystone/credential/): a
user's secrets as data — ``ec2`` (a JSON blob with ``access`` and
``secret``; its id the sha256 of the access key), ``totp``, ``cert`` or
any other type (an opaque blob). keystone's default policies: the owner
or an admin (a system reader too, to read); a token delegated through a
trust or an application credential only reaches credentials of its own
project. The blob is never logged (``occli.redaction`` masks ``blob``).

The EC2 API (``OS-EC2``, ``/v3/ec2tokens``) is :mod:`.ec2`.
"""

import hashlib
import json
import uuid

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud.identity import policy

_FIELD = "Invalid input for field/attribute credential. Value: %r. %s"
RESTRICTED = (
    "Using method 'application_credential' is not allowed for managing additional credentials."
)


def not_found(credential_id):
    return errors.NotFound("Could not find credential: %s." % credential_id)


def create_input(body):
    """The checked ``credential`` of a create body (keystone's schema:
    ``type``, ``user_id``, ``blob`` required, ``project_id`` for ec2)."""
    data = body.get("credential") if isinstance(body, dict) else None
    if not isinstance(data, dict):
        raise errors.BadRequest("'credential' is a required property")
    for key in ("blob", "type", "user_id"):
        if key not in data:
            raise errors.BadRequest(_FIELD % (data, "'%s' is a required property" % key))
    for key in ("blob", "type", "user_id"):
        if not isinstance(data[key], str):
            raise errors.BadRequest(_FIELD % (data, "%r is not of type 'string'" % data[key]))
    if data["type"].lower() == "ec2" and "project_id" not in data:
        raise errors.BadRequest(_FIELD % (data, "'project_id' is a required property"))
    if data.get("project_id") is not None and not isinstance(data["project_id"], str):
        raise errors.BadRequest(_FIELD % (data, "%r is not of type 'string'" % data["project_id"]))
    return data


def update_input(body):
    """The checked ``credential`` of an update body."""
    data = body.get("credential") if isinstance(body, dict) else None
    if not isinstance(data, dict) or not data:
        raise errors.BadRequest("'credential' is a required property")
    extra = sorted(set(data) - {"blob", "project_id", "type", "user_id"})
    if data.get("type", "").lower() == "ec2" and "project_id" not in data:
        extra = ["type"]  # keystone's oneOf picks the ec2 branch's text
    if extra:
        raise errors.BadRequest(
            _FIELD % (data, "Additional properties are not allowed (%r was unexpected)" % extra[0])
        )
    return data


def _expecting(attribute):
    """keystone's ``ValidationError(attribute=…, target='credential')``."""
    return errors.BadRequest(
        "Expecting to find %s in credential. The server could not comply with the request"
        " since it is either malformed or otherwise incorrect. The client is assumed to be"
        " in error." % attribute
    )


def _ec2_blob(blob):
    """keystone's ``_validate_blob_json``: the ec2 blob as a dict."""
    try:
        value = json.loads(blob)
    except ValueError:
        raise errors.BadRequest("Invalid blob in credential") from None
    if not value or not isinstance(value, dict):
        raise _expecting("blob")
    if value.get("access") is None:
        raise _expecting("access")
    return value


def _delegated_scope(token, row_project):
    """keystone's ``_check_credential_project_scope``: a trust's or an
    application credential's token reaches only its project's."""
    if token["trust"] is None and token["application_credential"] is None:
        return
    project = token["project"]
    if row_project is None or project is None or row_project != project["id"]:
        raise errors.Forbidden(
            policy.MESSAGE
            % "Credential project does not match the project scope of the delegated token"
        )


def _owner(ctx, user_id, reading=False):
    return ctx.is_admin or ctx.user_id == user_id or (reading and policy.system_reader(ctx))


def create(db, ctx, token, data):
    """Store a credential; its row (409 for an ec2 access key in use)."""
    policy.enforce(ctx, "create_credential", _owner(ctx, data["user_id"]))
    cred = token["application_credential"]
    if data["type"].lower() == "ec2" and cred is not None and cred["restricted"]:
        raise errors.Forbidden(policy.MESSAGE % RESTRICTED)
    _delegated_scope(token, data.get("project_id"))
    blob = data["blob"]
    if data["type"].lower() == "ec2":
        value = _ec2_blob(blob)
        credential_id = hashlib.sha256(value["access"].encode("utf8")).hexdigest()
        if token["trust"] is not None:
            value["trust_id"] = token["trust"]["id"]
            blob = json.dumps(value)
        elif cred is not None:
            value["app_cred_id"] = cred["id"]
            blob = json.dumps(value)
    else:
        credential_id = uuid.uuid4().hex
    if db.execute("SELECT 1 FROM credentials WHERE id = ?", (credential_id,)).fetchone():
        raise errors.Conflict(
            "Conflict occurred attempting to store credential - Duplicate entry found"
            " with ID %s." % credential_id
        )
    if db.execute("SELECT 1 FROM users WHERE id = ?", (data["user_id"],)).fetchone() is None:
        raise errors.NotFound("Could not find user: %s." % data["user_id"])
    db.execute(
        "INSERT INTO credentials (id, user_id, project_id, type, blob, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (
            credential_id,
            data["user_id"],
            data.get("project_id"),
            data["type"],
            blob,
            common.utcnow().timestamp(),
        ),
    )
    return find(db, credential_id)


def find(db, credential_id):
    return db.execute("SELECT * FROM credentials WHERE id = ?", (credential_id,)).fetchone()


def owned(db, ctx, token, credential_id, action, reading=False):
    """The credential row ``credential_id`` after keystone's policy: an
    unknown one is a 403 but to admins (404)."""
    row = find(db, credential_id)
    policy.enforce(ctx, action, _owner(ctx, row["user_id"] if row else None, reading))
    if row is None:
        raise not_found(credential_id)
    _delegated_scope(token, row["project_id"])
    return row


def select(db, ctx, token, user_id=None, cred_type=None):
    """The credentials the caller may read (``user_id``, ``type``: exact
    filters), as keystone filters the list."""
    sql, args = "SELECT * FROM credentials WHERE 1", []
    for column, value in (("user_id", user_id), ("type", cred_type)):
        if value is not None:
            sql += " AND %s = ?" % column
            args.append(value)
    rows = []
    for row in db.execute(sql + " ORDER BY created_at, id", args):
        if not _owner(ctx, row["user_id"], reading=True):
            continue
        try:
            _delegated_scope(token, row["project_id"])
        except errors.Forbidden:
            continue
        rows.append(row)
    return rows


def update(db, ctx, token, credential_id, data):
    """Apply a checked update (an ec2 blob keeps its access key and scope)."""
    row = owned(db, ctx, token, credential_id, "update_credential")
    merged = {k: row[k] for k in ("user_id", "project_id", "type", "blob")}
    merged.update(data)
    if merged["type"].lower() == "ec2":
        new, old = (
            _ec2_blob(merged["blob"]),
            json.loads(row["blob"]) if row["type"] == "ec2" else {},
        )
        for key in ("trust_id", "app_cred_id", "access_token_id", "access_id"):
            if old.get(key) != new.get(key):
                raise errors.BadRequest("%s can not be updated for credential" % key)
    db.execute(
        "UPDATE credentials SET user_id = ?, project_id = ?, type = ?, blob = ? WHERE id = ?",
        (merged["user_id"], merged["project_id"], merged["type"], merged["blob"], credential_id),
    )
    return find(db, credential_id)


def delete(db, ctx, token, credential_id):
    owned(db, ctx, token, credential_id, "delete_credential")
    db.execute("DELETE FROM credentials WHERE id = ?", (credential_id,))
