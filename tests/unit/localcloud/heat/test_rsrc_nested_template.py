"""Template resources driven through the engine: a type that is a
template of the request's ``files`` (named directly, or mapped by an
environment, alone or as a group's members) becomes a nested stack whose
parameters are the resource's properties and whose outputs are its
attributes; Heat's recursion limit and validation paths.
"""

import json

import pytest

from occli.localcloud import errors
from tests.unit.localcloud.heat import harness

STEP_YAML = """
heat_template_version: 2018-08-31
description: one step
parameters:
  value:
    type: string
  names:
    type: comma_delimited_list
    default: []
  extra:
    type: json
    default: {}
resources:
  step:
    type: Test::Step
    properties:
      value: {get_param: value}
outputs:
  value:
    description: the step's value
    value: {get_attr: [step, value]}
  names:
    value: {get_param: names}
  extra:
    value: {get_param: extra}
"""

WITH_ID_YAML = """
heat_template_version: 2018-08-31
resources:
  step:
    type: Test::Step
outputs:
  OS::stack_id:
    value: {get_resource: step}
"""

SELF_YAML = """
heat_template_version: 2018-08-31
resources:
  again:
    type: self.yaml
"""


def tmpl(resources, outputs=None):
    body = {"heat_template_version": "2018-08-31", "resources": resources}
    if outputs:
        body["outputs"] = outputs
    return body


@pytest.fixture(scope="module")
def cloud():
    fixture = harness.start()
    yield fixture
    fixture.stop()


@pytest.fixture
def ctx(cloud):
    return harness.context(cloud)


FILES = {"step.yaml": STEP_YAML, "with_id.yaml": WITH_ID_YAML, "self.yaml": SELF_YAML}


def create(cloud, ctx, name, template, environment=None, files=FILES):
    made = harness.engine(cloud).create_stack(
        ctx, name, template, {}, files, environment or {}, {"disable_rollback": True}
    )
    return made["id"]


def outputs(cloud, ctx, stack_id):
    with cloud.cloud.store.read() as db:
        found = harness.engine(cloud).outputs(db, ctx, harness.row(cloud, stack_id))
    return {o["output_key"]: o.get("output_value", o.get("output_error")) for o in found}


def test_a_file_type_is_a_nested_stack_of_its_properties(cloud, ctx):
    stack_id = create(
        cloud,
        ctx,
        "tr",
        tmpl(
            {
                "res": {
                    "type": "step.yaml",
                    "properties": {"value": "hello", "names": ["a", "b"], "extra": {"k": 1}},
                }
            },
            {
                "value": {"value": {"get_attr": ["res", "value"]}},
                "names": {"value": {"get_attr": ["res", "names"]}},
                "extra": {"value": {"get_attr": ["res", "extra", "k"]}},
                "inner": {"value": {"get_attr": ["res", "resource.step", "value"]}},
                "ref": {"value": {"get_resource": "res"}},
            },
        ),
    )
    row = harness.wait(cloud, stack_id)
    assert (row["action"], row["status"]) == ("CREATE", "COMPLETE"), row["status_reason"]
    res = harness.resources(cloud, stack_id)["res"]
    assert res["type"] == "step.yaml"
    nested = harness.row(cloud, res["physical_resource_id"])
    assert nested["owner_id"] == stack_id and nested["parent_resource"] == "res"
    assert nested["parameters"] == {"value": "hello", "names": "a,b", "extra": {"k": 1}}
    assert harness.resources(cloud, nested["id"])["step"]["status"] == "COMPLETE"
    out = outputs(cloud, ctx, stack_id)
    assert out["value"] == "hello"
    assert out["names"] == ["a", "b"]
    assert out["extra"] == 1
    assert out["inner"] == "hello"
    # no OS::stack_id output: the nested stack's ARN
    assert out["ref"] == "arn:openstack:heat::%s:stacks/%s/%s" % (
        ctx.project_id,
        nested["name"],
        nested["id"],
    )


def test_the_stack_id_output_is_the_reference(cloud, ctx):
    stack_id = create(
        cloud,
        ctx,
        "tr-id",
        tmpl({"res": {"type": "with_id.yaml"}}, {"ref": {"value": {"get_resource": "res"}}}),
    )
    assert harness.wait(cloud, stack_id)["status"] == "COMPLETE"
    nested_id = harness.resources(cloud, stack_id)["res"]["physical_resource_id"]
    step = harness.resources(cloud, nested_id)["step"]
    assert outputs(cloud, ctx, stack_id)["ref"] == step["physical_resource_id"]


def test_an_environment_alias_and_a_group_of_template_resources(cloud, ctx):
    env = {"resource_registry": {"My::Step": "step.yaml"}}
    stack_id = create(
        cloud,
        ctx,
        "tr-group",
        tmpl(
            {
                "group": {
                    "type": "OS::Heat::ResourceGroup",
                    "properties": {
                        "count": 2,
                        "resource_def": {"type": "My::Step", "properties": {"value": "m%index%"}},
                    },
                }
            },
            {"values": {"value": {"get_attr": ["group", "value"]}}},
        ),
        environment=env,
    )
    row = harness.wait(cloud, stack_id)
    assert (row["action"], row["status"]) == ("CREATE", "COMPLETE"), row["status_reason"]
    assert outputs(cloud, ctx, stack_id)["values"] == ["m0", "m1"]
    group_stack = harness.resources(cloud, stack_id)["group"]["physical_resource_id"]
    members = harness.resources(cloud, group_stack)
    assert {m["type"] for m in members.values()} == {"My::Step"}
    leaf = harness.row(cloud, members["1"]["physical_resource_id"])
    assert leaf["nested_depth"] == 2 and leaf["parameters"] == {"value": "m1"}
    # the group's nested stack keeps the registry that maps the type; the
    # template's own stack does not (Heat's item_to_remove: no recursion)
    registry = harness.row(cloud, group_stack)["environment"]["resource_registry"]
    assert registry["My::Step"] == "step.yaml"
    assert "My::Step" not in leaf["environment"]["resource_registry"]


def test_an_update_of_a_property_updates_the_nested_stack(cloud, ctx):
    body = tmpl(
        {"res": {"type": "step.yaml", "properties": {"value": "one"}}},
        {"value": {"value": {"get_attr": ["res", "value"]}}},
    )
    stack_id = create(cloud, ctx, "tr-upd", body)
    assert harness.wait(cloud, stack_id)["status"] == "COMPLETE"
    nested_id = harness.resources(cloud, stack_id)["res"]["physical_resource_id"]
    body["resources"]["res"]["properties"]["value"] = "two"
    harness.engine(cloud).update_stack(ctx, stack_id, body, {}, FILES, {}, {})
    row = harness.wait(cloud, stack_id)
    assert (row["action"], row["status"]) == ("UPDATE", "COMPLETE"), row["status_reason"]
    assert harness.resources(cloud, stack_id)["res"]["physical_resource_id"] == nested_id
    nested = harness.row(cloud, nested_id)
    assert (nested["action"], nested["status"]) == ("UPDATE", "COMPLETE")
    assert nested["parameters"]["value"] == "two"
    assert outputs(cloud, ctx, stack_id)["value"] == "two"


def test_a_changed_template_file_alone_reaches_the_nested_stack(cloud, ctx):
    body = tmpl({"res": {"type": "with_id.yaml"}})
    stack_id = create(cloud, ctx, "tr-file", body)
    assert harness.wait(cloud, stack_id)["status"] == "COMPLETE"
    nested_id = harness.resources(cloud, stack_id)["res"]["physical_resource_id"]
    files = dict(FILES)
    files["with_id.yaml"] = WITH_ID_YAML.replace(
        "outputs:", "  second:\n    type: Test::Step\noutputs:"
    )
    harness.engine(cloud).update_stack(ctx, stack_id, body, {}, files, {}, {})
    row = harness.wait(cloud, stack_id)
    assert (row["action"], row["status"]) == ("UPDATE", "COMPLETE"), row["status_reason"]
    harness.wait(cloud, nested_id)
    assert set(harness.resources(cloud, nested_id)) == {"step", "second"}


def test_a_nested_failure_and_delete(cloud, ctx):
    files = dict(FILES)
    files["bad.yaml"] = json.dumps(
        tmpl({"inner": {"type": "Test::Step", "properties": {"fail": "no luck"}}})
    )
    stack_id = create(cloud, ctx, "tr-fail", tmpl({"res": {"type": "bad.yaml"}}), files=files)
    row = harness.wait(cloud, stack_id)
    assert (row["action"], row["status"]) == ("CREATE", "FAILED")
    assert row["status_reason"] == (
        "Resource CREATE failed: ValueError: resources.res.resources.inner: no luck"
    )
    nested_id = harness.resources(cloud, stack_id)["res"]["physical_resource_id"]
    harness.engine(cloud).delete_stack(ctx, stack_id)
    assert harness.wait(cloud, stack_id)["status"] == "COMPLETE"
    assert harness.row(cloud, nested_id)["deleted_at"] is not None


def test_refusals_name_the_path_through_the_tree(cloud, ctx):
    with pytest.raises(errors.BadRequest) as err:
        create(cloud, ctx, "tr-unknown", tmpl({"res": {"type": "step.yaml", "properties": {}}}))
    assert err.value.message == (
        "Property error: resources.res.properties: Property value not assigned"
    )
    with pytest.raises(errors.BadRequest) as err:
        create(
            cloud,
            ctx,
            "tr-extra",
            tmpl({"res": {"type": "step.yaml", "properties": {"value": "v", "nope": 1}}}),
        )
    assert err.value.message == "Property error: resources.res.properties: Unknown Property nope"
    with pytest.raises(errors.BadRequest) as err:
        create(cloud, ctx, "tr-self", tmpl({"top": {"type": "self.yaml"}}))
    # Heat validates the whole tree from the root: six levels down, refused
    path = "resources.top<self.yaml>" + ".resources.again<self.yaml>" * 5
    assert err.value.message == (
        "RequestLimitExceeded: %s: Request limit exceeded: Recursion depth exceeds 5." % path
    )
    assert err.value.extra["type"] == "StackValidationFailed"


def test_a_parameter_default_from_the_environment_is_not_required(cloud, ctx):
    stack_id = create(
        cloud,
        ctx,
        "tr-defaults",
        tmpl({"res": {"type": "step.yaml"}}, {"value": {"value": {"get_attr": ["res", "value"]}}}),
        environment={"parameter_defaults": {"value": "from-env"}},
    )
    row = harness.wait(cloud, stack_id)
    assert row["status"] == "COMPLETE", row["status_reason"]
    assert outputs(cloud, ctx, stack_id)["value"] == "from-env"


def test_a_template_standing_in_for_a_type_must_match_its_interface(cloud, ctx):
    # Test::Step has the attribute "made" which step.yaml has no output for
    env = {"resource_registry": {"Test::Step": "step.yaml"}}
    body = tmpl({"res": {"type": "Test::Step", "properties": {"value": "v"}}})
    with pytest.raises(errors.BadRequest) as err:
        create(cloud, ctx, "tr-facade", body, environment=env)
    assert err.value.message == "Attribute made for facade Test::Step missing in provider"
    files = dict(FILES)
    files["typed.yaml"] = json.dumps(
        {
            "heat_template_version": "2018-08-31",
            "parameters": {"value": {"type": "number"}},
            "outputs": {"value": {"value": 1}, "made": {"value": 2}},
        }
    )
    env = {"resource_registry": {"Test::Step": "typed.yaml"}}
    with pytest.raises(errors.BadRequest) as err:
        numeric = tmpl({"res": {"type": "Test::Step", "properties": {"value": "1"}}})
        create(cloud, ctx, "tr-facade-type", numeric, environment=env, files=files)
    assert err.value.message == (
        "Property value type mismatch between facade Test::Step (String) and provider (Number)"
    )
    files["fits.yaml"] = json.dumps(
        {
            "heat_template_version": "2018-08-31",
            "parameters": {"value": {"type": "string"}},
            "outputs": {"value": {"value": {"get_param": "value"}}, "made": {"value": 2}},
        }
    )
    env = {"resource_registry": {"Test::Step": "fits.yaml"}}
    stack_id = create(cloud, ctx, "tr-facade-ok", body, environment=env, files=files)
    row = harness.wait(cloud, stack_id)
    assert row["status"] == "COMPLETE", row["status_reason"]
    res = harness.resources(cloud, stack_id)["res"]
    assert harness.row(cloud, res["physical_resource_id"])["parameters"] == {"value": "v"}
