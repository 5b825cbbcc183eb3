"""``volume migrate`` over HTTP against the local Cinder (issue 21): an
admin's host copy to the one backend ends ``success`` in the admin's
view, Cinder's refusals of another host and of a member reach the user,
exit 1."""

import time
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


def test_migrate_to_the_backend_and_refusals(occli):
    name = "mig-" + uuid.uuid4().hex[:8]
    volume = as_json(occli("volume", "create", "--size", "1", "--wait", name, "-f", "json"))["id"]

    code, out, err = occli("volume", "migrate", volume, "--host", "localcloud@lvm")
    assert code == 1 and "volume_admin_actions:migrate_volume" in err
    code, out, err = occli("volume", "migrate", volume, "--host", "other@lvm", cloud="local-admin")
    assert code == 1 and "No available service named 'other@lvm'" in err

    ok(
        occli(
            "volume", "migrate", volume, "--host", "localcloud@lvm", "--force-host-copy",
            cloud="local-admin",
        )
    )  # fmt: skip
    deadline = time.monotonic() + 30
    while True:
        shown = as_json(occli("volume", "show", volume, "-f", "json", cloud="local-admin"))
        if shown["os-vol-mig-status-attr:migstat"] in ("success", "error"):
            break
        assert time.monotonic() < deadline, shown
        time.sleep(0.2)
    assert shown["os-vol-mig-status-attr:migstat"] == "success"
    assert shown["status"] == "available"
    ok(occli("volume", "delete", volume))
