"""Heat's plain native types in stacks run by the local engine:
``OS::Heat::RandomString``, ``Value``, ``None`` and ``TestResource``."""

import string

import pytest

from occli.localcloud import errors
from occli.localcloud.orchestration.engine import stacks
from tests.unit.localcloud.heat import harness


@pytest.fixture(scope="module")
def cloud():
    fixture = harness.start()
    yield fixture
    fixture.stop()


@pytest.fixture
def ctx(cloud):
    return harness.context(cloud)


def tmpl(resources, outputs=None):
    body = {"heat_template_version": "2018-08-31", "resources": resources}
    if outputs:
        body["outputs"] = {k: {"value": v} for k, v in outputs.items()}
    return body


def create(cloud, ctx, name, template):
    engine = harness.engine(cloud)
    made = engine.create_stack(ctx, name, template, {}, {}, {}, {"disable_rollback": True})
    return harness.wait(cloud, made["id"])


def update(cloud, ctx, row, template):
    harness.engine(cloud).update_stack(ctx, row["id"], template, {}, {}, {}, {})
    return harness.wait(cloud, row["id"])


def outputs(cloud, ctx, row):
    with cloud.cloud.store.read() as db:
        found = harness.engine(cloud).outputs(db, ctx, harness.row(cloud, row["id"]))
    return {o["output_key"]: o.get("output_value") for o in found}


def physical(cloud, row, name):
    return harness.resources(cloud, row["id"])[name]["physical_resource_id"]


def failures(cloud, row):
    return [e["reason"] for e in harness.events(cloud, row["id"]) if e["status"] == "FAILED"]


def test_random_string_meets_its_classes_and_sequences(cloud, ctx):
    row = create(
        cloud,
        ctx,
        "random",
        tmpl(
            {
                "pw": {
                    "type": "OS::Heat::RandomString",
                    "properties": {
                        "length": 20,
                        "character_classes": [{"class": "digits", "min": 5}],
                        "character_sequences": [{"sequence": "!@", "min": 3}],
                    },
                },
                "plain": {"type": "OS::Heat::RandomString"},
            },
            {
                "pw": {"get_attr": ["pw", "value"]},
                "ref": {"get_resource": "pw"},
                "plain": {"get_attr": ["plain", "value"]},
            },
        ),
    )
    assert (row["action"], row["status"]) == ("CREATE", "COMPLETE"), row["status_reason"]
    out = outputs(cloud, ctx, row)
    value = out["pw"]
    assert len(value) == 20
    assert set(value) <= set(string.digits + "!@")
    assert sum(c in string.digits for c in value) >= 5
    assert sum(c in "!@" for c in value) >= 3
    # get_resource gives the string itself (Heat's get_reference_id)
    assert out["ref"] == value
    # the default: 32 letters and digits
    assert len(out["plain"]) == 32 and out["plain"].isalnum()
    # kept redacted in the resource's data
    rid = harness.resources(cloud, row["id"])["pw"]["id"]
    with cloud.cloud.store.read() as db:
        assert stacks.data(db, rid)["value"] == value
        assert "value" in stacks.redacted_keys(db, rid)


def test_random_string_sequence_property_is_a_character_class(cloud, ctx):
    row = create(
        cloud,
        ctx,
        "random-seq",
        tmpl(
            {"pw": {"type": "OS::Heat::RandomString", "properties": {"sequence": "octdigits"}}},
            {"pw": {"get_attr": ["pw", "value"]}},
        ),
    )
    assert row["status"] == "COMPLETE", row["status_reason"]
    assert set(outputs(cloud, ctx, row)["pw"]) <= set(string.octdigits)


def test_random_string_minimums_over_the_length_are_refused(cloud, ctx):
    template = tmpl(
        {
            "pw": {
                "type": "OS::Heat::RandomString",
                "properties": {"length": 4, "character_classes": [{"class": "digits", "min": 5}]},
            }
        }
    )
    with pytest.raises(errors.BadRequest) as caught:
        harness.engine(cloud).create_stack(ctx, "short", template, {}, {}, {}, {})
    assert caught.value.message == (
        "Length property cannot be smaller than combined character class and "
        "character sequence minimums"
    )
    assert caught.value.extra["type"] == "StackValidationFailed"


def test_random_string_salt_change_replaces_it(cloud, ctx):
    def template(salt):
        return tmpl(
            {"pw": {"type": "OS::Heat::RandomString", "properties": {"salt": salt}}},
            {"pw": {"get_attr": ["pw", "value"]}},
        )

    row = create(cloud, ctx, "salted", template("one"))
    before = outputs(cloud, ctx, row)["pw"]
    row = update(cloud, ctx, row, template("two"))
    assert (row["action"], row["status"]) == ("UPDATE", "COMPLETE"), row["status_reason"]
    after = outputs(cloud, ctx, row)["pw"]
    assert len(after) == 32 and after != before


def test_value_is_typed_and_updated_in_place(cloud, ctx):
    def template(value):
        return tmpl(
            {
                "n": {"type": "OS::Heat::Value", "properties": {"type": "number", "value": value}},
                "l": {
                    "type": "OS::Heat::Value",
                    "properties": {"type": "comma_delimited_list", "value": ["a", "b"]},
                },
                "any": {"type": "OS::Heat::Value", "properties": {"value": {"k": [1]}}},
            },
            {
                "n": {"get_attr": ["n", "value"]},
                "l": {"get_attr": ["l", "value"]},
                "any": {"get_attr": ["any", "value", "k", 0]},
            },
        )

    row = create(cloud, ctx, "values", template("5"))
    assert row["status"] == "COMPLETE", row["status_reason"]
    assert outputs(cloud, ctx, row) == {"n": 5, "l": ["a", "b"], "any": 1}
    first = physical(cloud, row, "n")
    row = update(cloud, ctx, row, template("7"))
    assert (row["action"], row["status"]) == ("UPDATE", "COMPLETE"), row["status_reason"]
    assert outputs(cloud, ctx, row)["n"] == 7
    assert physical(cloud, row, "n") == first  # in place, not replaced


def test_value_type_must_be_a_hot_type(cloud, ctx):
    template = tmpl({"v": {"type": "OS::Heat::Value", "properties": {"type": "str", "value": 1}}})
    with pytest.raises(errors.BadRequest) as caught:
        harness.engine(cloud).create_stack(ctx, "badtype", template, {}, {}, {}, {})
    assert "resources.v.properties.type" in caught.value.message


def test_none_takes_any_properties_and_gives_none(cloud, ctx):
    def template(props):
        return tmpl(
            {"stub": {"type": "OS::Heat::None", "properties": props}},
            {"a": {"get_attr": ["stub", "anything"]}},
        )

    row = create(cloud, ctx, "none", template({"flavor": "big", "count": 3}))
    assert row["status"] == "COMPLETE", row["status_reason"]
    assert outputs(cloud, ctx, row) == {"a": None}
    first = physical(cloud, row, "stub")
    row = update(cloud, ctx, row, template({"flavor": "small"}))
    assert row["status"] == "COMPLETE", row["status_reason"]
    assert physical(cloud, row, "stub") == first


def test_test_resource_stores_its_value_and_updates_in_place(cloud, ctx):
    def template(**props):
        return tmpl(
            {"t": {"type": "OS::Heat::TestResource", "properties": props}},
            {"out": {"get_attr": ["t", "output"]}, "ref": {"get_resource": "t"}},
        )

    row = create(cloud, ctx, "testres", template(value="one"))
    assert row["status"] == "COMPLETE", row["status_reason"]
    assert outputs(cloud, ctx, row)["out"] == "one"
    first = physical(cloud, row, "t")
    assert first.startswith("testres-t-")
    row = update(cloud, ctx, row, template(value="two"))
    assert (row["action"], row["status"]) == ("UPDATE", "COMPLETE"), row["status_reason"]
    assert outputs(cloud, ctx, row)["out"] == "two"
    assert physical(cloud, row, "t") == first
    # update_replace: a changed value replaces the resource
    row = update(cloud, ctx, row, template(value="three", update_replace=True))
    assert row["status"] == "COMPLETE", row["status_reason"]
    assert outputs(cloud, ctx, row)["out"] == "three"
    assert physical(cloud, row, "t") != first


def test_test_resource_fail_fails_the_create_with_heats_text(cloud, ctx):
    row = create(
        cloud,
        ctx,
        "failing",
        tmpl({"t": {"type": "OS::Heat::TestResource", "properties": {"fail": True}}}),
    )
    assert (row["action"], row["status"]) == ("CREATE", "FAILED")
    assert "Test Resource failed t" in row["status_reason"]
    assert any("ValueError" in r and "Test Resource failed t" in r for r in failures(cloud, row))


def test_test_resource_waits_its_wait_secs(cloud, ctx):
    row = create(
        cloud,
        ctx,
        "waiting",
        tmpl(
            {
                "slow": {
                    "type": "OS::Heat::TestResource",
                    "properties": {"wait_secs": 30, "action_wait_secs": {"create": 0.3}},
                },
                "after": {"type": "OS::Heat::TestResource", "depends_on": ["slow"]},
            }
        ),
    )
    assert row["status"] == "COMPLETE", row["status_reason"]
    events = [
        e for e in harness.events(cloud, row["id"]) if e["resource_name"] in ("slow", "after")
    ]
    slow_done = next(
        e for e in events if e["resource_name"] == "slow" and e["status"] == "COMPLETE"
    )
    slow_start = next(
        e for e in events if e["resource_name"] == "slow" and e["status"] == "IN_PROGRESS"
    )
    # action_wait_secs' create wins over wait_secs; the wait is really waited
    assert slow_done["created_at"] - slow_start["created_at"] >= 0.3


def test_test_resource_deleted_with_the_stack(cloud, ctx):
    row = create(cloud, ctx, "gone", tmpl({"t": {"type": "OS::Heat::TestResource"}}))
    harness.engine(cloud).delete_stack(ctx, row["id"])
    row = harness.wait(cloud, row["id"])
    assert (row["action"], row["status"]) == ("DELETE", "COMPLETE"), row["status_reason"]
