"""What the common commands import, and what they never call, at start-up.

The plain command path imports no cmd2, yaml, jsonschema or local-cloud
code. ``--help`` imports no command module and nothing of the client (its
one-liners come from the plugin index). With a warm token cache, ``server
list`` imports neither ``keystoneauth1.identity`` nor
``keystoneauth1.loading`` (the token answers; the auth plugin is built only
to authenticate again), and a clouds.yaml read before is not parsed
again (no yaml: its parsed form is cached). No command scans every installed distribution
(``importlib.metadata.packages_distributions``, which cliff's help and
epilog call) nor looks for cliff formatters or command hooks with
stevedore.
"""

import json
import pathlib
import subprocess
import sys

import pytest

FORBIDDEN = (
    "cmd2",
    "yaml",
    "jsonschema",
    "occli.localcloud",
    "openstack",
    "prompt_toolkit",
    # for a mistyped option or command only (cliff_adapter.closest_option)
    "difflib",
    # only to ask for a password (server_options.new_password)
    "getpass",
    # the XDG directories are worked out by occli.userdirs
    "platformdirs",
)
#: Also never imported by ``occli --help``.
HELP_FORBIDDEN = ("occli.v2", "occli.client", "keystoneauth1", "requests", "prettytable")
#: Also never imported by a command with a warm token cache (the table of
#: plain text is drawn without prettytable).
WARM_FORBIDDEN = ("keystoneauth1.identity", "keystoneauth1.loading", "prettytable", "wcwidth")
#: Also never imported by a listing: what acting on servers, waiting and
#: shell completion need.
LIST_FORBIDDEN = (
    "occli.v2.commands.bulk",
    "occli.v2.compute.commands.server_events",
    "occli.waiters",
    "occli.completion",
)

SCRIPT = r"""
import json, sys
import importlib.metadata
import stevedore.extension

calls = []
real_scan = importlib.metadata.packages_distributions


def packages_distributions(*args, **kwargs):
    calls.append("packages_distributions")
    return real_scan(*args, **kwargs)


importlib.metadata.packages_distributions = packages_distributions
real_init = stevedore.extension.ExtensionManager.__init__


def init(self, namespace, *args, **kwargs):
    calls.append("stevedore " + str(namespace))
    return real_init(self, namespace, *args, **kwargs)


stevedore.extension.ExtensionManager.__init__ = init
import requests_mock
from tests.unit import fakes
before = set(sys.modules)
with requests_mock.Mocker() as m:
    fakes.install(m)
    m.get(fakes.COMPUTE + "/servers/detail", json={"servers": [
        {"id": "1", "name": "vm", "status": "ACTIVE", "addresses": {},
         "image": "", "flavor": {"original_name": "m1.tiny"}}]})
    m.get(fakes.COMPUTE + "/flavors/detail", json={"flavors": [
        {"id": "1", "name": "m1.tiny", "ram": 512, "vcpus": 1, "disk": 1}]})
    m.get(fakes.IMAGE + "/v2/images", json={"images": []})
    from occli import shell
    code = shell.main(sys.argv[1:])
loaded = sorted(set(sys.modules) - before)
print(json.dumps({"code": code, "modules": loaded, "calls": calls}))
"""

ROOT = pathlib.Path(__file__).parents[2]


def run(argv, tmp_path, **extra_env):
    env = {
        "OS_AUTH_URL": "http://cloud.test/identity/v3",
        "OS_USERNAME": "u",
        "OS_PASSWORD": "p",
        "OS_PROJECT_NAME": "p",
        "OS_USER_DOMAIN_ID": "default",
        "OS_PROJECT_DOMAIN_ID": "default",
        "OCCLI_CACHE_DIR": str(tmp_path),
        "HOME": str(tmp_path),
        "OCCLI_LOCALCLOUD_DIR": str(tmp_path / "lc"),
        "PATH": "/usr/bin:/bin",
        **extra_env,
    }
    proc = subprocess.run(
        [sys.executable, "-c", SCRIPT] + argv,
        env=env,
        capture_output=True,
        text=True,
        cwd=str(ROOT),
    )
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["code"] == 0, proc.stderr
    return result


def imported(result, prefixes):
    return [m for m in result["modules"] if any(m == f or m.startswith(f + ".") for f in prefixes)]


def cliff_scans(result):
    """packages_distributions() calls and cliff's stevedore look-ups."""
    return [
        c
        for c in result["calls"]
        if c == "packages_distributions" or c.startswith(("stevedore cliff.", "stevedore None"))
    ]


@pytest.mark.parametrize(
    "argv",
    [
        ["server", "list"],
        ["flavor", "list"],
        ["server", "list", "-f", "json"],
        ["--help"],
        ["help"],
    ],
)
def test_command_path_imports(argv, tmp_path):
    result = run(argv, tmp_path)  # the plugin index is built: all imported
    assert imported(result, FORBIDDEN) == []
    assert cliff_scans(result) == []


@pytest.mark.parametrize("argv", [["--help"], ["help"]])
def test_help_imports_no_command(argv, tmp_path):
    run(argv, tmp_path)
    result = run(argv, tmp_path)  # the plugin index is warm
    assert imported(result, FORBIDDEN + HELP_FORBIDDEN) == []
    assert cliff_scans(result) == []


@pytest.mark.parametrize("argv", [["server", "list"], ["flavor", "list"]])
def test_warm_token_cache_builds_no_auth_plugin(argv, tmp_path):
    cold = run(argv, tmp_path)
    assert "keystoneauth1.identity" in cold["modules"]  # it authenticated
    warm = run(argv, tmp_path)
    assert imported(warm, FORBIDDEN + WARM_FORBIDDEN + LIST_FORBIDDEN) == []
    assert cliff_scans(warm) == []


CLOUDS_YAML = """clouds:
  mocked:
    auth:
      auth_url: http://cloud.test/identity/v3
      username: u
      password: p
      project_name: p
      user_domain_id: default
      project_domain_id: default
"""


@pytest.mark.parametrize("argv", [["server", "list"], ["server", "list", "-f", "value"]])
def test_warm_clouds_yaml_is_not_parsed_again(argv, tmp_path):
    """A clouds.yaml read before comes from its cached parsed form: no yaml
    (occli.clouds_yaml)."""
    clouds = tmp_path / "clouds.yaml"
    clouds.write_text(CLOUDS_YAML)
    env = {"OS_CLIENT_CONFIG_FILE": str(clouds), "OS_CLOUD": "mocked"}
    cold = run(argv, tmp_path, **env)
    assert "yaml" in cold["modules"]  # it was parsed
    warm = run(argv, tmp_path, **env)
    assert imported(warm, FORBIDDEN + WARM_FORBIDDEN) == []
