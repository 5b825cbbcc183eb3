"""Two upstream software-config templates end to end, run with occli's
``stack`` commands on the local cloud, the simulated agent standing in for
the in-server agents (``tests/fixtures/heat/upstream/SOURCES.md``):

* heat-templates' cirros example: a script config signalled back over
  ``HEAT_SIGNAL`` by a server polling Heat (``POLL_SERVER_HEAT``);
* heat-tempest-plugin's ``test_server_software_config`` scenario: script,
  cfn-init (StructuredConfig/StructuredDeployment with ``NO_SIGNAL``) and
  puppet configs on one server whose ``Heat::InstallConfigAgent`` user data
  comes from the plugin's environment, checked as that scenario checks it.
"""

import json
import time

import pytest
import yaml

from occli import testing
from occli.v2.orchestration import template_utils
from tests.functional.harness import as_json
from tests.functional.harness import ok
from tests.functional.harness import point_client_at
from tests.functional.test_stack_walkthrough import ROOT

UPSTREAM = ROOT / "tests" / "fixtures" / "heat" / "upstream"
WAIT = ("--wait", "--poll", "0.2", "--wait-timeout", "120")
# the hook writes the message to /hello and cats it into the output
CIRROS_RULES = {"sd": {"outputs": {"file_content": "Hello, world!\n"}}}
# the agent holds every deployment until the test knows the server's id
HOLD = {"*": {"delay": 3600}}


def _outputs(run_occli, stack):
    return {
        key: value["output_value"]
        for key, value in as_json(
            run_occli("stack", "output", "show", stack, "--all", "-f", "json")
        ).items()
    }


def _resources(run_occli, stack):
    return {
        r["resource_name"]: r
        for r in as_json(run_occli("stack", "resource", "list", stack, "-f", "json"))
    }


@pytest.fixture
def rules(tmp_path):
    path = tmp_path / "rules.yaml"
    path.write_text(yaml.safe_dump(HOLD))
    return path


@pytest.fixture
def cloud(monkeypatch, tmp_path, rules):
    running = testing.start_local_cloud(
        build_time=0.2, heat_simulated_agent=True, heat_agent_rules=str(rules)
    )
    point_client_at(running, monkeypatch, tmp_path / "cache", cloud="local")
    yield running
    running.stop()


def test_the_cirros_hello_world_example_signals_its_output(cloud, rules, run_occli):
    rules.write_text(yaml.safe_dump(CIRROS_RULES))
    client = cloud.client()
    cloud.seed_image("cirros-0.3.2-sc")
    ok(run_occli("keypair", "create", "stack_key"))
    flavor = client.flavors.list()[0].name
    created = as_json(
        run_occli(
            "stack", "create", "-t", str(UPSTREAM / "cirros-hello-world.yaml"),
            "--parameter", "image=cirros-0.3.2-sc", "--parameter", "flavor=%s" % flavor,
            *WAIT, "-f", "json", "sc1",
        )
    )  # fmt: skip
    assert created["stack_status"] == "CREATE_COMPLETE", created
    assert _outputs(run_occli, "sc1") == {"deploy_output": "Hello, world!\n"}
    resources = _resources(run_occli, "sc1")
    server = client.servers.get(resources["server"]["physical_resource_id"])
    deployment = client.software_deployments.get(resources["sd"]["physical_resource_id"])
    assert (deployment.status, deployment.server_id) == ("COMPLETE", server.id)
    assert deployment.output_values["file_content"] == "Hello, world!\n"
    config = client.software_configs.get(deployment.config_id)
    inputs = {i["name"]: i.get("value") for i in config.inputs}
    assert inputs["message"] == "Hello, world!"
    assert inputs["deploy_signal_transport"] == "HEAT_SIGNAL"
    assert '"${message}" > /hello' in config.config
    # the server polls Heat for its deployments: they are in its metadata
    metadata = as_json(run_occli("stack", "resource", "metadata", "sc1", "server", "-f", "json"))
    assert [d["name"] for d in metadata["deployments"]] == [config.name]

    ok(run_occli("stack", "delete", "--yes", *WAIT, "sc1"))
    assert server.id not in [s.id for s in client.servers.list()]
    assert list(client.software_deployments.list()) == []
    assert as_json(run_occli("stack", "list", "-f", "json")) == []


def _wait_for_status(run_occli, status, stack, resource=None):
    """Poll (bounded) until ``stack`` — or its ``resource`` — is ``status``,
    as the scenario's ``_wait_for_resource_status`` does: a resource not
    stored yet (404) is waited for, a FAILED status of the action ends it."""
    argv = ("stack", "resource", "show", stack, resource) if resource else ("stack", "show", stack)
    key = "resource_status" if resource else "stack_status"
    deadline = time.monotonic() + 120
    while True:
        code, out, err = run_occli(*argv, "-f", "json")
        current = json.loads(out) if code == 0 else {key: err}
        if current[key] == status or current[key] == status.split("_")[0] + "_FAILED":
            break
        assert code == 0 or "(HTTP 404)" in err, err
        assert time.monotonic() < deadline, current
        time.sleep(0.2)
    assert current[key] == status, current
    return current


def test_the_tempest_server_software_config_scenario(cloud, rules, run_occli, monkeypatch):
    client = cloud.client()
    cloud.seed_image("fedora-heat-agents")
    ok(run_occli("keypair", "create", "k"))
    network = as_json(run_occli("network", "show", "private", "-f", "json"))
    flavor = client.flavors.list()[0].name
    # the scenario hands heatclient the files of ``get_file: /cfg1.sh`` and
    # ``/cfg3.pp`` ready-made (file:///cfg1.sh ...): the CLI reads them here
    read_url = template_utils.read_url
    scripts = {"file:///cfg1.sh": "cfg1.sh", "file:///cfg3.pp": "cfg3.pp"}

    def read(url, param="template"):
        if url in scripts:
            return (UPSTREAM / scripts[url]).read_text()
        return read_url(url, param)

    monkeypatch.setattr(template_utils, "read_url", read)
    # the local cloud has no heat-api-cfn: the scenario's CFN defaults are
    # the Heat API's transports here
    ok(
        run_occli(
            "stack", "create", "-t", str(UPSTREAM / "test_server_software_config.yaml"),
            "-e", str(UPSTREAM / "boot_config_none_env.yaml"),
            "--parameter", "key_name=k", "--parameter", "flavor=%s" % flavor,
            "--parameter", "image=fedora-heat-agents",
            "--parameter", "network=%s" % network["id"],
            "--parameter", "signal_transport=HEAT_SIGNAL",
            "--parameter", "software_config_transport=POLL_SERVER_HEAT",
            "scenario",
        )
    )  # fmt: skip
    for name in ("cfg2a", "cfg2b", "cfg1", "cfg3", "server"):
        _wait_for_status(run_occli, "CREATE_COMPLETE", "scenario", name)
    resources = _resources(run_occli, "scenario")
    server_id = resources["server"]["physical_resource_id"]
    # each deployment has contributed its config to the server's metadata
    for name in ("dep2b", "dep1", "dep3"):
        _wait_for_status(run_occli, "CREATE_IN_PROGRESS", "scenario", name)
    metadata = as_json(
        run_occli("stack", "resource", "metadata", "scenario", "server", "-f", "json")
    )
    deployments = {d["name"]: d for d in metadata["deployments"]}
    # named by the deployment's name, else by its config's physical name
    cfg1, cfg3 = (
        client.software_configs.get(resources[name]["physical_resource_id"]).name
        for name in ("cfg1", "cfg3")
    )
    assert sorted(deployments) == sorted(["10_dep2a", "20_dep2b", cfg1, cfg3])
    assert deployments["10_dep2a"]["group"] == "cfn-init"
    assert deployments["10_dep2a"]["config"] == {
        "config": {"files": {"/tmp/cfn-init-foo": {"content": "barrr", "mode": "000644"}}}
    }
    assert "echo $foo > /tmp/$bar" in deployments[cfg1]["config"]
    assert deployments[cfg3]["group"] == "puppet"

    # the agents run the configs: what the scenario's scripts write
    def result(path, content):
        return "The file %s contains %s for server %s during CREATE" % (path, content, server_id)

    rules.write_text(
        yaml.safe_dump(
            {
                "dep1": {
                    "deploy_stdout": "Writing to /tmp/baaaaa\nWritten to /tmp/baaaaa\n",
                    "deploy_stderr": "Output to stderr\n",
                    "outputs": {"result": result("/tmp/baaaaa", "fooooo")},
                },
                "dep2b": {"outputs": {"result": result("/tmp/cfn-init-foo", "barrr")}},
                "dep3": {
                    "deploy_stdout": "Notice: Applied catalog\n",
                    "outputs": {"result": result("/tmp/ba", "fo")},
                },
            }
        )
    )
    for name in ("dep2a", "dep2b", "dep1", "dep3"):
        _wait_for_status(run_occli, "CREATE_COMPLETE", "scenario", name)
    _wait_for_status(run_occli, "CREATE_COMPLETE", "scenario")
    # the deployments already on the server have not changed: nothing re-runs
    complete = as_json(
        run_occli("stack", "resource", "metadata", "scenario", "server", "-f", "json")
    )
    assert {d["name"]: d for d in complete["deployments"]} == deployments

    outputs = _outputs(run_occli, "scenario")
    res1, res2, res3 = outputs["res1"], outputs["res2"], outputs["res3"]
    assert res1["result"] == result("/tmp/baaaaa", "fooooo")
    assert res1["status_code"] == 0
    assert res1["stderr"] == "Output to stderr\n"
    assert len(res1["stdout"]) > 0
    assert res2 == {
        "result": result("/tmp/cfn-init-foo", "barrr"),
        "status_code": 0,
        "stderr": "",
        "stdout": "",
    }
    assert (res3["result"], res3["status_code"], res3["stderr"]) == (
        result("/tmp/ba", "fo"), 0, ""
    )  # fmt: skip
    dep1 = client.software_deployments.get(
        _resources(run_occli, "scenario")["dep1"]["physical_resource_id"]
    )
    assert dep1.updated_time is not None
    assert dep1.updated_time != dep1.creation_time
    # each deployment's inputs name the server and action the agent ran
    derived = client.software_configs.get(dep1.config_id)
    inputs = {i["name"]: i.get("value") for i in derived.inputs}
    assert (inputs["foo"], inputs["bar"]) == ("fooooo", "baaaaa")
    assert (inputs["deploy_server_id"], inputs["deploy_action"]) == (server_id, "CREATE")

    ok(run_occli("stack", "delete", "--yes", *WAIT, "scenario"))
    assert server_id not in [s.id for s in client.servers.list()]
    assert list(client.software_deployments.list()) == []
    assert "the_sg" not in [g.name for g in client.security_groups.list()]
