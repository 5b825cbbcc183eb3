"""Environments: the registry's lookups and Heat's texts (environment.py).

The global environment here is made by hand of tiny Resource subclasses,
so these tests need no built-in plugin.
"""

import logging

import pytest

from occli.localcloud import errors
from occli.localcloud.orchestration.engine import environment
from occli.localcloud.orchestration.engine.resource import Resource
from occli.localcloud.orchestration.templates import MAX_TEMPLATE_SIZE


class Server(Resource):
    """A server."""


class OtherServer(Resource):
    pass


class Net(Resource):
    pass


class Subnet(Resource):
    pass


class Nothing(Resource):
    pass


class Hidden(Resource):
    support_status = "HIDDEN"


class Deprecated(Resource):
    class support_status:
        status = "DEPRECATED"
        version = "2014.1"
        message = "use Test::Server"


@pytest.fixture
def global_env():
    env = environment.Environment(user_env=False)
    for name, cls in (
        ("Test::Server", Server),
        ("Test::OtherServer", OtherServer),
        ("Test::Neutron::Net", Net),
        ("Test::Neutron::Subnet", Subnet),
        ("Test::None", Nothing),
        ("Test::Hidden", Hidden),
        ("Test::Deprecated", Deprecated),
    ):
        env.register_class(name, cls)
    return env


def user(global_env, env=None, files=None):
    return environment.Environment(env or {}, global_env=global_env, files=files)


def _refused(call, *args, **kwargs):
    with pytest.raises(errors.Error) as info:
        call(*args, **kwargs)
    return info.value.code, info.value.extra.get("type"), info.value.message


# -- lookups ------------------------------------------------------------------


def test_plugin_type_and_unknown_type(global_env):
    env = user(global_env)
    assert env.get_class("Test::Server") is Server
    assert _refused(env.get_class, "Test::Nope", "my_res") == (
        400,
        "StackValidationFailed",
        "The Resource Type (Test::Nope) could not be found.",
    )
    # where Heat looks a type up (GET /resource_types/{type}): a 404
    assert _refused(env.find_class, "Test::Nope") == (
        404,
        "EntityNotFound",
        "The Resource Type (Test::Nope) could not be found.",
    )


@pytest.mark.parametrize(
    ("type_value", "message"),
    [
        ("", 'Resource "r" has no type'),
        (None, 'Non-empty resource type is required for resource "r"'),
        (42, 'Resource "r" type is not a string'),
    ],
)
def test_bad_types_are_heats_validation_errors(global_env, type_value, message):
    assert _refused(user(global_env).get_class, type_value, "r") == (
        400,
        "StackValidationFailed",
        message,
    )


def test_alias_and_user_override(global_env):
    env = user(
        global_env,
        {
            "resource_registry": {
                "Heat::InstallConfigAgent": "Test::None",
                "Test::Server": "Test::OtherServer",
            }
        },
    )
    assert env.get_class("Heat::InstallConfigAgent") is Nothing
    # the user's mapping of a global type wins over the global plugin
    assert env.get_class("Test::Server") is OtherServer
    # the global environment itself is unchanged
    assert user(global_env).get_class("Test::Server") is Server


def test_globs_many_to_many_and_many_to_one(global_env):
    env = user(global_env, {"resource_registry": {"OS::Networking::*": "Test::Neutron::*"}})
    assert env.get_class("OS::Networking::Net") is Net
    assert env.get_class("OS::Networking::Subnet") is Subnet
    assert _refused(env.get_class, "OS::Networking::Router")[2] == (
        "The Resource Type (OS::Networking::Router) could not be found."
    )
    to_one = user(global_env, {"resource_registry": {"Test::*": "Test::None"}})
    assert to_one.get_class("Test::Whatever") is Nothing
    assert to_one.get_class("Test::None") is Nothing


def test_alias_loop_is_not_found(global_env):
    env = user(global_env, {"resource_registry": {"A::A": "B::B", "B::B": "A::A"}})
    assert _refused(env.get_class, "A::A")[2] == "The Resource Type (A::A) could not be found."


def test_per_resource_mappings(global_env):
    env = user(
        global_env,
        {"resource_registry": {"resources": {"special": {"Test::Server": "Test::OtherServer"}}}},
    )
    assert env.get_class("Test::Server", "special") is OtherServer
    assert env.get_class("Test::Server", "ordinary") is Server


def test_removing_entries_with_null(global_env):
    global_env.registry.load({"Test::Neutron::*": None, "Test::None": None})
    env = user(global_env)
    for gone in ("Test::Neutron::Net", "Test::Neutron::Subnet", "Test::None"):
        with pytest.raises(errors.BadRequest):
            env.get_class(gone)
    assert env.get_class("Test::Server") is Server


def test_a_global_alias_used_is_kept_in_the_user_environment(global_env):
    global_env.registry.load({"Test::Alias": "Test::Server"})
    env = user(global_env)
    assert env.get_class("Test::Alias") is Server
    assert env.user_env_as_dict()["resource_registry"] == {
        "resources": {},
        "Test::Alias": "Test::Server",
    }


# -- template resources ----------------------------------------------------------


def _factory(made):
    def template_resource_class(url, files):
        made.append((url, dict(files)))
        return type("Generated", (Resource,), {"template_text": files[url]})

    return template_resource_class


def test_template_resources_from_the_files(global_env):
    made = []
    global_env.registry.set_template_factory(_factory(made))
    files = {"my.yaml": "heat_template_version: 2018-08-31\n"}
    env = user(global_env, {"resource_registry": {"My::Type": "my.yaml"}}, files=files)
    by_alias = env.get_class("My::Type", "r1")
    assert by_alias.template_text == files["my.yaml"]
    # a type that is itself a template name
    env.get_class("my.yaml", "r2")
    assert [url for url, _ in made] == ["my.yaml", "my.yaml"]
    assert env.user_env_as_dict()["resource_registry"]["My::Type"] == "my.yaml"


def test_template_resource_missing_from_the_files(global_env):
    global_env.registry.set_template_factory(_factory([]))
    env = user(global_env, {"resource_registry": {"My::Type": "my.yaml"}})
    assert _refused(env.get_class, "My::Type", "r") == (
        400,
        "StackValidationFailed",
        'Could not fetch remote template "my.yaml": Invalid URL scheme ',
    )
    remote = user(global_env, {"resource_registry": {"My::Type": "https://example.com/t.yaml"}})
    assert _refused(remote.get_class, "My::Type", "r")[2] == (
        'Could not fetch remote template "https://example.com/t.yaml": '
        "Failed to retrieve template from https://example.com/t.yaml"
    )


def test_global_template_resource_from_a_file_url(global_env, tmp_path):
    made = []
    global_env.registry.set_template_factory(_factory(made))
    path = tmp_path / "server.yaml"
    path.write_text("heat_template_version: 2018-08-31\n")
    global_env.registry.load({"Test::FromFile": "file://%s" % path})
    cls = user(global_env).get_class("Test::FromFile", "r")
    assert cls.template_text == path.read_text()
    # a user environment may not read the cloud's files
    env = user(global_env, {"resource_registry": {"My::Type": "file://%s" % path}})
    assert "Invalid URL scheme file" in _refused(env.get_class, "My::Type", "r")[2]


def test_template_resource_without_the_template_resource_module(global_env):
    env = user(global_env, {"resource_registry": {"My::Type": "my.yaml"}}, files={"my.yaml": ""})
    assert _refused(env.get_class, "My::Type", "r")[2] == (
        "The Resource Type (My::Type) could not be found."
    )


# -- hooks and restricted actions -----------------------------------------------


def test_hooks_by_name_and_pattern(global_env):
    env = user(
        global_env,
        {
            "resource_registry": {
                "resources": {
                    "server": {"hooks": ["pre-create", "pre-update"]},
                    "*_port": {"hooks": "pre-delete"},
                }
            }
        },
    )
    assert env.matches_hook("server", "pre-create")
    assert env.matches_hook("server", "pre-update")
    assert not env.matches_hook("server", "pre-delete")
    assert env.matches_hook("my_port", "pre-delete")
    assert not env.matches_hook("other", "pre-create")
    assert env.user_env_as_dict()["resource_registry"]["resources"]["server"] == {
        "hooks": ["pre-create", "pre-update"]
    }


def test_invalid_hook(global_env):
    bad = {"resource_registry": {"resources": {"server": {"hooks": "pre-lunch"}}}}
    assert _refused(user, global_env, bad) == (
        400,
        "InvalidBreakPointHook",
        'Invalid hook type "pre-lunch" for resource breakpoint, acceptable hook types are: '
        "('pre-create', 'pre-update', 'pre-delete', 'post-create', 'post-update',"
        " 'post-delete')",
    )


def test_restricted_actions(global_env):
    env = user(
        global_env,
        {"resource_registry": {"resources": {"db*": {"restricted_actions": ["replace"]}}}},
    )
    assert env.get_rsrc_restricted_actions("db1") == {"replace"}
    assert env.get_rsrc_restricted_actions("web") == set()
    bad = {"resource_registry": {"resources": {"db": {"restricted_actions": "explode"}}}}
    assert _refused(user, global_env, bad) == (
        500,
        "InvalidRestrictedAction",
        'Invalid restricted_action type "explode" for resource, acceptable'
        " restricted_action types are: ('update', 'replace')",
    )


def test_a_registry_value_that_is_no_name(global_env):
    assert _refused(user, global_env, {"resource_registry": {"My::Type": 5}}) == (
        400,
        "AttributeError",
        "'int' object has no attribute 'support_status'",
    )


# -- sections -----------------------------------------------------------------


def test_sections_and_user_env_as_dict(global_env):
    env = user(
        global_env,
        {
            "parameters": {"flavor": "m1.tiny"},
            "parameter_defaults": {"image": "cirros"},
            "encrypted_param_names": ["password"],
            "event_sinks": [{"type": "zaqar-queue", "target": "q"}],
        },
    )
    assert env.params == {"flavor": "m1.tiny"}
    assert env.parameter_defaults == {"image": "cirros"}
    assert env.user_env_as_dict() == {
        "resource_registry": {"resources": {}},
        "parameters": {"flavor": "m1.tiny"},
        "parameter_defaults": {"image": "cirros"},
        "event_sinks": [{"type": "zaqar-queue", "target": "q"}],
    }
    assert env.env_as_dict()["encrypted_param_names"] == ["password"]
    # old-school flat parameters
    assert user(global_env, {"flavor": "m1.small"}).params == {"flavor": "m1.small"}


def test_child_environment(global_env):
    parent = user(
        global_env,
        {
            "parameters": {"flavor": "m1.tiny"},
            "parameter_defaults": {"image": "cirros"},
            "resource_registry": {
                "My::Type": "my.yaml",
                "Alias::Server": "Test::Server",
                "resources": {"group": {"0": {"hooks": "pre-create"}}, "other": {}},
            },
        },
        files={"my.yaml": ""},
    )
    info = parent.get_resource_info("My::Type")
    child = environment.get_child_environment(
        parent, {"count": 2}, item_to_remove=info, child_resource_name="group"
    )
    assert child.params == {"count": 2}
    assert child.parameter_defaults == {"image": "cirros"}
    assert child.get_class("Alias::Server") is Server
    with pytest.raises(errors.BadRequest):
        child.get_class("My::Type")
    # only the parent resource's section, one level down
    assert child.matches_hook("0", "pre-create")
    as_env = environment.get_child_environment(parent, {"parameters": {"x": 1}})
    assert as_env.params == {"x": 1}


# -- get_types ------------------------------------------------------------------


def test_get_types_filters(global_env):
    global_env.registry.load({"Test::Alias": "Test::Server"})
    types = global_env.get_types()
    assert "Test::Server" in types and "Test::Deprecated" in types
    assert "Test::Hidden" not in types  # never listed
    assert "Test::Alias" not in types  # aliases are not types
    assert global_env.get_types(type_name="Test::Neutron") == [
        "Test::Neutron::Net",
        "Test::Neutron::Subnet",
    ]
    # matched at the start, as re.match
    assert global_env.get_types(type_name="Neutron") == []
    assert global_env.get_types(type_name="(unclosed") == []
    assert global_env.get_types(support_status="DEPRECATED") == ["Test::Deprecated"]
    assert global_env.get_types(version="2014.1") == ["Test::Deprecated"]
    assert _refused(global_env.get_types, support_status="GREAT") == (
        400,
        "Invalid",
        "Data supplied was not valid: Invalid support status and should be one of "
        "('UNKNOWN', 'SUPPORTED', 'DEPRECATED', 'UNSUPPORTED', 'HIDDEN')",
    )
    described = global_env.get_types(
        type_name="Test::(Server|OtherServer)$", with_description=True
    )
    assert described == [
        {"resource_type": "Test::Server", "description": "A server."},
        {"resource_type": "Test::OtherServer", "description": "No description available"},
    ]


def test_deprecated_registration_is_logged(caplog):
    caplog.set_level(logging.WARNING, logger="occli.localcloud.orchestration.engine")
    environment.Environment(user_env=False).register_class("Test::Deprecated", Deprecated)
    assert "Test::Deprecated is DEPRECATED. use Test::Server" in caplog.text


# -- parse_environment ------------------------------------------------------------


def test_parse_environment():
    assert environment.parse_environment(None) == {}
    assert environment.parse_environment("") == {}
    text = "parameters:\n  flavor: m1.tiny\nresource_registry:\n  A::B: C::D\n"
    assert environment.parse_environment(text) == {
        "parameters": {"flavor": "m1.tiny"},
        "resource_registry": {"A::B": "C::D"},
    }
    body = {"parameter_defaults": {"x": 1}}
    assert environment.parse_environment(body) == body


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ("resource_registri: {}", 'environment has wrong section "resource_registri"'),
        ({"parameters": None}, 'environment has empty section "parameters"'),
        ("parameters:\n", 'environment has empty section "parameters"'),
        ("- a\n- b\n", "The environment is not a valid YAML mapping data type."),
    ],
)
def test_parse_environment_refusals(given, message):
    assert _refused(environment.parse_environment, given) == (
        400,
        "HTTPBadRequest",
        "Environment not in valid format: " + message,
    )


def test_parse_environment_yaml_error_and_size():
    code, kind, message = _refused(environment.parse_environment, "parameters: [unclosed\n")
    assert (code, kind) == (400, "HTTPBadRequest")
    assert message.startswith("Environment not in valid format: while parsing")
    code, kind, message = _refused(
        environment.parse_environment, "parameters: {}\n#" + "x" * MAX_TEMPLATE_SIZE
    )
    assert (code, kind) == (400, "RequestLimitExceeded")
    assert "exceeds maximum allowed size" in message
