"""The Glance side of Nova's image proxy (``/images`` and their metadata
before 2.36/2.39): what Nova's ``GlanceImageServiceV2`` asks Glance with
the user's token, over Glance's own rules."""

import json
import sqlite3
from collections.abc import Mapping
from typing import Any

from occli.localcloud.image.listing import conditions
from occli.localcloud.image.listing import list_page
from occli.localcloud.image.listing import sorting
from occli.localcloud.image.patch import update


def listing(
    db: sqlite3.Connection,
    caller: Any,
    params: Mapping[str, list[str]],
    size: int,
    marker: str | None,
) -> list[dict[str, Any]]:
    """Up to ``size`` images ``caller`` sees, filtered by Glance v2 list
    query ``params`` (``name``, ``status``, ``updated_at``, ``min_ram``, a
    property…), newest first, after ``marker``: what Nova's image proxy
    asks Glance for."""
    return list_page(db, caller, conditions(params, caller), sorting({}), size, marker)


def properties(db: sqlite3.Connection, image_id: str) -> dict[str, Any]:
    """The extra properties of image ``image_id`` (Nova's image metadata)."""
    row = db.execute("SELECT properties FROM images WHERE id = ?", (image_id,)).fetchone()
    return json.loads(row["properties"]) if row is not None else {}


def set_properties(
    db: sqlite3.Connection, caller: Any, image_id: str, wanted: Mapping[str, Any]
) -> dict[str, Any]:
    """Make ``wanted`` the extra properties of ``image_id`` as ``caller``
    (Glance's ``modify_image``: Forbidden for another project's image);
    returns them."""
    current = properties(db, image_id)
    changes: list[dict[str, Any]] = [
        {"op": "remove", "path": [key], "draft": 10} for key in current if key not in wanted
    ]
    changes += [
        {"op": "add", "path": [key], "value": value, "draft": 10}
        for key, value in wanted.items()
        if current.get(key) != value
    ]
    update(db, caller, image_id, changes)
    return properties(db, image_id)
