"""The scheduler (capacity math, filters) and servers that end in ERROR
because no host passed: representation, state transitions, actions, list,
delete and limits."""

import datetime

import pytest

from occli.localcloud import common
from occli.localcloud.compute import scheduler
from tests.unit.localcloud.compute_harness import CIRROS
from tests.unit.localcloud.compute_harness import fault
from tests.unit.localcloud.compute_harness import make_cloud

NO_VALID_HOST = "No valid host was found. There are not enough hosts available."
TINY = {"vcpus": 1, "ram": 512, "disk": 1, "ephemeral": 0, "swap": 0}
XLARGE = {"vcpus": 8, "ram": 16384, "disk": 160, "ephemeral": 0, "swap": 0}


def node(
    host="host1", vcpus=64, memory_mb=262144, local_gb=2048, disabled=0, forced_down=0, zone="nova"
):
    return scheduler.HostState(
        {
            "host": host,
            "vcpus": vcpus,
            "memory_mb": memory_mb,
            "local_gb": local_gb,
            "disabled": disabled,
            "forced_down": forced_down,
        },
        zone,
    )


def spec(flavor=TINY, **kw):
    return scheduler.RequestSpec(scheduler.resources(flavor), **kw)


# -- capacity math -------------------------------------------------------------


def test_resources_from_flavor():
    assert scheduler.resources(XLARGE) == {"VCPU": 8, "MEMORY_MB": 16384, "DISK_GB": 160}
    # volume-backed: no root disk; swap (MB) rounds up to whole GB
    flavor = dict(XLARGE, ephemeral=10, swap=1025)
    assert scheduler.resources(flavor, volume_backed=True)["DISK_GB"] == 12
    assert scheduler.resources(flavor)["DISK_GB"] == 172


def test_capacity_uses_nova_allocation_ratios_and_reserved_memory():
    state = node()
    assert state.capacity == {
        "VCPU": 64 * 16,
        "MEMORY_MB": int((262144 - 512) * 1.5),
        "DISK_GB": 2048,
    }
    state.consume({"VCPU": 24, "MEMORY_MB": 1000, "DISK_GB": 48}, "a")
    assert state.free() == {"VCPU": 1000, "MEMORY_MB": 392448 - 1000, "DISK_GB": 2000}


def test_fits_up_to_capacity_then_not():
    state = node(vcpus=1, memory_mb=100000, local_gb=1000)
    for index in range(16):  # 1 vCPU x 16.0
        assert state.fits(scheduler.resources(TINY))
        state.consume(scheduler.resources(TINY), str(index))
    assert not state.fits(scheduler.resources(TINY))


def test_ram_ratio_and_disk_ratio():
    state = node(memory_mb=1024 + 512)
    # (1536 - 512) x 1.5 = 1536 MB: three tiny servers, not four
    for index in range(3):
        assert state.fits(scheduler.resources(TINY))
        state.consume(scheduler.resources(TINY), str(index))
    assert state.free()["MEMORY_MB"] == 0
    assert not state.fits(scheduler.resources(TINY))
    # disk is not overcommitted (ratio 1.0): 2 GB hold two tiny servers
    state = node(local_gb=2)
    for index in range(2):
        assert state.fits(scheduler.resources(TINY))
        state.consume(scheduler.resources(TINY), str(index))
    assert not state.fits(scheduler.resources(TINY))


def test_one_request_may_not_exceed_the_node_total():
    # placement's max_unit: 8 vCPUs never fit a 4-vCPU node, whatever the
    # allocation ratio leaves free
    state = node(vcpus=4)
    assert state.free()["VCPU"] == 64
    assert not state.fits(scheduler.resources(XLARGE))
    assert state.fits(scheduler.resources(dict(XLARGE, vcpus=4)))


def test_default_nodes_fit_the_largest_flavor_and_the_benchmark():
    state = node()
    assert state.fits(scheduler.resources(XLARGE))
    for index in range(500):  # benchmark: 1500 m1.tiny on 3 hosts
        assert state.fits(scheduler.resources(TINY))
        state.consume(scheduler.resources(TINY), str(index))


# -- filters -----------------------------------------------------------------


def test_zone_filter():
    assert scheduler.host_passes(node(zone="london"), spec(zone="nova")) == (
        False,
        "AvailabilityZoneFilter",
    )
    assert scheduler.host_passes(node(zone="london"), spec(zone="london")) == (True, None)
    assert scheduler.host_passes(node(zone="london"), spec())[0]


def test_compute_filter_needs_enabled_and_up():
    assert scheduler.host_passes(node(disabled=1), spec()) == (False, "ComputeFilter")
    assert scheduler.host_passes(node(forced_down=1), spec()) == (False, "ComputeFilter")


def test_forced_host_skips_filters_but_not_resources():
    full = node(vcpus=1)
    full.consume({"VCPU": 16, "MEMORY_MB": 0, "DISK_GB": 0}, "x")
    assert scheduler.host_passes(node(host="host2"), spec(forced_host="host1")) == (
        False,
        "ForcedHost",
    )
    # a disabled host and a hint that would exclude it: still chosen
    hinted = node(disabled=1)
    hinted.consume({"VCPU": 1, "MEMORY_MB": 0, "DISK_GB": 0}, "a")
    assert scheduler.host_passes(
        hinted, spec(forced_host="host1", hints={"different_host": "a"})
    ) == (True, None)
    assert scheduler.host_passes(full, spec(forced_host="host1")) == (False, "ResourceFilter")
    # the zone still applies to a forced host
    assert not scheduler.host_passes(node(zone="london"), spec(zone="nova", forced_host="host1"))[
        0
    ]


def test_requested_host_keeps_the_filters():
    assert scheduler.host_passes(node(disabled=1), spec(requested_host="host1")) == (
        False,
        "ComputeFilter",
    )
    assert scheduler.host_passes(node(host="host2"), spec(requested_host="host1")) == (
        False,
        "ForcedHost",
    )


def test_resource_filter():
    small = node(vcpus=4, memory_mb=8192, local_gb=100)
    assert scheduler.host_passes(small, spec(XLARGE)) == (False, "ResourceFilter")


def test_different_and_same_host_hints():
    state = node()
    state.consume(scheduler.resources(TINY), "a")
    other = node(host="host2")
    for value in ("a", ["b", "a"]):
        assert scheduler.host_passes(state, spec(hints={"different_host": value})) == (
            False,
            "DifferentHostFilter",
        )
        assert scheduler.host_passes(other, spec(hints={"different_host": value}))[0]
        assert scheduler.host_passes(state, spec(hints={"same_host": value}))[0]
        assert scheduler.host_passes(other, spec(hints={"same_host": value})) == (
            False,
            "SameHostFilter",
        )
    # both at once: no host can pass
    both = {"same_host": "a", "different_host": "a"}
    assert not any(scheduler.host_passes(s, spec(hints=both))[0] for s in (state, other))
    # unrelated hints are ignored
    assert scheduler.host_passes(other, spec(hints={"group": "x"}))[0]


def test_select_destinations_spreads_and_consumes(nova):
    with nova.cloud.store.transaction() as db:
        db.execute("UPDATE compute_nodes SET vcpus = 1")
        ids = ["id%d" % i for i in range(48)]
        chosen = scheduler.select_destinations(db, spec(), ids)
        assert [chosen.count(h) for h in ("host1", "host2", "host3")] == [16, 16, 16]
        assert chosen[:4] == ["host1", "host2", "host3", "host1"]
        assert scheduler.select_destinations(db, spec(), ids + ["x"]) is None


def test_available_zones_follow_enabled_services(nova):
    with nova.cloud.store.transaction() as db:
        assert scheduler.available_zones(db) == {"nova", "internal"}
        db.execute("UPDATE compute_services SET disabled = 1 WHERE binary = 'nova-compute'")
        assert scheduler.available_zones(db) == {"internal"}


# -- through the API ------------------------------------------------------------


def create_with_hints(nova, hints, user="demo", expect=202, **server):
    body = {
        "server": dict({"name": "vm", "flavorRef": "1", "imageRef": CIRROS}, **server),
        "os:scheduler_hints": hints,
    }
    result = nova.post("/servers", body, user=user)
    assert result.status == expect, result.body
    return result.json()["server"]["id"] if expect == 202 else result


def host_of(nova, server_id):
    return nova.show(server_id, user="admin")["OS-EXT-SRV-ATTR:host"]


def test_hints_place_or_fail(nova):
    anchor = nova.create()
    anchor_host = host_of(nova, anchor)
    for _ in range(3):
        assert host_of(nova, create_with_hints(nova, {"same_host": anchor})) == anchor_host
    apart = create_with_hints(nova, {"different_host": [anchor]})
    assert host_of(nova, apart) not in (None, anchor_host)
    failed = create_with_hints(nova, {"same_host": anchor, "different_host": anchor})
    assert nova.show(failed)["status"] == "ERROR"
    # an ERROR server has no host: same_host on it cannot be satisfied
    assert nova.show(create_with_hints(nova, {"same_host": failed}))["status"] == "ERROR"


@pytest.mark.parametrize(
    "hints", [{"same_host": "not-a-uuid"}, {"different_host": ["x"]}, {"different_host": 5}]
)
def test_hint_values_must_be_server_uuids(nova, hints):
    result = create_with_hints(nova, hints, expect=400)
    assert fault(result)[0] == "badRequest"


def test_error_server_representation(nova):
    anchor = nova.create()
    server_id = create_with_hints(
        nova, {"same_host": anchor, "different_host": anchor}, availability_zone="nova"
    )
    member = nova.show(server_id, version="2.96")
    assert member["status"] == "ERROR"
    assert member["OS-EXT-STS:vm_state"] == "error"
    assert member["OS-EXT-STS:task_state"] is None
    assert member["OS-EXT-STS:power_state"] == 0
    assert member["hostId"] == ""
    assert member["addresses"] == {}
    assert "progress" not in member
    assert "security_groups" not in member  # no ports were made
    assert member["OS-SRV-USG:launched_at"] is None
    assert member["OS-EXT-AZ:availability_zone"] == "nova"
    assert member["pinned_availability_zone"] == "nova"
    assert set(member["fault"]) == {"code", "created", "message"}
    assert member["fault"]["code"] == 500
    assert member["fault"]["message"] == NO_VALID_HOST
    datetime.datetime.strptime(member["fault"]["created"], "%Y-%m-%dT%H:%M:%SZ")
    admin = nova.show(server_id, user="admin", version="2.16")
    assert admin["OS-EXT-SRV-ATTR:host"] is None
    assert admin["OS-EXT-SRV-ATTR:hypervisor_hostname"] is None
    assert admin["host_status"] == ""
    assert admin["fault"]["details"].startswith("Traceback")
    assert "NoValidHost" in admin["fault"]["details"]
    detail = nova.get("/servers/detail").json()["servers"]
    listed = {s["id"]: s for s in detail}[server_id]
    assert listed["fault"]["message"] == NO_VALID_HOST
    assert "details" not in listed["fault"]
    all_tenants = nova.get("/servers/detail?all_tenants=1", user="admin").json()["servers"]
    assert "details" in {s["id"]: s for s in all_tenants}[server_id]["fault"]
    # the healthy server shows no fault
    assert "fault" not in nova.show(anchor)


def test_error_comes_after_build_time_through_scheduling(slow_nova, clock):
    anchor = slow_nova.create()
    clock.advance(10)
    started = common.utcnow()
    server_id = create_with_hints(slow_nova, {"same_host": anchor, "different_host": anchor})
    for _ in range(3):
        server = slow_nova.show(server_id)
        assert (
            server["status"],
            server["OS-EXT-STS:vm_state"],
            server["OS-EXT-STS:task_state"],
        ) == ("BUILD", "building", "scheduling")
        assert server["progress"] == 0
        assert server["hostId"] == "" and "fault" not in server
        clock.advance(3)
    clock.advance(1.5)
    server = slow_nova.show(server_id)
    assert server["status"] == "ERROR"
    assert server["OS-EXT-STS:task_state"] is None
    assert server["fault"]["created"] == common.iso_z(started + datetime.timedelta(seconds=10))
    assert server["updated"] == server["fault"]["created"]


def test_zone_whose_hosts_are_down_accepts_then_errors(nova):
    with nova.cloud.store.transaction() as db:
        db.execute("UPDATE compute_services SET forced_down = 1 WHERE binary = 'nova-compute'")
    server = nova.show(nova.create(availability_zone="nova"))
    assert server["status"] == "ERROR"
    assert server["fault"]["message"] == NO_VALID_HOST


def test_zone_whose_services_are_all_disabled_is_not_available(nova):
    # nova's API lists available zones from enabled services: 400 there
    with nova.cloud.store.transaction() as db:
        db.execute("UPDATE compute_services SET disabled = 1 WHERE binary = 'nova-compute'")
    result = nova.create(expect=400, availability_zone="nova")
    assert fault(result)[2] == "The requested availability zone is not available"


def test_internal_zone_is_available_but_has_no_compute_host(nova):
    server = nova.show(nova.create(availability_zone="internal"))
    assert server["status"] == "ERROR"
    assert server["OS-EXT-AZ:availability_zone"] == "internal"


def test_forced_unknown_host_errors(nova):
    # nova does not look the forced host up at the API
    server_id = nova.create(user="admin", availability_zone="nova:host9")
    assert nova.show(server_id, user="admin")["status"] == "ERROR"
    assert nova.create(user="admin", expect=400, availability_zone="a:b:c:d").status == 400


def test_forced_host_ignores_a_disabled_service(nova):
    with nova.cloud.store.transaction() as db:
        db.execute("UPDATE compute_services SET disabled = 1 WHERE host = 'host2'")
    forced = nova.create(user="admin", availability_zone="nova:host2")
    assert host_of(nova, forced) == "host2"
    requested = nova.create(user="admin", version="2.74", host="host2")
    assert nova.show(requested, user="admin")["status"] == "ERROR"


def test_flavor_that_does_not_fit_errors(nova):
    # no seeded flavor outgrows the default nodes: shrink them
    with nova.cloud.store.transaction() as db:
        db.execute("UPDATE compute_nodes SET vcpus = 4")
    assert nova.show(nova.create(flavorRef="4"))["status"] == "ACTIVE"
    server = nova.show(nova.create(flavorRef="5"))
    assert server["status"] == "ERROR"
    assert server["fault"]["message"] == NO_VALID_HOST


def test_capacity_fills_up(nova):
    nova.lift_quotas()
    with nova.cloud.store.transaction() as db:
        db.execute("UPDATE compute_nodes SET vcpus = 1")
    result = nova.post(
        "/servers",
        {
            "server": {
                "name": "fill",
                "flavorRef": "1",
                "imageRef": CIRROS,
                "max_count": 48,
                "return_reservation_id": True,
            }
        },
    )
    rid = result.json()["reservation_id"]
    filled = nova.get("/servers/detail?reservation_id=" + rid).json()["servers"]
    assert {s["status"] for s in filled} == {"ACTIVE"} and len(filled) == 48
    assert nova.show(nova.create())["status"] == "ERROR"
    # deleting one frees its room
    assert nova.delete("/servers/" + filled[0]["id"]).status == 204
    assert nova.show(nova.create())["status"] == "ACTIVE"
    hypervisors = nova.get("/os-hypervisors/detail", user="admin").json()["hypervisors"]
    assert [(h["vcpus"], h["vcpus_used"]) for h in hypervisors] == [(1, 16)] * 3


def test_multi_create_that_cannot_all_be_placed_fails_all(nova):
    nova.lift_quotas()
    with nova.cloud.store.transaction() as db:
        db.execute("UPDATE compute_nodes SET vcpus = 1")
    result = nova.post(
        "/servers",
        {
            "server": {
                "name": "many",
                "flavorRef": "1",
                "imageRef": CIRROS,
                "max_count": 49,
                "return_reservation_id": True,
            }
        },
    )
    assert result.status == 202
    listed = nova.get("/servers/detail?reservation_id=" + result.json()["reservation_id"]).json()[
        "servers"
    ]
    assert len(listed) == 49 and {s["status"] for s in listed} == {"ERROR"}


def test_hypervisors_report_the_scheduler_inventory(nova):
    nova.create(flavorRef="5")
    first = nova.get("/os-hypervisors/detail", user="admin").json()["hypervisors"][0]
    assert (first["vcpus"], first["memory_mb"], first["local_gb"]) == (64, 262144, 2048)
    assert (
        first["vcpus_used"],
        first["memory_mb_used"],
        first["local_gb_used"],
        first["free_ram_mb"],
    ) == (8, 16384 + 512, 160, 262144 - 16384 - 512)


def test_old_node_sizes_are_migrated(tmp_path):
    cloud = make_cloud(tmp_path / "data")
    with cloud.store.transaction() as db:
        db.execute(
            "UPDATE compute_nodes SET vcpus = 16, memory_mb = 32768,"
            " local_gb = 500 WHERE host = 'host1'"
        )
        db.execute("UPDATE compute_nodes SET vcpus = 8 WHERE host = 'host2'")
        db.execute("UPDATE schema_versions SET version = 1 WHERE component = 'compute.hosts'")
    cloud.close()
    cloud = make_cloud(tmp_path / "data")
    with cloud.store.transaction() as db:
        sizes = [
            tuple(r)
            for r in db.execute(
                "SELECT vcpus, memory_mb, local_gb FROM compute_nodes ORDER BY host"
            )
        ]
    cloud.close()
    # the old default grows; a deliberately edited node is left alone
    assert sizes == [(64, 262144, 2048), (8, 262144, 2048), (64, 262144, 2048)]


# -- an ERROR server's life ---------------------------------------------------


@pytest.fixture
def errored(nova):
    anchor = nova.create()
    server_id = create_with_hints(nova, {"same_host": anchor, "different_host": anchor})
    assert nova.show(server_id)["status"] == "ERROR"
    return server_id


def test_status_filter_finds_error_servers(nova, errored):
    listed = nova.get("/servers?status=ERROR").json()["servers"]
    assert [s["id"] for s in listed] == [errored]
    active = nova.get("/servers?status=ACTIVE").json()["servers"]
    assert errored not in [s["id"] for s in active]
    assert [
        s["id"] for s in nova.get("/servers?vm_state=error", version="2.83").json()["servers"]
    ] == [errored]


def test_error_server_is_deletable(nova, errored):
    result = nova.delete("/servers/" + errored)
    assert result.status == 204 and result.body == b""
    assert nova.get("/servers/" + errored).status == 404
    assert errored not in [s["id"] for s in nova.get("/servers").json()["servers"]]


def test_error_servers_count_in_limits(nova, errored):
    # nova counts instances/cores/ram of every non-deleted instance
    absolute = nova.get("/limits").json()["limits"]["absolute"]
    assert (
        absolute["totalInstancesUsed"],
        absolute["totalCoresUsed"],
        absolute["totalRAMUsed"],
    ) == (2, 2, 1024)
    nova.delete("/servers/" + errored)
    absolute = nova.get("/limits").json()["limits"]["absolute"]
    assert absolute["totalInstancesUsed"] == 1


def conflict_message(result):
    assert result.status == 409, result.body
    name, _, message = fault(result)
    assert name == "conflictingRequest"
    return message


def test_actions_on_a_never_scheduled_error_server(nova, errored):
    # vm_state error is allowed for a hard reboot, but nova also requires
    # the instance to have launched once (check_instance_state)
    assert conflict_message(nova.action(errored, {"reboot": {"type": "HARD"}})) == (
        "Instance %s is in an invalid state for 'reboot'" % errored
    )
    # stop allows error, but check_instance_host comes first
    assert conflict_message(nova.action(errored, {"os-stop": None})) == (
        "Instance %s is not ready" % errored
    )
    assert conflict_message(nova.action(errored, {"pause": None})) == (
        "Cannot 'pause' instance %s while it is in vm_state error" % errored
    )
    assert conflict_message(nova.action(errored, {"rebuild": {"imageRef": CIRROS}})) == (
        "Instance %s is in an invalid state for 'rebuild'" % errored
    )
    assert conflict_message(nova.action(errored, {"createImage": {"name": "snap"}})).endswith(
        "vm_state error"
    )
    assert nova.action(errored, {"lock": None}).status == 202
    assert nova.show(errored)["status"] == "ERROR"


def test_launched_error_server_allows_hard_reboot_and_stop(nova):
    server_id = nova.create()
    nova.show(server_id)
    with nova.cloud.store.transaction() as db:
        db.execute("UPDATE servers SET vm_state = 'error' WHERE id = ?", (server_id,))
    assert nova.action(server_id, {"reboot": {"type": "HARD"}}).status == 202
    assert nova.show(server_id)["status"] == "ACTIVE"
    with nova.cloud.store.transaction() as db:
        db.execute("UPDATE servers SET vm_state = 'error' WHERE id = ?", (server_id,))
    assert nova.action(server_id, {"os-stop": None}).status == 202
    assert nova.show(server_id)["status"] == "SHUTOFF"
