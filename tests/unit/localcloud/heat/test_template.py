"""HOT templates: versions, section checks, conditions, definitions,
outputs and the template_versions answers (heat/tests/test_hot.py,
test_template.py, test_conditions.py)."""

import pytest

from occli.localcloud import errors
from occli.localcloud.orchestration.engine import template
from occli.localcloud.orchestration.engine.template import Template
from tests.unit.localcloud.heat.test_functions import FakeStack


def refused(tmpl, call=lambda t: t.validate()):
    with pytest.raises(errors.BadRequest) as exc:
        call(Template(tmpl))
    return exc.value


def test_version_missing_unknown_and_aliases():
    exc = refused({"resources": {}})
    assert exc.message == "The template version is invalid: Template version was not provided"
    assert exc.extra["type"] == "InvalidTemplateVersion"
    exc = refused({"heat_template_version": "2012-01-01"})
    assert exc.message.startswith(
        'The template version is invalid: "heat_template_version: 2012-01-01". '
        '"heat_template_version" should be one of: 2013-05-23, 2014-10-16,'
    )
    assert exc.message.endswith("2021-04-16, newton, ocata, pike, queens, rocky, wallaby")
    assert Template({"heat_template_version": "rocky"}).version == "2018-08-31"


def test_section_and_resource_checks():
    exc = refused({"heat_template_version": "2015-04-30", "conditions": {}})
    assert exc.message == "The template section is invalid: conditions"
    # the engine re-raises heat's InvalidTemplateSection as StackValidationFailed
    assert exc.extra["type"] == "StackValidationFailed"
    v = {"heat_template_version": "2018-08-31"}
    assert refused({**v, "resources": {"r": {"properties": {}}}}).message == (
        "Each resource must contain a type key."
    )
    assert refused({**v, "resources": {"r": {"type": "T", "colour": 1}}}).message == (
        '"colour" is not a valid keyword inside a resource definition'
    )
    assert refused({**v, "outputs": {"o": {"description": "x"}}}).message == (
        "Each output must contain a value key."
    )
    exc = refused({**v, "resources": {"r": {"type": "T", "properties": {"Ref": "x"}}}})
    assert exc.message.endswith("The function Ref is not supported in this version of HOT.")


def test_parameter_schemata_follow_the_version():
    t = Template(
        {
            "heat_template_version": "2017-02-24",
            "parameters": {
                "n": {"type": "number", "constraints": [{"modulo": {"step": 2, "offset": 0}}]}
            },
        }
    )
    assert dict(t.param_schemata()["n"].constraints[0]) == {"modulo": {"step": 2, "offset": 0}}
    exc = refused(
        {
            "heat_template_version": "2016-10-14",
            "parameters": {"n": {"type": "number", "tags": []}},
        }
    )
    assert exc.message == "Invalid key 'tags' for parameter (n)"
    assert exc.extra["type"] == "InvalidSchemaError"


TMPL = {
    "heat_template_version": "2021-04-16",
    "parameters": {"env": {"type": "string", "default": "prod"}},
    "conditions": {
        "is_prod": {"equals": [{"get_param": "env"}, "prod"]},
        "not_prod": {"not": "is_prod"},
        "both": {"and": ["is_prod", {"not": "not_prod"}]},
    },
    "resources": {
        "net": {"type": "OS::Neutron::Net"},
        "port": {
            "type": "OS::Neutron::Port",
            "depends_on": "net",
            "properties": {
                "network": {"get_resource": "net"},
                "name": {"if": ["both", "prod-port", "dev-port"]},
                "tags": ["a", {"if": ["not_prod", "dev"]}],
                "extra": {"if": ["not_prod", "x"]},
            },
        },
        "debug": {"type": "OS::Heat::None", "condition": "not_prod"},
        "server": {
            "type": "OS::Nova::Server",
            "deletion_policy": "retain",
            "metadata": {"dbg": {"get_attr": ["debug", "value"]}},
            "properties": {"port": {"get_attr": ["port", "id"]}},
        },
    },
    "outputs": {
        "name": {"value": {"get_attr": ["port", "name"]}, "description": "The port"},
        "dbg": {"value": {"get_resource": "debug"}, "condition": "not_prod"},
    },
}


def test_definitions_decide_conditions_and_if():
    stack = FakeStack(params={"env": "prod"})
    defs = Template(TMPL).resource_definitions(stack)
    assert set(defs) == {"net", "port", "server"}
    port = defs["port"]
    assert port.properties == {
        "network": {"get_resource": "net"},
        "name": "prod-port",
        "tags": ["a"],
    }
    assert port.dependencies() == {"net"}
    # a reference to a resource whose condition is false is dropped
    assert defs["server"].dependencies() == {"port"}
    assert defs["server"].deletion_policy == "Retain"
    assert defs["server"].as_dict()["metadata"] == {"dbg": {"get_attr": ["debug", "value"]}}

    dev = Template(TMPL).resource_definitions(FakeStack(params={"env": "dev"}))
    assert set(dev) == {"net", "port", "debug", "server"}
    assert dev["port"].properties["name"] == "dev-port"
    assert dev["port"].properties["tags"] == ["a", "dev"]
    assert dev["port"].properties["extra"] == "x"


def test_outputs_carry_condition_and_raw_value():
    outputs = Template(TMPL).outputs(FakeStack(params={"env": "prod"}))
    assert outputs["name"] == {
        "value": {"get_attr": ["port", "name"]},
        "description": "The port",
        "condition": True,
    }
    assert outputs["dbg"] == {
        "value": None,
        "description": "No description given",
        "condition": False,
    }


def test_condition_errors():
    base = {"heat_template_version": "2016-10-14", "resources": {}}
    circular = {**base, "conditions": {"a": {"not": "b"}, "b": {"not": "a"}}}
    circular["resources"] = {"r": {"type": "T", "condition": "a"}}
    exc = refused(circular, lambda t: t.resource_definitions(FakeStack()))
    assert "Circular definition for condition" in exc.message
    unknown = {**base, "resources": {"r": {"type": "T", "condition": "ghost"}}}
    exc = refused(unknown, lambda t: t.resource_definitions(FakeStack()))
    assert exc.message == 'resources.r.condition: Invalid condition "ghost"'
    bad = {**base, "conditions": {"c": {"get_attr": ["r", "x"]}}}
    bad["resources"] = {"r": {"type": "T", "condition": "c"}}
    exc = refused(bad, lambda t: t.resource_definitions(FakeStack()))
    assert exc.message == (
        'conditions.c.get_attr: The function "get_attr" is invalid in this context'
    )
    plain = {
        **base,
        "conditions": {"c": "yes"},
        "resources": {"r": {"type": "T", "condition": "c"}},
    }
    exc = refused(plain, lambda t: t.resource_definitions(FakeStack()))
    assert exc.message == (
        'Condition validation error: The definition of condition "c" is invalid: yes'
    )


def test_undeclared_references_and_bad_fields():
    base = {"heat_template_version": "2018-08-31"}
    ghost = {**base, "resources": {"r": {"type": "T", "depends_on": ["ghost"]}}}
    exc = refused(ghost, lambda t: t.resource_definitions(FakeStack()))
    assert exc.message == 'The specified reference "ghost" (in r) is incorrect.'
    assert exc.extra["type"] == "InvalidTemplateReference"
    props = {**base, "resources": {"r": {"type": "T", "properties": ["x"]}}}
    exc = refused(props, lambda t: t.resource_definitions(FakeStack()))
    assert exc.message == "Resource r properties type must be object"
    policy = {**base, "resources": {"r": {"type": "T", "deletion_policy": "Keep"}}}
    exc = refused(policy, lambda t: t.resource_definitions(FakeStack()))
    assert exc.message == 'Invalid deletion policy "Keep"'


def test_parse_is_bounded_and_needs_a_version():
    assert template.parse("heat_template_version: 2018-08-31\nresources: {}\n") == {
        "heat_template_version": "2018-08-31",
        "resources": {},
    }
    with pytest.raises(errors.BadRequest, match="^Template format version not found.$"):
        template.parse("resources: {}\n")
    with pytest.raises(errors.BadRequest) as exc:
        template.parse("x" * (template.MAX_TEMPLATE_SIZE + 1))
    assert exc.value.extra["type"] == "RequestLimitExceeded"


def test_versions_and_functions_answers():
    versions = Template.versions()
    assert versions[0] == {
        "version": "heat_template_version.2013-05-23",
        "type": "hot",
        "aliases": [],
    }
    assert {
        "version": "heat_template_version.2018-08-31",
        "type": "hot",
        "aliases": ["heat_template_version.rocky"],
    } in versions
    names = [f["functions"] for f in Template.functions("heat_template_version.2014-10-16")]
    assert sorted(names) == sorted(
        [
            "get_attr",
            "get_file",
            "get_param",
            "get_resource",
            "list_join",
            "resource_facade",
            "str_replace",
            "Fn::Select",
        ]
    )
    funcs = Template.functions("heat_template_version.2016-10-14", with_condition_func=True)
    by_name = {f["functions"]: f["description"] for f in funcs}
    assert by_name["equals"] == "A function for comparing whether two values are equal."
    assert by_name["list_join"] == "A function for joining one or more lists of strings."
    with pytest.raises(
        errors.NotFound, match="Template with version heat_template_version.1 not found"
    ):
        Template.functions("heat_template_version.1")
