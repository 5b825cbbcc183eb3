"""The local Cinder's admin and discovery APIs: ``os-services``,
``scheduler-stats/get_pools``, ``capabilities``, ``os-availability-zone``,
``os-hosts``, ``os-quota-class-sets``, ``/limits`` and 3.33's
``resource_filters``, with Cinder 29's texts and policies."""

import pytest

from tests.unit.localcloud.volume_harness import cinder_cloud
from tests.unit.localcloud.volume_harness import message

cinder = pytest.fixture(cinder_cloud, name="cinder")
BACKEND = "localcloud@lvm"
POOL = BACKEND + "#lvm"


def _denied(rule):
    return "Policy doesn't allow %s to be performed." % rule


# -- os-services ---------------------------------------------------------------


def test_services_listed_for_the_admin_with_filters(cinder):
    listed = cinder.get("/os-services", user="admin")
    assert listed.status == 200, listed.body
    services = {(s["binary"], s["host"]): s for s in listed.json()["services"]}
    assert set(services) == {
        ("cinder-scheduler", "localcloud"),
        ("cinder-volume", BACKEND),
        ("cinder-backup", "localcloud"),
    }
    volume = services[("cinder-volume", BACKEND)]
    assert (volume["status"], volume["state"], volume["zone"]) == ("enabled", "up", "nova")
    assert (volume["backend_state"], volume["cluster"], volume["frozen"]) == ("up", None, False)
    assert "backend_state" not in services[("cinder-backup", "localcloud")]
    old = cinder.get("/os-services", user="admin", version="3.0").json()["services"]
    assert all("cluster" not in s and "backend_state" not in s for s in old)
    only = cinder.get("/os-services?binary=cinder-volume", user="admin").json()["services"]
    assert [s["host"] for s in only] == [BACKEND]
    assert cinder.get("/os-services?host=elsewhere", user="admin").json()["services"] == []


def test_services_refused_to_a_member(cinder):
    result = cinder.get("/os-services")
    assert result.status == 403
    assert message(result) == _denied("volume_extension:services:index")
    body = {"host": BACKEND, "binary": "cinder-volume"}
    result = cinder.put("/os-services/disable", body)
    assert result.status == 403
    assert message(result) == _denied("volume_extension:services:update")


def test_disable_with_reason_then_enable(cinder):
    body = {"host": BACKEND, "binary": "cinder-volume", "disabled_reason": "maintenance"}
    result = cinder.put("/os-services/disable-log-reason", body, user="admin")
    assert result.status == 200, result.body
    assert result.json() == {
        "host": BACKEND,
        "service": "",
        "binary": "cinder-volume",
        "status": "disabled",
        "disabled": True,
        "disabled_reason": "maintenance",
    }
    listed = cinder.get("/os-services?binary=cinder-volume", user="admin").json()["services"]
    assert (listed[0]["status"], listed[0]["disabled_reason"]) == ("disabled", "maintenance")
    zones = cinder.get("/os-availability-zone").json()["availabilityZoneInfo"]
    assert zones == [{"zoneName": "nova", "zoneState": {"available": False}}]
    hosts = cinder.get("/os-hosts", user="admin").json()["hosts"]
    assert BACKEND not in [h["host_name"] for h in hosts]
    result = cinder.put("/os-services/enable", {"host": BACKEND, "service": "cinder-volume"},
                        user="admin")  # fmt: skip
    assert result.status == 200, result.body
    assert result.json() == {
        "host": BACKEND,
        "service": "cinder-volume",
        "binary": "",
        "status": "enabled",
        "disabled": False,
    }
    listed = cinder.get("/os-services?binary=cinder-volume", user="admin").json()["services"]
    assert (listed[0]["status"], listed[0]["disabled_reason"]) == ("enabled", None)


def test_service_updates_refused(cinder):
    result = cinder.put("/os-services/disable", {"binary": "cinder-volume"}, user="admin")
    missing = "Invalid input received: Host field is missing."
    assert (result.status, message(result)) == (400, missing)
    result = cinder.put("/os-services/disable", {"host": BACKEND}, user="admin")
    assert result.status == 400
    result = cinder.put("/os-services/disable", {"host": "x", "binary": "cinder-volume"},
                        user="admin")  # fmt: skip
    assert (result.status, message(result)) == (
        404,
        "Service cinder-volume could not be found on host x.",
    )
    # failover_host of the unreplicated backend: test_volume_gaps.py
    result = cinder.put("/os-services/reboot", {}, user="admin")
    assert (result.status, message(result)) == (400, "Invalid input received: Unknown action")
    result = cinder.put("/os-services/freeze", {"host": "nowhere"}, user="admin")
    assert (result.status, message(result)) == (
        400,
        "Invalid input received: Service nowhere could not be found.",
    )


def test_freeze_and_thaw_the_backend(cinder):
    result = cinder.put("/os-services/freeze", {"host": BACKEND}, user="admin")
    assert result.status == 200, result.body
    listed = cinder.get("/os-services?binary=cinder-volume", user="admin").json()["services"]
    assert (listed[0]["frozen"], listed[0]["backend_state"]) == (True, "down")
    assert cinder.put("/os-services/thaw", {"host": BACKEND}, user="admin").status == 200
    listed = cinder.get("/os-services?binary=cinder-volume", user="admin").json()["services"]
    assert listed[0]["frozen"] is False


# -- pools and capabilities ----------------------------------------------------


def test_pools_summary_and_detail(cinder):
    cinder.create(size=3)
    result = cinder.get("/scheduler-stats/get_pools", user="admin")
    assert result.json() == {"pools": [{"name": POOL}]}
    pools = cinder.get("/scheduler-stats/get_pools?detail=True", user="admin").json()["pools"]
    caps = pools[0]["capabilities"]
    assert (caps["volume_backend_name"], caps["storage_protocol"]) == ("lvm", "iSCSI")
    assert (caps["allocated_capacity_gb"], caps["total_volumes"]) == (3, 1)
    assert caps["free_capacity_gb"] == caps["total_capacity_gb"] - 3


def test_pool_filters_by_microversion(cinder):
    path = "/scheduler-stats/get_pools?name=other"
    assert cinder.get(path, user="admin").json()["pools"] == []
    assert cinder.get(path, user="admin", version="3.27").json()["pools"] == [{"name": POOL}]
    result = cinder.get("/scheduler-stats/get_pools?color=red", user="admin")
    assert (result.status, message(result)) == (
        400,
        "Invalid filters color are found in query options.",
    )
    gold = cinder.post("/types", {"volume_type": {"name": "gold", "extra_specs":
                       {"volume_backend_name": "ceph"}}}, user="admin")  # fmt: skip
    assert gold.status == 200, gold.body
    path = "/scheduler-stats/get_pools?volume_type=gold"
    assert cinder.get(path, user="admin").json()["pools"] == []
    assert cinder.get(path, user="admin", version="3.34").json()["pools"] == [{"name": POOL}]
    result = cinder.get("/scheduler-stats/get_pools?volume_type=nope", user="admin")
    assert result.status == 404


def test_pools_and_capabilities_refused_to_a_member(cinder):
    result = cinder.get("/scheduler-stats/get_pools")
    assert (result.status, message(result)) == (
        403,
        _denied("scheduler_extension:scheduler_stats:get_pools"),
    )
    result = cinder.get("/capabilities/" + BACKEND)
    assert (result.status, message(result)) == (403, _denied("volume_extension:capabilities"))


def test_capabilities_of_the_backend(cinder):
    result = cinder.get("/capabilities/" + BACKEND, user="admin")
    assert result.status == 200, result.body
    body = result.json()
    assert body["namespace"] == "OS::Storage::Capabilities::" + BACKEND
    assert body["properties"]["thin_provisioning"]["type"] == "boolean"
    result = cinder.get("/capabilities/elsewhere", user="admin")
    assert (result.status, message(result)) == (404, "Can't find service: elsewhere")


# -- hosts -------------------------------------------------------------------------


def test_hosts_list_and_show(cinder):
    cinder.create(size=2)
    hosts = cinder.get("/os-hosts", user="admin").json()["hosts"]
    assert {(h["host_name"], h["service"]) for h in hosts} == {
        ("localcloud", "cinder-scheduler"),
        (BACKEND, "cinder-volume"),
        ("localcloud", "cinder-backup"),
    }
    assert cinder.get("/os-hosts?zone=other", user="admin").json()["hosts"] == []
    shown = cinder.get("/os-hosts/" + BACKEND, user="admin").json()["host"]
    total, mine = shown[0]["resource"], shown[1]["resource"]
    assert (total["project"], total["volume_count"], total["total_volume_gb"]) == (
        "(total)",
        "1",
        "2",
    )
    assert mine["project"] == cinder.projects["demo"]
    result = cinder.get("/os-hosts/localcloud", user="admin")
    assert (result.status, message(result)) == (
        404,
        "Service cinder-volume could not be found on host localcloud.",
    )
    result = cinder.get("/os-hosts")
    assert (result.status, message(result)) == (403, _denied("volume_extension:hosts"))


# -- quota classes -----------------------------------------------------------


def test_default_quota_class_sets_project_defaults(cinder):
    shown = cinder.get("/os-quota-class-sets/default", user="admin").json()["quota_class_set"]
    assert (shown["id"], shown["volumes"], shown["gigabytes"]) == ("default", 10, 1000)
    body = {"quota_class_set": {"volumes": 4, "gigabytes": "50"}}
    result = cinder.put("/os-quota-class-sets/default", body, user="admin")
    assert result.status == 200, result.body
    updated = result.json()["quota_class_set"]
    assert (updated["volumes"], updated["gigabytes"]) == (4, 50)
    assert "id" not in updated
    project = cinder.projects["demo"]
    quotas = cinder.get("/os-quota-sets/%s" % project).json()["quota_set"]
    assert (quotas["volumes"], quotas["gigabytes"]) == (4, 50)
    other = cinder.get("/os-quota-class-sets/gold", user="admin").json()["quota_class_set"]
    assert other["volumes"] == 10


def test_quota_class_refusals(cinder):
    result = cinder.get("/os-quota-class-sets/default")
    assert (result.status, message(result)) == (
        403,
        _denied("volume_extension:quota_classes:get"),
    )
    body = {"quota_class_set": {"volumes": 1}}
    result = cinder.put("/os-quota-class-sets/default", body)
    assert (result.status, message(result)) == (
        403,
        _denied("volume_extension:quota_classes:update"),
    )
    for bad in ({"volumes": -2}, {"volumes": "x"}, {"bad key!": 1}, {}):
        bad_body = {"quota_class_set": bad} if bad else {"quota_set": {}}
        result = cinder.put("/os-quota-class-sets/default", bad_body, user="admin")
        assert result.status == 400, (bad, result.body)
    result = cinder.put("/os-quota-class-sets/" + "c" * 256, body, user="admin")
    assert (result.status, message(result)) == (
        400,
        "Invalid input received: quota_class_name exceeds 255 characters",
    )


# -- limits ------------------------------------------------------------------------


def test_limits_and_usage(cinder):
    cinder.create(size=2)
    absolute = cinder.get("/limits").json()["limits"]["absolute"]
    assert absolute["maxTotalVolumes"] == 10
    assert (absolute["totalVolumesUsed"], absolute["totalGigabytesUsed"]) == (1, 2)
    assert cinder.get("/limits").json()["limits"]["rate"] == []
    demo = cinder.projects["demo"]
    theirs = cinder.get("/limits?project_id=" + demo, user="admin").json()["limits"]
    assert theirs["absolute"]["totalVolumesUsed"] == 1
    old = cinder.get("/limits?project_id=" + demo, user="admin", version="3.38")
    assert old.json()["limits"]["absolute"]["totalVolumesUsed"] == 0
    # a member's project_id is ignored
    alt = cinder.get("/limits?project_id=" + demo, user="alt").json()["limits"]
    assert alt["absolute"]["totalVolumesUsed"] == 0


# -- resource filters --------------------------------------------------------------


def test_resource_filters(cinder):
    listed = cinder.get("/resource_filters").json()["resource_filters"]
    by_resource = {item["resource"]: item["filters"] for item in listed}
    assert by_resource["pool"] == ["name", "volume_type"]
    assert len(by_resource) == 9
    one = cinder.get("/resource_filters?resource=backup").json()
    assert one == {"resource_filters": [{"resource": "backup", "filters":
                   ["name", "status", "volume_id"]}]}  # fmt: skip
    assert cinder.get("/resource_filters?resource=x").json() == {"resource_filters": []}
    assert cinder.get("/resource_filters", version="3.32").status == 404
