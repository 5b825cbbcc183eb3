"""The real Heat 27's answers of the stack API (``tests/fixtures/heat/
realcloud``: lifecycle, deleted, listing and the API half of refusals),
replayed against a fresh local cloud: the recorder's own case functions
send the recorded requests (``realcloud_replay.LocalRecorder``) and every
exchange named here must match the recorded one in status, ``Location``,
``error.type`` and message (ids as placeholders), body key paths and JSON
types, and the values named in ``VALUES``.

The local cloud runs Heat's legacy engine, the rig ran convergence; where
that shows (the README's "What surprised"), the legacy behaviour is kept and
``PURGED`` says which recorded answer the local one is compared with.
"""

from typing import Any

import pytest

from tests.fidelity import record_heat_cases as cases
from tests.unit.localcloud.heat import realcloud_replay as replay

# Recorded in convergence's window between DELETE_COMPLETE and the row's
# soft delete (the name still resolves, the list still shows it, no
# deletion_time yet). The legacy engine soft-deletes as it writes
# DELETE_COMPLETE, so the local answer is compared with the one Heat gives
# once the row is soft-deleted: heat-27-deleted.json's ``*_after_purge``.
PURGED = {
    ("deleted", "show_deleted_by_id"): "show_by_id_after_purge",
    ("deleted", "lookup_deleted_by_name"): "lookup_by_name_after_purge",
    ("deleted", "list_show_deleted"): "list_show_deleted_after_purge",
    ("lifecycle", "lookup_deleted_by_name"): "lookup_by_name_after_purge",
    ("lifecycle", "list_after_delete"): "list_after_purge",
}
# the same window where the other recorded values still hold: only the
# deletion time differs (set here, as it is once Heat purges)
DELETION_TIME = {
    ("lifecycle", "show_deleted_by_id"): "stack.deletion_time",
    ("lifecycle", "list_show_deleted"): "stacks.0.deletion_time",
}
_WEBOB = ("message", "code", "title")
_STACK = (
    "stack.stack_status",
    "stack.stack_status_reason",
    "stack.tags",
    "stack.parameters",
    "stack.disable_rollback",
    "stack.timeout_mins",
    "stack.description",
)
_RESOURCE = ("resource.resource_status", "resource.resource_status_reason")
_FIRST_EVENT = (
    "events.0.resource_name",
    "events.0.resource_status",
    "events.0.resource_status_reason",
)
# values compared besides the shape ("$": the whole body)
VALUES: dict[str, tuple[str, ...]] = {
    "lookup_by_name_302": _WEBOB,
    "lookup_by_id_302": _WEBOB,
    "lookup_resources_302": _WEBOB,
    "lookup_events_302": _WEBOB,
    "lookup_deleted_by_id": _WEBOB,
    "lookup_by_id_after_purge": _WEBOB,
    "update_patch": _WEBOB,
    "update_put": _WEBOB,
    "update_input_values": _WEBOB,
    "show_in_progress": ("stack.updated_time", "stack.tags"),
    "show_complete": (*_STACK, "stack.updated_time", "stack.deletion_time"),
    "show_without_outputs": (*_STACK, "stack.updated_time"),
    "show_after_mark_unhealthy": ("stack.updated_time",),
    "show_after_patch": ("stack.tags", "stack.parameters"),
    "show_after_put": ("stack.tags", "stack.stack_status"),
    "show_suspended": ("stack.stack_status", "stack.stack_status_reason"),
    "show_resumed": ("stack.stack_status", "stack.stack_status_reason"),
    "show_checked": ("stack.stack_status", "stack.stack_status_reason"),
    "show_deleted_by_id": ("stack.stack_status", "stack.tags"),
    "show_by_id_after_purge": ("stack.stack_status", "stack.tags"),
    "output_show": ("output.output_key", "output.description"),
    "template_show": ("$",),
    "environment_show": ("$",),
    "files_show": ("$",),
    "list": ("stacks.0.tags", "stacks.0.updated_time", "stacks.0.stack_status"),
    "detail": ("stacks.0.tags", "stacks.0.updated_time"),
    "resource_show": ("resource.required_by", "resource.resource_type", *_RESOURCE),
    "resource_metadata": ("$",),
    "mark_unhealthy": ("$",),
    "mark_healthy": ("$",),
    "resource_show_unhealthy": _RESOURCE,
    "resource_show_healthy_again": _RESOURCE,
    "suspend": ("$",),
    "resume": ("$",),
    "check": ("$",),
    "events_default_order": _FIRST_EVENT,
    "events_desc_limit": _FIRST_EVENT,
    "events_bad_marker": _FIRST_EVENT,
    "events_stack_level": _FIRST_EVENT,
    "events_after_purge": _FIRST_EVENT,
    "resources_after_purge": ("$",),
    "list_after_purge": ("$",),
    "list_name": ("stacks.0.stack_name", "stacks.0.tags"),
    "list_tags": ("stacks.0.stack_name", "stacks.1.stack_name"),
    "list_tags_all": ("stacks.0.stack_name",),
    "list_tags_any": ("stacks.0.stack_name",),
    "list_id_filter": ("stacks.0.stack_name", "stacks.0.tags"),
    "validate_ok": ("$",),
    "validate_show_nested": ("$",),
    "validate_missing_parameter": ("$",),
    "validate_parameter_allowed_values": ("$",),
    "validate_parameter_allowed_pattern": ("$",),
    "validate_parameter_length": ("$",),
    "validate_parameter_range": ("$",),
    "validate_parameter_not_a_number": ("$",),
    "validate_get_file_missing": ("$",),
}
# the listing ran in a project holding other cases' stacks too: only the
# order of this case's own stacks (named <tag>-l*) is compared
ORDERED = (
    "list_all",
    "list_sort_name_asc",
    "list_sort_name_desc",
    "list_sort_created",
    "list_sort_bad_key",
    "list_marker",
    "list_bad_marker",
    "list_not_tags",
    "list_not_tags_any",
    "list_with_count",
    "list_unknown_filter",
)
# lists compared item by item on these keys: (list key, item keys, whether
# their order counts; a resource list has none Heat promises)
SEQUENCES = {
    "events_stack_level_all": ("events", ("resource_status", "resource_status_reason"), True),
    "resources_after_check": ("resources", ("resource_name", "resource_status_reason"), False),
}
IGNORE = {
    # the first stack by name is another case's there (no tags), this
    # case's (tags x,y) here
    "list_limit1": ("$.stacks[].tags",),
}
# the exchanges of heat-27-refusals.json that are the API's (the template
# refusals at create are the engine half's)
REFUSALS = (
    "create_duplicate_name",
    "create_bad_name_digit_first",
    "create_bad_name_space",
    "create_bad_name_too_long",
    "create_bad_name_empty",
    "create_no_name",
    "create_bad_timeout",
    "create_unknown_body_key",
    "create_template_too_big",
    "create_body_too_big",
    "create_not_json",
    "create_template_not_a_map",
    "create_no_template",
    "other_project_stack_in_own_path",
    "other_project_lookup_in_own_path",
    "other_project_path",
    "other_project_list",
    "admin_sees_member_stack",
    "admin_member_stack_in_admin_path",
    "member_deletes_admin_stack",
)


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


def _names(case: str, only: tuple[str, ...] | None = None) -> list[tuple[str, str]]:
    names = replay.recording(case)["exchanges"]
    return [(case, n) for n in names if only is None or n in only]


def _own(body: Any, prefix: str) -> list[str]:
    return [s["stack_name"] for s in body["stacks"] if s["stack_name"].startswith(prefix)]


EXCHANGES = (
    _names("lifecycle")
    + _names("deleted")
    + [(c, n) for c, n in _names("listing") if n != "list_global_tenant_admin"]
    + [("listing", "list_global_tenant_admin")]
    + _names("refusals", REFUSALS)
    + [(c, n) for c, n in _names("refusals") if n.startswith("validate_")]
)


@pytest.mark.parametrize("case,name", EXCHANGES, ids=["%s.%s" % e for e in EXCHANGES])
def test_answer_as_recorded(replayed, case, name):
    recorded, local, local_ids = replayed(case)
    assert name in local, "the case did not send %s" % name
    real, real_ids = recorded["exchanges"][name], recorded["ids"]
    ignore = IGNORE.get(name, ())
    if (case, name) in PURGED:
        purged = replay.recording("deleted")
        real, real_ids = purged["exchanges"][PURGED[case, name]], purged["ids"]
    if (case, name) in DELETION_TIME:
        path = DELETION_TIME[case, name]
        assert isinstance(replay.at(local[name]["body"], path), str), local[name]
        ignore = ("$." + path.replace(".0.", "[]."),)
    problems = replay.differences(
        real, real_ids, local[name], local_ids, values=VALUES.get(name, ()), ignore=ignore
    )
    if name in SEQUENCES:
        key, fields, ordered = SEQUENCES[name]
        items = [
            [tuple(item[f] for f in fields) for item in body[key]]
            for body in (real["body"], local[name]["body"])
        ]
        if not ordered:
            items = [sorted(i) for i in items]
        if items[0] != items[1]:
            problems.append("%s: real %r, local %r" % (key, *items))
    if name in ORDERED:
        prefix = recorded["ids"]["tag"] + "-l"
        got = (_own(real["body"], prefix), _own(local[name]["body"], prefix))
        if got[0] != got[1]:
            problems.append("order: real %r, local %r" % got)
    assert not problems, "%s:\n  %s\nlocal: %r" % (name, "\n  ".join(problems), local[name])


def test_a_tag_list_is_refused_without_text(replayed):
    """Heat's extract_tags splits a string: a JSON list is its
    AttributeError, whose message the FaultWrapper leaves out."""
    _, local, _ = replayed("lifecycle")
    error = local["create_tags_as_list"]["body"]["error"]
    assert error == {"type": "AttributeError", "traceback": None}


@pytest.mark.parametrize("name", ["preview_update_patch", "preview_update_put"])
def test_update_preview_buckets(replayed, name):
    """Each resource in the bucket Heat's ``preview_update_stack`` puts it
    in (the PUT replaces ``rand`` and updates ``slow`` in place)."""
    recorded, local, _ = replayed("lifecycle")
    buckets = [
        {k: sorted(r["resource_name"] for r in v) for k, v in body["resource_changes"].items()}
        for body in (recorded["exchanges"][name]["body"], local[name]["body"])
    ]
    assert buckets[1] == buckets[0]
