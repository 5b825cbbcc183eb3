"""Trusts (keystone's OS-TRUST: ``keystone/api/trusts.py``,
``keystone/trust/core.py``, ``backends/sql.py``): a trustor delegates some
of its roles on a project to a trustee, who gets trust-scoped tokens
(``{"scope": {"OS-TRUST:trust": {"id"}}}``) acting with those roles — as
the trustee, or with ``impersonation`` as the trustor — until the trust
expires, runs out of ``remaining_uses`` (one per token) or is deleted
(its tokens then stop working).

Not served: redelegation (``allow_redelegation``, ``redelegation_count``
is always 0), trusts without a project, ``/roles`` sub-routes' HEAD.
"""

import uuid

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud.identity import assignments
from occli.localcloud.identity import implied_roles
from occli.localcloud.identity import policy
from occli.localcloud.identity import schemas
from occli.localcloud.identity import users

APP_CRED = "Using method 'application_credential' is not allowed for managing trusts."
_FIELD = "Invalid input for field '%s': %s"


def _action(text):
    """keystone's ForbiddenAction."""
    return errors.Forbidden(policy.MESSAGE % text)


def check_not_app_cred(token):
    """keystone's ``_check_application_credential``: no trust operation
    with a token obtained through an application credential."""
    if token["application_credential"] is not None:
        raise _action(APP_CRED)


def not_found(trust_id):
    return errors.NotFound("Could not find trust: %s." % trust_id)


def create_input(body):
    """The checked ``trust`` of a create request (keystone's schema)."""
    data = body.get("trust") if isinstance(body, dict) else None
    if not isinstance(data, dict):
        raise errors.BadRequest(_FIELD % ("trust", "'trust' is a required property."))
    for key in ("trustor_user_id", "trustee_user_id", "impersonation"):
        if key not in data:
            # keystone's jsonschema text (keystone/common/validation/validators.py)
            raise errors.BadRequest(
                "Invalid input for field/attribute trust. Value: %r. '%s' is a required property"
                % (data, key)
            )
    for key in ("trustor_user_id", "trustee_user_id"):
        if not isinstance(data[key], str):
            raise errors.BadRequest(_FIELD % (key, "expected a string."))
    if not isinstance(data["impersonation"], bool):
        raise errors.BadRequest(_FIELD % ("impersonation", "expected a boolean."))
    project_id = data.get("project_id")
    if project_id is not None and not isinstance(project_id, str):
        raise errors.BadRequest(_FIELD % ("project_id", "expected a string or null."))
    uses = data.get("remaining_uses")
    if uses is not None and (not isinstance(uses, int) or isinstance(uses, bool)):
        raise errors.BadRequest(_FIELD % ("remaining_uses", "expected an integer or null."))
    if uses is not None and uses <= 0:
        raise errors.BadRequest("remaining_uses must be a positive integer or null.")
    if data.get("allow_redelegation"):
        raise errors.BadRequest(
            _FIELD % ("allow_redelegation", "redelegation is not served by the local cloud.")
        )
    roles = data.get("roles") or []
    if not isinstance(roles, list) or not all(
        isinstance(r, dict) and ("id" in r or "name" in r) for r in roles
    ):
        raise errors.BadRequest(
            _FIELD % ("roles", "expected a list of objects with 'id' or 'name'.")
        )
    expires_at = data.get("expires_at")
    if expires_at is not None and not isinstance(expires_at, str):
        raise errors.BadRequest(_FIELD % ("expires_at", "expected a string or null."))
    return {
        "trustor_user_id": data["trustor_user_id"],
        "trustee_user_id": data["trustee_user_id"],
        "impersonation": data["impersonation"],
        "project_id": project_id or None,
        "remaining_uses": uses,
        "roles": roles,
        "expires_at": schemas.parse_expires_at(expires_at) if expires_at else None,
    }


def create(db, ctx, token, data):
    """Store a trust of the caller (the trustor) and return its row, in
    keystone's order of checks (``create_trust``: the trustor only)."""
    policy.enforce(ctx, "create_trust", ctx.user_id == data["trustor_user_id"])
    check_not_app_cred(token)
    if data["project_id"] and not data["roles"]:
        raise _action("At least one role should be specified")
    if users.find(db, data["trustee_user_id"]) is None:
        raise errors.NotFound("Could not find user: %s." % data["trustee_user_id"])
    role_ids = []
    for ref in data["roles"]:
        role_id = assignments.find_role_id(db, {k: ref[k] for k in ref if k in ("id", "name")})
        if role_id not in role_ids:
            role_ids.append(role_id)
    if data["project_id"] is None:
        raise errors.BadRequest(
            _FIELD % ("project_id", "a trust without a project is not served by the local cloud.")
        )
    if db.execute("SELECT 1 FROM projects WHERE id = ?", (data["project_id"],)).fetchone() is None:
        raise errors.NotFound("Could not find project: %s." % data["project_id"])
    held = {
        r["id"]
        for r in assignments.roles_named(
            db, assignments.role_names(db, ctx.user_id, "project", data["project_id"])
        )
    }
    for role_id in role_ids:
        if role_id not in held:
            raise errors.NotFound("Could not find role: %s." % role_id)
    trust_id = uuid.uuid4().hex
    db.execute(
        "INSERT INTO trusts (id, trustor_user_id, trustee_user_id, project_id,"
        " impersonation, expires_at, remaining_uses, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (
            trust_id,
            data["trustor_user_id"],
            data["trustee_user_id"],
            data["project_id"],
            int(data["impersonation"]),
            data["expires_at"],
            data["remaining_uses"],
            common.utcnow().timestamp(),
        ),
    )
    db.executemany(
        "INSERT INTO trust_roles (trust_id, role_id) VALUES (?, ?)",
        [(trust_id, role_id) for role_id in role_ids],
    )
    return find(db, trust_id)


def _usable(row):
    """Whether a trust row is still in force (keystone's ``get_trust``:
    an expired or used-up trust is not found)."""
    if row is None:
        return False
    if row["expires_at"] is not None and row["expires_at"] < common.utcnow().timestamp():
        return False
    return row["remaining_uses"] is None or row["remaining_uses"] > 0


def find(db, trust_id):
    """The trust row ``trust_id`` in force, or NotFound."""
    row = db.execute("SELECT * FROM trusts WHERE id = ?", (trust_id,)).fetchone()
    if not _usable(row):
        raise not_found(trust_id)
    return row


def check_related(ctx, row, action):
    """keystone's ``ADMIN_OR_SYSTEM_READER_OR_TRUSTOR_OR_TRUSTEE``."""
    policy.enforce(
        ctx,
        action,
        ctx.is_admin
        or policy.system_reader(ctx)
        or ctx.user_id in (row["trustor_user_id"], row["trustee_user_id"]),
    )


def roles(db, trust_id):
    """The role rows of a trust, by name."""
    return db.execute(
        "SELECT r.* FROM trust_roles t JOIN roles r ON r.id = t.role_id"
        " WHERE t.trust_id = ? ORDER BY r.name",
        (trust_id,),
    ).fetchall()


def select(db, ctx, trustor=None, trustee=None):
    """The trusts in force a list shows, after keystone's policy:
    ``?trustor_user_id`` (admin, system reader or that trustor),
    ``?trustee_user_id`` (likewise), else every trust (admin or system
    reader)."""
    reader = ctx.is_admin or policy.system_reader(ctx)
    if trustor is not None:
        policy.enforce(ctx, "list_trusts_for_trustor", reader or ctx.user_id == trustor)
        sql, args = " WHERE trustor_user_id = ?", [trustor]
    elif trustee is not None:
        policy.enforce(ctx, "list_trusts_for_trustee", reader or ctx.user_id == trustee)
        sql, args = " WHERE trustee_user_id = ?", [trustee]
    else:
        policy.enforce(ctx, "list_trusts", reader)
        sql, args = "", []
    rows = db.execute("SELECT * FROM trusts" + sql + " ORDER BY created_at, id", args)
    return [row for row in rows if _usable(row)]


def delete(db, ctx, token, trust_id):
    """Delete a trust (its trustor or an admin) and revoke its tokens."""
    row = find(db, trust_id)
    policy.enforce(ctx, "delete_trust", ctx.is_admin or ctx.user_id == row["trustor_user_id"])
    check_not_app_cred(token)
    db.execute("DELETE FROM trusts WHERE id = ?", (trust_id,))
    db.execute("UPDATE tokens SET revoked = 1 WHERE trust_id = ?", (trust_id,))


# -- trust-scoped tokens ------------------------------------------------------


def consume(db, user_id, payload):
    """The trust row a trust-scoped token of ``user_id`` (the trustee)
    is issued for, one of its ``remaining_uses`` used (keystone's
    ``consume_use``); the errors keystone answers at that point."""
    trust_id = payload.get("id")
    if not trust_id or not isinstance(trust_id, str):
        raise errors.BadRequest(
            "Expecting to find trust_id in trust. The server could not comply with the"
            " request since it is either malformed or otherwise incorrect. The client"
            " is assumed to be in error."
        )
    row = find(db, trust_id)
    if row["trustee_user_id"] != user_id:
        raise errors.Forbidden("User is not a trustee.")
    trustor = users.find(db, row["trustor_user_id"])
    if trustor is None or not trustor["enabled"]:
        raise errors.Forbidden("Trustor is disabled.")
    if row["remaining_uses"] is not None:
        db.execute(
            "UPDATE trusts SET remaining_uses = remaining_uses - 1 WHERE id = ?", (trust_id,)
        )
    return row


def token_role_names(db, trust_id):
    """The role names of a trust-scoped token: the trust's roles its
    trustor still has on the project (none: the token is invalid); None
    if the trust was deleted."""
    row = db.execute("SELECT * FROM trusts WHERE id = ?", (trust_id,)).fetchone()
    if row is None:
        return None
    held = assignments.role_names(db, row["trustor_user_id"], "project", row["project_id"])
    return held & implied_roles.expand(db, {r["name"] for r in roles(db, trust_id)})


def token_trust(db, trust_id):
    """The ``OS-TRUST:trust`` member of a trust-scoped token's body."""
    row = db.execute("SELECT * FROM trusts WHERE id = ?", (trust_id,)).fetchone()
    return {
        "id": row["id"],
        "impersonation": bool(row["impersonation"]),
        "trustee_user": {"id": row["trustee_user_id"]},
        "trustor_user": {"id": row["trustor_user_id"]},
    }
