"""``POST /validate`` through the engine and the stack environment's
hidden values, beyond what the real Heat's recordings cover."""

import pathlib

import pytest

from tests.unit.localcloud.heat.realcloud_replay import LocalRecorder

EXAMPLE = pathlib.Path(__file__).resolve().parents[4] / "examples" / "stacks" / "app.yaml"
HIDDEN = {
    "heat_template_version": "2018-08-31",
    "parameters": {
        "pw": {"type": "string", "hidden": True},
        "seen": {"type": "string", "default": "x"},
    },
    "resources": {"n": {"type": "OS::Heat::None"}},
}


@pytest.fixture(scope="module")
def rec(tmp_path_factory):
    recorder = LocalRecorder(tmp_path_factory.mktemp("validate"), "val")
    yield recorder
    recorder.close()


def test_the_example_with_get_file_validates_without_its_files(rec):
    """get_file is not resolved at validate (Heat's strict_validate=False):
    the walkthrough's template validates as text, with or without files."""
    answer = rec.raw("POST", "/validate", {"template": EXAMPLE.read_text()})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["Description"].startswith("A server configured by a script deployment")
    assert body["Parameters"]["flavor"]["CustomConstraint"] == "nova.flavor"
    assert "encrypted_param_names" not in body["Environment"]


def test_a_bad_template_text_is_refused_as_create_refuses_it(rec):
    answer = rec.raw("POST", "/validate", {"template": "heat_template_version: [1"})
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["type"] == "HTTPBadRequest"
    assert error["message"].startswith("Template not in valid format: Error parsing template")


def test_the_environment_masks_hidden_parameters(rec):
    body = {
        "stack_name": "hidden",
        "template": HIDDEN,
        "parameters": {"pw": "secret"},
        "environment": {"parameter_defaults": {"pw": "other", "seen": "y"}},
    }
    status, created = rec.create("hidden", body)
    assert status == 201, created
    path = "/stacks/hidden/%s" % created["stack"]["id"]
    assert rec.wait(path)["stack_status"] == "CREATE_COMPLETE"
    env = rec.raw("GET", path + "/environment").json()
    assert env["parameters"] == {"pw": "******"}
    assert env["parameter_defaults"] == {"pw": "******", "seen": "y"}
    assert env["encrypted_param_names"] == []
