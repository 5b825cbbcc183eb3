"""Glance's interoperable image import over SQLite: the discovery answers
(``/v2/info/import``, ``/v2/info/stores`` and its ``/detail``,
``/v2/info/usage``), staging (``queued → uploading``) and the
``glance-direct`` import (``uploading → importing → active``), with
Glance's checks and texts.

The local Glance is a multi-store Glance with one store, ``file`` (its
``enabled_backends``, also the default backend), and Glance's default
import methods, ``glance-direct``, ``web-download`` and ``copy-image``
(``glance-download`` is off, as by default). Only ``glance-direct``
imports: ``web-download`` would fetch from elsewhere, which a local
cloud never does, so no URI passes its filtering (Glance's 400; the real
one refuses every loopback URI so); ``copy-image`` (admins only) finds
every active image already in the one store (Glance's 400, or with
``all_stores`` its 202 doing nothing).
A staged image's ``file`` names its file under ``<data_dir>/staging``
(:class:`StagingFiles`) until the import moves it among the image files.

Read in glance 33: ``glance/api/v2/discovery.py`` (``get_image_import``,
``get_stores``, ``get_usage``), ``glance/quota/keystone.py``
(``get_usage``), ``glance/api/v2/image_data.py`` (``stage``,
``_unstage``), ``glance/api/v2/images.py`` (``import_image``,
``_validate_import_body``), ``glance/common/utils.py``
(``get_stores_from_request``) and
``glance/async_/flows/api_image_import.py`` (the flow's status changes).
"""

import json
import os
import sqlite3
from typing import Any

from occli.localcloud import errors
from occli.localcloud import files
from occli.localcloud.image import data
from occli.localcloud.image import images
from occli.localcloud.image import tasks
from occli.localcloud.image import writes

# glance's [DEFAULT] enabled_import_methods (its default)
IMPORT_METHODS = ["glance-direct", "web-download", "copy-image"]
# glance's [DEFAULT] enabled_backends ({id: type}) and default_backend
STORES = {images.STORE: "file"}
DEFAULT_STORE = images.STORE
# Glance's own stores, named after the enabled ones in the create answer's
# ``OpenStack-image-store-ids`` (glance/api/v2/images.py ``create``)
RESERVED_STORES = ("os_glance_staging_store", "os_glance_tasks_store")
STAGING = "staging"
# the statuses in which an image's ``file`` is a staged one
STAGED = ("uploading", "importing")
# the flow's properties: its lock (the task's id) and its progress
LOCK = "os_glance_import_task"
IMPORTING = "os_glance_importing_to_stores"
FAILED = "os_glance_failed_import"


class StagingFiles(files.Files):
    """The staged image data of one cloud (``<data_dir>/staging``, Glance's
    ``os_glance_staging_store``)."""

    def __init__(self, data_dir: str) -> None:
        super().__init__(data_dir, STAGING)

    def move(self, name: str, target: files.Files) -> None:
        """Move file ``name`` to ``target`` (same name; one rename, as both
        are directories of the data dir)."""
        os.replace(self.path(name), target.path(name))


def info_import() -> dict[str, Any]:
    """``GET /v2/info/import``."""
    return {
        "import-methods": {
            "description": "Import methods available.",
            "type": "array",
            "value": list(IMPORT_METHODS),
        }
    }


def info_stores() -> dict[str, Any]:
    """``GET /v2/info/stores``: each store, the default one marked."""
    stores = []
    for store in STORES:
        entry = {"id": store}
        if store == DEFAULT_STORE:
            entry["default"] = "true"
        stores.append(entry)
    return {"stores": stores}


def info_stores_detail(caller: Any, root: str) -> dict[str, Any]:
    """``GET /v2/info/stores/detail`` (admins or the ``service`` role, the
    ``stores_info_detail`` policy): each store with its type, properties
    (the file store's directory ``root``, chunk size, no thin
    provisioning, as glance_store's ``filesystem`` store) and weight."""
    if not caller.is_admin and "service" not in caller.roles:
        raise errors.Forbidden("You are not authorized to complete stores_info_detail action.")
    properties = {"data_dir": root, "chunk_size": 65536, "thin_provisioning": False}
    stores = info_stores()["stores"]
    for entry in stores:
        entry.update(type=STORES[entry["id"]], properties=dict(properties), weight=0)
    return {"stores": stores}


def info_usage() -> dict[str, Any]:
    """``GET /v2/info/usage``: Glance's project usage under Keystone's
    unified limits, which it reports empty without them (``use_keystone_limits``
    off, as here: :func:`occli.localcloud.image.data.check_quota` applies
    ``user_storage_quota`` instead)."""
    return {"usage": {}}


def create_headers() -> dict[str, str]:
    """The headers of Glance's ``POST /v2/images`` answer naming the import
    methods and stores."""
    return {
        "OpenStack-image-import-methods": ",".join(IMPORT_METHODS),
        "OpenStack-image-store-ids": ",".join((*STORES, *RESERVED_STORES)),
    }


def begin_stage(db: sqlite3.Connection, caller: Any, image_id: str) -> str:
    """Mark ``image_id`` ``uploading`` for ``caller``'s stage (NotFound,
    Forbidden (``modify_image``), Conflict unless it is ``queued``); its
    ``updated_at`` before (for :func:`unstage`)."""
    image = writes.changeable(db, caller, image_id, "modify_image")
    if image["status"] != "queued":
        raise errors.Conflict(
            "Image status transition from %s to uploading is not allowed" % image["status"]
        )
    writes.set_columns(db, image_id, status="uploading")
    return image["updated_at"]


def finish_stage(db: sqlite3.Connection, image_id: str, stored: files.Stored) -> None:
    """Record staged file ``stored`` and its size on ``image_id`` (still
    ``uploading``); NotFound if it was deleted meanwhile."""
    if not images.image_exists(db, image_id):
        raise errors.NotFound("No image found with ID %s" % image_id)
    writes.set_columns(db, image_id, file=stored.name, size=stored.size)


def unstage(db: sqlite3.Connection, image_id: str, updated_at: str) -> None:
    """A failed stage's image back to ``queued`` (Glance's ``_unstage``), as
    it was before (``updated_at``: what :func:`begin_stage` returned)."""
    db.execute(
        "UPDATE images SET status = 'queued', updated_at = ?"
        " WHERE id = ? AND status = 'uploading' AND file IS NULL",
        (updated_at, image_id),
    )


def check_body(body: Any) -> None:
    """Glance's ``_validate_import_body``: BadRequest for a body without a
    method and name, a method not enabled here, or non-boolean flags."""
    if not isinstance(body, dict) or "method" not in body:
        raise errors.BadRequest("Import request requires a 'method' field.")
    method = body["method"]
    if not isinstance(method, dict) or "name" not in method:
        raise errors.BadRequest("Import request requires a 'name' field.")
    if method["name"] not in IMPORT_METHODS:
        raise errors.BadRequest("Unknown import method name '%s'." % method["name"])
    if not isinstance(body.get("all_stores_must_succeed", True), bool):
        raise errors.BadRequest("'all_stores_must_succeed' must be boolean value only")
    if not isinstance(body.get("all_stores", False), bool):
        raise errors.BadRequest("'all_stores' must be boolean value only")


def requested_stores(body: dict[str, Any], header: str | None) -> list[str]:
    """The stores an import targets: ``all_stores``, ``stores`` or the
    ``X-Image-Meta-Store`` header (``header``), else the default store
    (``get_stores_from_request``); Conflict for an unknown one."""
    if body.get("all_stores", False):
        if "stores" in body or header is not None:
            raise errors.BadRequest(
                "All_stores parameter can't be used with x-image-meta-store header"
                " or stores parameter"
            )
        stores = list(STORES)
    elif "stores" in body:
        if header is not None:
            raise errors.BadRequest(
                "Stores parameter and x-image-meta-store header can't be both specified"
            )
        stores = body["stores"]
        if not isinstance(stores, list):
            raise errors.BadRequest("Invalid type value: %s" % (stores,))
    else:
        stores = [header if header is not None else DEFAULT_STORE]
    for store in stores:
        if store not in STORES:
            # glance_store's get_store_from_store_identifier
            raise errors.Conflict("Store for identifier %s not found" % store)
    return stores


def begin_import(
    db: sqlite3.Connection, caller: Any, image_id: str, body: Any, request_id: str | None = None
) -> tuple[str, str] | None:
    """``POST /v2/images/{id}/import``: check it as Glance's
    ``import_image`` does, in its order; for ``glance-direct`` mark the
    image ``importing`` under a new ``api_image_import`` task
    (``processing``, its id the image's :data:`LOCK`, ``request_id`` the
    request's) and give the staged file's name and the task's id (the
    caller moves the file, then calls :func:`finish_import`). None: there
    is nothing to do (``copy-image`` to ``all_stores``, which hold it)."""
    check_body(body)
    method = body["method"]["name"]
    image = images.show(db, caller, image_id)
    status = image["status"]
    if status == "active" and method != "copy-image":
        raise errors.Conflict("Image with status active cannot be target for import")
    if status != "active" and method == "copy-image":
        raise errors.Conflict("Only images with status active can be targeted for copying")
    if status != "queued" and method == "web-download":
        raise errors.Conflict("Image needs to be in 'queued' state to use '%s' method" % method)
    if status != "uploading" and method == "glance-direct":
        raise errors.Conflict("Image needs to be staged before 'glance-direct' method can be used")
    if not image["container_format"]:
        raise errors.Conflict("'container_format' needs to be set before import")
    if not image["disk_format"]:
        raise errors.Conflict("'disk_format' needs to be set before import")
    if method == "copy-image" and not caller.is_admin:
        # glance's ``copy_image`` policy: ``rule:context_is_admin``
        raise errors.Forbidden("You are not authorized to complete copy_image action.")
    if method != "copy-image":
        writes.changeable(db, caller, image_id, "modify_image")
    stores = requested_stores(body, None)
    if method == "copy-image":
        # the one store holds every active image's data already
        if body.get("all_stores", False):
            return None
        raise errors.BadRequest("Image is already present at store '%s'" % stores[0])
    if method == "web-download":
        # the local Glance fetches nothing: no URI passes its filtering (a
        # Glance whose ``[import_filtering_opts]`` allow no host; the
        # rig's refuses every loopback one so)
        raise errors.BadRequest(
            "URI for web-download does not pass filtering: %s" % body["method"].get("uri")
        )
    staged = writes.data_file(db, image_id)
    if staged is None:
        # staged but its data not yet complete: Glance's flow finds none
        raise errors.Conflict("Image needs to be staged before 'glance-direct' method can be used")
    task_input = {"image_id": image_id, "import_req": body, "backend": stores}
    task = tasks.create_task(
        db, caller, "api_image_import", task_input, image_id=image_id, request_id=request_id
    )
    tasks.update_task(db, task["id"], "processing")
    _set_properties(db, image_id, {LOCK: task["id"], IMPORTING: ",".join(stores), FAILED: ""})
    writes.set_columns(db, image_id, status="importing")
    return staged, task["id"]


def finish_import(
    db: sqlite3.Connection, image_id: str, task_id: str, stored: files.Stored, hash_value: str
) -> None:
    """Make ``image_id`` ``active`` with its imported file ``stored`` and
    its hashes, its task ``task_id`` a success and its lock dropped;
    NotFound if it was deleted meanwhile."""
    if not images.image_exists(db, image_id):
        raise errors.NotFound("No image found with ID %s" % image_id)
    tasks.update_task(db, task_id, "success", result={"image_id": image_id})
    _set_properties(db, image_id, {LOCK: None, IMPORTING: ""})
    writes.set_columns(
        db,
        image_id,
        status="active",
        file=stored.name,
        size=stored.size,
        virtual_size=data.virtual_size(db, image_id, stored.size),
        checksum=stored.md5,
        os_hash_algo=data.HASH_ALGO,
        os_hash_value=hash_value,
    )


def fail_import(db: sqlite3.Connection, image_id: str, task_id: str, message: str) -> None:
    """An import that could not finish: the image back to ``queued``
    without data, its stores failed, its task a failure with ``message``
    (the flow's ``revert``; a deleted image: only its task)."""
    tasks.update_task(db, task_id, "failure", message=message)
    row = db.execute(
        "SELECT properties FROM images WHERE id = ? AND status = 'importing'", (image_id,)
    ).fetchone()
    if row is None:
        return
    stores = json.loads(row["properties"]).get(IMPORTING, "")
    _set_properties(db, image_id, {LOCK: None, IMPORTING: "", FAILED: stores})
    writes.set_columns(db, image_id, status="queued", file=None, size=None)


def _set_properties(db: sqlite3.Connection, image_id: str, changes: dict[str, Any]) -> None:
    """Set image ``image_id``'s extra properties ``changes`` (None: remove)."""
    row = db.execute("SELECT properties FROM images WHERE id = ?", (image_id,)).fetchone()
    properties = json.loads(row["properties"])
    for key, value in changes.items():
        if value is None:
            properties.pop(key, None)
        else:
            properties[key] = value
    writes.set_columns(db, image_id, properties=json.dumps(properties))
