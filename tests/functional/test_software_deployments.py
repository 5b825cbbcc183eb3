"""Software configs and deployments end to end against the local cloud.

The whole flow through the ``occli`` command line (and the SDK): a config
from files, a deployment to a real (local) server signalled through a Swift
temp URL exactly as the in-server agent does it, the resulting COMPLETE or
FAILED states, metadata ordering, ``--wait``, and the clean-up on delete.
Each test gets a fresh local cloud (occli.testing's ``local_cloud``).
"""

import json
import os
import subprocess
import sys
import time
import uuid

import pytest
import requests

from occli import exceptions

SCRIPT = """#!/bin/sh
echo "foo is $foo" > $heat_outputs_path.result
"""
DEFINITION = """
inputs:
- name: foo
  default: default-foo
- name: bar
  type: Number
  default: 1
outputs:
- name: result
- name: failure
  error_output: true
options:
  debug: true
"""


@pytest.fixture
def occli(local_cloud, run_occli):
    """Run ``occli ARGV…`` in-process; ``-f json`` output is parsed."""

    def run(*argv, expect=0):
        code, out, err = run_occli(*argv)
        assert code == expect, "exit %s: %s%s" % (code, out, err)
        if code == 0 and "json" in argv:
            return json.loads(out)
        return out if code == 0 else err

    return run


@pytest.fixture
def sdk(local_cloud):
    return local_cloud.client()


@pytest.fixture
def server(occli):
    name = "sd-vm-" + uuid.uuid4().hex[:8]
    created = occli(
        "server",
        "create",
        name,
        "--image",
        "cirros-0.6.2-x86_64-disk",
        "--flavor",
        "m1.tiny",
        "--nic",
        "none",
        "--wait",
        "-f",
        "json",
    )
    return {"id": created["id"], "name": name}


@pytest.fixture
def config(occli, tmp_path):
    script = tmp_path / "script.sh"
    script.write_text(SCRIPT)
    definition = tmp_path / "definition.yaml"
    definition.write_text(DEFINITION)
    return occli(
        "software",
        "config",
        "create",
        "cfg-" + uuid.uuid4().hex[:8],
        "--config-file",
        str(script),
        "--definition-file",
        str(definition),
        "--group",
        "script",
        "-f",
        "json",
    )


def inputs_of(config):
    return {i["name"]: i.get("value") for i in config["inputs"]}


def test_config_from_files(occli, config):
    assert config["group"] == "script"
    assert config["config"] == SCRIPT
    assert config["options"] == {"debug": True}
    assert config["inputs"] == [
        {"name": "foo", "type": "String", "default": "default-foo"},
        {"name": "bar", "type": "Number", "default": 1},
    ]
    assert config["outputs"] == [
        {"name": "result", "type": "String", "error_output": False},
        {"name": "failure", "type": "String", "error_output": True},
    ]
    shown = occli("software", "config", "show", config["name"], "-f", "json")
    assert shown == config
    assert occli("software", "config", "show", config["id"], "--config-only") == SCRIPT
    listed = occli("software", "config", "list", "-f", "json")
    assert config["id"] in [c["ID"] for c in listed]


def test_full_flow_with_temp_url_signal(occli, sdk, server, config, tmp_path):
    deployment = occli(
        "software",
        "deployment",
        "create",
        "web",
        "--config",
        config["name"],
        "--server",
        server["name"],
        "--input-value",
        "foo=fooooo",
        "--input-value",
        "extra=x",
        "-f",
        "json",
    )
    assert deployment["status"] == "IN_PROGRESS"
    assert deployment["status_reason"] == "Deploy data available"
    assert deployment["server_id"] == server["id"]

    # the agent reads its metadata: the derived config with input values
    metadata = json.loads(occli("software", "deployment", "metadata", "show", server["id"]))
    assert [m["id"] for m in metadata] == [deployment["config_id"]]
    derived = metadata[0]
    values = inputs_of(derived)
    assert derived["name"] == "web"
    assert derived["config"] == SCRIPT
    assert derived["outputs"] == config["outputs"]
    assert values["foo"] == "fooooo"
    assert values["bar"] == 1
    assert values["extra"] == "x"
    assert values["deploy_server_id"] == server["id"]
    assert values["deploy_action"] == "CREATE"
    assert values["deploy_signal_transport"] == "TEMP_URL_SIGNAL"
    assert values["deploy_signal_verb"] == "PUT"
    signal_url = values["deploy_signal_id"]
    assert signal_url.startswith(sdk.object_store.endpoint + "/web-")
    # the URL allows PUT only, and only with its signature
    assert requests.get(signal_url).status_code == 401
    assert (
        requests.put(signal_url.replace("temp_url_sig=", "temp_url_sig=0"), json={}).status_code
        == 401
    )

    stdout = tmp_path / "stdout"
    stdout.write_text("foo is fooooo\n")
    signalled = occli(
        "software",
        "deployment",
        "signal",
        deployment["id"],
        "--stdout",
        str(stdout),
        "--output",
        "result=foo is fooooo",
        "-f",
        "json",
    )
    assert signalled["status"] == "COMPLETE"
    assert signalled["status_reason"] == "Outputs received"
    assert signalled["output_values"] == {
        "result": "foo is fooooo",
        "deploy_stdout": "foo is fooooo\n",
        "deploy_stderr": "",
        "deploy_status_code": 0,
    }
    assert (
        occli(
            "software", "deployment", "output", "show", deployment["id"], "result", "-f", "value"
        )
        == "foo is fooooo\n"
    )
    shown = occli("software", "deployment", "show", deployment["id"], "--long", "-f", "json")
    assert shown["output_values"] == signalled["output_values"]
    err = occli("software", "deployment", "signal", deployment["id"], expect=1)
    assert "only an IN_PROGRESS deployment takes a signal" in err

    # delete cleans up the derived config and the signal object/container
    container, obj = sdk.object_store.locate(signal_url)
    assert sdk.object_store.get_object(container, obj)  # the signal is there
    occli("software", "deployment", "delete", deployment["id"])
    occli("software", "deployment", "show", deployment["id"], expect=1)
    with pytest.raises(exceptions.NotFound):
        sdk.software_configs.get(deployment["config_id"])
    with pytest.raises(exceptions.NotFound):
        sdk.object_store.get_object(container, obj)
    with pytest.raises(exceptions.NotFound):
        sdk.object_store.delete_container(container)
    assert sdk.software_configs.get(config["id"]).id == config["id"]


def test_the_agents_own_put_is_applied_on_get(occli, sdk, server, config):
    """No occli signal: a raw, token-less PUT like the agent's."""
    deployment = sdk.software_deployments.deploy(server["id"], config["id"], name="agent")
    values = inputs_of(sdk.software_configs.get(deployment.config_id))
    resp = requests.put(
        values["deploy_signal_id"],
        json={"deploy_status_code": 0, "deploy_stdout": "ok", "result": "r"},
    )
    assert resp.status_code == 201, resp.text
    shown = occli("software", "deployment", "show", deployment.id, "--long", "-f", "json")
    assert shown["status"] == "COMPLETE"
    assert shown["output_values"]["result"] == "r"
    sdk.software_deployments.delete(deployment.id)


def test_non_zero_status_code_fails(sdk, server, config):
    deployment = sdk.software_deployments.deploy(server["id"], config["id"])
    failed = sdk.software_deployments.signal(deployment.id, status_code=3, stderr="boom")
    assert failed.status == "FAILED"
    assert failed.status_reason == (
        "deploy_status_code : Deployment exited with non-zero status code: 3"
    )
    assert failed.output_values["deploy_stderr"] == "boom"
    sdk.software_deployments.delete(deployment.id)


def test_error_output_fails(occli, server, config):
    deployment = occli(
        "software",
        "deployment",
        "create",
        "web",
        "--config",
        config["id"],
        "--server",
        server["id"],
        "-f",
        "json",
    )
    failed = occli(
        "software",
        "deployment",
        "signal",
        deployment["id"],
        "--output",
        "failure=disk full",
        "-f",
        "json",
    )
    assert failed["status"] == "FAILED"
    assert failed["status_reason"] == "failure : disk full"
    assert failed["output_values"]["failure"] == "disk full"
    occli("software", "deployment", "delete", deployment["id"])


def test_no_signal_is_complete_at_once(occli, sdk, server, config):
    before = {c.id for c in sdk.software_configs.list()}
    deployment = occli(
        "software",
        "deployment",
        "create",
        "quiet",
        "--config",
        config["id"],
        "--server",
        server["name"],
        "--signal-transport",
        "NO_SIGNAL",
        "--wait",
        "-f",
        "json",
    )
    assert deployment["status"] == "COMPLETE"
    assert deployment["status_reason"] == "Not waiting for outputs signal"
    values = inputs_of(sdk.software_configs.get(deployment["config_id"]))
    assert values["deploy_signal_transport"] == "NO_SIGNAL"
    assert "deploy_signal_id" not in values
    err = occli("software", "deployment", "signal", deployment["id"], expect=1)
    assert "uses NO_SIGNAL: nothing waits for its signal" in err
    # also when something put it back IN_PROGRESS: the transport decides
    sdk.software_deployments.update(deployment["id"], status="IN_PROGRESS")
    err = occli("software", "deployment", "signal", deployment["id"], expect=1)
    assert "uses NO_SIGNAL: nothing waits for its signal" in err
    occli("software", "deployment", "delete", deployment["id"])
    assert {c.id for c in sdk.software_configs.list()} == before


def test_metadata_is_ordered_by_config_name_then_creation(sdk, server, config):
    deploy = sdk.software_deployments.deploy
    created = []
    for name in ("b-second", "a-first", "c-third", "a-first"):
        created.append(deploy(server["id"], config["id"], name=name, signal_transport="NO_SIGNAL"))
        time.sleep(0.01)
    metadata = sdk.software_deployments.metadata(server["id"])
    assert [m["name"] for m in metadata] == ["a-first", "a-first", "b-second", "c-third"]
    assert [m["id"] for m in metadata] == [
        created[1].config_id,
        created[3].config_id,
        created[0].config_id,
        created[2].config_id,
    ]
    listed = list(sdk.software_deployments.list(server_id=server["id"]))
    assert [d.id for d in listed] == [d.id for d in created]
    for d in created:
        sdk.software_deployments.delete(d.id)
    assert sdk.software_deployments.metadata(server["id"]) == []


def test_delete_keep_options(occli, sdk, server, config):
    deployment = sdk.software_deployments.deploy(
        server["id"], config["id"], container="my-signals"
    )
    url = inputs_of(sdk.software_configs.get(deployment.config_id))["deploy_signal_id"]
    assert sdk.object_store.locate(url)[0] == "my-signals"
    occli("software", "deployment", "delete", deployment.id, "--keep-config", "--keep-signal")
    assert sdk.software_configs.get(deployment.config_id)
    assert sdk.object_store.get_object(*sdk.object_store.locate(url)) == b""
    sdk.software_configs.delete(deployment.config_id)


@pytest.mark.parametrize(
    "name, container",
    [
        ("déploy ment", None),  # generated container, made URL-safe
        ("web", "signals bôx"),  # the user's container, kept as given
    ],
)
def test_signal_with_space_and_non_ascii_names(occli, sdk, server, config, name, container):
    argv = [
        "software",
        "deployment",
        "create",
        name,
        "--config",
        config["id"],
        "--server",
        server["id"],
        "-f",
        "json",
    ]
    if container:
        argv += ["--container", container]
    deployment = occli(*argv)
    url = inputs_of(sdk.software_configs.get(deployment["config_id"]))["deploy_signal_id"]
    if container:
        assert sdk.object_store.locate(url)[0] == container
    signalled = occli(
        "software", "deployment", "signal", deployment["id"], "--output", "result=ok", "-f", "json"
    )
    assert signalled["status"] == "COMPLETE", signalled
    assert signalled["output_values"]["result"] == "ok"
    occli("software", "deployment", "delete", deployment["id"])
    with pytest.raises(exceptions.NotFound):
        sdk.object_store.get_object(*sdk.object_store.locate(url))
    if container:
        sdk.object_store.delete_container(container)


def _occli_process(*argv):
    return subprocess.Popen(
        [sys.executable, "-m", "occli.shell"] + list(argv),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ),
    )


def _wait_for_deployment(sdk, server_id, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = list(sdk.software_deployments.list(server_id=server_id))
        if found:
            return found[0]
        time.sleep(0.1)
    raise AssertionError("no deployment appeared")


@pytest.mark.parametrize("code, status, exit_code", [(0, "COMPLETE", 0), (4, "FAILED", 1)])
def test_create_wait_until_signalled(sdk, server, config, code, status, exit_code):
    proc = _occli_process(
        "software",
        "deployment",
        "create",
        "waited",
        "--config",
        config["id"],
        "--server",
        server["id"],
        "--wait",
        "--wait-interval",
        "0.1",
        "--wait-timeout",
        "60",
        "-f",
        "json",
    )
    try:
        deployment = _wait_for_deployment(sdk, server["id"])
        sdk.software_deployments.signal(
            deployment.id, status_code=code, outputs={"result": "done"}
        )
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == exit_code, err
    if exit_code == 0:
        shown = json.loads(out)
        assert shown["status"] == status
        assert shown["output_values"]["result"] == "done"
    else:
        assert (
            "Deployment %s FAILED: deploy_status_code : Deployment "
            "exited with non-zero status code: 4" % deployment.id
        ) in err
    sdk.software_deployments.delete(deployment.id)


def test_config_delete_and_deployment_list(occli, server, config):
    deployment = occli(
        "software",
        "deployment",
        "create",
        "listed",
        "--config",
        config["id"],
        "--server",
        server["id"],
        "--signal-transport",
        "NO_SIGNAL",
        "-f",
        "json",
    )
    listed = occli(
        "software", "deployment", "list", "--server", server["name"], "--long", "-f", "json"
    )
    assert [d["ID"] for d in listed] == [deployment["id"]]
    # the source config is referenced only through the derived config
    occli("software", "config", "delete", config["id"])
    err = occli("software", "config", "show", config["id"], expect=1)
    assert "(HTTP 404)" in err
    occli("software", "deployment", "delete", deployment["id"])
    assert occli("software", "deployment", "list", "--server", server["id"], "-f", "json") == []
