"""Issue 26: 4 clients putting 5 MB Swift objects kept another project's
metadata write at 6.5–12.5 × its idle p99, the uploads hashed four at a
time on the threads that serve everyone. A request whose body is over
``server.BULK_BODY`` bytes now runs on threads of its own
(``Config.slow_threads`` of them, apart from the password-hashing ones):
uploads wait for each other, not token holders nor logins for uploads."""

import threading
import time

import pytest
import requests

from occli.localcloud import files
from occli.localcloud import server as srv
from occli.localcloud.cloud import Config
from occli.localcloud.cloud import LocalCloud
from occli.localcloud.identity.api.service import IdentityService
from occli.localcloud.image.api.service import ImageService
from occli.localcloud.objectstore.api.service import ObjectStoreService
from occli.localcloud.server import BackgroundServer
from tests.security import test_login_flood as login_flood

UPLOADS = 3


class _HeldStores:
    """``Files.store`` blocking until :meth:`release`: counts the stores
    running at once."""

    def __init__(self, monkeypatch):
        self._real = files.Files.store
        self._lock = threading.Lock()
        self._released = threading.Event()
        self.inside = self.most = 0
        held = self

        def store(self, chunks, source=None, digests=files.MD5):
            with held._lock:
                held.inside += 1
                held.most = max(held.most, held.inside)
            try:
                held._released.wait(60)
                return held._real(self, chunks, source, digests)
            finally:
                with held._lock:
                    held.inside -= 1

        monkeypatch.setattr(files.Files, "store", store)

    def release(self):
        self._released.set()


@pytest.fixture
def served(tmp_path):
    cloud = LocalCloud(
        Config(data_dir=str(tmp_path / "data"), threads=2, slow_threads=1),
        services=[IdentityService, ImageService, ObjectStoreService],
    )
    server = BackgroundServer(cloud).start()
    yield cloud, server
    server.stop()
    cloud.close()


def _login(url):
    return login_flood._login(url, "demo", "demo-secret")


def _account(server):
    """``demo``'s Swift account URL and token headers, its container ``c``
    made."""
    login = _login(server.url)
    headers = {"X-Auth-Token": login.headers["X-Subject-Token"]}
    (account,) = [
        e["endpoints"][0]["url"]
        for e in login.json()["token"]["catalog"]
        if e["type"] == "object-store"
    ]
    assert requests.put(account + "/c", headers=headers, timeout=30).status_code == 201
    return account, headers


def _waiting(server, held):
    """Uploads storing or queued for a bulk thread."""
    return held.inside + len(server.server.task_dispatcher.bulk_pool.queue)


def _in_time(call):
    """``call()``'s answer, or None if it took more than 20 s (it answers
    in milliseconds when a thread serves it)."""
    answer = []
    thread = threading.Thread(target=lambda: answer.append(call()), daemon=True)
    thread.start()
    thread.join(20)
    return answer[0] if answer else None


def test_small_requests_and_logins_are_served_while_uploads_wait(served, monkeypatch):
    cloud, server = served
    account, headers = _account(server)
    held = _HeldStores(monkeypatch)
    body = b"b" * (srv.BULK_BODY + 1)
    answers = []
    uploads = [
        threading.Thread(
            target=lambda i=i: answers.append(
                requests.put(account + "/c/big-%d" % i, data=body, headers=headers, timeout=60)
            )
        )
        for i in range(UPLOADS)
    ]
    for thread in uploads:
        thread.start()
    try:
        for _ in range(1000):
            if _waiting(server, held) >= UPLOADS:
                break
            time.sleep(0.01)
        # one stores (slow_threads), the others wait for a bulk thread
        assert (held.inside, _waiting(server, held)) == (1, UPLOADS)
        listed = _in_time(lambda: requests.get(account + "/c", headers=headers, timeout=60))
        assert listed is not None, "a token holder's read waited for the uploads"
        assert listed.status_code in (200, 204)
        logged_in = _in_time(lambda: _login(server.url))
        assert logged_in is not None and logged_in.status_code == 201
    finally:
        held.release()
        for thread in uploads:
            thread.join()
    assert sorted(r.status_code for r in answers) == [201] * UPLOADS
    assert held.most == 1


def test_a_small_body_is_not_bulk(served, monkeypatch):
    cloud, server = served
    account, headers = _account(server)
    bulk = server.server.task_dispatcher.bulk_pool
    seen = []
    real = bulk.add_task
    monkeypatch.setattr(bulk, "add_task", lambda task: (seen.append(task), real(task)))
    small = requests.put(account + "/c/s", data=b"s" * srv.BULK_BODY, headers=headers, timeout=30)
    assert small.status_code == 201 and seen == []
    large = requests.put(
        account + "/c/l", data=b"l" * (srv.BULK_BODY + 1), headers=headers, timeout=30
    )
    assert large.status_code == 201 and len(seen) == 1
