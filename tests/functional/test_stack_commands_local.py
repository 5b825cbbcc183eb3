"""The stack commands end to end against the local cloud's Heat (cloud
``local``, user demo): a stack of Heat-native resources created, waited
for, read and deleted; a failing stack's one-line reason."""

import json

import pytest

pytestmark = pytest.mark.local_cloud()

TEMPLATE = """heat_template_version: 2018-08-31
parameters:
  length: {type: number, default: 8}
resources:
  secret:
    type: OS::Heat::RandomString
    properties: {length: {get_param: length}}
  greeting:
    type: OS::Heat::Value
    properties: {value: {get_file: hello.txt}}
outputs:
  secret_length:
    value: {str_replace: {template: n=L, params: {L: {get_param: length}}}}
  greeting:
    value: {get_attr: [greeting, value]}
"""


@pytest.fixture
def occli(local_cloud, run_occli):
    def run(*argv):
        return run_occli("--os-cloud", "local", *argv)

    return run


def test_create_wait_outputs_delete(occli, tmp_path):
    (tmp_path / "app.yaml").write_text(TEMPLATE)
    (tmp_path / "hello.txt").write_text("hello")
    code, out, err = occli(
        "stack", "create", "-t", tmp_path / "app.yaml", "--parameter", "length=12",
        "--wait", "--poll", "0.2", "--wait-timeout", "60", "-f", "json", "app",
    )  # fmt: skip
    assert code == 0, err
    assert json.loads(out)["stack_status"] == "CREATE_COMPLETE"
    assert "[app]: CREATE_COMPLETE" in err
    code, out, err = occli("stack", "output", "show", "app", "greeting", "-f", "json")
    assert code == 0, err
    assert json.loads(out)["output_value"] == "hello"
    code, out, err = occli("stack", "resource", "list", "app", "-f", "json")
    assert code == 0, err
    assert {r["resource_name"] for r in json.loads(out)} == {"secret", "greeting"}
    code, out, err = occli("stack", "delete", "-y", "--wait", "--poll", "0.2", "app")
    assert code == 0, err
    code, out, err = occli("stack", "list", "-f", "json")
    assert code == 0, err
    assert "app" not in [s["Stack Name"] for s in json.loads(out)]


FAILING = """heat_template_version: 2018-08-31
resources:
  fine:
    type: OS::Heat::RandomString
  broken:
    type: OS::Heat::TestResource
    properties: {fail: true}
"""


def test_a_failed_create_exits_1_naming_the_resource(occli, tmp_path):
    (tmp_path / "bad.yaml").write_text(FAILING)
    code, out, err = occli(
        "stack", "create", "-t", tmp_path / "bad.yaml", "--wait", "--poll", "0.2",
        "--wait-timeout", "60", "bad",
    )  # fmt: skip
    assert code == 1
    last = err.strip().splitlines()[-1]
    assert last.startswith("Stack bad CREATE_FAILED: resource broken (OS::Heat::TestResource)")
    code, out, err = occli("stack", "failures", "list", "bad")
    assert code == 0, err
    assert out.startswith("bad.broken:\n  resource_type: OS::Heat::TestResource\n")


def test_usage_errors_before_any_request(occli, tmp_path):
    code, out, err = occli("stack", "create", "-t", tmp_path / "none.yaml", "x")
    assert code == 2
    assert "--template: cannot read" in err
