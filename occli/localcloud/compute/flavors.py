"""Flavors: the seeded nova/devstack ``m1.*`` set, flavor-manage (create,
description, delete), extra specs and flavor access (os-flavor-access).

Who sees a flavor follows nova's ``Flavor._flavor_get_query_from_db``: an
admin sees every flavor; anybody else the public ones and the private ones
their project was given access to. A flavor they cannot see is "not found"
everywhere: show (404), extra specs (404), a server's ``flavorRef`` (400).
Every flavor has nova's internal integer id (``seq``, set by a trigger even
for rows inserted directly), which nova's flavor-access messages and the
``id``/``created_at`` sort keys use.
"""

import json
import sqlite3
from collections.abc import Mapping

from occli.localcloud import common
from occli.localcloud import errors

SEED = [
    ("1", "m1.tiny", 512, 1, 1),
    ("2", "m1.small", 2048, 1, 20),
    ("3", "m1.medium", 4096, 2, 40),
    ("4", "m1.large", 8192, 4, 80),
    ("5", "m1.xlarge", 16384, 8, 160),
]

# the devstack profile's flavors (Config.seed): id, name, ram, vcpus, disk,
# each with extra spec hw_rng:allowed=True; devstack lib/nova
# create_flavors, and lib/tempest's m1.nano/m1.micro (TEMPEST_FLAVOR_RAM
# 192, TEMPEST_FLAVOR_ALT_RAM 256, the disk the cirros image's GiB)
DEVSTACK_SEED = [
    ("c1", "cirros256", 256, 1, 1),
    ("d1", "ds512M", 512, 1, 5),
    ("d2", "ds1G", 1024, 1, 10),
    ("d3", "ds2G", 2048, 2, 10),
    ("d4", "ds4G", 4096, 4, 20),
    *SEED,
    ("42", "m1.nano", 192, 1, 1),
    ("84", "m1.micro", 256, 1, 1),
]
DEVSTACK_EXTRA_SPECS = {"hw_rng:allowed": "True"}

# nova's VALID_SORT_KEYS (schemas/flavors.py) → column; ``id`` and the
# timestamps are the internal id (creation order)
SORT_KEYS = {
    "created_at": "seq",
    "description": "description",
    "disabled": "disabled",
    "ephemeral_gb": "ephemeral_gb",
    "flavorid": "id",
    "id": "seq",
    "is_public": "is_public",
    "memory_mb": "memory_mb",
    "name": "name",
    "root_gb": "root_gb",
    "rxtx_factor": "rxtx_factor",
    "swap": "swap",
    "updated_at": "seq",
    "vcpu_weight": "seq",
    "vcpus": "vcpus",
}
SORT_DIRS = ("asc", "desc")


def seed(db, profile="default"):
    """Insert the missing flavors of seed ``profile`` (:data:`SEED`, or
    :data:`DEVSTACK_SEED` with its extra specs)."""
    rows = DEVSTACK_SEED if profile == "devstack" else SEED
    db.executemany(
        "INSERT OR IGNORE INTO compute_flavors (id, name, memory_mb, vcpus,"
        " root_gb) VALUES (?, ?, ?, ?, ?)",
        rows,
    )
    if profile == "devstack":
        for flavor_id, *_ in rows:
            row = get_flavor(db, flavor_id)
            if not extra_specs(row):
                set_extra_specs(db, row, DEVSTACK_EXTRA_SPECS)


def not_found(flavor_id):
    return errors.NotFound("Flavor %s could not be found." % flavor_id)


def get_flavor(db, flavor_id):
    """The flavor row for ``flavor_id`` (string), or None (whoever asks)."""
    return db.execute("SELECT * FROM compute_flavors WHERE id = ?", (str(flavor_id),)).fetchone()


def has_access(db, row, project_id):
    return (
        db.execute(
            "SELECT 1 FROM compute_flavor_projects WHERE flavor_id = ? AND project_id = ?",
            (row["id"], project_id),
        ).fetchone()
        is not None
    )


def visible(db, row, caller):
    """Whether ``caller`` (a :class:`~.caller.Caller`) may see ``row``."""
    return bool(row["is_public"] or caller.is_admin or has_access(db, row, caller.project_id))


def get(db, flavor_id, caller):
    """The flavor row, or NotFound when it does not exist or ``caller``
    may not see it."""
    row = get_flavor(db, flavor_id)
    if row is None or not visible(db, row, caller):
        raise not_found(flavor_id)
    return row


def resolve(db, ref, caller=None):
    """The row of a server's ``flavorRef`` (an id or a URL ending in one);
    BadRequest ``Flavor <id> could not be found.`` (nova 34's answer to a
    create or resize) when it does not exist or ``caller`` may not see
    it."""
    flavor_id = ref_id(ref)
    row = get_flavor(db, flavor_id)
    if row is None or (caller is not None and not visible(db, row, caller)):
        raise errors.BadRequest("Flavor %s could not be found." % flavor_id)
    return row


def ref_id(ref):
    """The flavor id of a ``flavorRef`` (nova's ``get_id_from_href``)."""
    return str(ref).split("?", 1)[0].rstrip("/").rsplit("/", 1)[-1]


def check_visible(db, caller, ref):
    """Nothing, or the BadRequest nova answers to a ``flavorRef`` of a
    private flavor ``caller`` has no access to (a missing flavor is left
    to :func:`resolve`)."""
    row = get_flavor(db, ref_id(ref))
    if row is not None and not visible(db, row, caller):
        raise errors.BadRequest("Flavor %s could not be found." % ref_id(ref))


def check_zero_disk(caller, flavor, volume_backed):
    """Nova's ``servers:create:zero_disk_flavor`` policy (admin only): a
    flavor without a root disk boots only volume-backed servers (403)."""
    if not flavor["root_gb"] and not volume_backed and not caller.is_admin:
        raise errors.Forbidden(
            "Only volume-backed servers are allowed for flavors with zero disk."
        )


def snapshot(row):
    """The flavor facts a server keeps (nova's embedded flavor, 2.47)."""
    return {
        "id": row["id"],
        "original_name": row["name"],
        "vcpus": row["vcpus"],
        "ram": row["memory_mb"],
        "disk": row["root_gb"],
        "ephemeral": row["ephemeral_gb"],
        "swap": row["swap"],
        "extra_specs": json.loads(row["extra_specs"]),
    }


def from_snapshot(flavor):
    """A server's embedded flavor (:func:`snapshot`) under the column names
    of a flavor row, for the checks that nova runs on ``instance.flavor``
    (rebuild works after the flavor is deleted)."""
    return {
        "id": flavor["id"],
        "name": flavor["original_name"],
        "vcpus": flavor["vcpus"],
        "memory_mb": flavor["ram"],
        "root_gb": flavor["disk"],
        "ephemeral_gb": flavor["ephemeral"],
        "swap": flavor["swap"],
        "extra_specs": json.dumps(flavor.get("extra_specs") or {}),
    }


# -- listing ------------------------------------------------------------------


def select(
    db, caller, public=True, min_ram=None, min_disk=None, sort_key="flavorid", sort_dir="asc"
):
    """Flavor rows, sorted, as nova's ``_flavor_get_all_from_db``.

    ``public``: True (public ones, plus the private ones ``caller``'s
    project has access to), False (private only) or None (all); only an
    admin's ``public`` is anything but True. ``min_ram``/``min_disk``:
    lower bounds (ints). Sorted by ``sort_key`` (a key of
    :data:`SORT_KEYS`), then the internal id.
    """
    sql, args = "SELECT * FROM compute_flavors WHERE 1 = 1", []
    if not caller.is_admin:
        public = True
        sql += " AND disabled = 0"
    if public is True:
        sql += (
            " AND (is_public = 1 OR id IN (SELECT flavor_id FROM"
            " compute_flavor_projects WHERE project_id = ?))"
        )
        args.append(caller.project_id)
    elif public is False:
        sql += " AND is_public = 0"
    for column, minimum in (("memory_mb", min_ram), ("root_gb", min_disk)):
        if minimum is not None:
            sql += " AND %s >= ?" % column
            args.append(minimum)
    rows = db.execute(sql, args).fetchall()
    column = SORT_KEYS[sort_key]

    def order(row):
        value = row[column]
        # SQL's NULLs first, then the internal id (nova's secondary key)
        return (value is not None, value if value is not None else 0, row["seq"] or 0)

    return sorted(rows, key=order, reverse=sort_dir == "desc")


# -- flavor-manage -------------------------------------------------------------


def create(
    db: sqlite3.Connection,
    name: str,
    ram: int,
    vcpus: int,
    disk: int,
    flavor_id: str | float | None = None,
    ephemeral: int = 0,
    swap: int = 0,
    rxtx_factor: float = 1.0,
    is_public: bool = True,
    description: str | None = None,
) -> sqlite3.Row:
    """Nova's ``flavors.create``: a new flavor row (``flavor_id`` None or
    empty: a new uuid). Conflict if the id or the name is taken (the name
    is reported first when both are, as nova's database does)."""
    flavor_id = str(flavor_id) if flavor_id not in (None, "") else common.new_uuid()
    name = name.strip()
    if db.execute("SELECT 1 FROM compute_flavors WHERE name = ?", (name,)).fetchone():
        raise errors.Conflict("Flavor with name %s already exists." % name)
    if get_flavor(db, flavor_id) is not None:
        raise errors.Conflict("Flavor with ID %s already exists." % flavor_id)
    db.execute(
        "INSERT INTO compute_flavors (id, name, memory_mb, vcpus, root_gb,"
        " ephemeral_gb, swap, rxtx_factor, is_public, description)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            flavor_id,
            name,
            ram,
            vcpus,
            disk,
            ephemeral,
            swap,
            rxtx_factor,
            int(bool(is_public)),
            description,
        ),
    )
    return get_flavor(db, flavor_id)


def next_number(db: sqlite3.Connection) -> str:
    """The id after the highest numeric flavor id (``"1"`` when none is a
    number): what an operator numbering flavors picks next."""
    numbers = [
        int(r["id"]) for r in db.execute("SELECT id FROM compute_flavors") if r["id"].isdigit()
    ]
    return str(max(numbers, default=0) + 1)


def update_description(db, row, description):
    db.execute("UPDATE compute_flavors SET description = ? WHERE id = ?", (description, row["id"]))
    return get_flavor(db, row["id"])


def delete(db, flavor_id):
    """Delete a flavor, its extra specs and its access list (servers keep
    their embedded copy); NotFound if there is none."""
    if get_flavor(db, flavor_id) is None:
        raise not_found(flavor_id)
    db.execute("DELETE FROM compute_flavor_projects WHERE flavor_id = ?", (str(flavor_id),))
    db.execute("DELETE FROM compute_flavors WHERE id = ?", (str(flavor_id),))


# -- extra specs ----------------------------------------------------------------


def extra_specs(row):
    return json.loads(row["extra_specs"])


def set_extra_specs(db: sqlite3.Connection, row: sqlite3.Row, specs: Mapping[str, object]) -> None:
    """Merge ``specs`` in (values stored as strings, as nova does)."""
    merged = dict(extra_specs(row))
    merged.update({key: str(value) for key, value in specs.items()})
    db.execute(
        "UPDATE compute_flavors SET extra_specs = ? WHERE id = ?", (json.dumps(merged), row["id"])
    )


def extra_spec(row, key):
    """The value of extra spec ``key``, or nova's NotFound."""
    specs = extra_specs(row)
    if key not in specs:
        raise errors.NotFound("Flavor %s has no extra specs with key %s." % (row["id"], key))
    return specs[key]


def delete_extra_spec(db, row, key):
    specs = dict(extra_specs(row))
    extra_spec(row, key)
    del specs[key]
    db.execute(
        "UPDATE compute_flavors SET extra_specs = ? WHERE id = ?", (json.dumps(specs), row["id"])
    )


# -- flavor access ----------------------------------------------------------------


def projects(db, row):
    """The project ids given access to ``row``, in the order given."""
    return [
        r["project_id"]
        for r in db.execute(
            "SELECT project_id FROM compute_flavor_projects WHERE flavor_id = ? ORDER BY rowid",
            (row["id"],),
        )
    ]


def add_access(db, row, project_id):
    """Give ``project_id`` access (nova's texts name the internal id)."""
    if has_access(db, row, project_id):
        raise errors.Conflict(
            "Flavor access already exists for flavor %s and project %s "
            "combination." % (row["seq"], project_id)
        )
    db.execute(
        "INSERT INTO compute_flavor_projects (flavor_id, project_id) VALUES (?, ?)",
        (row["id"], project_id),
    )


def remove_access(db, row, project_id):
    if not has_access(db, row, project_id):
        raise errors.NotFound(
            "Flavor access not found for %s / %s combination." % (row["seq"], project_id)
        )
    db.execute(
        "DELETE FROM compute_flavor_projects WHERE flavor_id = ? AND project_id = ?",
        (row["id"], project_id),
    )
