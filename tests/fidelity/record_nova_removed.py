"""Record the real Nova's answers of the APIs it removed (issue 23) into
``tests/fixtures/compute/realcloud/nova-34-removed.json``.

Nova 34 keeps the routes of the APIs it removed (nova/api/openstack/
compute/routes.py) and their controllers raise ``HTTPGone`` under
``@wsgi.removed``. Needs the rig of ``../shared/realcloud``. Run::

    .venv/bin/python -m tests.fidelity.record_nova_removed

It makes a project with a member user (``member``) and sends each request
as ``member`` or as the rig's admin, at the default microversion and at
the newest, then the malformed bodies and a request without a token; it
deletes everything it made. The fixture is ``{"source", "ids",
"exchanges"}``: ``exchanges`` maps a name to ``{"request": {"method",
"path", "body", "raw", "user", "version"}, "status", "body", "headers"}``
(``headers``: those of :data:`HEADERS` the answer has). Loopback only;
every request has a timeout.
"""

import json
import pathlib
import time
import uuid
from typing import Any

import requests
from keystoneauth1 import session as ks_session
from keystoneauth1.identity import v3

KEYSTONE = "http://127.0.0.1:5000/v3"
NOVA = "http://127.0.0.1:8774/v2.1"
TIMEOUT = 30
OUT = (
    pathlib.Path(__file__).resolve().parents[1] / "fixtures/compute/realcloud/nova-34-removed.json"
)
SOURCE = (
    "nova 34 (2026.2, from PyPI) with the fake virt driver; ../shared/realcloud/start.sh on"
    " 127.0.0.1 with default policies. Recorded %s by tests/fidelity/record_nova_removed.py"
    " (issue 23). 'member' = a user with the member role on a project made for the run;"
    " 'admin' = admin@admin; 'anonymous' = no token. Ids are this run's (see 'ids')."
)
HEADERS = ("Content-Type", "OpenStack-API-Version", "X-OpenStack-Nova-API-Version", "Vary")
NEWEST = "latest"

# (name, method, path, body): every route of a removed controller
# (routes.py's ROUTE_LIST; the action bodies name each @wsgi.action)
ROUTES: tuple[tuple[str, str, str, Any], ...] = (
    ("agents_list", "GET", "/os-agents", None),
    ("agents_create", "POST", "/os-agents", {"agent": {"hypervisor": "kvm"}}),
    ("agents_update", "PUT", "/os-agents/1", {"para": {"url": "x"}}),
    ("agents_delete", "DELETE", "/os-agents/1", None),
    ("cells_list", "GET", "/os-cells", None),
    ("cells_create", "POST", "/os-cells", {"cell": {"name": "c"}}),
    ("cells_capacities", "GET", "/os-cells/capacities", None),
    ("cells_detail", "GET", "/os-cells/detail", None),
    ("cells_info", "GET", "/os-cells/info", None),
    ("cells_sync", "POST", "/os-cells/sync_instances", {}),
    ("cells_show", "GET", "/os-cells/c1", None),
    ("cells_update", "PUT", "/os-cells/c1", {"cell": {"name": "c"}}),
    ("cells_delete", "DELETE", "/os-cells/c1", None),
    ("cells_show_capacities", "GET", "/os-cells/c1/capacities", None),
    ("certificates_create", "POST", "/os-certificates", None),
    ("certificates_show", "GET", "/os-certificates/root", None),
    ("cloudpipe_list", "GET", "/os-cloudpipe", None),
    ("cloudpipe_create", "POST", "/os-cloudpipe", {"cloudpipe": {}}),
    ("cloudpipe_update", "PUT", "/os-cloudpipe/configure-project", {"configure_project": {}}),
    ("fixed_ips_show", "GET", "/os-fixed-ips/10.0.0.1", None),
    ("fixed_ips_reserve", "POST", "/os-fixed-ips/10.0.0.1/action", {"reserve": None}),
    ("fixed_ips_unreserve", "POST", "/os-fixed-ips/10.0.0.1/action", {"unreserve": None}),
    ("fixed_ips_unknown_action", "POST", "/os-fixed-ips/10.0.0.1/action", {"x": None}),
    ("fip_dns_list", "GET", "/os-floating-ip-dns", None),
    ("fip_dns_update", "PUT", "/os-floating-ip-dns/example.org", {"domain_entry": {}}),
    ("fip_dns_delete", "DELETE", "/os-floating-ip-dns/example.org", None),
    ("fip_dns_entry_show", "GET", "/os-floating-ip-dns/example.org/entries/a", None),
    (
        "fip_dns_entry_update",
        "PUT",
        "/os-floating-ip-dns/example.org/entries/a",
        {"dns_entry": {}},
    ),
    ("fip_dns_entry_delete", "DELETE", "/os-floating-ip-dns/example.org/entries/a", None),
    ("fip_bulk_list", "GET", "/os-floating-ips-bulk", None),
    ("fip_bulk_create", "POST", "/os-floating-ips-bulk", {"floating_ips_bulk_create": {}}),
    ("fip_bulk_show", "GET", "/os-floating-ips-bulk/host1", None),
    ("fip_bulk_update", "PUT", "/os-floating-ips-bulk/delete", {"ip_range": "10.0.0.0/30"}),
    ("fping_list", "GET", "/os-fping", None),
    ("fping_show", "GET", "/os-fping/{server_id}", None),
    ("networks_create", "POST", "/os-networks", {"network": {"label": "x"}}),
    ("networks_add", "POST", "/os-networks/add", {"id": None}),
    ("networks_delete", "DELETE", "/os-networks/{network_id}", None),
    ("networks_disassociate", "POST", "/os-networks/{network_id}/action", {"disassociate": None}),
    (
        "networks_disassociate_host",
        "POST",
        "/os-networks/{network_id}/action",
        {"disassociate_host": None},
    ),
    (
        "networks_disassociate_project",
        "POST",
        "/os-networks/{network_id}/action",
        {"disassociate_project": None},
    ),
    (
        "networks_associate_host",
        "POST",
        "/os-networks/{network_id}/action",
        {"associate_host": "h"},
    ),
    ("networks_unknown_action", "POST", "/os-networks/{network_id}/action", {"x": None}),
    ("sgdr_list", "GET", "/os-security-group-default-rules", None),
    (
        "sgdr_create",
        "POST",
        "/os-security-group-default-rules",
        {"security_group_default_rule": {}},
    ),
    ("sgdr_show", "GET", "/os-security-group-default-rules/1", None),
    ("sgdr_delete", "DELETE", "/os-security-group-default-rules/1", None),
    ("consoles_list", "GET", "/servers/{server_id}/consoles", None),
    ("consoles_create", "POST", "/servers/{server_id}/consoles", {}),
    ("consoles_show", "GET", "/servers/{server_id}/consoles/1", None),
    ("consoles_delete", "DELETE", "/servers/{server_id}/consoles/1", None),
    ("vifs_list", "GET", "/servers/{server_id}/os-virtual-interfaces", None),
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
        self.ids: dict[str, Any] = {
            "tag": self.tag,
            "server_id": str(uuid.uuid4()),
            "network_id": str(uuid.uuid4()),
        }
        self.exchanges: dict[str, Any] = {}

    def admin(self, method, url, body=None):
        resp = self.sessions["admin"].request(url, method, json=body, raise_exc=False)
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

    def call(self, name, method, path, body=None, user="member", version=None, raw=None):
        """Send ``path`` (``{placeholders}`` from ids) with ``body`` as JSON
        or ``raw`` text as ``application/json``, and record it."""
        headers = {"Accept": "application/json"}
        if version is not None:
            headers["OpenStack-API-Version"] = "compute " + version
        url = NOVA + path.format(**self.ids)
        data = None
        if raw is not None:
            headers["Content-Type"] = "application/json"
            data = raw
        elif body is not None:
            headers["Content-Type"] = "application/json"
            data = json.dumps(body)
        if user == "anonymous":
            resp = requests.request(method, url, data=data, headers=headers, timeout=TIMEOUT)
        else:
            resp = self.sessions[user].request(
                url, method, data=data, headers=headers, raise_exc=False, timeout=TIMEOUT
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
                "raw": raw,
                "user": user,
                "version": version,
            },
            "status": resp.status_code,
            "body": answer,
            "headers": {h: resp.headers[h] for h in HEADERS if h in resp.headers},
        }
        print("%-40s %s %s -> %d" % (name, method, path, resp.status_code), flush=True)
        return resp.status_code, answer

    def cleanup(self) -> list[str]:
        left = []
        for user, url in reversed(self.created):
            resp = self.sessions[user].request(url, "DELETE", raise_exc=False)
            if resp.status_code not in (202, 204, 404):
                left.append("%s %d" % (url, resp.status_code))
        return left


def removed(rec: Recorder) -> None:
    """Every route, as member and admin, at 2.1 and at the newest."""
    for name, method, path, body in ROUTES:
        for user in ("member", "admin"):
            rec.call("%s_%s" % (name, user), method, path, body, user=user)
        rec.call(name + "_newest", method, path, body, user="member", version=NEWEST)


def refusals(rec: Recorder) -> None:
    """What comes before the 410: the token, the URL's project, the body's
    JSON, other methods of the same paths."""
    rec.call("agents_list_anonymous", "GET", "/os-agents", user="anonymous")
    rec.call("agents_create_anonymous", "POST", "/os-agents", {}, user="anonymous")
    rec.call("agents_list_project", "GET", "/{member_project}/os-agents")
    rec.call("agents_list_other_project", "GET", "/%s/os-agents" % uuid.uuid4().hex)
    for name, method, path in (
        ("agents_create", "POST", "/os-agents"),
        ("agents_update", "PUT", "/os-agents/1"),
        ("cells_create", "POST", "/os-cells"),
        ("cells_sync", "POST", "/os-cells/sync_instances"),
        ("certificates_create", "POST", "/os-certificates"),
        ("fixed_ips_action", "POST", "/os-fixed-ips/10.0.0.1/action"),
        ("networks_create", "POST", "/os-networks"),
        ("networks_action", "POST", "/os-networks/{network_id}/action"),
        ("sgdr_create", "POST", "/os-security-group-default-rules"),
        ("consoles_create", "POST", "/servers/{server_id}/consoles"),
        ("tenant_networks_create", "POST", "/os-tenant-networks"),
    ):
        rec.call(name + "_malformed", method, path, raw="{not json")
        rec.call(name + "_list_body", method, path, [1])
    for name, body in (
        ("certificates_create_empty", None),
        ("agents_create_empty", None),
        ("fixed_ips_action_empty", None),
        ("networks_action_empty", None),
        ("networks_action_two", {"disassociate": None, "associate_host": "h"}),
    ):
        method, path = {
            "certificates": ("POST", "/os-certificates"),
            "agents": ("POST", "/os-agents"),
            "fixed": ("POST", "/os-fixed-ips/10.0.0.1/action"),
            "networks": ("POST", "/os-networks/{network_id}/action"),
        }[name.split("_")[0]]
        rec.call(name, method, path, body)
    rec.call("agents_delete_malformed", "DELETE", "/os-agents/1", raw="{not json")
    rec.call("agents_list_malformed", "GET", "/os-agents", raw="{not json")
    rec.call("agents_list_query", "GET", "/os-agents?hypervisor=kvm&x=1")
    for name, method, path in (
        ("agents_show", "GET", "/os-agents/1"),
        ("agents_put_collection", "PUT", "/os-agents"),
        ("cells_post_id", "POST", "/os-cells/c1"),
        ("certificates_list", "GET", "/os-certificates"),
        ("fping_delete", "DELETE", "/os-fping/1"),
        ("networks_put", "PUT", "/os-networks/{network_id}"),
        ("vifs_post", "POST", "/servers/{server_id}/os-virtual-interfaces"),
        ("vifs_show", "GET", "/servers/{server_id}/os-virtual-interfaces/1"),
        ("agents_trailing_slash", "GET", "/os-agents/"),
    ):
        rec.call(name, method, path)


def main() -> int:
    rec = Recorder()
    try:
        rec.make_member()
        removed(rec)
        refusals(rec)
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
