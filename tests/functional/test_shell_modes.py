"""The real ``occli`` process against the local cloud: interactive mode,
token reuse across invocations, and secrets in ``--debug`` output."""

import json
import os
import subprocess
import sys

from occli import Client

OCCLI = [sys.executable, "-m", "occli.shell"]
ADMIN_PASS = "Adm1n-Pa55-for-debug"


def run(*argv, stdin=None):
    return subprocess.run(
        OCCLI + list(argv),
        input=stdin,
        capture_output=True,
        text=True,
        env=dict(os.environ),
        timeout=120,
    )


def access_log(localcloud):
    with open(localcloud.cloud.access_log_path) as f:
        return f.readlines()


def test_interactive_shell_runs_commands(occli_env):
    proc = run(stdin="flavor list -f value -c Name\nhelp server list\nquit\n")
    assert proc.returncode == 0, proc.stderr
    assert "m1.tiny" in proc.stdout
    assert "usage: server list" in proc.stdout


def test_token_is_reused_between_invocations(occli_env):
    first = run("server", "list", "-f", "json")
    assert first.returncode == 0, first.stderr
    mark = len(access_log(occli_env))
    second = run("server", "list", "-f", "json")
    assert second.returncode == 0, second.stderr
    requests = access_log(occli_env)[mark:]
    assert not [r for r in requests if "/v3/auth/tokens" in r]
    assert not [r for r in requests if r.split()[1].rstrip("/") in ("/compute/v2.1", "/v3")]
    assert [r for r in requests if "/compute/v2.1/servers/detail" in r]


def test_debug_output_hides_password_token_and_admin_pass(occli_env):
    proc = run(
        "--debug",
        "server",
        "create",
        "debug-vm",
        "--image",
        "cirros-0.6.2-x86_64-disk",
        "--flavor",
        "m1.tiny",
        "--nic",
        "none",
        "--admin-pass",
        ADMIN_PASS,
        "-f",
        "json",
    )
    assert proc.returncode == 0, proc.stderr
    assert "REQ: curl" in proc.stderr
    assert json.loads(proc.stdout)["adminPass"] == ADMIN_PASS
    assert ADMIN_PASS not in proc.stderr
    assert "demo-secret" not in proc.stderr
    cache_dir = os.path.join(os.environ["OCCLI_CACHE_DIR"], "tokens")
    tokens = []
    for name in os.listdir(cache_dir):
        with open(os.path.join(cache_dir, name)) as f:
            entry = f.read()
        assert "demo-secret" not in entry
        tokens.append(json.loads(json.loads(entry)["auth_state"])["auth_token"])
    assert tokens
    for token in tokens:
        assert token not in proc.stderr
    run("server", "delete", "debug-vm")


def test_sdk_client_from_cloud_name_and_keywords(occli_env):
    by_name = Client(cloud="local")
    flavors = {f.name for f in by_name.flavors.list()}
    assert "m1.tiny" in flavors
    by_keywords = Client(
        auth_url=occli_env.auth_url,
        username="demo",
        password="demo-secret",
        project_name="demo",
        user_domain_name="Default",
        project_domain_name="Default",
    )
    assert {f.name for f in by_keywords.flavors.list()} == flavors
    assert by_keywords.api_version("compute") is not None


def test_interactive_shell_with_global_options(occli_env):
    proc = subprocess.run(
        OCCLI + ["--os-cloud", "local"],
        input="flavor show m1.tiny -f value -c name\nquit\n",
        capture_output=True,
        text=True,
        env=dict(os.environ),
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "not an occli command" not in proc.stdout + proc.stderr
    assert "m1.tiny" in proc.stdout
