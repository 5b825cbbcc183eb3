"""heat-templates' software-config example end to end: a security group, a
script config read with ``get_file``, two deployments and a server with
``user_data_format: SOFTWARE_CONFIG``, run by ``occli stack create --wait``
on the local cloud with the simulated agent standing in for
os-collect-config (``tests/fixtures/heat/heat-templates/SOURCES.md``)."""

import pytest

from occli import testing
from tests.functional.harness import as_json
from tests.functional.harness import ok
from tests.functional.harness import point_client_at
from tests.functional.test_stack_walkthrough import ROOT

EXAMPLE = ROOT / "tests" / "fixtures" / "heat" / "heat-templates"
WAIT = ("--wait", "--poll", "0.2", "--wait-timeout", "120")
RULES = """\
deployment:
  deploy_stdout: "Written to /tmp/baaaaa"
  deploy_stderr: "Output to stderr"
  outputs: {result: "The file /tmp/baaaaa contains fooooo"}
"""


@pytest.fixture
def cloud(monkeypatch, tmp_path):
    rules = tmp_path / "rules.yaml"
    rules.write_text(RULES)
    running = testing.start_local_cloud(
        build_time=0.2, heat_simulated_agent=True, heat_agent_rules=str(rules)
    )
    running.seed_image("fedora-software-config")
    point_client_at(running, monkeypatch, tmp_path / "cache", cloud="local")
    yield running
    running.stop()


def test_the_software_config_example_runs_and_leaves_nothing(cloud, run_occli):
    client = cloud.client()
    ok(run_occli("keypair", "create", "k"))
    flavor = client.flavors.list()[0].name
    created = as_json(
        run_occli(
            "stack", "create", "-t", str(EXAMPLE / "example-script-template.yaml"),
            "--parameter", "key_name=k", "--parameter", "flavor=%s" % flavor,
            *WAIT, "-f", "json", "example",
        )
    )  # fmt: skip
    assert created["stack_status"] == "CREATE_COMPLETE", created
    outputs = {
        key: value["output_value"]
        for key, value in as_json(
            run_occli("stack", "output", "show", "example", "--all", "-f", "json")
        ).items()
    }
    assert outputs["result"] == "The file /tmp/baaaaa contains fooooo"
    assert outputs["stdout"] == "Written to /tmp/baaaaa"
    assert outputs["stderr"] == "Output to stderr"
    assert outputs["status_code"] == 0
    resources = {
        r["resource_name"]: r["physical_resource_id"]
        for r in as_json(run_occli("stack", "resource", "list", "example", "-f", "json"))
    }
    server = client.servers.get(resources["server"])
    assert server.status == "ACTIVE"
    # the script reached the server through its deployments, get_file's text
    # in the config, each deployment's own input values
    config = client.software_configs.get(
        client.software_deployments.get(resources["deployment"]).config_id
    )
    assert 'echo "Writing to /tmp/$bar"' in config.config
    inputs = {i["name"]: i.get("value") for i in config.inputs}
    assert (inputs["foo"], inputs["bar"], inputs["deploy_server_id"]) == (
        "fooooo",
        "baaaaa",
        server.id,
    )
    groups = [g.name for g in client.security_groups.list()]
    assert "the_sg" in groups

    ok(run_occli("stack", "delete", "--yes", *WAIT, "example"))
    assert server.id not in [s.id for s in client.servers.list()]
    assert "the_sg" not in [g.name for g in client.security_groups.list()]
    assert list(client.software_deployments.list()) == []
    assert as_json(run_occli("stack", "list", "-f", "json")) == []
