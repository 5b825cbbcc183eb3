"""``OS::Heat::Stack`` driven through the engine: a stack of its own made
from the resource's template text and parameters, its outputs and name as
attributes, updated, deleted with its owner, failures as Heat's
``ResourceInError``, and the refusal of another region.
"""

import json

import pytest

from occli.localcloud import errors
from tests.unit.localcloud.heat import harness

INNER = json.dumps(
    {
        "heat_template_version": "2018-08-31",
        "parameters": {"value": {"type": "string", "default": "dflt"}},
        "resources": {
            "step": {"type": "Test::Step", "properties": {"value": {"get_param": "value"}}}
        },
        "outputs": {"value": {"value": {"get_attr": ["step", "value"]}}},
    }
)


def tmpl(props, outputs=None):
    body = {
        "heat_template_version": "2018-08-31",
        "resources": {"remote": {"type": "OS::Heat::Stack", "properties": props}},
    }
    if outputs:
        body["outputs"] = outputs
    return body


ATTRS = {
    "outputs": {"value": {"get_attr": ["remote", "outputs"]}},
    "value": {"value": {"get_attr": ["remote", "outputs", "value"]}},
    "name": {"value": {"get_attr": ["remote", "stack_name"]}},
    "ref": {"value": {"get_resource": "remote"}},
}


@pytest.fixture(scope="module")
def cloud():
    fixture = harness.start()
    yield fixture
    fixture.stop()


@pytest.fixture
def ctx(cloud):
    return harness.context(cloud)


def create(cloud, ctx, name, template):
    made = harness.engine(cloud).create_stack(
        ctx, name, template, {}, {}, {}, {"disable_rollback": True}
    )
    return made["id"]


def outputs(cloud, ctx, stack_id):
    with cloud.cloud.store.read() as db:
        found = harness.engine(cloud).outputs(db, ctx, harness.row(cloud, stack_id))
    return {o["output_key"]: o.get("output_value") for o in found}


def test_a_stack_of_its_own_with_outputs_update_and_delete(cloud, ctx):
    stack_id = create(
        cloud, ctx, "remote-ok", tmpl({"template": INNER, "parameters": {"value": "v1"}}, ATTRS)
    )
    row = harness.wait(cloud, stack_id)
    assert (row["action"], row["status"]) == ("CREATE", "COMPLETE"), row["status_reason"]
    inner_id = harness.resources(cloud, stack_id)["remote"]["physical_resource_id"]
    inner = harness.row(cloud, inner_id)
    # not a nested stack: no owner, depth 0, in the same project
    assert inner["owner_id"] is None and inner["nested_depth"] == 0
    assert inner["project_id"] == ctx.project_id
    assert inner["name"].startswith("remote-ok-remote-")
    assert inner["parameters"] == {"value": "v1"}
    out = outputs(cloud, ctx, stack_id)
    assert out["outputs"] == {"value": "v1"} and out["value"] == "v1"
    assert out["name"] == inner["name"]
    assert out["ref"] == inner_id

    body = tmpl({"template": INNER, "parameters": {"value": "v2"}}, ATTRS)
    harness.engine(cloud).update_stack(ctx, stack_id, body, {}, {}, {}, {})
    row = harness.wait(cloud, stack_id)
    assert (row["action"], row["status"]) == ("UPDATE", "COMPLETE"), row["status_reason"]
    assert harness.resources(cloud, stack_id)["remote"]["physical_resource_id"] == inner_id
    assert harness.row(cloud, inner_id)["action"] == "UPDATE"
    assert outputs(cloud, ctx, stack_id)["value"] == "v2"

    harness.engine(cloud).delete_stack(ctx, stack_id)
    assert harness.wait(cloud, stack_id)["status"] == "COMPLETE"
    inner = harness.row(cloud, inner_id)
    assert (inner["action"], inner["status"]) == ("DELETE", "COMPLETE")
    assert inner["deleted_at"] is not None


def test_a_failed_stack_is_resource_in_error(cloud, ctx):
    failing = json.dumps(
        {
            "heat_template_version": "2018-08-31",
            "resources": {"inner": {"type": "Test::Step", "properties": {"fail": "nope"}}},
        }
    )
    stack_id = create(cloud, ctx, "remote-fail", tmpl({"template": failing}))
    row = harness.wait(cloud, stack_id)
    assert (row["action"], row["status"]) == ("CREATE", "FAILED")
    assert row["status_reason"] == (
        "Resource CREATE failed: ResourceInError: resources.remote: Went to status "
        'CREATE_FAILED due to "Resource CREATE failed: ValueError: resources.inner: nope"'
    )


def test_refusals(cloud, ctx):
    with pytest.raises(errors.BadRequest) as err:
        create(
            cloud,
            ctx,
            "remote-region",
            tmpl({"template": INNER, "context": {"region_name": "RegionTwo"}}),
        )
    assert err.value.message == (
        'Cannot establish connection to Heat endpoint at region "RegionTwo" due to '
        '"Could not find requested endpoint in Service Catalog."'
    )
    with pytest.raises(errors.BadRequest) as err:
        create(
            cloud,
            ctx,
            "remote-secret",
            tmpl({"template": INNER, "context": {"credential_secret_id": "s"}}),
        )
    assert err.value.message.startswith(
        "Cannot establish connection to Heat endpoint at remote cloud due to "
    )
    bad = json.dumps(
        {"heat_template_version": "2018-08-31", "resources": {"x": {"type": "No::Such"}}}
    )
    with pytest.raises(errors.BadRequest) as err:
        create(cloud, ctx, "remote-bad", tmpl({"template": bad}))
    assert err.value.message == (
        'Failed validating stack template using Heat endpoint at region "RegionOne" due to '
        '"ERROR: The Resource Type (No::Such) could not be found."'
    )
    # the region of the cloud itself is accepted
    stack_id = create(
        cloud,
        ctx,
        "remote-here",
        tmpl({"template": INNER, "context": {"region_name": "RegionOne"}}),
    )
    assert harness.wait(cloud, stack_id)["status"] == "COMPLETE"
