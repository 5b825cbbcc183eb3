"""Record the real Keystone's answers into ``tests/fixtures/identity/realcloud/``.

Needs the rig of ``../shared/realcloud``: Keystone on 127.0.0.1:5000. Run::

    .venv/bin/python -m tests.fidelity.record_keystone [case ...]

It makes a project and a member user for the run, sends each case's
requests with the token of the caller an exchange names (``member``,
``admin`` = the rig's admin@admin, ``anonymous`` = no token, or one a case
logged in with :meth:`Recorder.login`), writes one JSON file per case and
deletes everything it made (newest first; a domain is disabled first).
Loopback only; every request has a timeout.

A fixture file is ``{"source", "ids", "exchanges"}``: ``exchanges`` maps a
name to ``{"request": {"method", "path", "query", "body", "caller"},
"status", "headers", "body"}``. ``path`` is relative to ``/v3`` and
written with ``{placeholders}``; ``ids`` gives the values they had in this
run, so ids, tokens and timestamps in the bodies are values to match by
shape. The replay (``tests/unit/localcloud/test_identity_realcloud_replay.py``)
runs the same case functions against a local cloud.
"""

import json
import pathlib
import sys
import tempfile
import time
import uuid
from typing import Any

import requests

from tests.fidelity import record_keystone_cases as cases
from tests.fidelity import recording

KEYSTONE = "http://127.0.0.1:5000/v3"
TIMEOUT = 30
OUT = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "identity" / "realcloud"
SOURCE = (
    "keystone 30.0.0 (2026.2, from PyPI): fernet tokens, SQL identity, default policies and"
    " options, ../shared/realcloud/start.sh on 127.0.0.1. Recorded %s by"
    " tests/fidelity/record_keystone.py (issue 21). Callers: 'member' = a user with the member"
    " role on a project made for the run; 'admin' = admin@admin; 'anonymous' = no token; others"
    " = tokens the case got itself. Ids, names, tokens and timestamps are this run's (see 'ids')."
)
# answer headers kept in a fixture
HEADERS = ("content-type", "x-subject-token", "location", "openstack-auth-receipt")
# collections whose 201 answers are deleted at the end
TOP = (
    "/users",
    "/projects",
    "/groups",
    "/roles",
    "/domains",
    "/regions",
    "/services",
    "/endpoints",
    "/credentials",
    "/OS-TRUST/trusts",
    "/OS-OAUTH1/consumers",
)


class Recorder:
    """Sends requests to the real Keystone and keeps what it answered."""

    def __init__(self) -> None:
        self.tag = "fid" + uuid.uuid4().hex[:6]
        self.http = requests.Session()
        self.tokens: dict[str, str] = {}
        self.created: list[str] = []  # paths, deleted newest first
        self.ids: dict[str, str] = {"tag": self.tag}
        self.case: dict[str, Any] = {}
        self.case_name = ""
        admin = self._token(cases.password_auth("admin", "secret", project="admin"))
        self.tokens["admin"] = admin.headers["X-Subject-Token"]
        body = admin.json()["token"]
        self.ids.update(admin_user=body["user"]["id"], admin_project=body["project"]["id"])
        self._make_member()

    def _token(self, auth: dict[str, Any]) -> requests.Response:
        resp = self.http.post(KEYSTONE + "/auth/tokens", json={"auth": auth}, timeout=TIMEOUT)
        assert resp.status_code == 201, resp.text
        return resp

    def _admin(self, method: str, path: str, body: Any = None) -> Any:
        resp = self.raw(method, path, body, "admin")
        assert resp.status_code < 300, (method, path, resp.status_code, resp.text)
        return resp.json() if resp.text else None

    def _make_member(self) -> None:
        password = uuid.uuid4().hex
        project = self._admin("POST", "/projects", {"project": {"name": self.tag}})["project"]
        self.created.append("/projects/" + project["id"])
        user = {"name": self.tag, "password": password, "default_project_id": project["id"]}
        user = self._admin("POST", "/users", {"user": user})["user"]
        self.created.append("/users/" + user["id"])
        role = self._admin("GET", "/roles?name=member")["roles"][0]["id"]
        self._admin("PUT", "/projects/%s/users/%s/roles/%s" % (project["id"], user["id"], role))
        auth = cases.password_auth(self.tag, password, project=self.tag)
        self.tokens["member"] = self._token(auth).headers["X-Subject-Token"]
        self.ids.update(member_project=project["id"], member_user=user["id"])

    def begin(self, case: str) -> None:
        self.case = {
            "source": SOURCE % time.strftime("%Y-%m-%d"),
            "ids": dict(self.ids),
            "exchanges": {},
        }
        self.case_name = case

    def raw(
        self,
        method: str,
        path: str,
        body: Any = None,
        caller: str = "member",
        query: str = "",
        headers: dict[str, str] | None = None,
    ) -> requests.Response:
        sent = {"Accept": "application/json"}
        if caller != "anonymous":
            sent["X-Auth-Token"] = self.tokens[caller]
        sent.update(headers or {})
        url = KEYSTONE + path + ("?" + query if query else "")
        return self.http.request(method, url, json=body, headers=sent, timeout=TIMEOUT)

    def call(
        self,
        name: str,
        method: str,
        path: str,
        body: Any = None,
        caller: str = "member",
        query: str = "",
        headers: dict[str, str] | None = None,
        note: str | None = None,
        **ids: str,
    ) -> tuple[int, Any]:
        """Send ``path`` (``{placeholders}`` from the case's ids and ``ids``;
        the query's, the headers' and the body's strings too) and record the
        exchange as ``name``. Returns (status, body); a 201 of a
        :data:`TOP` collection is remembered for cleanup."""
        self.case["ids"].update(ids)
        known = self.case["ids"]
        resp = self.raw(
            method,
            path.format(**known),
            fill(body, known),
            caller,
            query.format(**known),
            fill(headers, known),
        )
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
                "headers": headers,
            },
            "status": resp.status_code,
            "headers": {k.lower(): v for k, v in resp.headers.items() if k.lower() in HEADERS},
            "body": answer,
        }
        if note:
            exchange["note"] = note
        assert name not in self.case["exchanges"], name
        self.case["exchanges"][name] = exchange
        print("%-45s %s %s -> %d" % (name, method, path, resp.status_code), flush=True)
        # an application credential is deleted by itself: deleting its user
        # leaves its roles' rows in keystone's SQLite (no foreign keys), and
        # the next credential of the same internal id then fails with 409
        mine = path in TOP or path.endswith("/application_credentials")
        if method == "POST" and resp.status_code == 201 and mine and isinstance(answer, dict):
            ((_, value),) = answer.items()
            self.created.append("%s/%s" % (path.format(**known), value["id"]))
        if path == "/auth/tokens" and method == "POST" and resp.status_code == 201:
            self.last_token = resp.headers["X-Subject-Token"]
        return resp.status_code, answer

    def login(self, name: str, caller: str, auth: dict[str, Any]) -> tuple[int, Any]:
        """Record the token request ``auth`` as ``name``; a token it gets is
        ``caller``'s from then on and the id ``{caller}_token``."""
        status, answer = self.call(name, "POST", "/auth/tokens", {"auth": auth}, "anonymous")
        if status == 201:
            self.tokens[caller] = self.last_token
            self.case["ids"][caller + "_token"] = self.last_token
        return status, answer

    def id_of(self, name: str, answer: Any) -> str:
        """Keep ``answer``'s only resource's id as ``{name}``; return it."""
        ((_, value),) = answer.items()
        self.case["ids"][name] = value["id"]
        return value["id"]

    def save(self, complete: bool = True) -> None:
        """Write the case; an incomplete one goes to the temporary directory."""
        folder = OUT if complete else pathlib.Path(tempfile.gettempdir())
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / ("keystone-30-%s.json" % self.case_name)
        target.write_text(json.dumps(self.case, indent=1) + "\n")
        print("wrote", target)

    def cleanup(self) -> list[str]:
        failures = []
        for path in reversed(self.created):
            if path.startswith("/domains/"):
                self.raw("PATCH", path, {"domain": {"enabled": False}}, "admin")
            if path.startswith("/roles/"):
                self._unimply(path[len("/roles/") :])
            resp = self.raw("DELETE", path, caller="admin")
            if resp.status_code not in (204, 404):
                failures.append("%s: %d %s" % (path, resp.status_code, resp.text[:200]))
        self.created = []
        return failures

    def _unimply(self, role_id: str) -> None:
        """Delete the implied-role rules naming ``role_id`` before the role:
        keystone 30 on SQLite keeps them after the role is deleted, and a
        dangling rule (or a cycle) makes ``GET /role_inferences`` a 500."""
        resp = self.raw("GET", "/roles/%s/implies" % role_id, caller="admin")
        rules = resp.json()["role_inference"]["implies"] if resp.status_code == 200 else []
        for implied in rules:
            self.raw("DELETE", "/roles/%s/implies/%s" % (role_id, implied["id"]), caller="admin")
        resp = self.raw("GET", "/role_inferences", caller="admin")
        for rule in resp.json()["role_inferences"] if resp.status_code == 200 else []:
            if any(r["id"] == role_id for r in rule["implies"]):
                path = "/roles/%s/implies/%s" % (rule["prior_role"]["id"], role_id)
                self.raw("DELETE", path, caller="admin")


def fill(body: Any, ids: dict[str, str]) -> Any:
    """``body`` with each string that is one ``{placeholder}`` replaced by
    its id."""
    if isinstance(body, dict):
        return {k: fill(v, ids) for k, v in body.items()}
    if isinstance(body, list):
        return [fill(v, ids) for v in body]
    if isinstance(body, str) and body[:1] == "{" and body[-1:] == "}" and body[1:-1] in ids:
        return ids[body[1:-1]]
    return body


def main(argv: list[str]) -> int:
    return recording.run(Recorder(), cases.CASES, argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
