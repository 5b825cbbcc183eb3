"""Stack, stack resource/event and resource type managers against heat's
api-ref samples (tests/fixtures/heat/api-ref, see its SOURCES.md)."""

import json
import os

import pytest

from occli import exceptions

from .fakes import FIXTURES
from .fakes import HEAT
from .fakes import requests_to

SAMPLES = os.path.join(FIXTURES, "heat", "api-ref")
STACK_ID = "3095aefc-09fb-4bc7-b1f0-f21a304e864c"
CANONICAL = HEAT + "/stacks/simple_stack/" + STACK_ID


def sample(name):
    with open(os.path.join(SAMPLES, name + ".json")) as f:
        return json.load(f)


def lookup(m, name="simple_stack", sub=""):
    """Heat's 302 of /stacks/<name>[/sub] to the canonical URL, its query
    string kept (heat/api/openstack/v1/stacks.py, lookup)."""

    def redirect(request, context):
        query = request.url.partition("?")[2]
        context.headers["Location"] = CANONICAL + sub + ("?" + query if query else "")
        return ""

    m.get(HEAT + "/stacks/%s%s" % (name, sub), status_code=302, text=redirect)


def test_get_follows_heats_lookup_redirect(client, mock_cloud):
    m = mock_cloud.mock
    lookup(m)
    m.get(CANONICAL, json=sample("stack-show-response"))
    stack = client.stacks.get("simple_stack")
    assert stack.id == STACK_ID
    assert (stack.action, stack.status) == ("CREATE", "COMPLETE")
    assert stack.identifier == "simple_stack/" + STACK_ID
    assert len(requests_to(m, "GET", "/stacks/")) == 2


def test_get_without_outputs_asks_heat_not_to_resolve_them(client, mock_cloud):
    m = mock_cloud.mock
    m.get(CANONICAL, json=sample("stack-show-response"))
    client.stacks.get("simple_stack/" + STACK_ID, resolve_outputs=False)
    assert requests_to(m, "GET", "/stacks/")[0].qs == {"resolve_outputs": ["false"]}


def test_update_resolves_the_name_itself_and_puts_to_the_canonical_url(client, mock_cloud):
    m = mock_cloud.mock
    lookup(m)
    m.put(CANONICAL, status_code=202)
    m.patch(CANONICAL, status_code=202)
    client.stacks.update("simple_stack", template={"heat_template_version": "2018-08-31"})
    client.stacks.update("simple_stack", existing=True, parameters={"a": "1"})
    puts = requests_to(m, "PUT", "/stacks/")
    assert [r.url for r in puts] == [CANONICAL]
    assert puts[0].json() == {"template": {"heat_template_version": "2018-08-31"}}
    assert requests_to(m, "PATCH", "/stacks/")[0].json() == {"parameters": {"a": "1"}}
    # the lookup's Location was read, not followed
    gets = [r.url for r in requests_to(m, "GET", "/stacks/")]
    assert gets == [HEAT + "/stacks/simple_stack"] * 2


def test_a_name_heat_does_not_know_is_its_404(client, mock_cloud):
    m = mock_cloud.mock
    m.get(
        HEAT + "/stacks/nosuch",
        status_code=404,
        json={"error": {"message": "The Stack (nosuch) could not be found.", "type": "NotFound"}},
    )
    with pytest.raises(exceptions.NotFound, match=r"The Stack \(nosuch\) could not be found"):
        client.stacks.delete("nosuch")
    assert not requests_to(m, "DELETE", "/stacks/")


def test_create_posts_heatclients_fields_and_returns_heats_body(client, mock_cloud):
    m = mock_cloud.mock
    m.post(HEAT + "/stacks", status_code=201, json=sample("stack-create-response"))
    body = client.stacks.create(stack_name="teststack", template={"a": 1}, disable_rollback=True)
    assert body["stack"]["id"] == STACK_ID
    assert requests_to(m, "POST", "/stacks")[0].json() == {
        "stack_name": "teststack",
        "template": {"a": 1},
        "disable_rollback": True,
    }


def test_list_sends_filters_and_follows_next_links(client, mock_cloud):
    m = mock_cloud.mock
    first = sample("stacks-list-response")
    first["links"] = [{"rel": "next", "href": HEAT + "/stacks?marker=m1&limit=1"}]
    m.get(HEAT + "/stacks", [{"json": first}, {"json": {"stacks": []}}])
    got = client.stacks.list(filters={"status": "FAILED"}, show_nested=True, limit=None)
    assert [s.stack_name for s in got] == [s["stack_name"] for s in first["stacks"]]
    sent = [r.qs for r in requests_to(m, "GET", "/stacks")]
    assert sent[0] == {"status": ["failed"], "show_nested": ["true"]}
    assert sent[1]["marker"] == ["m1"]


def test_list_refuses_an_unknown_keyword(client):
    with pytest.raises(TypeError, match="sort_key"):
        client.stacks.list(sort_key="name")


def test_actions_post_heats_body(client, mock_cloud):
    m = mock_cloud.mock
    m.post(CANONICAL + "/actions", status_code=200)
    for action in ("suspend", "resume", "check", "cancel_update", "cancel_without_rollback"):
        getattr(client.stacks, action)("simple_stack/" + STACK_ID)
    bodies = [r.json() for r in requests_to(m, "POST", "/actions")]
    assert bodies == [
        {"suspend": None},
        {"resume": None},
        {"check": None},
        {"cancel_update": None},
        {"cancel_without_rollback": None},
    ]


def test_outputs_template_environment_files(client, mock_cloud):
    m = mock_cloud.mock
    ident = "simple_stack/" + STACK_ID
    m.get(CANONICAL + "/outputs", json=sample("stack-outputs-list-response"))
    m.get(CANONICAL + "/outputs/output_name", json=sample("stack-output-show-response"))
    m.get(CANONICAL + "/template", json=sample("template-show-response"))
    m.get(CANONICAL + "/environment", json=sample("stack-environment-show-response"))
    m.get(CANONICAL + "/files", json=sample("stack-files-show-response"))
    assert client.stacks.output_list(ident)["outputs"][0]["output_key"] == "output name"
    assert client.stacks.output_show(ident, "output_name")["output"]["output_error"]
    assert client.stacks.template(ident) == sample("template-show-response")
    assert client.stacks.environment(ident) == sample("stack-environment-show-response")
    assert client.stacks.files(ident) == sample("stack-files-show-response")


def test_resources_list_get_metadata_signal_mark(client, mock_cloud):
    m = mock_cloud.mock
    lookup(m, sub="/resources")
    m.get(CANONICAL + "/resources", json=sample("resources-list-response"))
    m.get(CANONICAL + "/resources/random_key_name", json=sample("resource-show-response"))
    m.patch(CANONICAL + "/resources/random_key_name", status_code=200)
    m.get(
        CANONICAL + "/resources/random_key_name/metadata",
        json=sample("resource-metadata-response"),
    )
    m.post(CANONICAL + "/resources/random_key_name/signal", status_code=200)
    ident = "simple_stack/" + STACK_ID
    res = client.stack_resources.list("simple_stack", nested_depth=2)
    assert res[0].resource_type == "OS::Heat::RandomString"
    assert res[0].stack_name == "mystack"
    assert requests_to(m, "GET", "/resources")[0].qs == {"nested_depth": ["2"]}
    shown = client.stack_resources.get(ident, "random_key_name", with_attr=["value"])
    assert shown.resource_name
    assert (
        client.stack_resources.metadata(ident, "random_key_name")
        == (sample("resource-metadata-response")["metadata"])
    )
    client.stack_resources.signal(ident, "random_key_name", data={"status": "SUCCESS"})
    client.stack_resources.mark_unhealthy(ident, "random_key_name", True, "broken")
    assert requests_to(m, "POST", "/signal")[0].json() == {"status": "SUCCESS"}
    assert requests_to(m, "PATCH", "/resources/")[0].json() == {
        "mark_unhealthy": True,
        "resource_status_reason": "broken",
    }


def _resource(name, status, nested=None, rtype="OS::Heat::RandomString", reason="r"):
    links = [{"rel": "stack", "href": HEAT + "/stacks/s/x"}]
    if nested:
        links.append({"rel": "nested", "href": HEAT + "/stacks/%s" % nested})
    return {
        "resource_name": name,
        "resource_status": status,
        "resource_type": rtype,
        "resource_status_reason": reason,
        "physical_resource_id": nested.split("/")[-1] if nested else "p-" + name,
        "links": links,
    }


def test_failures_walk_into_failed_nested_stacks(client, mock_cloud):
    m = mock_cloud.mock
    show = sample("stack-show-response")
    show["stack"]["stack_status"] = "CREATE_FAILED"
    m.get(CANONICAL, json=show)
    m.get(
        CANONICAL + "/resources",
        json={
            "resources": [
                _resource("ok", "CREATE_COMPLETE"),
                _resource("group", "CREATE_FAILED", nested="simple_stack-group-x/n1"),
                _resource("alone", "CREATE_FAILED"),
            ]
        },
    )
    m.get(
        HEAT + "/stacks/simple_stack-group-x/n1/resources",
        json={"resources": [_resource("0", "CREATE_FAILED", reason="boom")]},
    )
    failures = client.stack_resources.failures("simple_stack/" + STACK_ID)
    assert list(failures) == ["simple_stack.group.0", "simple_stack.alone"]
    assert failures["simple_stack.group.0"].resource_status_reason == "boom"


def test_failures_of_a_stack_that_did_not_fail_are_none(client, mock_cloud):
    m = mock_cloud.mock
    m.get(CANONICAL, json=sample("stack-show-response"))
    assert client.stack_resources.failures("simple_stack/" + STACK_ID) == {}
    assert not requests_to(m, "GET", "/resources")


def test_events_list_and_get(client, mock_cloud):
    m = mock_cloud.mock
    lookup(m, sub="/events")
    m.get(CANONICAL + "/events", json=sample("events-list-response"))
    m.get(
        CANONICAL + "/resources/port/events/474bfdf0",
        json=sample("event-show-response"),
    )
    events = client.stack_events.list("simple_stack", sort_dir="asc", marker="e1", limit=None)
    assert events[0].resource_status == "CREATE_FAILED"
    assert requests_to(m, "GET", "/events")[-1].qs == {"sort_dir": ["asc"], "marker": ["e1"]}
    event = client.stack_events.get("simple_stack/" + STACK_ID, "port", "474bfdf0")
    assert event.id


def test_resource_types_template_versions_build_info(client, mock_cloud):
    m = mock_cloud.mock
    m.get(HEAT + "/resource_types", json=sample("resource-types-list-response"))
    m.get(
        HEAT + "/resource_types/OS%3A%3AHeat%3A%3ARandomString",
        json=sample("resource-schema-response"),
    )
    m.get(HEAT + "/template_versions", json=sample("template-versions-response"))
    m.get(
        HEAT + "/template_versions/heat_template_version.2016-10-14/functions",
        json=sample("template-functions-list-response"),
    )
    m.get(HEAT + "/build_info", json=sample("build-info-response"))
    types = client.resource_types.list()
    assert types[0].resource_type == "AWS::EC2::Instance"
    schema = client.resource_types.get("OS::Heat::RandomString")
    assert "properties" in schema
    versions = client.template_versions.list()
    assert versions[-1].aliases == ["heat_template_version.ocata"]
    functions = client.template_versions.get("heat_template_version.2016-10-14")
    assert functions[0].functions
    assert client.heat_build_info.build_info() == sample("build-info-response")
