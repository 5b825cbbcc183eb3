"""Heat's trusts: the stack owner's roles delegated to Heat's service user.

Heat (``deferred_auth_method = trusts``, its default) makes at stack
create a trust from the owner to its service user, ``impersonation`` on,
with the roles of the owner's token (``trusts_delegated_roles`` is empty
by default: ``heat_keystoneclient.create_trust_context``), and acts with
tokens scoped to that trust: the owner's calls, with the delegated roles
the owner still holds. The stack's delete deletes the trust
(``delete_trust``, a trust already gone counts as deleted).

The service user is DevStack's ``heat`` (role ``service`` on project
``service``), made on the first stack create rather than seeded, so a
cloud without stacks lists the seeded identities only; its password is
random and never shown (nobody logs in as it).
"""

import secrets
import sqlite3
import uuid
from collections.abc import Iterable
from typing import Any

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud.identity import assignments
from occli.localcloud.identity import projects
from occli.localcloud.identity import trusts
from occli.localcloud.identity import users
from occli.localcloud.identity.projects import DEFAULT_DOMAIN

SERVICE_USER = "heat"
SERVICE_PROJECT = "service"
# keystone/models/token_model.py ``_get_trust_roles``
NO_ROLES = "Trustee has no delegated roles."


def service_user(db: sqlite3.Connection) -> str | None:
    """The id of Heat's service user, or None before the first stack."""
    row = db.execute(
        "SELECT id FROM users WHERE name = ? AND domain_id = ?", (SERVICE_USER, DEFAULT_DOMAIN)
    ).fetchone()
    return row["id"] if row is not None else None


def _ensure_service_user(db: sqlite3.Connection) -> str:
    user_id = service_user(db)
    if user_id is None:
        project_id = projects.ensure_project(db, SERVICE_PROJECT)
        user_id = users.ensure_user(db, SERVICE_USER, secrets.token_urlsafe(32), project_id)
        role_id = assignments.ensure_role(db, "service")
        assignments.assign(db, user_id, "project", project_id, role_id)
    return user_id


def create_trust(
    db: sqlite3.Connection, trustor_user_id: str, project_id: str, role_names: Iterable[str]
) -> str:
    """A new trust from the stack owner to Heat's service user on
    ``project_id`` with the owner's ``role_names`` it holds there; its id.

    Keystone's checks of ``create_trust`` for Heat's request: the roles
    must be the trustor's (``Could not find role``), at least one.
    """
    held = assignments.role_names(db, trustor_user_id, "project", project_id)
    wanted = [r for r in assignments.roles_named(db, set(role_names)) if r["name"] in held]
    if not wanted:
        # heat's MissingCredentialError (heat/common/exception.py)
        raise errors.BadRequest(
            "Missing required credential: roles %s" % {"role_names": sorted(role_names)}
        )
    trustee = _ensure_service_user(db)
    trust_id = uuid.uuid4().hex
    db.execute(
        "INSERT INTO trusts (id, trustor_user_id, trustee_user_id, project_id,"
        " impersonation, expires_at, remaining_uses, created_at)"
        " VALUES (?, ?, ?, ?, 1, NULL, NULL, ?)",
        (trust_id, trustor_user_id, trustee, project_id, common.utcnow().timestamp()),
    )
    db.executemany(
        "INSERT INTO trust_roles (trust_id, role_id) VALUES (?, ?)",
        [(trust_id, r["id"]) for r in wanted],
    )
    return trust_id


def delete_trust(db: sqlite3.Connection, trust_id: str) -> None:
    """Delete a stack's trust and revoke its tokens (gone already: done)."""
    db.execute("DELETE FROM trusts WHERE id = ?", (trust_id,))
    db.execute("UPDATE tokens SET revoked = 1 WHERE trust_id = ?", (trust_id,))


def trust_context(db: sqlite3.Connection, trust_id: str) -> dict[str, Any]:
    """Who Heat's service user acts as through ``trust_id`` (what a token
    scoped to it says): the trustor, the trust's project and the delegated
    roles the trustor still has, implied ones included; keystone's errors
    when it would refuse that token (read only: Heat's trusts have no
    ``remaining_uses``)."""
    row = trusts.find(db, trust_id)
    if row["trustee_user_id"] != service_user(db):
        raise errors.Forbidden("User is not a trustee.")
    trustor = users.find(db, row["trustor_user_id"])
    if trustor is None or not trustor["enabled"]:
        raise errors.Forbidden("Trustor is disabled.")
    project = projects.scoped_project(db, row["project_id"])
    if project is None:
        raise errors.NotFound("Could not find project: %s." % row["project_id"])
    names = trusts.token_role_names(db, trust_id) or set()
    if not names:
        raise errors.Forbidden(NO_ROLES)
    return {
        "user_id": trustor["id"],
        "user_name": trustor["name"],
        "project_id": project["id"],
        "project_name": project["name"],
        "roles": sorted(names),
        "domain_id": project["domain"]["id"],
    }
