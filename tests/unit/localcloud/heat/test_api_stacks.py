"""Heat's stack HTTP API in the local cloud: shapes (checked against Heat's
api-ref samples in tests/fixtures/heat/api-ref), the 302 lookups, events
and resources, and every refusal with Heat's text and ``error.type``."""

import json
import pathlib
import time

import pytest

from tests.unit.localcloud.heat import harness

API_REF = pathlib.Path(__file__).parents[3] / "fixtures" / "heat" / "api-ref"
TEMPLATE = {
    "heat_template_version": "2018-08-31",
    "description": "api test",
    "parameters": {"n": {"type": "number", "default": 8}},
    "resources": {"rand": {"type": "OS::Heat::RandomString", "properties": {"length": 8}}},
    "outputs": {"v": {"value": {"get_attr": ["rand", "value"]}, "description": "the value"}},
}


def _sample(name):
    return json.loads((API_REF / name).read_text())


class Api:
    def __init__(self, fixture, cloud="local"):
        self.session = fixture.session(cloud)
        self.url = "%s/orchestration/v1/%s" % (fixture.url, self.session.get_project_id())

    def call(self, method, path, **kw):
        kw.setdefault("raise_exc", False)
        kw.setdefault("redirect", False)
        return self.session.request(self.url + path, method, **kw)

    def create(self, name, template=TEMPLATE, **body):
        r = self.call("POST", "/stacks", json={"stack_name": name, "template": template, **body})
        assert r.status_code == 201, r.text
        return r.json()["stack"]["id"]

    def wait(self, name, stack_id, seconds=30.0):
        deadline = time.monotonic() + seconds
        while True:
            stack = self.call("GET", "/stacks/%s/%s" % (name, stack_id)).json()["stack"]
            if not stack["stack_status"].endswith("IN_PROGRESS"):
                return stack
            assert time.monotonic() < deadline, stack["stack_status"]
            time.sleep(0.02)


@pytest.fixture(scope="module")
def fixture():
    fx = harness.start()
    yield fx
    fx.stop()


@pytest.fixture(scope="module")
def api(fixture):
    return Api(fixture)


@pytest.fixture(scope="module")
def stack(api):
    stack_id = api.create("api-one", tags="a,b")
    return "api-one", stack_id, api.wait("api-one", stack_id)


def _error(r, status, message, type_):
    assert r.status_code == status, r.text
    error = r.json()["error"]
    assert error.get("message") == message
    assert error["type"] == type_


def test_create_answers_201_with_location_and_links(api):
    r = api.call("POST", "/stacks", json={"stack_name": "api-created", "template": TEMPLATE})
    assert r.status_code == 201
    body = r.json()["stack"]
    assert set(body) == set(_sample("stack-create-response.json")["stack"])
    assert r.headers["Location"] == body["links"][0]["href"]
    assert body["links"][0]["href"] == "%s/stacks/api-created/%s" % (api.url, body["id"])
    assert api.wait("api-created", body["id"])["stack_status"] == "CREATE_COMPLETE"


def test_show_has_heats_keys_outputs_and_parameters(api, stack):
    name, stack_id, shown = stack
    assert set(shown) == set(_sample("stack-show-response.json")["stack"])
    assert shown["stack_status"] == "CREATE_COMPLETE"
    assert shown["description"] == "api test"
    assert shown["tags"] == ["a", "b"]
    assert shown["parameters"]["n"] == "8"
    assert shown["parameters"]["OS::stack_name"] == name
    (output,) = shown["outputs"]
    assert output["output_key"] == "v" and len(output["output_value"]) == 8
    brief = api.call("GET", "/stacks/%s/%s?resolve_outputs=false" % (name, stack_id))
    assert "outputs" not in brief.json()["stack"]


def test_lookup_redirects_keeping_the_path_and_query(api, stack):
    name, stack_id, _ = stack
    canonical = "%s/stacks/%s/%s" % (api.url, name, stack_id)
    r = api.call("GET", "/stacks/" + name)
    assert (r.status_code, r.headers["Location"]) == (302, canonical)
    r = api.call("GET", "/stacks/%s/events?sort_dir=asc&marker=x" % stack_id)
    assert r.headers["Location"] == canonical + "/events?sort_dir=asc&marker=x"
    r = api.call("POST", "/stacks/%s/actions" % name, json={"check": None})
    assert (r.status_code, r.headers["Location"]) == (302, canonical + "/actions")
    _error(
        api.call("GET", "/stacks/nope/template"),
        404,
        "The Stack (nope) could not be found.",
        "EntityNotFound",
    )


def test_a_name_that_is_not_the_stacks_is_not_found(api, stack):
    _, stack_id, _ = stack
    _error(
        api.call("GET", "/stacks/other/%s" % stack_id),
        404,
        "The Stack (other) could not be found.",
        "EntityNotFound",
    )


def test_template_environment_files(api, stack):
    name, stack_id, _ = stack
    base = "/stacks/%s/%s" % (name, stack_id)
    assert api.call("GET", base + "/template").json() == TEMPLATE
    env = api.call("GET", base + "/environment").json()
    assert {"parameters", "resource_registry", "parameter_defaults"} <= set(env)
    assert api.call("GET", base + "/files").json() == {}


def test_outputs_list_and_show(api, stack):
    name, stack_id, _ = stack
    base = "/stacks/%s/%s/outputs" % (name, stack_id)
    assert api.call("GET", base).json() == {
        "outputs": [{"output_key": "v", "description": "the value"}]
    }
    assert len(api.call("GET", base + "/v").json()["output"]["output_value"]) == 8
    _error(
        api.call("GET", base + "/nope"), 404, "Specified output key nope not found.", "NotFound"
    )


def test_events_include_the_stacks_own_transitions(api, stack):
    name, stack_id, _ = stack
    events = api.call("GET", "/stacks/%s/%s/events" % (name, stack_id)).json()["events"]
    sample = _sample("events-list-response.json")["events"][0]
    assert all(set(e) == set(sample) for e in events)
    # newest first: Heat's default order (heatclient sends sort_dir=asc)
    own = [e for e in events if e["resource_name"] == name]
    assert own[0]["resource_status"] == "CREATE_COMPLETE"
    assert own[0]["physical_resource_id"] == stack_id
    assert own[0]["links"][2]["href"] == "%s/stacks/%s/%s" % (api.url, name, stack_id)
    first = api.call("GET", "/stacks/%s/%s/events?limit=1" % (name, stack_id)).json()["events"]
    after = api.call(
        "GET", "/stacks/%s/%s/events?marker=%s" % (name, stack_id, first[0]["id"])
    ).json()["events"]
    assert [e["id"] for e in first + after] == [e["id"] for e in events]


def test_resource_events_and_one_event(api, stack):
    name, stack_id, _ = stack
    base = "/stacks/%s/%s/resources" % (name, stack_id)
    events = api.call("GET", base + "/rand/events").json()["events"]
    assert {e["resource_status"] for e in events} == {"CREATE_IN_PROGRESS", "CREATE_COMPLETE"}
    one = api.call("GET", base + "/rand/events/" + events[0]["id"]).json()["event"]
    assert set(one) == set(_sample("event-show-response.json")["event"])
    _error(
        api.call("GET", base + "/nope/events"),
        404,
        "No events found for resource nope",
        "HTTPNotFound",
    )
    _error(api.call("GET", base + "/rand/events/x"), 404, "No event x found", "HTTPNotFound")


def test_resources_list_show_metadata(api, stack):
    name, stack_id, _ = stack
    base = "/stacks/%s/%s/resources" % (name, stack_id)
    (listed,) = api.call("GET", base).json()["resources"]
    assert "attributes" not in listed and listed["required_by"] == []
    assert listed["links"][1]["rel"] == "stack"
    (detailed,) = api.call("GET", base + "?with_detail=true").json()["resources"]
    assert detailed["description"] == ""
    shown = api.call("GET", base + "/rand").json()["resource"]
    assert set(_sample("resource-show-response.json")["resource"]) <= set(shown)
    assert len(shown["attributes"]["value"]) == 8
    assert api.call("GET", base + "/rand/metadata").json() == {"metadata": {}}
    _error(
        api.call("GET", base + "/nope"),
        404,
        "The Resource (nope) could not be found in Stack %s." % name,
        "ResourceNotFound",
    )
    _error(
        api.call("GET", base + "?foo=1"),
        400,
        "Invalid filter parameters ['foo']",
        "HTTPBadRequest",
    )
    assert api.call("GET", base + "?type=Random").json()["resources"]
    assert api.call("GET", base + "?status=CREATE_FAILED").json()["resources"] == []


def test_list_pages_counts_and_filters(api, stack):
    api.create("api-two")
    page = api.call("GET", "/stacks?limit=1&with_count=true").json()
    assert len(page["stacks"]) == 1 and page["count"] >= 2
    (link,) = page["links"]
    assert link["rel"] == "next" and "marker=%s" % page["stacks"][0]["id"] in link["href"]
    named = api.call("GET", "/stacks?name=api-one").json()["stacks"]
    assert [s["stack_name"] for s in named] == ["api-one"]
    assert api.call("GET", "/stacks?status=CREATE_COMPLETE&name=api-one").json()["stacks"]
    assert api.call("GET", "/stacks?tags=a,b").json()["stacks"][0]["stack_name"] == "api-one"
    detail = api.call("GET", "/stacks/detail").json()["stacks"]
    assert "api-one" in {s["stack_name"] for s in detail}


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("limit=x", "Only integer is acceptable by 'limit'."),
        ("limit=-1", "Value '-1' is invalid for 'limit' which only accepts non-negative integer."),
        (
            "show_deleted=maybe",
            'Unrecognized value "maybe" for "show_deleted", acceptable values are: true, false.',
        ),
        ("tags=" + "x" * 81, 'Invalid tag, "%s" is longer than 80 characters' % ("x" * 81)),
    ],
)
def test_list_refusals(api, query, message):
    _error(api.call("GET", "/stacks?" + query), 400, message, "HTTPBadRequest")


def test_global_tenant_is_denied_by_heats_policy(api):
    _error(
        api.call("GET", "/stacks?global_tenant=true"),
        403,
        "You are not authorized to use stacks:global_index.",
        "Forbidden",
    )


@pytest.mark.parametrize(
    ("body", "status", "message", "type_"),
    [
        ({"template": TEMPLATE}, 400, "No stack name specified", "HTTPBadRequest"),
        ({"stack_name": "x"}, 400, "No template specified", "HTTPBadRequest"),
        (
            {"stack_name": "x", "template_url": "http://example.invalid/t.yaml"},
            400,
            "Could not retrieve template: Failed to retrieve template from "
            "http://example.invalid/t.yaml",
            "HTTPBadRequest",
        ),
        (
            {"stack_name": "x", "template_url": "ftp://h/t"},
            400,
            "Could not retrieve template: Invalid URL scheme ftp",
            "HTTPBadRequest",
        ),
        (
            {"stack_name": "x", "template": "resources: {}"},
            400,
            "Template not in valid format: Template format version not found.",
            "HTTPBadRequest",
        ),
        (
            {"stack_name": "x", "template": "[1]"},
            400,
            "Template not in valid format: The template is not a JSON object or YAML mapping.",
            "HTTPBadRequest",
        ),
        (
            {"stack_name": "x", "template": TEMPLATE, "timeout_mins": -1},
            400,
            "Value '-1' is invalid for 'timeout_mins' which only accepts non-negative integer.",
            "HTTPBadRequest",
        ),
        (
            # Heat splits tags, a string: a list is its AttributeError,
            # whose text Heat's FaultWrapper leaves out
            {"stack_name": "x", "template": TEMPLATE, "tags": ["a,b"]},
            400,
            None,
            "AttributeError",
        ),
        (
            {"stack_name": "x", "template": TEMPLATE, "converge": True},
            400,
            "converge flag only supported in stack update (or update preview) request.",
            "HTTPBadRequest",
        ),
        (
            {"stack_name": "x", "template": TEMPLATE, "environment": {"bogus": {}}},
            400,
            'Environment not in valid format: environment has wrong section "bogus"',
            "HTTPBadRequest",
        ),
    ],
)
def test_create_refusals(api, body, status, message, type_):
    _error(api.call("POST", "/stacks", json=body), status, message, type_)
    assert api.call("GET", "/stacks?name=x").json()["stacks"] == []


def test_a_template_over_heats_size_is_refused(api):
    big = dict(TEMPLATE, description="x" * 524288)
    r = api.call("POST", "/stacks", json={"stack_name": "big", "template": big})
    assert r.status_code == 400
    assert r.json()["error"]["type"] == "RequestLimitExceeded"
    assert r.json()["error"]["message"].startswith("Request limit exceeded: Template size (")


def test_files_container_is_refused(api):
    body = {"stack_name": "fc", "template": TEMPLATE, "files_container": "c"}
    r = api.call("POST", "/stacks", json=body)
    assert r.status_code == 404 and r.json()["error"]["type"] == "NotFound"
    assert r.json()["error"]["message"].startswith("Could not fetch files from container c,")


def test_preview_answers_resources_and_stores_nothing(api):
    r = api.call("POST", "/stacks/preview", json={"stack_name": "pre", "template": TEMPLATE})
    assert r.status_code == 200, r.text
    body = r.json()["stack"]
    assert body["id"] == "None" and "stack_status" not in body
    assert [res["resource_name"] for res in body["resources"]] == ["rand"]
    assert api.call("GET", "/stacks?name=pre").json()["stacks"] == []


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({}, "No action specified"),
        ({"check": None, "suspend": None}, "Multiple actions specified"),
        ({"explode": None}, "Invalid action explode specified"),
    ],
)
def test_action_refusals(api, stack, body, message):
    name, stack_id, _ = stack
    r = api.call("POST", "/stacks/%s/%s/actions" % (name, stack_id), json=body)
    _error(r, 400, message, "HTTPBadRequest")


def test_mark_unhealthy_refusals(api, stack):
    name, stack_id, _ = stack
    path = "/stacks/%s/%s/resources/rand" % (name, stack_id)
    _error(
        api.call("PATCH", path, json={"reason": "x"}),
        400,
        "Invalid keys in resource mark unhealthy {'reason'}",
        "HTTPBadRequest",
    )
    _error(
        api.call("PATCH", path, json={"resource_status_reason": "x"}),
        400,
        "Missing mandatory (mark_unhealthy) key from mark unhealthy request",
        "HTTPBadRequest",
    )


def test_update_check_and_delete(api):
    stack_id = api.create("api-life")
    api.wait("api-life", stack_id)
    base = "/stacks/api-life/%s" % stack_id
    r = api.call("PATCH", base, json={"parameters": {"n": 4}})
    assert r.status_code == 202, r.text
    assert api.wait("api-life", stack_id)["stack_status"] == "UPDATE_COMPLETE"
    changes = api.call("PUT", base + "/preview", json={"template": TEMPLATE}).json()
    assert set(changes["resource_changes"]) >= {"unchanged", "updated", "replaced"}
    assert api.call("POST", base + "/actions", json={"check": None}).status_code == 200
    assert api.wait("api-life", stack_id)["stack_status"] == "CHECK_COMPLETE"
    assert api.call("DELETE", base).status_code == 204
    assert api.wait("api-life", stack_id)["stack_status"] == "DELETE_COMPLETE"
    assert api.call("GET", "/stacks?name=api-life").json()["stacks"] == []
    deleted = api.call("GET", "/stacks?name=api-life&show_deleted=true").json()["stacks"]
    assert [s["id"] for s in deleted] == [stack_id]


def test_resource_types_versions_and_build_info(api):
    types = api.call("GET", "/resource_types").json()["resource_types"]
    assert "OS::Heat::RandomString" in types
    schema = api.call("GET", "/resource_types/OS::Heat::RandomString").json()
    assert set(schema) == set(_sample("resource-schema-response.json"))
    assert "length" in schema["properties"] and "value" in schema["attributes"]
    _error(
        api.call("GET", "/resource_types/OS::Nope"),
        404,
        "The Resource Type (OS::Nope) could not be found.",
        "EntityNotFound",
    )
    hot = api.call("GET", "/resource_types/OS::Heat::RandomString/template?template_type=hot")
    assert hot.json()["resources"]["RandomString"]["properties"]["length"] == {
        "get_param": "length"
    }
    versions = api.call("GET", "/template_versions").json()["template_versions"]
    assert {"version": "heat_template_version.2018-08-31", "type": "hot"}.items() <= next(
        v for v in versions if v["version"].endswith("2018-08-31")
    ).items()
    assert set(api.call("GET", "/build_info").json()) == {"api", "engine"}
