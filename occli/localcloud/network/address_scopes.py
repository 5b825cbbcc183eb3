"""Address scopes (neutron's ``address-scope`` extension): a family's
address space that subnet pools join; who sees which (own, shared) and
the admin-only ``shared``.

Neutron's rules and texts: ``neutron/db/address_scope_db.py``,
``neutron_lib/api/definitions/address_scope.py``,
``neutron_lib/exceptions/address_scope.py``, ``neutron/conf/policies/address_scope.py``.
"""

import sqlite3
from typing import Any

from occli.localcloud import common as clock
from occli.localcloud import errors
from occli.localcloud.common import Asker
from occli.localcloud.network import attributes as attrs
from occli.localcloud.network import common

ATTRIBUTES = ("id", "ip_version", "name", "project_id", "shared", "tenant_id")
SORT_KEYS = ATTRIBUTES


def _ip_version(attr: str, value: object) -> int:
    """``convert_to_int`` then ``type:values`` [4, 6], with Neutron 29's text."""
    try:
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise ValueError(value)
        number = int(value)
    except ValueError:
        raise attrs.invalid_input("'%s' is not an integer" % (value,)) from None
    if number not in (4, 6):
        raise attrs.bad_request(
            "Invalid input for %s. Reason: %s is not in valid_values." % (attr, number)
        )
    return number


SPEC = {
    "name": attrs.Attr(attrs.string(), default=""),
    "shared": attrs.Attr(attrs.boolean, default=False),
    "ip_version": attrs.Attr(_ip_version, put=False, default=attrs.REQUIRED),
}


def not_found(address_scope_id: str) -> errors.NotFound:
    return errors.NotFound(
        "Address scope %s could not be found." % address_scope_id, type="AddressScopeNotFound"
    )


def visible(context: Asker, row: sqlite3.Row) -> bool:
    return common.owns(context, row) or bool(row["shared"])


def get(db: sqlite3.Connection, context: Asker, address_scope_id: str) -> sqlite3.Row:
    """The address scope ``context`` may see; AddressScopeNotFound otherwise."""
    found = db.execute(
        "SELECT * FROM network_address_scopes WHERE id = ?", (address_scope_id,)
    ).fetchone()
    if found is None or not visible(context, found):
        raise not_found(address_scope_id)
    return found


def view(row: sqlite3.Row) -> dict[str, Any]:
    """Neutron's body: the object's fields only (no standard attributes)."""
    return {
        "id": row["id"],
        "name": row["name"],
        "ip_version": row["ip_version"],
        "shared": bool(row["shared"]),
        "project_id": row["project_id"],
        "tenant_id": row["project_id"],
    }


def listing(db: sqlite3.Connection, context: Asker) -> list[dict[str, Any]]:
    return [
        view(r)
        for r in db.execute("SELECT * FROM network_address_scopes ORDER BY seq")
        if visible(context, r)
    ]


def show(db: sqlite3.Connection, context: Asker, address_scope_id: str) -> dict[str, Any]:
    return view(get(db, context, address_scope_id))


def create(db: sqlite3.Connection, context: Asker, body: object) -> dict[str, Any]:
    values = attrs.parse(body, "address_scope", SPEC, create=True)
    project = common.check_project(context, values, "create_address_scope")
    if values["shared"] and not context.is_admin:
        raise common.policy_denied(
            "(rule:create_address_scope and rule:create_address_scope:shared)"
        )
    address_scope_id = clock.new_uuid()
    db.execute(
        "INSERT INTO network_address_scopes (id, project_id, name, shared, ip_version)"
        " VALUES (?, ?, ?, ?, ?)",
        (address_scope_id, project, values["name"], int(values["shared"]), values["ip_version"]),
    )
    return show(db, context, address_scope_id)


def _writable(
    db: sqlite3.Connection, context: Asker, address_scope_id: str, action: str
) -> sqlite3.Row:
    """The scope ``context`` may change: NotFound when it cannot see it,
    neutron's 403 when it sees it (shared) only."""
    found = get(db, context, address_scope_id)
    if not common.owns(context, found):
        raise common.policy_denied("rule:%s_address_scope" % action)
    return found


def update(
    db: sqlite3.Connection, context: Asker, address_scope_id: str, body: object
) -> dict[str, Any]:
    values = attrs.parse(body, "address_scope", SPEC, create=False)
    found = _writable(db, context, address_scope_id, "update")
    if "shared" in values:
        if not context.is_admin:
            raise common.policy_denied(
                "(rule:update_address_scope and rule:update_address_scope:shared)"
            )
        if found["shared"] and not values["shared"]:
            raise errors.BadRequest(
                "Unable to update address scope %s : Shared address scope can't be unshared."
                % address_scope_id,
                type="AddressScopeUpdateError",
            )
    for key in ("name", "shared"):
        if key in values:
            value = values[key]
            db.execute(
                "UPDATE network_address_scopes SET %s = ? WHERE id = ?" % key,
                (int(value) if isinstance(value, bool) else value, address_scope_id),
            )
    return show(db, context, address_scope_id)


def delete(db: sqlite3.Connection, context: Asker, address_scope_id: str) -> None:
    """Delete a scope no subnet pool belongs to (409 ``AddressScopeInUse``)."""
    _writable(db, context, address_scope_id, "delete")
    used = db.execute(
        "SELECT 1 FROM network_subnetpools WHERE address_scope_id = ?", (address_scope_id,)
    ).fetchone()
    if used is not None:
        raise errors.Conflict(
            "Unable to complete operation on address scope %s. There are one or more "
            "subnet pools in use on the address scope." % address_scope_id,
            type="AddressScopeInUse",
        )
    db.execute("DELETE FROM network_address_scopes WHERE id = ?", (address_scope_id,))


def of_network(db: sqlite3.Connection, network_id: str) -> dict[str, str | None]:
    """A network's ``ipv4_address_scope``/``ipv6_address_scope``: the
    scopes of the pools its subnets came from (``_extend_network_dict_address_scope``)."""
    found: dict[str, str | None] = {"ipv4_address_scope": None, "ipv6_address_scope": None}
    for row in db.execute(
        "SELECT p.ip_version, p.address_scope_id FROM network_subnets s"
        " JOIN network_subnetpools p ON p.id = s.subnetpool_id"
        " WHERE s.network_id = ? AND p.address_scope_id IS NOT NULL",
        (network_id,),
    ):
        found["ipv%d_address_scope" % row["ip_version"]] = row["address_scope_id"]
    return found
