"""Deleting compute services, hypervisor statistics, uptime and servers,
availability zone detail in the local nova (beyond the replay of the real
nova's answers, test_compute_realcloud_replay.py)."""

import datetime

from occli.localcloud import common
from tests.shape import assert_same_shape
from tests.unit.fakes import load_fixture
from tests.unit.localcloud.compute_harness import fault


def services(nova, version="2.53", **query):
    path = "/os-services"
    if query:
        path += "?" + "&".join("%s=%s" % kv for kv in query.items())
    return nova.get(path, user="admin", version=version).json()["services"]


def compute_service(nova, host, version="2.53"):
    return next(
        s for s in services(nova, version) if s["host"] == host and s["binary"] == "nova-compute"
    )


def hostnames(nova):
    return [
        h["hypervisor_hostname"]
        for h in nova.get("/os-hypervisors", user="admin").json()["hypervisors"]
    ]


def test_delete_a_compute_service(nova):
    # host2 in an aggregate (and a zone), host1 running a server
    agg = nova.post(
        "/os-aggregates", {"aggregate": {"name": "a", "availability_zone": "az1"}}, user="admin"
    ).json()["aggregate"]["id"]
    nova.post("/os-aggregates/%d/action" % agg, {"add_host": {"host": "host2"}}, user="admin")
    server = nova.create()
    busy = nova.show(server, user="admin")["OS-EXT-SRV-ATTR:host"]
    idle = "host3" if busy != "host3" else "host1"
    refused = nova.delete(
        "/os-services/" + compute_service(nova, busy)["id"], user="admin", version="2.53"
    )
    assert fault(refused) == (
        "conflictingRequest",
        409,
        "Unable to delete compute service that "
        "is hosting instances. Migrate or delete the instances first.",
    )
    target = compute_service(nova, "host2")
    assert nova.delete("/os-services/" + target["id"], user="admin", version="2.53").status == 204
    assert "host2" not in hostnames(nova)
    assert "host2" not in [s["host"] for s in services(nova)]
    assert nova.get("/os-aggregates/%d" % agg, user="admin").json()["aggregate"]["hosts"] == []
    again = nova.delete("/os-services/" + target["id"], user="admin", version="2.53")
    assert fault(again)[1:] == (404, "Service %s not found." % target["id"])
    # before 2.53 the integer id; a controller service can go too
    old = compute_service(nova, idle, version="2.1")
    assert nova.delete("/os-services/%d" % old["id"], user="admin").status == 204
    conductor = services(nova, "2.1", binary="nova-conductor")[0]
    assert nova.delete("/os-services/%d" % conductor["id"], user="admin").status == 204
    assert [s["binary"] for s in services(nova)] == ["nova-scheduler", "nova-compute"]
    # the scheduler places new servers on what is left
    assert nova.show(nova.create(), user="admin")["OS-EXT-SRV-ATTR:host"] == busy


def test_delete_is_admin_only_and_checks_the_id(nova):
    uuid = compute_service(nova, "host1")["id"]
    assert fault(nova.delete("/os-services/" + uuid, version="2.53"))[1:] == (
        403,
        "Policy doesn't allow os_compute_api:os-services:delete to be performed.",
    )
    # an id beyond SQLite's integers is a missing one, not an error
    assert nova.delete("/os-services/%d" % 2**70, user="admin").status == 404
    assert len(services(nova)) == 5


def test_statistics_sum_the_enabled_nodes(nova):
    sample = load_fixture("compute", "os-hypervisors", "hypervisors-statistics-resp.json")
    nova.create(flavorRef="2")
    stats = nova.get("/os-hypervisors/statistics", user="admin").json()
    assert_same_shape(stats, sample)
    totals = stats["hypervisor_statistics"]
    assert (
        totals["count"],
        totals["running_vms"],
        totals["vcpus_used"],
        totals["memory_mb_used"] - 3 * 512,
    ) == (3, 1, 1, 2048)
    nova.put(
        "/os-services/" + compute_service(nova, "host3")["id"],
        {"status": "disabled"},
        user="admin",
        version="2.53",
    )
    assert (
        nova.get("/os-hypervisors/statistics", user="admin").json()["hypervisor_statistics"][
            "count"
        ]
        == 2
    )
    assert nova.get("/os-hypervisors/statistics", user="admin", version="2.88").status == 404


def test_uptime_until_2_87_then_in_the_view(nova, clock):
    node = nova.get("/os-hypervisors", user="admin", version="2.53").json()["hypervisors"][0]
    # the host "booted" 3 days, 2 hours and 5 minutes ago (the tokens
    # would expire if the clock moved on instead)
    booted = clock.now - datetime.timedelta(days=3, hours=2, minutes=5)
    with nova.cloud.store.transaction() as db:
        db.execute(
            "UPDATE compute_nodes SET created_at = ? WHERE uuid = ?",
            (common.iso_naive_micro(booted), node["id"]),
        )
    uptime = nova.get(
        "/os-hypervisors/%s/uptime" % node["id"], user="admin", version="2.53"
    ).json()["hypervisor"]
    assert_same_shape(
        uptime,
        load_fixture("compute", "os-hypervisors", "v2.53", "hypervisors-uptime-resp.json")[
            "hypervisor"
        ],
    )
    assert uptime[
        "uptime"
    ] == " %s up 3 days,  2:05,  0 users,  load average: 0.00, 0.00, 0.00" % clock.now.strftime(
        "%H:%M:%S"
    )
    shown = nova.get("/os-hypervisors/" + node["id"], user="admin", version="2.88").json()[
        "hypervisor"
    ]
    assert shown["uptime"] == uptime["uptime"]
    # a host forced down cannot be asked
    nova.put(
        "/os-services/" + compute_service(nova, "host1")["id"],
        {"forced_down": True},
        user="admin",
        version="2.53",
    )
    down = nova.get("/os-hypervisors/%s/uptime" % node["id"], user="admin", version="2.53")
    assert fault(down)[1:] == (400, "Compute service of host1 is unavailable at this time.")
    assert (
        nova.get("/os-hypervisors/" + node["id"], user="admin", version="2.88").json()[
            "hypervisor"
        ]["uptime"]
        is None
    )


def test_uptime_text_like_the_uptime_command(nova, clock):
    from occli.localcloud.compute import hosts

    row = {"forced_down": 0, "created_at": common.iso_naive_micro(clock.now)}
    for seconds, text in (
        (59, "0 min"),
        (125, "2 min"),
        (3600, " 1:00"),
        (86400 + 60, "1 day, 1 min"),
        (2 * 86400 + 11 * 3600, "2 days, 11:00"),
    ):
        saved = clock.now
        clock.advance(seconds)
        assert " up %s,  0 users" % text in hosts.uptime(None, row)
        clock.now = saved
    assert datetime.datetime.strptime(hosts.uptime(None, row)[1:9], "%H:%M:%S")


def test_servers_of_a_hypervisor_by_version(nova):
    server = nova.create()
    host = nova.show(server, user="admin")["OS-EXT-SRV-ATTR:host"]
    old = nova.get("/os-hypervisors/%s/servers" % host, user="admin").json()
    assert_same_shape(
        old, load_fixture("compute", "os-hypervisors", "hypervisors-with-servers-resp.json")
    )
    assert old["hypervisors"][0]["servers"][0]["uuid"] == server
    assert (
        nova.get("/os-hypervisors/%s/servers" % host, user="admin", version="2.53").status == 404
    )
    listed = nova.get(
        "/os-hypervisors?with_servers=true&hypervisor_hostname_pattern=%s" % host,
        user="admin",
        version="2.53",
    ).json()["hypervisors"]
    assert [s["uuid"] for s in listed[0]["servers"]] == [server]
    shown = nova.get(
        "/os-hypervisors/%s?with_servers=yes" % listed[0]["id"], user="admin", version="2.88"
    ).json()
    assert_same_shape(
        shown,
        load_fixture(
            "compute", "os-hypervisors", "v2.88", "hypervisors-show-with-servers-resp.json"
        ),
        nullable=("uptime",),
    )
    found = nova.get("/os-hypervisors/host/search", user="admin").json()
    assert_same_shape(
        found, load_fixture("compute", "os-hypervisors", "hypervisors-search-resp.json")
    )
    assert len(found["hypervisors"]) == 3


def test_hypervisor_policies_name_the_route(nova):
    for path, rule in (
        ("/os-hypervisors/detail", "list-detail"),
        ("/os-hypervisors/statistics", "statistics"),
        ("/os-hypervisors/1/uptime", "uptime"),
        ("/os-hypervisors/host/search", "search"),
        ("/os-hypervisors/host1/servers", "servers"),
    ):
        assert fault(nova.get(path))[1:] == (
            403,
            "Policy doesn't allow os_compute_api:os-hypervisors:%s to be performed." % rule,
        )


def test_availability_zone_detail_is_admin_only(nova):
    assert fault(nova.get("/os-availability-zone/detail"))[1:] == (
        403,
        "Policy doesn't allow os_compute_api:os-availability-zone:detail to be performed.",
    )
    detail = nova.get("/os-availability-zone/detail", user="admin").json()
    assert_same_shape(
        detail,
        load_fixture("compute", "os-availability-zone", "availability-zone-detail-resp.json"),
        ignore=("hosts",),
    )
    zones = {z["zoneName"]: z["hosts"] for z in detail["availabilityZoneInfo"]}
    assert sorted(zones["internal"]["controller"]) == ["nova-conductor", "nova-scheduler"]
    assert sorted(zones["nova"]) == ["host1", "host2", "host3"]
    assert set(zones["nova"]["host1"]["nova-compute"]) == {"available", "active", "updated_at"}
    assert_same_shape(
        nova.get("/os-availability-zone").json(),
        load_fixture("compute", "os-availability-zone", "availability-zone-list-resp.json"),
    )
