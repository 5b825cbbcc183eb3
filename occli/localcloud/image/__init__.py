"""Glance v2 for the local cloud, mounted at ``/image``: version
discovery, image list/show, create, update (JSON patch), delete, deactivate/reactivate, data
upload and download (streamed to private files) and two seeded public
images.

* :mod:`.api` — ``ImageService`` (glance's plain-text error pages) and
  one module per resource: routes, query parameters, links;
* :mod:`.images` — the rules over a sqlite3 connection (view, lookups,
  snapshots, listing pages, seed, the ``id`` filter), raising
  :mod:`occli.localcloud.errors`;
* :mod:`.writes` — create, delete and the status actions, with Glance's
  checks and texts;
* :mod:`.patch` — ``PATCH``'s JSON-patch changes, parsed and applied;
* :mod:`.data` — the image files under ``<data_dir>/images`` and an
  upload's status changes;
* :mod:`.members` — a shared image's members and their status;
* :mod:`.migrations` — the ``images`` table (store component ``image``).

Other services use :func:`.images.get_visible_image` (an image for a
caller, as Glance shows it to them) / :func:`.images.get_image` /
:func:`.images.image_exists` / :func:`.images.create_image` (also methods
of ``cloud.image``).
"""

# Keystone's catalog: (type, name, path under the root URL)
CATALOG = (("image", "glance", "/image"),)
__all__ = ["CATALOG", "SERVICE"]


def __getattr__(name: str) -> type:
    # SERVICE on first use: the rules modules import without the API
    if name != "SERVICE":
        raise AttributeError("module %r has no attribute %r" % (__name__, name))
    from occli.localcloud.image.api.service import ImageService

    return ImageService
