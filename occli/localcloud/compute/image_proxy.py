"""Nova's image proxy (before 2.36) over Glance, as the caller.

Nova's ``GlanceImageServiceV2`` asks Glance with the user's token, so the
caller sees what Glance shows them (another project's private image is
``Image not found.``, 404) and changes only what Glance lets them (403:
``You are not allowed to delete the image.``, ``Not authorized for image
<id>.``). The list filters are nova's ``SUPPORTED_FILTERS``
(nova/api/openstack/compute/images.py) translated as its glance module
does: ``server`` and ``type`` become the ``instance_uuid`` and
``image_type`` properties, ``changes-since`` ``updated_at=gte:…``,
``status`` goes lowercase; Glance's 400 comes back as nova's (``HTTP 400
Bad Request: …``).
"""

import sqlite3
from collections.abc import Mapping
from typing import Any

from occli.localcloud import errors
from occli.localcloud.compute import quotas
from occli.localcloud.image import interface as glance

# nova's query parameter → the Glance v2 list parameter it sends
FILTERS = {
    "name": "name",
    "status": "status",
    "changes-since": "updated_at",
    "server": "instance_uuid",
    "type": "image_type",
    "minRam": "min_ram",
    "minDisk": "min_disk",
}
NOT_FOUND = "Image not found."


def _glance_params(query: Mapping[str, list[str]]) -> dict[str, list[str]]:
    params = {}
    for name, key in FILTERS.items():
        if name not in query:
            continue
        value = query[name][-1]
        if name == "server":
            # nova keeps the last path segment of a server URL
            value = value.rsplit("/", 1)[-1]
        elif name == "status":
            value = value.lower()
        elif name == "changes-since":
            value = "gte:" + value
        params[key] = [value]
    return params


def listing(
    db: sqlite3.Connection, caller: Any, query: Mapping[str, list[str]], size: int, marker
) -> list[dict[str, Any]]:
    """Glance's images for nova's list ``query``, one page."""
    try:
        return glance.listing(db, caller, _glance_params(query), size, marker)
    except errors.BadRequest as exc:
        raise errors.BadRequest("HTTP 400 Bad Request: %s" % exc) from None


def show(db: sqlite3.Connection, caller: Any, image_id: str) -> dict[str, Any]:
    """The image as Glance shows it to ``caller``, or nova's 404."""
    image = glance.get_visible_image(db, caller, image_id)
    if image is None:
        raise errors.NotFound(NOT_FOUND)
    return image


def delete(db: sqlite3.Connection, caller: Any, image_id: str) -> str | None:
    """Delete the image through Glance (nova's 404 and 403 texts); the
    name of its data file for the caller to remove after the commit."""
    show(db, caller, image_id)
    try:
        return glance.delete(db, caller, image_id)
    except errors.Forbidden:
        raise errors.Forbidden("You are not allowed to delete the image.") from None


def metadata(db: sqlite3.Connection, caller: Any, image_id: str) -> dict[str, Any]:
    """The image's metadata (Glance's extra properties)."""
    show(db, caller, image_id)
    return glance.properties(db, image_id)


def set_metadata(
    db: sqlite3.Connection, caller: Any, image_id: str, wanted: Mapping[str, Any]
) -> dict[str, Any]:
    """Make ``wanted`` the image's metadata, as nova's ``image_api.update``
    with ``purge_props``, after its ``check_img_metadata_properties_quota``
    (the project's ``metadata_items``, 403); returns it."""
    show(db, caller, image_id)
    allowed = quotas.limit(db, caller.project_id, "metadata_items")
    if wanted and 0 <= allowed < len(wanted):
        raise errors.Forbidden("Image metadata limit exceeded")
    try:
        return glance.set_properties(db, caller, image_id, wanted)
    except errors.Forbidden:
        raise errors.Forbidden("Not authorized for image %s." % image_id) from None
