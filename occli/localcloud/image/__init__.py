"""Glance v2 (read-mostly) for the local cloud, mounted at ``/image``:
version discovery, image list/show and two seeded public images.

* :mod:`.api` — the ``Service``: routes, query parameters, links,
  glance's plain-text error pages;
* :mod:`.images` — the rules over a sqlite3 connection (view, lookups,
  snapshots, listing pages, seed, the ``id`` filter), raising
  :mod:`occli.localcloud.errors`;
* :mod:`.migrations` — the ``images`` table (store component ``image``).

Other services use :func:`get_visible_image` (an image for a caller, as
Glance shows it to them) / :func:`get_image` / :func:`image_exists` /
:func:`create_image` (also methods of ``cloud.image``).
"""

from occli.localcloud.image.api import VERSIONS
from occli.localcloud.image.api import ImageService
from occli.localcloud.image.images import MAX_LIMIT
from occli.localcloud.image.images import SEED_IMAGES
from occli.localcloud.image.images import create_image
from occli.localcloud.image.images import delete_image
from occli.localcloud.image.images import find_by_properties
from occli.localcloud.image.images import get_image
from occli.localcloud.image.images import get_visible_image
from occli.localcloud.image.images import id_filter_values
from occli.localcloud.image.images import image_exists
from occli.localcloud.image.images import seed_image_id
from occli.localcloud.image.migrations import MIGRATIONS

__all__ = [
    "MAX_LIMIT",
    "MIGRATIONS",
    "SEED_IMAGES",
    "VERSIONS",
    "ImageService",
    "create_image",
    "delete_image",
    "find_by_properties",
    "get_image",
    "get_visible_image",
    "id_filter_values",
    "image_exists",
    "seed_image_id",
]
