"""Digests of streamed bytes computed beside the stream (issue 26).

A download checks its bytes against Glance's MD5 and SHA-512 or Swift's
MD5 ``ETag``. Updated in the loop that receives and writes the bytes, the
hashes ran one after the other and after each read: about half of a 1 GiB
``image save``. hashlib lets go of the GIL while it hashes a chunk, so
:class:`Digests` gives each digest a thread of its own, fed the chunks
through a short queue (at most :data:`DEPTH` chunks waiting, shared by all
the digests: memory stays flat), and the digests run beside each other and
beside the socket reads and file writes.
"""

import hashlib
import queue
import threading

#: Chunks a digest's thread may be behind the stream (then the stream waits).
DEPTH = 4


class Digests:
    """Named hashlib digests (``md5``, ``sha512``…), each updated in its own
    thread: :meth:`update` with each chunk, then :meth:`hexdigests`;
    :meth:`close` ends the threads early (the stream abandoned)."""

    def __init__(self, names: list[str]) -> None:
        self._digests = {name: hashlib.new(name, usedforsecurity=False) for name in names}
        self._queues: list[queue.Queue[bytes | None]] = []
        self._threads = []
        for digest in self._digests.values():
            chunks: queue.Queue[bytes | None] = queue.Queue(DEPTH)
            thread = threading.Thread(target=_feed, args=(digest, chunks), daemon=True)
            thread.start()
            self._queues.append(chunks)
            self._threads.append(thread)

    def update(self, chunk: bytes) -> None:
        for chunks in self._queues:
            chunks.put(chunk)

    def close(self) -> None:
        """End the threads once they have hashed what they were given."""
        for chunks in self._queues:
            chunks.put(None)
        for thread in self._threads:
            thread.join()
        self._queues, self._threads = [], []

    def hexdigests(self) -> dict[str, str]:
        """Each digest of all the chunks given (the threads ended)."""
        self.close()
        return {name: digest.hexdigest() for name, digest in self._digests.items()}


def _feed(digest: "hashlib._Hash", chunks: "queue.Queue[bytes | None]") -> None:
    while (chunk := chunks.get()) is not None:
        digest.update(chunk)
