"""Image data: one private file per image under ``<data_dir>/images``, and
the upload's status changes (``queued → saving → active``).

The files are the shared kind (:class:`occli.localcloud.files.Files`, as Swift's:
0700 directory, 0600 files written under a temporary name and renamed,
read only if regular and this user's, in reads of at most 1 MiB), in a
directory of their own. The bytes never enter the database: an upload
holds the write lock only to mark the image ``saving`` and, once the file
is complete, ``active`` with its size and hashes. Read in glance 33's
``glance/api/v2/image_data.py`` (``upload``, ``download``, ``_restore``)
and ``glance/location.py`` (md5 ``checksum``, ``os_hash_algo`` sha512).
"""

import sqlite3
from typing import Any

from occli.localcloud import errors
from occli.localcloud import files
from occli.localcloud.image import images
from occli.localcloud.image import writes

DIRECTORY = "images"
HASH_ALGO = "sha512"
# what an upload or import hashes: the md5 ``checksum`` and the multihash
DIGESTS = ("md5", HASH_ALGO)


class ImageFiles(files.Files):
    """The image files of one cloud (``<data_dir>/images``)."""

    def __init__(self, data_dir: str) -> None:
        super().__init__(data_dir, DIRECTORY)


def begin_upload(db: sqlite3.Connection, caller: Any, image_id: str) -> str:
    """Mark ``image_id`` ``saving`` for ``caller``'s upload (NotFound,
    Forbidden (``upload_image``), Conflict unless it is ``queued``); its
    ``updated_at`` before (for :func:`restore`)."""
    image = writes.changeable(db, caller, image_id, "upload_image")
    if image["status"] != "queued":
        raise errors.Conflict(
            "Image status transition from %s to saving is not allowed" % image["status"]
        )
    writes.set_columns(db, image_id, status="saving")
    return image["updated_at"]


def finish_upload(
    db: sqlite3.Connection, image_id: str, stored: files.Stored, hash_value: str
) -> str | None:
    """Make ``image_id`` ``active`` with file ``stored``; the name of the
    file it replaced, or None. Deleted meanwhile: NotFound (the API
    answers Glance's 410 with its text)."""
    if not images.image_exists(db, image_id):
        raise errors.NotFound(
            "Image %s could not be found after upload. The image may have been"
            " deleted during the upload." % image_id
        )
    replaced = writes.data_file(db, image_id)
    writes.set_columns(
        db,
        image_id,
        status="active",
        file=stored.name,
        size=stored.size,
        virtual_size=virtual_size(db, image_id, stored.size),
        checksum=stored.md5,
        os_hash_algo=HASH_ALGO,
        os_hash_value=hash_value,
    )
    return replaced


def virtual_size(db: sqlite3.Connection, image_id: str, size: int) -> int | None:
    """The ``virtual_size`` of ``size`` bytes of data for image ``image_id``:
    the size for a ``raw`` image, as Glance's format inspector gives a raw
    file's; None for the other formats, whose headers the local Glance does
    not read."""
    row = db.execute("SELECT disk_format FROM images WHERE id = ?", (image_id,)).fetchone()
    return size if row is not None and row["disk_format"] == "raw" else None


def check_quota(
    db: sqlite3.Connection, caller: Any, quota: int, image_id: str, size: int | None
) -> int | None:
    """The bytes ``caller``'s project may still store besides image
    ``image_id`` (None: ``quota`` is 0, unlimited), counting its uploaded
    and staged data; TooLarge (Glance's ``StorageQuotaFull`` as ``upload``
    words it) if ``size`` exceeds them, or if none are left (size unknown).
    Glance's ``user_storage_quota`` (``glance/api/common.py``
    ``check_quota``), which Glance checks before and after the upload."""
    if quota <= 0:
        return None
    row = db.execute(
        "SELECT COALESCE(SUM(size), 0) AS used FROM images"
        " WHERE owner IS ? AND file IS NOT NULL AND id != ?",
        (caller.project_id, image_id),
    ).fetchone()
    remaining = quota - row["used"]
    if (remaining <= 0 and size is None) or (size is not None and size > remaining):
        raise errors.TooLarge(quota_text(size, remaining))
    return remaining


def quota_text(size: int | None, remaining: int) -> str:
    """Glance's 413 text for data of ``size`` bytes over the quota."""
    return (
        "Image exceeds the storage quota: The size of the data %s will exceed the limit."
        " %s bytes remaining." % (size, remaining)
    )


def restore(db: sqlite3.Connection, image_id: str, updated_at: str) -> None:
    """A failed upload's image back to ``queued`` (Glance's ``_restore``),
    as it was before (``updated_at``: what :func:`begin_upload` returned)."""
    db.execute(
        "UPDATE images SET status = 'queued', updated_at = ? WHERE id = ? AND status = 'saving'",
        (updated_at, image_id),
    )
