"""Record the real Neutron's answers into ``tests/fixtures/network/realcloud/``.

Needs the rig of ``../shared/realcloud`` with Neutron: Keystone on
127.0.0.1:5000, Neutron on :9696. Run::

    .venv/bin/python -m tests.fidelity.record_neutron [case ...]

It makes a project and a member user for the run, sends each case's
requests as that member (or as the rig's admin where an exchange says
``caller: admin``), writes one JSON file per case and deletes everything it
made (newest first). Loopback only; every request has a timeout.

A fixture file is ``{"source", "ids", "exchanges"}``: ``exchanges`` maps a
name to ``{"request": {"method", "path", "query", "body", "caller"},
"status", "body"}``. ``path`` is relative to ``/v2.0`` and written with
``{placeholders}``; ``ids`` gives the values they had in this run, so ids,
names, MACs and timestamps in the bodies are values to match by shape.
"""

import json
import pathlib
import sys
import tempfile
import time
import uuid
from typing import Any

from keystoneauth1 import session as ks_session
from keystoneauth1.identity import v3

from tests.fidelity import record_neutron_cases as cases
from tests.fidelity import recording

KEYSTONE = "http://127.0.0.1:5000/v3"
NEUTRON = "http://127.0.0.1:9696/v2.0"
TIMEOUT = 30
OUT = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "network" / "realcloud"
SOURCE = (
    "neutron 29.0.0 (neutron-lib 5.0.1, 2026.2, from PyPI): ML2 (flat/vlan/vxlan), the router"
    " service plugin, port security, no agents, ../shared/realcloud/start.sh on 127.0.0.1 with"
    " default policies. Recorded %s by tests/fidelity/record_neutron.py (issue 20). Callers:"
    " 'member' = a user with the member role on a project made for the run; 'admin' ="
    " admin@admin. Ids, names, MACs and timestamps are this run's (see 'ids')."
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
    """Sends requests to the real Neutron and keeps what it answered."""

    def __init__(self):
        self.tag = "fid" + uuid.uuid4().hex[:6]
        self.sessions = {"admin": _login("admin", "secret", "admin")}
        self.created = []  # (caller, url path), deleted newest first
        self.ids = {"admin_project": self.sessions["admin"].get_project_id()}
        self._make_member()
        self.case: dict[str, Any] = {}
        self.case_name = ""

    def _admin(self, method, url, body=None):
        resp = self.sessions["admin"].request(url, method, json=body, raise_exc=False)
        assert resp.status_code < 300, (method, url, resp.status_code, resp.text)
        return resp.json() if resp.text else None

    def _make_member(self):
        password = uuid.uuid4().hex
        project = self._admin("POST", KEYSTONE + "/projects", {"project": {"name": self.tag}})
        self.created.append(("keystone", KEYSTONE + "/projects/" + project["project"]["id"]))
        user = self._admin(
            "POST",
            KEYSTONE + "/users",
            {
                "user": {
                    "name": self.tag,
                    "password": password,
                    "default_project_id": project["project"]["id"],
                }
            },
        )
        self.created.append(("keystone", KEYSTONE + "/users/" + user["user"]["id"]))
        role = self._admin("GET", KEYSTONE + "/roles?name=member")["roles"][0]["id"]
        self._admin(
            "PUT",
            KEYSTONE
            + "/projects/%s/users/%s/roles/%s"
            % (project["project"]["id"], user["user"]["id"], role),
        )
        self.sessions["member"] = _login(self.tag, password, self.tag)
        self.ids["member_project"] = project["project"]["id"]
        self.ids["tag"] = self.tag

    def begin(self, case):
        self.case = {
            "source": SOURCE % time.strftime("%Y-%m-%d"),
            "ids": dict(self.ids),
            "exchanges": {},
        }
        self.case_name = case

    def raw(self, method, path, body=None, caller="member", query=""):
        url = NEUTRON + path + ("?" + query if query else "")
        return self.sessions[caller].request(
            url,
            method,
            json=body,
            headers={"Accept": "application/json"},
            raise_exc=False,
            timeout=TIMEOUT,
        )

    def call(self, name, method, path, body=None, caller="member", query="", note=None, **ids):
        """Send ``path`` (``{placeholders}`` from the case's ids and ``ids``;
        the body's strings too) and record the exchange as ``name``.
        Returns (status, body); a 201 is remembered for cleanup."""
        self.case["ids"].update(ids)
        sent = fill(body, self.case["ids"])
        resp = self.raw(method, path.format(**self.case["ids"]), sent, caller, query)
        try:
            answer = resp.json() if resp.text else None
        except ValueError:
            answer = resp.text
        exchange = {
            "request": {
                "method": method,
                "path": path,
                "query": query,
                "body": body,
                "caller": caller,
            },
            "status": resp.status_code,
            "body": answer,
        }
        if note:
            exchange["note"] = note
        assert name not in self.case["exchanges"], name
        self.case["exchanges"][name] = exchange
        print("%-45s %s %s -> %d" % (name, method, path, resp.status_code), flush=True)
        if method == "POST" and resp.status_code == 201 and isinstance(answer, dict):
            self._remember(path, caller, answer)
        return resp.status_code, answer

    def _remember(self, path, caller, answer):
        ((key, value),) = answer.items()
        items = value if isinstance(value, list) else [value]
        if "/" in path.strip("/") or not isinstance(items[0], dict) or "id" not in items[0]:
            return
        for item in items:
            self.created.append((caller, "%s/%s" % (path, item["id"])))

    def id_of(self, name, answer):
        """Keep ``answer``'s only resource's id as ``{name}``; return it."""
        ((_, value),) = answer.items()
        self.case["ids"][name] = value["id"]
        return value["id"]

    def save(self, complete=True):
        """Write the case; an incomplete one goes to the temporary directory."""
        folder = OUT if complete else pathlib.Path(tempfile.gettempdir())
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / ("neutron-29-%s.json" % self.case_name)
        target.write_text(json.dumps(self.case, indent=1) + "\n")
        print("wrote", target)

    def undo(self, path):
        """Forget ``path`` (the case deleted it itself)."""
        self.created = [c for c in self.created if c[1] != path]

    def cleanup(self):
        failures = []
        for _, path in reversed(self.created):
            if path.startswith("http"):
                resp = self.sessions["admin"].request(path, "DELETE", raise_exc=False)
            else:
                if path.startswith("/routers/"):
                    self._detach(path)
                resp = self.raw("DELETE", path, caller="admin")
            if resp.status_code not in (204, 404):
                failures.append("%s: %d %s" % (path, resp.status_code, resp.text[:200]))
        self.created = []
        return failures

    def _detach(self, path):
        """Remove a router's interfaces and gateway before deleting it."""
        ports = self.raw("GET", "/ports", caller="admin", query="device_id=" + path[9:])
        for port in ports.json().get("ports", []) if ports.status_code == 200 else []:
            if port["device_owner"] == "network:router_interface":
                self.raw(
                    "PUT", path + "/remove_router_interface", {"port_id": port["id"]}, "admin"
                )
        self.raw("PUT", path, {"router": {"external_gateway_info": {}}}, "admin")


def fill(body, ids):
    """``body`` with each string that is one ``{placeholder}`` replaced by
    its id."""
    if isinstance(body, dict):
        return {k: fill(v, ids) for k, v in body.items()}
    if isinstance(body, list):
        return [fill(v, ids) for v in body]
    if isinstance(body, str) and body[:1] == "{" and body[-1:] == "}" and body[1:-1] in ids:
        return ids[body[1:-1]]
    return body


def main(argv):
    return recording.run(Recorder(), cases.CASES, argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
