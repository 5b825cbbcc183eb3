"""Users: lookups, the seed's ``ensure``, the password method's checks.

A password is checked in two steps so that scrypt never runs inside a
write transaction: :func:`password_lookup` reads the stored hash (a
:class:`~.passwords.SecretCheck`), the caller verifies it with no lock
held, then :func:`password_user` re-reads the user in the transaction that
issues the token and refuses if the hash changed meanwhile.
"""

import uuid

from occli.localcloud import errors
from occli.localcloud.identity import passwords, projects
from occli.localcloud.identity.projects import DEFAULT_DOMAIN


def user_id(db, name, domain_id=DEFAULT_DOMAIN):
    """The id of user ``name`` in ``domain_id``, or None."""
    row = db.execute("SELECT id FROM users WHERE name = ?"
                     " AND domain_id = ?", (name, domain_id)).fetchone()
    return row["id"] if row else None


def ensure_user(db, name, password, project_id):
    """The id of user ``name`` (default domain) with ``password``.

    Created if missing; an existing user whose password differs gets the
    new one and loses its tokens; ``default_project_id`` is set if unset.
    """
    row = db.execute(
        "SELECT id, password_hash FROM users"
        " WHERE name = ? AND domain_id = ?", (name, DEFAULT_DOMAIN)).fetchone()
    if row is None:
        new_id = uuid.uuid4().hex
        db.execute(
            "INSERT INTO users (id, name, domain_id, password_hash,"
            " default_project_id) VALUES (?, ?, ?, ?, ?)",
            (new_id, name, DEFAULT_DOMAIN, passwords.hash_password(password),
             project_id))
        return new_id
    if not passwords.verify_password(password, row["password_hash"]):
        db.execute("UPDATE users SET password_hash = ? WHERE id = ?",
                   (passwords.hash_password(password), row["id"]))
        db.execute("UPDATE tokens SET revoked = 1 WHERE user_id = ?",
                   (row["id"],))
    elif passwords.weaker_than_current(row["password_hash"]):
        db.execute("UPDATE users SET password_hash = ? WHERE id = ?",
                   (passwords.hash_password(password), row["id"]))
    db.execute("UPDATE users SET default_project_id = ? WHERE id = ?"
               " AND default_project_id IS NULL", (project_id, row["id"]))
    return row["id"]


def check_enabled(db, row):
    """Unauthorized unless the user ``row`` and its domain are enabled."""
    domain = projects.find_domain(db, {"id": row["domain_id"]})
    if not row["enabled"] or not domain or not domain["enabled"]:
        raise errors.Unauthorized(
            "The account is disabled for user: %s" % row["id"])


def password_lookup(db, payload):
    """The :class:`~.passwords.SecretCheck` of a password method payload
    (BadRequest for a malformed one); no hashing here."""
    user = payload.get("user")
    if not isinstance(user, dict):
        raise errors.BadRequest("Invalid input for field 'identity/password':"
                                " 'user' is a required property.")
    password = user.get("password")
    if "id" in user:
        row = db.execute("SELECT id, password_hash FROM users"
                         " WHERE id = ?", (str(user["id"]),)).fetchone()
    elif "name" in user:
        if not projects.domain_ref_ok(user.get("domain")):
            raise errors.BadRequest(
                "Invalid input for field 'identity/password/user/domain': a"
                " domain id or name is required with a user name.")
        domain = projects.find_domain(db, user["domain"])
        row = domain and db.execute(
            "SELECT id, password_hash FROM users"
            " WHERE name = ? AND domain_id = ?",
            (str(user["name"]), domain["id"])).fetchone()
    else:
        raise errors.BadRequest("Invalid input for field 'identity/password"
                                "/user': either id or name is required.")
    return passwords.SecretCheck(row["id"] if row else None,
                                 row["password_hash"] if row else None,
                                 password)


def password_user(db, check):
    """The user id of a verified password check, or Unauthorized (unknown,
    wrong password, password changed since the check, user disabled)."""
    row = check.row_id and db.execute(
        "SELECT * FROM users WHERE id = ?", (check.row_id,)).fetchone()
    if not row or not check.ok or row["password_hash"] != check.encoded:
        raise errors.Unauthorized("Invalid username or password")
    check_enabled(db, row)
    return row["id"]
