"""``volume set/unset/revert/summary`` and ``volume snapshot set/unset``
over HTTP against the local Cinder (issue 21): an extend, properties, an
admin's state reset, a revert to the latest snapshot and its refusal of
an older one, the summary."""

import uuid

import pytest

from tests.functional.harness import as_json
from tests.functional.harness import ok


@pytest.fixture
def occli(occli_env, run_occli):
    """``occli(argv…, cloud="local")``: as demo, or as ``local-admin``."""

    def run(*argv, cloud="local"):
        return run_occli("--os-cloud", cloud, *argv)

    return run


def _show(occli, volume, cloud="local"):
    return as_json(occli("volume", "show", volume, "-f", "json", cloud=cloud))


def test_set_unset_revert_and_summary(occli):
    name = "set-" + uuid.uuid4().hex[:8]
    before = as_json(occli("volume", "summary", "-f", "json"))
    volume = as_json(occli("volume", "create", "--size", "1", "--wait", name, "-f", "json"))["id"]

    ok(occli("volume", "set", name, "--size", "2", "--property", "tier=gold"))
    shown = _show(occli, volume)
    assert (shown["size"], shown["properties"]) == (2, {"tier": "gold"})
    ok(occli("volume", "unset", name, "--property", "tier"))
    assert _show(occli, volume)["properties"] == {}
    code, out, err = occli("volume", "set", name, "--size", "1")
    assert code == 2 and "New size must be greater than 2 GB" in err

    # the state is an admin's; a member's refusal is reported, exit 1
    code, out, err = occli("volume", "set", name, "--state", "error")
    assert code == 1 and "Failed to set volume state" in err
    ok(occli("volume", "set", volume, "--state", "error", cloud="local-admin"))
    assert _show(occli, volume)["status"] == "error"
    ok(occli("volume", "set", volume, "--state", "available", cloud="local-admin"))

    first = as_json(
        occli(
            "volume", "snapshot", "create", "--volume", volume, "--wait", name + "-1", "-f", "json"
        )
    )["id"]
    latest = as_json(
        occli(
            "volume", "snapshot", "create", "--volume", volume, "--wait", name + "-2", "-f", "json"
        )
    )["id"]
    ok(occli("volume", "snapshot", "set", latest, "--property", "k=v", "--name", name + "-last"))
    snap = as_json(occli("volume", "snapshot", "show", latest, "-f", "json"))
    # OSC's name of Cinder's metadata
    assert (snap["name"], snap["properties"]) == (name + "-last", {"k": "v"})
    ok(occli("volume", "snapshot", "unset", latest, "--property", "k"))
    assert as_json(occli("volume", "snapshot", "show", latest, "-f", "json"))["properties"] == {}

    code, out, err = occli("volume", "revert", first)
    assert code == 1 and "is None or not the latest one of volume" in err
    ok(occli("volume", "revert", latest))

    after = as_json(occli("volume", "summary", "-f", "json"))
    assert after["Total Count"] == before["Total Count"] + 1
    assert after["Total Size"] == before["Total Size"] + 2
    for snapshot in (first, latest):
        ok(occli("volume", "snapshot", "delete", snapshot))
