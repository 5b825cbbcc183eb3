"""os-simple-tenant-usage and os-instance_usage_audit_log of the local nova:
server-hours from the servers' launch and delete times (a controlled
clock), shapes from the upstream samples, texts from real nova 34."""

import datetime
from urllib.parse import parse_qs
from urllib.parse import urlsplit

import pytest

from tests.shape import assert_same_shape
from tests.unit.fakes import load_fixture
from tests.unit.localcloud.compute_harness import CIRROS
from tests.unit.localcloud.compute_harness import fault
from tests.unit.localcloud.nova_quota_recording import exchange
from tests.unit.localcloud.nova_quota_recording import message
from tests.unit.localcloud.nova_quota_recording import real_project

USAGE = "/os-simple-tenant-usage"
AUDIT = "/os-instance_usage_audit_log"
T0 = datetime.datetime(2026, 3, 10, 12, 0, 0, tzinfo=datetime.timezone.utc)


def at(hours):
    return (T0 + datetime.timedelta(hours=hours)).strftime("%Y-%m-%dT%H:%M:%S")


def sample(*parts):
    return load_fixture("compute", "os-simple-tenant-usage", *parts)


def same(result, expected):
    status, name, text = expected
    assert fault(result) == (name, status, text)


@pytest.fixture
def timed(nova, clock):
    """The cloud with its clock at T0 (``clock.advance(seconds)``)."""
    clock.now = T0
    return nova


@pytest.fixture
def demo(nova):
    return nova.project_id("demo")


def test_server_hours_from_launch_to_now(timed, clock, demo):
    server = timed.create(flavorRef="3")  # 2 vCPUs, 4 GiB, 40 GB
    clock.advance(2 * 3600)
    body = timed.get("%s/%s?start=%s&end=%s" % (USAGE, demo, at(-1), at(5)), version="2.40").json()
    usage = body["tenant_usage"]
    assert "tenant_usage_links" not in body
    assert usage["tenant_id"] == demo
    # the end is clipped to now
    assert (usage["start"], usage["stop"]) == (
        "2026-03-10T11:00:00.000000",
        "2026-03-10T14:00:00.000000",
    )
    assert (
        usage["total_hours"],
        usage["total_vcpus_usage"],
        usage["total_memory_mb_usage"],
        usage["total_local_gb_usage"],
    ) == (2.0, 4.0, 8192.0, 80.0)
    (one,) = usage["server_usages"]
    assert one == {
        "hours": 2.0,
        "flavor": "m1.medium",
        "instance_id": server,
        "name": "vm",
        "tenant_id": demo,
        "memory_mb": 4096,
        "local_gb": 40,
        "vcpus": 2,
        "started_at": "2026-03-10T12:00:00.000000",
        "ended_at": None,
        "state": "active",
        "uptime": 7200,
    }


def test_a_period_counts_only_its_part(timed, clock, demo):
    timed.create()
    clock.advance(10 * 3600)
    usage = timed.get("%s/%s?start=%s&end=%s" % (USAGE, demo, at(2), at(5))).json()["tenant_usage"]
    assert usage["total_hours"] == 3.0
    # before the launch: nothing, and an empty usage
    before = timed.get("%s/%s?start=%s&end=%s" % (USAGE, demo, at(-5), at(-1))).json()
    assert before == {"tenant_usage": {}}


def test_a_deleted_server_counts_until_its_delete(timed, clock, demo):
    server = timed.create()
    clock.advance(1800)
    assert timed.delete("/servers/" + server).status == 204
    clock.advance(3 * 3600)
    usage = timed.get("%s/%s?start=%s" % (USAGE, demo, at(-1)), version="2.40").json()[
        "tenant_usage"
    ]
    (one,) = usage["server_usages"]
    assert (one["hours"], one["state"], one["ended_at"], one["uptime"]) == (
        0.5,
        "terminated",
        "2026-03-10T12:30:00.000000",
        1800,
    )


def test_a_server_that_never_launched_counts_nothing(timed, clock, demo):
    anchor = timed.create(name="anchor")
    # contradicting hints: NoValidHost, the server ends in ERROR unlaunched
    doomed = timed.post(
        "/servers",
        {
            "server": {"name": "doomed", "flavorRef": "1", "imageRef": CIRROS},
            "os:scheduler_hints": {"same_host": anchor, "different_host": anchor},
        },
    )
    assert doomed.status == 202, doomed.body
    clock.advance(3600)
    usage = timed.get("%s/%s?start=%s" % (USAGE, demo, at(-1))).json()["tenant_usage"]
    assert [s["name"] for s in usage["server_usages"]] == ["anchor"]


def test_a_build_finishing_later_counts_from_then(tmp_path, clock):
    from tests.unit.localcloud.compute_harness import Nova
    from tests.unit.localcloud.compute_harness import make_cloud

    cloud = make_cloud(tmp_path / "data", build_time=600)
    try:
        nova = Nova(cloud)  # tokens valid until after T0 + 1 h
        demo = nova.project_id("demo")
        clock.now = T0
        nova.create()
        clock.advance(3600)
        usage = nova.get("%s/%s?start=%s" % (USAGE, demo, at(-1))).json()["tenant_usage"]
        assert usage["server_usages"][0]["started_at"] == ("2026-03-10T12:10:00.000000")
        assert usage["total_hours"] == pytest.approx(50 / 60)
    finally:
        cloud.close()


@pytest.mark.parametrize(
    "version, name",
    [
        ("2.1", "simple-tenant-usage-get-specific.json"),
        ("2.40", "simple-tenant-usage-get-specific.json"),
    ],
)
def test_show_has_the_sample_shape(timed, clock, demo, version, name):
    timed.create()
    clock.advance(3600)
    folder = () if version == "2.1" else ("v2.40",)
    body = timed.get("%s/%s?start=%s&limit=1" % (USAGE, demo, at(-1)), version=version).json()
    expected = sample(*folder, name)
    if version == "2.1":
        assert "tenant_usage_links" not in body
    assert_same_shape(body, expected)


def test_list_shapes_and_detail(timed, clock, demo):
    timed.create()
    timed.create(user="admin")
    clock.advance(3600)
    plain = timed.get("%s?start=%s" % (USAGE, at(-1)), user="admin").json()
    assert_same_shape(plain, sample("simple-tenant-usage-get.json"))
    assert len(plain["tenant_usages"]) == 2
    detailed = timed.get(
        "%s?start=%s&detailed=1" % (USAGE, at(-1)), user="admin", version="2.40"
    ).json()
    assert_same_shape(detailed, sample("v2.40", "simple-tenant-usage-get-all.json"))
    # nova's paging order: by project, then instance uuid
    projects = [u["tenant_id"] for u in detailed["tenant_usages"]]
    assert projects == sorted(projects)


def test_pages_and_their_links(timed, clock, demo):
    servers = sorted(timed.create(name="s%d" % i) for i in range(3))
    clock.advance(3600)
    path = "%s/%s?start=%s&limit=2" % (USAGE, demo, at(-1))
    body = timed.get(path, version="2.40").json()
    assert [s["instance_id"] for s in body["tenant_usage"]["server_usages"]] == servers[:2]
    (link,) = body["tenant_usage_links"]
    # as real nova: the request's parameters sorted, the marker last, the
    # project in the URL since it was in the request's
    real = exchange("second", "GET", "?limit=1&start=")["body"]["tenant_usage_links"][0]
    assert list(link) == list(real) == ["rel", "href"]
    real_url = urlsplit(real["href"])
    real_p = real_project("second")
    assert real_url.path == "/v2.1/%s/os-simple-tenant-usage/%s" % (real_p, real_p)
    assert real_url.query.split("&")[-1].startswith("marker=")
    url = urlsplit(link["href"])
    assert url.path == "/compute/v2.1/%s/os-simple-tenant-usage/%s" % (demo, demo)
    assert [k for k, _ in (p.split("=") for p in url.query.split("&"))] == [
        "limit",
        "start",
        "marker",
    ]
    assert parse_qs(url.query)["marker"] == [servers[1]]
    rest = timed.get("%s/%s?%s" % (USAGE, demo, url.query), version="2.40").json()
    assert [s["instance_id"] for s in rest["tenant_usage"]["server_usages"]] == servers[2:]
    assert "tenant_usage_links" not in rest
    # before 2.40 there is no paging: every server, no links
    old = timed.get(path, version="2.39").json()
    assert len(old["tenant_usage"]["server_usages"]) == 3
    assert "tenant_usage_links" not in old


def test_a_deleted_server_still_pages_on(timed, clock, demo):
    first, second = sorted(timed.create(name="s%d" % i) for i in range(2))
    clock.advance(60)
    timed.delete("/servers/" + first)
    body = timed.get(
        "%s/%s?start=%s&marker=%s" % (USAGE, demo, at(-1), first), version="2.40"
    ).json()
    assert [s["instance_id"] for s in body["tenant_usage"]["server_usages"]] == [second]


def test_markers_nova_refuses(timed, demo):
    unknown = "f8b1be2a-1f7b-4c2e-af22-ba43feb6dcb1"
    same(
        timed.get("%s?marker=%s" % (USAGE, unknown), user="admin", version="2.40"),
        message("first", "GET", "?marker="),
    )
    # another project's server is unknown to a project's reader (not an
    # oracle), known to the admin's listing of every project
    other = timed.create(user="admin")
    assert fault(timed.get("%s/%s?marker=%s" % (USAGE, demo, other), version="2.40"))[2] == (
        "Marker %s could not be found." % other
    )
    assert timed.get("%s?marker=%s" % (USAGE, other), user="admin", version="2.40").status == 200


def test_requests_nova_refuses(timed, demo):
    same(
        timed.get(
            USAGE + "?start=2030-01-01T00:00:00&end=2020-01-01T00:00:00",
            user="admin",
            version="2.40",
        ),
        message("first", "GET", "?start=2030-01-01T00:00:00&end="),
    )
    same(
        timed.get(USAGE + "?start=2020-01-01", user="admin", version="2.40"),
        message("first", "GET", "=/os-simple-tenant-usage?start=2020-01-01"),
    )
    same(
        timed.get(USAGE + "?start=2020-01-01%2000:00:00", user="admin", version="2.40"),
        message("first", "GET", "?start=2020-01-01%2000:00:00"),
    )
    same(
        timed.get(USAGE + "?limit=abc", user="admin", version="2.40"),
        message("first", "GET", "?limit=abc"),
    )
    # a start in the future of now is after the clipped end as well
    assert (
        timed.get("%s/%s?start=2099-01-01T00:00:00" % (USAGE, demo), version="2.40").status == 400
    )
    assert timed.get("%s/%s?bogus=1" % (USAGE, demo), version="2.75").status == 400
    assert timed.get("%s/%s?bogus=1" % (USAGE, demo), version="2.74").status == 200


def test_policies_as_nova(timed, demo):
    admin_project = timed.project_id("admin")
    same(
        timed.get(USAGE, version="2.40"),
        message("first", "GET", "=/os-simple-tenant-usage", caller="member@p"),
    )
    same(
        timed.get("%s/%s" % (USAGE, admin_project), version="2.40"),
        message("first", "GET", "/os-simple-tenant-usage/", caller="member@p", status=403),
    )
    assert timed.get("%s/%s" % (USAGE, demo)).status == 200
    assert timed.get("%s/%s" % (USAGE, demo), user="admin").status == 200
    same(timed.get(AUDIT), message("first", "GET", AUDIT, caller="member@p"))
    assert timed.get(AUDIT + "/2012-07-01%2000:00:00").status == 403


# -- the usage audit log ---------------------------------------------------------------


def test_audit_log_as_nova_with_the_audit_off(timed):
    body = timed.get(AUDIT, user="admin").json()
    assert_same_shape(
        body,
        load_fixture(
            "compute", "os-instance-usage-audit-log", "inst-usage-audit-log-index-get-resp.json"
        ),
        maps={"log"},
    )
    real = exchange("first", "GET", "=" + AUDIT, caller="admin@admin")["body"][
        "instance_usage_audit_logs"
    ]
    log = body["instance_usage_audit_logs"]
    assert log == dict(
        real,
        period_beginning="2026-02-01 00:00:00",
        period_ending="2026-03-01 00:00:00",
        num_hosts=3,
        num_hosts_not_run=3,
        hosts_not_run=["host1", "host2", "host3"],
        overall_status="0 of 3 hosts done. 0 errors.",
    )


@pytest.mark.parametrize("before", ["2012-07-01%2000:00:00", "2012-07-01%2000:00:00.5"])
def test_audit_log_before_a_time(timed, before):
    body = timed.get(AUDIT + "/" + before, user="admin").json()
    assert_same_shape(
        body,
        load_fixture(
            "compute", "os-instance-usage-audit-log", "inst-usage-audit-log-show-get-resp.json"
        ),
        maps={"log"},
    )
    real = exchange("first", "GET", "=%s/%s" % (AUDIT, before))["body"]["instance_usage_audit_log"]
    log = body["instance_usage_audit_log"]
    assert (log["period_beginning"], log["period_ending"]) == (
        real["period_beginning"],
        real["period_ending"],
    )


def test_audit_log_bad_timestamp(timed):
    same(
        timed.get(AUDIT + "/yesterday", user="admin"),
        message("first", "GET", AUDIT + "/yesterday"),
    )


def test_audit_period_across_the_new_year():
    from occli.localcloud.compute import usage

    assert usage.last_completed_month(datetime.datetime(2026, 1, 15)) == (
        datetime.datetime(2025, 12, 1),
        datetime.datetime(2026, 1, 1),
    )
    assert usage.last_completed_month(datetime.datetime(2026, 2, 1)) == (
        datetime.datetime(2025, 12, 1),
        datetime.datetime(2026, 1, 1),
    )
    assert usage.last_completed_month(datetime.datetime(2026, 1, 1)) == (
        datetime.datetime(2025, 11, 1),
        datetime.datetime(2025, 12, 1),
    )
