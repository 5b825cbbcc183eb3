"""Record the real Heat's answers into ``tests/fixtures/heat/realcloud/``.

Needs the rig of ``../shared/realcloud`` (``ONLY="keystone nova heat"
start.sh``): Keystone on 127.0.0.1:5000, Nova on :8774, Heat on :8004. Run::

    .venv/bin/python -m tests.fidelity.record_heat [case ...]

It makes a project and a member user for the run (as the fidelity suite
does), sends each case's requests as that member (or as the rig's admin
where an exchange says ``caller: admin``), writes one JSON file per case and
deletes every stack, flavor, user and project it made. Loopback only; every
request has a timeout and every wait a deadline.

A fixture file is ``{"source", "ids", "exchanges"}``: ``exchanges`` maps a
name to ``{"request": {"method", "path", "query", "body", "caller"},
"status", "headers", "body"}``. ``path`` is relative to
``/v1/{project_id}`` and written with ``{placeholders}``; ``ids`` gives the
values they had in this run: ids, names and timestamps in the bodies are
this run's, so they are values to match by shape, never literally.
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

from tests.fidelity import record_heat_cases as cases
from tests.fidelity import recording

KEYSTONE = "http://127.0.0.1:5000/v3"
HEAT = "http://127.0.0.1:8004/v1"
NOVA = "http://127.0.0.1:8774/v2.1"
TIMEOUT = 30
DEADLINE = 240  # seconds any one stack may take to settle
OUT = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "heat" / "realcloud"
SOURCE = (
    "openstack-heat 27.0.1 (2026.2, from PyPI) with keystone 30.0.0 and nova 34.0.0 (fake virt"
    ' driver), started with ONLY="keystone nova heat" ../shared/realcloud/start.sh on'
    " 127.0.0.1, default policies and heat.conf of the rig. Recorded %s by"
    " tests/fidelity/record_heat.py (issue 25). Callers: 'member' = a user with the member role"
    " on a project made for the run; 'admin' = admin@admin. Ids, names with the run's tag,"
    " timestamps and random values are this run's (see 'ids')."
)
# response headers kept (lower case); x-openstack-request-id is kept as presence
HEADERS = ("content-type", "location", "content-length")


BIG = 65536  # request bodies longer than this (bytes of JSON) are not kept


def redact(doc):
    """``doc`` with every ``password`` value (the stack users' generated
    passwords in server metadata) replaced."""
    if isinstance(doc, dict):
        return {k: "<redacted>" if k == "password" else redact(v) for k, v in doc.items()}
    if isinstance(doc, list):
        return [redact(v) for v in doc]
    return doc


def shrink(body):
    """A request body as kept in a fixture: over ``BIG`` bytes, a note."""
    size = len(json.dumps(body))
    if size <= BIG:
        return body
    return "<%d bytes of JSON, not kept: see record_heat_cases>" % size


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
    """Sends requests to the real Heat and keeps what it answered."""

    def __init__(self):
        self.tag = "fid" + uuid.uuid4().hex[:6]
        self.sessions = {"admin": _login("admin", "secret", "admin")}
        self.created = []  # (kind, caller, id-or-path), undone newest first
        self.ids = {"admin_project": self.sessions["admin"].get_project_id()}
        self._make_member()
        self.case: dict[str, Any] = {}
        self.case_name = ""

    # -- identity ----------------------------------------------------------

    def _admin(self, method, url, body=None):
        resp = self.sessions["admin"].request(url, method, json=body, raise_exc=False)
        assert resp.status_code < 300, (method, url, resp.status_code, resp.text)
        return resp.json() if resp.text else None

    def _make_member(self):
        password = uuid.uuid4().hex
        project = self._admin("POST", KEYSTONE + "/projects", {"project": {"name": self.tag}})
        self.created.append(("project", "admin", project["project"]["id"]))
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
        self.created.append(("user", "admin", user["user"]["id"]))
        role = self._admin("GET", KEYSTONE + "/roles?name=member")["roles"][0]["id"]
        self._admin(
            "PUT",
            KEYSTONE
            + "/projects/%s/users/%s/roles/%s"
            % (project["project"]["id"], user["user"]["id"], role),
        )
        self.sessions["member"] = _login(self.tag, password, self.tag)
        self.ids["member_project"] = project["project"]["id"]
        self.ids["member_user"] = user["user"]["id"]
        self.ids["tag"] = self.tag

    # -- requests ----------------------------------------------------------

    def begin(self, case):
        self.case = {
            "source": SOURCE % time.strftime("%Y-%m-%d"),
            "ids": dict(self.ids),
            "exchanges": {},
        }
        self.case_name = case

    def raw(
        self,
        method,
        path,
        body=None,
        caller="member",
        query="",
        project=None,
        text=None,
        redirect=False,
        headers=None,
    ):
        """One request; ``path`` already formatted. A keystoneauth Response."""
        if project is None:
            project = self.ids["member_project" if caller == "member" else "admin_project"]
        url = HEAT + "/" + project + path + ("?" + query if query else "")
        hdrs = {"Accept": "application/json"}
        if text is not None:
            hdrs["Content-Type"] = "application/json"
        hdrs.update(headers or {})
        return self.sessions[caller].request(
            url,
            method,
            json=body,
            data=text,
            headers=hdrs,
            raise_exc=False,
            redirect=redirect,
            timeout=TIMEOUT,
        )

    def call(
        self,
        name,
        method,
        path,
        body=None,
        caller="member",
        query="",
        project=None,
        text=None,
        note=None,
        **ids,
    ):
        """Send ``path`` (``{placeholders}`` from the case's ids and ``ids``)
        and record the exchange as ``name``. Returns (status, body)."""
        self.case["ids"].update(ids)
        resp = self.raw(
            method, path.format(**self.case["ids"]), body, caller, query, project, text
        )
        try:
            answer = resp.json() if resp.text else None
        except ValueError:
            answer = resp.text
        headers = {k: resp.headers[k] for k in HEADERS if k in resp.headers}
        headers["x-openstack-request-id"] = (
            "<present>" if "x-openstack-request-id" in resp.headers else None
        )
        request = {"method": method, "path": path, "query": query, "body": shrink(body)}
        request["caller"] = caller
        if project is not None:
            request["project"] = "{%s}" % next(k for k, v in self.ids.items() if v == project)
        if text is not None:
            request["body"] = "<%d bytes of text, see note>" % len(text)
        exchange = {
            "request": request,
            "status": resp.status_code,
            "headers": headers,
            "body": redact(answer),
        }
        if note:
            exchange["note"] = note
        assert name not in self.case["exchanges"], name
        self.case["exchanges"][name] = exchange
        print("%-45s %s %s -> %d" % (name, method, path, resp.status_code), flush=True)
        return resp.status_code, answer

    def save(self, complete=True):
        """Write the case; an incomplete one goes to the temporary directory,
        never over a fixture."""
        folder = OUT if complete else pathlib.Path(tempfile.gettempdir())
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / ("heat-27-%s.json" % self.case_name)
        target.write_text(json.dumps(self.case, indent=1, sort_keys=False) + "\n")
        print("wrote", target)

    # -- stacks ------------------------------------------------------------

    def create(self, name, body, caller="member", record=None):
        """POST /stacks; remembers the stack for cleanup. (status, body)."""
        body = dict(body, stack_name=name)
        if record:
            status, answer = self.call(record, "POST", "/stacks", body, caller)
        else:
            resp = self.raw("POST", "/stacks", body, caller)
            status, answer = resp.status_code, resp.json() if resp.text else None
        if status == 201:
            self.created.append(("stack", caller, "/stacks/%s/%s" % (name, answer["stack"]["id"])))
        return status, answer

    def wait(self, path, caller="member", gone_ok=False):
        """Poll GET ``path`` until its stack leaves *_IN_PROGRESS (bounded)."""
        deadline = time.monotonic() + DEADLINE
        while time.monotonic() < deadline:
            resp = self.raw("GET", path, caller=caller, query="resolve_outputs=False")
            if resp.status_code == 404 and gone_ok:
                return None
            assert resp.status_code == 200, (path, resp.status_code, resp.text)
            stack = resp.json()["stack"]
            if not stack["stack_status"].endswith("IN_PROGRESS"):
                return stack
            time.sleep(0.5)
        raise AssertionError("stack %s did not settle in %d s" % (path, DEADLINE))

    def cleanup(self):
        failures = []
        for kind, caller, ident in reversed(self.created):
            try:
                if kind == "stack":
                    resp = self.raw("DELETE", ident, caller=caller)
                    assert resp.status_code in (204, 404), (ident, resp.status_code, resp.text)
                    stack = self.wait(ident, caller, gone_ok=True)
                    assert stack is None or stack["stack_status"] == "DELETE_COMPLETE", stack
                elif kind == "flavor":
                    self._admin("DELETE", NOVA + "/flavors/" + ident)
                else:
                    self._admin("DELETE", KEYSTONE + "/%ss/%s" % (kind, ident))
            except Exception as exc:  # noqa: BLE001 - report every leftover
                failures.append("%s %s: %s" % (kind, ident, exc))
        self.created = []
        return failures


def main(argv):
    return recording.run(Recorder(), cases.CASES, argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
