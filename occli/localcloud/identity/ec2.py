"""EC2 credentials (keystone/api/users.py ``UserOSEC2Credentials*``) and
their tokens (keystone/api/ec2tokens.py, api/_shared/EC2_S3_Resource.py).

An EC2 credential is a ``credentials`` row of type ``ec2`` whose id is the
sha256 of its access key and whose blob holds ``access``, ``secret`` and
``trust_id`` (the trust of the token that made it). keystone's policies
(keystone/common/policies/ec2_credential.py): list for admins, a system
reader or the URL's user; show for admins, a system reader or the
credential's owner; create and delete for admins or the owner with the
``member`` role. A delegated token (a trust's or an application
credential's) reaches only credentials of its own project; a restricted
application credential's token makes none.

``POST /v3/ec2tokens`` (``identity:ec2tokens_validate``: an admin or a
``service`` token, as the EC2 API services call it) checks an AWS
signature computed over the given request with the credential's secret
(:mod:`.ec2_signature`) and issues a token for the credential's user and
project (through its trust or application credential when it has one).
keystone's 401s there show only its generic text (its ``SecurityError``
outside ``insecure_debug``); what each one means is in a comment.
"""

import datetime
import hashlib
import json
import sqlite3
import uuid

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud.identity import app_credentials
from occli.localcloud.identity import assignments
from occli.localcloud.identity import credentials
from occli.localcloud.identity import ec2_signature
from occli.localcloud.identity import policy
from occli.localcloud.identity import projects
from occli.localcloud.identity import tokens
from occli.localcloud.identity import trusts
from occli.localcloud.identity import users
from occli.localcloud.identity.users import AUTH_REQUIRED

EC2 = "ec2"
KEY_NOT_FOUND = "EC2 access key not found."
NO_BODY = "request must include a request body"
RESTRICTED = (
    "Using method 'application_credential' is not allowed for managing additional"
    " application credentials."
)
OUT_OF_SCOPE = "EC2 credential project does not match the project scope of the delegated token"
# keystone's [credential] auth_ttl: minutes a signed request stays valid
AUTH_TTL = datetime.timedelta(minutes=15)


def credential_id(access: str) -> str:
    """keystone's ``utils.hash_access_key``."""
    return hashlib.sha256(access.encode("utf8")).hexdigest()


def view(row: sqlite3.Row) -> dict:
    """keystone's ``_convert_v3_to_ec2_credential`` (the secret shown)."""
    blob = json.loads(row["blob"])
    return {
        "user_id": row["user_id"],
        "tenant_id": row["project_id"],
        "access": blob.get("access"),
        "secret": blob.get("secret"),
        "trust_id": blob.get("trust_id"),
    }


def _check_delegation(token: dict, project_id: str | None) -> None:
    """keystone's ``_check_delegation_for_ec2``."""
    if token["trust"] is None and token["application_credential"] is None:
        return
    project = token["project"]
    if project is None or project_id != project["id"]:
        raise errors.Forbidden(policy.MESSAGE % OUT_OF_SCOPE)


def _member_owner(ctx, user_id: str) -> bool:
    """``ADMIN_OR_MEMBER_AND_CRED_OWNER``."""
    return ctx.is_admin or ("member" in ctx.roles and ctx.user_id == user_id)


def select(db: sqlite3.Connection, ctx, token: dict, user_id: str) -> list[sqlite3.Row]:
    """The user's EC2 credentials the token reaches."""
    policy.enforce(
        ctx,
        "ec2_list_credentials",
        ctx.is_admin or policy.system_reader(ctx) or ctx.user_id == user_id,
    )
    users.get(db, user_id)
    rows = db.execute(
        "SELECT * FROM credentials WHERE user_id = ? AND type = ? ORDER BY created_at, id",
        (user_id, EC2),
    ).fetchall()
    found = []
    for row in rows:
        try:
            _check_delegation(token, row["project_id"])
        except errors.Forbidden:
            continue
        found.append(row)
    return found


def create(db: sqlite3.Connection, ctx, token: dict, user_id: str, body) -> sqlite3.Row:
    """A new EC2 credential of ``user_id`` on the body's ``tenant_id``."""
    policy.enforce(ctx, "ec2_create_credential", _member_owner(ctx, user_id))
    cred = token["application_credential"]
    if cred is not None and cred["restricted"]:
        raise errors.Forbidden(policy.MESSAGE % RESTRICTED)
    users.get(db, user_id)
    tenant_id = body.get("tenant_id") if isinstance(body, dict) else None
    if not isinstance(tenant_id, str):
        raise projects.not_found(tenant_id)
    projects.get(db, tenant_id)
    _check_delegation(token, tenant_id)
    trust = token["trust"]
    access = uuid.uuid4().hex
    blob = {
        "access": access,
        "secret": uuid.uuid4().hex,
        "trust_id": trust["id"] if trust is not None else None,
    }
    new_id = credential_id(access)
    db.execute(
        "INSERT INTO credentials (id, user_id, project_id, type, blob, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (new_id, user_id, tenant_id, EC2, json.dumps(blob), common.utcnow().timestamp()),
    )
    return credentials.find(db, new_id)


def owned(
    db: sqlite3.Connection, ctx, token: dict, user_id: str, access: str, action: str
) -> sqlite3.Row:
    """The EC2 credential of access key ``access`` after keystone's checks,
    in its order: an unknown one is 404 to anyone (keystone builds the
    policy's target first), then the policy, the URL's user, the type."""
    row = credentials.find(db, credential_id(access))
    if row is None:
        raise credentials.not_found(credential_id(access))
    if action == "ec2_get_credential":
        allowed = ctx.is_admin or policy.system_reader(ctx) or ctx.user_id == row["user_id"]
    else:
        allowed = _member_owner(ctx, row["user_id"])
    policy.enforce(ctx, action, allowed)
    users.get(db, user_id)
    if row["type"] != EC2:
        raise errors.Unauthorized(AUTH_REQUIRED)  # "EC2 access key not found."
    _check_delegation(token, row["project_id"])
    return row


def delete(db: sqlite3.Connection, ctx, token: dict, user_id: str, access: str) -> None:
    row = owned(db, ctx, token, user_id, access, "ec2_delete_credential")
    db.execute("DELETE FROM credentials WHERE id = ?", (row["id"],))


# -- /v3/ec2tokens ---------------------------------------------------------------


def _request_credentials(body) -> dict:
    """The signed request of an ec2tokens body (keystone accepts
    ``credentials``, ``credential`` or ``ec2Credentials``)."""
    if not isinstance(body, dict) or not body:
        raise errors.BadRequest(NO_BODY)
    given = body.get("credentials") or body.get("credential") or body.get("ec2Credentials")
    if not isinstance(given, dict) or not isinstance(given.get("access"), str):
        raise errors.Unauthorized(AUTH_REQUIRED)  # "EC2 Signature not supplied"
    return given


def _check_timestamp(given: dict) -> None:
    """keystone's ``_check_timestamp``: a signed ``Timestamp`` or
    ``X-Amz-Date`` at most ``auth_ttl`` old (none given: not checked)."""
    params, headers = given.get("params"), given.get("headers")
    params = params if isinstance(params, dict) else {}
    headers = headers if isinstance(headers, dict) else {}
    stamp = params.get("Timestamp") or headers.get("X-Amz-Date") or params.get("X-Amz-Date")
    if not stamp:
        return
    try:
        when = datetime.datetime.fromisoformat(str(stamp))
    except ValueError:
        raise errors.Unauthorized(AUTH_REQUIRED) from None  # "Credential timestamp is invalid"
    if when.tzinfo is None:
        when = when.replace(tzinfo=datetime.timezone.utc)
    if common.utcnow() > when + AUTH_TTL:
        raise errors.Unauthorized(AUTH_REQUIRED)  # "Credential is expired"


def _roles(db: sqlite3.Connection, blob: dict, user_id: str, project_id: str) -> set:
    """The roles the token will carry, as keystone picks them (the trust's,
    the application credential's, else the user's on the project)."""
    if blob.get("trust_id"):
        return {r["name"] for r in trusts.roles(db, trusts.find(db, blob["trust_id"])["id"])}
    if blob.get("app_cred_id"):
        row = db.execute(
            "SELECT project_id FROM application_credentials WHERE id = ?", (blob["app_cred_id"],)
        ).fetchone()
        if row is None:
            raise errors.NotFound(app_credentials.NOT_FOUND % blob["app_cred_id"])
        if row["project_id"] != project_id:
            # "EC2 credential project does not match the application credential project."
            raise errors.Unauthorized(AUTH_REQUIRED)
        return {r["name"] for r in app_credentials.roles(db, blob["app_cred_id"])}
    return assignments.role_names(db, user_id, "project", project_id)


def authenticate(db: sqlite3.Connection, ctx, body, ttl: float) -> tuple[str, dict]:
    """``(raw, token)`` for a correctly signed request of an EC2
    credential (``identity:ec2tokens_validate``)."""
    policy.enforce(ctx, "ec2tokens_validate", ctx.is_admin or "service" in ctx.roles)
    given = _request_credentials(body)
    row = credentials.find(db, credential_id(given["access"]))
    if row is None or row["type"] != EC2:
        raise errors.NotFound(KEY_NOT_FOUND)
    blob = json.loads(row["blob"])
    if not given.get("signature"):
        raise errors.Unauthorized(AUTH_REQUIRED)  # "EC2 signature not supplied."
    try:
        good = ec2_signature.matches(str(blob.get("secret")), given)
    except ec2_signature.SignatureError:
        good = False  # keystone: a 500 (the signer raises on what it cannot sign)
    if not good:
        raise errors.Unauthorized(AUTH_REQUIRED)  # "Invalid EC2 signature."
    project = projects.get(db, row["project_id"])
    user = users.get(db, row["user_id"])
    try:
        users.check_enabled(db, user)
        projects.enabled_project(db, project["id"])
    except errors.Unauthorized:
        raise errors.Unauthorized(AUTH_REQUIRED) from None
    _check_timestamp(given)
    if not _roles(db, blob, user["id"], project["id"]):
        raise errors.Unauthorized(AUTH_REQUIRED)  # "User not valid for project."
    return tokens.issue_for_project(
        db,
        user["id"],
        project["id"],
        ["ec2credential"],
        ttl,
        app_cred_id=blob.get("app_cred_id"),
        trust_id=blob.get("trust_id"),
    )
