"""The simulated in-server agent (``orchestration.engine.agent``): which
servers have one, its delay and rule file, and the signal it sends along
each deployment's transport."""

import types

import pytest

from occli.localcloud import common
from occli.localcloud.orchestration.engine import agent
from occli.localcloud.orchestration.engine import stacks
from occli.localcloud.orchestration.engine.clients import ClientError
from occli.localcloud.orchestration.engine.clients import Clients
from tests.unit.localcloud.heat import harness


@pytest.fixture(scope="module")
def cloud():
    fixture = harness.start()
    yield fixture
    fixture.stop()


@pytest.fixture
def ctx(cloud):
    return harness.context(cloud)


@pytest.fixture
def api(cloud, ctx):
    return Clients(cloud.cloud.wsgi, ctx)


@pytest.fixture(scope="module")
def flavor(cloud):
    return cloud.cloud.seed_flavor("agent-tiny")


def boot(api, flavor, metadata=None):
    image = api.get("image", "/v2/images").body["images"][0]["id"]
    server = {"name": "vm", "imageRef": image, "flavorRef": flavor, "networks": "none"}
    if metadata is not None:
        server["metadata"] = metadata
    answer = api.post(
        "compute",
        "/servers",
        {"server": server},
        headers={"OpenStack-API-Version": "compute 2.37"},
    )
    return answer.body["server"]["id"]


def template(transport="TEMP_URL_SIGNAL"):
    return {
        "heat_template_version": "2018-08-31",
        "parameters": {"server": {"type": "string"}},
        "resources": {
            "cfg": {
                "type": "OS::Heat::SoftwareConfig",
                "properties": {"config": "run", "outputs": [{"name": "result"}]},
            },
            "deploy_web": {
                "type": "OS::Heat::SoftwareDeployment",
                "properties": {
                    "config": {"get_resource": "cfg"},
                    "server": {"get_param": "server"},
                    "signal_transport": transport,
                },
            },
        },
        "outputs": {
            "result": {"value": {"get_attr": ["deploy_web", "result"]}},
            "stdout": {"value": {"get_attr": ["deploy_web", "deploy_stdout"]}},
        },
    }


def config(enabled=False, rules=None):
    return types.SimpleNamespace(heat_simulated_agent=enabled, heat_agent_rules=rules)


def start(cloud, ctx, name, server_id, transport="TEMP_URL_SIGNAL"):
    engine = harness.engine(cloud)
    stack_id = engine.create_stack(
        ctx, name, template(transport), {"server": server_id}, {}, {}, {"disable_rollback": True}
    )["id"]
    deadline = common.utcnow().timestamp() + 30
    while common.utcnow().timestamp() < deadline:
        found = harness.resources(cloud, stack_id).get("deploy_web")
        if found and found["physical_resource_id"] and found["status"] == "IN_PROGRESS":
            return stack_id
    raise AssertionError("the deployment never started")


def tick(cloud, ctx, cfg, later=60.0):
    return agent.tick(
        cloud.cloud.store,
        lambda project_id: Clients(cloud.cloud.wsgi, ctx),
        cfg,
        now=common.utcnow().timestamp() + later,
    )


def outputs(cloud, ctx, stack_id):
    with cloud.cloud.store.read() as db:
        found = harness.engine(cloud).outputs(db, ctx, harness.row(cloud, stack_id))
    return {o["output_key"]: o.get("output_value") for o in found}


def test_no_agent_no_signal(cloud, ctx, api, flavor):
    stack_id = start(cloud, ctx, "agentless", boot(api, flavor))
    assert tick(cloud, ctx, config(enabled=False)) == 0
    assert harness.row(cloud, stack_id)["status"] == "IN_PROGRESS"
    # a server's metadata opts it out of an agent the cloud turned on
    opted_out = start(cloud, ctx, "optedout", boot(api, flavor, {agent.METADATA_KEY: "false"}))
    tick(cloud, ctx, config(enabled=True))
    assert harness.row(cloud, opted_out)["status"] == "IN_PROGRESS"
    for stack in (stack_id, opted_out):
        harness.engine(cloud).delete_stack(ctx, stack)
        assert harness.wait(cloud, stack, action="DELETE")["status"] == "COMPLETE"


def test_agent_signals_after_its_delay_through_the_temp_url(cloud, ctx, api, flavor):
    stack_id = start(cloud, ctx, "agented", boot(api, flavor, {agent.METADATA_KEY: "true"}))
    # not before the delay
    assert tick(cloud, ctx, config(), later=-5.0) == 0
    assert harness.row(cloud, stack_id)["status"] == "IN_PROGRESS"
    assert tick(cloud, ctx, config()) >= 1
    row = harness.wait(cloud, stack_id)
    assert (row["action"], row["status"]) == ("CREATE", "COMPLETE"), row["status_reason"]
    assert outputs(cloud, ctx, stack_id) == {"result": None, "stdout": ""}


def test_rule_file_gives_outputs_and_failures(cloud, ctx, api, flavor, tmp_path):
    rules = tmp_path / "rules.yaml"
    rules.write_text(
        'deploy_web:\n  deploy_stdout: "hello"\n  outputs: {result: "ok"}\n'
        '"*":\n  deploy_status_code: 2\n'
    )
    server = boot(api, flavor)
    stack_id = start(cloud, ctx, "ruled", server, transport="HEAT_SIGNAL")
    assert tick(cloud, ctx, config(enabled=True, rules=str(rules))) >= 1
    row = harness.wait(cloud, stack_id)
    assert row["status"] == "COMPLETE", row["status_reason"]
    assert outputs(cloud, ctx, stack_id) == {"result": "ok", "stdout": "hello"}
    # the first matching pattern wins: "dep*" now comes before "deploy_web"
    rules.write_text('"dep*":\n  deploy_status_code: 2\ndeploy_web: {}\n')
    failing = start(cloud, ctx, "ruledfail", server)
    tick(cloud, ctx, config(enabled=True, rules=str(rules)))
    row = harness.wait(cloud, failing)
    assert row["status"] == "FAILED"
    assert "Deployment exited with non-zero status code: 2" in row["status_reason"]


def test_a_broken_rule_file_counts_as_none(tmp_path, caplog):
    rules = tmp_path / "broken.yaml"
    rules.write_text("- a list\n")
    assert agent.load_rules(str(rules)) == {}
    assert "Simulated agent rules" in caplog.text
    assert agent.load_rules(str(tmp_path / "missing.yaml")) == {}
    # the first pattern in the file that matches either name wins
    assert agent.rule_for({"web-*": {"x": 1}, "*": {"y": 2}}, ["db", "web-1"]) == {"x": 1}
    assert agent.rule_for({"web-*": {"x": 1}, "*": {"y": 2}}, ["db", "api"]) == {"y": 2}
    assert agent.rule_for({"web-*": {"x": 1}}, ["db"]) == {}
    assert agent.details_of({"outputs": {"r": 1}, "deploy_status_code": 3}) == {
        "r": 1,
        "deploy_status_code": 3,
        "deploy_stdout": "",
        "deploy_stderr": "",
    }


def test_walkthrough_with_the_agent_on():
    """A server booted with SOFTWARE_CONFIG, a config, a deployment and a
    random string: the stack completes with nobody signalling, the
    deployment's config reaches the server's metadata, an input update
    re-runs it, and a delete leaves nothing behind."""
    with harness.start(heat_simulated_agent=True) as fixture:
        fixture.cloud.seed_flavor("walk-tiny")
        ctx = harness.context(fixture)
        api = Clients(fixture.cloud.wsgi, ctx)
        image = api.get("image", "/v2/images").body["images"][0]["id"]

        def body(greeting):
            return {
                "heat_template_version": "2018-08-31",
                "resources": {
                    "pw": {"type": "OS::Heat::RandomString"},
                    "cfg": {
                        "type": "OS::Heat::SoftwareConfig",
                        "properties": {
                            "group": "script",
                            "config": "#!/bin/sh\necho $greeting",
                            "inputs": [{"name": "greeting"}, {"name": "pw"}],
                        },
                    },
                    "server": {
                        "type": "OS::Nova::Server",
                        "properties": {
                            "image": image,
                            "flavor": "walk-tiny",
                            "networks": [],
                            "user_data_format": "SOFTWARE_CONFIG",
                        },
                    },
                    "deploy": {
                        "type": "OS::Heat::SoftwareDeployment",
                        "properties": {
                            "config": {"get_resource": "cfg"},
                            "server": {"get_resource": "server"},
                            "input_values": {
                                "greeting": greeting,
                                "pw": {"get_attr": ["pw", "value"]},
                            },
                        },
                    },
                },
                "outputs": {"code": {"value": {"get_attr": ["deploy", "deploy_status_code"]}}},
            }

        engine = harness.engine(fixture)
        stack_id = engine.create_stack(
            ctx, "walk", body("hello"), {}, {}, {}, {"disable_rollback": True}
        )["id"]
        row = harness.wait(fixture, stack_id, seconds=60)
        assert (row["action"], row["status"]) == ("CREATE", "COMPLETE"), row["status_reason"]
        assert outputs(fixture, ctx, stack_id) == {"code": 0}
        rows = harness.resources(fixture, stack_id)
        dep_id = rows["deploy"]["physical_resource_id"]
        with fixture.cloud.store.read() as db:
            pushed = stacks.metadata(db, rows["server"]["id"])["deployments"]
        assert [c["group"] for c in pushed] == ["script"]
        assert {i["name"]: i.get("value") for i in pushed[0]["inputs"]}["greeting"] == "hello"

        engine.update_stack(ctx, stack_id, body("bye"), {}, {}, {}, {})
        row = harness.wait(fixture, stack_id, seconds=60)
        assert (row["action"], row["status"]) == ("UPDATE", "COMPLETE"), row["status_reason"]
        found = api.get("orchestration", "/software_deployments/%s" % dep_id).body[
            "software_deployment"
        ]
        assert (found["action"], found["status"]) == ("UPDATE", "COMPLETE")

        server = rows["server"]["physical_resource_id"]
        engine.delete_stack(ctx, stack_id)
        row = harness.wait(fixture, stack_id, seconds=60)
        assert (row["action"], row["status"]) == ("DELETE", "COMPLETE"), row["status_reason"]
        listed = api.get("orchestration", "/software_deployments").body["software_deployments"]
        assert listed == []
        with pytest.raises(ClientError) as gone:
            api.get("compute", "/servers/%s" % server)
        assert gone.value.status == 404


def test_a_deployment_whose_server_is_no_server_is_skipped(cloud, ctx, api):
    # Heat keeps a deployment's server_id as free text: "detail" would be
    # Nova's server list, a uuid of nothing its 404; neither breaks a tick
    made = []
    for server_id in ("detail", "00000000-0000-4000-8000-000000000000"):
        config_id = api.post(
            "orchestration", "/software_configs", {"name": "c", "config": "x"}
        ).body["software_config"]["id"]
        made.append(
            api.post(
                "orchestration",
                "/software_deployments",
                {"server_id": server_id, "config_id": config_id, "status": "IN_PROGRESS"},
            ).body["software_deployment"]["id"]
        )
    assert tick(cloud, ctx, config(enabled=True)) == 0
    for deployment_id in made:
        shown = api.get("orchestration", "/software_deployments/%s" % deployment_id)
        assert shown.body["software_deployment"]["status"] == "IN_PROGRESS"
        api.delete("orchestration", "/software_deployments/%s" % deployment_id)
