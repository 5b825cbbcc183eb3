"""Record the real Cinder's answers into ``tests/fixtures/volume/realcloud/``.

Needs the rig of ``../shared/realcloud`` with Cinder: Keystone on
127.0.0.1:5000, Cinder on :8776 (its fake volume driver). Run::

    .venv/bin/python -m tests.fidelity.record_cinder [case ...]

(the cases of ``record_cinder_cases.py`` and ``record_cinder_views.py``).

It makes two projects with a member user each for the run (``member`` and
``other``, who accepts transfers), sends each case's requests as one of
them or as the rig's admin (``caller: admin``), writes one JSON file per
case and deletes everything it made (newest first, volume types and QoS
specs after the volumes). Loopback only; every request has a timeout.

A fixture file is ``{"source", "ids", "exchanges"}``: ``exchanges`` maps a
name to ``{"request": {"method", "path", "query", "body", "caller",
"version"}, "status", "body"}``. ``path`` is relative to
``/v3/{project_id}`` (the caller's project) and written with
``{placeholders}``; ``ids`` gives the values they had in this run, so ids,
names and timestamps in the bodies are values to match by shape.
``version`` is the ``OpenStack-API-Version`` sent (None: no header).
"""

import json
import pathlib
import sys
import tempfile
import time
import uuid
from typing import Any

from keystoneauth1 import exceptions as ks_exceptions
from keystoneauth1 import session as ks_session
from keystoneauth1.identity import v3

from tests.fidelity import record_cinder_cases as cases
from tests.fidelity import record_cinder_views as views
from tests.fidelity import recording

KEYSTONE = "http://127.0.0.1:5000/v3"
CINDER = "http://127.0.0.1:8776"
TIMEOUT = 30
WAIT = 90
OUT = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "volume" / "realcloud"
SOURCE = (
    "cinder 29 (2026.2, from PyPI): API, scheduler and volume with Cinder's fake driver"
    " (cinder.tests.fake_driver.FakeLoggingVolumeDriver, backend 'fake'), no cinder-backup,"
    " default_volume_type __DEFAULT__, ../shared/realcloud/start.sh on 127.0.0.1 with default"
    " policies. Recorded %s by tests/fidelity/record_cinder.py (issue 21). Callers: 'member'"
    " and 'other' = a user with the member role on a project made for the run each; 'admin' ="
    " admin@admin. Ids, names and timestamps are this run's (see 'ids')."
)
# what is deleted after the volumes are gone
LAST = ("/types/", "/qos-specs/", "/group_types/")


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
    """Sends requests to the real Cinder and keeps what it answered."""

    def __init__(self):
        self.tag = "fid" + uuid.uuid4().hex[:6]
        self.sessions = {"admin": _login("admin", "secret", "admin")}
        self.projects = {"admin": self.sessions["admin"].get_project_id()}
        self.created: list[tuple[str, str]] = []  # (caller, path), deleted newest first
        self.ids = {"admin_project": self.projects["admin"], "tag": self.tag}
        for caller in ("member", "other"):
            self._make_user(caller)
        self.case: dict[str, Any] = {}
        self.case_name = ""

    def _admin(self, method, url, body=None):
        resp = self.sessions["admin"].request(url, method, json=body, raise_exc=False)
        assert resp.status_code < 300, (method, url, resp.status_code, resp.text)
        return resp.json() if resp.text else None

    def _make_user(self, caller):
        name = "%s-%s" % (self.tag, caller)
        password = uuid.uuid4().hex
        project = self._admin("POST", KEYSTONE + "/projects", {"project": {"name": name}})
        project_id = project["project"]["id"]
        self.created.append(("keystone", KEYSTONE + "/projects/" + project_id))
        user = self._admin(
            "POST",
            KEYSTONE + "/users",
            {"user": {"name": name, "password": password, "default_project_id": project_id}},
        )
        self.created.append(("keystone", KEYSTONE + "/users/" + user["user"]["id"]))
        role = self._admin("GET", KEYSTONE + "/roles?name=member")["roles"][0]["id"]
        self._admin(
            "PUT",
            KEYSTONE + "/projects/%s/users/%s/roles/%s" % (project_id, user["user"]["id"], role),
        )
        self.sessions[caller] = _login(name, password, name)
        self.projects[caller] = project_id
        self.ids[caller + "_project"] = project_id

    def begin(self, case):
        self.case = {
            "source": SOURCE % time.strftime("%Y-%m-%d"),
            "ids": dict(self.ids),
            "exchanges": {},
        }
        self.case_name = case

    def raw(self, method, path, body=None, caller="member", query="", version="3.70"):
        if path.startswith("/v3") or path == "/":
            url = CINDER + path
        else:
            url = "%s/v3/%s%s" % (CINDER, self.projects[caller], path)
        headers = {"Accept": "application/json"}
        if version is not None:
            headers["OpenStack-API-Version"] = "volume " + version
        session = self.sessions["admin" if caller == "anonymous" else caller]
        return session.request(
            url + ("?" + query if query else ""),
            method,
            json=body,
            headers=headers,
            raise_exc=False,
            timeout=TIMEOUT,
            authenticated=caller != "anonymous",
        )

    def call(
        self,
        name,
        method,
        path,
        body=None,
        caller="member",
        query="",
        version="3.70",
        note=None,
        **ids,
    ):
        """Send ``path`` (``{placeholders}`` from the case's ids and ``ids``;
        the body's strings too) and record the exchange as ``name``.
        Returns (status, body); a 202 or 200 creation is remembered for
        cleanup."""
        self.case["ids"].update(ids)
        sent = fill(body, self.case["ids"])
        resp = self.raw(
            method,
            path.format(**self.case["ids"]),
            sent,
            caller,
            query.format(**self.case["ids"]),
            version,
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
                "version": version,
            },
            "status": resp.status_code,
            "body": answer,
        }
        if note:
            exchange["note"] = note
        assert name not in self.case["exchanges"], name
        self.case["exchanges"][name] = exchange
        print("%-45s %s %s -> %d" % (name, method, path, resp.status_code), flush=True)
        if method == "POST" and resp.status_code in (200, 202) and isinstance(answer, dict):
            self._remember(path, caller, answer)
        return resp.status_code, answer

    def _remember(self, path, caller, answer):
        value = _resource(answer)
        if path.count("/") == 1 and value is not None:
            self.created.append((caller, "%s/%s" % (path, value["id"])))

    def id_of(self, name, answer):
        """Keep ``answer``'s only resource's id as ``{name}``; return it."""
        value = _resource(answer)
        assert value is not None, answer
        self.case["ids"][name] = value["id"]
        return value["id"]

    def wait(self, path, statuses, caller="admin", gone=False):
        """Poll ``path`` (not recorded) until its resource's status is one of
        ``statuses`` (or it is gone); bounded by WAIT seconds."""
        deadline = time.monotonic() + WAIT
        url = path.format(**self.case["ids"]) if self.case else path
        while time.monotonic() < deadline:
            resp = self.raw("GET", url, caller=caller)
            if resp.status_code == 404 and gone:
                return None
            if resp.status_code == 200 and not gone:
                value = _resource(resp.json())
                if value is not None and value.get("status") in statuses:
                    return value
            time.sleep(1)
        raise AssertionError("%s did not reach %s" % (url, statuses or "gone"))

    def save(self, complete=True):
        """Write the case; an incomplete one goes to the temporary directory."""
        folder = OUT if complete else pathlib.Path(tempfile.gettempdir())
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / ("cinder-29-%s.json" % self.case_name)
        target.write_text(json.dumps(self.case, indent=1) + "\n")
        print("wrote", target)

    def undo(self, path):
        """Forget ``path`` (the case deleted it itself)."""
        self.created = [c for c in self.created if c[1] != path]

    def cleanup(self):
        failures = []
        created = list(reversed(self.created))
        self.created = []
        first = [c for c in created if not c[1].startswith(LAST) and not c[1].startswith("http")]
        last = [c for c in created if c[1].startswith(LAST)]
        keystone = [c for c in created if c[1].startswith("http")]
        volumes = []
        for _, path in first:
            try:
                resp = self._delete(path)
            except ks_exceptions.ClientException as error:
                failures.append("%s: %s" % (path, error))
                continue
            if path.startswith("/volumes/"):
                volumes.append(path)
            if resp.status_code not in (200, 202, 204, 404):
                failures.append("%s: %d %s" % (path, resp.status_code, resp.text[:200]))
        for path in volumes + [p for _, p in first if p.startswith("/groups/")]:
            try:
                self.wait(path, (), gone=True)
            except AssertionError as error:
                failures.append(str(error))
        for _, path in last + keystone:
            if path.startswith("http"):
                resp = self.sessions["admin"].request(path, "DELETE", raise_exc=False)
            else:
                resp = self.raw("DELETE", path, caller="admin")
            if resp.status_code not in (202, 204, 404):
                failures.append("%s: %d %s" % (path, resp.status_code, resp.text[:200]))
        return failures

    def _delete(self, path):
        """Delete ``path`` as admin, whatever its state (volumes and
        backups reset first, groups with their volumes)."""
        if path.startswith("/groups/"):
            body = {"delete": {"delete-volumes": True}}
            self.raw("POST", path + "/action", {"reset_status": {"status": "available"}}, "admin")
            return self.raw("POST", path + "/action", body, "admin")
        if path.startswith("/volumes/"):
            for attachment in self._attachments(path[9:]):
                self.raw("DELETE", "/attachments/" + attachment, caller="admin")
            self.raw(
                "POST",
                path + "/action",
                {"os-reset_status": {"status": "available", "attach_status": "detached"}},
                "admin",
            )
            query = "cascade=true&force=true"
            return self.raw("DELETE", path, caller="admin", query=query)
        if path.startswith("/snapshots/"):
            action = "os-reset_status"
            self.raw("POST", path + "/action", {action: {"status": "available"}}, "admin")
            return self.raw("POST", path + "/action", {"os-force_delete": {}}, "admin")
        # a backup without cinder-backup: 404 "Service cinder-backup could
        # not be found." (its os-force_delete waits on that service's RPC)
        return self.raw("DELETE", path, caller="admin")

    def _attachments(self, volume_id):
        resp = self.raw("GET", "/attachments", caller="admin", query="all_tenants=1")
        if resp.status_code != 200:
            return []
        return [a["id"] for a in resp.json()["attachments"] if a["volume_id"] == volume_id]


def _resource(answer):
    """The one resource of an answer (``{"volume": {...}}``; QoS specs
    come with ``links`` beside), or None."""
    values = [v for v in answer.values() if isinstance(v, dict) and "id" in v]
    return values[0] if len(values) == 1 else None


def fill(body, ids):
    """``body`` with each string that is one ``{placeholder}`` replaced by
    its id, and ``{tag}`` in the others by the run's tag."""
    if isinstance(body, dict):
        return {k: fill(v, ids) for k, v in body.items()}
    if isinstance(body, list):
        return [fill(v, ids) for v in body]
    if isinstance(body, str) and body[:1] == "{" and body[-1:] == "}" and body[1:-1] in ids:
        return ids[body[1:-1]]
    if isinstance(body, str):
        return body.replace("{tag}", ids["tag"])
    return body


def main(argv):
    return recording.run(Recorder(), {**cases.CASES, **views.CASES}, argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
