"""``GET …/export`` with abandon enabled: Heat's ``Stack.prepare_abandon``
(``heat/engine/stack.py``): the user's view of the environment
(``user_env_as_dict``: no ``encrypted_param_names``), the template's
``files``, the tags as a list. The recordings have abandon disabled (the
rig's default heat.conf), so the environment and files are compared with
the recorded ``GET …/environment`` and ``GET …/files`` of the same stack.
"""

import pytest

from tests.fidelity import heat_templates as T
from tests.unit.localcloud.heat import realcloud_replay as replay

# heat/engine/stack.py prepare_abandon's keys
ABANDON_KEYS = {
    "name",
    "id",
    "action",
    "environment",
    "files",
    "status",
    "template",
    "resources",
    "project_id",
    "stack_user_project_id",
    "tags",
}


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """The nesting stack (a template resource from ``files``) created and
    exported; (export body, environment body, files body, stack id)."""
    rec = replay.LocalRecorder(
        tmp_path_factory.mktemp("export"), "exp", heat_enable_stack_abandon=True
    )
    try:
        body = {"template": T.NESTING, "environment": T.NESTING_ENV, "files": T.NESTING_FILES}
        status, answer = rec.create("exp-nest", body)
        assert status == 201, answer
        path = "/stacks/exp-nest/%s" % answer["stack"]["id"]
        assert rec.wait(path)["stack_status"] == "CREATE_COMPLETE"
        results = [rec.raw("GET", path + tail) for tail in ("/export", "/environment", "/files")]
        assert [r.status_code for r in results] == [200, 200, 200], [r.text for r in results]
        return (*[r.json() for r in results], answer["stack"]["id"])
    finally:
        rec.close()


def test_export_has_heats_keys(exported):
    data, _, _, stack_id = exported
    assert set(data) == ABANDON_KEYS
    assert (data["id"], data["name"]) == (stack_id, "exp-nest")
    assert (data["action"], data["status"]) == ("CREATE", "COMPLETE")
    assert data["tags"] == []
    assert data["template"] == T.NESTING
    assert set(data["resources"]) == {"thing", "child"}


def test_export_environment_is_the_users_view(exported):
    """Heat 27's recorded environment of this stack, less the stored-only
    ``encrypted_param_names``."""
    data, environment, _, _ = exported
    recorded = replay.recording("nested")["exchanges"]["environment_nesting"]["body"]
    assert environment == recorded
    assert data["environment"] == {
        k: v for k, v in recorded.items() if k != "encrypted_param_names"
    }


def test_export_files_are_the_templates(exported):
    data, _, files, _ = exported
    assert data["files"] == files == T.NESTING_FILES
