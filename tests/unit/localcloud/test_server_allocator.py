"""A serving process has glibc map large blocks on their own
(``server.tune_allocator``, issue 26): a freed 1 MiB chunk of a streamed
body no longer raises the size from which malloc maps, so the next large
block is mapped too (and unmapped when freed) instead of growing the heap.
Measured in child processes, whose allocator is their own."""

import platform
import subprocess
import sys

import pytest

from occli.localcloud import server as server_
from occli.localcloud.cloud import Config
from occli.localcloud.cloud import LocalCloud
from occli.localcloud.identity.api.service import IdentityService

GLIBC = platform.system() == "Linux" and platform.libc_ver()[0] == "glibc"

# the number of mapped blocks (mallinfo2's hblks) holding a 512 KiB block
# allocated after a 1 MiB one was freed
CHILD = """
import ctypes, sys
from occli.localcloud import server

FIELDS = "arena ordblks smblks hblks hblkhd usmblks fsmblks uordblks fordblks keepcost"

class Info(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in FIELDS.split()]

libc = ctypes.CDLL(None)
libc.mallinfo2.restype = Info
if sys.argv[1] == "tuned":
    assert server.tune_allocator()
chunk = bytearray(1 << 20)
del chunk
before = libc.mallinfo2().hblks
block = bytearray(512 << 10)
print(libc.mallinfo2().hblks - before)
"""


def mapped_after_a_freed_chunk(mode):
    out = subprocess.run(
        [sys.executable, "-c", CHILD, mode], capture_output=True, text=True, check=True
    ).stdout
    return int(out)


@pytest.mark.skipif(not GLIBC, reason="glibc's allocator only")
def test_a_large_block_is_mapped_after_a_freed_chunk_once_tuned():
    # glibc's default: the freed chunk raised the threshold past 512 KiB
    assert mapped_after_a_freed_chunk("default") == 0
    assert mapped_after_a_freed_chunk("tuned") == 1


def test_serve_tunes_the_allocator_before_it_serves(tmp_path, monkeypatch):
    cloud = LocalCloud(Config(data_dir=str(tmp_path / "data")), services=[IdentityService])
    order = []

    class Server:
        effective_port = 8775

        def run(self):
            order.append("run")

        def close(self):
            pass

    monkeypatch.setattr(server_, "make_server", lambda *args: Server())
    monkeypatch.setattr(server_, "tune_allocator", lambda: order.append("tuned"))
    assert server_.serve(cloud) == "http://127.0.0.1:8775"
    assert order == ["tuned", "run"]
