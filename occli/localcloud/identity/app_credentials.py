"""Application credentials: create, list, get, delete, their access
rules (keystone's ``access_rule`` rows, enforced on each request as
keystonemiddleware's ``validate_allowed_request``), and the
``application_credential`` auth method's checks (two steps, like a
password's: :func:`lookup` reads the stored hash, the caller verifies it
with no lock held, :func:`confirm` re-reads the row where the token is
issued)."""

import re
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
# keystone.exception.ApplicationCredentialNotFound
NOT_FOUND = "Could not find Application Credential: %s."
NO_SCOPE = (
    "Error authenticating with application credential:"
    " Application credentials cannot request a scope."
)
RESTRICTED = (
    "You are not authorized to perform the requested action: Using method"
    " 'application_credential' is not allowed for managing additional"
    " application credentials."
)


DELEGATED = "Cannot manage application credentials with a token issued via delegation."


def check_unrestricted(token):
    """Forbidden if ``token`` was obtained with a restricted credential or
    is trust-scoped (keystone's ``_block_delegated_token_app_creds``)."""
    if token["trust"] is not None:
        raise errors.Forbidden(DELEGATED)
    cred = token["application_credential"]
    if cred is not None and cred["restricted"]:
        raise errors.Forbidden(RESTRICTED)


def roles(db, cred_id):
    """``[{"id", "name", "description"}]`` of a credential's roles, by name."""
    return [
        dict(r)
        for r in db.execute(
            "SELECT r.id, r.name, r.description FROM application_credential_roles a"
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
            " unrestricted_given, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                cred_id,
                data["name"],
                data["description"],
                user_id,
                token["project"]["id"],
                secret_hash,
                data["expires_at"],
                int(data["unrestricted"]),
                data["unrestricted_given"],
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
    db.executemany(
        "INSERT OR IGNORE INTO application_credential_access_rules"
        " (application_credential_id, access_rule_id) VALUES (?, ?)",
        [(cred_id, _access_rule_id(db, user_id, rule)) for rule in data["access_rules"]],
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
        raise errors.NotFound(NOT_FOUND % cred_id)
    return row


def delete(db, cred_id):
    """Delete a credential and revoke the tokens obtained with it."""
    db.execute("DELETE FROM application_credentials WHERE id = ?", (cred_id,))
    db.execute("UPDATE tokens SET revoked = 1 WHERE app_cred_id = ?", (cred_id,))


# -- access rules (keystone/application_credential/backends/sql.py) ----------

ACCESS_RULE_COLUMNS = "id, service, path, method"


def _access_rule_id(db, user_id, rule):
    """The id of the user's access rule ``rule`` (checked by
    ``schemas.access_rules_input``): the one of that ``id``, else the
    identical one, else a new row (under the given ``id``, if any)."""
    if "id" in rule:
        row = db.execute(
            "SELECT id, user_id FROM access_rules WHERE id = ?", (rule["id"],)
        ).fetchone()
        if row is not None and row["user_id"] == user_id:
            return row["id"]
        if row is not None or "service" not in rule:
            raise errors.NotFound("Could not find Access Rule: %s." % rule["id"])
    row = db.execute(
        "SELECT id FROM access_rules"
        " WHERE user_id = ? AND service = ? AND path = ? AND method = ?",
        (user_id, rule["service"], rule["path"], rule["method"]),
    ).fetchone()
    if row is not None:
        return row["id"]
    rule_id = rule.get("id") or uuid.uuid4().hex
    db.execute(
        "INSERT INTO access_rules (id, user_id, service, path, method) VALUES (?, ?, ?, ?, ?)",
        (rule_id, user_id, rule["service"], rule["path"], rule["method"]),
    )
    return rule_id


def credential_access_rules(db, cred_id):
    """``[{"id", "service", "path", "method"}]`` of a credential, or None
    for one without (keystone leaves ``access_rules`` out: no restriction)."""
    rules = [
        dict(r)
        for r in db.execute(
            "SELECT a.id, a.service, a.path, a.method FROM access_rules a"
            " JOIN application_credential_access_rules c ON c.access_rule_id = a.id"
            " WHERE c.application_credential_id = ? ORDER BY a.rowid",
            (cred_id,),
        )
    ]
    return rules or None


def select_access_rules(db, user_id, filters):
    """The access rule rows of ``user_id``, ``filters`` (``service``,
    ``path``, ``method``: None for any) applied as exact matches."""
    sql = "SELECT " + ACCESS_RULE_COLUMNS + " FROM access_rules WHERE user_id = ?"
    args = [user_id]
    for key in ("service", "path", "method"):
        if filters.get(key) is not None:
            sql += " AND %s = ?" % key
            args.append(filters[key])
    return db.execute(sql + " ORDER BY rowid", args).fetchall()


def access_rule_allowed(ctx, url_user_id, action):
    """keystone/common/policies/access_rule.py: the owner, a system reader
    (to read), a system admin (to delete)."""
    system_role = "admin" if action == "delete_access_rule" else "reader"
    allowed = ctx.user_id == url_user_id or (
        ctx.system_scope == "all" and system_role in ctx.roles
    )
    policy.enforce(ctx, action, allowed)


def owned_access_rule(db, url_user_id, rule_id):
    """The access rule row ``rule_id`` of ``url_user_id``, or NotFound."""
    row = db.execute(
        "SELECT " + ACCESS_RULE_COLUMNS + " FROM access_rules WHERE id = ? AND user_id = ?",
        (rule_id, url_user_id),
    ).fetchone()
    if row is None:
        raise errors.NotFound("Could not find Access Rule: %s." % rule_id)
    return row


def delete_access_rule(db, rule_id):
    """Delete an access rule no credential uses (keystone: 403 else)."""
    used = db.execute(
        "SELECT 1 FROM application_credential_access_rules WHERE access_rule_id = ?", (rule_id,)
    ).fetchone()
    if used:
        raise errors.Forbidden("May not delete access rule in use")
    db.execute("DELETE FROM access_rules WHERE id = ?", (rule_id,))


def path_matches(request_path, pattern):
    """keystonemiddleware's ``_path_matches``: ``*`` and ``{tag}`` match
    one path segment, ``**`` any number; the rest literally (escaped here,
    where keystonemiddleware leaves ``.`` a regex dot)."""
    regex = ""
    for match in re.finditer(
        r"(?P<tag>{[^}]*})|(?P<wild>\*(?=$|[^*]))|(?P<rec>\*\*)|(?P<lit>.)", pattern
    ):
        if match["tag"] or match["wild"]:
            regex += r"[^/]+"
        elif match["rec"]:
            regex += ".*"
        else:
            regex += re.escape(match["lit"])
    return re.fullmatch(regex, request_path) is not None


def request_allowed(rules, method, service_types, path):
    """Whether a request (``method``, to a service of ``service_types``,
    at ``path`` under the service's endpoint) is one of ``rules`` (a
    token's ``access_rules``; None: any request). As keystonemiddleware,
    validating a token (``GET /v3/auth/tokens``) is always allowed."""
    if rules is None:
        return True
    if "identity" in service_types and method == "GET" and path.endswith("/v3/auth/tokens"):
        return True
    return any(
        rule["method"] == method
        and rule["service"] in service_types
        and path_matches(path, rule["path"])
        for rule in rules
    )


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
        if row is None:  # keystone 30: ApplicationCredentialNotFound, a 404
            raise errors.NotFound(NOT_FOUND % payload["id"])
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
