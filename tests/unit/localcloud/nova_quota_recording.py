"""What real nova 34 answered about quotas, usage and limits
(``tests/fixtures/compute/realcloud/nova-34-quotas-usage-limits.json``,
see ``tests/fixtures/SOURCES.md``): the local cloud's answers are compared
with these, ids replaced by the local ones."""

import json
import os

FIXTURE = os.path.join(
    os.path.dirname(__file__),
    os.pardir,
    os.pardir,
    "fixtures",
    "compute",
    "realcloud",
    "nova-34-quotas-usage-limits.json",
)

with open(FIXTURE) as _f:
    RECORDING = json.load(_f)


def exchange(run, method, path_part, version=None, caller=None, status=None, body_part=None):
    """The one recorded exchange of run ``"first"`` or ``"second"`` matching
    all the criteria (``path_part``: a substring of the path, the probe's
    project id written ``{p}``; ``=path``: the whole path)."""
    project = RECORDING[run]["project"]
    part = path_part.replace("{p}", project)
    exact = part.startswith("=")
    found = [
        e
        for e in RECORDING[run]["exchanges"]
        if e["request"]["method"] == method
        and (e["request"]["path"] == part[1:] if exact else part in e["request"]["path"])
        and (version is None or e["request"]["microversion"] == version)
        and (caller is None or e["caller"] == caller)
        and (status is None or e["status"] == status)
        and (body_part is None or body_part in json.dumps(e["request"].get("body")))
    ]
    assert len(found) == 1, (run, method, path_part, len(found))
    return found[0]


def message(run, *args, **kwargs):
    """``(status, fault name, message)`` of a recorded nova error."""
    found = exchange(run, *args, **kwargs)
    ((name, body),) = found["body"].items()
    return found["status"], name, body["message"]


def real_project(run):
    return RECORDING[run]["project"]
