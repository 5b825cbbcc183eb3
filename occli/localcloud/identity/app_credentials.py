"""Application credentials: create, list, get, delete, and the
``application_credential`` auth method's checks (two steps, like a
password's: :func:`lookup` reads the stored hash, the caller verifies it
with no lock held, :func:`confirm` re-reads the row where the token is
issued)."""

import sqlite3
import uuid

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud.identity import assignments
from occli.localcloud.identity import passwords
from occli.localcloud.identity import policy
from occli.localcloud.identity import projects
from occli.localcloud.identity import users

AUTH_FAILED = "Invalid application credential ID or secret"
NO_SCOPE = (
    "Error authenticating with application credential:"
    " Application credentials cannot request a scope."
)
RESTRICTED = (
    "You are not authorized to perform the requested action: Using method"
    " 'application_credential' is not allowed for managing additional"
    " application credentials."
)


def check_unrestricted(token):
    """Forbidden if ``token`` was obtained with a restricted credential."""
    cred = token["application_credential"]
    if cred is not None and cred["restricted"]:
        raise errors.Forbidden(RESTRICTED)


def roles(db, cred_id):
    """``[{"id", "name"}]`` of a credential's roles, by name."""
    return [
        dict(r)
        for r in db.execute(
            "SELECT r.id, r.name FROM application_credential_roles a"
            " JOIN roles r ON r.id = a.role_id"
            " WHERE a.application_credential_id = ?"
            " ORDER BY r.name",
            (cred_id,),
        )
    ]


def create(db, user_id, token, data, secret_hash):
    """Store a credential of ``user_id`` for the project of ``token`` (the
    caller's, as loaded by ``tokens.load``) and return its row.

    ``data`` is ``schemas.app_cred_create_input``'s; ``secret_hash`` the
    secret already hashed (outside the transaction).
    """
    check_unrestricted(token)
    if token["project"] is None:
        raise errors.BadRequest(
            "Invalid application credential: a project"
            "-scoped token is required to create an"
            " application credential."
        )
    token_roles = {r["id"]: r for r in token["roles"]}
    if data["roles"] is None:
        role_ids = list(token_roles)
    else:
        role_ids = []
        for ref in data["roles"]:
            role_id = assignments.find_role_id(db, ref)
            if role_id not in token_roles:
                raise errors.BadRequest(
                    "Invalid application credential: Cannot create an"
                    " application credential with unassigned role"
                )
            if role_id not in role_ids:
                role_ids.append(role_id)
    cred_id = uuid.uuid4().hex
    try:
        db.execute(
            "INSERT INTO application_credentials (id, name, description,"
            " user_id, project_id, secret_hash, expires_at, unrestricted,"
            " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                cred_id,
                data["name"],
                data["description"],
                user_id,
                token["project"]["id"],
                secret_hash,
                data["expires_at"],
                int(data["unrestricted"]),
                common.utcnow().timestamp(),
            ),
        )
    except sqlite3.IntegrityError:
        raise errors.Conflict(
            "Conflict occurred attempting to store"
            " application_credential - Duplicate entry"
            " found with name %s." % data["name"]
        ) from None
    db.executemany(
        "INSERT INTO application_credential_roles"
        " (application_credential_id, role_id) VALUES (?, ?)",
        [(cred_id, role_id) for role_id in role_ids],
    )
    return db.execute("SELECT * FROM application_credentials WHERE id = ?", (cred_id,)).fetchone()


def select(db, user_id, name=None):
    """The credential rows of ``user_id`` (only ``name``'s if given)."""
    sql = "SELECT * FROM application_credentials WHERE user_id = ?"
    args = [user_id]
    if name is not None:
        sql += " AND name = ?"
        args.append(name)
    return db.execute(sql + " ORDER BY created_at, id", args).fetchall()


def owned(db, caller_id, url_user_id, cred_id, action):
    """The credential row ``cred_id``, checked against the caller (as
    keystone: the owner is the credential's user, not the URL's)."""
    row = db.execute("SELECT * FROM application_credentials WHERE id = ?", (cred_id,)).fetchone()
    owner = row["user_id"] if row else url_user_id
    if caller_id != owner:
        raise policy.forbidden(action)
    if row is None:
        raise errors.NotFound("Could not find application credential: %s." % cred_id)
    return row


def delete(db, cred_id):
    """Delete a credential and revoke the tokens obtained with it."""
    db.execute("DELETE FROM application_credentials WHERE id = ?", (cred_id,))
    db.execute("UPDATE tokens SET revoked = 1 WHERE app_cred_id = ?", (cred_id,))


# -- the application_credential auth method ---------------------------------


def lookup(db, payload):
    """The :class:`~.passwords.SecretCheck` of an application_credential
    method payload: by ``id``, or by ``name`` + ``user`` (``id``, or
    ``name`` + ``domain``); BadRequest for a malformed one."""
    secret = payload.get("secret")
    field = "identity/application_credential"
    if "id" in payload:
        row = db.execute(
            "SELECT id, secret_hash FROM application_credentials WHERE id = ?",
            (str(payload["id"]),),
        ).fetchone()
    elif "name" in payload:
        user = payload.get("user")
        if not isinstance(user, dict):
            raise errors.BadRequest(
                "Invalid input for field '%s': 'user' is required with a name." % field
            )
        if "id" in user:
            user_id = str(user["id"])
        elif "name" in user:
            if not projects.domain_ref_ok(user.get("domain")):
                raise errors.BadRequest(
                    "Invalid input for field '%s/user/domain': a domain"
                    " id or name is required with a user name." % field
                )
            domain = projects.find_domain(db, user["domain"])
            user_id = domain and users.user_id(db, str(user["name"]), domain["id"])
        else:
            raise errors.BadRequest(
                "Invalid input for field '%s/user': either id or name is required." % field
            )
        row = (
            user_id
            and db.execute(
                "SELECT id, secret_hash FROM application_credentials"
                " WHERE user_id = ? AND name = ?",
                (user_id, str(payload["name"])),
            ).fetchone()
        )
    else:
        raise errors.BadRequest(
            "Invalid input for field '%s': either id or name is required." % field
        )
    return passwords.SecretCheck(
        row["id"] if row else None, row["secret_hash"] if row else None, secret
    )


def confirm(db, check):
    """The credential row of a verified check, or Unauthorized (unknown,
    deleted meanwhile, wrong secret, expired, user disabled)."""
    row = (
        check.row_id
        and db.execute(
            "SELECT * FROM application_credentials WHERE id = ?", (check.row_id,)
        ).fetchone()
    )
    if not row or not check.ok or row["secret_hash"] != check.encoded:
        raise errors.Unauthorized(AUTH_FAILED)
    if row["expires_at"] is not None and row["expires_at"] <= common.utcnow().timestamp():
        raise errors.Unauthorized(AUTH_FAILED)
    user = db.execute("SELECT * FROM users WHERE id = ?", (row["user_id"],)).fetchone()
    users.check_enabled(db, user)
    return row
