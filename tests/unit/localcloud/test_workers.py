"""``serve --workers N``: forked worker processes sharing one socket and one
database (fault rules included); ``stop`` ends them all."""

import os
import signal
import subprocess
import sys
import time

import pytest
import requests

from tests.unit.localcloud.test_cli import ROOT
from tests.unit.localcloud.test_cli import run

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")

PLATFORM = ["--services", "identity,image"]


def _children(pid):
    """Pids whose parent is ``pid`` (from /proc)."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % name) as f:
                fields = f.read().rsplit(")", 1)[-1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(name))
    return sorted(found)


def _alive(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[-1].split()[0] != "Z"
    except OSError:
        return False


def _server_side_inodes(port):
    """Socket inodes of the established connections accepted on ``port``."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as f:
                lines = f.readlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            local_port = int(fields[1].rsplit(":", 1)[1], 16)
            if local_port == port and fields[3] == "01":
                inodes.add(fields[9])
    return inodes


def _socket_inodes(pid):
    inodes = set()
    fd_dir = "/proc/%d/fd" % pid
    for fd in os.listdir(fd_dir):
        try:
            target = os.readlink(os.path.join(fd_dir, fd))
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    return inodes


@pytest.fixture
def cloud2(tmp_path):
    """A started local cloud with two workers: (url, parent pid, data dir)."""
    data_dir = str(tmp_path / "lc")
    started = run("start", "--data-dir", data_dir, "--port", "0", "--workers", "2", *PLATFORM)
    assert started.returncode == 0, started.stderr
    with open(os.path.join(data_dir, "endpoint")) as f:
        url = f.read().strip()
    with open(os.path.join(data_dir, "localcloud.pid")) as f:
        pid = int(f.read())
    yield url, pid, data_dir
    run("stop", "--data-dir", data_dir)


def _admin_token(url):
    body = {
        "auth": {
            "identity": {
                "methods": ["password"],
                "password": {
                    "user": {
                        "name": "admin",
                        "domain": {"id": "default"},
                        "password": "admin-secret",
                    }
                },
            },
            "scope": {"project": {"name": "admin", "domain": {"id": "default"}}},
        }
    }
    resp = requests.post(url + "/v3/auth/tokens", json=body, timeout=10)
    assert resp.status_code == 201, resp.text
    return resp.headers["X-Subject-Token"]


def test_two_workers_answer_and_stop_leaves_no_process(cloud2):
    url, parent, data_dir = cloud2
    workers = _children(parent)
    assert len(workers) == 2
    port = int(url.rsplit(":", 1)[1])
    # keep-alive connections, each answered once and left open: which
    # worker holds each accepted socket tells which one served it
    serving = set()
    sessions = []
    try:
        for _ in range(60):
            session = requests.Session()
            sessions.append(session)
            assert session.get(url + "/v3", timeout=10).status_code == 200
            accepted = _server_side_inodes(port)
            serving = {pid for pid in workers if _socket_inodes(pid) & accepted}
            if len(serving) == 2:
                break
    finally:
        for session in sessions:
            session.close()
    assert serving == set(workers)

    stopped = run("stop", "--data-dir", data_dir)
    assert stopped.returncode == 0, stopped.stderr
    deadline = time.monotonic() + 5
    while any(_alive(pid) for pid in [parent, *workers]) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_alive(pid) for pid in [parent, *workers])


def test_count_one_fault_fires_once_across_workers(cloud2):
    url, parent, _ = cloud2
    token = _admin_token(url)
    resp = requests.post(
        url + "/localcloud/faults",
        json={"path": "^/image/$", "count": 1, "kind": "status", "status": 502},
        headers={"X-Auth-Token": token},
        timeout=10,
    )
    assert resp.status_code == 201
    port = int(url.rsplit(":", 1)[1])
    workers = _children(parent)
    statuses = []
    serving = set()
    sessions = []
    try:
        # one request per fresh connection until both workers have served
        for _ in range(60):
            session = requests.Session()
            sessions.append(session)
            statuses.append(session.get(url + "/image/", timeout=10).status_code)
            accepted = _server_side_inodes(port)
            serving = {pid for pid in workers if _socket_inodes(pid) & accepted}
            if len(serving) == 2 and len(statuses) >= 4:
                break
    finally:
        for session in sessions:
            session.close()
    assert serving == set(workers)
    assert statuses.count(502) == 1 and statuses[0] == 502
    listed = requests.get(
        url + "/localcloud/faults", headers={"X-Auth-Token": token}, timeout=10
    ).json()
    assert listed["faults"][0]["remaining"] == 0


def test_a_dying_worker_stops_the_others(tmp_path):
    data_dir = str(tmp_path / "lc")
    env = dict(os.environ)
    env.pop("OCCLI_LOCALCLOUD_DIR", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "occli.localcloud", "serve", "--data-dir", data_dir]
        + ["--port", "0", "--workers", "2", *PLATFORM],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while len(_children(proc.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        workers = _children(proc.pid)
        assert len(workers) == 2
        os.kill(workers[0], signal.SIGKILL)
        assert proc.wait(15) == 1
        deadline = time.monotonic() + 5
        while _alive(workers[1]) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(workers[1])
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
