"""Volume transfers over HTTP (issue 21): project demo offers a volume,
the key is shown once; project alt accepts with it and then owns the
volume (and its snapshot), which demo no longer sees; a wrong key is
refused and a withdrawn request gives the volume back."""

import uuid

import pytest

from tests.functional.harness import as_json
from tests.functional.harness import ok


@pytest.fixture
def occli(occli_env, run_occli):
    """``occli(argv…, cloud="local")``: as demo, or as ``local-alt``."""

    def run(*argv, cloud="local"):
        return run_occli("--os-cloud", cloud, *argv)

    return run


def _volume(occli):
    name = "gift-" + uuid.uuid4().hex[:8]
    made = as_json(occli("volume", "create", "--size", "1", "--wait", name, "-f", "json"))
    return name, made["id"]


def test_the_recipient_accepts_with_the_key_and_owns_the_volume(occli, occli_env):
    alt = occli_env.client("local-alt").session.get_project_id()
    name, volume = _volume(occli)
    snap = as_json(
        occli(
            "volume", "snapshot", "create", "--volume", volume, "--wait", name + "-s", "-f", "json"
        )
    )["id"]
    made = as_json(
        occli("volume", "transfer", "request", "create", "--name", name, volume, "-f", "json")
    )
    assert sorted(made) == ["auth_key", "created_at", "id", "name", "volume_id"]
    assert len(made["auth_key"]) == 16
    assert as_json(occli("volume", "show", volume, "-f", "json"))["status"] == "awaiting-transfer"
    listed = as_json(occli("volume", "transfer", "request", "list", "-f", "json"))
    assert {"ID": made["id"], "Name": name, "Volume": volume} in listed
    shown = as_json(occli("volume", "transfer", "request", "show", name, "-f", "json"))
    assert shown["id"] == made["id"] and "auth_key" not in shown

    # a wrong key is refused, and alt does not see demo's request
    accept = ("volume", "transfer", "request", "accept", made["id"], "--auth-key")
    code, out, err = occli(*accept, "0" * 16, cloud="local-alt")
    assert code == 1
    assert "Attempt to transfer %s with invalid auth key." % made["id"] in err
    assert occli("volume", "transfer", "request", "show", made["id"], cloud="local-alt")[0] == 1

    accepted = as_json(occli(*accept, made["auth_key"], "-f", "json", cloud="local-alt"))
    assert accepted == {"id": made["id"], "name": name, "volume_id": volume}
    owned = as_json(occli("volume", "show", volume, "-f", "json", cloud="local-alt"))
    assert (owned["status"], owned["os-vol-tenant-attr:tenant_id"]) == ("available", alt)
    assert occli("volume", "show", volume)[0] == 1
    # OSC's columns leave Cinder's extended attributes out; -c takes them
    project = "os-extended-snapshot-attributes:project_id"
    moved = as_json(
        occli("volume", "snapshot", "show", snap, "-f", "json", "-c", project, cloud="local-alt")
    )
    assert moved[project] == alt
    # the request is gone: the key does not work twice
    assert occli(*accept, made["auth_key"], cloud="local-alt")[0] == 1
    ok(occli("volume", "snapshot", "delete", snap, cloud="local-alt"))
    ok(occli("volume", "delete", volume, cloud="local-alt"))


def test_a_withdrawn_request_gives_the_volume_back(occli):
    name, volume = _volume(occli)
    made = as_json(
        occli("volume", "transfer", "request", "create", "--no-snapshots", volume, "-f", "json")
    )
    assert made["no_snapshots"] is True
    code, out, err = occli("volume", "delete", volume)
    assert code == 1 and "awaiting a transfer" in err
    ok(occli("volume", "transfer", "request", "delete", made["id"]))
    assert as_json(occli("volume", "show", volume, "-f", "json"))["status"] == "available"
    ok(occli("volume", "delete", volume))
