"""Heat's engine-side formatters (``engine/formats.py``) over stored rows:
the keys, identities and texts of ``heat/engine/api.py``, checked against
Heat's api-ref samples (tests/fixtures/heat/api-ref) where they show them."""

import json
import pathlib

import pytest

from occli.localcloud.orchestration.engine import formats

API_REF = pathlib.Path(__file__).parents[3] / "fixtures" / "heat" / "api-ref"
STACK_ID = "3095aefc-09fb-4bc7-b1f0-f21a304e864c"
PROJECT = "eb1c63a4f77141548385f113a28f0f52"


def _sample(name):
    return json.loads((API_REF / name).read_text())


def _stack_row(**over):
    row = {
        "id": STACK_ID,
        "name": "simple_stack",
        "project_id": PROJECT,
        "username": "simple_username",
        "owner_id": None,
        "action": "CREATE",
        "status": "COMPLETE",
        "status_reason": "Stack CREATE completed successfully",
        "template": {"heat_template_version": "2018-08-31", "description": "sample stack"},
        "parameters": {},
        "timeout_mins": None,
        "disable_rollback": 1,
        "tags": None,
        "created_at": 1401829186.0,
        "updated_at": None,
        "deleted_at": None,
    }
    row.update(over)
    return row


def test_format_stack_has_the_keys_of_heats_show_sample():
    sample = _sample("stack-show-response.json")["stack"]
    shown = formats.format_stack(_stack_row(), outputs=[])
    # the API turns stack_identity into id + links and drops stack_action
    api_keys = (set(shown) - {"stack_identity", "stack_action"}) | {"id", "links"}
    assert api_keys == set(sample)
    assert shown["creation_time"] == "2014-06-03T20:59:46Z"
    assert shown["description"] == shown["template_description"] == "sample stack"
    assert shown["stack_identity"] == {
        "tenant": PROJECT,
        "stack_name": "simple_stack",
        "stack_id": STACK_ID,
        "path": "",
    }
    assert shown["parameters"] == {
        "OS::project_id": PROJECT,
        "OS::stack_id": STACK_ID,
        "OS::stack_name": "simple_stack",
    }
    assert shown["disable_rollback"] is True
    assert shown["stack_user_project_id"] == PROJECT


def test_format_stack_without_description_and_deleted_has_no_outputs():
    row = _stack_row(template={"heat_template_version": "2018-08-31"})
    assert formats.format_stack(row)["description"] == "No description"
    assert "outputs" not in formats.format_stack(row)
    deleted = _stack_row(action="DELETE", status="COMPLETE")
    assert "outputs" not in formats.format_stack(deleted, outputs=[{"output_key": "a"}])
    preview = formats.format_stack(row, preview=True)
    assert "stack_status" not in preview and "stack_action" not in preview


def test_summary_has_heats_list_keys():
    sample = _sample("stacks-list-response.json")["stacks"][0]
    summary = formats.format_stack_summary(_stack_row())
    api_keys = (set(summary) - {"stack_identity", "stack_action"}) | {"id", "links"}
    assert set(sample) <= api_keys
    assert summary["description"] == ""


def test_url_path_quotes_each_part():
    ident = formats.identity("p", "a b", "id/1")
    assert formats.url_path(ident) == "p/stacks/a%20b/id%2F1"
    res = formats.resource_identity(ident, "server")
    assert res["path"] == "/resources/server"
    assert formats.parent_path(res) == ident
    event = formats.event_identity(ident, "server", "e1")
    assert event["path"] == "/resources/server/events/e1"
    assert formats.parent_path(event) == res


def test_format_stack_resource_required_by_and_nested():
    stack = _stack_row()
    rows = [
        {"name": "a", "requires": []},
        {"name": "b", "requires": ["a"]},
        {"name": "c", "requires": ["a", "b"]},
    ]
    assert formats.required_by("a", rows) == ["b", "c"]
    row = {
        "name": "a",
        "type": "OS::Heat::RandomString",
        "physical_resource_id": None,
        "action": "CREATE",
        "status": "COMPLETE",
        "status_reason": "state changed",
        "metadata": {"k": 1},
        "definition": {"type": "OS::Heat::RandomString"},
        "created_at": 1435244393.0,
        "updated_at": None,
    }
    nested = _stack_row(id="n-1", name="simple_stack-a-x")
    res = formats.format_stack_resource(
        row, stack, ["b"], attributes={"value": "x"}, nested=nested
    )
    assert res["physical_resource_id"] == ""
    assert res["updated_time"] == res["creation_time"] == "2015-06-25T14:59:53Z"
    assert res["resource_identity"]["path"] == "/resources/a"
    assert res["nested_stack_id"]["stack_id"] == "n-1"
    assert res["metadata"] == {"k": 1} and res["attributes"] == {"value": "x"}
    brief = formats.format_stack_resource(row, stack, [], detail=False)
    assert "description" not in brief and "attributes" not in brief


def test_format_event_keys():
    ident = formats.stack_identity(_stack_row())
    row = {
        "id": "e1",
        "resource_name": "port",
        "physical_resource_id": None,
        "action": "CREATE",
        "status": "FAILED",
        "reason": "NotFound: x",
        "resource_type": "OS::Neutron::Port",
        "properties": {"name": "p"},
        "created_at": 1406103287.0,
    }
    event = formats.format_event(row, ident)
    assert event["event_time"] == "2014-07-23T08:14:47Z"
    assert event["event_identity"]["path"] == "/resources/port/events/e1"
    assert event["resource_properties"] == {"name": "p"}
    assert "root_stack_id" not in event
    assert formats.format_event(row, ident, root_stack=ident)["root_stack_id"] == ident


def test_outputs():
    outputs: dict[str, dict[str, object]] = {
        "a": {"description": None, "value": 1},
        "b": {"description": "d", "error": "bad"},
    }
    assert formats.format_stack_outputs(outputs) == [
        {"output_key": "a", "description": "No description given", "output_value": 1},
        {"output_key": "b", "description": "d", "output_value": None, "output_error": "bad"},
    ]
    assert formats.format_stack_outputs(outputs, resolve_value=False)[1] == {
        "output_key": "b",
        "description": "d",
    }


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"timeout_mins": -1}, "Invalid timeout value -1"),
        ({"disable_rollback": "maybe"}, 'Unrecognized value "maybe" for "disable_rollback"'),
        ({"tags": "a"}, "Invalid tags, not a list: a"),
        ({"tags": [1]}, 'Invalid tag, "1" is not a string'),
        ({"tags": ["a,b"]}, 'Invalid tag, "a,b" contains a comma'),
        ({"tags": ["x" * 81]}, "is longer than 80 characters"),
    ],
)
def test_extract_args_refusals(args, message):
    with pytest.raises(ValueError, match=message):
        formats.extract_args(args)


def test_extract_args_values():
    args = formats.extract_args(
        {"timeout_mins": "5", "disable_rollback": "False", "tags": ["a"], "existing": True}
    )
    assert args == {"timeout_mins": 5, "disable_rollback": False, "tags": ["a"], "existing": True}
    assert "timeout_mins" not in formats.extract_args({"timeout_mins": 0})


class _Attrs(dict):
    def __getitem__(self, key):
        value = super().__getitem__(key)
        if isinstance(value, Exception):
            raise value
        return value


class _Resource:
    def __init__(self, attrs):
        self.attributes = _Attrs(attrs)


def test_resource_attributes_show_mapping_or_each():
    res = _Resource({"show": {"id": "x"}, "value": "v"})
    assert formats.format_resource_attributes(res) == {"id": "x"}
    assert formats.format_resource_attributes(res, ["value"]) == {"id": "x", "value": "v"}
    res = _Resource({"show": None, "value": "v", "broken": RuntimeError("no")})
    assert formats.format_resource_attributes(res) == {"value": "v", "broken": None}
