"""Implied roles (keystone's ``implied_role`` table): a role that implies
others gives them too, transitively, wherever it is assigned (keystone's
bootstrap makes admin ⇒ manager ⇒ member ⇒ reader). The API's role
lookups (404 first) are the callers'."""

import sqlite3

from occli.localcloud import errors

# keystone's [assignment] prohibited_implied_role default
PROHIBITED_IMPLIED_ROLES = ("admin",)


def implications(db: sqlite3.Connection) -> dict[str, list[str]]:
    """Each prior role's name with the names of the roles it implies
    directly, in name order."""
    found: dict[str, list[str]] = {}
    for row in db.execute(
        "SELECT p.name AS prior, i.name AS implied FROM implied_roles ir"
        " JOIN roles p ON p.id = ir.prior_role_id"
        " JOIN roles i ON i.id = ir.implied_role_id ORDER BY p.name, i.name"
    ):
        found.setdefault(row["prior"], []).append(row["implied"])
    return found


def expand(db: sqlite3.Connection, names: set[str]) -> set[str]:
    """``names`` with every role they imply, transitively (a cycle ends)."""
    rules = implications(db)
    names = set(names)
    pending = list(names)
    while pending:
        for implied in rules.get(pending.pop(), ()):
            if implied not in names:
                names.add(implied)
                pending.append(implied)
    return names


def not_found(prior_role_id: str, implied_role_id: str) -> errors.NotFound:
    return errors.NotFound("%s does not imply %s." % (prior_role_id, implied_role_id))


def create(db: sqlite3.Connection, prior: sqlite3.Row, implied: sqlite3.Row) -> None:
    """``prior`` implies ``implied`` from now on; an ``admin`` role cannot
    be implied (keystone's 403), a rule cannot be made twice (409, as
    keystone 30 answered). A role may imply itself or a role implying it,
    as keystone allows."""
    if implied["name"] in PROHIBITED_IMPLIED_ROLES:
        raise errors.Forbidden("%s cannot be an implied roles." % implied["id"])
    try:
        db.execute(
            "INSERT INTO implied_roles (prior_role_id, implied_role_id) VALUES (?, ?)",
            (prior["id"], implied["id"]),
        )
    except sqlite3.IntegrityError:
        raise errors.Conflict(
            "Conflict occurred attempting to store implied_role - Duplicate entry."
        ) from None


def ensure(db: sqlite3.Connection, prior: sqlite3.Row, implied: sqlite3.Row) -> None:
    """:func:`create`, unless the rule exists (the seed, as keystone-manage
    bootstrap's ``_ensure_implied_role``)."""
    try:
        check(db, prior["id"], implied["id"])
    except errors.NotFound:
        create(db, prior, implied)


def check(db: sqlite3.Connection, prior_role_id: str, implied_role_id: str) -> None:
    """NotFound unless ``prior_role_id`` implies ``implied_role_id`` directly."""
    row = db.execute(
        "SELECT 1 FROM implied_roles WHERE prior_role_id = ? AND implied_role_id = ?",
        (prior_role_id, implied_role_id),
    ).fetchone()
    if row is None:
        raise not_found(prior_role_id, implied_role_id)


def delete(db: sqlite3.Connection, prior_role_id: str, implied_role_id: str) -> None:
    """Remove an implication (NotFound if there is none)."""
    deleted = db.execute(
        "DELETE FROM implied_roles WHERE prior_role_id = ? AND implied_role_id = ?",
        (prior_role_id, implied_role_id),
    ).rowcount
    if not deleted:
        raise not_found(prior_role_id, implied_role_id)


def implied_rows(db: sqlite3.Connection, prior_role_id: str) -> list[sqlite3.Row]:
    """The role rows ``prior_role_id`` implies directly."""
    return db.execute(
        "SELECT r.* FROM implied_roles ir JOIN roles r ON r.id = ir.implied_role_id"
        " WHERE ir.prior_role_id = ? ORDER BY r.name, r.id",
        (prior_role_id,),
    ).fetchall()


def rules(db: sqlite3.Connection) -> list[tuple[sqlite3.Row, list[sqlite3.Row]]]:
    """Every prior role row with the rows it implies (``/v3/role_inferences``)."""
    priors = db.execute(
        "SELECT * FROM roles WHERE id IN (SELECT prior_role_id FROM implied_roles)"
        " ORDER BY name, id"
    ).fetchall()
    return [(prior, implied_rows(db, prior["id"])) for prior in priors]
