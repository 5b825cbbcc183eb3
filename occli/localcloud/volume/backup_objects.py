"""What Cinder's Swift backup driver stores for a backup
(cinder/backup/chunkeddriver.py, cinder/backup/drivers/swift.py).

In the backup's container (``volumebackups`` unless asked), objects named
after the prefix ``volume_<volume id>/<YYYYmmddHHMMSS>/az_<zone>_backup_<backup
id>`` (the backup's ``service_metadata``): the data chunks ``<prefix>-00001``…
(``backup_swift_object_size`` bytes of the volume each, zlib-compressed),
then ``<prefix>_sha256file`` (a SHA-256 per ``backup_swift_block_size``
block) and ``<prefix>_metadata`` (each chunk's offset, length, compression
and MD5; the volume's metadata), both JSON as the driver writes them
(``sort_keys``, ``indent=2``).

A local volume holds no bytes: its content is zeros of its size. So every
chunk of one length is the same and is compressed once (zlib of 50 MiB of
zeros is about 50 KiB), and the SHA-256 list is streamed: a backup never
builds its volume, nor its list, in memory. An incremental backup stores
only the blocks that differ from its parent's: with zeros, those past the
parent's size (a volume extended since).
"""

import functools
import hashlib
import json
import zlib
from collections.abc import Iterator
from collections.abc import Mapping
from typing import Any

from occli.localcloud import files

GIB = 1024**3
OBJECT_SIZE = 52428800  # backup_swift_object_size
BLOCK_SIZE = 32768  # backup_swift_block_size
DRIVER_VERSION = "1.0.0"
COMPRESSION = "zlib"  # backup_compression_algorithm
_ZEROS = bytes(files.CHUNK)
# sha256s per batch written to the _sha256file
_SHA_BATCH = 1024


def prefix(backup: Mapping[str, Any], zone: str, when: str) -> str:
    """The swift driver's ``_generate_object_name_prefix``; ``when`` is
    the backup's time as ``YYYYmmddHHMMSS``."""
    return "volume_%s/%s/az_%s_backup_%s" % (backup["volume_id"], when, zone, backup["id"])


def _zeros(length: int) -> Iterator[bytes]:
    while length > 0:
        piece = min(length, len(_ZEROS))
        yield _ZEROS[:piece]
        length -= piece


@functools.lru_cache(maxsize=4)
def _chunk(length: int) -> tuple[bytes, str]:
    """A chunk of ``length`` zero bytes: ``(its zlib data, its MD5)``,
    compressed in pieces (the whole chunk never in memory)."""
    compressor, md5 = zlib.compressobj(), hashlib.md5()
    parts = []
    for piece in _zeros(length):
        md5.update(piece)
        parts.append(compressor.compress(piece))
    parts.append(compressor.flush())
    return b"".join(parts), md5.hexdigest()


def extents(size_gb: int, parent_size_gb: int | None) -> list[tuple[int, int]]:
    """``(offset, length)`` of each data object: every chunk of the volume
    for a full backup; for an incremental one, the parts of the chunks
    past the parent's size (the rest is the parent's zeros)."""
    end = size_gb * GIB
    start = 0 if parent_size_gb is None else min(parent_size_gb * GIB, end)
    found = []
    for offset in range(0, end, OBJECT_SIZE):
        low, high = max(offset, start), min(offset + OBJECT_SIZE, end)
        if low < high:
            found.append((low, high - low))
    return found


def _created(backup):
    """``str(backup['created_at'])`` as the driver writes it (aware UTC)."""
    return backup["created_at"].replace("T", " ") + "+00:00"


def _header(backup):
    return {
        "version": DRIVER_VERSION,
        "backup_id": backup["id"],
        "volume_id": backup["volume_id"],
        "backup_name": backup["name"],
        "backup_description": backup["description"],
        "created_at": _created(backup),
    }


def volume_meta(volume: Mapping[str, Any]) -> str:
    """The ``volume_meta`` of a backup's metadata: Cinder's
    ``BackupMetadataAPI.get`` (version 2: the volume's base fields, its
    metadata, its image's), a JSON string."""
    base = {
        key: volume.get(key)
        for key in ("id", "size", "availability_zone", "bootable", "volume_type_id")
    }
    base.update(display_name=volume.get("name"), display_description=volume.get("description"))
    return json.dumps(
        {
            "version": 2,
            "volume-base-metadata": base,
            "volume-metadata": json.loads(volume.get("metadata") or "{}"),
            "volume-glance-metadata": json.loads(volume.get("image_metadata") or "{}"),
        }
    )


def objects(
    backup: Mapping[str, Any], volume: Mapping[str, Any], parent_size_gb: int | None
) -> Iterator[tuple[str, Iterator[bytes]]]:
    """The backup's objects in the order the driver writes them, each
    ``(name, its bytes in chunks)``: the data chunks, ``_sha256file``,
    ``_metadata``."""
    name = backup["service_metadata"]
    listed = []
    for index, (offset, length) in enumerate(extents(backup["size"], parent_size_gb), 1):
        data, md5 = _chunk(length)
        part = "%s-%05d" % (name, index)
        listed.append(
            {part: {"offset": offset, "length": length, "compression": COMPRESSION, "md5": md5}}
        )
        yield part, iter((data,))
    yield name + "_sha256file", _sha256file(backup)
    metadata = dict(
        _header(backup),
        objects=listed,
        parent_id=backup["parent_id"],
        volume_meta=volume_meta(volume),
    )
    yield name + "_metadata", iter((json.dumps(metadata, sort_keys=True, indent=2).encode(),))


def count(backup: Mapping[str, Any], parent_size_gb: int | None) -> int:
    """The backup's ``object_count``: its data objects."""
    return len(extents(backup["size"], parent_size_gb))


def _sha256file(backup):
    """The ``_sha256file`` JSON, its SHA list written in batches."""
    marker = "@SHA256S@"
    text = json.dumps(
        dict(_header(backup), chunk_size=BLOCK_SIZE, sha256s=[marker]), sort_keys=True, indent=2
    )
    head, tail = text.split('"%s"' % marker)
    sha = '"%s"' % hashlib.sha256(bytes(BLOCK_SIZE)).hexdigest()
    left = backup["size"] * GIB // BLOCK_SIZE
    yield head.encode()
    separator = ",\n    "
    first = True
    while left > 0:
        batch = min(left, _SHA_BATCH)
        piece = separator.join([sha] * batch)
        yield (piece if first else separator + piece).encode()
        first = False
        left -= batch
    yield tail.encode()
