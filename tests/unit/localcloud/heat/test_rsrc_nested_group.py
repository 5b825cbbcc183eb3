"""``OS::Heat::ResourceGroup`` driven through the engine: the nested stack
of members, index substitution, attributes, resizing, removal policies,
failures with the inner path, delete and the limits Heat checks.

Members are the ``Test::Step`` type of the test plugin directory
(``tests/fixtures/heat/engine_plugins``).
"""

import pytest

from occli.localcloud import errors
from tests.unit.localcloud.heat import harness


def tmpl(resources, outputs=None):
    body = {"heat_template_version": "2018-08-31", "resources": resources}
    if outputs:
        body["outputs"] = outputs
    return body


def group(count=3, **props):
    props.setdefault("resource_def", {"type": "Test::Step", "properties": {"value": "v-%index%"}})
    return {"type": "OS::Heat::ResourceGroup", "properties": {"count": count, **props}}


@pytest.fixture(scope="module")
def cloud():
    fixture = harness.start()
    yield fixture
    fixture.stop()


@pytest.fixture
def ctx(cloud):
    return harness.context(cloud)


def create(cloud, ctx, name, template, **args):
    args.setdefault("disable_rollback", True)
    return harness.engine(cloud).create_stack(ctx, name, template, {}, {}, {}, args)["id"]


def update(cloud, ctx, stack_id, template):
    harness.engine(cloud).update_stack(ctx, stack_id, template, {}, {}, {}, {})
    return harness.wait(cloud, stack_id)


def outputs(cloud, ctx, stack_id):
    with cloud.cloud.store.read() as db:
        row = harness.row(cloud, stack_id)
        found = harness.engine(cloud).outputs(db, ctx, row)
    return {o["output_key"]: o.get("output_error", o.get("output_value")) for o in found}


def nested_id(cloud, stack_id, name="group"):
    return harness.resources(cloud, stack_id)[name]["physical_resource_id"]


ATTRS = {
    "refs": {"value": {"get_attr": ["group", "refs"]}},
    "refs_map": {"value": {"get_attr": ["group", "refs_map"]}},
    "values": {"value": {"get_attr": ["group", "value"]}},
    "one": {"value": {"get_attr": ["group", "resource.1", "value"]}},
    "one_dotted": {"value": {"get_attr": ["group", "resource.1.value"]}},
    "ref_of_two": {"value": {"get_attr": ["group", "resource.2"]}},
    "by_name": {"value": {"get_attr": ["group", "attributes", "value"]}},
    "first_ref": {"value": {"get_attr": ["group", "refs", 0]}},
    "removed": {"value": {"get_attr": ["group", "removed_rsrc_list"]}},
}


def test_members_are_a_nested_stack_with_the_index_substituted(cloud, ctx):
    stack_id = create(cloud, ctx, "grp", tmpl({"group": group()}, ATTRS))
    row = harness.wait(cloud, stack_id)
    assert (row["action"], row["status"]) == ("CREATE", "COMPLETE"), row["status_reason"]
    child = nested_id(cloud, stack_id)
    nested = harness.row(cloud, child)
    assert nested["owner_id"] == stack_id and nested["nested_depth"] == 1
    assert nested["parent_resource"] == "group"
    assert (nested["action"], nested["status"]) == ("CREATE", "COMPLETE")
    assert nested["template"]["heat_template_version"] == "2015-04-30"
    assert nested["template"]["resources"]["2"] == {
        "type": "Test::Step",
        "properties": {"value": "v-2"},
    }
    members = harness.resources(cloud, child)
    assert sorted(members) == ["0", "1", "2"]
    refs = [members[n]["physical_resource_id"] for n in ("0", "1", "2")]
    out = outputs(cloud, ctx, stack_id)
    assert out["refs"] == refs
    assert out["refs_map"] == {"0": refs[0], "1": refs[1], "2": refs[2]}
    assert out["values"] == ["v-0", "v-1", "v-2"]
    assert out["one"] == out["one_dotted"] == "v-1"
    assert out["ref_of_two"] == refs[2]
    assert out["by_name"] == {"0": "v-0", "1": "v-1", "2": "v-2"}
    assert out["first_ref"] == refs[0]
    assert out["removed"] == []


def test_index_var_and_zero_count(cloud, ctx):
    stack_id = create(
        cloud,
        ctx,
        "grp-var",
        tmpl(
            {
                "group": group(
                    count=2,
                    index_var="__n__",
                    resource_def={"type": "Test::Step", "properties": {"value": "n__n__%index%"}},
                ),
                "empty": group(count=0),
            },
            {
                "values": {"value": {"get_attr": ["group", "value"]}},
                "none": {"value": {"get_attr": ["empty", "refs"]}},
            },
        ),
    )
    row = harness.wait(cloud, stack_id)
    assert row["status"] == "COMPLETE", row["status_reason"]
    out = outputs(cloud, ctx, stack_id)
    assert out["values"] == ["n0%index%", "n1%index%"]
    assert out["none"] == []
    assert harness.resources(cloud, nested_id(cloud, stack_id, "empty")) == {}


def test_resize_adds_and_removes_members_and_removal_policies_skip_names(cloud, ctx):
    stack_id = create(cloud, ctx, "grp-size", tmpl({"group": group(count=3)}, ATTRS))
    assert harness.wait(cloud, stack_id)["status"] == "COMPLETE"
    child = nested_id(cloud, stack_id)
    before = harness.resources(cloud, child)

    row = update(cloud, ctx, stack_id, tmpl({"group": group(count=1)}, ATTRS))
    assert (row["action"], row["status"]) == ("UPDATE", "COMPLETE"), row["status_reason"]
    assert nested_id(cloud, stack_id) == child  # updated in place, not replaced
    after = harness.resources(cloud, child)
    assert sorted(after) == ["0"]
    assert after["0"]["id"] == before["0"]["id"]

    row = update(cloud, ctx, stack_id, tmpl({"group": group(count=4)}, ATTRS))
    assert row["status"] == "COMPLETE", row["status_reason"]
    assert sorted(harness.resources(cloud, child)) == ["0", "1", "2", "3"]

    policies = [{"resource_list": ["1"]}]
    row = update(
        cloud, ctx, stack_id, tmpl({"group": group(count=3, removal_policies=policies)}, ATTRS)
    )
    assert row["status"] == "COMPLETE", row["status_reason"]
    members = harness.resources(cloud, child)
    # "1" removed and never reused: the three members are 0, 2 and 3
    assert sorted(members) == ["0", "2", "3"]
    out = outputs(cloud, ctx, stack_id)
    assert out["removed"] == ["1"]
    assert out["values"] == ["v-0", "v-2", "v-3"]

    # a member named by its reference (its refs_map entry) is removed too
    ref_of_3 = members["3"]["physical_resource_id"]
    policies = [{"resource_list": [ref_of_3]}]
    row = update(
        cloud, ctx, stack_id, tmpl({"group": group(count=2, removal_policies=policies)}, ATTRS)
    )
    assert row["status"] == "COMPLETE", row["status_reason"]
    assert sorted(harness.resources(cloud, child)) == ["0", "2"]
    assert outputs(cloud, ctx, stack_id)["removed"] == ["1", "3"]

    # mode "update" replaces the kept names: "1" and "3" may be used again
    row = update(
        cloud,
        ctx,
        stack_id,
        tmpl({"group": group(count=4, removal_policies_mode="update")}, ATTRS),
    )
    assert row["status"] == "COMPLETE", row["status_reason"]
    assert sorted(harness.resources(cloud, child)) == ["0", "1", "2", "3"]
    assert outputs(cloud, ctx, stack_id)["removed"] == []


def test_changing_resource_def_updates_the_members(cloud, ctx):
    stack_id = create(cloud, ctx, "grp-def", tmpl({"group": group(count=2)}, ATTRS))
    assert harness.wait(cloud, stack_id)["status"] == "COMPLETE"
    child = nested_id(cloud, stack_id)
    new_def = {"type": "Test::Step", "properties": {"value": "w-%index%"}}
    row = update(
        cloud, ctx, stack_id, tmpl({"group": group(count=2, resource_def=new_def)}, ATTRS)
    )
    assert row["status"] == "COMPLETE", row["status_reason"]
    assert outputs(cloud, ctx, stack_id)["values"] == ["w-0", "w-1"]
    assert harness.row(cloud, child)["action"] == "UPDATE"


def test_a_member_failure_keeps_the_inner_path(cloud, ctx):
    resource_def = {"type": "Test::Step", "properties": {"fail": "boom"}}
    stack_id = create(cloud, ctx, "grp-fail", tmpl({"group": group(1, resource_def=resource_def)}))
    row = harness.wait(cloud, stack_id)
    assert (row["action"], row["status"]) == ("CREATE", "FAILED")
    assert row["status_reason"] == (
        "Resource CREATE failed: ValueError: resources.group.resources[0]: boom"
    )
    res = harness.resources(cloud, stack_id)["group"]
    assert res["status_reason"] == "ValueError: resources.group.resources[0]: boom"
    nested = harness.row(cloud, res["physical_resource_id"])
    assert (nested["action"], nested["status"]) == ("CREATE", "FAILED")


def test_delete_deletes_the_nested_stack_and_its_members(cloud, ctx):
    stack_id = create(cloud, ctx, "grp-del", tmpl({"group": group(count=2)}))
    assert harness.wait(cloud, stack_id)["status"] == "COMPLETE"
    child = nested_id(cloud, stack_id)
    harness.engine(cloud).delete_stack(ctx, stack_id)
    row = harness.wait(cloud, stack_id)
    assert (row["action"], row["status"]) == ("DELETE", "COMPLETE"), row["status_reason"]
    nested = harness.row(cloud, child)
    assert (nested["action"], nested["status"]) == ("DELETE", "COMPLETE")
    assert nested["deleted_at"] is not None
    events = harness.events(cloud, child)
    deleted = {
        e["resource_name"] for e in events if (e["action"], e["status"]) == ("DELETE", "COMPLETE")
    }
    assert {"0", "1"} <= deleted


def test_rollback_deletes_the_nested_stack(cloud, ctx):
    stack_id = create(
        cloud,
        ctx,
        "grp-roll",
        tmpl(
            {"group": group(count=2), "bad": {"type": "Test::Step", "properties": {"fail": "x"}}}
        ),
        disable_rollback=False,
    )
    row = harness.wait(cloud, stack_id, action="ROLLBACK")
    assert (row["action"], row["status"]) == ("ROLLBACK", "COMPLETE"), row["status_reason"]
    # the group's row is destroyed with the rollback; its events name the nested stack
    made = [e for e in harness.events(cloud, stack_id) if e["resource_name"] == "group"]
    nested = harness.row(cloud, made[-1]["physical_resource_id"])
    assert (nested["action"], nested["status"]) == ("DELETE", "COMPLETE")
    assert nested["deleted_at"] is not None


def test_suspend_and_resume_cascade(cloud, ctx):
    stack_id = create(cloud, ctx, "grp-sus", tmpl({"group": group(count=1)}))
    assert harness.wait(cloud, stack_id)["status"] == "COMPLETE"
    child = nested_id(cloud, stack_id)
    for action in ("suspend", "resume", "check"):
        harness.engine(cloud).stack_action(ctx, stack_id, action)
        row = harness.wait(cloud, stack_id)
        assert (row["action"], row["status"]) == (action.upper(), "COMPLETE"), row["status_reason"]
        nested = harness.row(cloud, child)
        assert (nested["action"], nested["status"]) == (action.upper(), "COMPLETE")


def test_refusals(cloud, ctx):
    with pytest.raises(errors.BadRequest) as err:
        create(cloud, ctx, "grp-bad", tmpl({"group": group(resource_def={"type": "No::Such"})}))
    assert err.value.message == "The Resource Type (No::Such) could not be found."
    with pytest.raises(errors.BadRequest) as err:
        create(cloud, ctx, "grp-neg", tmpl({"group": group(count=-1)}))
    assert err.value.message.startswith("Property error: resources.group.properties.count: ")
    with pytest.raises(errors.BadRequest) as err:
        create(
            cloud,
            ctx,
            "grp-prop",
            tmpl({"group": group(resource_def={"type": "Test::Step", "properties": {"x": 1}})}),
        )
    assert err.value.message == (
        "Property error: resources.group<nested_stack>.resources[0].properties: Unknown Property x"
    )
    # nothing stored for any refusal
    with cloud.cloud.store.read() as db:
        names = {r["name"] for r in db.execute("SELECT name FROM heat_stacks")}
    assert not {"grp-bad", "grp-neg", "grp-prop"} & names


def test_attribute_refusals_are_output_errors(cloud, ctx):
    stack_id = create(
        cloud,
        ctx,
        "grp-attrs",
        tmpl(
            {"group": group(count=1)},
            {
                "all": {"value": {"get_attr": ["group", "attributes"]}},
                "missing": {"value": {"get_attr": ["group", "resource.9"]}},
            },
        ),
    )
    assert harness.wait(cloud, stack_id)["status"] == "COMPLETE"
    out = outputs(cloud, ctx, stack_id)
    assert out["all"] == "The Referenced Attribute (group attributes) is incorrect."
    assert out["missing"] == "Member '9' not found in group resource 'group'."


def test_member_attribute_members_lack_refused(cloud, ctx):
    """A member attribute the members do not have: the nested template's
    output for it fails the group's validation (Heat's
    ``validate_nested_stack`` validates the outputs it writes)."""
    unknown = {"value": {"get_attr": ["group", "nope"]}}
    template = tmpl({"group": group(count=1)}, {"unknown": unknown})
    with pytest.raises(errors.BadRequest) as refused:
        create(cloud, ctx, "grp-unknown", template)
    assert refused.value.extra["type"] == "StackValidationFailed"
    assert refused.value.message == (
        "resources.group<nested_stack>.outputs.nope.value[0].get_attr: "
        "The Referenced Attribute (0 nope) is incorrect."
    )
