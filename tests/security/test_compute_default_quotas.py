"""Nova's default quotas bound what one project boots (issue 19, finding
17): 10 instances, 20 cores and 51200 MB of RAM unless an operator lifts
them (``Config.quota_instances``/``quota_cores``/``quota_ram``, the
``default`` quota class, a project's quota set), and one create makes at
most ``Config.max_servers_per_request`` (1000) servers, trimmed and refused
like the quota."""

import pytest

from tests.unit.localcloud.compute_harness import Nova
from tests.unit.localcloud.compute_harness import fault
from tests.unit.localcloud.compute_harness import make_cloud


@pytest.fixture
def nova(tmp_path):
    nova = Nova(make_cloud(tmp_path / "data"))
    yield nova
    nova.cloud.close()


def _live(nova):
    with nova.cloud.store.read() as db:
        return db.execute("SELECT COUNT(*) FROM servers WHERE deleted = 0").fetchone()[0]


def test_the_defaults_are_novas(nova):
    config = nova.cloud.config
    assert (config.quota_instances, config.quota_cores, config.quota_ram) == (10, 20, 51200)
    assert config.max_servers_per_request == 1000
    limits = nova.get("/limits").json()["limits"]["absolute"]
    assert (limits["maxTotalInstances"], limits["maxTotalCores"], limits["maxTotalRAMSize"]) == (
        10,
        20,
        51200,
    )


def test_a_project_boots_ten_servers_then_is_refused(nova):
    # a huge max_count is trimmed to the headroom, as nova does
    nova.create(max_count=2000, networks="none", version="2.37")
    assert _live(nova) == 10
    result = nova.create(name="more", expect=403)
    assert fault(result) == (
        "forbidden",
        403,
        "Quota exceeded for instances: Requested 1, but already used 10 of 10 instances",
    )
    result = nova.create(name="many", min_count=24000, max_count=24000, expect=403)
    assert fault(result)[2] == (
        "Quota exceeded for cores, instances, ram: Requested 24000, 24000, 12288000, but"
        " already used 10, 10, 5120 of 20, 10, 51200 cores, instances, ram"
    )
    assert _live(nova) == 10
    # another project has quotas of its own
    nova.create(user="admin")
    assert _live(nova) == 11


def test_cores_then_ram_bound_big_flavors(nova):
    # m1.xlarge: 8 vCPUs, 16384 MB
    nova.create(flavorRef="5", max_count=3)
    assert _live(nova) == 2
    result = nova.create(flavorRef="5", expect=403)
    assert fault(result)[2] == (
        "Quota exceeded for cores: Requested 8, but already used 16 of 20 cores"
    )
    demo = nova.project_id("demo")
    result = nova.put("/os-quota-sets/" + demo, {"quota_set": {"cores": -1}}, user="admin")
    assert result.status == 200, result.body
    nova.create(flavorRef="5")
    result = nova.create(flavorRef="5", expect=403)
    assert fault(result)[2] == (
        "Quota exceeded for ram: Requested 16384, but already used 49152 of 51200 ram"
    )
    assert _live(nova) == 3


def test_an_operator_lifts_them_with_the_default_class(nova):
    nova.create(max_count=20, networks="none", version="2.37")
    assert _live(nova) == 10
    body = {"quota_class_set": {"instances": 12, "cores": -1, "ram": -1}}
    result = nova.put("/os-quota-class-sets/default", body, user="admin")
    assert result.status == 200, result.body
    nova.create(name="more", max_count=20, networks="none", version="2.37")
    assert _live(nova) == 12


def test_config_fields_lift_them(tmp_path):
    nova = Nova(make_cloud(tmp_path / "data", quota_instances=50, quota_cores=30, quota_ram=-1))
    try:
        # 30 cores of m1.tiny (1 vCPU): the cores quota trims max_count
        nova.create(max_count=40, networks="none", version="2.37")
        assert _live(nova) == 30
    finally:
        nova.cloud.close()


def test_one_create_is_bounded_even_without_quotas(tmp_path):
    nova = Nova(make_cloud(tmp_path / "data", quota_instances=-1, quota_cores=-1, quota_ram=-1))
    try:
        result = nova.create(min_count=1001, max_count=1001, expect=403)
        assert fault(result)[2] == (
            "Quota exceeded for instances: Requested 1001, but this local cloud creates"
            " at most 1000 servers per request"
        )
        assert _live(nova) == 0
    finally:
        nova.cloud.close()
