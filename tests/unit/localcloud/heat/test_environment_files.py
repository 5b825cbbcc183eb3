"""Environment files merged by the engine (Heat's ``merge_environments``):
order, merge strategies, the sections, and the refusals."""

import pytest

from occli.localcloud import errors
from occli.localcloud.orchestration.engine import environment_files
from occli.localcloud.orchestration.engine import template
from tests.unit.localcloud.heat import harness

TEMPLATE = {
    "heat_template_version": "2018-08-31",
    "parameters": {
        "name": {"type": "string", "default": "x"},
        "count": {"type": "number", "default": 1},
        "tags": {"type": "comma_delimited_list", "default": ""},
        "extra": {"type": "json", "default": {}},
    },
    "resources": {},
}


def schemata():
    return template.Template(TEMPLATE).param_schemata()


def merge(files, names, env=None):
    env = env or {"parameters": {}, "parameter_defaults": {}, "resource_registry": {}}
    return environment_files.merge_environments(names, files, env, schemata())


def test_later_files_win_and_undeclared_parameters_are_left_out():
    files = {
        "a.yaml": "parameters: {name: one, count: 2, unknown: 1}\n",
        "b.yaml": "parameters: {name: two}\nparameter_defaults: {count: 5}\n",
    }
    env = merge(files, ["a.yaml", "b.yaml"])
    assert env["parameters"] == {"name": "two", "count": 2, "unknown": 1}
    assert env["parameter_defaults"] == {"count": 5}


def test_merge_strategies_join_lists_add_numbers_deep_merge_maps():
    files = {
        "a.yaml": "parameters: {tags: a, extra: {x: {p: 1}}}\n",
        "b.yaml": (
            "parameter_merge_strategies: {tags: merge, extra: deep_merge}\n"
            "parameters: {tags: b, extra: {x: {q: 2}}}\n"
        ),
    }
    with pytest.raises(errors.BadRequest) as err:
        merge(files, ["a.yaml", "b.yaml"])
    # the first file chose overwrite for them: a conflict, as in Heat
    assert err.value.message == (
        "Conflicting merge strategy 'merge' for parameter 'tags' in file 'b.yaml'."
    )
    files["a.yaml"] = (
        "parameter_merge_strategies: {default: merge, extra: deep_merge}\n" + files["a.yaml"]
    )
    env = merge(files, ["a.yaml", "b.yaml"])
    assert env["parameters"] == {"tags": "a,b", "extra": {"x": {"p": 1, "q": 2}}}


def test_a_number_cannot_be_merged_as_in_heat():
    # heat's parse_param takes only sequences or maps: a merged number fails
    files = {
        "a.yaml": "parameter_merge_strategies: {count: merge}\nparameters: {count: 2}\n",
        "b.yaml": "parameter_merge_strategies: {count: merge}\nparameters: {count: 3}\n",
    }
    with pytest.raises(errors.BadRequest) as err:
        merge(files, ["a.yaml", "b.yaml"])
    assert err.value.message == "Invalid parameter in environment ."


def test_the_registry_section_is_merged_as_a_map():
    files = {
        "a.yaml": "resource_registry: {My::A: OS::Heat::None}\n",
        "b.yaml": "resource_registry: {My::B: OS::Heat::Value}\n",
    }
    env = merge(files, ["a.yaml", "b.yaml"], {"resource_registry": {"My::C": "OS::Heat::None"}})
    assert env["resource_registry"] == {
        "My::A": "OS::Heat::None",
        "My::B": "OS::Heat::Value",
        "My::C": "OS::Heat::None",
    }


def test_a_named_file_missing_from_files_is_refused():
    with pytest.raises(errors.BadRequest):
        merge({}, ["nowhere.yaml"])


def test_a_stack_created_with_environment_files_uses_them():
    fixture = harness.start()
    try:
        ctx = harness.context(fixture)
        body = {
            "heat_template_version": "2018-08-31",
            "parameters": {"length": {"type": "number", "default": 8}},
            "resources": {
                "rand": {
                    "type": "My::Random",
                    "properties": {"length": {"get_param": "length"}},
                }
            },
            "outputs": {"value": {"value": {"get_attr": ["rand", "value"]}}},
        }
        files = {
            "file:///env.yaml": (
                "parameter_defaults: {length: 12}\n"
                "resource_registry: {My::Random: OS::Heat::RandomString}\n"
            )
        }
        made = harness.engine(fixture).create_stack(
            ctx, "with-env", body, {}, files, {}, {"environment_files": ["file:///env.yaml"]}
        )
        row = harness.wait(fixture, made["id"])
        assert (row["action"], row["status"]) == ("CREATE", "COMPLETE"), row["status_reason"]
        assert row["environment"]["parameter_defaults"] == {"length": 12}
        assert harness.resources(fixture, made["id"])["rand"]["type"] == "My::Random"
        with fixture.cloud.store.read() as db:
            (out,) = harness.engine(fixture).outputs(db, ctx, row)
        assert len(out["output_value"]) == 12
        value = harness.engine(fixture).export_stack(ctx, made["id"])["resources"]["rand"]
        assert value["type"] == "My::Random"
    finally:
        fixture.stop()
