"""Heat's software config types in stacks run by the local engine:
``OS::Heat::SoftwareConfig``, ``StructuredConfig``, ``CloudConfig``,
``MultipartMime``, ``SoftwareDeployment`` and ``StructuredDeployment``,
stored through the orchestration API (what ``software config``/``software
deployment`` commands see) and signalled along each transport."""

import email
import email.message
import urllib.parse
import urllib.request

import pytest
import yaml

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
    """The engine's trusted in-process client, acting as the demo user."""
    return Clients(cloud.cloud.wsgi, ctx)


@pytest.fixture(scope="module")
def server_id(cloud):
    """An ACTIVE server of the demo project (not a stack's)."""
    api = Clients(cloud.cloud.wsgi, harness.context(cloud))
    flavor = cloud.cloud.seed_flavor("sc-tiny")
    image = api.get("image", "/v2/images").body["images"][0]["id"]
    answer = api.post(
        "compute",
        "/servers",
        {"server": {"name": "vm", "imageRef": image, "flavorRef": flavor, "networks": "none"}},
        headers={"OpenStack-API-Version": "compute 2.37"},
    )
    return answer.body["server"]["id"]


def tmpl(resources, outputs=None):
    body = {
        "heat_template_version": "2018-08-31",
        "parameters": {"server": {"type": "string"}},
        "resources": resources,
    }
    if outputs:
        body["outputs"] = {k: {"value": v} for k, v in outputs.items()}
    return body


def config(**props):
    props.setdefault("config", "#!/bin/sh\necho $foo")
    props.setdefault("inputs", [{"name": "foo"}, {"name": "bar", "default": "dflt"}])
    props.setdefault("outputs", [{"name": "result"}, {"name": "bad", "error_output": True}])
    return {"type": "OS::Heat::SoftwareConfig", "properties": props}


def deployment(kind="OS::Heat::SoftwareDeployment", **props):
    props.setdefault("config", {"get_resource": "cfg"})
    props.setdefault("server", {"get_param": "server"})
    return {"type": kind, "properties": props}


def start(cloud, ctx, name, template, server_id):
    engine = harness.engine(cloud)
    made = engine.create_stack(
        ctx, name, template, {"server": server_id}, {}, {}, {"disable_rollback": True}
    )
    return made["id"]


def create(cloud, ctx, name, template, server_id):
    return harness.wait(cloud, start(cloud, ctx, name, template, server_id))


def outputs(cloud, ctx, stack_id):
    with cloud.cloud.store.read() as db:
        found = harness.engine(cloud).outputs(db, ctx, harness.row(cloud, stack_id))
    return {o["output_key"]: o.get("output_value") for o in found}


def physical(cloud, stack_id, name):
    return harness.resources(cloud, stack_id)[name]["physical_resource_id"]


def sd(api, deployment_id):
    return api.get("orchestration", "/software_deployments/%s" % deployment_id).body[
        "software_deployment"
    ]


def sc(api, config_id):
    return api.get("orchestration", "/software_configs/%s" % config_id).body["software_config"]


def inputs_of(config_body):
    return {i["name"]: i.get("value") for i in config_body["inputs"]}


def wait_in_progress_resource(cloud, stack_id, name):
    """The resource row once it is CREATE_IN_PROGRESS with a physical id."""
    import time

    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        found = harness.resources(cloud, stack_id).get(name)
        if found and found["physical_resource_id"] and found["status"] == "IN_PROGRESS":
            return found
        time.sleep(0.02)
    raise AssertionError("%s never started" % name)


def test_software_config_is_stored_through_the_api(cloud, ctx, api, server_id):
    row = create(
        cloud,
        ctx,
        "configs",
        tmpl(
            {"cfg": config(group="script", options={"o": 1})},
            {"config": {"get_attr": ["cfg", "config"]}},
        ),
        server_id,
    )
    assert row["status"] == "COMPLETE", row["status_reason"]
    body = sc(api, physical(cloud, row["id"], "cfg"))
    assert body["name"].startswith("configs-cfg-")
    assert body["group"] == "script"
    assert body["options"] == {"o": 1}
    assert [i["name"] for i in body["inputs"]] == ["foo", "bar"]
    assert {o["name"]: o["error_output"] for o in body["outputs"]} == {
        "result": False,
        "bad": True,
    }
    assert outputs(cloud, ctx, row["id"]) == {"config": "#!/bin/sh\necho $foo"}
    config_id = body["id"]
    harness.engine(cloud).delete_stack(ctx, row["id"])
    row = harness.wait(cloud, row["id"])
    assert (row["action"], row["status"]) == ("DELETE", "COMPLETE"), row["status_reason"]
    with pytest.raises(ClientError) as gone:
        sc(api, config_id)
    assert gone.value.status == 404


def test_cloud_config_and_multipart_mime(cloud, ctx, api, server_id):
    row = create(
        cloud,
        ctx,
        "mime",
        tmpl(
            {
                "cc": {
                    "type": "OS::Heat::CloudConfig",
                    "properties": {"cloud_config": {"runcmd": ["echo hi"], "a": 1}},
                },
                "mm": {
                    "type": "OS::Heat::MultipartMime",
                    "properties": {
                        "parts": [
                            {"config": {"get_resource": "cc"}},
                            {"config": "#!/bin/sh\necho two", "filename": "two.sh"},
                        ]
                    },
                },
            },
            {"cc": {"get_attr": ["cc", "config"]}, "mm": {"get_attr": ["mm", "config"]}},
        ),
        server_id,
    )
    assert row["status"] == "COMPLETE", row["status_reason"]
    out = outputs(cloud, ctx, row["id"])
    assert out["cc"].startswith("#cloud-config\n")
    assert yaml.safe_load(out["cc"]) == {"runcmd": ["echo hi"], "a": 1}
    message = email.message_from_string(out["mm"])
    assert message.is_multipart()
    parts = [p for p in message.get_payload() if isinstance(p, email.message.Message)]
    assert len(parts) == 2
    first, second = parts
    # the referenced config's text, not its id
    assert first.get_payload() == out["cc"]
    assert second.get_filename() == "two.sh"
    assert second.get_content_subtype() == "two"
    assert second.get_payload() == "#!/bin/sh\necho two"


def test_no_signal_deployment_completes_with_its_derived_config(cloud, ctx, api, server_id):
    row = create(
        cloud,
        ctx,
        "nosignal",
        tmpl(
            {
                "cfg": config(),
                "dep": deployment(
                    signal_transport="NO_SIGNAL", input_values={"foo": "F", "extra": 3}
                ),
            }
        ),
        server_id,
    )
    assert row["status"] == "COMPLETE", row["status_reason"]
    found = sd(api, physical(cloud, row["id"], "dep"))
    assert (found["action"], found["status"]) == ("CREATE", "COMPLETE")
    assert found["status_reason"] == "Not waiting for outputs signal"
    assert found["server_id"] == server_id
    derived = sc(api, found["config_id"])
    values = inputs_of(derived)
    assert values["foo"] == "F"
    assert values["bar"] == "dflt"  # a declared input's default
    assert values["extra"] == 3  # an undeclared input value becomes an input
    assert values["deploy_server_id"] == server_id
    assert values["deploy_action"] == "CREATE"
    assert values["deploy_stack_id"] == "nosignal/%s" % row["id"]
    assert values["deploy_resource_name"] == "dep"
    assert values["deploy_signal_transport"] == "NO_SIGNAL"
    assert "deploy_signal_id" not in values
    # the standalone command sees it on the server
    listed = api.get("orchestration", "/software_deployments", query={"server_id": server_id})
    assert found["id"] in [d["id"] for d in listed.body["software_deployments"]]


def test_temp_url_signal_through_the_object_store(cloud, ctx, api, server_id):
    template = tmpl(
        {"cfg": config(), "dep": deployment(input_values={"foo": "x"})},
        {
            "result": {"get_attr": ["dep", "result"]},
            "stdout": {"get_attr": ["dep", "deploy_stdout"]},
            "code": {"get_attr": ["dep", "deploy_status_code"]},
        },
    )
    stack_id = start(cloud, ctx, "tempurl", template, server_id)
    res = wait_in_progress_resource(cloud, stack_id, "dep")
    found = sd(api, res["physical_resource_id"])
    assert (found["status"], found["status_reason"]) == ("IN_PROGRESS", "Deploy data available")
    values = inputs_of(sc(api, found["config_id"]))
    # the cloud's default transport: TEMP_URL_SIGNAL with a PUT temp URL
    assert values["deploy_signal_transport"] == "TEMP_URL_SIGNAL"
    assert values["deploy_signal_verb"] == "PUT"
    # what the in-server agent does: PUT the result to the URL, no token
    url = urllib.parse.urlsplit(values["deploy_signal_id"])
    target = cloud.url + url.path + "?" + url.query
    request = urllib.request.Request(
        target,
        data=b'{"deploy_status_code": 0, "deploy_stdout": "out", "result": "R"}',
        method="PUT",
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        assert answer.status == 201
    row = harness.wait(cloud, stack_id)
    assert row["status"] == "COMPLETE", row["status_reason"]
    assert outputs(cloud, ctx, stack_id) == {"result": "R", "stdout": "out", "code": 0}


def test_heat_signal_and_a_failed_deployment(cloud, ctx, api, server_id):
    template = tmpl({"cfg": config(), "dep": deployment(signal_transport="HEAT_SIGNAL")})
    stack_id = start(cloud, ctx, "heatsignal", template, server_id)
    res = wait_in_progress_resource(cloud, stack_id, "dep")
    values = inputs_of(sc(api, sd(api, res["physical_resource_id"])["config_id"]))
    assert values["deploy_auth_url"].endswith("/v3")
    assert values["deploy_project_id"] == ctx.project_id
    # no secret is handed to the server
    assert values["deploy_password"] is None
    reason = harness.engine(cloud).signal(
        ctx, stack_id, "dep", {"deploy_status_code": 3, "deploy_stderr": "boom"}
    )
    assert reason == "deployment %s failed (3)" % res["physical_resource_id"]
    row = harness.wait(cloud, stack_id)
    assert (row["action"], row["status"]) == ("CREATE", "FAILED")
    assert (
        "Deployment to server failed: deploy_status_code : Deployment exited with "
        "non-zero status code: 3" in row["status_reason"]
    )


def test_error_output_fails_the_deployment(cloud, ctx, api, server_id):
    template = tmpl({"cfg": config(), "dep": deployment(signal_transport="HEAT_SIGNAL")})
    stack_id = start(cloud, ctx, "erroroutput", template, server_id)
    wait_in_progress_resource(cloud, stack_id, "dep")
    harness.engine(cloud).signal(ctx, stack_id, "dep", {"bad": "it broke"})
    row = harness.wait(cloud, stack_id)
    assert row["status"] == "FAILED"
    assert "Deployment to server failed: bad : it broke" in row["status_reason"]


def test_unknown_attribute_of_a_deployment(cloud, ctx, server_id):
    row = create(
        cloud,
        ctx,
        "attrs",
        tmpl(
            {"cfg": config(), "dep": deployment(signal_transport="NO_SIGNAL")},
            {"r": {"get_attr": ["dep", "result"]}},
        ),
        server_id,
    )
    assert row["status"] == "COMPLETE", row["status_reason"]
    # a declared output not yet signalled is None
    assert outputs(cloud, ctx, row["id"]) == {"r": None}
    stack = harness.engine(cloud)
    from occli.localcloud.orchestration.engine.stack import Stack

    loaded = Stack.load(stack, row["id"])
    with pytest.raises(Exception) as caught:
        loaded.resource("dep").FnGetAtt("nope")
    assert str(caught.value) == "The Referenced Attribute (dep nope) is incorrect."


def test_cfn_signal_fails_as_without_heat_api_cfn(cloud, ctx, server_id):
    row = create(
        cloud,
        ctx,
        "cfn",
        tmpl({"cfg": config(), "dep": deployment(signal_transport="CFN_SIGNAL")}),
        server_id,
    )
    assert row["status"] == "FAILED"
    assert "Could not find requested endpoint in Service Catalog." in row["status_reason"]


def test_update_reruns_the_deployment_and_delete_cleans_up(cloud, ctx, api, server_id):
    def template(foo):
        return tmpl(
            {
                "cfg": config(),
                "dep": deployment(signal_transport="NO_SIGNAL", input_values={"foo": foo}),
            }
        )

    row = create(cloud, ctx, "rerun", template("one"), server_id)
    assert row["status"] == "COMPLETE", row["status_reason"]
    dep_id = physical(cloud, row["id"], "dep")
    first_derived = sd(api, dep_id)["config_id"]
    harness.engine(cloud).update_stack(
        ctx, row["id"], template("two"), {"server": server_id}, {}, {}, {}
    )
    row = harness.wait(cloud, row["id"])
    assert (row["action"], row["status"]) == ("UPDATE", "COMPLETE"), row["status_reason"]
    assert physical(cloud, row["id"], "dep") == dep_id  # updated in place
    found = sd(api, dep_id)
    assert found["action"] == "UPDATE"
    derived = sc(api, found["config_id"])
    assert inputs_of(derived)["foo"] == "two"
    assert inputs_of(derived)["deploy_action"] == "UPDATE"
    with pytest.raises(ClientError):
        sc(api, first_derived)  # the previous derived config is deleted
    source = physical(cloud, row["id"], "cfg")
    harness.engine(cloud).delete_stack(ctx, row["id"])
    row = harness.wait(cloud, row["id"])
    assert (row["action"], row["status"]) == ("DELETE", "COMPLETE"), row["status_reason"]
    for path in (
        "/software_deployments/%s" % dep_id,
        "/software_configs/%s" % found["config_id"],
        "/software_configs/%s" % source,
    ):
        with pytest.raises(ClientError) as gone:
            api.get("orchestration", path)
        assert gone.value.status == 404


def test_replace_on_change_input_replaces_the_deployment(cloud, ctx, api, server_id):
    def template(foo):
        return tmpl(
            {
                "cfg": config(inputs=[{"name": "foo", "replace_on_change": True}]),
                "dep": deployment(signal_transport="NO_SIGNAL", input_values={"foo": foo}),
            }
        )

    row = create(cloud, ctx, "replacing", template("one"), server_id)
    dep_id = physical(cloud, row["id"], "dep")
    harness.engine(cloud).update_stack(
        ctx, row["id"], template("two"), {"server": server_id}, {}, {}, {}
    )
    row = harness.wait(cloud, row["id"])
    assert row["status"] == "COMPLETE", row["status_reason"]
    assert physical(cloud, row["id"], "dep") != dep_id


def test_structured_deployment_substitutes_its_inputs(cloud, ctx, api, server_id):
    structured = {
        "type": "OS::Heat::StructuredConfig",
        "properties": {
            "inputs": [{"name": "who"}],
            "config": {"greet": {"get_input": "who"}, "list": [{"get_input": "missing"}, 2]},
        },
    }
    row = create(
        cloud,
        ctx,
        "structured",
        tmpl(
            {
                "cfg": structured,
                "dep": deployment(
                    "OS::Heat::StructuredDeployment",
                    signal_transport="NO_SIGNAL",
                    input_values={"who": "world"},
                ),
            }
        ),
        server_id,
    )
    assert row["status"] == "COMPLETE", row["status_reason"]
    derived = sc(api, sd(api, physical(cloud, row["id"], "dep"))["config_id"])
    assert derived["config"] == {"greet": "world", "list": [None, 2]}
    # STRICT refuses a missing input with Heat's text
    row = create(
        cloud,
        ctx,
        "strict",
        tmpl(
            {
                "cfg": structured,
                "dep": deployment(
                    "OS::Heat::StructuredDeployment",
                    signal_transport="NO_SIGNAL",
                    input_values={"who": "world"},
                    input_values_validate="STRICT",
                ),
            }
        ),
        server_id,
    )
    assert row["status"] == "FAILED"
    assert "UserParameterMissing" in row["status_reason"]
    assert "The Parameter (missing) was not provided." in row["status_reason"]


@pytest.mark.parametrize(
    "kind,member",
    [
        ("OS::Heat::SoftwareDeploymentGroup", "OS::Heat::SoftwareDeployment"),
        ("OS::Heat::StructuredDeploymentGroup", "OS::Heat::StructuredDeployment"),
    ],
)
def test_deployment_group_deploys_to_each_server(cloud, ctx, api, server_id, kind, member):
    template = tmpl(
        {
            "cfg": config(),
            "group": {
                "type": kind,
                "properties": {
                    "config": {"get_resource": "cfg"},
                    "servers": {"one": {"get_param": "server"}, "two": {"get_param": "server"}},
                    "signal_transport": "HEAT_SIGNAL",
                    "input_values": {"foo": "G"},
                },
            },
        },
        {
            "stdouts": {"get_attr": ["group", "deploy_stdouts"]},
            "results": {"get_attr": ["group", "result"]},
            "one": {"get_attr": ["group", "deploy_status_codes", "one"]},
            "refs": {"get_attr": ["group", "refs_map"]},
        },
    )
    stack_id = start(cloud, ctx, "group-" + member.rsplit(":", 1)[1].lower(), template, server_id)
    nested_id = wait_in_progress_resource(cloud, stack_id, "group")["physical_resource_id"]
    for name in ("one", "two"):
        found_member = wait_in_progress_resource(cloud, nested_id, name)
        assert found_member["type"] == member
        found = sd(api, found_member["physical_resource_id"])
        assert found["server_id"] == server_id
        assert inputs_of(sc(api, found["config_id"]))["foo"] == "G"
        harness.engine(cloud).signal(
            ctx,
            nested_id,
            name,
            {"deploy_status_code": 0, "deploy_stdout": name.upper(), "result": name},
        )
    row = harness.wait(cloud, stack_id)
    assert row["status"] == "COMPLETE", row["status_reason"]
    members = harness.resources(cloud, nested_id)
    assert outputs(cloud, ctx, stack_id) == {
        "stdouts": {"one": "ONE", "two": "TWO"},
        "results": {"one": "one", "two": "two"},
        "one": 0,
        "refs": {n: members[n]["physical_resource_id"] for n in ("one", "two")},
    }
    harness.engine(cloud).delete_stack(ctx, stack_id)
    row = harness.wait(cloud, stack_id)
    assert (row["action"], row["status"]) == ("DELETE", "COMPLETE"), row["status_reason"]
    listed = api.get("orchestration", "/software_deployments", query={"server_id": server_id})
    left = {d["id"] for d in listed.body["software_deployments"]}
    assert not left & {
        r["physical_resource_id"] for r in harness.resources(cloud, nested_id).values()
    }
