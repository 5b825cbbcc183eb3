"""A served cloud's start-up objects are frozen out of the collector's
reach (``server.freeze_startup``, issue 26) before it serves, and what it
makes later is still collected."""

import gc
import weakref

import pytest

from occli.localcloud import server as server_
from occli.localcloud.cloud import Config
from occli.localcloud.cloud import LocalCloud
from occli.localcloud.identity.api.service import IdentityService


@pytest.fixture
def unfrozen():
    gc.unfreeze()
    yield
    gc.unfreeze()


class _Cycle:
    def __init__(self):
        self.me = self


def test_freeze_startup_freezes_what_lives_and_collects_the_rest(unfrozen):
    garbage = _Cycle()
    gone = weakref.ref(garbage)
    del garbage
    server_.freeze_startup()
    assert gc.get_freeze_count() > 0
    # the cycle made before was collected, not frozen
    assert gone() is None
    later = _Cycle()
    gone = weakref.ref(later)
    del later
    gc.collect()
    assert gone() is None


def test_serve_freezes_before_it_serves(tmp_path, monkeypatch, unfrozen):
    cloud = LocalCloud(Config(data_dir=str(tmp_path / "data")), services=[IdentityService])
    frozen = []

    class Server:
        effective_port = 8775

        def run(self):
            frozen.append(gc.get_freeze_count())

        def close(self):
            pass

    monkeypatch.setattr(server_, "make_server", lambda *args: Server())
    assert server_.serve(cloud) == "http://127.0.0.1:8775"
    assert frozen and frozen[0] > 0
