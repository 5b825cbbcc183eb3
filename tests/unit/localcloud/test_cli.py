"""occli-localcloud start/stop/status/reset/serve as real subprocesses."""

import os
import socket
import stat
import subprocess
import sys

import platformdirs
import pytest
import requests
import yaml

from occli.localcloud import cli

ROOT = os.path.dirname(
    os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
)
PLATFORM = ["--services", "identity,image"]


def run(*args, env=None):
    full_env = dict(os.environ)
    full_env.pop("OCCLI_LOCALCLOUD_DIR", None)
    full_env.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "occli.localcloud", *args],
        cwd=ROOT,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.fixture
def data_dir(tmp_path):
    path = str(tmp_path / "lc")
    yield path
    run("stop", "--data-dir", path)


def _listening_socket():
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(1)
    return sock


def test_lifecycle(data_dir):
    started = run(
        "start",
        "--data-dir",
        data_dir,
        "--port",
        "0",
        *PLATFORM,
        "--fault",
        "GET:^/image/$:1:status:502",
        env={cli.ADMIN_PASSWORD_ENV: "s3cret-admin"},
    )
    assert started.returncode == 0, started.stderr
    with open(os.path.join(data_dir, "endpoint")) as f:
        url = f.read().strip()
    port = url.rsplit(":", 1)[1]
    assert "Port: %s" % port in started.stdout
    assert (
        "export OS_CLIENT_CONFIG_FILE=%s/clouds.yaml; export OS_CLOUD=local" % data_dir
        in started.stdout
    )
    assert "s3cret-admin" in started.stdout

    assert requests.get(url + "/v3", timeout=5).status_code == 200
    assert requests.get(url + "/image/", timeout=5).status_code == 502
    assert requests.get(url + "/image/", timeout=5).status_code == 300

    clouds_path = os.path.join(data_dir, "clouds.yaml")
    assert stat.S_IMODE(os.stat(clouds_path).st_mode) == 0o600
    with open(clouds_path) as f:
        clouds = yaml.safe_load(f)["clouds"]
    assert clouds["local"]["auth"]["auth_url"] == url + "/v3"
    assert clouds["local"]["auth"]["username"] == "demo"
    assert clouds["local-admin"]["auth"]["password"] == "s3cret-admin"
    assert clouds["local"]["region_name"] == "RegionOne"
    assert clouds["local"]["identity_api_version"] == 3
    auth = clouds["local-admin"]["auth"]
    token = requests.post(
        url + "/v3/auth/tokens",
        timeout=5,
        json={
            "auth": {
                "identity": {
                    "methods": ["password"],
                    "password": {
                        "user": {
                            "name": auth["username"],
                            "domain": {"name": "Default"},
                            "password": auth["password"],
                        }
                    },
                }
            }
        },
    )
    assert token.status_code == 201

    with open(os.path.join(data_dir, "localcloud.pid")) as f:
        pid = int(f.read())
    with open("/proc/%d/cmdline" % pid, "rb") as f:
        assert b"s3cret-admin" not in f.read()
    with open(os.path.join(data_dir, "localcloud.log")) as f:
        assert "s3cret-admin" not in f.read()

    status = run("status", "--data-dir", data_dir)
    assert status.returncode == 0 and url in status.stdout

    again = run("start", "--data-dir", data_dir, "--port", "0", *PLATFORM)
    assert again.returncode == 1
    assert "already running" in again.stderr

    refused = run("reset", "--data-dir", data_dir)
    assert refused.returncode == 1 and "stop" in refused.stderr

    stopped = run("stop", "--data-dir", data_dir)
    assert stopped.returncode == 0 and str(pid) in stopped.stdout
    assert not os.path.exists(os.path.join(data_dir, "localcloud.pid"))
    with pytest.raises(requests.ConnectionError):
        requests.get(url + "/v3", timeout=5)

    status = run("status", "--data-dir", data_dir)
    assert status.returncode == 3 and "not running" in status.stdout
    stopped = run("stop", "--data-dir", data_dir)
    assert stopped.returncode == 0 and "not running" in stopped.stdout

    reset = run("reset", "--data-dir", data_dir)
    assert reset.returncode == 0
    assert os.listdir(data_dir) == []


def test_start_on_taken_port_fails_clearly(data_dir):
    sock = _listening_socket()
    port = sock.getsockname()[1]
    with sock:
        result = run("start", "--data-dir", data_dir, "--port", str(port), *PLATFORM)
    assert result.returncode == 1
    assert "error: port %d on 127.0.0.1 is already in use" % port in result.stderr
    assert not os.path.exists(os.path.join(data_dir, "localcloud.pid"))


def test_serve_on_taken_port_fails_clearly(data_dir):
    sock = _listening_socket()
    port = sock.getsockname()[1]
    with sock:
        result = run("serve", "--data-dir", data_dir, "--port", str(port), *PLATFORM)
    assert result.returncode == 1
    assert "error: port %d on 127.0.0.1 is already in use" % port in result.stderr


def test_invalid_fault_is_a_usage_error(data_dir):
    result = run("start", "--data-dir", data_dir, "--fault", "GET:/x:1:boom")
    assert result.returncode == 2
    assert "invalid fault" in result.stderr


def test_reset_refuses_foreign_directory(tmp_path):
    (tmp_path / "thesis.tex").write_text("precious")
    result = run("reset", "--data-dir", str(tmp_path))
    assert result.returncode == 1
    assert (tmp_path / "thesis.tex").exists()


def test_default_data_dir(monkeypatch, tmp_path):
    monkeypatch.setenv("OCCLI_LOCALCLOUD_DIR", str(tmp_path))
    assert cli.default_data_dir() == str(tmp_path)
    monkeypatch.delenv("OCCLI_LOCALCLOUD_DIR")
    assert cli.default_data_dir() == os.path.join(
        platformdirs.user_data_dir("occli"), "localcloud"
    )


def test_child_gets_runtime_settings(tmp_path):
    args = cli.build_parser().parse_args(
        [
            "start",
            "--data-dir",
            str(tmp_path),
            "--port",
            "0",
            "--host",
            "0.0.0.0",
            "--compute-hosts",
            "5",
            "--build-time",
            "0.5",
            "--token-ttl",
            "60",
            "--fault",
            "GET:/x:1:close",
            "--demo-password",
            "d",
            "--quota-instances",
            "7",
            "--max-servers-per-request",
            "9",
            "--workers",
            "3",
        ]
    )
    argv = cli._child_argv(args)
    assert argv[1:4] == ["-m", "occli.localcloud", "serve"]
    for flag, value in (
        ("--host", "0.0.0.0"),
        ("--port", "0"),
        ("--compute-hosts", "5"),
        ("--build-time", "0.5"),
        ("--token-ttl", "60"),
        ("--fault", "GET:/x:1:close"),
        ("--quota-instances", "7"),
        ("--max-servers-per-request", "9"),
        ("--workers", "3"),
        ("--data-dir", str(tmp_path)),
    ):
        assert argv[argv.index(flag) + 1] == value
    assert "d" not in argv
    assert cli._child_env(args)[cli.DEMO_PASSWORD_ENV] == "d"
    config = cli._config(args)
    assert (config.quota_instances, config.max_servers_per_request) == (7, 9)
    assert config.workers == 3


def test_serve_without_the_localcloud_extra_is_a_one_line_hint(tmp_path, monkeypatch, capsys):
    import importlib.util

    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name == "waitress" else real_find_spec(name, *a),
    )
    assert cli.main(["serve", "--data-dir", str(tmp_path), "--port", "0"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "missing: waitress" in err and "occli[localcloud]" in err
    assert not (tmp_path / "cloud.db").exists()
