"""Glance's image ``PATCH``: a JSON-patch body (``add``/``replace``/
``remove`` of an image's attributes and extra properties), parsed, checked
and applied as Glance 33 does (``glance/api/v2/images.py``:
``RequestDeserializer.update`` for the syntax, ``ImagesController.update``
and ``_do_add``/``_do_replace``/``_do_remove`` for the changes, the
domain's setters for their limits). Image locations are never shown here
(Glance's ``show_multiple_locations`` off), so a change of them is refused.
"""

import json
import re
import sqlite3
from typing import Any

from occli.localcloud import errors
from occli.localcloud.image import images
from occli.localcloud.image import writes

# the media types and the JSON-patch draft each speaks
MEDIA_TYPES = {
    "application/openstack-images-v2.0-json-patch": 4,
    "application/openstack-images-v2.1-json-patch": 10,
}
OPERATIONS = ("add", "remove", "replace")
_READONLY = (
    "created_at",
    "updated_at",
    "status",
    "checksum",
    "size",
    "virtual_size",
    "direct_url",
    "self",
    "file",
    "schema",
    "id",
    "os_hash_algo",
    "os_hash_value",
)
_RESERVED = ("location", "deleted", "deleted_at")
# the domain Image's attributes a change may set (not extra properties)
ATTRIBUTES = (
    "name",
    "visibility",
    "protected",
    "os_hidden",
    "min_disk",
    "min_ram",
    "tags",
    "owner",
    "container_format",
    "disk_format",
)
_LOCATION_VERBS = {"add": "add", "replace": "update", "remove": "remove"}


def parse(body: Any, draft: int) -> list[dict[str, Any]]:
    """The changes of a PATCH body (``{"op", "path": [root, …], "value"}``)
    in JSON-patch ``draft`` 4 or 10: BadRequest or Forbidden with Glance's
    texts for a malformed or forbidden one."""
    if not isinstance(body, list):
        raise errors.BadRequest("Request body must be a JSON array of operation objects.")
    changes = []
    for raw in body:
        if not isinstance(raw, dict):
            raise errors.BadRequest("Operations must be JSON objects.")
        op, pointer = _operation(raw, draft)
        if not isinstance(pointer, str):
            raise errors.BadRequest('Pointer `%s` does not start with "/".' % (pointer,))
        path = _decode_pointer(pointer)
        if len(path) != (2 if path[0] == "locations" and op != "replace" else 1):
            raise errors.BadRequest(
                "Invalid JSON pointer for this resource: '/%s'" % "/".join(path)
            )
        change = {"op": op, "path": path, "draft": draft}
        if op != "remove":
            if "value" not in raw:
                raise errors.BadRequest('Operation "%s" requires a member named "value".' % op)
            change["value"] = raw["value"]
        _check(change)
        changes.append(change)
    return changes


def _operation(raw: dict[str, Any], draft: int) -> tuple[str, Any]:
    available = ", ".join(OPERATIONS)
    if draft == 10:
        op = raw.get("op")
        if op is None:
            raise errors.BadRequest(
                "Unable to find `op` in JSON Schema change. It must be one of the"
                " following: %s." % available
            )
        if op not in OPERATIONS:
            raise errors.BadRequest(
                "Invalid operation: `%s`. It must be one of the following: %s." % (op, available)
            )
        if "path" not in raw:
            raise errors.BadRequest("Unable to find 'path' in JSON Schema change")
        return op, raw["path"]
    found = [key for key in OPERATIONS if key in raw]
    if len(found) > 1:
        raise errors.BadRequest(
            'Operation objects must contain only one member named "add", "remove", or "replace".'
        )
    if not found:
        raise errors.BadRequest(
            'Operation objects must contain exactly one member named "add", "remove",'
            ' or "replace".'
        )
    return found[0], raw[found[0]]


def _decode_pointer(pointer: str) -> list[str]:
    """Glance's ``_validate_json_pointer`` and ``_decode_json_pointer``."""
    if not pointer.startswith("/"):
        raise errors.BadRequest('Pointer `%s` does not start with "/".' % pointer)
    if re.search(r"/\s*?/", pointer[1:]):
        raise errors.BadRequest('Pointer `%s` contains adjacent "/".' % pointer)
    if len(pointer) > 1 and pointer.endswith("/"):
        raise errors.BadRequest('Pointer `%s` end with "/".' % pointer)
    if pointer[1:].strip() == "/":
        raise errors.BadRequest("Pointer `%s` does not contains valid token." % pointer)
    if re.search("~[^01]", pointer) or pointer.endswith("~"):
        raise errors.BadRequest(
            'Pointer `%s` contains "~" not part of a recognized escape sequence.' % pointer
        )
    return [
        part.replace("~1", "/").replace("~0", "~").strip()
        for part in pointer.lstrip("/").split("/")
    ]


def _check(change: dict[str, Any]) -> None:
    """``_validate_change``: read-only and reserved roots, the value against
    the image schema (a tag's as a one-tag list)."""
    root = change["path"][0]
    if root in _READONLY:
        raise errors.Forbidden("Attribute '%s' is read-only." % root)
    if root in _RESERVED or root.startswith("os_glance"):
        raise errors.Forbidden("Attribute '%s' is reserved." % root)
    if change["op"] == "remove" or root == "locations":
        return
    writes.check_schema({root: change["value"]})


def update(
    db: sqlite3.Connection, caller: Any, image_id: str, changes: list[dict[str, Any]]
) -> dict[str, Any]:
    """Apply ``changes`` (from :func:`parse`) to image ``image_id`` for
    ``caller`` (its owner's members and admins: ``modify_image``), all or
    none; the image after."""
    image = writes.changeable(db, caller, image_id, "modify_image")
    row = db.execute("SELECT properties FROM images WHERE id = ?", (image_id,)).fetchone()
    state = {key: image[key] for key in ATTRIBUTES}
    properties = json.loads(row["properties"])
    for change in changes:
        root = change["path"][0]
        if root == "locations":
            verb = _LOCATION_VERBS[change["op"]]
            raise errors.Forbidden(
                "It's not allowed to %s locations if locations are invisible." % verb
            )
        if change["op"] == "remove":
            if root in ATTRIBUTES:
                raise errors.Forbidden("Property %s may not be removed." % root)
            if root not in properties:
                raise errors.Conflict("Property %s does not exist." % root)
            del properties[root]
            continue
        value = change["value"]
        if root == "owner" and not caller.is_admin:
            raise errors.Forbidden("Owner can't be updated by non admin.")
        if root == "visibility":
            writes.enforce_visibility(caller, value)
        present = root in ATTRIBUTES or root in properties
        if change["op"] == "replace" and not present:
            raise errors.Conflict("Property %s does not exist." % root)
        if change["op"] == "add" and present and change["draft"] == 4:
            raise errors.Conflict("Property %s already present." % root)
        if root in ATTRIBUTES:
            _set_attribute(state, image["status"], root, value)
        else:
            properties[root] = value
    if changes:
        writes.set_columns(
            db,
            image_id,
            **{key: value for key, value in state.items() if key != "tags"},
            tags=json.dumps(list(dict.fromkeys(state["tags"]))),
            properties=json.dumps(properties),
        )
    return images.show(db, caller, image_id)


def _set_attribute(state: dict[str, Any], status: str, name: str, value: Any) -> None:
    """The domain Image's setters: formats only while ``queued``, sizes not
    negative."""
    if name in ("container_format", "disk_format") and status not in ("queued", "importing"):
        raise errors.Forbidden("Attribute %s can be only replaced for a queued image." % name)
    if name in ("min_disk", "min_ram"):
        writes.check_not_negative(name, value)
    state[name] = value
