"""Flavors: the seeded nova/devstack ``m1.*`` set, listed and shown."""

import json

from occli.localcloud.compute import base

MIGRATIONS = [
    """
    CREATE TABLE compute_flavors (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        memory_mb INTEGER NOT NULL,
        vcpus INTEGER NOT NULL,
        root_gb INTEGER NOT NULL,
        ephemeral_gb INTEGER NOT NULL DEFAULT 0,
        swap INTEGER NOT NULL DEFAULT 0,
        rxtx_factor REAL NOT NULL DEFAULT 1.0,
        is_public INTEGER NOT NULL DEFAULT 1,
        disabled INTEGER NOT NULL DEFAULT 0,
        description TEXT,
        extra_specs TEXT NOT NULL DEFAULT '{}'
    );
    """,
]

SEED = [
    ("1", "m1.tiny", 512, 1, 1),
    ("2", "m1.small", 2048, 1, 20),
    ("3", "m1.medium", 4096, 2, 40),
    ("4", "m1.large", 8192, 4, 80),
    ("5", "m1.xlarge", 16384, 8, 160),
]

_SORT_KEYS = {"flavorid": "id", "id": "id", "name": "name",
              "memory_mb": "memory_mb", "vcpus": "vcpus", "root_gb": "root_gb",
              "ephemeral_gb": "ephemeral_gb", "swap": "swap",
              "rxtx_factor": "rxtx_factor", "disabled": "disabled",
              "is_public": "is_public", "created_at": "id"}


def seed(db, config):
    db.executemany(
        "INSERT OR IGNORE INTO compute_flavors (id, name, memory_mb, vcpus,"
        " root_gb) VALUES (?, ?, ?, ?, ?)", SEED)


def register(service):
    service.api("GET", "/flavors", list_flavors)
    service.api("GET", "/flavors/detail", list_flavors_detail)
    service.api("GET", "/flavors/{flavor_id}", show_flavor)


def get_flavor(db, flavor_id):
    """The flavor row for ``flavor_id`` (string), or None."""
    return db.execute("SELECT * FROM compute_flavors WHERE id = ?",
                      (str(flavor_id),)).fetchone()


def snapshot(row):
    """The flavor facts a server keeps (nova's embedded flavor, 2.47)."""
    return {"id": row["id"], "original_name": row["name"],
            "vcpus": row["vcpus"], "ram": row["memory_mb"],
            "disk": row["root_gb"], "ephemeral": row["ephemeral_gb"],
            "swap": row["swap"], "extra_specs": json.loads(row["extra_specs"])}


def _sortable(value):
    return (0, int(value)) if value.isdigit() else (1, value)


def _query(req):
    sql = "SELECT * FROM compute_flavors WHERE 1 = 1"
    args = []
    is_public = req.arg("is_public")
    if not req.context.is_admin or is_public is None:
        sql += " AND is_public = 1"
    elif is_public.lower() != "none":
        sql += " AND is_public = ?"
        args.append(int(base.bool_param(is_public, "is_public")))
    for param, column in (("minRam", "memory_mb"), ("minDisk", "root_gb")):
        value = req.arg(param)
        if value is not None:
            try:
                minimum = int(value)
            except ValueError:
                minimum = None
            if minimum is None or not base.sql_int(minimum):
                raise base.bad_request("Invalid %s filter [%s]"
                                       % (param, value))
            args.append(minimum)
            sql += " AND %s >= ?" % column
    rows = req.db.execute(sql, args).fetchall()
    key = _SORT_KEYS.get(req.arg("sort_key", "flavorid"))
    if key is None:
        raise base.bad_request("Invalid sort_key")
    direction = req.arg("sort_dir", "asc")
    if direction not in ("asc", "desc"):
        raise base.bad_request("Invalid sort_dir")

    def sort_value(row):
        return _sortable(row["id"]) if key == "id" else row[key]
    return sorted(rows, key=sort_value, reverse=direction == "desc")


def view(req, row, detail):
    body = {"id": row["id"], "name": row["name"],
            "links": base.links(req, "flavors", row["id"])}
    version = req.microversion
    if version >= "2.55":
        body["description"] = row["description"]
    if not detail:
        return body
    body.update({
        "ram": row["memory_mb"],
        "disk": row["root_gb"],
        "vcpus": row["vcpus"],
        "OS-FLV-EXT-DATA:ephemeral": row["ephemeral_gb"],
        "swap": row["swap"] if row["swap"] or version >= "2.75" else "",
        "os-flavor-access:is_public": bool(row["is_public"]),
        "rxtx_factor": row["rxtx_factor"],
        "OS-FLV-DISABLED:disabled": bool(row["disabled"]),
    })
    if version >= "2.61":
        body["extra_specs"] = json.loads(row["extra_specs"])
    return body


def _list(req, detail):
    rows, next_links = base.paginate(
        req, _query(req), lambda r: r["id"],
        "flavors/detail" if detail else "flavors")
    body = {"flavors": [view(req, r, detail) for r in rows]}
    if next_links:
        body["flavors_links"] = next_links
    return body


def list_flavors(req):
    return _list(req, detail=False)


def list_flavors_detail(req):
    return _list(req, detail=True)


def show_flavor(req):
    row = get_flavor(req.db, req.params["flavor_id"])
    if row is None:
        raise base.not_found("Flavor %s could not be found."
                             % req.params["flavor_id"])
    return {"flavor": view(req, row, detail=True)}
