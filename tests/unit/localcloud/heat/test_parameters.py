"""Template parameters: types, defaults, hidden, constraints, pseudo
parameters and Heat's texts (heat/tests/test_parameters.py)."""

import pytest

from occli.localcloud import errors
from occli.localcloud.orchestration.engine.parameters import Parameters
from occli.localcloud.orchestration.engine.template import Template

PSEUDO = {"OS::stack_name": "demo", "OS::stack_id": "s-1", "OS::project_id": "p-1"}


def params(declared, values=None, defaults=None, checker=None, version="2018-08-31"):
    tmpl = Template({"heat_template_version": version, "parameters": declared})
    return Parameters(tmpl.param_schemata(), values, defaults, PSEUDO, checker)


def refusal(ps):
    with pytest.raises(errors.BadRequest) as exc:
        ps.validate()
    return exc.value


def test_values_are_typed_and_pseudo_parameters_present():
    ps = params(
        {
            "count": {"type": "number", "default": "2"},
            "ratio": {"type": "number"},
            "names": {"type": "comma_delimited_list", "default": "a,b"},
            "conf": {"type": "json", "default": {"k": [1]}},
            "debug": {"type": "boolean", "default": "yes"},
            "name": {"type": "string"},
        },
        {"ratio": "0.5", "name": 7},
    )
    ps.validate()
    assert ps["count"] == 2 and ps["ratio"] == 0.5
    assert ps["names"] == ["a", "b"]
    assert ps["conf"] == {"k": [1]}
    assert ps["debug"] is True
    assert ps["name"] == "7"
    assert ps["OS::stack_name"] == "demo" and ps["OS::stack_id"] == "s-1"
    assert ps["OS::project_id"] == "p-1"


def test_display_is_text_with_hidden_values_masked():
    ps = params(
        {
            "password": {"type": "string", "hidden": True, "default": "secret"},
            "names": {"type": "comma_delimited_list", "default": ["a", "b"]},
            "conf": {"type": "json", "default": {"k": 1}},
            "n": {"type": "number", "default": 3},
        }
    )
    assert ps.display() == {
        "OS::stack_id": "s-1",
        "OS::project_id": "p-1",
        "OS::stack_name": "demo",
        "password": "******",
        "names": "a,b",
        "conf": '{"k": 1}',
        "n": "3",
    }


def test_missing_and_unknown_parameters():
    exc = refusal(params({"key": {"type": "string"}}))
    assert exc.message == "The Parameter (key) was not provided."
    assert exc.extra["type"] == "UserParameterMissing"
    exc = refusal(params({}, {"extra": "x"}))
    assert exc.message == "The Parameter (extra) was not defined in template."
    assert exc.extra["type"] == "UnknownUserParameter"
    with pytest.raises(errors.BadRequest, match=r"^The Parameter \(nope\) was not provided.$"):
        params({})["nope"]


def test_parameter_defaults_from_the_environment_count_as_defaults():
    ps = params({"key": {"type": "string"}}, defaults={"key": "from-env"})
    ps.validate()
    assert ps["key"] == "from-env"
    assert (
        params({"key": {"type": "string", "default": "t"}}, {"key": "u"}, {"key": "e"})["key"]
        == "u"
    )


@pytest.mark.parametrize(
    "declared, value, message",
    [
        (
            {"type": "string", "constraints": [{"allowed_values": ["m1.small", "m1.large"]}]},
            "m1.huge",
            "Parameter 'p' is invalid: "
            '"m1.huge" is not an allowed value ["m1.small", "m1.large"]',
        ),
        (
            {
                "type": "string",
                "constraints": [{"length": {"min": 6}, "description": "Too short"}],
            },
            "abc",
            "Parameter 'p' is invalid: Too short",
        ),
        (
            {"type": "string", "constraints": [{"allowed_pattern": "[a-z]+"}]},
            "Abc",
            'Parameter \'p\' is invalid: "Abc" does not match pattern "[a-z]+"',
        ),
        (
            {"type": "number", "constraints": [{"range": {"min": 1, "max": 10}}]},
            "11",
            "Parameter 'p' is invalid: 11 is out of range (min: 1, max: 10)",
        ),
        (
            {"type": "number", "constraints": [{"modulo": {"step": 2, "offset": 1}}]},
            "4",
            "Parameter 'p' is invalid: 4 is not a multiple of 2 with an offset of 1",
        ),
        (
            {"type": "number"},
            "many",
            "Parameter 'p' is invalid: could not convert string to float: 'many'",
        ),
        (
            {"type": "boolean"},
            "perhaps",
            "Parameter 'p' is invalid: Unrecognized value 'perhaps', acceptable values are: "
            "'0', '1', 'f', 'false', 'n', 'no', 'off', 'on', 't', 'true', 'y', 'yes'",
        ),
        (
            {"type": "json"},
            "{not json",
            "Parameter 'p' is invalid: Value must be valid JSON: Expecting property name "
            "enclosed in double quotes: line 1 column 2 (char 1)",
        ),
        (
            {"type": "comma_delimited_list", "constraints": [{"allowed_values": ["a", "b"]}]},
            "a,c",
            'Parameter \'p\' is invalid: ["a", "c"] is not an allowed value ["a", "b"]',
        ),
    ],
)
def test_constraint_refusals(declared, value, message):
    exc = refusal(params({"p": declared}, {"p": value}))
    assert exc.message == message
    assert exc.extra["type"] == "StackValidationFailed"


def test_custom_constraints_use_the_checker():
    calls = []

    def checker(name, value):
        calls.append((name, value))
        raise ValueError(
            "Error validating value '%s': The Flavor (%s) could not be found." % (value, value)
        )

    declared = {
        "flavor": {"type": "string", "constraints": [{"custom_constraint": "nova.flavor"}]}
    }
    params(declared, {"flavor": "big"}).validate()  # no checker: not checked
    exc = refusal(params(declared, {"flavor": "big"}, checker=checker))
    assert exc.message == (
        "Parameter 'flavor' is invalid: Error validating value 'big': "
        "The Flavor (big) could not be found."
    )
    assert calls == [("nova.flavor", "big")]


def test_invalid_schemata():
    exc = refusal(
        params({"p": {"type": "string", "default": "x", "constraints": [{"length": {"min": 2}}]}})
    )
    assert exc.message == (
        "Parameter 'p' is invalid: "
        "Invalid default x (length (1) is out of range (min: 2, max: None))"
    )
    assert exc.extra["type"] == "InvalidSchemaError"
    with pytest.raises(errors.BadRequest, match=r"^Invalid type \(String\)$"):
        params({"p": {"type": "String"}})
    with pytest.raises(errors.BadRequest, match="^Missing parameter type for parameter: p$"):
        params({"p": {"default": 1}})


def test_immutable_parameters_changed():
    declared = {"p": {"type": "string", "immutable": True}, "q": {"type": "string"}}
    old = params(declared, {"p": "a", "q": "a"})
    assert old.immutable_changed(params(declared, {"p": "b", "q": "b"})) == ["p"]
    assert old.immutable_changed(params(declared, {"p": "a", "q": "b"})) == []
