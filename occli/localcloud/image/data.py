"""Image data: one private file per image under ``<data_dir>/images``.

The files are the object store's kind (:class:`occli.localcloud.objectstore.files.Files`:
0700 directory, 0600 files written under a temporary name and renamed,
read only if regular and this user's, in reads of at most 64 KiB), in a
directory of their own. The bytes never enter the database: an upload
holds the write lock only to mark the image ``saving`` and, once the file
is complete, ``active`` with its size and hashes. Read in glance 33's
``glance/api/v2/image_data.py`` (``upload``, ``download``, ``_restore``)
and ``glance/location.py`` (md5 ``checksum``, ``os_hash_algo`` sha512).
"""

import os

from occli.localcloud.objectstore import files

DIRECTORY = "images"


class ImageFiles(files.Files):
    """The image files of one cloud (``<data_dir>/images``)."""

    def __init__(self, data_dir: str) -> None:
        self.root = os.path.join(data_dir, DIRECTORY)
        files.make_private_dir(self.root)
