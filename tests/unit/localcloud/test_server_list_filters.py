"""The server list filters of a member and an admin at the microversions
that change them, replayed from what real nova 34 answered
(``filter_*`` in ``nova-34-server-groups-tags-filters.json``): the local
project holds servers named as the real one did, so the names listed
must be the recorded ones."""

import pytest

from tests.unit.localcloud.compute_harness import CIRROS
from tests.unit.localcloud.realcloud import Recorded
from tests.unit.localcloud.realcloud import assert_like

REC = Recorded("nova-34-server-groups-tags-filters.json")
KEYS = sorted(k for k in REC.exchanges if k.startswith("filter_"))


def _boot(nova, name, user="demo", **extra):
    body = {"server": {"name": name, "flavorRef": "1", "imageRef": CIRROS, "networks": "none"}}
    body.update(extra)
    result = nova.post("/servers", body, user=user, version="2.64")
    assert result.status == 202, result.body
    return result.json()["server"]["id"]


@pytest.fixture(scope="module")
def world(shared_nova):
    """The member's servers of the recording (tagged: a, b; anti-2 in
    ERROR; anti-1 deleted) and the admin's (h11-a, ia-1; migprobe-vm
    deleted)."""
    nova = shared_nova
    tagged = _boot(nova, "tagged")
    for name in ("aff-1", "aff-2"):
        _boot(nova, name)
    other = _boot(nova, "anti-1")
    # contradicting hints: NoValidHost, as the real anti-2 got
    hints = {"same_host": other, "different_host": other}
    _boot(nova, "anti-2", **{"os:scheduler_hints": hints})
    assert (
        nova.put("/servers/%s/tags" % tagged, {"tags": ["a", "b"]}, version="2.26").status == 200
    )
    for name in ("h11-a", "ia-1", "migprobe-vm"):
        _boot(nova, name, user="admin")
    nova.get("/servers/detail", user="admin")  # builds complete
    nova.get("/servers/detail")
    gone = [s["id"] for s in nova.get("/servers", user="admin").json()["servers"]
            if s["name"] == "migprobe-vm"]  # fmt: skip
    assert nova.delete("/servers/" + gone[0], user="admin").status == 204
    assert nova.delete("/servers/" + other).status == 204
    return nova


@pytest.mark.parametrize("key", KEYS)
def test_filter_as_nova_34(world, key):
    nova = world
    exchange = REC[key]
    path = exchange["request"]["path"]
    path = path.replace(REC.ids["member_project"], nova.project_id("demo"))
    path = path.replace(REC.ids["admin_project"], nova.project_id("admin"))
    user = "admin" if exchange["user"] == "admin" else "demo"
    result = nova.get(path, user=user, version=exchange["request"]["version"])
    if exchange["status"] != 200:
        assert_like(result, REC, key)
        return
    assert result.status == 200, result.body
    names = sorted(s["name"] for s in result.json()["servers"])
    assert names == sorted(s["name"] for s in exchange["body"]["servers"])
