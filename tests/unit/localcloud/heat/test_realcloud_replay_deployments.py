"""The real Heat 27's answers for software deployments (``tests/fixtures/
heat/realcloud``: ``heat-27-deployment.json``, a NO_SIGNAL deployment to a
POLL_SERVER_HEAT server, and ``heat-27-signals.json``, two HEAT_SIGNAL
deployments signalled through the resource signal API), replayed against a
fresh local cloud with the recorder's own case functions
(``realcloud_replay.LocalRecorder``).

Each exchange must match the recorded one in status, error, body key paths
and JSON types (:func:`realcloud_replay.differences`), and its whole body
once both are made comparable (:func:`_comparable`): ids, timestamps and
Heat's 12-character short ids (physical names) as placeholders, lists of
resources, outputs and ``required_by`` in a fixed order (Heat gives none),
and the documented deviations masked, each for its reason:

* credentials: the rig's Heat makes a stack-domain user per server and
  deployment (``user_id``, ``password``, a stack-user project); the local
  cloud has no stack domain, so they are None and the stack's own project
  stands for the stack-user project (``server_base``'s docstring);
* the rig's Keystone URL (``http://127.0.0.1:5000/v3/``) is its own; the
  member's user name is the run's (``stack_owner``);
* the server's ``pinned_availability_zone`` and ``hostId``: the local
  Heat calls Nova at 2.91 (``nova/client_plugin.py``), before 2.96 added
  the former; the latter hashes the rig's host;
* ``deletion_time`` right after DELETE_COMPLETE (as
  ``test_realcloud_replay_api``'s ``DELETION_TIME``: the legacy engine
  soft-deletes as it writes the state).

Events are compared per resource (resources made at once interleave in no
fixed order).
"""

import json
import re
import time
from typing import Any

import pytest

from tests.fidelity import record_heat_cases as cases
from tests.unit.localcloud.heat import realcloud_replay as replay

_TIMESTAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z?")
# Heat's physical names end in a short id (heat/common/short_id.py)
_SHORT_ID = re.compile(r"-[a-z2-7]{12}\b")
# the server's links name Nova's endpoint (the rig's port, the local path)
_NOVA = re.compile(r"http://127\.0\.0\.1(:8774|/compute)/")
_MASKED = "<deviation>"
# keys whose values are the documented deviations (module docstring)
_MASKED_KEYS = {
    "user_id",
    "password",
    "auth_url",
    "stack_user_project_id",
    "stack_owner",
    "hostId",
    "deletion_time",
}
_MASKED_INPUTS = {"deploy_auth_url", "deploy_user_id", "deploy_password", "deploy_project_id"}
_DROPPED_KEYS = {"pinned_availability_zone"}

DEPLOYMENT = (
    "create_deployment",
    "show_deployment",
    "resources_deployment",
    "resource_server",
    "resource_config",
    "resource_deploy",
    "server_metadata",
    "software_deployments",
    "signal_no_signal_deployment",
    "update_input_values",
    "show_after_update",
    "resources_after_update",
    "delete_deployment_stack",
    "show_deleted_deployment",
)
SIGNALS = (
    "create",
    "show_waiting",
    "resource_waiting",
    "deploy_metadata",
    "server_metadata",
    "signal_ok",
    "signal_bad",
    "show_after_signals",
    "resources_after_signals",
    "resource_bad",
    "signal_after_complete",
)
EXCHANGES = [("deployment", n) for n in DEPLOYMENT] + [("signals", n) for n in SIGNALS]
# the key paths of the deviations (module docstring) in the shapes compared
_CREDENTIALS = ("heat.password", "heat.user_id")
IGNORE = {
    "resource_server": ("$.resource.attributes.pinned_availability_zone",)
    + tuple("$.resource.attributes.os_collect_config." + c for c in _CREDENTIALS),
    "server_metadata": tuple("$.metadata.os-collect-config." + c for c in _CREDENTIALS)
    + ("$.metadata.deployments[].inputs[].value",),
    "show_deleted_deployment": ("$.stack.deletion_time",),
}


class DeploymentRecorder(replay.LocalRecorder):
    """The recorder over a cloud with the rig's image stub (an image named
    ``cirros``). The signals case polls ``…/resources/deploy`` until the
    deployment is IN_PROGRESS; convergence Heat stores every resource at
    create (INIT), the legacy engine only when it starts it (until then
    ResourceNotAvailable, ``test_realcloud_replay_engine``), so that poll
    waits (bounded) for the resource to exist."""

    def __init__(self, data_dir: Any, tag: str):
        super().__init__(data_dir, tag)
        self.cloud.seed_image("cirros", disk_format="qcow2", container_format="bare")

    def raw(self, method: str, path: str, *args: Any, **kwargs: Any) -> replay.Answer:
        deadline = time.monotonic() + replay.DEADLINE
        while True:
            answer = super().raw(method, path, *args, **kwargs)
            waiting = (
                method == "GET"
                and answer.status_code == 404
                and '"ResourceNotAvailable"' in answer.text
            )
            if not waiting:
                return answer
            assert time.monotonic() < deadline, ("never stored", path)
            time.sleep(0.05)


@pytest.fixture(scope="module")
def replayed(tmp_path_factory):
    """Each case run once against its own fresh local cloud."""
    runs: dict[str, tuple[dict[str, Any], dict[str, Any], dict[str, str]]] = {}

    def run(case: str):
        if case not in runs:
            recorded = replay.recording(case)
            rec = DeploymentRecorder(tmp_path_factory.mktemp(case), recorded["ids"]["tag"])
            try:
                cases.CASES[case](rec)
            finally:
                rec.close()
            runs[case] = (recorded, rec.case["exchanges"], rec.case["ids"])
        return runs[case]

    return run


def _deviation(doc: dict[str, Any], key: str) -> bool:
    """Whether ``doc[key]`` is a credential's deviation: a deployment
    input's value, or the os-collect-config ``heat`` section's project."""
    if key == "value":
        return doc.get("name") in _MASKED_INPUTS
    return key == "project_id" and "stack_id" in doc


def _masked(doc: Any) -> Any:
    """``doc`` with the deviations masked and Heat's unordered lists in
    one order."""
    if isinstance(doc, list):
        items = [_masked(item) for item in doc]
        if items and all(isinstance(i, dict) and "resource_name" in i for i in items):
            return sorted(items, key=lambda i: i["resource_name"])
        if items and all(isinstance(i, dict) and "output_key" in i for i in items):
            return sorted(items, key=lambda i: i["output_key"])
        return items
    if not isinstance(doc, dict):
        return doc
    out: dict[str, Any] = {}
    for key, value in doc.items():
        if key in _DROPPED_KEYS:
            continue
        if key in _MASKED_KEYS:
            out[key] = _MASKED
        elif key == "required_by":
            out[key] = sorted(value)
        elif _deviation(doc, key):
            out[key] = _MASKED
        else:
            out[key] = _masked(value)
    return out


def _comparable(body: Any, ids: dict[str, str]) -> Any:
    text = replay.placeholders(json.dumps(body), ids)
    text = _NOVA.sub("{nova}/", _SHORT_ID.sub("-{short_id}", _TIMESTAMP.sub("{time}", text)))
    return _masked(json.loads(text))


@pytest.mark.parametrize("case,name", EXCHANGES, ids=["%s.%s" % e for e in EXCHANGES])
def test_answer_as_recorded(replayed, case, name):
    recorded, local, local_ids = replayed(case)
    assert name in local, "the case did not send %s" % name
    real = recorded["exchanges"][name]
    problems = replay.differences(
        real, recorded["ids"], local[name], local_ids, ignore=IGNORE.get(name, ())
    )
    assert not problems, "%s:\n  %s\nlocal: %r" % (name, "\n  ".join(problems), local[name])
    assert _comparable(local[name]["body"], local_ids) == _comparable(
        real["body"], recorded["ids"]
    )


def _by_resource(events: list[dict[str, Any]], ids: dict[str, str]) -> dict[str, list[Any]]:
    """Each resource's events in order: (status, reason, physical id)."""
    found: dict[str, list[Any]] = {}
    for e in _comparable(events, ids):
        found.setdefault(e["resource_name"], []).append(
            (e["resource_status"], e["resource_status_reason"], e["physical_resource_id"])
        )
    return found


@pytest.mark.parametrize("case,name", [("deployment", "events_deployment"), ("signals", "events")])
def test_events_as_recorded(replayed, case, name):
    """The stack's and each resource's events as Heat wrote them: an
    IN_PROGRESS event names the physical name the resource will give what
    it makes, a signal its SIGNAL event ("Signal: deployment <id>
    succeeded", "… failed (1)"), a failed deployment its reason."""
    recorded, local, local_ids = replayed(case)
    real = _by_resource(recorded["exchanges"][name]["body"]["events"], recorded["ids"])
    here = _by_resource(local[name]["body"]["events"], local_ids)
    assert here == real
