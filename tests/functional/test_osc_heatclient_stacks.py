"""The real ``openstack`` CLI with python-heatclient against the local
cloud's Heat: a stack created with ``--wait``, its outputs, events and
resources, updated with ``--existing --wait``, deleted with ``--wait``, and
the resource type and template version lists.

Opt-in: runs when ``OCCLI_OSC`` names an ``openstack`` executable, or one
on PATH has heatclient's ``stack`` commands; skipped otherwise (the suite
never needs OSC: tests/unit/localcloud/heat/test_osc_replay.py replays the
requests it sends). E.g. ``python3 -m venv /tmp/oscvenv &&
/tmp/oscvenv/bin/pip install python-openstackclient python-heatclient``,
then ``OCCLI_OSC=/tmp/oscvenv/bin/openstack``.
"""

import functools
import json
import os
import re
import shutil
import subprocess

import pytest

from tests.functional.harness import start_localcloud

TEMPLATE = """heat_template_version: 2018-08-31
parameters:
  length:
    type: number
    default: 8
resources:
  rand:
    type: OS::Heat::RandomString
    properties:
      length: {get_param: length}
  message:
    type: OS::Heat::Value
    properties:
      value:
        str_replace:
          template: $greeting $rand
          params:
            $greeting: {get_file: greeting.txt}
            $rand: {get_attr: [rand, value]}
outputs:
  rand:
    description: The random string
    value: {get_attr: [rand, value]}
  message:
    value: {get_attr: [message, value]}
"""

#: seconds one OSC command may take (a --wait polls every 5 s)
TIMEOUT = 120


@functools.lru_cache(maxsize=1)
def _openstack():
    """The ``openstack`` executable with heatclient's commands, or None."""
    found = os.environ.get("OCCLI_OSC") or shutil.which("openstack")
    if not found:
        return None
    try:
        probe = subprocess.run(
            [found, "stack", "list", "--help"], capture_output=True, text=True, timeout=TIMEOUT
        )
    except OSError:
        return None
    return found if probe.returncode == 0 else None


pytestmark = pytest.mark.skipif(
    _openstack() is None,
    reason="no openstack CLI with python-heatclient (set OCCLI_OSC=/path/to/openstack)",
)


@pytest.fixture(scope="module")
def cloud():
    running = start_localcloud()
    yield running
    running.stop()


@pytest.fixture
def osc(cloud, tmp_path):
    """Run ``openstack ARGV…`` as user demo in ``tmp_path``: the finished
    process (text)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("OS_")}
    env.update(OS_CLIENT_CONFIG_FILE=cloud.clouds_yaml, OS_CLOUD="local")

    def run(*argv):
        return subprocess.run(
            [_openstack(), *argv],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
        )

    return run


def _ok(done):
    assert done.returncode == 0, done.stderr
    return done.stdout


def _json(done):
    return json.loads(_ok(done))


def test_stack_lifecycle_with_openstackclient(osc, tmp_path):
    (tmp_path / "app.yaml").write_text(TEMPLATE)
    (tmp_path / "greeting.txt").write_text("hello")
    created = _ok(osc("stack", "create", "--wait", "-t", "app.yaml", "osc-tour"))
    # heatclient streams the events it polled, then shows the stack
    assert "[osc-tour]: CREATE_COMPLETE  Stack CREATE completed successfully" in created
    assert re.search(r"\| stack_status +\| CREATE_COMPLETE +\|", created), created

    (listed,) = [
        s for s in _json(osc("stack", "list", "-f", "json")) if s["Stack Name"] == "osc-tour"
    ]
    assert listed["Stack Status"] == "CREATE_COMPLETE"
    rand = _json(osc("stack", "output", "show", "osc-tour", "rand", "-f", "json"))
    assert (rand["output_key"], len(rand["output_value"])) == ("rand", 8)
    message = _json(osc("stack", "output", "show", "osc-tour", "message", "-f", "json"))
    assert message["output_value"] == "hello " + rand["output_value"]

    events = _json(osc("stack", "event", "list", "osc-tour", "-f", "json"))
    stack_level = [e["resource_status"] for e in events if e["resource_name"] == "osc-tour"]
    assert stack_level == ["CREATE_IN_PROGRESS", "CREATE_COMPLETE"]
    resources = _json(osc("stack", "resource", "list", "osc-tour", "-f", "json"))
    assert sorted(
        (r["resource_name"], r["resource_type"], r["resource_status"]) for r in resources
    ) == [
        ("message", "OS::Heat::Value", "CREATE_COMPLETE"),
        ("rand", "OS::Heat::RandomString", "CREATE_COMPLETE"),
    ]

    updated = _ok(
        osc("stack", "update", "--existing", "--wait", "--parameter", "length=16", "osc-tour")
    )
    assert "[osc-tour]: UPDATE_COMPLETE  Stack UPDATE completed successfully" in updated
    rand = _json(osc("stack", "output", "show", "osc-tour", "rand", "-f", "json"))
    assert len(rand["output_value"]) == 16

    types = [
        t["Resource Type"]
        for t in _json(osc("orchestration", "resource", "type", "list", "-f", "json"))
    ]
    assert {"OS::Heat::RandomString", "OS::Heat::Value", "OS::Nova::Server"} <= set(types)
    versions = _json(osc("orchestration", "template", "version", "list", "-f", "json"))
    pairs = [(v["Version"], v["Type"]) for v in versions]
    assert ("heat_template_version.2018-08-31", "hot") in pairs

    _ok(osc("stack", "delete", "--wait", "--yes", "osc-tour"))
    assert "osc-tour" not in [s["Stack Name"] for s in _json(osc("stack", "list", "-f", "json"))]
    shown = osc("stack", "show", "osc-tour")
    assert shown.returncode == 1
    assert shown.stderr == "Stack not found: osc-tour\n"  # heatclient on a 404


def test_failed_create_exits_one(osc, tmp_path):
    """``--wait`` on a stack whose resource fails: exit 1 and the stack's
    CREATE_FAILED."""
    (tmp_path / "failing.yaml").write_text(
        "heat_template_version: 2018-08-31\n"
        "resources:\n"
        "  broken:\n"
        "    type: OS::Heat::TestResource\n"
        "    properties: {fail: true}\n"
    )
    done = osc("stack", "create", "--wait", "-t", "failing.yaml", "osc-failing")
    try:
        assert done.returncode == 1, done.stdout
        assert "Stack osc-failing CREATE_FAILED" in done.stderr
        assert (
            "[osc-failing]: CREATE_FAILED  Resource CREATE failed: ValueError: "
            "resources.broken: Test Resource failed broken"
        ) in done.stdout
    finally:
        osc("stack", "delete", "--wait", "--yes", "osc-failing")


def test_environment_file_parameter_defaults(osc, tmp_path):
    (tmp_path / "app.yaml").write_text(TEMPLATE)
    (tmp_path / "greeting.txt").write_text("hello")
    (tmp_path / "env.yaml").write_text("parameter_defaults:\n  length: 12\n")
    try:
        _ok(osc("stack", "create", "--wait", "-t", "app.yaml", "-e", "env.yaml", "osc-env"))
        rand = _json(osc("stack", "output", "show", "osc-env", "rand", "-f", "json"))
        assert len(rand["output_value"]) == 12
    finally:
        osc("stack", "delete", "--wait", "--yes", "osc-env")
