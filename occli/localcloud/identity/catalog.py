"""The catalog as data: keystone's regions, services and endpoints (the
rules of ``/v3/regions``, ``/v3/services`` and ``/v3/endpoints``) and the
catalog every scoped token carries, built from the rows
(keystone/catalog/core.py, backends/sql.py ``get_v3_catalog``): enabled
services and their enabled endpoints, in the order they were created.

The registry's entries (:mod:`occli.localcloud.registry`) become rows at
first start, as DevStack's ``keystone-manage bootstrap`` and endpoint
registration make them, for the services the cloud serves: the region
``Config.region``, one service per type
with its public, internal and admin endpoints, under the ids they always
had (:func:`stable_id`). A type is registered once (``catalog_seeded``): a
service or endpoint an admin deleted stays deleted across restarts. The
seeded URLs use keystone's substitutions: ``$(public_endpoint)s`` is the
URL the request reached the cloud at (so the catalog follows the port the
cloud serves on), ``$(project_id)s`` the token's project (a token without
one gets no such endpoint).
"""

import json
import sqlite3
import uuid
from collections.abc import Iterable

from occli.localcloud import errors
from occli.localcloud import registry

INTERFACES = ("public", "internal", "admin")

_ID_NAMESPACE = uuid.UUID("6f0f3c8e-5a53-4a8e-9d55-7c1c2c0a6e4b")

# keystone.common.utils.WHITELISTED_PROPERTIES: the keys an endpoint URL
# may substitute (compute_host is allowed but unset: such an endpoint is
# left out of the catalog, as keystone's MalformedEndpoint)
WHITELISTED_PROPERTIES = ("tenant_id", "project_id", "user_id", "compute_host", "public_endpoint")
_PROJECT_KEYS = ("tenant_id", "project_id")

# keystone's model attributes (the rest of a body is ``extra``)
_REGION_ATTRIBUTES = ("id", "description", "parent_region_id")
_SERVICE_ATTRIBUTES = ("id", "type", "enabled")
_ENDPOINT_ATTRIBUTES = ("id", "interface", "region_id", "service_id", "url", "enabled")


def stable_id(*parts: str) -> str:
    """A uuid5 hex of ``parts``: the same in every data dir."""
    return uuid.uuid5(_ID_NAMESPACE, "/".join(parts)).hex


def extra(row: sqlite3.Row) -> dict:
    """The attributes of a region, service or endpoint row beyond its
    columns (keystone's ``extra``: a service's name and description)."""
    return json.loads(row["extra"])


def _split(data: dict, attributes: tuple[str, ...]) -> tuple[dict, dict]:
    """``data`` as (columns, extra), like keystone's ``from_dict``."""
    columns = {k: v for k, v in data.items() if k in attributes}
    rest = {k: v for k, v in data.items() if k not in attributes}
    return columns, rest


# -- seeding -----------------------------------------------------------------


def seed(db: sqlite3.Connection, region: str, served: Iterable[str]) -> None:
    """Register, once per type, the registry entries of the ``served``
    services (the cloud's: keystone's catalog lists what is served) as
    services with their three endpoints in ``region`` (created if
    missing); ValueError for a service package without ``CATALOG`` (the
    cloud refuses it)."""
    for name in registry.names():
        if not hasattr(registry.package(name), "CATALOG"):
            raise ValueError("service package %s exports no CATALOG" % name)
    if find_region(db, region) is None:
        db.execute("INSERT INTO regions (id) VALUES (?)", (region,))
    for stype, name, path in registry.catalog_entries(served):
        if db.execute("SELECT 1 FROM catalog_seeded WHERE type = ?", (stype,)).fetchone():
            continue
        db.execute("INSERT INTO catalog_seeded (type) VALUES (?)", (stype,))
        service_id = stable_id("service", stype)
        if find_service(db, service_id) is not None:
            continue
        db.execute(
            "INSERT INTO services (id, type, enabled, extra) VALUES (?, ?, 1, ?)",
            (service_id, stype, json.dumps({"name": name})),
        )
        url = "$(public_endpoint)s" + path.replace("{project_id}", "$(project_id)s")
        for interface in INTERFACES:
            db.execute(
                "INSERT INTO endpoints (id, interface, region_id, service_id, url)"
                " VALUES (?, ?, ?, ?, ?)",
                (stable_id("endpoint", stype, interface), interface, region, service_id, url),
            )


# -- the token's catalog ----------------------------------------------------


class _Malformed(Exception):
    """An endpoint URL keystone's ``format_url`` refuses."""


class _Whitelisted(dict):
    """Substitutions that only answer keys in WHITELISTED_PROPERTIES."""

    def __getitem__(self, key):
        if key not in WHITELISTED_PROPERTIES:
            raise KeyError(key)
        return super().__getitem__(key)


def format_url(url: str, substitutions: dict[str, str]) -> str | None:
    """keystone's ``format_url``: ``$(key)s`` replaced from the whitelisted
    ``substitutions``; None when it needs the project the token has not;
    :class:`_Malformed` for any other failure."""

    try:
        return url.replace("$(", "%(") % _Whitelisted(substitutions)
    except KeyError as exc:
        if exc.args and exc.args[0] in _PROJECT_KEYS and "project_id" not in substitutions:
            return None
        raise _Malformed(url) from None
    except (TypeError, ValueError):
        raise _Malformed(url) from None


def check_url(url: str) -> None:
    """keystone's ``check_endpoint_url``: only whitelisted substitutions."""
    try:
        url.replace("$(", "%(") % dict.fromkeys(WHITELISTED_PROPERTIES, "")
    except (KeyError, TypeError, ValueError):
        message = "Cannot create an endpoint with an invalid URL: %s." % url
        raise errors.BadRequest(message) from None


def catalog(
    db: sqlite3.Connection, base_url: str, project_id: str | None, user_id: str
) -> list[dict]:
    """The v3 catalog of a token of ``user_id`` scoped to ``project_id``
    (None: a domain scope), for a cloud reached at ``base_url``."""
    substitutions = {"user_id": user_id, "public_endpoint": base_url}
    if project_id:
        substitutions.update(tenant_id=project_id, project_id=project_id)
    # two queries, not one per service: every scoped token's answer (and
    # HEAD /v3/auth/tokens' length) is built from them
    by_service: dict[str, list[sqlite3.Row]] = {}
    for ep in db.execute("SELECT * FROM endpoints WHERE enabled = 1 ORDER BY rowid"):
        by_service.setdefault(ep["service_id"], []).append(ep)
    services = []
    for svc in db.execute("SELECT * FROM services WHERE enabled = 1 ORDER BY rowid"):
        endpoints = []
        for ep in by_service.get(svc["id"], ()):
            try:
                url = format_url(ep["url"], substitutions)
            except _Malformed:
                continue
            if not url:
                continue
            view = extra(ep)
            view.update(
                id=ep["id"],
                interface=ep["interface"],
                region_id=ep["region_id"],
                url=url,
                region=ep["region_id"],
            )
            endpoints.append(view)
        services.append(
            {
                "endpoints": endpoints,
                "id": svc["id"],
                "type": svc["type"],
                "name": extra(svc).get("name", ""),
            }
        )
    return services


# -- regions -----------------------------------------------------------------


def region_not_found(region_id: str | None) -> errors.NotFound:
    return errors.NotFound("Could not find region: %s." % region_id)


def find_region(db: sqlite3.Connection, region_id: str | None) -> sqlite3.Row | None:
    return db.execute("SELECT * FROM regions WHERE id = ?", (region_id,)).fetchone()


def get_region(db: sqlite3.Connection, region_id: str | None) -> sqlite3.Row:
    row = find_region(db, region_id)
    if row is None:
        raise region_not_found(region_id)
    return row


def select_regions(db: sqlite3.Connection, parent_region_id: str | None = None) -> list:
    """Region rows (``parent_region_id``: its children only), by id."""
    sql, args = "SELECT * FROM regions", []
    if parent_region_id is not None:
        sql += " WHERE parent_region_id = ?"
        args.append(parent_region_id)
    return db.execute(sql + " ORDER BY id", args).fetchall()


def _check_no_circle(db: sqlite3.Connection, region_id: str, parent_id: str | None) -> None:
    """keystone's ``_ensure_no_circle_in_hierarchical_regions``."""
    seen = set()
    while parent_id and parent_id not in seen:
        if parent_id == region_id:
            raise errors.BadRequest(
                "The specified parent region %s would create a circular region hierarchy."
                % parent_id
            )
        seen.add(parent_id)
        parent_id = get_region(db, parent_id)["parent_region_id"]


def create_region(db: sqlite3.Connection, data: dict) -> sqlite3.Row:
    """Create a region from a checked ``region`` body (``id`` given or
    generated); Conflict for a known id, NotFound for an unknown parent."""
    data = dict(data)
    region_id = data.get("id") or uuid.uuid4().hex
    data["id"] = region_id
    if find_region(db, region_id) is not None:
        raise errors.Conflict(
            # keystone's Conflict text around its "Duplicate ID, %s." detail
            "Conflict occurred attempting to store region - Duplicate ID, %s.." % region_id
        )
    parent_id = data.get("parent_region_id")
    if parent_id is not None and find_region(db, parent_id) is None:
        raise region_not_found(parent_id)
    columns, rest = _split(data, _REGION_ATTRIBUTES)
    db.execute(
        "INSERT INTO regions (id, description, parent_region_id, extra) VALUES (?, ?, ?, ?)",
        (region_id, columns.get("description") or "", parent_id, json.dumps(rest)),
    )
    return get_region(db, region_id)


def update_region(db: sqlite3.Connection, region_id: str, data: dict) -> sqlite3.Row:
    """Apply a checked ``region`` update body; the updated row."""
    columns, rest = _split(data, _REGION_ATTRIBUTES)
    parent_id = columns.get("parent_region_id")
    if parent_id is not None and find_region(db, parent_id) is None:
        raise region_not_found(parent_id)
    row = get_region(db, region_id)
    merged = dict(row)
    merged.update(columns)
    if merged["description"] is None:
        merged["description"] = ""
    _check_no_circle(db, region_id, merged["parent_region_id"])
    db.execute(
        "UPDATE regions SET description = ?, parent_region_id = ?, extra = ? WHERE id = ?",
        (
            merged["description"],
            merged["parent_region_id"],
            json.dumps(dict(extra(row), **rest)),
            region_id,
        ),
    )
    return get_region(db, region_id)


def _subtree(db: sqlite3.Connection, region_id: str) -> list[str]:
    """``region_id`` and its descendants (a circle stops the walk)."""
    ids, pending = [region_id], [region_id]
    while pending:
        for row in db.execute(
            "SELECT id FROM regions WHERE parent_region_id = ?", (pending.pop(),)
        ).fetchall():
            if row["id"] not in ids:
                ids.append(row["id"])
                pending.append(row["id"])
    return ids


def delete_region(db: sqlite3.Connection, region_id: str) -> None:
    """Delete a region and its child regions, refused (keystone's
    ``RegionDeletionError``) while any of them has endpoints."""
    get_region(db, region_id)
    ids = _subtree(db, region_id)
    marks = ",".join("?" * len(ids))
    if db.execute("SELECT 1 FROM endpoints WHERE region_id IN (%s)" % marks, ids).fetchone():
        raise errors.Forbidden(
            "Unable to delete region %s because it or its child regions have"
            " associated endpoints." % region_id
        )
    db.execute("DELETE FROM regions WHERE id IN (%s)" % marks, ids)


# -- services ----------------------------------------------------------------


def service_not_found(service_id: str | None) -> errors.NotFound:
    return errors.NotFound("Could not find service: %s." % service_id)


def find_service(db: sqlite3.Connection, service_id: str | None) -> sqlite3.Row | None:
    return db.execute("SELECT * FROM services WHERE id = ?", (service_id,)).fetchone()


def get_service(db: sqlite3.Connection, service_id: str) -> sqlite3.Row:
    row = find_service(db, service_id)
    if row is None:
        raise service_not_found(service_id)
    return row


def select_services(
    db: sqlite3.Connection, type: str | None = None, name: str | None = None
) -> list[sqlite3.Row]:
    """Service rows of ``type`` and ``name`` (when given), as created."""
    sql, args = "SELECT * FROM services", []
    if type is not None:
        sql += " WHERE type = ?"
        args.append(type)
    rows = db.execute(sql + " ORDER BY rowid", args).fetchall()
    return [r for r in rows if name is None or extra(r).get("name") == name]


def create_service(db: sqlite3.Connection, data: dict) -> sqlite3.Row:
    """Create a service from a checked ``service`` body (keystone's
    defaults: enabled, name ``""``); a body's ``id`` is not kept."""
    columns, rest = _split(data, _SERVICE_ATTRIBUTES)
    rest.setdefault("name", "")
    service_id = uuid.uuid4().hex
    db.execute(
        "INSERT INTO services (id, type, enabled, extra) VALUES (?, ?, ?, ?)",
        (service_id, columns["type"], int(columns.get("enabled", True)), json.dumps(rest)),
    )
    return get_service(db, service_id)


def update_service(db: sqlite3.Connection, service_id: str, data: dict) -> sqlite3.Row:
    """Apply a checked ``service`` update body; the updated row."""
    row = get_service(db, service_id)
    columns, rest = _split(data, _SERVICE_ATTRIBUTES)
    db.execute(
        "UPDATE services SET type = ?, enabled = ?, extra = ? WHERE id = ?",
        (
            columns.get("type", row["type"]),
            int(columns.get("enabled", bool(row["enabled"]))),
            json.dumps(dict(extra(row), **rest)),
            service_id,
        ),
    )
    return get_service(db, service_id)


def delete_service(db: sqlite3.Connection, service_id: str) -> None:
    """Delete a service and its endpoints."""
    get_service(db, service_id)
    db.execute("DELETE FROM endpoints WHERE service_id = ?", (service_id,))
    db.execute("DELETE FROM services WHERE id = ?", (service_id,))


# -- endpoints ---------------------------------------------------------------


def endpoint_not_found(endpoint_id: str) -> errors.NotFound:
    return errors.NotFound("Could not find endpoint: %s." % endpoint_id)


def get_endpoint(db: sqlite3.Connection, endpoint_id: str) -> sqlite3.Row:
    row = db.execute("SELECT * FROM endpoints WHERE id = ?", (endpoint_id,)).fetchone()
    if row is None:
        raise endpoint_not_found(endpoint_id)
    return row


def select_endpoints(
    db: sqlite3.Connection,
    interface: str | None = None,
    service_id: str | None = None,
    region_id: str | None = None,
) -> list[sqlite3.Row]:
    """Endpoint rows matching the filters that are not None, as created."""
    sql, args = "SELECT * FROM endpoints WHERE 1", []
    for column, value in (
        ("interface", interface),
        ("service_id", service_id),
        ("region_id", region_id),
    ):
        if value is not None:
            sql += " AND %s = ?" % column
            args.append(value)
    return db.execute(sql + " ORDER BY rowid", args).fetchall()


def _endpoint_region(db: sqlite3.Connection, data: dict) -> dict:
    """keystone's ``_validate_endpoint_region``: a v2-style ``region`` (no
    ``region_id``) names the region, created if missing."""
    data = dict(data)
    region = data.pop("region", None)
    if data.get("region_id") is None and region is not None:
        data["region_id"] = region
        if find_region(db, region) is None:
            create_region(db, {"id": region})
    return data


def _check_references(db: sqlite3.Connection, data: dict) -> None:
    """keystone's ``_assert_region_exists`` / ``_assert_service_exists``."""
    for key, find in (("region_id", find_region), ("service_id", find_service)):
        if data.get(key) is not None and find(db, data[key]) is None:
            raise errors.BadRequest(
                "Expecting to find endpoint %s in %s table. The server could not comply"
                " with the request since it is either malformed or otherwise incorrect."
                " The client is assumed to be in error." % (key, key.split("_")[0])
            )


def create_endpoint(db: sqlite3.Connection, data: dict) -> sqlite3.Row:
    """Create an endpoint from a checked ``endpoint`` body (a new id,
    whatever the body's)."""
    check_url(data["url"])
    data = _endpoint_region(db, data)
    _check_references(db, data)
    columns, rest = _split(data, _ENDPOINT_ATTRIBUTES)
    rest.pop("id", None)
    endpoint_id = uuid.uuid4().hex
    enabled = columns.get("enabled")
    db.execute(
        "INSERT INTO endpoints (id, interface, region_id, service_id, url, enabled, extra)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        (
            endpoint_id,
            columns["interface"],
            columns.get("region_id"),
            columns["service_id"],
            columns["url"],
            int(True if enabled is None else enabled),
            json.dumps(rest),
        ),
    )
    return get_endpoint(db, endpoint_id)


def update_endpoint(db: sqlite3.Connection, endpoint_id: str, data: dict) -> sqlite3.Row:
    """Apply a checked ``endpoint`` update body; the updated row."""
    data = _endpoint_region(db, data)
    _check_references(db, data)
    row = get_endpoint(db, endpoint_id)
    columns, rest = _split(data, _ENDPOINT_ATTRIBUTES)
    merged = dict(row)
    merged.update(columns)
    db.execute(
        "UPDATE endpoints SET interface = ?, region_id = ?, service_id = ?, url = ?,"
        " enabled = ?, extra = ? WHERE id = ?",
        (
            merged["interface"],
            merged["region_id"],
            merged["service_id"],
            merged["url"],
            int(merged["enabled"]),
            json.dumps(dict(extra(row), **rest)),
            endpoint_id,
        ),
    )
    return get_endpoint(db, endpoint_id)


def delete_endpoint(db: sqlite3.Connection, endpoint_id: str) -> None:
    get_endpoint(db, endpoint_id)
    db.execute("DELETE FROM endpoints WHERE id = ?", (endpoint_id,))
