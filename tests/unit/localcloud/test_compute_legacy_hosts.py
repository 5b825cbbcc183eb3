"""Local cloud: ``/os-hosts`` answers as nova 34's deprecated
HostController on the fake driver (tests/fixtures/compute/realcloud/
nova-34-proxies.json): list (enabled services, zone filter), show with the
resource rows, update and power actions, admin only, 404 from 2.43."""

import json
from pathlib import Path

import pytest

RECORDED = json.loads(
    (Path(__file__).parents[2] / "fixtures/compute/realcloud/nova-34-proxies.json").read_text()
)
REAL = RECORDED["exchanges"]
V = "2.42"


def _as_real(name, host="host1"):
    """The recorded answer with this cloud's host name."""
    text = json.dumps(REAL[name]["body"]).replace(RECORDED["ids"]["host"], host)
    return REAL[name]["status"], json.loads(text)


def test_list_is_the_enabled_services(shared_nova):
    listed = shared_nova.get("/os-hosts", user="admin", version=V)
    assert listed.status == 200
    hosts = listed.json()["hosts"]
    assert {"host_name": "controller", "service": "scheduler", "zone": "internal"} in hosts
    assert {"host_name": "controller", "service": "conductor", "zone": "internal"} in hosts
    assert {"host_name": "host1", "service": "compute", "zone": "nova"} in hosts
    real = REAL["hosts_list"]["body"]["hosts"]
    assert {h["service"] for h in real} <= {h["service"] for h in hosts}
    zoned = shared_nova.get("/os-hosts?zone=nova", user="admin", version=V).json()["hosts"]
    assert zoned and all(h == dict(h, service="compute", zone="nova") for h in zoned)
    none = shared_nova.get("/os-hosts?zone=nozone", user="admin", version=V)
    assert (none.status, none.json()) == _as_real("hosts_list_zone_none")


def test_a_disabled_service_is_not_listed(nova):
    listed = nova.get("/os-services?host=host1", user="admin", version="2.53")
    service = listed.json()["services"][0]
    body = {"status": "disabled", "disabled_reason": "x"}
    updated = nova.put("/os-services/%s" % service["id"], body, user="admin", version="2.53")
    assert updated.status == 200
    hosts = nova.get("/os-hosts", user="admin", version=V).json()["hosts"]
    assert "host1" not in [h["host_name"] for h in hosts]


def test_show_has_novas_resource_rows(nova):
    server_id = nova.create()
    flavor = nova.show(server_id, version="2.47")["flavor"]
    project = nova.project_id("demo")
    shown = nova.get("/os-hosts/host1", user="admin", version=V)
    assert shown.status == 200
    rows = [r["resource"] for r in shown.json()["host"]]
    assert [r["project"] for r in rows] == ["(total)", "(used_now)", "(used_max)", project]
    real = [r["resource"] for r in REAL["hosts_show"]["body"]["host"]]
    assert [sorted(r) for r in rows] == [sorted(r) for r in real[: len(rows)]]
    hypervisor = nova.get("/os-hypervisors/detail", user="admin", version="2.1").json()
    node = next(h for h in hypervisor["hypervisors"] if h["hypervisor_hostname"] == "host1")
    assert (rows[0]["cpu"], rows[0]["memory_mb"], rows[0]["disk_gb"]) == (
        node["vcpus"],
        node["memory_mb"],
        node["local_gb"],
    )
    assert (rows[1]["cpu"], rows[1]["memory_mb"], rows[1]["disk_gb"]) == (
        node["vcpus_used"],
        node["memory_mb_used"],
        node["local_gb_used"],
    )
    wanted = {"cpu": flavor["vcpus"], "memory_mb": flavor["ram"]}
    wanted["disk_gb"] = flavor["disk"] + flavor["ephemeral"]
    assert {k: rows[3][k] for k in wanted} == wanted == {k: rows[2][k] for k in wanted}


@pytest.mark.parametrize(
    "name, method, path, user, version",
    [
        ("hosts_show_unknown", "GET", "/os-hosts/nohost", "admin", V),
        ("hosts_list_member", "GET", "/os-hosts", "demo", V),
        ("hosts_list_2.43", "GET", "/os-hosts", "admin", "2.43"),
        ("hosts_update_enable", "PUT", "/os-hosts/host1", "admin", V),
        ("hosts_update_maintenance", "PUT", "/os-hosts/host1", "admin", V),
        ("hosts_update_both", "PUT", "/os-hosts/host1", "admin", V),
        ("hosts_update_reenable", "PUT", "/os-hosts/host1", "admin", V),
        ("hosts_update_empty", "PUT", "/os-hosts/host1", "admin", V),
        ("hosts_update_bad", "PUT", "/os-hosts/host1", "admin", V),
        ("hosts_update_extra", "PUT", "/os-hosts/host1", "admin", V),
        ("hosts_update_unknown", "PUT", "/os-hosts/nohost", "admin", V),
        ("hosts_startup", "GET", "/os-hosts/host1/startup", "admin", V),
        ("hosts_shutdown", "GET", "/os-hosts/host1/shutdown", "admin", V),
        ("hosts_reboot", "GET", "/os-hosts/host1/reboot", "admin", V),
        ("hosts_reboot_unknown", "GET", "/os-hosts/nohost/reboot", "admin", V),
    ],
)
def test_answers_as_nova(shared_nova, name, method, path, user, version):
    body = REAL[name]["request"]["body"]
    answer = shared_nova.call(method, path, json=body, user=user, version=version)
    assert (answer.status, answer.json()) == _as_real(name)


def test_the_controller_is_no_compute_host(shared_nova):
    answer = shared_nova.get("/os-hosts/controller/reboot", user="admin", version=V)
    assert (answer.status, answer.json()["itemNotFound"]["message"]) == (
        404,
        "Host 'controller' is not mapped to any cell",
    )


def test_updates_change_nothing(shared_nova):
    body = {"status": "disable", "maintenance_mode": "enable"}
    assert shared_nova.put("/os-hosts/host1", body, user="admin", version=V).status == 200
    services = shared_nova.get("/os-services?host=host1", user="admin").json()["services"]
    assert services[0]["status"] == "enabled"
