"""What the stack, image and object commands import, against a local cloud.

Issue 26: every command of the new services stays on the start-up guard of
tests/unit/test_startup_imports.py: with a warm token cache, ``stack *``,
``software config list``, ``image *``, ``object *``, ``container list``,
``volume list``, ``network list`` and ``port list`` import nothing of the
local cloud, cmd2, jsonschema, openstacksdk or prompt_toolkit, nor (the
token cache answering) keystoneauth1's auth plugins or prettytable, and yaml
only when a template is read (``stack create -t FILE``). ``stack template
show`` prints YAML by default (as OSC does): with ``-f json`` it imports no
yaml either.

The commands run in a subprocess (``occli.shell.main``) against a local
cloud this process serves over loopback HTTP: the responses are the real
ones, and the subprocess's own imports are counted.
"""

import json
import subprocess
import sys

import pytest

from occli import testing

from .test_startup_imports import FORBIDDEN
from .test_startup_imports import ROOT
from .test_startup_imports import WARM_FORBIDDEN
from .test_startup_imports import imported

#: FORBIDDEN but yaml: what a template-reading command may import.
TEMPLATE_FORBIDDEN = tuple(m for m in FORBIDDEN if m != "yaml")

SCRIPT = r"""
import json, sys
before = set(sys.modules)
from occli import shell
code = shell.main(sys.argv[1:])
loaded = sorted(set(sys.modules) - before)
print(json.dumps({"code": code, "modules": loaded}))
"""

TEMPLATE = """heat_template_version: 2018-08-31
resources:
  word:
    type: OS::Heat::RandomString
    properties:
      length: 8
outputs:
  value:
    value: {get_attr: [word, value]}
"""
DATA = b"x" * 4096


def run(env, *argv):
    """``occli argv`` in a fresh interpreter: its result (``code``,
    ``modules`` imported by the command, ``stdout``)."""
    proc = subprocess.run(
        [sys.executable, "-c", SCRIPT, *argv],
        env=env,
        capture_output=True,
        text=True,
        cwd=str(ROOT),
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    *out, last = proc.stdout.strip().splitlines()
    result = json.loads(last)
    assert result["code"] == 0, proc.stderr
    result["stdout"] = "\n".join(out)
    return result


@pytest.fixture(scope="module")
def cloud(tmp_path_factory):
    """A local cloud holding a stack ``app``, an image ``img`` with data and
    an object ``c/o``; ``run_env`` runs its user ``demo`` from plain ``OS_*``
    variables (no clouds.yaml: its reading is another test's) with a token
    cache warmed by the seeding commands, ``tmp`` holds the files."""
    tmp = tmp_path_factory.mktemp("services")
    with testing.start_local_cloud() as fixture:
        env = {k: v for k, v in fixture.env.items() if k not in ("OS_CLOUD",)}
        env.update(
            OS_CLIENT_CONFIG_FILE=str(tmp / "none.yaml"),
            OCCLI_CACHE_DIR=str(tmp / "cache"),
            HOME=str(tmp),
        )
        (tmp / "stack.yaml").write_text(TEMPLATE)
        (tmp / "data.bin").write_bytes(DATA)
        created = run(env, "stack", "create", "-t", str(tmp / "stack.yaml"), "--wait", "app")
        assert "yaml" in created["modules"]  # the template was read
        run(env, "image", "create", "--file", str(tmp / "data.bin"), "img")
        run(env, "container", "create", "c")
        run(env, "object", "create", "--name", "o", "c", str(tmp / "data.bin"))
        fixture.tmp = tmp
        fixture.run_env = env
        yield fixture


COMMANDS = [
    ["stack", "list"],
    ["stack", "show", "app"],
    ["stack", "event", "list", "app"],
    ["stack", "resource", "list", "app"],
    ["stack", "output", "show", "app", "value"],
    ["stack", "template", "show", "app", "-f", "json"],
    ["software", "config", "list"],
    ["image", "list"],
    ["image", "show", "img"],
    ["image", "save", "img", "--file", "{tmp}/saved.bin"],
    ["object", "list", "c"],
    ["object", "show", "c", "o"],
    ["object", "save", "c", "o", "--file", "{tmp}/saved-object.bin"],
    ["container", "list"],
    ["volume", "list"],
    ["network", "list"],
    ["port", "list"],
]


@pytest.mark.parametrize("argv", COMMANDS, ids=" ".join)
def test_service_command_imports(argv, cloud):
    argv = [a.format(tmp=cloud.tmp) for a in argv]
    result = run(cloud.run_env, *argv)
    assert imported(result, FORBIDDEN + WARM_FORBIDDEN) == []
    if "save" in argv:  # the command did its work
        assert (cloud.tmp / argv[-1].rsplit("/", 1)[-1]).read_bytes() == DATA


def test_stack_create_reads_its_template_with_yaml_only(cloud):
    result = run(
        cloud.run_env, "stack", "create", "-t", str(cloud.tmp / "stack.yaml"), "--wait", "other"
    )
    assert "yaml" in result["modules"]
    assert imported(result, TEMPLATE_FORBIDDEN + WARM_FORBIDDEN) == []
