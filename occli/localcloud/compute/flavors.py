"""Flavors: the seeded nova/devstack ``m1.*`` set, looked up and listed."""

import json

from occli.localcloud import errors

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


def seed(db):
    db.executemany(
        "INSERT OR IGNORE INTO compute_flavors (id, name, memory_mb, vcpus,"
        " root_gb) VALUES (?, ?, ?, ?, ?)", SEED)


def get_flavor(db, flavor_id):
    """The flavor row for ``flavor_id`` (string), or None."""
    return db.execute("SELECT * FROM compute_flavors WHERE id = ?",
                      (str(flavor_id),)).fetchone()


def get(db, flavor_id, admin=False):
    """The flavor row, or NotFound; a private flavor only for admins (as
    nova's flavor lookup filters on is_public for other callers)."""
    row = get_flavor(db, flavor_id)
    if row is None or not (row["is_public"] or admin):
        raise errors.NotFound("Flavor %s could not be found." % flavor_id)
    return row


def resolve(db, ref, message="Invalid flavorRef provided."):
    """The row of a ``flavorRef`` (an id or a URL ending in one), else
    BadRequest ``message``."""
    row = get_flavor(db, str(ref).rstrip("/").rsplit("/", 1)[-1])
    if row is None:
        raise errors.BadRequest(message)
    return row


def snapshot(row):
    """The flavor facts a server keeps (nova's embedded flavor, 2.47)."""
    return {"id": row["id"], "original_name": row["name"],
            "vcpus": row["vcpus"], "ram": row["memory_mb"],
            "disk": row["root_gb"], "ephemeral": row["ephemeral_gb"],
            "swap": row["swap"], "extra_specs": json.loads(row["extra_specs"])}


def _sortable(value):
    return (0, int(value)) if value.isdigit() else (1, value)


def select(db, public=True, min_ram=None, min_disk=None,
           sort_key="flavorid", sort_dir="asc"):
    """Flavor rows, sorted. ``public``: True (public only), False (private
    only) or None (all); ``min_ram``/``min_disk``: lower bounds (ints)."""
    sql, args = "SELECT * FROM compute_flavors WHERE 1 = 1", []
    if public is not None:
        sql += " AND is_public = ?"
        args.append(int(public))
    for column, minimum in (("memory_mb", min_ram), ("root_gb", min_disk)):
        if minimum is not None:
            sql += " AND %s >= ?" % column
            args.append(minimum)
    rows = db.execute(sql, args).fetchall()
    key = _SORT_KEYS.get(sort_key)
    if key is None:
        raise errors.BadRequest("Invalid sort_key")
    if sort_dir not in ("asc", "desc"):
        raise errors.BadRequest("Invalid sort_dir")

    def sort_value(row):
        return _sortable(row["id"]) if key == "id" else row[key]
    return sorted(rows, key=sort_value, reverse=sort_dir == "desc")
