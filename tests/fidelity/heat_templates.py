"""The templates, environments and refusals that ``record_heat.py`` sent to
the real Heat and that ``test_heat_stacks.py`` replays against both clouds.

Kept apart so that what was recorded and what is replayed are the same
objects: the fixtures under ``tests/fixtures/heat/realcloud/`` were answered
to exactly these bodies.
"""

import copy
import json
from typing import Any

VERSION = "2018-08-31"

# RandomString, Value, None and a slow TestResource; every parameter type, a
# hidden parameter, a constrained one and the pseudo parameters in outputs.
BASIC = {
    "heat_template_version": VERSION,
    "description": "fidelity: native resources, parameters and outputs",
    "parameters": {
        "length": {
            "type": "number",
            "default": 8,
            "constraints": [{"range": {"min": 4, "max": 32}}],
        },
        "secret": {"type": "string", "hidden": True, "default": "s3cret"},
        "names": {"type": "comma_delimited_list", "default": "a,b"},
        "flag": {"type": "boolean", "default": False},
        "blob": {"type": "json", "default": {"k": "v"}},
        "label": {"type": "string", "default": "one", "description": "changed by updates"},
    },
    "resources": {
        "rand": {
            "type": "OS::Heat::RandomString",
            "properties": {"length": {"get_param": "length"}},
        },
        "val": {
            "type": "OS::Heat::Value",
            "properties": {
                "value": {
                    "str_replace": {
                        "template": "label=$L",
                        "params": {"$L": {"get_param": "label"}},
                    }
                }
            },
        },
        "none": {"type": "OS::Heat::None", "properties": {"anything": "goes"}},
        "slow": {
            "type": "OS::Heat::TestResource",
            "properties": {"value": {"get_attr": ["rand", "value"]}, "wait_secs": 2},
        },
    },
    "outputs": {
        "rand_value": {
            "value": {"get_attr": ["rand", "value"]},
            "description": "the random string",
        },
        "val_out": {"value": {"get_attr": ["val", "value"]}},
        "slow_out": {"value": {"get_attr": ["slow", "output"]}},
        "stack_name": {"value": {"get_param": "OS::stack_name"}},
        "stack_id": {"value": {"get_param": "OS::stack_id"}},
        "project_id": {"value": {"get_param": "OS::project_id"}},
        "names": {"value": {"get_param": "names"}},
        "list_join": {"value": {"list_join": ["-", {"get_param": "names"}]}},
        "rand_ref": {"value": {"get_resource": "rand"}},
    },
}


def basic_replace():
    """BASIC with a RandomString property changed that forces a replacement
    (``length`` is not update_allowed) and a TestResource value changed in
    place (``value`` is update_allowed)."""
    tmpl: Any = copy.deepcopy(BASIC)
    tmpl["resources"]["rand"]["properties"]["character_classes"] = [{"class": "digits", "min": 1}]
    tmpl["resources"]["slow"]["properties"]["value"] = "fixed"
    return tmpl


FAILING = {
    "heat_template_version": VERSION,
    "resources": {
        "ok": {"type": "OS::Heat::None"},
        "bad": {
            "type": "OS::Heat::TestResource",
            "properties": {"fail": True, "value": "x"},
            "depends_on": ["ok"],
        },
        "after": {"type": "OS::Heat::None", "depends_on": ["bad"]},
    },
}

GROUP = {
    "heat_template_version": VERSION,
    "resources": {
        "group": {
            "type": "OS::Heat::ResourceGroup",
            "properties": {
                "count": 3,
                "resource_def": {
                    "type": "OS::Heat::RandomString",
                    "properties": {"length": 6, "salt": "member-%index%"},
                },
            },
        }
    },
    "outputs": {
        "values": {"value": {"get_attr": ["group", "value"]}},
        "refs": {"value": {"get_attr": ["group", "refs"]}},
        "first": {"value": {"get_attr": ["group", "resource.0.value"]}},
    },
}

THING = {
    "heat_template_version": VERSION,
    "parameters": {"size": {"type": "number", "default": 5}},
    "resources": {
        "inner": {
            "type": "OS::Heat::RandomString",
            "properties": {"length": {"get_param": "size"}},
        }
    },
    "outputs": {"secret": {"value": {"get_attr": ["inner", "value"]}}},
}

NESTED_CHILD = {
    "heat_template_version": VERSION,
    "parameters": {"greeting": {"type": "string"}},
    "resources": {
        "leaf": {"type": "OS::Heat::Value", "properties": {"value": {"get_param": "greeting"}}}
    },
    "outputs": {"said": {"value": {"get_attr": ["leaf", "value"]}}},
}

# a template resource through an environment mapping and a nested OS::Heat::Stack
NESTING = {
    "heat_template_version": VERSION,
    "resources": {
        "thing": {"type": "My::Thing", "properties": {"size": 7}},
        "child": {
            "type": "OS::Heat::Stack",
            # the template property is a string: a map here would be parsed
            # by the parent template (its get_attr naming the parent's resources)
            "properties": {
                "template": json.dumps(NESTED_CHILD),
                "parameters": {"greeting": "hello"},
            },
        },
    },
    "outputs": {
        "thing_secret": {"value": {"get_attr": ["thing", "secret"]}},
        "child_said": {"value": {"get_attr": ["child", "outputs", "said"]}},
    },
}
NESTING_ENV = {"resource_registry": {"My::Thing": "thing.yaml"}}
# a files map as heatclient sends it: each file's contents as text
NESTING_FILES = {"thing.yaml": json.dumps(THING)}

SCRIPT = "#!/bin/sh\necho hello $name\n"


def deployment(flavor, image):
    """A script config deployed with NO_SIGNAL to a fake-driver server."""
    return {
        "heat_template_version": VERSION,
        "resources": {
            "config": {
                "type": "OS::Heat::SoftwareConfig",
                "properties": {
                    "group": "script",
                    "config": SCRIPT,
                    "inputs": [{"name": "name", "default": "world"}],
                    "outputs": [{"name": "result"}],
                },
            },
            "server": {
                "type": "OS::Nova::Server",
                "properties": {
                    "flavor": flavor,
                    "image": image,
                    "networks": [{"allocate_network": "none"}],
                    "user_data_format": "SOFTWARE_CONFIG",
                    "software_config_transport": "POLL_SERVER_HEAT",
                },
            },
            "deploy": {
                "type": "OS::Heat::SoftwareDeployment",
                "properties": {
                    "config": {"get_resource": "config"},
                    "server": {"get_resource": "server"},
                    "signal_transport": "NO_SIGNAL",
                    "input_values": {"name": "stack"},
                },
            },
        },
        "outputs": {
            "server_id": {"value": {"get_resource": "server"}},
            "deploy_status": {"value": {"get_attr": ["deploy", "deploy_status_code"]}},
        },
    }


def _one(resource, **extra):
    tmpl = {"heat_template_version": VERSION, "resources": {"r": resource}}
    tmpl.update(extra)
    return tmpl


# (name, body members besides stack_name): each is sent to POST /stacks and
# to POST /validate.
REFUSALS = [
    ("unknown_type", {"template": _one({"type": "OS::No::Such"})}),
    (
        "circular_dependency",
        {
            "template": {
                "heat_template_version": VERSION,
                "resources": {
                    "a": {"type": "OS::Heat::None", "depends_on": ["b"]},
                    "b": {"type": "OS::Heat::None", "depends_on": ["a"]},
                },
            }
        },
    ),
    ("missing_required_property", {"template": _one({"type": "OS::Heat::Value"})}),
    (
        "wrong_property_type",
        {"template": _one({"type": "OS::Heat::RandomString", "properties": {"length": "long"}})},
    ),
    (
        "unknown_property",
        {"template": _one({"type": "OS::Heat::RandomString", "properties": {"lenght": 3}})},
    ),
    (
        "property_constraint",
        {"template": _one({"type": "OS::Heat::RandomString", "properties": {"length": 1000}})},
    ),
    (
        "missing_type",
        {"template": _one({"properties": {}})},
    ),
    (
        "unknown_resource_key",
        {"template": _one({"type": "OS::Heat::None", "propertiez": {}})},
    ),
    (
        "depends_on_unknown",
        {"template": _one({"type": "OS::Heat::None", "depends_on": ["ghost"]})},
    ),
    (
        "get_resource_unknown",
        {
            "template": _one(
                {"type": "OS::Heat::Value", "properties": {"value": {"get_resource": "ghost"}}}
            )
        },
    ),
    (
        "get_attr_unknown_attribute",
        {
            "template": {
                "heat_template_version": VERSION,
                "resources": {"r": {"type": "OS::Heat::RandomString"}},
                "outputs": {"o": {"value": {"get_attr": ["r", "nope"]}}},
            }
        },
    ),
    (
        "get_attr_in_properties_unknown_attribute",
        {
            "template": {
                "heat_template_version": VERSION,
                "resources": {
                    "r": {"type": "OS::Heat::RandomString"},
                    "v": {
                        "type": "OS::Heat::Value",
                        "properties": {"value": {"get_attr": ["r", "nope"]}},
                    },
                },
            }
        },
    ),
    (
        "unknown_function_in_version",
        {
            "template": {
                "heat_template_version": "2013-05-23",
                "resources": {
                    "r": {
                        "type": "OS::Heat::None",
                        "properties": {"x": {"str_split": [",", "a,b"]}},
                    }
                },
            }
        },
    ),
    (
        "unknown_function",
        {
            "template": _one(
                {"type": "OS::Heat::Value", "properties": {"value": {"get_nothing": 1}}}
            )
        },
    ),
    (
        "bad_template_version",
        {"template": {"heat_template_version": "2099-01-01", "resources": {}}},
    ),
    ("missing_template_version", {"template": {"resources": {"r": {"type": "OS::Heat::None"}}}}),
    (
        "unknown_section",
        {"template": {"heat_template_version": VERSION, "resourcez": {}}},
    ),
    (
        "missing_parameter",
        {"template": _one({"type": "OS::Heat::None"}, parameters={"p": {"type": "string"}})},
    ),
    (
        "unknown_parameter_given",
        {"template": _one({"type": "OS::Heat::None"}), "parameters": {"nobody": "x"}},
    ),
    (
        "parameter_allowed_values",
        {
            "template": _one(
                {"type": "OS::Heat::None"},
                parameters={
                    "p": {"type": "string", "constraints": [{"allowed_values": ["a", "b"]}]}
                },
            ),
            "parameters": {"p": "c"},
        },
    ),
    (
        "parameter_allowed_pattern",
        {
            "template": _one(
                {"type": "OS::Heat::None"},
                parameters={
                    "p": {
                        "type": "string",
                        "constraints": [
                            {"allowed_pattern": "[a-z]+", "description": "lower case"}
                        ],
                    }
                },
            ),
            "parameters": {"p": "ABC"},
        },
    ),
    (
        "parameter_length",
        {
            "template": _one(
                {"type": "OS::Heat::None"},
                parameters={
                    "p": {"type": "string", "constraints": [{"length": {"min": 3, "max": 5}}]}
                },
            ),
            "parameters": {"p": "ab"},
        },
    ),
    (
        "parameter_range",
        {
            "template": _one(
                {"type": "OS::Heat::None"},
                parameters={
                    "p": {"type": "number", "constraints": [{"range": {"min": 1, "max": 9}}]}
                },
            ),
            "parameters": {"p": 10},
        },
    ),
    (
        "parameter_not_a_number",
        {
            "template": _one({"type": "OS::Heat::None"}, parameters={"p": {"type": "number"}}),
            "parameters": {"p": "ten"},
        },
    ),
    (
        "parameter_bad_boolean",
        {
            "template": _one({"type": "OS::Heat::None"}, parameters={"p": {"type": "boolean"}}),
            "parameters": {"p": "perhaps"},
        },
    ),
    (
        "parameter_unknown_type",
        {"template": _one({"type": "OS::Heat::None"}, parameters={"p": {"type": "float"}})},
    ),
    (
        "invalid_environment_section",
        {"template": _one({"type": "OS::Heat::None"}), "environment": {"resource_registery": {}}},
    ),
    (
        "environment_unknown_mapping_target",
        {
            "template": _one({"type": "My::Missing"}),
            "environment": {"resource_registry": {"My::Missing": "missing.yaml"}},
        },
    ),
    (
        "get_file_missing",
        {
            "template": _one(
                {"type": "OS::Heat::Value", "properties": {"value": {"get_file": "nope.txt"}}}
            )
        },
    ),
    ("template_not_a_map", {"template": ["not", "a", "map"]}),
    ("no_template", {}),
]
