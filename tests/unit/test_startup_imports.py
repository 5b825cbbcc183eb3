"""The plain command path imports no cmd2, yaml, jsonschema or local-cloud code."""

import json
import subprocess
import sys

import pytest

FORBIDDEN = ("cmd2", "yaml", "jsonschema", "occli.localcloud", "openstack",
             "prompt_toolkit")

SCRIPT = r"""
import json, sys
import requests_mock
from tests.unit import fakes
before = set(sys.modules)
with requests_mock.Mocker() as m:
    fakes.install(m)
    m.get(fakes.COMPUTE + "/servers/detail", json={"servers": []})
    m.get(fakes.COMPUTE + "/flavors/detail", json={"flavors": []})
    m.get(fakes.IMAGE + "/v2/images", json={"images": []})
    from occli import shell
    code = shell.main(sys.argv[1:])
loaded = sorted(set(sys.modules) - before)
print(json.dumps({"code": code, "modules": loaded}))
"""


@pytest.mark.parametrize("argv", [["server", "list"], ["flavor", "list"],
                                  ["--help"]])
def test_command_path_imports(argv, tmp_path):
    env = {"OS_AUTH_URL": "http://cloud.test/identity/v3", "OS_USERNAME": "u",
           "OS_PASSWORD": "p", "OS_PROJECT_NAME": "p",
           "OS_USER_DOMAIN_ID": "default", "OS_PROJECT_DOMAIN_ID": "default",
           "OCCLI_CACHE_DIR": str(tmp_path), "HOME": str(tmp_path),
           "OCCLI_LOCALCLOUD_DIR": str(tmp_path / "lc"),
           "PATH": "/usr/bin:/bin"}
    proc = subprocess.run([sys.executable, "-c", SCRIPT] + argv, env=env,
                          capture_output=True, text=True,
                          cwd=str(__import__("pathlib").Path(__file__).parents[2]))
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["code"] == 0, proc.stderr
    bad = [m for m in result["modules"]
           if any(m == f or m.startswith(f + ".") for f in FORBIDDEN)]
    assert bad == []
