"""Reads never hold the write lock (issue 9 A): GET and HEAD run in a
read-only snapshot, so a writer holding the lock (or a slow filter) never
makes other tenants' reads queue; lazy server progress is persisted by a
short, optimistic write of its own."""

import datetime
import threading

import pytest

from occli.localcloud import common
from tests.unit.localcloud.compute_harness import Nova
from tests.unit.localcloud.compute_harness import make_cloud


@pytest.fixture
def nova(tmp_path):
    cloud = make_cloud(tmp_path / "data")
    yield Nova(cloud)
    cloud.close()


@pytest.fixture
def slow_nova(tmp_path):
    cloud = make_cloud(tmp_path / "data", build_time=10)
    yield Nova(cloud)
    cloud.close()


@pytest.fixture
def clock():
    now = [common.utcnow()]

    class Clock:
        def advance(self, seconds):
            now[0] += datetime.timedelta(seconds=seconds)

    common.set_clock(lambda: now[0])
    yield Clock()
    common.set_clock(None)


class _LockHolder:
    """Holds the store's write lock from another thread until the block
    ends; :meth:`run` runs requests meanwhile."""

    def __init__(self, store):
        self._locked, self._release = threading.Event(), threading.Event()
        self._thread = threading.Thread(target=self._hold, args=(store,))
        self._workers = []

    def _hold(self, store):
        with store.transaction():
            self._locked.set()
            self._release.wait(60)

    def run(self, fn):
        """Run ``fn`` in a thread: ``(answered within a generous 20 s while
        the lock was held, [its result once it has one])``."""
        result = []
        worker = threading.Thread(target=lambda: result.append(fn()), daemon=True)
        worker.start()
        worker.join(20)
        self._workers.append(worker)
        return not worker.is_alive(), result

    def __enter__(self):
        self._thread.start()
        assert self._locked.wait(10)
        return self

    def __exit__(self, *exc):
        # nothing may still use the database when the test's cloud closes
        self._release.set()
        self._thread.join()
        for worker in self._workers:
            worker.join()


def test_reads_answer_while_another_request_holds_the_write_lock(nova):
    server_id = nova.create()
    assert nova.show(server_id)["status"] == "ACTIVE"
    paths = ["/servers/detail", "/servers/" + server_id, "/flavors", "/limits", "/os-keypairs"]
    with _LockHolder(nova.cloud.store) as lock:
        answers = [lock.run(lambda p=path: nova.get(p)) for path in paths]
        answers.append(
            lock.run(lambda: nova.client.get("/image/v2/images", token=nova.tokens["demo"]))
        )
    assert [in_time for in_time, _ in answers] == [True] * len(answers), (
        "a read waited for the write lock"
    )
    assert [result[0].status for _, result in answers] == [200] * len(answers)


def _count_writes(monkeypatch, store):
    writes = []
    real = store.transaction

    def counting():
        writes.append(1)
        return real()

    monkeypatch.setattr(store, "transaction", counting)
    return writes


def test_a_list_persists_progress_in_one_short_write_then_none(nova, monkeypatch):
    for _ in range(3):
        nova.create()
    writes = _count_writes(monkeypatch, nova.cloud.store)
    assert nova.get("/servers/detail").status == 200
    assert writes == [1]
    assert nova.get("/servers/detail").status == 200
    assert writes == [1]


def test_progress_computed_from_a_stale_snapshot_never_undoes_a_delete(slow_nova, clock):
    server_id = slow_nova.create()
    clock.advance(20)
    store = slow_nova.cloud.store
    with store.read() as snapshot:
        # pin the snapshot, then delete the server from another thread
        snapshot.execute("SELECT COUNT(*) FROM servers").fetchone()
        deleting = threading.Thread(target=lambda: slow_nova.delete("/servers/" + server_id))
        deleting.start()
        deleting.join()
        # this GET joins the pinned snapshot: it still sees the build and
        # completes it, but its write finds the plan gone and changes nothing
        shown = slow_nova.show(server_id)
        assert shown["status"] == "ACTIVE"
    with store.read() as db:
        row = db.execute(
            "SELECT deleted, vm_state, pending FROM servers WHERE id = ?", (server_id,)
        ).fetchone()
    assert tuple(row) == (1, "deleted", None)


def test_a_refused_login_never_takes_the_write_lock(nova, monkeypatch):
    with _LockHolder(nova.cloud.store) as lock:
        writes = _count_writes(monkeypatch, nova.cloud.store)
        in_time, result = lock.run(lambda: nova.client.authenticate("demo", password="wrong"))
    assert in_time, "a refused login waited for the write lock"
    assert result[0].status == 401
    assert writes == []
