"""The client's byte streams (issue 26): downloads hashed in threads of
their own beside the stream (:class:`occli.digests.Digests`), uploads sent
with their length in pieces of ``CHUNK_SIZE`` (no ``read``: urllib3 would
read 16 KiB at a time)."""

import hashlib
import io
import os
import threading

from occli.digests import Digests
from occli.v2.image import image_data
from occli.v2.object_store import objects

DATA = os.urandom(3 * image_data.CHUNK_SIZE + 5)


def test_digests_are_hashlib_s_of_all_the_chunks():
    digests = Digests(["md5", "sha512"])
    for start in range(0, len(DATA), 100_000):
        digests.update(DATA[start : start + 100_000])
    assert digests.hexdigests() == {
        "md5": hashlib.md5(DATA).hexdigest(),
        "sha512": hashlib.sha512(DATA).hexdigest(),
    }


def test_digests_threads_end_when_closed_early():
    before = threading.active_count()
    digests = Digests(["md5", "sha512"])
    assert threading.active_count() == before + 2
    digests.update(b"part")
    digests.close()
    assert threading.active_count() == before


def test_an_image_upload_is_its_length_in_chunks_of_chunk_size():
    sent: list[int] = []
    reader = image_data._Reader(io.BytesIO(DATA), len(DATA), sent.append)
    assert not hasattr(reader, "read") and len(reader) == len(DATA)
    chunks = list(reader)
    assert b"".join(chunks) == DATA
    assert [len(c) for c in chunks[:-1]] == [image_data.CHUNK_SIZE] * 3
    assert sent == [image_data.CHUNK_SIZE * n for n in (1, 2, 3)] + [len(DATA)]


def test_an_object_upload_is_its_length_in_chunks_of_chunk_size_hashed_as_sent():
    sent: list[int] = []
    digests = Digests(["md5"])
    upload = objects._Upload(io.BytesIO(DATA), len(DATA), lambda n, size: sent.append(n), digests)
    assert not hasattr(upload, "read") and len(upload) == len(DATA)
    chunks = list(upload)
    assert b"".join(chunks) == DATA
    assert [len(c) for c in chunks[:-1]] == [objects.CHUNK_SIZE] * 3
    assert sent[-1] == len(DATA)
    assert digests.hexdigests() == {"md5": hashlib.md5(DATA).hexdigest()}
