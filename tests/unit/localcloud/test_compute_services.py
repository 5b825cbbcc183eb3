"""``PUT /os-services/{id}``: nova's enable/disable/force-down rules, the
effect on the scheduler, os-services and availability zones, and the shape
of every os-services PUT sample at its microversion."""

import glob
import json
import os

import pytest

from tests.shape import assert_same_shape
from tests.unit.localcloud.compute_harness import fault

FIXTURES = os.path.join(
    os.path.dirname(__file__), os.pardir, os.pardir, "fixtures", "compute", "os-services"
)
COMPUTE = "nova-compute"


def _uuid(nova, host="host1", binary=COMPUTE):
    services = nova.get(
        "/os-services?host=%s&binary=%s" % (host, binary), user="admin", version="2.53"
    ).json()["services"]
    assert len(services) == 1
    return services[0]["id"]


def _service(nova, host="host1", version="2.53"):
    services = nova.get(
        "/os-services?host=%s&binary=%s" % (host, COMPUTE), user="admin", version=version
    ).json()["services"]
    return services[0]


def _put(nova, ident, body, version="2.53", user="admin"):
    return nova.put("/os-services/" + ident, body, user=user, version=version)


def _legacy(nova, action, body, version=None, user="admin"):
    return nova.put("/os-services/" + action, body, user=user, version=version)


# -- fidelity ---------------------------------------------------------------


def _put_samples():
    cases = []
    for path in sorted(
        glob.glob(os.path.join(FIXTURES, "**", "service-*-put-req.json"), recursive=True)
    ):
        relative = os.path.relpath(path, FIXTURES)
        folder = os.path.dirname(relative)
        cases.append(
            (folder[1:] if folder else "2.1", os.path.basename(path)[: -len("-put-req.json")])
        )
    return cases


def _load(version, name):
    folder = "" if version == "2.1" else "v" + version
    with open(os.path.join(FIXTURES, folder, name)) as f:
        return json.load(f)


_ACTIONS = {
    "service-enable": "enable",
    "service-disable": "disable",
    "service-disable-log": "disable-log-reason",
    "service-force-down": "force-down",
}


@pytest.mark.parametrize("version,sample", _put_samples())
def test_put_samples(nova, version, sample):
    request = _load(version, sample + "-put-req.json")
    expected = _load(version, sample + "-put-resp.json")
    if version == "2.53":
        result = _put(nova, _uuid(nova), request)
    else:
        result = _legacy(nova, _ACTIONS[sample], request, version=version)
    assert result.status == 200, result.body
    actual = result.json()
    assert_same_shape(actual, expected, nullable=("disabled_reason",))
    if version != "2.53":
        # the pre-2.53 answer echoes the request, values included
        assert actual == expected


def test_every_put_sample_is_covered():
    assert sorted(_put_samples()) == sorted(
        [
            (v, s)
            for v in ("2.1", "2.11")
            for s in ("service-enable", "service-disable", "service-disable-log")
        ]
        + [("2.11", "service-force-down")]
        + [
            ("2.53", s)
            for s in (
                "service-enable",
                "service-disable",
                "service-disable-log",
                "service-force-down",
            )
        ]
    )


# -- 2.53+: by uuid -----------------------------------------------------------


def test_disable_enable_and_force_down_by_uuid(nova):
    ident = _uuid(nova)
    body = _put(nova, ident, {"status": "disabled", "disabled_reason": "maintenance"}).json()
    service = body["service"]
    assert (
        service["id"],
        service["host"],
        service["status"],
        service["disabled_reason"],
        service["state"],
        service["forced_down"],
    ) == (ident, "host1", "disabled", "maintenance", "up", False)
    listed = _service(nova)
    assert listed == dict(service, updated_at=listed["updated_at"])
    # forced_down alone leaves the status and the reason alone
    down = _put(nova, ident, {"forced_down": "yes"}).json()["service"]
    assert (down["status"], down["disabled_reason"], down["state"], down["forced_down"]) == (
        "disabled",
        "maintenance",
        "down",
        True,
    )
    # both at once; enabling clears the reason
    both = _put(nova, ident, {"status": "enabled", "forced_down": False}).json()["service"]
    assert (both["status"], both["disabled_reason"], both["state"], both["forced_down"]) == (
        "enabled",
        None,
        "up",
        False,
    )
    # disabling without a reason clears an old one
    _put(nova, ident, {"status": "disabled", "disabled_reason": "old"})
    plain = _put(nova, ident, {"status": "disabled"}).json()["service"]
    assert plain["disabled_reason"] is None
    # the same status again is accepted (nova marks the field changed)
    assert _put(nova, ident, {"status": "disabled"}).status == 200


@pytest.mark.parametrize(
    "body,message",
    [
        ({}, "No updates were requested. Fields 'status' or 'forced_down' should be specified."),
        (
            {"disabled_reason": "why"},
            "No updates were requested. Fields 'status' or 'forced_down' should be specified.",
        ),
        (
            {"status": "enabled", "disabled_reason": "why"},
            "Specifying 'disabled_reason' with status 'enabled' is invalid.",
        ),
        ({"status": "off"}, None),
        ({"status": "disabled", "disabled_reason": ""}, None),
        ({"status": "disabled", "disabled_reason": "x" * 256}, None),
        ({"forced_down": "maybe"}, None),
        ({"host": "host1", "binary": COMPUTE}, None),
    ],
)
def test_uuid_update_rejects(nova, body, message):
    ident = _uuid(nova)
    result = _put(nova, ident, body)
    assert result.status == 400, result.body
    if message:
        assert fault(result) == ("badRequest", 400, message)
    assert _service(nova)["status"] == "enabled"


def test_uuid_update_empty_body_ids_policy_and_binaries(nova):
    ident = _uuid(nova)
    empty = nova.call("PUT", "/os-services/" + ident, user="admin", version="2.53", raw=b"")
    assert empty.status == 400
    assert fault(_put(nova, "1", {"status": "disabled"})) == ("badRequest", 400, "Invalid uuid 1")
    # an action name is no longer an action from 2.53
    assert fault(_put(nova, "disable", {"status": "disabled"}))[2] == "Invalid uuid disable"
    missing = "0f6e5b2a-1d9c-4c1e-9a57-6c3e1b0d2f11"
    assert fault(_put(nova, missing, {"status": "disabled"})) == (
        "itemNotFound",
        404,
        "Service %s could not be found." % missing,
    )
    assert _put(nova, ident, {"status": "disabled"}, user="demo").status == 403
    assert fault(_put(nova, ident, {"status": "disabled"}, user="demo"))[2] == (
        "Policy doesn't allow os_compute_api:os-services:update to be performed."
    )
    scheduler = _uuid(nova, "controller", "nova-scheduler")
    for body in ({"status": "disabled"}, {"forced_down": True}):
        assert fault(_put(nova, scheduler, body)) == (
            "badRequest",
            400,
            "Updating a nova-scheduler service is not "
            "supported. Only nova-compute services can be updated.",
        )
    assert _service(nova)["status"] == "enabled"


# -- before 2.53: actions with host and binary -------------------------------


def test_legacy_actions(nova):
    target = {"host": "host2", "binary": COMPUTE}
    assert _legacy(nova, "disable-log-reason", dict(target, disabled_reason="fan")).json() == {
        "service": dict(target, status="disabled", disabled_reason="fan")
    }
    listed = _service(nova, "host2", version="2.1")
    assert (listed["status"], listed["disabled_reason"]) == ("disabled", "fan")
    assert isinstance(listed["id"], int)
    # plain disable clears the reason, and its answer has none
    assert _legacy(nova, "disable", target).json() == {"service": dict(target, status="disabled")}
    assert _service(nova, "host2")["disabled_reason"] is None
    assert _legacy(nova, "enable", target).json() == {"service": dict(target, status="enabled")}
    assert _service(nova, "host2")["status"] == "enabled"
    down = _legacy(nova, "force-down", dict(target, forced_down="true"), version="2.11")
    assert down.json() == {"service": dict(target, forced_down=True)}
    service = _service(nova, "host2", version="2.11")
    assert (service["state"], service["forced_down"]) == ("down", True)
    assert (
        _legacy(nova, "force-down", dict(target, forced_down=False), version="2.52").json()[
            "service"
        ]["forced_down"]
        is False
    )
    assert _service(nova, "host2")["state"] == "up"


@pytest.mark.parametrize(
    "action,body,version,status,message",
    [
        (
            "force-down",
            {"host": "host1", "binary": COMPUTE, "forced_down": True},
            "2.10",
            400,
            None,
        ),  # forced_down unknown to the schema
        ("force-down", {"host": "host1", "binary": COMPUTE}, "2.10", 404, "Unknown action"),
        (
            "force-down",
            {"host": "host1", "binary": COMPUTE},
            "2.11",
            400,
            "Missing forced_down field",
        ),
        (
            "disable-log-reason",
            {"host": "host1", "binary": COMPUTE},
            None,
            400,
            "Missing disabled reason field",
        ),
        ("reboot", {"host": "host1", "binary": COMPUTE}, None, 404, "Unknown action"),
        ("disable", {"host": "host1"}, None, 400, "'binary' is a required property"),
        ("disable", {"host": "host 1", "binary": COMPUTE}, None, 400, None),
        (
            "disable",
            {"host": "host9", "binary": COMPUTE},
            None,
            404,
            "Host 'host9' is not mapped to any cell",
        ),
        (
            "disable",
            {"host": "controller", "binary": COMPUTE},
            None,
            404,
            "Host 'controller' is not mapped to any cell",
        ),
        (
            "disable",
            {"host": "controller", "binary": "nova-conductor"},
            None,
            400,
            "Updating a nova-conductor service is not supported. Only "
            "nova-compute services can be updated.",
        ),
        (
            "force-down",
            {"host": "controller", "binary": "nova-scheduler", "forced_down": True},
            "2.11",
            400,
            "Updating a nova-scheduler service is not supported. Only "
            "nova-compute services can be updated.",
        ),
    ],
)
def test_legacy_errors(nova, action, body, version, status, message):
    result = _legacy(nova, action, body, version=version)
    assert result.status == status, result.body
    if message:
        assert fault(result)[2] == message
    services = nova.get("/os-services", user="admin", version="2.11").json()["services"]
    assert all(s["status"] == "enabled" and not s["forced_down"] for s in services)


def test_legacy_policy_and_ignored_fields(nova):
    target = {"host": "host1", "binary": COMPUTE}
    assert _legacy(nova, "disable", target, user="demo").status == 403
    # nova checks the body (schema) before the policy
    assert _legacy(nova, "disable", {"host": "host1"}, user="demo").status == 400
    # plain disable ignores a disabled_reason, enable ignores forced_down
    assert _legacy(nova, "disable", dict(target, disabled_reason="x")).json() == {
        "service": dict(target, status="disabled")
    }
    assert _service(nova)["disabled_reason"] is None
    _legacy(nova, "enable", dict(target, forced_down=True), version="2.11")
    assert _service(nova)["forced_down"] is False


# -- effects ------------------------------------------------------------------


def _hosts_of_new_servers(nova, count):
    hosts = []
    for _ in range(count):
        server_id = nova.create()
        hosts.append(nova.show(server_id, user="admin")["OS-EXT-SRV-ATTR:host"])
    return hosts


@pytest.mark.parametrize("body", [{"status": "disabled"}, {"forced_down": True}])
def test_scheduler_skips_disabled_and_forced_down_hosts(nova, body):
    ident = _uuid(nova)
    _put(nova, ident, body)
    assert "host1" not in _hosts_of_new_servers(nova, 4)
    _put(nova, ident, {"status": "enabled", "forced_down": False})
    # host1 has the fewest instances now: the weigher picks it
    assert _hosts_of_new_servers(nova, 1) == ["host1"]


def test_all_hosts_disabled(nova):
    for host in ("host1", "host2", "host3"):
        _put(nova, _uuid(nova, host), {"status": "disabled"})
    server = nova.show(nova.create(), user="admin")
    assert server["status"] == "ERROR"
    assert server["fault"]["message"].startswith("No valid host was found")
    # the zone has no enabled service left: not available (nova's API check)
    refused = nova.create(expect=400, availability_zone="nova")
    assert fault(refused)[2] == "The requested availability zone is not available"
    zones = nova.get("/os-availability-zone").json()["availabilityZoneInfo"]
    assert zones == [{"zoneName": "nova", "zoneState": {"available": False}, "hosts": None}]


def test_all_hosts_forced_down(nova):
    for host in ("host1", "host2", "host3"):
        _put(nova, _uuid(nova, host), {"forced_down": True})
    # forced down is not disabled: the zone stays available, no host passes
    server = nova.show(nova.create(availability_zone="nova"), user="admin")
    assert server["status"] == "ERROR"
    assert server["fault"]["code"] == 500


def test_zone_detail_follows_nova(nova):
    _put(nova, _uuid(nova, "host1"), {"status": "disabled"})
    _put(nova, _uuid(nova, "host2"), {"forced_down": True})
    detail = nova.get("/os-availability-zone/detail", user="admin").json()["availabilityZoneInfo"]
    zone = {z["zoneName"]: z for z in detail}["nova"]
    assert zone["zoneState"] == {"available": True}
    # nova lists enabled services only: host1 is gone, host2 is down
    assert sorted(zone["hosts"]) == ["host2", "host3"]
    assert {
        h: (s[COMPUTE]["active"], s[COMPUTE]["available"]) for h, s in zone["hosts"].items()
    } == {"host2": (True, False), "host3": (True, True)}
    _put(nova, _uuid(nova, "host2"), {"status": "disabled"})
    _put(nova, _uuid(nova, "host3"), {"status": "disabled"})
    detail = nova.get("/os-availability-zone/detail", user="admin").json()["availabilityZoneInfo"]
    # available zones first, then the ones without an enabled service
    assert [(z["zoneName"], z["zoneState"]["available"], z["hosts"] is None) for z in detail] == [
        ("internal", True, False),
        ("nova", False, True),
    ]


def test_host_status_of_servers_follows_the_service(nova):
    server_id = nova.create()
    host = nova.show(server_id, user="admin")["OS-EXT-SRV-ATTR:host"]
    ident = _uuid(nova, host)

    def status():
        return nova.show(server_id, user="admin", version="2.16")["host_status"]

    assert status() == "UP"
    _put(nova, ident, {"status": "disabled"})
    assert status() == "MAINTENANCE"
    _put(nova, ident, {"forced_down": True})
    assert status() == "DOWN"
