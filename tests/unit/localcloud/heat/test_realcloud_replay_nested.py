"""The real Heat 27's previews and nested stacks (``tests/fixtures/heat/
realcloud``: ``heat-27-preview.json``, ``heat-27-nested.json``), replayed
against a fresh local cloud with the recorder's own case functions
(``realcloud_replay.LocalRecorder``): each exchange must match the recorded
one in status, ``Location``, ``error.type`` and message (ids as
placeholders), body key paths and JSON types, and the values ``VALUES``
names; a preview's outputs and resources are compared by value too.

``show_group_inner`` is the group's nested stack itself: one output for
each attribute of the group its parent's template reads
(``_nested_output_defns``: ``resource.0.value``, ``refs``, ``value``)
besides ``refs_map``, compared by key (Heat's order is a set's).
"""

import json
from typing import Any

import pytest

from tests.fidelity import record_heat_cases as cases
from tests.unit.localcloud.heat import realcloud_replay as replay

_RESOURCE = ("resource.resource_status", "resource.resource_status_reason", "resource.required_by")
# values compared besides the shape ("$": the whole body)
VALUES: dict[str, tuple[str, ...]] = {
    "preview_basic": ("stack.parameters", "stack.stack_user_project_id", "stack.description"),
    "preview_group": ("stack.parameters", "stack.stack_user_project_id"),
    "preview_nesting": ("stack.parameters", "stack.stack_user_project_id"),
    "preview_unknown_type": ("$",),
    "resource_thing": (*_RESOURCE, "resource.links.2.rel"),
    "resource_group": (*_RESOURCE, "resource.links.2.rel", "resource.attributes"),
    # an OS::Heat::Stack: no nested link, its stack shown as "show"
    "resource_child": (
        *_RESOURCE,
        "resource.links",
        "resource.attributes.stack_status",
        "resource.attributes.outputs",
        "resource.attributes.parameters.greeting",
    ),
    "show_group": ("stack.stack_status", "stack.parent"),
    "environment_nesting": ("$",),
    "files_nesting": ("$",),
}
EXCHANGES = [
    ("preview", "preview_basic"),
    ("preview", "preview_group"),
    ("preview", "preview_nesting"),
    ("preview", "preview_unknown_type"),
    ("nested", "create_group"),
    ("nested", "show_group"),
    ("nested", "resources_group"),
    ("nested", "resources_group_depth1"),
    ("nested", "resource_group"),
    ("nested", "events_group_depth1"),
    ("nested", "list_show_nested"),
    ("nested", "list_not_nested"),
    ("nested", "show_group_inner"),
    ("nested", "resources_group_inner"),
    ("nested", "delete_inner_directly"),
    ("nested", "create_nesting"),
    ("nested", "show_nesting"),
    ("nested", "resources_nesting_depth2"),
    ("nested", "resource_thing"),
    ("nested", "resource_child"),
    ("nested", "environment_nesting"),
    ("nested", "files_nesting"),
    ("nested", "events_nesting_depth1"),
]


@pytest.fixture(scope="module")
def replayed(tmp_path_factory):
    """Each case run once against its own fresh local cloud:
    ``{case: (recording, local exchanges, local ids)}``."""
    runs: dict[str, tuple[dict[str, Any], dict[str, Any], dict[str, str]]] = {}

    def run(case: str):
        if case not in runs:
            recorded = replay.recording(case)
            rec = replay.LocalRecorder(tmp_path_factory.mktemp(case), recorded["ids"]["tag"])
            try:
                cases.CASES[case](rec)
            finally:
                rec.close()
            runs[case] = (recorded, rec.case["exchanges"], rec.case["ids"])
        return runs[case]

    return run


@pytest.mark.parametrize("case,name", EXCHANGES, ids=["%s.%s" % e for e in EXCHANGES])
def test_answer_as_recorded(replayed, case, name):
    recorded, local, local_ids = replayed(case)
    assert name in local, "the case did not send %s" % name
    problems = replay.differences(
        recorded["exchanges"][name],
        recorded["ids"],
        local[name],
        local_ids,
        values=VALUES.get(name, ()),
    )
    assert not problems, "%s:\n  %s\nlocal: %r" % (name, "\n  ".join(problems), local[name])


def _norm(doc: Any, ids: dict[str, str]) -> Any:
    return json.loads(replay.placeholders(json.dumps(doc), ids))


def _previews(resources: list[Any]) -> list[Any]:
    """Each preview's values that are not the run's (a nested stack's
    resources as a list of their own), in a fixed order."""
    found = []
    for res in resources:
        if isinstance(res, list):
            found.append(["nested", _previews(res)])
        else:
            found.append(
                [
                    res["resource_name"],
                    res["resource_type"],
                    res["stack_name"],
                    res.get("parent_resource"),
                    res["required_by"],
                    res["attributes"],
                    res["properties"],
                    res["metadata"],
                    res["resource_action"],
                    res["resource_status"],
                    res["creation_time"],
                    res["physical_resource_id"],
                ]
            )
    return sorted(found, key=json.dumps)


@pytest.mark.parametrize("name", ["preview_basic", "preview_group", "preview_nesting"])
def test_preview_values(replayed, name):
    """The outputs resolved as Heat resolves them before anything is made
    (an attribute null, ``get_resource`` the name, ``OS::stack_id``
    "None"), and each resource's properties (defaults applied, a group's
    ``%index%`` replaced), attributes, ``required_by`` and nested stack."""
    recorded, local, local_ids = replayed("preview")
    real = _norm(recorded["exchanges"][name]["body"]["stack"], recorded["ids"])
    here = _norm(local[name]["body"]["stack"], local_ids)
    by_key = [{o["output_key"]: o for o in s["outputs"]} for s in (real, here)]
    assert by_key[1] == by_key[0]
    assert _previews(here["resources"]) == _previews(real["resources"])


def test_group_inner_outputs(replayed):
    """The group's nested stack has Heat's outputs, each the members'
    values the parent's outputs show."""
    recorded, local, _ = replayed("nested")
    shown = [
        e["show_group_inner"]["body"]["stack"]["outputs"] for e in (recorded["exchanges"], local)
    ]
    keys = [sorted((o["output_key"], o["description"]) for o in s) for s in shown]
    assert keys[1] == keys[0]
    here = {o["output_key"]: o["output_value"] for o in shown[1]}
    assert here["refs"] == here["value"] == [here["refs_map"][n] for n in ("0", "1", "2")]
    assert here["resource.0.value"] == here["refs_map"]["0"]
