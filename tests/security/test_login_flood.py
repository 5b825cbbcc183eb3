"""Issue 19, finding 10: an unauthenticated wrong-password flood (8
threads) raised other tenants' read p99 from 10 ms to 0.3–1.5 s, its
logins holding every server thread while scrypt ran. The routes that hash
passwords now have threads of their own (``Config.slow_threads``): at
most that many hashes run at once and token holders keep the others."""

import threading
import time

import pytest
import requests

from occli.localcloud.cloud import Config
from occli.localcloud.cloud import LocalCloud
from occli.localcloud.identity import passwords
from occli.localcloud.identity.api.service import IdentityService
from occli.localcloud.image.api.service import ImageService
from occli.localcloud.server import BackgroundServer

LOGINS = 4


class _SlowHashes:
    """``passwords.verify_password`` blocking until :meth:`release`: counts
    the hashes running at once."""

    def __init__(self, monkeypatch):
        self._real = passwords.verify_password
        self._lock = threading.Lock()
        self._released = threading.Event()
        self.inside = self.most = 0
        monkeypatch.setattr(passwords, "verify_password", self._verify)

    def _verify(self, password, encoded):
        with self._lock:
            self.inside += 1
            self.most = max(self.most, self.inside)
        try:
            self._released.wait(60)
            return self._real(password, encoded)
        finally:
            with self._lock:
                self.inside -= 1

    def release(self):
        self._released.set()


@pytest.fixture
def served(tmp_path):
    cloud = LocalCloud(
        Config(data_dir=str(tmp_path / "data"), threads=2, slow_threads=1),
        services=[IdentityService, ImageService],
    )
    server = BackgroundServer(cloud).start()
    yield cloud, server
    server.stop()
    cloud.close()


def _login(url, user, password):
    body = {
        "auth": {
            "identity": {
                "methods": ["password"],
                "password": {
                    "user": {"name": user, "domain": {"id": "default"}, "password": password}
                },
            }
        }
    }
    return requests.post(url + "/v3/auth/tokens", json=body, timeout=60)


def _waiting(server, hashes):
    """Logins running a hash or queued for a thread (in either pool)."""
    dispatcher = server.server.task_dispatcher
    pools = [dispatcher, getattr(dispatcher, "slow_pool", None)]
    return hashes.inside + sum(len(pool.queue) for pool in pools if pool is not None)


def test_token_holders_are_served_while_logins_wait_for_scrypt(served, monkeypatch):
    cloud, server = served
    token = _login(server.url, "demo", "demo-secret").headers["X-Subject-Token"]
    hashes = _SlowHashes(monkeypatch)
    answers = []
    logins = [
        threading.Thread(
            target=lambda i=i: answers.append(_login(server.url, "flood-%d" % i, "wrong"))
        )
        for i in range(LOGINS)
    ]
    for thread in logins:
        thread.start()
    try:
        # every login has reached the server: hashing or queued
        for _ in range(1000):
            if _waiting(server, hashes) >= LOGINS:
                break
            time.sleep(0.01)
        assert _waiting(server, hashes) == LOGINS
        read = []
        reader = threading.Thread(
            target=lambda: read.append(
                requests.get(
                    server.url + "/image/v2/images", headers={"X-Auth-Token": token}, timeout=60
                )
            ),
            daemon=True,
        )
        reader.start()
        reader.join(20)  # generous: it answers in milliseconds when served
        assert not reader.is_alive(), "a token holder's read waited for the logins' threads"
        assert read[0].status_code == 200
    finally:
        hashes.release()
        for thread in logins:
            thread.join()
    assert sorted(r.status_code for r in answers) == [401] * LOGINS
    assert hashes.most == cloud.config.slow_threads == 1


def test_the_hashing_routes(tmp_path):
    cloud = LocalCloud(Config(data_dir=str(tmp_path / "data")), services=[IdentityService])
    try:
        hashes = cloud.identity.slow_request
        assert cloud.config.slow_threads == 2
        for method, path in (
            ("POST", "/v3/auth/tokens"),
            ("POST", "/v3/auth/tokens/"),
            ("POST", "/v3/users"),
            ("PATCH", "/v3/users/u1"),
            ("POST", "/v3/users/u1/password"),
            ("POST", "/v3/users/u1/application_credentials"),
        ):
            assert hashes(method, path), (method, path)
        for method, path in (
            ("GET", "/v3/auth/tokens"),
            ("DELETE", "/v3/auth/tokens"),
            ("GET", "/v3/users"),
            ("DELETE", "/v3/users/u1"),
            ("POST", "/compute/v3/auth/tokens"),
            ("POST", "/v3/auth/tokens/extra"),
        ):
            assert not hashes(method, path), (method, path)
    finally:
        cloud.close()
