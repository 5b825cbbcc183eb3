"""One create cannot make unbounded servers (issue 9 G): nova's instances
quota (``Config.quota_instances``) and the local cloud's per-request bound
(``Config.max_servers_per_request``) trim ``max_count`` or refuse with 403
before anything is created."""

import pytest

from tests.unit.localcloud.compute_harness import UNLIMITED_QUOTAS
from tests.unit.localcloud.compute_harness import Nova
from tests.unit.localcloud.compute_harness import fault
from tests.unit.localcloud.compute_harness import make_cloud


def _cloud(tmp_path, **config):
    cloud = make_cloud(tmp_path / "data", **config)
    return Nova(cloud)


def _live(nova):
    with nova.cloud.store.read() as db:
        return db.execute("SELECT COUNT(*) FROM servers WHERE deleted = 0").fetchone()[0]


def test_the_default_bound_is_generous_but_finite(tmp_path):
    # quotas lifted as an operator would (see test_compute_default_quotas)
    nova = _cloud(tmp_path, **UNLIMITED_QUOTAS)
    try:
        assert nova.cloud.config.max_servers_per_request == 1000
        result = nova.create(
            min_count=1001, max_count=20000, networks="none", version="2.37", expect=403
        )
        assert fault(result) == (
            "forbidden",
            403,
            "Quota exceeded for instances: Requested "
            "1001-20000, but this local cloud creates at most 1000 servers "
            "per request",
        )
        assert _live(nova) == 0
    finally:
        nova.cloud.close()


@pytest.fixture
def bounded(tmp_path):
    nova = _cloud(tmp_path, max_servers_per_request=5, **UNLIMITED_QUOTAS)
    yield nova
    nova.cloud.close()


def test_max_count_above_the_bound_is_trimmed(bounded):
    bounded.create(max_count=20000)
    assert _live(bounded) == 5
    result = bounded.create(min_count=6, max_count=6, expect=403)
    assert fault(result)[2] == (
        "Quota exceeded for instances: Requested 6, "
        "but this local cloud creates at most 5 "
        "servers per request"
    )
    assert _live(bounded) == 5


@pytest.fixture
def quota(tmp_path):
    nova = _cloud(tmp_path, quota_instances=3)
    yield nova
    nova.cloud.close()


def test_instances_quota_trims_then_refuses_like_nova(quota):
    quota.create()
    quota.create(name="more", max_count=5)
    assert _live(quota) == 3
    names = sorted(s["name"] for s in quota.get("/servers").json()["servers"])
    assert names == ["more-1", "more-2", "vm"]
    result = quota.create(min_count=2, max_count=4, expect=403)
    assert fault(result) == (
        "forbidden",
        403,
        "Quota exceeded for instances: Requested 2-4, but already used 3 of 3 instances",
    )
    assert fault(quota.create(expect=403))[2] == (
        "Quota exceeded for instances: Requested 1, but already used 3 of 3 instances"
    )
    assert _live(quota) == 3
    limits = quota.get("/limits").json()["limits"]["absolute"]
    assert (limits["maxTotalInstances"], limits["totalInstancesUsed"]) == (3, 3)
    # the quota is per project
    quota.create(user="admin")
    server_id = quota.get("/servers").json()["servers"][0]["id"]
    assert quota.delete("/servers/" + server_id).status == 204
    quota.create()
    assert _live(quota) == 4


def test_quota_with_min_count_above_headroom_creates_nothing(quota):
    quota.create(max_count=2)
    result = quota.create(min_count=2, max_count=3, expect=403)
    assert fault(result)[2] == (
        "Quota exceeded for instances: Requested 2-3, but already used 2 of 3 instances"
    )
    assert _live(quota) == 2
