"""The stack commands in-process against a mocked Heat (requests-mock, heat's
api-ref samples): template processing, --wait over events, usage errors."""

import json

import pytest

from .fakes import HEAT
from .fakes import requests_to
from .test_stack_managers import CANONICAL
from .test_stack_managers import STACK_ID
from .test_stack_managers import lookup
from .test_stack_managers import sample

STACK_LINK = [{"rel": "stack", "href": CANONICAL}]


def stack_body(status="CREATE_COMPLETE", reason="Stack CREATE completed successfully"):
    body = sample("stack-show-response")
    body["stack"].update(stack_status=status, stack_status_reason=reason)
    return body


def event(eid, name, status, reason="state changed", physical=None):
    return {
        "id": eid,
        "event_time": "2024-01-01T00:00:0%s" % eid[-1],
        "resource_name": name,
        "logical_resource_id": name,
        "physical_resource_id": physical,
        "resource_status": status,
        "resource_status_reason": reason,
        "links": STACK_LINK,
    }


@pytest.fixture
def app(tmp_path):
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "install.sh").write_text("#!/bin/sh\necho hi\n")
    (tmp_path / "nested.yaml").write_text(
        "heat_template_version: 2018-08-31\n"
        "resources:\n  cfg:\n    type: OS::Heat::SoftwareConfig\n"
        "    properties:\n      config: {get_file: scripts/install.sh}\n"
    )
    (tmp_path / "app.yaml").write_text(
        "heat_template_version: 2018-08-31\n"
        "parameters:\n  flavor: {type: string}\n"
        "resources:\n"
        "  inner: {type: nested.yaml}\n"
        "  script:\n    type: OS::Heat::SoftwareConfig\n"
        "    properties:\n      config: {get_file: scripts/install.sh}\n"
    )
    (tmp_path / "env.yaml").write_text(
        "resource_registry:\n  My::Thing: nested.yaml\n"
        "  My::Builtin: OS::Heat::None\n"
        "parameter_defaults:\n  flavor: m1.tiny\n"
    )
    (tmp_path / "env2.yaml").write_text("parameter_defaults:\n  flavor: m1.small\n")
    (tmp_path / "key.txt").write_text("ssh-rsa AAA\n")
    return tmp_path


def test_create_sends_heatclients_files_environment_and_parameters(cli, mock_cloud, app):
    m = mock_cloud.mock
    m.post(HEAT + "/stacks", status_code=201, json=sample("stack-create-response"))
    m.get(HEAT + "/stacks/simple_stack/" + STACK_ID, json=stack_body())
    code, out, err = cli(
        "stack", "create", "-t", str(app / "app.yaml"),
        "-e", str(app / "env.yaml"), "-e", str(app / "env2.yaml"),
        "--parameter", "a=1", "--parameter", "a=2",
        "--parameter-file", "key=key.txt", "--tags", "x,y", "--timeout", "7",
        "-f", "json", "simple_stack",
    )  # fmt: skip
    assert code == 0, err
    body = requests_to(m, "POST", "/stacks")[0].json()
    base = app.resolve().as_uri()
    script, nested = base + "/scripts/install.sh", base + "/nested.yaml"
    assert body["stack_name"] == "simple_stack"
    assert body["disable_rollback"] is True
    assert body["parameters"] == {"a": ["1", "2"], "key": "ssh-rsa AAA\n"}
    assert body["tags"] == "x,y" and body["timeout_mins"] == 7
    assert body["template"]["resources"]["inner"]["type"] == nested
    assert body["template"]["resources"]["script"]["properties"]["config"]["get_file"] == script
    assert body["files"][script] == "#!/bin/sh\necho hi\n"
    # a nested template is stored as JSON, its own get_file rewritten and read
    assert json.loads(body["files"][nested])["resources"]["cfg"]["properties"] == {
        "config": {"get_file": script}
    }
    assert body["environment"]["parameter_defaults"] == {"flavor": "m1.small"}
    assert body["environment"]["resource_registry"]["My::Thing"] == nested
    assert body["environment"]["resource_registry"]["My::Builtin"] == "OS::Heat::None"
    assert body["environment_files"] == [base + "/env.yaml", base + "/env2.yaml"]
    assert json.loads(out)["id"] == STACK_ID


@pytest.mark.parametrize(
    "argv, text",
    [
        (("-t", "missing.yaml"), "--template: cannot read"),
        (("-t", "http://example.test/a.yaml"), "--template: cannot read http://example.test"),
        (("-t", "{app}/app.yaml", "-e", "{app}/nope.yaml"), "--environment: cannot read"),
        (("-t", "{app}/app.yaml", "--parameter", "novalue"), "--parameter: Malformed parameter"),
        (("-t", "{app}/app.yaml", "--parameter-file", "k=nofile"), "--parameter-file: cannot"),
        (
            (
                "-t",
                "{app}/key.txt",
            ),
            "Template format version not found.",
        ),
        (("-t", "{app}/app.yaml", "-e", "{app}/key.txt"), "--environment: Error parsing"),
    ],
)
def test_create_usage_errors_exit_2_before_any_request(cli, mock_cloud, app, argv, text):
    argv = [a.format(app=app) for a in argv]
    code, out, err = cli("stack", "create", *argv, "s1")
    assert code == 2, err
    assert text in err
    assert len(err.strip().splitlines()) == 1
    assert not requests_to(mock_cloud.mock, "POST", "/stacks")
    assert not requests_to(mock_cloud.mock, "GET", "/heat/")


def test_create_dry_run_previews_and_creates_nothing(cli, mock_cloud, app):
    m = mock_cloud.mock
    m.post(HEAT + "/stacks/preview", json=sample("stack-preview-response"))
    template = str(app / "app.yaml")
    code, out, err = cli("stack", "create", "--dry-run", "-t", template, "-f", "json", "s")
    assert code == 0, err
    assert "resources" in json.loads(out)
    assert [r.url for r in requests_to(m, "POST", "/stacks")] == [HEAT + "/stacks/preview"]


def _wait_mocks(m, events, final="CREATE_COMPLETE", resources=None, nested=None):
    m.post(HEAT + "/stacks", status_code=201, json=sample("stack-create-response"))
    m.get(CANONICAL, json=stack_body(final, "Resource CREATE failed: boom"))
    m.get(CANONICAL + "/events", [{"json": {"events": e}} for e in events])
    m.get(CANONICAL + "/resources", json={"resources": resources or []})
    for ident, rows in (nested or {}).items():
        m.get(HEAT + "/stacks/%s/resources" % ident, json={"resources": rows})


def test_create_wait_streams_events_and_stops_on_the_stack_event(cli, mock_cloud, app):
    m = mock_cloud.mock
    events = [
        [event("e1", "simple_stack", "CREATE_IN_PROGRESS", "Stack CREATE started", STACK_ID)],
        [event("e2", "script", "CREATE_COMPLETE", physical="c1")],
        [event("e3", "simple_stack", "CREATE_COMPLETE", "Stack CREATE completed", STACK_ID)],
    ]
    _wait_mocks(m, events)
    code, out, err = cli(
        "stack", "create", "--wait", "--poll", "0", "-t", str(app / "app.yaml"), "simple_stack"
    )
    assert code == 0, err
    assert "[simple_stack.script]: CREATE_COMPLETE  state changed" in err
    assert "e3 [simple_stack]: CREATE_COMPLETE  Stack CREATE completed" in err
    polls = requests_to(m, "GET", "/events")
    assert [r.qs.get("marker") for r in polls] == [None, ["e1"], ["e2"]]
    assert all(r.qs["sort_dir"] == ["asc"] for r in polls)


def test_create_wait_failure_is_one_line_naming_the_deepest_resource(cli, mock_cloud, app):
    m = mock_cloud.mock
    nested_link = {"rel": "nested", "href": HEAT + "/stacks/simple_stack-inner-x/n1"}
    inner = {
        "resource_name": "inner",
        "resource_type": "nested.yaml",
        "resource_status": "CREATE_FAILED",
        "resource_status_reason": "Error: resources.inner: boom",
        "physical_resource_id": "n1",
        "links": STACK_LINK + [nested_link],
    }
    deepest: dict[str, object] = {
        "resource_name": "cfg",
        "resource_type": "OS::Heat::SoftwareConfig",
        "resource_status": "CREATE_FAILED",
        "resource_status_reason": "BadRequest: config\nis wrong",
        "physical_resource_id": None,
        "links": [],
    }
    events = [
        [event("e1", "simple_stack", "CREATE_FAILED", "Resource CREATE failed: x", STACK_ID)],
    ]
    nested = {"simple_stack-inner-x/n1": [deepest]}
    _wait_mocks(m, events, "CREATE_FAILED", resources=[inner], nested=nested)
    code, out, err = cli(
        "stack", "create", "--wait", "--poll", "0", "-t", str(app / "app.yaml"), "simple_stack"
    )
    assert code == 1
    last = err.strip().splitlines()[-1]
    assert last == (
        "Stack simple_stack CREATE_FAILED: resource inner.cfg (OS::Heat::SoftwareConfig) "
        "CREATE_FAILED: BadRequest: config is wrong"
    )


def test_wait_falls_back_to_the_stack_after_two_empty_polls(cli, mock_cloud, app):
    m = mock_cloud.mock
    _wait_mocks(m, [[], [], []])
    code, out, err = cli(
        "stack", "create", "--wait", "--poll", "0", "-t", str(app / "app.yaml"), "simple_stack"
    )
    assert code == 0, err
    assert len(requests_to(m, "GET", "/events")) == 2
    shows = [r for r in m.request_history if r.url.split("?")[0] == CANONICAL]
    # the fallback, then the short show of the result: neither resolves outputs
    assert [r.qs for r in shows] == [{"resolve_outputs": ["false"]}] * 2


def test_wait_times_out(cli, mock_cloud, app):
    m = mock_cloud.mock
    _wait_mocks(m, [[]], final="CREATE_IN_PROGRESS")
    code, out, err = cli(
        "stack", "create", "--wait", "--poll", "0", "--wait-timeout", "0",
        "-t", str(app / "app.yaml"), "simple_stack",
    )  # fmt: skip
    assert code == 1
    assert "Timed out after 0s waiting for stack simple_stack to finish CREATE" in err


def test_update_existing_patches_and_waits_after_the_last_event(cli, mock_cloud):
    m = mock_cloud.mock
    lookup(m)
    m.get(CANONICAL, json=stack_body("UPDATE_COMPLETE"))
    m.patch(CANONICAL, status_code=202)
    m.get(
        CANONICAL + "/events",
        [
            {"json": {"events": [event("e9", "old", "CREATE_COMPLETE")]}},
            {"json": {"events": [event("ea", "simple_stack", "UPDATE_COMPLETE", "", STACK_ID)]}},
        ],
    )
    code, out, err = cli(
        "stack", "update", "--existing", "--parameter", "n=3", "--wait", "--poll", "0",
        "simple_stack",
    )  # fmt: skip
    assert code == 0, err
    assert requests_to(m, "PATCH", "/stacks/")[0].json() == {
        "parameters": {"n": "3"},
        "files": {},
        "environment": {},
    }
    first, second = requests_to(m, "GET", "/events")
    assert first.qs == {"sort_dir": ["desc"], "limit": ["1"]}
    assert second.qs == {"sort_dir": ["asc"], "marker": ["e9"]}


def test_update_without_template_or_existing_is_a_usage_error(cli, mock_cloud):
    code, out, err = cli("stack", "update", "simple_stack")
    assert code == 2
    assert "--template: a template is required" in err
    assert not requests_to(mock_cloud.mock, "GET", "/stacks")


def test_delete_wait_counts_a_vanished_stack_as_deleted(cli, mock_cloud):
    m = mock_cloud.mock
    lookup(m)
    m.get(CANONICAL, json=stack_body())
    m.delete(CANONICAL, status_code=204)
    m.get(
        CANONICAL + "/events",
        [{"json": {"events": []}}, {"status_code": 404, "json": {"error": {"message": "gone"}}}],
    )
    code, out, err = cli("stack", "delete", "-y", "--wait", "--poll", "0", "simple_stack")
    assert code == 0, err
    assert len(requests_to(m, "DELETE", "/stacks/")) == 1


def test_list_columns_and_filters(cli, mock_cloud):
    m = mock_cloud.mock
    m.get(HEAT + "/stacks", json=sample("stacks-list-response"))
    code, out, err = cli(
        "stack", "list", "--property", "status=FAILED", "--tags", "a", "--tag-mode", "any",
        "--nested", "--long", "-f", "json",
    )  # fmt: skip
    assert code == 0, err
    rows = json.loads(out)
    assert list(rows[0]) == [
        "ID", "Stack Name", "Stack Owner", "Stack Status", "Creation Time", "Updated Time",
        "Parent",
    ]  # fmt: skip
    qs = requests_to(m, "GET", "/stacks")[0].qs
    assert qs["status"] == ["failed"] and qs["tags_any"] == ["a"]
    assert qs["global_tenant"] == ["true"] and qs["show_nested"] == ["true"]


def test_output_show_errors_and_output_error(cli, mock_cloud):
    m = mock_cloud.mock
    code, out, err = cli("stack", "output", "show", "simple_stack")
    assert code == 2 and "Either <OUTPUT NAME> or --all must be specified." in err
    lookup(m)
    m.get(CANONICAL + "/outputs/output_name", json=sample("stack-output-show-response"))
    code, out, err = cli("stack", "output", "show", "simple_stack", "output_name")
    assert code == 1
    assert "Output error: error message" in err


def test_template_show_prints_yaml(cli, mock_cloud):
    m = mock_cloud.mock
    lookup(m, sub="/template")
    m.get(CANONICAL + "/template", json=sample("template-show-response"))
    code, out, err = cli("stack", "template", "show", "simple_stack")
    assert code == 0, err
    import yaml

    assert yaml.safe_load(out) == sample("template-show-response")


def test_resource_signal_refuses_non_json_before_any_request(cli, mock_cloud):
    code, out, err = cli("stack", "resource", "signal", "--data", "[1]", "s", "r")
    assert code == 2 and "--data: Data should be a JSON dict" in err
    code, out, err = cli("stack", "resource", "signal", "--data", "{", "s", "r")
    assert code == 2 and "--data: Data should be in JSON format" in err
    assert not requests_to(mock_cloud.mock, "POST", "/signal")


def test_failures_list_prints_the_deepest_failures(cli, mock_cloud):
    m = mock_cloud.mock
    lookup(m)
    m.get(CANONICAL, json=stack_body("CREATE_FAILED"))
    m.get(
        CANONICAL + "/resources",
        json={
            "resources": [
                {
                    "resource_name": "server",
                    "resource_type": "OS::Nova::Server",
                    "resource_status": "CREATE_FAILED",
                    "resource_status_reason": "Went to status ERROR",
                    "physical_resource_id": "vm1",
                    "links": STACK_LINK,
                }
            ]
        },
    )
    code, out, err = cli("stack", "failures", "list", "simple_stack")
    assert code == 0, err
    assert out.splitlines()[:5] == [
        "simple_stack.server:",
        "  resource_type: OS::Nova::Server",
        "  physical_resource_id: vm1",
        "  status: CREATE_FAILED",
        "  status_reason: |",
    ]


def test_event_list_log_lines(cli, mock_cloud):
    m = mock_cloud.mock
    lookup(m, sub="/events")
    m.get(CANONICAL + "/events", json=sample("events-list-response"))
    code, out, err = cli("stack", "event", "list", "--log", "simple_stack")
    assert code == 0, err
    assert out.splitlines()[0] == (
        "2014-07-23 08:14:47Z 474bfdf0-a450-46ec-a78a-0c7faa404073 [port]: "
        "CREATE_FAILED  NotFound: Subnet f8a699d0-3537-429e-87a5-6b5a8d0c2bf0 could not be found"
    )


def test_resource_type_list_and_template_versions(cli, mock_cloud):
    m = mock_cloud.mock
    m.get(HEAT + "/resource_types", json=sample("resource-types-list-response"))
    m.get(HEAT + "/template_versions", json=sample("template-versions-response"))
    code, out, err = cli("orchestration", "resource", "type", "list", "-f", "value")
    assert code == 0, err
    assert out.split() == sorted(sample("resource-types-list-response")["resource_types"])
    code, out, err = cli("orchestration", "template", "version", "list", "-f", "json")
    assert code == 0, err
    assert json.loads(out)[-1] == {
        "Version": "heat_template_version.2017-02-24",
        "Type": "hot",
        "Aliases": ["heat_template_version.ocata"],
    }
