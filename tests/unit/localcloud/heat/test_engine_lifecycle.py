"""The engine's stack lifecycle (Heat's legacy ``stack_task``): order,
parallelism, failures, rollback, delete, update, actions, cancel, restart.

Resources are the ``Test::Step`` type of the test plugin directory, so
these tests exercise the engine alone; the resource types of the other
services have tests of their own.
"""

import os
import time

import pytest

from occli.localcloud import errors
from occli.localcloud.cloud import Config
from occli.localcloud.cloud import LocalCloud
from occli.localcloud.orchestration.engine import stacks
from tests.unit.localcloud.heat import harness


def tmpl(resources, outputs=None):
    body = {"heat_template_version": "2018-08-31", "resources": resources}
    if outputs:
        body["outputs"] = outputs
    return body


def step(**props):
    return {"type": "Test::Step", "properties": props}


@pytest.fixture(scope="module")
def cloud():
    fixture = harness.start()
    yield fixture
    fixture.stop()


@pytest.fixture
def ctx(cloud):
    return harness.context(cloud)


def create(cloud, ctx, name, template, params=None, **args):
    args.setdefault("disable_rollback", True)
    made = harness.engine(cloud).create_stack(ctx, name, template, params or {}, {}, {}, args)
    return made["id"]


def transitions(events, name):
    return [(e["action"], e["status"]) for e in events if e["resource_name"] == name]


def test_create_in_dependency_order_with_independent_ones_together(cloud, ctx):
    stack_id = create(
        cloud,
        ctx,
        "order",
        tmpl(
            {
                "a": step(value="A", ticks=3),
                "b": step(value="B", ticks=3),
                "c": step(value={"get_attr": ["a", "value"]}),
            },
            outputs={"c": {"value": {"get_attr": ["c", "value"]}}},
        ),
    )
    row = harness.wait(cloud, stack_id)
    assert (row["action"], row["status"]) == ("CREATE", "COMPLETE")
    assert row["status_reason"] == "Stack CREATE completed successfully"
    events = harness.events(cloud, stack_id)
    order = [(e["resource_name"], e["status"]) for e in events]
    # b starts before a is complete (parallel), c only after a completed
    assert order.index(("b", "IN_PROGRESS")) < order.index(("a", "COMPLETE"))
    assert order.index(("a", "COMPLETE")) < order.index(("c", "IN_PROGRESS"))
    # stack-level events first and last (what heatclient's --wait waits for)
    assert (events[0]["resource_name"], events[0]["resource_type"]) == ("order", "OS::Heat::Stack")
    assert events[0]["physical_resource_id"] == stack_id
    assert (events[-1]["action"], events[-1]["status"]) == ("CREATE", "COMPLETE")
    assert events[-1]["reason"] == "Stack CREATE completed successfully"
    res = harness.resources(cloud, stack_id)
    assert {n: (r["action"], r["status"]) for n, r in res.items()} == {
        n: ("CREATE", "COMPLETE") for n in "abc"
    }
    assert res["a"]["physical_resource_id"].startswith("step-")
    with cloud.cloud.store.read() as db:
        outputs = harness.engine(cloud).outputs(db, ctx, row)
    assert outputs[0]["output_key"] == "c" and outputs[0]["output_value"] == "A"


def test_a_failure_fails_the_stack_and_aborts_the_running(cloud, ctx):
    stack_id = create(
        cloud,
        ctx,
        "failing",
        tmpl({"bad": step(fail="boom"), "slow": step(ticks=100000)}),
    )
    row = harness.wait(cloud, stack_id)
    assert (row["action"], row["status"]) == ("CREATE", "FAILED")
    assert row["status_reason"] == "Resource CREATE failed: ValueError: resources.bad: boom"
    res = harness.resources(cloud, stack_id)
    assert res["bad"]["status_reason"] == "ValueError: resources.bad: boom"
    assert (res["slow"]["status"], res["slow"]["status_reason"]) == ("FAILED", "CREATE aborted")


def test_rollback_deletes_what_a_failed_create_made(cloud, ctx):
    stack_id = create(
        cloud,
        ctx,
        "rolled",
        tmpl({"good": step(), "bad": step(fail="no", ticks=2)}),
        disable_rollback=False,
    )
    row = harness.wait(cloud, stack_id, action="ROLLBACK")
    assert (row["action"], row["status"]) == ("ROLLBACK", "COMPLETE")
    # Heat's Resource.destroy: the rows go too, the events stay
    assert harness.resources(cloud, stack_id) == {}
    events = harness.events(cloud, stack_id)
    assert ("good", "DELETE", "COMPLETE") in [
        (e["resource_name"], e["action"], e["status"]) for e in events
    ]


def test_a_cycle_is_refused_and_nothing_stored(cloud, ctx):
    with pytest.raises(errors.BadRequest) as err:
        create(
            cloud,
            ctx,
            "cyclic",
            tmpl(
                {
                    "x": step(value={"get_attr": ["y", "value"]}),
                    "y": step(value={"get_resource": "x"}),
                }
            ),
        )
    assert err.value.extra["type"] == "CircularDependencyException"
    assert err.value.message.startswith("Circular Dependency Found: ")
    with cloud.cloud.store.read() as db, pytest.raises(errors.NotFound):
        stacks.lookup(db, ctx, "cyclic")


def test_a_taken_name_is_heats_conflict(cloud, ctx):
    create(cloud, ctx, "taken", tmpl({}))
    with pytest.raises(errors.Conflict) as err:
        create(cloud, ctx, "taken", tmpl({}))
    assert err.value.message == "The Stack (taken) already exists."


def test_delete_walks_backwards_and_forgets_the_stack(cloud, ctx):
    stack_id = create(
        cloud, ctx, "gone", tmpl({"a": step(), "b": step(value={"get_resource": "a"})})
    )
    harness.wait(cloud, stack_id)
    harness.engine(cloud).delete_stack(ctx, stack_id)
    row = harness.wait(cloud, stack_id)
    assert (row["action"], row["status"]) == ("DELETE", "COMPLETE")
    assert row["deleted_at"] is not None
    deletes = [
        (e["resource_name"], e["status"])
        for e in harness.events(cloud, stack_id)
        if e["action"] == "DELETE"
    ]
    assert deletes.index(("b", "COMPLETE")) < deletes.index(("a", "IN_PROGRESS"))
    assert harness.resources(cloud, stack_id) == {}
    with cloud.cloud.store.read() as db:
        with pytest.raises(errors.NotFound):
            stacks.lookup(db, ctx, "gone")
        assert stacks.get(db, ctx, stack_id, show_deleted=True)["id"] == stack_id


def test_delete_during_create_cancels_it(cloud, ctx):
    stack_id = create(cloud, ctx, "cancelled", tmpl({"slow": step(ticks=100000)}))
    harness.engine(cloud).delete_stack(ctx, stack_id)
    row = harness.wait(cloud, stack_id)
    assert (row["action"], row["status"]) == ("DELETE", "COMPLETE")


def test_update_in_place_replace_add_and_remove(cloud, ctx):
    stack_id = create(
        cloud,
        ctx,
        "updated",
        tmpl(
            {
                "keep": step(value="k"),
                "edit": step(value="1"),
                "swap": step(replace="1"),
                "drop": step(),
            }
        ),
    )
    harness.wait(cloud, stack_id)
    before = harness.resources(cloud, stack_id)
    harness.engine(cloud).update_stack(
        ctx,
        stack_id,
        tmpl(
            {
                "keep": step(value="k"),
                "edit": step(value="2"),
                "swap": step(replace="2"),
                "new": step(),
            }
        ),
        {},
        {},
        {},
        {},
    )
    row = harness.wait(cloud, stack_id)
    assert (row["action"], row["status"]) == ("UPDATE", "COMPLETE"), row["status_reason"]
    after = harness.resources(cloud, stack_id)
    assert set(after) == {"keep", "edit", "swap", "new"}
    assert after["keep"]["id"] == before["keep"]["id"]
    assert after["edit"]["physical_resource_id"] == before["edit"]["physical_resource_id"]
    assert after["swap"]["physical_resource_id"] != before["swap"]["physical_resource_id"]
    events = harness.events(cloud, stack_id)
    # unchanged resources have no update events
    assert ("UPDATE", "IN_PROGRESS") not in transitions(events, "keep")
    assert ("UPDATE", "COMPLETE") in transitions(events, "edit")
    assert ("DELETE", "COMPLETE") in transitions(events, "drop")
    with cloud.cloud.store.read() as db:
        assert stacks.data(db, after["edit"]["id"])["updated"] == "2"


def test_patch_keeps_the_template_and_changes_a_parameter(cloud, ctx):
    template = tmpl({"a": step(value={"get_param": "v"})})
    template["parameters"] = {"v": {"type": "string"}}
    stack_id = create(cloud, ctx, "patched", template, {"v": "one"})
    harness.wait(cloud, stack_id)
    harness.engine(cloud).update_stack(
        ctx, stack_id, None, {"v": "two"}, {}, {}, {}, existing=True
    )
    row = harness.wait(cloud, stack_id)
    assert (row["action"], row["status"]) == ("UPDATE", "COMPLETE"), row["status_reason"]
    assert row["parameters"]["v"] == "two"
    assert row["template"] == template


def test_suspend_resume_and_check(cloud, ctx):
    stack_id = create(cloud, ctx, "paused", tmpl({"a": step()}))
    harness.wait(cloud, stack_id)
    for action in ("suspend", "resume", "check"):
        harness.engine(cloud).stack_action(ctx, stack_id, action)
        row = harness.wait(cloud, stack_id)
        assert (row["action"], row["status"]) == (action.upper(), "COMPLETE")
        reason = "Stack %s completed successfully" % action.upper()
        if action == "check":  # the test type has no handle_check of its own
            reason += ". 'CHECK' not fully supported (see resources)"
        assert row["status_reason"] == reason


def test_an_action_in_progress_refuses_another(cloud, ctx):
    stack_id = create(cloud, ctx, "busy", tmpl({"slow": step(ticks=100000)}))
    with pytest.raises(errors.Conflict) as err:
        harness.engine(cloud).stack_action(ctx, stack_id, "suspend")
    assert err.value.message == "Stack busy already has an action (CREATE) in progress."
    harness.engine(cloud).delete_stack(ctx, stack_id)
    harness.wait(cloud, stack_id)


def test_many_stacks_progress_at_once(cloud, ctx):
    ids = [create(cloud, ctx, "many%d" % i, tmpl({"a": step(ticks=5)})) for i in range(40)]
    rows = [harness.wait(cloud, i) for i in ids]
    assert {(r["action"], r["status"]) for r in rows} == {("CREATE", "COMPLETE")}


def test_another_project_finds_no_stack(cloud, ctx):
    stack_id = create(cloud, ctx, "private", tmpl({}))
    other = harness.context(cloud, "local-alt")
    with cloud.cloud.store.read() as db, pytest.raises(errors.NotFound):
        stacks.get(db, other, stack_id)
    with pytest.raises(errors.NotFound):
        harness.engine(cloud).delete_stack(other, stack_id)


def test_a_restarted_cloud_fails_what_was_in_progress(tmp_path):
    config = Config(
        data_dir=str(tmp_path), port=0, heat_plugin_dirs=[os.path.abspath(harness.PLUGINS)]
    )
    first = LocalCloud(config)
    ctx = harness.demo_context(first)
    try:
        made = first.orchestration.engine.create_stack(
            ctx, "interrupted", tmpl({"slow": step(ticks=100000)}), {}, {}, {}, {}
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with first.store.read() as db:
                if "slow" in stacks.stack_resources(db, made["id"]):
                    break
            time.sleep(0.01)
    finally:
        first.close()
    second = LocalCloud(config)
    try:
        with second.store.read() as db:
            row = stacks.by_id(db, made["id"])
            res = stacks.stack_resources(db, made["id"])
            last = stacks.events(db, made["id"])[-1]
        assert (row["action"], row["status"]) == ("CREATE", "FAILED")
        assert row["status_reason"] == "Engine went down during stack CREATE"
        assert res["slow"]["status"] == "FAILED"
        assert (last["resource_name"], last["status"]) == ("interrupted", "FAILED")
    finally:
        second.close()


def test_a_stack_over_its_timeout_fails(cloud, ctx):
    # timeout_mins is whole minutes through the API; the engine takes any
    # number, so a test need not wait a minute
    stack_id = create(cloud, ctx, "late", tmpl({"slow": step(ticks=100000)}), timeout_mins=0.002)
    row = harness.wait(cloud, stack_id)
    assert (row["action"], row["status"], row["status_reason"]) == (
        "CREATE",
        "FAILED",
        "Create timed out",
    )
    assert harness.resources(cloud, stack_id)["slow"]["status_reason"] == "CREATE aborted"


def test_an_action_that_crashes_fails_its_stack_instead_of_hanging(cloud, ctx):
    from occli.localcloud.orchestration.engine import actions

    stack_id = create(cloud, ctx, "crashing", tmpl({"a": step()}))
    harness.wait(cloud, stack_id)
    with cloud.cloud.store.transaction() as db:
        stacks.update(db, stack_id, action="UPDATE", status="IN_PROGRESS")

    def broken():
        yield 0.0
        raise RuntimeError("a bug")

    list(actions.guarded(harness.engine(cloud), stack_id, broken()))
    row = harness.row(cloud, stack_id)
    assert (row["action"], row["status"], row["status_reason"]) == (
        "UPDATE",
        "FAILED",
        "RuntimeError: a bug",
    )
    assert harness.events(cloud, stack_id)[-1]["reason"] == "RuntimeError: a bug"
