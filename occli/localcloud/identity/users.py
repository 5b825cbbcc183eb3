"""Users: lookups, the seed's ``ensure``, the password method's checks,
the admin API's rules (create, update, delete, list, a user's projects)
and the change of one's own password.

A password is checked in two steps so that scrypt never runs inside a
write transaction: :func:`password_lookup` reads the stored hash (a
:class:`~.passwords.SecretCheck`), the caller verifies it with no lock
held, then :func:`password_user` re-reads the user in the transaction that
issues the token and refuses if the hash changed meanwhile.

Keystone's lockout (``[security_compliance] lockout_failure_attempts`` and
``lockout_duration``, :class:`Lockout`; off by default) is checked before
any hashing: a locked user is refused without scrypt. While it is on, a
wrong password of a known user is counted in a short write of its own
(:func:`record_failure`) and a login or password change that succeeds
resets the count.
"""

import json
import sqlite3
import typing
import uuid

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud.identity import passwords
from occli.localcloud.identity import projects
from occli.localcloud.identity.projects import DEFAULT_DOMAIN

# attributes of a user that are columns (or never stored); any other is an
# extra one, shown at the top level (``email``, ``description``, …)
USER_KEYS = (
    "id",
    "name",
    "domain_id",
    "enabled",
    "password",
    "default_project_id",
    "options",
    "federated",
    "links",
    "password_expires_at",
)
AUTH_REQUIRED = "The request you have made requires authentication."
# keystone.exception.AccountLocked
ACCOUNT_LOCKED = "The account is locked for user: %s."


class Lockout(typing.NamedTuple):
    """Keystone's ``[security_compliance]`` lockout settings: after
    ``attempts`` failed password logins (None: never, keystone's default)
    a user is locked for ``duration`` seconds (None: until an admin updates
    the user, which unlocks it as keystone's ``User.enabled`` setter does)."""

    attempts: int | None = None
    duration: float | None = 1800


NO_LOCKOUT = Lockout()


def check_lockout(row: sqlite3.Row, lockout: Lockout) -> None:
    """Unauthorized (keystone's ``AccountLocked``) if the user ``row`` has
    failed ``lockout.attempts`` times and the last failure is more recent
    than ``lockout.duration`` (keystone's ``_is_account_locked``)."""
    if not lockout.attempts or row["failed_auth_count"] < lockout.attempts:
        return
    if lockout.duration is None or _lock_lasts(row["failed_auth_at"], lockout.duration):
        raise errors.Unauthorized(ACCOUNT_LOCKED % row["id"])


def _lock_lasts(failed_at: float | None, duration: float) -> bool:
    return failed_at is not None and failed_at + duration > common.utcnow().timestamp()


def counts_failure(check: passwords.SecretCheck | None, lockout: Lockout) -> bool:
    """Whether ``check`` is a wrong password of a known user that the
    lockout counts (with :func:`record_failure`, in a write of its own)."""
    return bool(lockout.attempts and check is not None and check.row_id and not check.ok)


def record_failure(db: sqlite3.Connection, user_id: str, lockout: Lockout) -> None:
    """Count a failed password login (keystone's ``_record_failed_auth``);
    a lock that has expired starts again at one (keystone resets it when
    it finds it expired)."""
    row = db.execute(
        "SELECT failed_auth_count, failed_auth_at FROM users WHERE id = ?", (user_id,)
    ).fetchone()
    if row is None:
        return
    count = row["failed_auth_count"]
    if (
        lockout.attempts
        and count >= lockout.attempts
        and lockout.duration is not None
        and not _lock_lasts(row["failed_auth_at"], lockout.duration)
    ):
        count = 0
    db.execute(
        "UPDATE users SET failed_auth_count = ?, failed_auth_at = ? WHERE id = ?",
        (count + 1, common.utcnow().timestamp(), user_id),
    )


def reset_failures(db: sqlite3.Connection, user_id: str) -> None:
    """Forget the user's failed logins (keystone's ``_reset_failed_auth``)."""
    db.execute(
        "UPDATE users SET failed_auth_count = 0, failed_auth_at = NULL"
        " WHERE id = ? AND (failed_auth_count != 0 OR failed_auth_at IS NOT NULL)",
        (user_id,),
    )


def user_id(db, name, domain_id=DEFAULT_DOMAIN):
    """The id of user ``name`` in ``domain_id``, or None."""
    row = db.execute(
        "SELECT id FROM users WHERE name = ? AND domain_id = ?", (name, domain_id)
    ).fetchone()
    return row["id"] if row else None


def ensure_user(db, name, password, project_id):
    """The id of user ``name`` (default domain) with ``password``.

    Created if missing; an existing user whose password differs gets the
    new one and loses its tokens; its default project is set if unset.
    """
    row = db.execute(
        "SELECT id, password_hash FROM users WHERE name = ? AND domain_id = ?",
        (name, DEFAULT_DOMAIN),
    ).fetchone()
    if row is None:
        new_id = uuid.uuid4().hex
        db.execute(
            "INSERT INTO users (id, name, domain_id, password_hash,"
            " default_project) VALUES (?, ?, ?, ?, ?)",
            (new_id, name, DEFAULT_DOMAIN, passwords.hash_password(password), project_id),
        )
        return new_id
    if not passwords.verify_password(password, row["password_hash"]):
        db.execute(
            "UPDATE users SET password_hash = ? WHERE id = ?",
            (passwords.hash_password(password), row["id"]),
        )
        db.execute("UPDATE tokens SET revoked = 1 WHERE user_id = ?", (row["id"],))
    elif passwords.weaker_than_current(row["password_hash"]):
        db.execute(
            "UPDATE users SET password_hash = ? WHERE id = ?",
            (passwords.hash_password(password), row["id"]),
        )
    db.execute(
        "UPDATE users SET default_project = ? WHERE id = ? AND default_project IS NULL",
        (project_id, row["id"]),
    )
    return row["id"]


def check_enabled(db, row):
    """Unauthorized unless the user ``row`` and its domain are enabled."""
    domain = projects.find_domain(db, {"id": row["domain_id"]})
    if not row["enabled"] or not domain or not domain["enabled"]:
        raise errors.Unauthorized("The account is disabled for user: %s" % row["id"])


def password_lookup(db, payload, lockout=NO_LOCKOUT):
    """The :class:`~.passwords.SecretCheck` of a password method payload
    (BadRequest for a malformed one; Unauthorized for a locked user: see
    :func:`check_lockout`); no hashing here."""
    user = payload.get("user")
    if not isinstance(user, dict):
        raise errors.BadRequest(
            "Invalid input for field 'identity/password': 'user' is a required property."
        )
    password = user.get("password")
    if "id" in user:
        row = db.execute("SELECT * FROM users WHERE id = ?", (str(user["id"]),)).fetchone()
    elif "name" in user:
        if not projects.domain_ref_ok(user.get("domain")):
            raise errors.BadRequest(
                "Invalid input for field 'identity/password/user/domain': a"
                " domain id or name is required with a user name."
            )
        domain = projects.find_domain(db, user["domain"])
        row = (
            domain
            and db.execute(
                "SELECT * FROM users WHERE name = ? AND domain_id = ?",
                (str(user["name"]), domain["id"]),
            ).fetchone()
        )
    else:
        raise errors.BadRequest(
            "Invalid input for field 'identity/password/user': either id or name is required."
        )
    if row:
        check_lockout(row, lockout)
    return passwords.SecretCheck(
        row["id"] if row else None, row["password_hash"] if row else None, password
    )


def password_user(db, check):
    """The user id of a verified password check, or Unauthorized (unknown,
    wrong password, password changed since the check, user disabled)."""
    row = (
        check.row_id and db.execute("SELECT * FROM users WHERE id = ?", (check.row_id,)).fetchone()
    )
    if not row or not check.ok or row["password_hash"] != check.encoded:
        raise errors.Unauthorized("Invalid username or password")
    check_enabled(db, row)
    reset_failures(db, row["id"])
    return row["id"]


# -- the admin API -------------------------------------------------------------


def not_found(user_id):
    return errors.NotFound("Could not find user: %s." % user_id)


def get(db, user_id):
    """The user row ``user_id``, or NotFound (keystone's text)."""
    row = db.execute("SELECT * FROM users WHERE id = ?", (user_id,)).fetchone()
    if row is None:
        raise not_found(user_id)
    return row


def find(db, user_id):
    """The user row ``user_id``, or None."""
    return db.execute("SELECT * FROM users WHERE id = ?", (user_id,)).fetchone()


def select(db, name=None, domain_id=None, enabled=None):
    """User rows matching the filters that are not None, by name."""
    sql, args = "SELECT * FROM users WHERE 1", []
    for column, value in (("name", name), ("domain_id", domain_id)):
        if value is not None:
            sql += " AND %s = ?" % column
            args.append(value)
    if enabled is not None:
        sql += " AND enabled = ?"
        args.append(int(enabled))
    return db.execute(sql + " ORDER BY name, id", args).fetchall()


def extra(row):
    return json.loads(row["extra"])


def _extra(data):
    return {k: v for k, v in data.items() if k not in USER_KEYS}


def check_supported(data):
    """BadRequest for what the local cloud does not keep (federation)."""
    if data.get("federated"):
        raise errors.BadRequest(
            "Invalid input for field/attribute federated:"
            " federated users are not supported by the"
            " local cloud."
        )


def create(db, data, domain_id, password_hash):
    """Create a user from a checked ``user`` body; ``domain_id`` is the one
    to use when the body gives none; ``password_hash`` the password already
    hashed (outside the transaction; "" for a user without one, who cannot
    log in). Returns the row; the name stripped, as keystone's
    ``create_user``. The caller has applied :func:`check_supported`
    (before hashing)."""
    domain_id = data.get("domain_id") or domain_id
    name = data["name"].strip()
    if projects.find_domain(db, {"id": domain_id}) is None:
        raise errors.NotFound("Could not find domain: %s." % domain_id)
    user_id = uuid.uuid4().hex
    try:
        db.execute(
            "INSERT INTO users (id, name, domain_id, password_hash,"
            " default_project, enabled, extra) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                user_id,
                name,
                domain_id,
                password_hash,
                data.get("default_project_id"),
                int(data["enabled"]),
                json.dumps(_extra(data)),
            ),
        )
    except sqlite3.IntegrityError:
        raise errors.Conflict(
            "Conflict occurred attempting to store user - Duplicate entry"
            " found with name %s at domain ID %s." % (name, domain_id)
        ) from None
    return get(db, user_id)


def update(db, user_id, data, password_hash=None):
    """Apply a checked ``user`` update body (``password_hash``: the new
    password, hashed); the updated row (the name stripped, as keystone's
    ``update_user``). A new password or disabling the user revokes its
    tokens, as keystone does; disabling it deletes its application
    credentials, as keystone's. The caller has applied
    :func:`check_supported` (before hashing)."""
    row = get(db, user_id)
    if data.get("id") is not None and data["id"] != user_id:
        raise errors.BadRequest("Cannot change ID")
    if "domain_id" in data and data["domain_id"] != row["domain_id"]:
        raise errors.BadRequest("Cannot change Domain ID")
    name = data["name"].strip() if "name" in data else row["name"]
    enabled = data["enabled"] if "enabled" in data else bool(row["enabled"])
    default_project = row["default_project"]
    if "default_project_id" in data:
        default_project = data["default_project_id"]
    merged = dict(extra(row), **_extra(data))
    try:
        db.execute(
            "UPDATE users SET name = ?, enabled = ?, default_project = ?, extra = ? WHERE id = ?",
            (name, int(enabled), default_project, json.dumps(merged), user_id),
        )
    except sqlite3.IntegrityError:
        raise errors.Conflict(
            "Conflict occurred attempting to store user - Duplicate entry"
            " found with name %s." % name
        ) from None
    if password_hash is not None:
        db.execute("UPDATE users SET password_hash = ? WHERE id = ?", (password_hash, user_id))
    if password_hash is not None or (row["enabled"] and not enabled):
        db.execute("UPDATE tokens SET revoked = 1 WHERE user_id = ?", (user_id,))
    if row["enabled"] and not enabled:
        # keystone's application credential manager deletes a disabled
        # user's credentials (_delete_app_creds_on_user_delete_callback)
        db.execute("DELETE FROM application_credentials WHERE user_id = ?", (user_id,))
    if enabled:
        # keystone's update sets every attribute: User.enabled's setter
        # resets the failed logins of a user left enabled
        reset_failures(db, user_id)
    return get(db, user_id)


def delete(db, user_id):
    get(db, user_id)
    delete_rows(db, user_id)


def delete_rows(db, user_id):
    """Delete a user with its role assignments, application credentials and
    tokens (which are then invalid: 401)."""
    db.execute("DELETE FROM role_assignments WHERE user_id = ?", (user_id,))
    db.execute("DELETE FROM application_credentials WHERE user_id = ?", (user_id,))
    db.execute("DELETE FROM tokens WHERE user_id = ?", (user_id,))
    db.execute("DELETE FROM users WHERE id = ?", (user_id,))


def project_ids(db, user_id):
    """The ids of the projects the user has a role on, directly or through
    one of its groups (keystone's ``list_projects_for_user``)."""
    return {
        r["target_id"]
        for r in db.execute(
            "SELECT target_id FROM role_assignments"
            " WHERE user_id = ? AND target_type = 'project'"
            " UNION SELECT g.target_id FROM group_role_assignments g"
            " JOIN user_group_membership m ON m.group_id = g.group_id"
            " WHERE m.user_id = ? AND g.target_type = 'project'",
            (user_id, user_id),
        )
    }


# -- POST /v3/users/{user_id}/password (two steps, like a login) -----------------


def original_password_lookup(db, user_id, original, lockout=NO_LOCKOUT):
    """The :class:`~.passwords.SecretCheck` of the original password
    (verified by the caller with no lock held); Unauthorized for a locked
    user (keystone checks it with ``authenticate``, as a login)."""
    row = find(db, user_id)
    if row:
        check_lockout(row, lockout)
    return passwords.SecretCheck(
        row["id"] if row else None, row["password_hash"] if row else None, original
    )


def change_password(db, check, new_hash):
    """Store ``new_hash`` for the user of a verified check and revoke its
    tokens; Unauthorized (keystone's texts) for an unknown user, a wrong
    original password, a password changed meanwhile or a disabled user."""
    row = check.row_id and find(db, check.row_id)
    if not row or not check.ok or row["password_hash"] != check.encoded:
        raise errors.Unauthorized(AUTH_REQUIRED)
    if not row["enabled"]:
        raise errors.Unauthorized("The account is disabled for user: %s." % row["id"])
    db.execute("UPDATE users SET password_hash = ? WHERE id = ?", (new_hash, row["id"]))
    db.execute("UPDATE tokens SET revoked = 1 WHERE user_id = ?", (row["id"],))
    reset_failures(db, row["id"])
