"""The local cloud's files and logs (issue 9 E): its data directory is 0700
and every file it writes 0600 whatever existed before; the access log masks
secrets in query strings and escapes what could forge or split its lines."""

import os
import stat
import subprocess
import sys

import pytest

from occli.localcloud import cli
from occli.localcloud.cloud import DATA_FILES
from occli.localcloud.cloud import Config
from occli.localcloud.cloud import LocalCloud
from tests.unit.localcloud.wsgi_client import Client

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture
def usual_umask():
    previous = os.umask(0o022)
    yield
    os.umask(previous)


def _mode(path):
    return stat.S_IMODE(os.stat(path).st_mode)


def _modes(data_dir):
    return {name: _mode(os.path.join(data_dir, name)) for name in os.listdir(data_dir)}


def _private(modes, data_dir):
    """What ``modes`` must be: 0700 for directories (Swift's objects), 0600
    for files."""
    return {
        name: 0o700 if os.path.isdir(os.path.join(data_dir, name)) else 0o600 for name in modes
    }


def _use(data_dir):
    """Start a cloud on ``data_dir``, write to it and log; the open cloud."""
    cloud = LocalCloud(Config(data_dir=str(data_dir), build_time=0))
    cloud.write_client_config("http://127.0.0.1:1")
    Client(cloud).token("demo")
    return cloud


def test_a_new_data_dir_and_its_files_are_private(tmp_path, usual_umask):
    data_dir = tmp_path / "new"
    cloud = _use(data_dir)
    try:
        modes = _modes(data_dir)
    finally:
        cloud.close()
    assert _mode(data_dir) == 0o700
    assert {
        "cloud.db",
        "cloud.db-wal",
        "cloud.db-shm",
        "access.log",
        "clouds.yaml",
        "endpoint",
    } <= set(modes)
    assert modes == _private(modes, data_dir)


def test_an_existing_world_readable_data_dir_is_made_private(tmp_path, usual_umask):
    data_dir = tmp_path / "old"
    _use(data_dir).close()
    os.chmod(data_dir, 0o755)
    for name in os.listdir(data_dir):
        os.chmod(data_dir / name, 0o644)
    cloud = _use(data_dir)
    try:
        modes = _modes(data_dir)
    finally:
        cloud.close()
    assert _mode(data_dir) == 0o700
    assert modes == _private(modes, data_dir)


def test_the_access_log_masks_secrets_and_escapes_control_characters(tmp_path):
    cloud = LocalCloud(Config(data_dir=str(tmp_path / "log")))
    try:
        client = Client(cloud)
        forged = "GET /v3 200 0.0001 req-forged"
        client.get(
            "/object-store/v1/AUTH_x/c/o%00%0A"
            + forged.replace(" ", "%20")
            + "?temp_url_sig=deadbeefcafe&temp_url_expires=9"
            "&X-Auth-Token=tok3n&marker=m1"
        )
        client.get("/v3\\x0a%1b[2J")
        with open(cloud.access_log_path) as f:
            lines = f.read().splitlines()
    finally:
        cloud.close()
    assert len(lines) == 2
    first, second = (line.split(" ") for line in lines)
    assert len(first) == len(second) == 5
    assert first[1] == (
        "/object-store/v1/AUTH_x/c/o\\x00\\x0aGET\\x20/v3\\x20200\\x20"
        "0.0001\\x20req-forged?temp_url_sig=***&temp_url_expires=9"
        "&X-Auth-Token=***&marker=m1"
    )
    assert second[1] == "/v3\\\\x0a\\x1b[2J"
    assert "deadbeefcafe" not in "\n".join(lines)
    assert "tok3n" not in "\n".join(lines)


def test_started_cloud_writes_private_pid_and_log(tmp_path, usual_umask):
    data_dir = tmp_path / "started"
    data_dir.mkdir(mode=0o755)
    (data_dir / cli.LOG_FILE).write_text("old log\n")
    os.chmod(data_dir / cli.LOG_FILE, 0o644)
    env = dict(os.environ, OCCLI_LOCALCLOUD_DIR=str(data_dir))

    def run(*args):
        return subprocess.run(
            [sys.executable, "-m", "occli.localcloud", *args, "--data-dir", str(data_dir)],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )

    started = run("start", "--port", "0", "--services", "identity")
    try:
        assert started.returncode == 0, started.stderr
        modes = _modes(data_dir)
    finally:
        run("stop")
    assert _mode(data_dir) == 0o700
    assert {cli.PID_FILE, cli.LOG_FILE, "cloud.db", "endpoint"} <= set(modes)
    assert set(modes) <= set(DATA_FILES)
    assert modes == _private(modes, data_dir)
