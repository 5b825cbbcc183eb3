"""What other services may ask of Glance.

Cinder (a volume created from an image, a volume uploaded to an image)
calls these and nothing else of the image service's rules.
"""

import sqlite3
from collections.abc import Mapping
from typing import Any

from occli.localcloud.image import writes
from occli.localcloud.image.images import create_image
from occli.localcloud.image.images import get_visible_image
from occli.localcloud.image.listing import page

__all__ = ["create_uploaded_image", "get_visible_image", "page"]


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
    writes.enforce_visibility(caller, spec["visibility"])
    image = create_image(
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
        writes.set_columns(db, image["id"], protected=1)
    return dict(image, protected=bool(spec["protected"]))
