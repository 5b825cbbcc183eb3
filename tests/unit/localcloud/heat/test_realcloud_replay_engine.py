"""The real Heat 27's answers of the engine (``tests/fixtures/heat/
realcloud``: the template refusals at create, resource types and template
versions), replayed against a fresh local cloud with the recorder's own
case functions (``realcloud_replay.LocalRecorder``): each exchange named
here must match the recorded one in status, ``error.type`` and message
(ids as placeholders), body key paths and JSON types, and the values
``VALUES`` names.

Left out on purpose, each for its reason: the CFN template versions
(``AWSTemplateFormatVersion``, ``HeatTemplateFormatVersion``: the local
engine reads HOT only, issue 25) and the type list itself (the rig's
catalog had no Cinder and a stub Neutron: its members differ, its shape is
compared).
"""

from typing import Any

import pytest

from tests.fidelity import heat_templates as T
from tests.fidelity import record_heat_cases as cases
from tests.unit.localcloud.heat import realcloud_replay as replay

# the template refusals at POST /stacks (the API's are test_realcloud_replay_api's)
CREATE_REFUSALS = tuple(
    "create_" + key for key, _ in T.REFUSALS if key not in ("template_not_a_map", "no_template")
)
TYPES = (
    "resource_types_name_filter",
    "resource_types_support_status",
    "resource_types_bad_support_status",
    "resource_type_RandomString",
    "resource_type_TestResource",
    "resource_type_ResourceGroup",
    "resource_type_with_description",
    "resource_type_unknown",
    "resource_type_template",
    "resource_type_template_hot",
    "functions_2013-05-23",
    "functions_2016-10-14",
    "functions_2018-08-31",
    "functions_2021-04-16",
    "functions_with_condition_func",
    "functions_unknown_version",
)
# the Heat-native types issue 25 names (the recording lists more: the
# local engine implements these)
ISSUE_TYPES = {
    "OS::Heat::" + t
    for t in [
        "CloudConfig",
        "MultipartMime",
        "None",
        "RandomString",
        "ResourceGroup",
        "SoftwareConfig",
        "SoftwareDeployment",
        "SoftwareDeploymentGroup",
        "Stack",
        "StructuredConfig",
        "StructuredDeployment",
        "TestResource",
        "Value",
        "WaitCondition",
        "WaitConditionHandle",
    ]
}
# values compared besides the shape ("$": the whole body)
VALUES: dict[str, tuple[str, ...]] = {
    name: ("$",) for name in TYPES if name.startswith(("resource_type_", "functions_"))
}
VALUES["resource_types_name_filter"] = ("$",)


@pytest.fixture(scope="module")
def replayed(tmp_path_factory):
    """Each case run once against its own fresh local cloud."""
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


EXCHANGES = [("refusals", n) for n in CREATE_REFUSALS] + [("types", n) for n in TYPES]


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


def test_type_list_shape(replayed):
    """The list and its ``with_description`` form: the same keys per type,
    and the native types the recording lists are listed here too."""
    recorded, local, _ = replayed("types")
    for name in ("resource_types", "resource_types_with_description"):
        real = recorded["exchanges"][name]["body"]["resource_types"]
        here = local[name]["body"]["resource_types"]
        assert {type(t).__name__ for t in here} == {type(t).__name__ for t in real}
        if isinstance(real[0], dict):
            assert {tuple(sorted(t)) for t in here} == {tuple(sorted(t)) for t in real}
        for listed in (real, here):
            names = {t["resource_type"] if isinstance(t, dict) else t for t in listed}
            assert names >= ISSUE_TYPES, sorted(ISSUE_TYPES - names)
