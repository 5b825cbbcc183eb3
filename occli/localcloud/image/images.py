"""Glance images over SQLite: the JSON view, lookups, snapshots, who sees
what (listings: :mod:`occli.localcloud.image.listing`), the seeded images
and the ``id`` filter's syntax.

``caller`` is whoever asks (``project_id``, ``is_admin``: an
``app.Context``): admins see every image, others public and community
images, their project's own and the shared images they are members of
(:func:`visible`); other services look an image up for a caller with
:func:`get_visible_image`.
"""

import hashlib
import json
import re
import sqlite3
import uuid
from typing import Any

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud.common import Asker

MAX_LIMIT = 1000
# the local Glance's one store (its ``enabled_backends`` and default backend)
STORE = "file"
_NAMESPACE = uuid.UUID("1d7b7bd8-1c64-4a46-8d0b-6f8b1d6b0d2e")

# name, size (bytes), virtual size, disk format, properties
SEED_IMAGES = (
    (
        "cirros-0.6.2-x86_64-disk",
        21430272,
        117440512,
        "qcow2",
        {"os_distro": "cirros", "os_version": "0.6.2", "hw_architecture": "x86_64"},
    ),
    (
        "ubuntu-24.04",
        614337536,
        3758096384,
        "qcow2",
        {"os_distro": "ubuntu", "os_version": "24.04", "hw_architecture": "x86_64"},
    ),
)

# the devstack profile's image (Config.seed), as stack.sh uploads it:
# devstack stackrc (CIRROS_VERSION 0.6.3, DEFAULT_IMAGE_NAME), functions
# upload_image/_upload_image (--public, bare/qcow2, hw_rng_model=virtio
# on libvirt's default kvm); sizes those of the released file
DEVSTACK_IMAGES = (
    (
        "cirros-0.6.3-x86_64-disk",
        21692416,
        117440512,
        "qcow2",
        {"hw_rng_model": "virtio"},
    ),
)


def seed_image_id(name):
    """The stable id of seeded image ``name`` (same in every data dir)."""
    return str(uuid.uuid5(_NAMESPACE, name))


def _uploaded(row):
    """Whether a queued snapshot's upload is over (it reads as active)."""
    ready_at = row["ready_at"]
    return ready_at is None or ready_at <= common.utcnow().timestamp()


def view(row):
    """An image row in Glance's JSON shape (without links).

    An image with data lists its ``stores``. A snapshot or backup
    (``ready_at`` set) is ``queued`` without data or
    formats until ``ready_at``, then ``active``: nothing runs in the
    background, the status follows the clock when it is read.
    """
    if row["status"] == "queued" and row["ready_at"] is not None:
        if not _uploaded(row):
            return dict(
                view(dict(row, ready_at=None)),
                size=None,
                virtual_size=None,
                checksum=None,
                os_hash_algo=None,
                os_hash_value=None,
                container_format=None,
                disk_format=None,
            )
        row = dict(row, status="active", ready_at=None)
    image = {
        "id": row["id"],
        "name": row["name"],
        "status": row["status"],
        "visibility": row["visibility"],
        "owner": row["owner"],
        "container_format": row["container_format"],
        "disk_format": row["disk_format"],
        "size": row["size"],
        "virtual_size": row["virtual_size"],
        "checksum": row["checksum"],
        "os_hash_algo": row["os_hash_algo"],
        "os_hash_value": row["os_hash_value"],
        "min_disk": row["min_disk"],
        "min_ram": row["min_ram"],
        "protected": bool(row["protected"]),
        "os_hidden": bool(row["os_hidden"]),
        "tags": json.loads(row["tags"]),
        "created_at": row["created_at"],
        "updated_at": row["updated_at"],
        "self": "/v2/images/%s" % row["id"],
        "file": "/v2/images/%s/file" % row["id"],
        "schema": "/v2/schemas/image",
    }
    image.update(json.loads(row["properties"]))
    if image["status"] == "active" and image["size"] is not None:
        # the stores holding its data (Glance's ``stores``, from its
        # locations, which a deactivated image hides): the one store here
        image["stores"] = STORE
    return image


def get_image(db: sqlite3.Connection, image_id: str) -> dict[str, Any] | None:
    """The image ``image_id`` in Glance's JSON shape (without links), or None."""
    row = db.execute("SELECT * FROM images WHERE id = ?", (str(image_id),)).fetchone()
    return view(row) if row else None


def image_exists(db: sqlite3.Connection, image_id: str) -> bool:
    """Whether image ``image_id`` exists (in any status)."""
    return db.execute("SELECT 1 FROM images WHERE id = ?", (str(image_id),)).fetchone() is not None


def create_image(
    db: sqlite3.Connection,
    name: str | None,
    owner: str | None,
    status: str = "active",
    visibility: str = "private",
    container_format: str | None = "bare",
    disk_format: str | None = "qcow2",
    size: int | None = None,
    virtual_size: int | None = None,
    min_disk: int = 0,
    min_ram: int = 0,
    properties: dict[str, Any] | None = None,
    image_id: str | None = None,
    ready_at: float | None = None,
) -> dict[str, Any]:
    """Insert an image (e.g. a server snapshot) and return it.

    ``ready_at`` (a POSIX time): the image is ``queued`` until then and
    ``active`` after (a snapshot being uploaded); ``status`` is then
    ignored. ``virtual_size`` defaults to ``size``.
    """
    if ready_at is not None:
        status = "queued"
    image_id = image_id or common.new_uuid()
    now = common.iso_z(common.utcnow())
    checksum = hash_algo = hash_value = None
    if size is not None:
        seed = ("%s:%s" % (image_id, size)).encode()
        checksum = hashlib.md5(seed, usedforsecurity=False).hexdigest()
        hash_algo, hash_value = "sha512", hashlib.sha512(seed).hexdigest()
    db.execute(
        "INSERT INTO images (id, name, status, visibility, owner,"
        " container_format, disk_format, size, virtual_size, checksum,"
        " os_hash_algo, os_hash_value, min_disk, min_ram, properties,"
        " created_at, updated_at, ready_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            image_id,
            name,
            status,
            visibility,
            owner,
            container_format,
            disk_format,
            size,
            size if virtual_size is None else virtual_size,
            checksum,
            hash_algo,
            hash_value,
            min_disk,
            min_ram,
            json.dumps(properties or {}),
            now,
            now,
            ready_at,
        ),
    )
    return view(db.execute("SELECT * FROM images WHERE id = ?", (image_id,)).fetchone())


def delete_image(db: sqlite3.Connection, image_id: str) -> None:
    """Delete image ``image_id`` (absent: nothing happens)."""
    db.execute("DELETE FROM images WHERE id = ?", (str(image_id),))


def find_by_properties(db: sqlite3.Connection, owner: str | None, **properties: Any) -> list[str]:
    """Ids of ``owner``'s images whose properties include ``properties``,
    newest first (nova's backup rotation lists them so)."""
    clauses = ["owner IS ?"] + ["json_extract(properties, ?) IS ?"] * len(properties)
    args = [owner]
    for key, value in properties.items():
        args += ['$."%s"' % key.replace('"', '""'), value]
    rows = db.execute(
        "SELECT id FROM images WHERE %s ORDER BY created_at DESC, rowid DESC"
        % " AND ".join(clauses),
        args,
    ).fetchall()
    return [r["id"] for r in rows]


def seed(db, owner, profile="default"):
    """Insert the missing images of seed ``profile`` (:data:`SEED_IMAGES`
    or :data:`DEVSTACK_IMAGES`; public, owned by ``owner``)."""
    seeded = DEVSTACK_IMAGES if profile == "devstack" else SEED_IMAGES
    for name, size, virtual_size, disk_format, props in seeded:
        image_id = seed_image_id(name)
        if image_exists(db, image_id):
            continue
        create_image(
            db,
            name,
            owner,
            visibility="public",
            disk_format=disk_format,
            size=size,
            virtual_size=virtual_size,
            properties=props,
            image_id=image_id,
        )


def visible(db, caller, image):
    """Whether ``caller`` may see ``image`` (a view): Glance's
    ``glance.db.utils.is_image_visible``. Admins see every image, everyone
    public and community ones, the owner its private and shared ones, a
    member (in any member status) the shared image it is a member of."""
    if (
        caller.is_admin
        or image["visibility"] in ("public", "community")
        or image["owner"] == caller.project_id
    ):
        return True
    return image["visibility"] == "shared" and (
        db.execute(
            "SELECT 1 FROM image_members WHERE image_id = ? AND member = ?",
            (image["id"], caller.project_id),
        ).fetchone()
        is not None
    )


def get_visible_image(
    db: sqlite3.Connection, caller: Asker, image_id: str
) -> dict[str, Any] | None:
    """The image ``image_id`` if ``caller`` may see it, else None.

    What Glance's ``GET /v2/images/{id}`` shows: other services (Nova,
    Cinder) ask Glance with the user's token, so an image the caller cannot
    see is one they cannot use (they answer as for an unknown image).
    """
    image = get_image(db, image_id)
    return image if image is not None and visible(db, caller, image) else None


def show(db, caller, image_id):
    """The image ``caller`` may see, or NotFound."""
    image = get_visible_image(db, caller, image_id)
    if image is None:
        raise errors.NotFound("No image found with ID %s" % image_id)
    return image


def visible_clause(caller: Asker, member_status: str = "all") -> tuple[str, list[Any]]:
    """:func:`visible` as an SQL condition, for listings: the shared images
    of which the caller is a member in ``member_status`` (or any: ``all``),
    as Glance's ``_select_images_query``."""
    if caller.is_admin:
        return "1", []
    members = "SELECT image_id FROM image_members WHERE member = ?"
    args = [caller.project_id, caller.project_id]
    if member_status != "all":
        members += " AND status = ?"
        args.append(member_status)
    clause = (
        "(visibility IN ('public', 'community') OR owner = ?"
        " OR (visibility = 'shared' AND id IN (%s)))" % members
    )
    return clause, args


_IN_VALUES = re.compile(
    r"""
    "([^"\\]*(?:\\.[^"\\]*)*)",?   # a double-quoted value (may hold commas)
    | ([^,]+),?                      # or anything up to the next comma
    | ,                              # or an empty value
    """,
    re.VERBOSE,
)


def id_filter_values(value):
    """The values of an ``id`` (or ``name``, ``status``, … see
    :mod:`~occli.localcloud.image.listing`) filter (``<v>``, ``eq:<v>`` or
    ``in:<a>,<b>``).

    Glance's ``split_filter_op`` / ``split_filter_value_for_quotes``: an
    unknown operator or a badly placed / unclosed quote is a BadRequest.
    """
    op, sep, rest = value.partition(":")
    if not sep:
        return [value]
    if op == "eq":
        return [rest]
    if op != "in":
        raise errors.BadRequest("Unable to filter by unknown operator '%s'." % op)
    _validate_quotes(rest)
    return [m.group(1) or m.group(2) or "" for m in _IN_VALUES.finditer(rest)]


def _validate_quotes(value):
    opening = True
    for i, char in enumerate(value):
        if char != '"' or (i and value[i - 1] == "\\"):
            continue
        if opening and i and value[i - 1] != ",":
            raise errors.BadRequest(
                "Invalid filter value %s. There is no comma before opening quotation mark." % value
            )
        if not opening and i + 1 != len(value) and value[i + 1] != ",":
            raise errors.BadRequest(
                "Invalid filter value %s. There is no comma after closing quotation mark." % value
            )
        opening = not opening
    if not opening:
        raise errors.BadRequest("Invalid filter value %s. The quote is not closed." % value)
