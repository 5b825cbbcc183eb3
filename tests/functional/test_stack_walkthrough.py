"""The stacks walkthrough of ``make demo`` (examples/stacks/walkthrough.sh):
a stack of a server, a software config, a deployment and a random string
created with ``--wait`` under the simulated agent, its outputs shown, an
input updated (the deployment re-runs with action UPDATE) and deleted with
every resource gone from Nova, Neutron and Heat; a resource type from a
plugin directory and one from an entry point used in a template, a broken
plugin skipped with a warning.

The script runs against a background ``occli-localcloud start`` with the
options demo.sh gives it; the same steps run through :mod:`occli.testing`
and the real CLI in process, each one checked."""

import logging
import os
import subprocess
import sys

import pytest

from occli import testing
from tests.functional.harness import EXAMPLES
from tests.functional.harness import as_json
from tests.functional.harness import ok
from tests.functional.harness import point_client_at

STACKS = EXAMPLES / "stacks"
ROOT = EXAMPLES.parent
# what demo.sh starts the local cloud with
SETTINGS = {
    "heat_simulated_agent": True,
    "heat_agent_rules": str(STACKS / "agent-rules.yaml"),
    "heat_plugin_dirs": [str(STACKS / "plugins")],
}
BROKEN = "Failed to import plugin module"
WAIT = ("--wait", "--poll", "0.2", "--wait-timeout", "120")


def _localcloud(*args, env):
    return subprocess.run(
        [sys.executable, "-m", "occli.localcloud", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_script_runs_against_the_cloud_demo_sh_starts(tmp_path):
    data_dir = tmp_path / "lc"
    env = {k: v for k, v in os.environ.items() if not k.startswith("OS_")}
    env.pop("OCCLI_LOCALCLOUD_DIR", None)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(STACKS / "site"), env.get("PYTHONPATH")) if p
    )
    started = _localcloud(
        "start", "--port", "0", "--data-dir", str(data_dir),
        "--heat-simulated-agent", "--heat-agent-rules", SETTINGS["heat_agent_rules"],
        "--heat-plugin-dir", SETTINGS["heat_plugin_dirs"][0],
        env=env,
    )  # fmt: skip
    assert started.returncode == 0, started.stdout + started.stderr
    try:
        env.update(
            OS_CLIENT_CONFIG_FILE=str(data_dir / "clouds.yaml"),
            OCCLI_CACHE_DIR=str(tmp_path / "cache"),
            PATH=os.path.dirname(sys.executable) + os.pathsep + env.get("PATH", ""),
        )
        proc = subprocess.run(
            ["bash", str(STACKS / "walkthrough.sh")],
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        log = (data_dir / "localcloud.log").read_text()
    finally:
        _localcloud("stop", "--data-dir", str(data_dir), env=env)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    out = proc.stdout
    assert out.rstrip().endswith("Stacks walkthrough finished.")
    assert "Traceback" not in out + proc.stderr and "unexpected success" not in proc.stderr
    assert "\x1b" not in out, "bold only on a terminal"
    assert "[demo-app]: CREATE_COMPLETE" in proc.stderr
    assert "[demo-app.deployment]: UPDATE_COMPLETE" in proc.stderr
    assert "# Hello, occli! #" in out
    assert "The Resource Type (Acme::Widget) could not be found." in proc.stderr
    # the broken plugin: skipped with a warning naming its file
    warning = next(line for line in log.splitlines() if BROKEN in line)
    assert "WARNING" in warning and str(STACKS / "plugins" / "broken.py") in warning


@pytest.fixture
def cloud(monkeypatch, tmp_path):
    # the entry point: examples/stacks/site holds an installed distribution
    monkeypatch.syspath_prepend(str(STACKS / "site"))
    running = testing.start_local_cloud(build_time=0.5, **SETTINGS)
    point_client_at(running, monkeypatch, tmp_path / "cache", cloud="local")
    yield running
    running.stop()


def test_each_step_of_the_walkthrough(cloud, run_occli, caplog):
    client = cloud.client()
    # the engine's types, loaded on first use (before the CLI, which sets
    # up logging its own way, runs in this process): the broken plugin is
    # skipped with a warning naming its file, the others are there
    described = {
        t.resource_type: t.description
        for t in client.resource_types.list({"name": "Example"}, with_description=True)
    }
    assert described == {
        "Example::Banner": "A text framed by a character, for a login banner.",
        "Example::Message": "A message made from a Python format string and its values.",
    }
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any(BROKEN in w and str(STACKS / "plugins" / "broken.py") in w for w in warnings)

    # created and waited for: the agent signalled the deployment
    created = as_json(
        run_occli("stack", "create", "-t", str(STACKS / "app.yaml"), *WAIT, "-f", "json", "app")
    )
    assert created["stack_status"] == "CREATE_COMPLETE", created
    resources = {
        r["resource_name"]: r
        for r in as_json(run_occli("stack", "resource", "list", "app", "-f", "json"))
    }
    assert {name: r["resource_type"] for name, r in resources.items()} == {
        "password": "OS::Heat::RandomString",
        "config": "OS::Heat::SoftwareConfig",
        "server": "OS::Nova::Server",
        "deployment": "OS::Heat::SoftwareDeployment",
    }
    server_id = resources["server"]["physical_resource_id"]
    deployment_id = resources["deployment"]["physical_resource_id"]
    server = client.servers.get(server_id)
    assert server.status == "ACTIVE"
    ports = [p.id for p in client.ports.list(server=server_id)]
    assert len(ports) == 1

    # the outputs: the server's address and what the agent's rule reported
    outputs = {
        key: value["output_value"]
        for key, value in as_json(
            run_occli("stack", "output", "show", "app", "--all", "-f", "json")
        ).items()
    }
    address = server.addresses["private"][0]["addr"]
    assert outputs == {
        "server_ip": address,
        "result": "The script ran",
        "stdout": "hello from the simulated agent",
    }
    deployment = client.software_deployments.get(deployment_id)
    assert (deployment.action, deployment.status) == ("CREATE", "COMPLETE")
    first_config = deployment.config_id

    # an input updated: the deployment re-runs with action UPDATE and the
    # new value in its derived config
    updated = as_json(
        run_occli(
            "stack", "update", "--existing", "--parameter", "greeting=bonjour",
            *WAIT, "-f", "json", "app",
        )
    )  # fmt: skip
    assert updated["stack_status"] == "UPDATE_COMPLETE", updated
    shown = as_json(run_occli("software", "deployment", "show", deployment_id, "-f", "json"))
    assert (shown["action"], shown["status"]) == ("UPDATE", "COMPLETE")
    assert shown["config_id"] != first_config
    inputs = {
        i["name"]: i.get("value") for i in client.software_configs.get(shown["config_id"]).inputs
    }
    assert inputs["greeting"] == "bonjour"
    assert inputs["deploy_action"] == "UPDATE"
    after = {
        r["resource_name"]: r["physical_resource_id"]
        for r in as_json(run_occli("stack", "resource", "list", "app", "-f", "json"))
    }
    assert after["server"] == server_id, "an input update keeps the server"

    # deleted: nothing left in Nova, Neutron or Heat
    ok(run_occli("stack", "delete", "--yes", *WAIT, "app"))
    assert server_id not in [s.id for s in client.servers.list()]
    remaining = {p.id for p in client.ports.list()}
    assert not remaining & set(ports)
    assert list(client.software_deployments.list()) == []
    configs = {c.id for c in client.software_configs.list()}
    assert resources["config"]["physical_resource_id"] not in configs
    assert shown["config_id"] not in configs
    assert as_json(run_occli("stack", "list", "-f", "json")) == []
    code, _, err = run_occli("stack", "show", "app")
    assert code == 1 and "The Stack (app) could not be found." in err

    # the third-party types: listed, used in a template
    types = [
        t["Resource Type"]
        for t in as_json(
            run_occli(
                "orchestration",
                "resource",
                "type",
                "list",
                "--filter",
                "name=Example",
                "-f",
                "json",
            )
        )
    ]
    assert types == ["Example::Banner", "Example::Message"]
    made = as_json(
        run_occli(
            "stack", "create", "-t", str(STACKS / "plugins.yaml"), "--parameter", "name=tests",
            *WAIT, "-f", "json", "plugins",
        )
    )  # fmt: skip
    assert made["stack_status"] == "CREATE_COMPLETE", made
    banner = as_json(run_occli("stack", "output", "show", "plugins", "banner", "-f", "json"))
    assert banner["output_value"] == "#################\n# Hello, tests! #\n#################"
    ok(run_occli("stack", "delete", "--yes", *WAIT, "plugins"))

    # the broken plugin's type is absent
    code, _, err = run_occli("orchestration", "resource", "type", "show", "Acme::Widget")
    assert code == 1 and "The Resource Type (Acme::Widget) could not be found." in err


def test_the_walkthrough_files_are_what_the_test_reads():
    """demo.sh starts the cloud with these options and files (a rename
    here or there would leave the demo without its plugins)."""
    demo = (EXAMPLES / "demo.sh").read_text()
    for option in ("--heat-simulated-agent", "--heat-agent-rules", "--heat-plugin-dir"):
        assert option in demo
    for path in (
        "stacks/site",
        "stacks/agent-rules.yaml",
        "stacks/plugins",
        "stacks/walkthrough.sh",
    ):
        assert path in demo
        assert (EXAMPLES / path).exists()
    entry_points = next((STACKS / "site").glob("*.dist-info")) / "entry_points.txt"
    assert "[occli.localcloud.heat.resources]" in entry_points.read_text()
