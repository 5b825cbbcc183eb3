"""Glance's image writes over SQLite: create, delete, deactivate and
reactivate, with Glance's checks and texts.

Read in glance 33: the request checks of ``glance/api/v2/images.py``
(``RequestDeserializer.create``: read-only and reserved attributes, the
``image`` schema of ``get_base_properties``), the domain's
(``glance/domain/__init__.py``: ``ImageFactory.new_image``,
``Image.delete``/``deactivate``/``reactivate``) and the policies'
(``glance/api/v2/policy.py``, secure-RBAC defaults: the owner's members
and admins change an image, only admins publicize or (de)activate it).
``caller`` is an ``app.Context``.
"""

import json
import sqlite3
from collections.abc import Mapping
from typing import Any

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud import validation
from occli.localcloud.image import images

CONTAINER_FORMATS = ["ami", "ari", "aki", "bare", "ovf", "ova", "docker", "compressed"]
DISK_FORMATS = ["ami", "ari", "aki", "vhd", "vhdx", "vmdk", "raw", "qcow2", "vdi", "iso", "ploop"]

# RequestDeserializer: refused in a create body before the schema
_DISALLOWED = ("direct_url", "self", "file", "schema", "stores")
# the members of a create body that are not extra properties
_BASE = (
    "checksum",
    "created_at",
    "container_format",
    "disk_format",
    "id",
    "min_disk",
    "min_ram",
    "name",
    "size",
    "virtual_size",
    "status",
    "tags",
    "owner",
    "updated_at",
    "visibility",
    "protected",
    "os_hidden",
)
# ImageFactory: set by Glance only
_READONLY = (
    "created_at",
    "updated_at",
    "status",
    "checksum",
    "os_hash_algo",
    "os_hash_value",
    "size",
    "virtual_size",
)
_RESERVED = ("location", "deleted", "deleted_at")
_RESERVED_EXTRA = ("owner", "locations", "deleted", "deleted_at", "direct_url", "self", "file")
_RESERVED_NAMESPACE = "os_glance"
_NULLABLE_TEXT = ["null", "string"]

# ``get_base_properties`` (the members a client may send), with Glance's
# descriptions: a schema error's text prints the failing sub-schema
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "id": {
            "type": "string",
            "description": "An identifier for the image",
            "pattern": "^([0-9a-fA-F]){8}-([0-9a-fA-F]){4}-([0-9a-fA-F]){4}"
            "-([0-9a-fA-F]){4}-([0-9a-fA-F]){12}$",
        },
        "name": {
            "type": _NULLABLE_TEXT,
            "description": "Descriptive name for the image",
            "maxLength": 255,
        },
        "visibility": {
            "type": "string",
            "description": "Scope of image accessibility",
            "enum": ["community", "public", "private", "shared"],
        },
        "status": {
            "type": "string",
            "readOnly": True,
            "description": "Status of the image",
            "enum": [
                "queued",
                "saving",
                "active",
                "killed",
                "deleted",
                "uploading",
                "importing",
                "pending_delete",
                "deactivated",
            ],
        },
        "checksum": {
            "type": _NULLABLE_TEXT,
            "readOnly": True,
            "description": "md5 hash of image contents.",
            "maxLength": 32,
        },
        "os_hash_algo": {
            "type": _NULLABLE_TEXT,
            "readOnly": True,
            "description": "Algorithm to calculate the os_hash_value",
            "maxLength": 64,
        },
        "os_hash_value": {
            "type": _NULLABLE_TEXT,
            "readOnly": True,
            "description": "Hexdigest of the image contents using the algorithm specified"
            " by the os_hash_algo",
            "maxLength": 128,
        },
        "size": {
            "type": ["null", "integer"],
            "readOnly": True,
            "description": "Size of image file in bytes",
        },
        "virtual_size": {
            "type": ["null", "integer"],
            "readOnly": True,
            "description": "Virtual size of image in bytes",
        },
        "created_at": {
            "type": "string",
            "readOnly": True,
            "description": "Date and time of image registration",
        },
        "updated_at": {
            "type": "string",
            "readOnly": True,
            "description": "Date and time of the last image modification",
        },
        "protected": {"type": "boolean", "description": "If true, image will not be deletable."},
        "os_hidden": {
            "type": "boolean",
            "description": "If true, image will not appear in default image list response.",
        },
        "owner": {"type": _NULLABLE_TEXT, "description": "Owner of the image", "maxLength": 255},
        "container_format": {
            "type": _NULLABLE_TEXT,
            "description": "Format of the container",
            "enum": [None] + CONTAINER_FORMATS,
        },
        "disk_format": {
            "type": _NULLABLE_TEXT,
            "description": "Format of the disk",
            "enum": [None] + DISK_FORMATS,
        },
        "tags": {
            "type": "array",
            "description": "List of strings related to the image",
            "items": {"type": "string", "maxLength": 255},
        },
        "min_ram": {
            "type": "integer",
            "description": "Amount of ram (in MB) required to boot image.",
        },
        "min_disk": {
            "type": "integer",
            "description": "Amount of disk space (in GB) required to boot image.",
        },
    },
    # glance.schema.PermissiveSchema: extra properties are strings
    "additionalProperties": {"type": "string"},
}


def check_schema(body: Any) -> None:
    """BadRequest unless ``body`` matches :data:`SCHEMA`: Glance's
    ``jsonschema.validate`` (the best match, jsonschema's whole text)."""
    validation.check(
        SCHEMA,
        body,
        order=validation.BEST,
        draft=validation.DRAFT2020_12,
        text=lambda error: "Provided object does not match schema 'image': %s" % error,
    )


def enforce_visibility(caller: Any, visibility: str | None) -> None:
    """Glance's ``publicize_image`` (admin only); ``communitize_image`` is
    any member's."""
    if visibility == "public" and not caller.is_admin:
        raise errors.Forbidden("You are not authorized to complete publicize_image action.")


def create(db: sqlite3.Connection, caller: Any, body: Any) -> dict[str, Any]:
    """``POST /v2/images``: a ``queued`` image (visibility ``shared`` unless
    given), owned by the caller's project unless an admin names another."""
    if not isinstance(body, dict):
        check_schema(body)
    for key in _DISALLOWED:
        if key in body:
            raise errors.Forbidden("Attribute '%s' is read-only." % key)
    check_schema(body)
    extra = dict(body)
    base = {key: extra.pop(key) for key in _BASE if key in extra}
    for key in extra:
        if len(key) > 255:
            raise errors.BadRequest("Custom property should not be greater than 255 characters.")
        if key in _RESERVED or key.startswith(_RESERVED_NAMESPACE):
            raise errors.Forbidden("Attribute '%s' is reserved." % key)
    owner = base.pop("owner", caller.project_id)
    if owner != caller.project_id and not caller.is_admin:
        raise errors.Forbidden("You are not permitted to create images owned by '%s'" % owner)
    enforce_visibility(caller, base.get("visibility"))
    for key in _READONLY:
        if key in base:
            raise errors.Forbidden("Attribute '%s' is read-only." % key)
    for key in _RESERVED_EXTRA:
        if key in extra:
            raise errors.Forbidden("Attribute '%s' is reserved." % key)
    for key in ("min_disk", "min_ram"):
        check_not_negative(key, base.get(key, 0))
    image_id = base.get("id")
    if image_id is not None and images.image_exists(db, image_id):
        raise errors.Conflict("Image ID %s already exists!" % image_id)
    image = images.create_image(
        db,
        base.get("name"),
        owner,
        status="queued",
        visibility=base.get("visibility", "shared"),
        container_format=base.get("container_format"),
        disk_format=base.get("disk_format"),
        min_disk=base.get("min_disk", 0),
        min_ram=base.get("min_ram", 0),
        properties=extra,
        image_id=image_id,
    )
    set_columns(
        db,
        image["id"],
        protected=int(base.get("protected", False)),
        os_hidden=int(base.get("os_hidden", False)),
        tags=json.dumps(_unique(base.get("tags", []))),
    )
    return _get(db, image["id"])


def check_not_negative(param: str, value: int) -> None:
    """The domain's ``min_disk``/``min_ram`` setters."""
    if value < 0:
        raise errors.BadRequest(
            "Invalid value '%s' for parameter '%s': Cannot be a negative value" % (value, param)
        )


def _unique(tags: list[str]) -> list[str]:
    """Tags once each, in order (Glance stores a set)."""
    return list(dict.fromkeys(tags))


def changeable(db: sqlite3.Connection, caller: Any, image_id: str, action: str) -> dict[str, Any]:
    """The image ``caller`` may ``action`` (Glance's policy name): NotFound
    (``No image found with ID …``) if they cannot see it, Forbidden if they
    see it but neither own it nor are an admin."""
    image = images.show(db, caller, image_id)
    if not caller.is_admin and image["owner"] != caller.project_id:
        raise errors.Forbidden("You are not authorized to complete %s action." % action)
    return image


def delete(db: sqlite3.Connection, caller: Any, image_id: str) -> str | None:
    """``DELETE /v2/images/{id}``; the name of the image's data file (the
    caller removes it after the commit), or None."""
    image = images.get_visible_image(db, caller, image_id)
    if image is None:
        raise errors.NotFound("Failed to find image %s to delete" % image_id)
    changeable(db, caller, image_id, "delete_image")
    if image["protected"]:
        raise errors.Forbidden("Image %s is protected and cannot be deleted." % image_id)
    file = data_file(db, image_id)
    images.delete_image(db, image_id)
    return file


def data_file(db: sqlite3.Connection, image_id: str) -> str | None:
    """The name of image ``image_id``'s data file, or None."""
    row = db.execute("SELECT file FROM images WHERE id = ?", (image_id,)).fetchone()
    return row["file"] if row else None


def set_active(db: sqlite3.Connection, caller: Any, image_id: str, deactivate: bool) -> None:
    """``POST /v2/images/{id}/actions/deactivate`` (or ``reactivate``):
    an admin or a member of the owning project (Glance 33's policy
    ``ADMIN_OR_PROJECT_MEMBER``; an image the caller cannot see is not found
    first); a no-op in the target status, Forbidden from any status but the
    other one."""
    action = "deactivate" if deactivate else "reactivate"
    image = images.show(db, caller, image_id)
    if not caller.is_admin and image["owner"] != caller.project_id:
        raise errors.Forbidden("You are not authorized to complete %s action." % action)
    source, target = ("active", "deactivated") if deactivate else ("deactivated", "active")
    if image["status"] == target:
        return
    if image["status"] != source:
        status = image["status"]
        raise errors.Forbidden("Not allowed to %s image in status '%s'" % (action, status))
    set_columns(db, image_id, status=target)


def _get(db: sqlite3.Connection, image_id: str) -> dict[str, Any]:
    image = images.get_image(db, image_id)
    if image is None:
        raise errors.NotFound("No image found with ID %s" % image_id)
    return image


def set_columns(db: sqlite3.Connection, image_id: str, **columns: Any) -> None:
    """Update ``columns`` of image ``image_id`` and its ``updated_at``."""
    columns["updated_at"] = common.iso_z(common.utcnow())
    db.execute(
        "UPDATE images SET %s WHERE id = ?" % ", ".join("%s = ?" % k for k in columns),
        list(columns.values()) + [image_id],
    )


def create_uploaded_image(
    db: sqlite3.Connection,
    caller: Any,
    spec: Mapping[str, Any],
    size: int,
    ready_at: float,
) -> dict[str, Any]:
    """The image Cinder's ``copy_volume_to_image`` creates as ``caller``
    (Glance's rules: publicizing is an admin's), owned by its project;
    ``spec`` holds ``name``, ``disk_format``, ``container_format``,
    ``visibility`` and ``protected``. Its data is being uploaded until
    ``ready_at`` (a POSIX time): ``queued`` until then, ``active`` with
    ``size`` bytes after, without a data file (as a Nova snapshot's)."""
    enforce_visibility(caller, spec["visibility"])
    image = images.create_image(
        db,
        spec["name"],
        caller.project_id,
        visibility=spec["visibility"],
        container_format=spec["container_format"],
        disk_format=spec["disk_format"],
        size=size,
        ready_at=ready_at,
    )
    if spec["protected"]:
        set_columns(db, image["id"], protected=1)
    return dict(image, protected=bool(spec["protected"]))
