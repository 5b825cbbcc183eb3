"""HOT intrinsic functions per version: Heat's results and refusal texts.

Cases follow heat/tests/test_hot.py (HOTemplateTest) with small inline
snippets; the resolver is a stand-in for the engine's Stack.
"""

import hashlib

import pytest

from occli.localcloud import errors
from occli.localcloud.orchestration.engine import functions


class FakeStack:
    """What functions ask of a stack: parameters, resources, files."""

    stack_name = "demo"
    stack_id = "a1b2"
    project_id = "p1"

    def __init__(self, params=None, resources=None, files=None):
        self.params = params or {}
        self.resources = resources or {}
        self.files = files or {}

    def param(self, name):
        return self.params[name]

    def resource_ref(self, name):
        return self.resources[name]["id"]

    def resource_attr(self, name, attr, path):
        value = self.resources[name]["attrs"][attr]
        for key in path:
            value = value[key]
        return value

    def file(self, key):
        return self.files[key]

    def resource_names(self):
        return set(self.resources)


STACK = FakeStack(
    params={"flavor": "m1.small", "ports": ["p1", "p2"], "conf": {"a": {"b": [5, 6]}}},
    resources={
        "server": {"id": "srv-id", "attrs": {"networks": {"private": ["10.0.0.5"]}}},
    },
    files={"script.sh": "#!/bin/sh\necho hi\n"},
)


def resolve(snippet, version="2018-08-31", stack=STACK):
    return functions.resolve(snippet, stack, version, path="resources.r.properties")


def refusal(snippet, version="2018-08-31"):
    with pytest.raises(errors.BadRequest) as exc:
        resolve(snippet, version)
    return exc.value


def test_get_param_with_path_selection():
    assert resolve({"get_param": "flavor"}) == "m1.small"
    assert resolve({"get_param": ["conf", "a", "b", "1"]}) == 6
    assert resolve({"get_param": ["conf", "nope"]}) == ""


def test_get_param_of_an_unknown_parameter_is_user_parameter_missing():
    stack = FakeStack()
    with pytest.raises(errors.BadRequest) as exc:
        functions.resolve({"get_param": "nope"}, stack, "2018-08-31")
    assert exc.value.message == "The Parameter (nope) was not provided."
    assert exc.value.extra["type"] == "UserParameterMissing"


def test_get_resource_get_attr_and_get_file():
    assert resolve({"get_resource": "server"}) == "srv-id"
    assert resolve({"get_attr": ["server", "networks", "private", 0]}) == "10.0.0.5"
    assert resolve({"get_file": "script.sh"}) == "#!/bin/sh\necho hi\n"
    # 2013-05-23: get_attr then select
    assert resolve({"get_attr": ["server", "networks", "private"]}, "2013-05-23") == ["10.0.0.5"]


def test_get_resource_of_an_undeclared_resource():
    exc = refusal({"get_resource": "ghost"})
    assert exc.message == 'The specified reference "ghost" (in unknown) is incorrect.'
    assert exc.extra["type"] == "InvalidTemplateReference"


def test_get_attr_shape_is_checked_with_the_path():
    exc = refusal({"get_attr": ["server"]}, "2014-10-16")
    assert exc.message == (
        'resources.r.properties.get_attr: Arguments to "get_attr" must be of the form '
        "[resource_name, attribute, (path), ...]"
    )
    assert exc.extra["type"] == "StackValidationFailed"


def test_str_replace_prefers_longer_keys_and_serialises_json_from_2015_10_15():
    snippet = {
        "str_replace": {
            "template": "var=$var; varx=$varx; list=$list",
            "params": {"$var": "a", "$varx": "b", "$list": [1, 2]},
        }
    }
    assert resolve(snippet) == "var=a; varx=b; list=[1, 2]"
    exc = refusal(snippet, "2015-04-30")
    assert exc.message.endswith(
        '"str_replace" params must be strings or numbers, param $list is not valid'
    )


def test_str_replace_strict_and_vstrict():
    snippet = {"str_replace_strict": {"template": "x", "params": {"y": "1"}}}
    assert refusal(snippet).message == (
        "resources.r.properties.str_replace_strict: "
        "The following params were not found in the template: y"
    )
    vstrict = {"str_replace_vstrict": {"template": "x y", "params": {"y": ""}}}
    assert refusal(vstrict).message.endswith(
        "str_replace_vstrict has an undefined or empty value for param y, "
        "must be a defined non-empty value"
    )


def test_list_join_versions():
    assert resolve({"list_join": [",", ["a", "b"], ["c"]]}) == "a,b,c"
    assert resolve({"list_join": [",", ["a", {"k": 1}]]}) == 'a,{"k": 1}'
    exc = refusal({"list_join": [",", ["a", {"k": 1}]]}, "2015-04-30")
    assert exc.message.endswith("Items to join must be strings not {'k': 1}")
    exc = refusal({"list_join": [",", ["a"], ["b"]]}, "2015-04-30")
    assert exc.message.endswith(
        'Incorrect arguments to "list_join" should be: "list_join" : [ " ", [ "str1", "str2"]]'
    )


def test_repeat_nested_loops_maps_and_permutations():
    snippet = {
        "repeat": {
            "for_each": {"<%p%>": ["80", "443"], "<%c%>": ["a", "b"]},
            "template": {"port": "<%p%>", "cidr": "<%c%>"},
        }
    }
    assert resolve(snippet) == [
        {"port": "80", "cidr": "a"},
        {"port": "80", "cidr": "b"},
        {"port": "443", "cidr": "a"},
        {"port": "443", "cidr": "b"},
    ]
    pairs = dict(snippet["repeat"], permutations=False)
    assert resolve({"repeat": pairs}) == [
        {"port": "80", "cidr": "a"},
        {"port": "443", "cidr": "b"},
    ]
    keys = {"repeat": {"for_each": {"%k%": {"x": 1}}, "template": "k-%k%"}}
    assert resolve(keys) == ["k-x"]
    assert refusal(keys, "2015-04-30").message.endswith(
        'The values of the "for_each" argument to "repeat" must be lists'
    )


def test_digest_str_split_map_merge_map_replace():
    assert resolve({"digest": ["sha256", "abc"]}) == hashlib.sha256(b"abc").hexdigest()
    assert resolve({"str_split": [",", "a,b,c", 1]}) == "b"
    assert resolve({"str_split": [",", "a,b"]}) == ["a", "b"]
    assert refusal({"str_split": [",", "a,b", 5]}).message.endswith(
        'Incorrect index to "str_split" should be between 0 and 1'
    )
    assert resolve({"map_merge": [{"a": 1, "b": 2}, {"a": 3}, None]}) == {"a": 3, "b": 2}
    replaced = resolve(
        {"map_replace": [{"k1": "v1", "k2": "v2"}, {"keys": {"k1": "K1"}, "values": {"v2": "V2"}}]}
    )
    assert replaced == {"K1": "v1", "k2": "V2"}
    assert refusal(
        {"map_replace": [{"k1": "v1", "k2": "v2"}, {"keys": {"k1": "k2"}}]}
    ).message.endswith("key replacement k2 collides with a key in the input map")


def test_list_functions_filter_contains_make_url():
    assert resolve({"list_concat": [["a", "b"], ["b"], None]}) == ["a", "b", "b"]
    assert resolve({"list_concat_unique": [["a", "b"], ["b"]]}) == ["a", "b"]
    assert resolve({"filter": [["b", None], ["a", "b", None]]}) == ["a"]
    assert resolve({"contains": ["a", ["a", "b"]]}) is True
    url = resolve(
        {
            "make_url": {
                "scheme": "http",
                "host": "::1",
                "port": 8080,
                "path": "/a b",
                "query": {"k": "v/w"},
            }
        }
    )
    assert url == "http://[::1]:8080/a%20b?k=v/w"
    assert refusal({"make_url": {"host": "h", "port": 70000}}).message.endswith(
        "Invalid URL port 70000, must be in range 1-65535"
    )


def test_functions_of_later_versions_are_plain_data_and_removed_ones_refused():
    assert resolve({"map_merge": [{"a": 1}]}, "2015-10-15") == {"map_merge": [{"a": 1}]}
    exc = refusal({"Fn::Join": [",", ["a"]]}, "2014-10-16")
    assert exc.message == (
        "The template version is invalid: "
        "The function Fn::Join is not supported in this version of HOT."
    )
    assert exc.extra["type"] == "InvalidTemplateVersion"
    assert resolve({"Fn::Join": [",", ["a", "b"]]}, "2013-05-23") == "a,b"
    assert resolve({"Ref": "server"}, "2013-05-23") == "srv-id"


def test_if_needs_conditions_and_picks_a_branch():
    conditions = {"prod": True}.__getitem__
    snippet = {"if": ["prod", {"get_param": "flavor"}, "tiny"]}
    assert functions.resolve(snippet, STACK, "2016-10-14", conditions=conditions) == "m1.small"
    assert functions.resolve({"if": [False, "a", "b"]}, STACK, "2016-10-14") == "b"


def test_references_find_literal_resource_names():
    snippet = {
        "a": {"get_resource": "net"},
        "b": [{"get_attr": ["server", "first_address"]}, {"get_attr": ["port"]}],
        "c": {"str_replace": {"template": "x", "params": {"x": {"get_resource": "vol"}}}},
    }
    assert functions.references(snippet, "2018-08-31") == {"net", "server", "port", "vol"}
    assert functions.attribute_references(snippet, "2018-08-31") == {("server", "first_address")}
