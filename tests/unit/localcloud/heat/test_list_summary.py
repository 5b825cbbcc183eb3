"""``GET /stacks`` reads only the summary columns of each stack (issue 26:
1,000 stacks listed without decoding their templates): what it lists is
still what Heat's ``format_stack_db_object`` makes of the whole row, for
a tagged stack, a nested one and an updated one."""

import pytest

from occli.localcloud.orchestration.engine import formats
from occli.localcloud.orchestration.engine import stacks
from tests.unit.localcloud.heat import harness
from tests.unit.localcloud.heat.test_api_stacks import Api

GROUP = {
    "heat_template_version": "2018-08-31",
    "resources": {
        "group": {
            "type": "OS::Heat::ResourceGroup",
            "properties": {"count": 2, "resource_def": {"type": "OS::Heat::None"}},
        }
    },
}


@pytest.fixture(scope="module")
def fixture():
    fx = harness.start()
    yield fx
    fx.stop()


@pytest.fixture(scope="module")
def made(fixture):
    api = Api(fixture)
    tagged = api.create("tagged", tags="a,b")
    api.wait("tagged", tagged)
    group = api.create("group", GROUP)
    api.wait("group", group)
    updated = api.create("updated")
    api.wait("updated", updated)
    r = api.call("PATCH", "/stacks/updated/%s" % updated, json={"parameters": {"n": 9}})
    assert r.status_code == 202, r.text
    api.wait("updated", updated)
    return api, {"tagged": tagged, "group": group, "updated": updated}


def test_the_summary_reads_no_template(fixture, made):
    with fixture.cloud.store.read() as db:
        rows = stacks.page(db, harness.context(fixture), summary=True)
    assert rows
    for row in rows:
        assert set(row) == set(stacks.SUMMARY_COLUMNS)


def test_each_listed_stack_is_the_summary_of_its_whole_row(fixture, made):
    api, ids = made
    listed = api.call("GET", "/stacks?show_nested=true").json()["stacks"]
    assert {s["id"] for s in listed} >= set(ids.values())
    assert len(listed) == len(ids) + 1  # the group's nested stack
    with fixture.cloud.store.read() as db:
        whole = {s["id"]: stacks.by_id(db, s["id"]) for s in listed}
    for stack in listed:
        row = whole[stack["id"]]
        assert row is not None
        expected = formats.format_stack_summary(row)
        assert stack["stack_name"] == expected["stack_name"]
        assert stack["tags"] == expected["tags"]
        assert stack["parent"] == expected["parent"]
        assert stack["stack_owner"] == expected["stack_owner"]
        assert stack["creation_time"] == expected["creation_time"]
        assert stack["updated_time"] == expected["updated_time"]
        assert stack["stack_status"] == "_".join(
            (expected["stack_action"], expected["stack_status"])
        )
        assert stack["stack_status_reason"] == expected["stack_status_reason"]
    by_name = {s["stack_name"]: s for s in listed}
    assert by_name["tagged"]["tags"] == ["a", "b"]
    assert by_name["updated"]["stack_status"] == "UPDATE_COMPLETE"
    assert by_name["updated"]["updated_time"] is not None
    nested = [s for s in listed if s["parent"] == ids["group"]]
    assert len(nested) == 1


def test_the_detail_lists_every_key_of_the_summary(fixture, made):
    api, ids = made
    listed = api.call("GET", "/stacks/detail").json()["stacks"]
    with fixture.cloud.store.read() as db:
        whole = stacks.by_id(db, ids["tagged"])
    assert whole is not None
    shown = next(s for s in listed if s["id"] == ids["tagged"])
    expected = formats.format_stack_summary(whole)
    assert shown["stack_user_project_id"] == expected["stack_user_project_id"]
    assert shown["tags"] == ["a", "b"]
    assert shown["deletion_time"] is None
