"""Record the real Nova's answers of the old proxy and service routes
(issue 23) into ``tests/fixtures/compute/realcloud/nova-34-proxies.json``.

Needs the rig of ``../shared/realcloud`` (Keystone, Nova with the fake virt
driver, Glance, Neutron, Cinder; its consoles disabled). Run::

    .venv/bin/python -m tests.fidelity.record_compute_proxies

It makes a project with a member user (``member``), a flavor, a network
of that project, a server and two images for the run, sends each request
as ``member`` or as the rig's admin and deletes everything it made. The
fixture is ``{"source", "ids", "exchanges"}``: ``exchanges`` maps a name
to ``{"request": {"method", "path", "body", "user", "version"}, "status",
"body"}``, ``path`` written with ``{placeholders}`` whose values of this
run are in ``ids``. Loopback only; every request has a timeout.
"""

import json
import pathlib
import time
import uuid
from typing import Any
from urllib.parse import quote

from keystoneauth1 import session as ks_session
from keystoneauth1.identity import v3

KEYSTONE = "http://127.0.0.1:5000/v3"
NOVA = "http://127.0.0.1:8774/v2.1"
GLANCE = "http://127.0.0.1:9292/v2"
NEUTRON = "http://127.0.0.1:9696/v2.0"
TIMEOUT = 30
WAIT = 120
OUT = (
    pathlib.Path(__file__).resolve().parents[1] / "fixtures/compute/realcloud/nova-34-proxies.json"
)
SOURCE = (
    "nova 34 (2026.2, from PyPI) with the fake virt driver, glance 33, neutron 29, cinder 29;"
    " ../shared/realcloud/start.sh on 127.0.0.1 with default policies and [vnc], [spice],"
    " [serial_console] enabled = false. Recorded %s by tests/fidelity/record_compute_proxies.py"
    " (issue 23). 'member' = a user with the member role on a project made for the run;"
    " 'admin' = admin@admin. Ids and timestamps are this run's (see 'ids')."
)


def _login(username, password, project):
    auth = v3.Password(
        auth_url=KEYSTONE,
        username=username,
        password=password,
        project_name=project,
        user_domain_name="Default",
        project_domain_name="Default",
    )
    return ks_session.Session(auth=auth, timeout=TIMEOUT)


class Recorder:
    """Sends requests to the real Nova and keeps what it answered."""

    def __init__(self) -> None:
        self.tag = "fid" + uuid.uuid4().hex[:6]
        self.sessions = {"admin": _login("admin", "secret", "admin")}
        self.created: list[tuple[str, str]] = []  # (user, url), deleted newest first
        self.ids: dict[str, Any] = {"tag": self.tag}
        self.exchanges: dict[str, Any] = {}

    def admin(self, method, url, body=None, user="admin", version=None):
        headers = {"OpenStack-API-Version": "compute " + version} if version else {}
        resp = self.sessions[user].request(
            url, method, json=body, headers=headers, raise_exc=False
        )
        assert resp.status_code < 300, (method, url, resp.status_code, resp.text)
        return resp.json() if resp.text else None

    def make_member(self) -> None:
        name = self.tag + "-member"
        password = uuid.uuid4().hex
        project = self.admin("POST", KEYSTONE + "/projects", {"project": {"name": name}})
        project_id = project["project"]["id"]
        self.created.append(("admin", KEYSTONE + "/projects/" + project_id))
        user = self.admin(
            "POST",
            KEYSTONE + "/users",
            {"user": {"name": name, "password": password, "default_project_id": project_id}},
        )
        self.created.append(("admin", KEYSTONE + "/users/" + user["user"]["id"]))
        role = self.admin("GET", KEYSTONE + "/roles?name=member")["roles"][0]["id"]
        self.admin(
            "PUT",
            KEYSTONE + "/projects/%s/users/%s/roles/%s" % (project_id, user["user"]["id"], role),
        )
        self.sessions["member"] = _login(name, password, name)
        self.ids["member_project"] = project_id

    def call(self, name, method, path, body=None, user="member", version="2.35"):
        """Send ``path`` (``{placeholders}`` from ids) and record it."""
        headers = {"Accept": "application/json"}
        if version is not None:
            headers["OpenStack-API-Version"] = "compute " + version
        resp = self.sessions[user].request(
            NOVA + path.format(**self.ids),
            method,
            json=body,
            headers=headers,
            raise_exc=False,
            timeout=TIMEOUT,
        )
        try:
            answer = resp.json() if resp.text else None
        except ValueError:
            answer = resp.text
        assert name not in self.exchanges, name
        self.exchanges[name] = {
            "request": {
                "method": method,
                "path": path,
                "body": body,
                "user": user,
                "version": version,
            },
            "status": resp.status_code,
            "body": answer,
        }
        print("%-40s %s %s -> %d" % (name, method, path, resp.status_code), flush=True)
        return resp.status_code, answer

    def wait_server(self, server_id, statuses):
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            server = self.admin("GET", NOVA + "/servers/" + server_id)["server"]
            if server["status"] in statuses:
                return server
            time.sleep(1)
        raise AssertionError("server %s never reached %s" % (server_id, statuses))

    def cleanup(self) -> list[str]:
        left = []
        for user, url in reversed(self.created):
            resp = self.sessions[user].request(url, "DELETE", raise_exc=False)
            if resp.status_code not in (202, 204, 404):
                left.append("%s %d" % (url, resp.status_code))
            if "/servers/" in url:
                deadline = time.monotonic() + WAIT
                while time.monotonic() < deadline:
                    got = self.sessions["admin"].request(url, "GET", raise_exc=False)
                    if got.status_code == 404:
                        break
                    time.sleep(1)
        return left


def setup(rec: Recorder) -> None:
    """The flavor, network, server and images of the run."""
    rec.make_member()
    flavor = rec.admin(
        "POST",
        NOVA + "/flavors",
        {"flavor": {"name": rec.tag, "ram": 64, "vcpus": 1, "disk": 1}},
    )["flavor"]
    rec.created.append(("admin", NOVA + "/flavors/" + flavor["id"]))
    rec.ids["flavor_id"] = flavor["id"]
    net = rec.admin(
        "POST", NEUTRON + "/networks", {"network": {"name": rec.tag + "-net"}}, user="member"
    )["network"]
    rec.created.append(("member", NEUTRON + "/networks/" + net["id"]))
    rec.ids["network_id"] = net["id"]
    subnet = rec.admin(
        "POST",
        NEUTRON + "/subnets",
        {"subnet": {"network_id": net["id"], "ip_version": 4, "cidr": "10.77.0.0/24"}},
        user="member",
    )["subnet"]
    rec.created.append(("member", NEUTRON + "/subnets/" + subnet["id"]))
    image = rec.admin("GET", GLANCE + "/images?name=cirros")["images"][0]
    rec.ids["public_image_id"] = image["id"]
    private = rec.admin(
        "POST",
        GLANCE + "/images",
        {
            "name": rec.tag + "-admin-private",
            "visibility": "private",
            "disk_format": "raw",
            "container_format": "bare",
        },
    )
    rec.created.append(("admin", GLANCE + "/images/" + private["id"]))
    rec.ids["admin_image_id"] = private["id"]
    mine = rec.admin(
        "POST",
        GLANCE + "/images",
        {
            "name": rec.tag + "-mine",
            "disk_format": "raw",
            "container_format": "bare",
            "min_ram": 128,
            "min_disk": 1,
            "k1": "v1",
        },
        user="member",
    )
    rec.created.append(("member", GLANCE + "/images/" + mine["id"]))
    rec.ids["member_image_id"] = mine["id"]
    server = rec.admin(
        "POST",
        NOVA + "/servers",
        {
            "server": {
                "name": rec.tag + "-vm",
                "imageRef": image["id"],
                "flavorRef": flavor["id"],
                "networks": [{"uuid": net["id"]}],
            }
        },
        user="member",
        version="2.37",
    )["server"]
    rec.created.append(("member", NOVA + "/servers/" + server["id"]))
    rec.ids["server_id"] = server["id"]
    rec.wait_server(server["id"], ("ACTIVE",))
    rec.ids["host"] = rec.admin("GET", NOVA + "/servers/" + server["id"])["server"][
        "OS-EXT-SRV-ATTR:host"
    ]


def consoles(rec: Recorder) -> None:
    action = "/servers/{server_id}/action"
    rec.call(
        "legacy_vnc_novnc", "POST", action, {"os-getVNCConsole": {"type": "novnc"}}, version="2.5"
    )
    rec.call(
        "legacy_vnc_xvpvnc",
        "POST",
        action,
        {"os-getVNCConsole": {"type": "xvpvnc"}},
        version="2.5",
    )
    rec.call(
        "legacy_vnc_bad_type", "POST", action, {"os-getVNCConsole": {"type": "x"}}, version="2.5"
    )
    rec.call(
        "legacy_spice",
        "POST",
        action,
        {"os-getSPICEConsole": {"type": "spice-html5"}},
        version="2.5",
    )
    rec.call(
        "legacy_serial", "POST", action, {"os-getSerialConsole": {"type": "serial"}}, version="2.5"
    )
    rec.call(
        "legacy_rdp", "POST", action, {"os-getRDPConsole": {"type": "rdp-html5"}}, version="2.5"
    )
    rec.call(
        "legacy_vnc_2.6", "POST", action, {"os-getVNCConsole": {"type": "novnc"}}, version="2.6"
    )


def hosts(rec: Recorder) -> None:
    rec.call("hosts_list", "GET", "/os-hosts", user="admin", version="2.42")
    rec.call("hosts_list_zone", "GET", "/os-hosts?zone=nova", user="admin", version="2.42")
    rec.call("hosts_list_zone_none", "GET", "/os-hosts?zone=nozone", user="admin", version="2.42")
    rec.call("hosts_show", "GET", "/os-hosts/{host}", user="admin", version="2.42")
    rec.call("hosts_show_unknown", "GET", "/os-hosts/nohost", user="admin", version="2.42")
    rec.call("hosts_list_member", "GET", "/os-hosts", version="2.42")
    rec.call("hosts_list_2.43", "GET", "/os-hosts", user="admin", version="2.43")
    for name, body in (
        ("hosts_update_enable", {"status": "enable"}),
        ("hosts_update_maintenance", {"maintenance_mode": "enable"}),
        ("hosts_update_both", {"status": "Disable", "maintenance_mode": "disable"}),
        ("hosts_update_reenable", {"status": "ENABLE"}),
        ("hosts_update_empty", {}),
        ("hosts_update_bad", {"status": "on"}),
        ("hosts_update_extra", {"status": "enable", "x": 1}),
    ):
        rec.call(name, "PUT", "/os-hosts/{host}", body, user="admin", version="2.42")
    rec.call(
        "hosts_update_unknown",
        "PUT",
        "/os-hosts/nohost",
        {"status": "enable"},
        user="admin",
        version="2.42",
    )
    for action in ("startup", "shutdown", "reboot"):
        rec.call(
            "hosts_" + action, "GET", "/os-hosts/{host}/" + action, user="admin", version="2.42"
        )
    rec.call(
        "hosts_reboot_unknown", "GET", "/os-hosts/nohost/reboot", user="admin", version="2.42"
    )


def tenant_networks(rec: Recorder) -> None:
    rec.call("tenant_networks_list", "GET", "/os-tenant-networks")
    rec.call("tenant_networks_show", "GET", "/os-tenant-networks/{network_id}")
    rec.call("tenant_networks_show_unknown", "GET", "/os-tenant-networks/%s" % uuid.uuid4())
    rec.call(
        "tenant_networks_create",
        "POST",
        "/os-tenant-networks",
        {"network": {"label": "x", "cidr": "10.1.0.0/24"}},
    )
    rec.call("tenant_networks_delete", "DELETE", "/os-tenant-networks/{network_id}")
    rec.call("tenant_networks_list_2.36", "GET", "/os-tenant-networks", version="2.36")
    rec.call(
        "tenant_networks_create_2.36",
        "POST",
        "/os-tenant-networks",
        {"network": {"label": "x", "cidr": "10.1.0.0/24"}},
        version="2.36",
    )
    rec.call(
        "tenant_networks_delete_2.36", "DELETE", "/os-tenant-networks/{network_id}", version="2.36"
    )


def assisted_snapshots(rec: Recorder) -> None:
    info = {"snapshot_id": str(uuid.uuid4()), "type": "qcow2", "new_file": "new.qcow2"}
    volume = str(uuid.uuid4())
    path = "/os-assisted-volume-snapshots"
    rec.call(
        "avs_create_not_attached",
        "POST",
        path,
        {"snapshot": {"volume_id": volume, "create_info": info}},
        user="admin",
    )
    rec.call(
        "avs_create_bad_type",
        "POST",
        path,
        {"snapshot": {"volume_id": volume, "create_info": dict(info, type="raw")}},
        user="admin",
    )
    rec.call("avs_create_missing", "POST", path, {"snapshot": {"volume_id": volume}}, user="admin")
    rec.call(
        "avs_create_member", "POST", path, {"snapshot": {"volume_id": volume, "create_info": info}}
    )
    delete_info = quote(json.dumps({"volume_id": volume}))
    rec.call(
        "avs_delete_not_attached",
        "DELETE",
        path + "/%s?delete_info=%s" % (uuid.uuid4(), delete_info),
        user="admin",
    )
    rec.call("avs_delete_no_info", "DELETE", path + "/%s" % uuid.uuid4(), user="admin")
    rec.call(
        "avs_delete_bad_json", "DELETE", path + "/%s?delete_info=x" % uuid.uuid4(), user="admin"
    )
    rec.call(
        "avs_delete_no_volume",
        "DELETE",
        path + "/%s?delete_info=%%7B%%7D" % uuid.uuid4(),
        user="admin",
    )
    rec.call(
        "avs_delete_extra_2.75",
        "DELETE",
        path + "/%s?delete_info=%s&x=1" % (uuid.uuid4(), delete_info),
        user="admin",
        version="2.75",
    )
    rec.call(
        "avs_delete_member", "DELETE", path + "/%s?delete_info=%s" % (uuid.uuid4(), delete_info)
    )


def external_events(rec: Recorder) -> None:
    path = "/os-server-external-events"
    server = "{server_id}".format(**rec.ids)
    unknown = str(uuid.uuid4())

    def ev(name, uuid_=server, **more):
        return dict({"name": name, "server_uuid": uuid_}, **more)

    rec.call(
        "events_network_changed",
        "POST",
        path,
        {"events": [ev("network-changed", tag="port1")]},
        user="admin",
        version="2.50",
    )
    rec.call(
        "events_plugged_status",
        "POST",
        path,
        {"events": [ev("network-vif-plugged", status="failed")]},
        user="admin",
        version="2.50",
    )
    rec.call(
        "events_unknown_server",
        "POST",
        path,
        {"events": [ev("network-changed", unknown)]},
        user="admin",
        version="2.50",
    )
    rec.call(
        "events_mixed",
        "POST",
        path,
        {"events": [ev("network-vif-unplugged"), ev("network-vif-deleted", unknown)]},
        user="admin",
        version="2.50",
    )
    rec.call(
        "events_volume_extended_2.50",
        "POST",
        path,
        {"events": [ev("volume-extended", tag=str(uuid.uuid4()))]},
        user="admin",
        version="2.50",
    )
    rec.call(
        "events_volume_extended_no_tag",
        "POST",
        path,
        {"events": [ev("volume-extended")]},
        user="admin",
        version="2.51",
    )
    rec.call(
        "events_volume_extended",
        "POST",
        path,
        {"events": [ev("volume-extended", tag=str(uuid.uuid4()))]},
        user="admin",
        version="2.51",
    )
    rec.call(
        "events_power_update_2.75",
        "POST",
        path,
        {"events": [ev("power-update", tag="POWER_ON")]},
        user="admin",
        version="2.75",
    )
    rec.call(
        "events_power_update",
        "POST",
        path,
        {"events": [ev("power-update", tag="POWER_ON")]},
        user="admin",
        version="2.76",
    )
    rec.call(
        "events_accelerator_2.81",
        "POST",
        path,
        {"events": [ev("accelerator-request-bound", tag="x")]},
        user="admin",
        version="2.81",
    )
    rec.call(
        "events_reimaged_2.92",
        "POST",
        path,
        {"events": [ev("volume-reimaged", tag="x")]},
        user="admin",
        version="2.92",
    )
    rec.call(
        "events_bad_status",
        "POST",
        path,
        {"events": [ev("network-changed", status="done")]},
        user="admin",
        version="2.50",
    )
    rec.call("events_empty", "POST", path, {"events": []}, user="admin", version="2.50")
    rec.call(
        "events_bad_uuid",
        "POST",
        path,
        {"events": [ev("network-changed", "nope")]},
        user="admin",
        version="2.50",
    )
    rec.call(
        "events_extra_key",
        "POST",
        path,
        {"events": [ev("network-changed", x=1)]},
        user="admin",
        version="2.50",
    )
    rec.call("events_member", "POST", path, {"events": [ev("network-changed")]}, version="2.50")
    rec.call("events_actions", "GET", "/servers/{server_id}/os-instance-actions", version="2.51")


def images(rec: Recorder) -> None:
    rec.call("images_list", "GET", "/images")
    rec.call("images_detail", "GET", "/images/detail")
    rec.call("images_detail_name", "GET", "/images/detail?name=cirros")
    rec.call("images_detail_status", "GET", "/images/detail?status=QUEUED")
    rec.call("images_detail_minram", "GET", "/images/detail?minRam=100")
    rec.call("images_detail_limit", "GET", "/images/detail?limit=1")
    rec.call("images_detail_bad_marker", "GET", "/images/detail?marker=%s" % uuid.uuid4())
    rec.call("images_detail_type", "GET", "/images/detail?type=snapshot")
    rec.call("images_show_public", "GET", "/images/{public_image_id}")
    rec.call("images_show_mine", "GET", "/images/{member_image_id}")
    rec.call("images_show_admin_private", "GET", "/images/{admin_image_id}")
    rec.call("images_show_unknown", "GET", "/images/%s" % uuid.uuid4())
    rec.call("images_list_2.36", "GET", "/images", version="2.36")
    rec.call("images_show_2.36", "GET", "/images/{public_image_id}", version="2.36")
    base = "/images/{member_image_id}/metadata"
    rec.call("meta_list", "GET", base)
    rec.call("meta_show", "GET", base + "/k1")
    rec.call("meta_show_missing", "GET", base + "/nokey")
    rec.call("meta_update_key", "PUT", base + "/k2", {"meta": {"k2": "v2"}})
    rec.call("meta_update_key_mismatch", "PUT", base + "/k2", {"meta": {"k3": "v2"}})
    rec.call("meta_update_key_two", "PUT", base + "/k2", {"meta": {"k2": "v2", "k3": "v"}})
    rec.call("meta_create", "POST", base, {"metadata": {"k4": "v4"}})
    rec.call("meta_replace", "PUT", base, {"metadata": {"k5": "v5"}})
    rec.call("meta_delete", "DELETE", base + "/k5")
    rec.call("meta_delete_missing", "DELETE", base + "/k5")
    rec.call(
        "meta_public_update", "PUT", "/images/{public_image_id}/metadata/k", {"meta": {"k": "v"}}
    )
    rec.call("meta_admin_private", "GET", "/images/{admin_image_id}/metadata")
    rec.call("meta_2.36", "GET", base, version="2.36")
    rec.call("images_delete_public", "DELETE", "/images/{public_image_id}")
    rec.call("images_delete_admin_private", "DELETE", "/images/{admin_image_id}")
    rec.call("images_delete_mine", "DELETE", "/images/{member_image_id}")
    rec.call("images_show_deleted", "GET", "/images/{member_image_id}")
    status, _ = rec.call(
        "snapshot_create",
        "POST",
        "/servers/{server_id}/action",
        {"createImage": {"name": rec.tag + "-snap"}},
    )
    snaps = rec.admin("GET", GLANCE + "/images?name=%s-snap" % rec.tag)["images"]
    for snap in snaps:
        rec.created.append(("admin", GLANCE + "/images/" + snap["id"]))
        rec.ids["snapshot_id"] = snap["id"]
    if snaps:
        rec.call("images_show_snapshot", "GET", "/images/{snapshot_id}")
        rec.call("images_detail_server", "GET", "/images/detail?server={server_id}")


def main() -> int:
    rec = Recorder()
    try:
        setup(rec)
        for case in (
            consoles,
            hosts,
            tenant_networks,
            assisted_snapshots,
            external_events,
            images,
        ):
            case(rec)
    finally:
        left = rec.cleanup()
        if rec.exchanges:
            OUT.write_text(
                json.dumps(
                    {
                        "source": SOURCE % time.strftime("%Y-%m-%d"),
                        "ids": rec.ids,
                        "exchanges": rec.exchanges,
                    },
                    indent=1,
                    sort_keys=True,
                )
                + "\n"
            )
        if left:
            print("LEFT IN THE REAL CLOUD:", *left, sep="\n  ")
    return 1 if left else 0


if __name__ == "__main__":
    raise SystemExit(main())
