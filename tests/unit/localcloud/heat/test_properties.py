"""Property, attribute and constraint schemas: Heat's coercions and texts.

Cases follow heat/tests/test_properties.py, test_constraints.py and
test_attributes.py.
"""

import pytest

from occli.localcloud import errors
from occli.localcloud.orchestration.engine import attributes
from occli.localcloud.orchestration.engine import constraints as constr
from occli.localcloud.orchestration.engine import properties
from occli.localcloud.orchestration.engine.properties import Schema


def refusal(schema, data, name="res"):
    with pytest.raises(errors.BadRequest) as exc:
        properties.Properties(schema, data, resource_name=name).validate()
    assert exc.value.extra["type"] == "StackValidationFailed"
    return exc.value.message


# -- constraints -----------------------------------------------------------


@pytest.mark.parametrize(
    "constraint, value, message",
    [
        (constr.Range(min=1, max=5), 6, "6 is out of range (min: 1, max: 5)"),
        (constr.Range(min=1), 0, "0 is out of range (min: 1, max: None)"),
        (constr.Length(max=3), "abcd", "length (4) is out of range (min: None, max: 3)"),
        (constr.Modulo(step=2, offset=1), 4, "4 is not a multiple of 2 with an offset of 1"),
        (
            constr.AllowedValues(["a", "b"]),
            "c",
            '"c" is not an allowed value ["a", "b"]',
        ),
        (constr.AllowedPattern("[a-z]+"), "ab1", '"ab1" does not match pattern "[a-z]+"'),
        (constr.Range(max=2, description="Too big"), 3, "Too big"),
    ],
)
def test_constraint_refusals_carry_heats_text(constraint, value, message):
    with pytest.raises(ValueError) as exc:
        constraint.validate(value)
    assert str(exc.value) == message


def test_constraints_accept_what_they_allow():
    constr.Range(min=1, max=5).validate("3")
    constr.Length(min=1).validate([1])
    constr.Modulo(step=2, offset=1).validate(5)
    constr.AllowedValues(["a"]).validate(["a", "a"])
    constr.AllowedPattern("[a-z]+").validate("abc")


def test_allowed_values_compare_in_the_schemas_type():
    schema = constr.Schema(constr.Schema.NUMBER, constraints=[constr.AllowedValues([1, 2])])
    schema.validate_constraints("2")
    with pytest.raises(ValueError, match=r'^"3" is not an allowed value \[1, 2\]$'):
        schema.validate_constraints("3")


@pytest.mark.parametrize(
    "build, message",
    [
        (lambda: constr.Range(), "A range constraint must have a min value and/or"),
        (
            lambda: constr.Length(min=1.5),  # type: ignore[arg-type]
            "min/max length must be integral",
        ),
        (lambda: constr.Modulo(step=0, offset=0), "step cannot be 0."),
        (lambda: constr.Modulo(step=2, offset=3), "offset must be smaller"),
        (lambda: constr.AllowedValues("ab"), "AllowedValues must be a list"),
        (lambda: constr.Schema("Text"), r"Invalid type \(Text\)"),
        (
            lambda: Schema(Schema.STRING, constraints=[constr.Range(min=1)]),
            "Range constraint invalid for String",
        ),
        (
            lambda: Schema(Schema.STRING, default="x", constraints=[constr.Length(min=2)]),
            r"Invalid default x \(length \(1\) is out of range",
        ),
        (
            lambda: Schema(Schema.STRING, update_allowed=True, immutable=True),
            "Options UpdateAllowed and Immutable cannot both be True",
        ),
    ],
)
def test_invalid_schemata_are_refused(build, message):
    with pytest.raises(constr.InvalidSchemaError, match=message):
        build()


def test_custom_constraint_uses_the_checker_and_its_description():
    seen = []

    def checker(name, value):
        seen.append((name, value))
        raise ValueError(
            "Error validating value 'm1.huge': The Flavor (m1.huge) could not be found."
        )

    constraint = constr.CustomConstraint("nova.flavor")
    constraint.validate("m1.huge")  # no checker: skipped
    with pytest.raises(ValueError, match="^Error validating value 'm1.huge': The Flavor"):
        constraint.validate("m1.huge", checker=checker)
    with pytest.raises(ValueError, match="^Pick a real flavor$"):
        constr.CustomConstraint("nova.flavor", "Pick a real flavor").validate("x", None, checker)
    assert seen == [("nova.flavor", "m1.huge"), ("nova.flavor", "x")]


def test_bool_from_string_is_olsos_strict_one():
    assert constr.bool_from_string("Yes") is True
    assert constr.bool_from_string("0") is False
    with pytest.raises(
        ValueError, match="^Unrecognized value 'maybe', acceptable values are: '0'"
    ):
        constr.bool_from_string("maybe")


# -- properties ------------------------------------------------------------

SCHEMA = {
    "name": Schema(Schema.STRING, default="anon", constraints=[constr.Length(max=8)]),
    "size": Schema(Schema.INTEGER, required=True, constraints=[constr.Range(min=1)]),
    "ratio": Schema(Schema.NUMBER),
    "enabled": Schema(Schema.BOOLEAN, default=True),
    "tags": Schema(Schema.LIST, schema=Schema(Schema.STRING)),
    "meta": Schema(Schema.MAP),
    "anything": Schema(Schema.ANY),
    "net": Schema(
        Schema.LIST,
        schema=Schema(
            Schema.MAP,
            schema={
                "port": Schema(Schema.STRING, required=True),
                "fixed_ip": Schema(Schema.STRING),
            },
        ),
    ),
}


def test_values_are_coerced_with_defaults_applied():
    props = properties.Properties(
        SCHEMA,
        {
            "size": "3",
            "ratio": "0.5",
            "enabled": "False",
            "tags": [1, "b"],
            "net": [{"port": "p"}],
        },
        resource_name="vol",
    )
    props.validate()
    assert props["name"] == "anon"
    assert props["size"] == 3
    assert props["ratio"] == 0.5
    assert props["enabled"] is False
    assert props["tags"] == ["1", "b"]
    assert props["meta"] is None
    assert props["net"] == [{"port": "p", "fixed_ip": None}]
    assert set(props) == set(SCHEMA)
    assert props.get_user_value("name") is None


@pytest.mark.parametrize(
    "data, message",
    [
        (
            {"size": 1, "colour": "red"},
            "Property error: resources.res.properties: Unknown Property colour",
        ),
        ({}, "Property error: resources.res.properties: Property size not assigned"),
        (
            {"size": "big"},
            "Property error: resources.res.properties.size: Value 'big' is not an integer",
        ),
        (
            {"size": 0},
            "Property error: resources.res.properties.size: 0 is out of range (min: 1, max: None)",
        ),
        (
            {"size": 1, "name": ["a"]},
            "Property error: resources.res.properties.name: Value must be a string; got ['a']",
        ),
        (
            {"size": 1, "name": "muchtoolong"},
            "Property error: resources.res.properties.name: "
            "length (11) is out of range (min: None, max: 8)",
        ),
        (
            {"size": 1, "meta": "x"},
            'Property error: resources.res.properties.meta: "x" is not a map',
        ),
        (
            {"size": 1, "tags": "x"},
            "Property error: resources.res.properties.tags: \"'x'\" is not a list",
        ),
        (
            {"size": 1, "enabled": "maybe"},
            'Property error: resources.res.properties.enabled: "maybe" is not a valid boolean',
        ),
        (
            {"size": 1, "net": [{"port": "a"}, {"fixed_ip": "10.0.0.1"}]},
            "Property error: resources.res.properties.net[1]: Property port not assigned",
        ),
        (
            {"size": 1, "net": [{"port": "a", "mac": "x"}]},
            "Property error: resources.res.properties.net[0]: Unknown Property mac",
        ),
        (
            {"size": 1, "net": [{"port": 1.5}]},
            "Property error: resources.res.properties.net[0].port: "
            "Value must be a string; got 1.5",
        ),
    ],
)
def test_refusals_carry_heats_text_and_path(data, message):
    assert refusal(SCHEMA, data) == message


def test_custom_constraints_are_checked_through_the_checker():
    schema = {
        "flavor": Schema(Schema.STRING, constraints=[constr.CustomConstraint("nova.flavor")])
    }

    def checker(name, value):
        raise ValueError("Error validating value '%s': not here" % value)

    properties.Properties(schema, {"flavor": "big"}, "srv").validate()
    with pytest.raises(errors.BadRequest) as exc:
        properties.Properties(schema, {"flavor": "big"}, "srv", checker=checker).validate()
    assert exc.value.message == (
        "Property error: resources.srv.properties.flavor: Error validating value 'big': not here"
    )


def test_reading_a_bad_value_is_a_value_error_and_unknown_keys_key_errors():
    props = properties.Properties(SCHEMA, {"size": "x"}, "res")
    with pytest.raises(ValueError, match="properties.size: Value 'x' is not an integer"):
        props["size"]
    with pytest.raises(KeyError, match="Invalid Property nope"):
        props["nope"]


def test_schema_view_is_heats_resource_type_schema():
    view = properties.Properties.schema_view(
        {
            "length": Schema(
                Schema.INTEGER,
                "Length of the string.",
                default=32,
                constraints=[constr.Range(min=1, max=512)],
            ),
            "tags": Schema(Schema.LIST, schema=Schema(Schema.STRING), update_allowed=True),
            "old": Schema(Schema.STRING, implemented=False),
        }
    )
    assert view == {
        "length": {
            "type": "integer",
            "description": "Length of the string.",
            "default": 32,
            "required": False,
            "constraints": [{"range": {"min": 1, "max": 512}}],
            "update_allowed": False,
            "immutable": False,
        },
        "tags": {
            "type": "list",
            "schema": {
                "*": {
                    "type": "string",
                    "required": False,
                    "update_allowed": False,
                    "immutable": False,
                }
            },
            "required": False,
            "update_allowed": True,
            "immutable": False,
        },
    }


def test_constraint_views_name_their_kind():
    assert dict(constr.AllowedPattern("[a-z]+", "lower case")) == {
        "allowed_pattern": "[a-z]+",
        "description": "lower case",
    }
    assert dict(constr.CustomConstraint("glance.image")) == {"custom_constraint": "glance.image"}
    assert dict(constr.Modulo(step=2, offset=0)) == {"modulo": {"step": 2, "offset": 0}}


# -- attributes ------------------------------------------------------------


def test_attributes_select_a_path_and_refuse_undeclared_names():
    values = {"value": {"a": [10, {"b": "deep"}]}, "show": {"id": "x"}}
    attrs = attributes.Attributes(
        "rnd", {"value": attributes.Schema("The value.", type=attributes.Schema.MAP)}, values.get
    )
    assert attrs.get("value", ["a", 1, "b"]) == "deep"
    assert attrs.get("value", ["a", 5]) is None
    assert attrs.get("value", ["a", 0, "x"]) is None
    assert attrs.get("show") == {"id": "x"}
    assert "show" in attrs and set(attrs) == {"value", "show"}
    with pytest.raises(errors.BadRequest) as exc:
        attrs.get("nope")
    assert exc.value.message == "The Referenced Attribute (rnd nope) is incorrect."
    assert exc.value.extra["type"] == "InvalidTemplateAttribute"


def test_select_from_attribute_refuses_odd_paths_quietly():
    assert attributes.select_from_attribute({"a": 1}, [{"x": 1}]) is None
    assert attributes.select_from_attribute(5, ["a"]) is None
    assert attributes.select_from_attribute(["a", "b"], [1]) == "b"


def test_attribute_schema_view_includes_show():
    view = attributes.schema_view({"value": attributes.Schema("The value.")})
    assert view == {
        "value": {"description": "The value."},
        "show": {"description": "Detailed information about resource.", "type": "map"},
    }
