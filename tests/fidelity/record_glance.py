"""Record the real Glance's answers into ``tests/fixtures/image/realcloud/``.

Needs the rig of ``../shared/realcloud`` with Glance (its default ``ONLY``):
Keystone on 127.0.0.1:5000, Glance on :9292. Run::

    .venv/bin/python -m tests.fidelity.record_glance [case ...]

It makes two projects with a member user each for the run (``member`` and
``other``), sends each case's requests as one of them (or as the rig's
admin where an exchange says ``caller: admin``), writes one JSON file per
case and deletes every image it made after each case, every user and
project at the end. Loopback only;
every request has a timeout.

A fixture file is ``{"source", "ids", "exchanges"}``: ``exchanges`` maps a
name to ``{"request": {"method", "path", "query", "body", "caller"},
"status", "headers", "body"}``. ``path`` is relative to Glance's root
(``/v2/images/{image}``) and written with ``{placeholders}``; ``ids`` gives
the values they had in this run: ids, names and timestamps in the bodies
are this run's, so they are values to match by shape, never literally.
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

from tests.fidelity import record_glance_cases as cases
from tests.fidelity import recording

KEYSTONE = "http://127.0.0.1:5000/v3"
GLANCE = "http://127.0.0.1:9292"
TIMEOUT = 30
OUT = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "image" / "realcloud"
SOURCE = (
    "glance 33.0.0 (2026.2, from PyPI) with keystone 30.0.0, started by"
    " ../shared/realcloud/start.sh on 127.0.0.1: file store, SQLite, default policies,"
    " glance-api.conf of the rig (only"
    " enabled_backends = file:file and the store directories set). Recorded %s by"
    " tests/fidelity/record_glance.py (issue 20). Callers: 'member' and 'other' = a user with the"
    " member role on a project made for the run each; 'admin' = admin@admin. Ids, names with the"
    " run's tag, timestamps and hashes of random data are this run's (see 'ids')."
)
# response headers kept (lower case); x-openstack-request-id is kept as presence
HEADERS = (
    "content-type",
    "location",
    "content-length",
    "content-md5",
    "accept-patch",
    "openstack-image-import-methods",
    "openstack-image-store-ids",
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


def body_of(resp):
    """A response body as kept: its JSON, else its text, else (bytes that
    are not UTF-8, an image's data) a note of their size."""
    if not resp.content:
        return None
    try:
        return resp.json()
    except ValueError:
        pass
    try:
        return resp.content.decode("utf-8")
    except UnicodeDecodeError:
        return "<%d bytes of data>" % len(resp.content)


class Recorder:
    """Sends requests to the real Glance and keeps what it answered."""

    def __init__(self):
        self.tag = "fid" + uuid.uuid4().hex[:6]
        self.sessions = {"admin": _login("admin", "secret", "admin")}
        self.created = []  # (kind, caller, id), undone newest first
        self.ids = {"admin_project": self.sessions["admin"].get_project_id()}
        self._make_member("member")
        self._make_member("other")
        self.ids["tag"] = self.tag
        self.case: dict[str, Any] = {}
        self.case_name = ""

    # -- identity ----------------------------------------------------------

    def _admin(self, method, url, body=None):
        resp = self.sessions["admin"].request(url, method, json=body, raise_exc=False)
        assert resp.status_code < 300, (method, url, resp.status_code, resp.text)
        return resp.json() if resp.text else None

    def _make_member(self, caller):
        name, password = "%s-%s" % (self.tag, caller), uuid.uuid4().hex
        project = self._admin("POST", KEYSTONE + "/projects", {"project": {"name": name}})
        project_id = project["project"]["id"]
        self.created.append(("project", "admin", project_id))
        user = self._admin(
            "POST",
            KEYSTONE + "/users",
            {"user": {"name": name, "password": password, "default_project_id": project_id}},
        )
        self.created.append(("user", "admin", user["user"]["id"]))
        role = self._admin("GET", KEYSTONE + "/roles?name=member")["roles"][0]["id"]
        self._admin(
            "PUT",
            KEYSTONE + "/projects/%s/users/%s/roles/%s" % (project_id, user["user"]["id"], role),
        )
        self.sessions[caller] = _login(name, password, name)
        self.ids[caller + "_project"] = project_id

    # -- requests ----------------------------------------------------------

    def begin(self, case):
        self.case = {
            "source": SOURCE % time.strftime("%Y-%m-%d"),
            "ids": dict(self.ids),
            "exchanges": {},
        }
        self.case_name = case

    def raw(self, method, path, body=None, caller="member", query="", data=None, headers=None):
        """One request; ``path`` already formatted. A keystoneauth Response.

        ``body`` goes as JSON (``Content-Type: application/json`` unless
        ``headers`` say otherwise); ``data`` (bytes or text) as it is."""
        url = GLANCE + path + ("?" + query if query else "")
        hdrs = {"Accept": "application/json"}
        if body is not None:
            hdrs["Content-Type"] = "application/json"
            data, body = json.dumps(body), None
        hdrs.update(headers or {})
        return self.sessions[caller].request(
            url, method, data=data, headers=hdrs, raise_exc=False, timeout=TIMEOUT
        )

    def call(
        self,
        name,
        method,
        path,
        body=None,
        caller="member",
        query="",
        data=None,
        headers=None,
        note=None,
        **ids,
    ):
        """Send ``path`` (``{placeholders}`` from the case's ids and ``ids``)
        and record the exchange as ``name``. Returns (status, body)."""
        self.case["ids"].update(ids)
        ids = self.case["ids"]
        resp = self.raw(
            method, path.format(**ids), body, caller, query.format(**ids), data, headers
        )
        answer = body_of(resp)
        kept = {k: resp.headers[k] for k in HEADERS if k in resp.headers}
        kept["x-openstack-request-id"] = (
            "<present>" if "x-openstack-request-id" in resp.headers else None
        )
        request = {"method": method, "path": path, "query": query, "body": body}
        request["caller"] = caller
        if data is not None:
            request["data"] = data if isinstance(data, str) else "<%d bytes>" % len(data)
        if headers:
            request["headers"] = headers
        exchange = {"request": request, "status": resp.status_code, "headers": kept}
        exchange["body"] = answer
        if note:
            exchange["note"] = note
        assert name not in self.case["exchanges"], name
        self.case["exchanges"][name] = exchange
        print("%-40s %s %s -> %d" % (name, method, path, resp.status_code), flush=True)
        return resp.status_code, answer

    def save(self, complete=True):
        """Write the case; an incomplete one goes to the temporary directory,
        never over a fixture."""
        folder = OUT if complete else pathlib.Path(tempfile.gettempdir())
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / ("glance-33-%s.json" % self.case_name)
        target.write_text(json.dumps(self.case, indent=1, sort_keys=False) + "\n")
        print("wrote", target)

    # -- images ------------------------------------------------------------

    def image(self, record, body, caller="member"):
        """POST /v2/images (recorded as ``record`` unless None); remembers
        the image for cleanup. (status, body)."""
        if record:
            status, answer = self.call(record, "POST", "/v2/images", body, caller)
        else:
            resp = self.raw("POST", "/v2/images", body, caller)
            status, answer = resp.status_code, body_of(resp)
        if status == 201:
            self.created.append(("image", caller, answer["id"]))
        return status, answer

    def cleanup(self, kinds=("image", "user", "project")):
        """Delete what the run made of ``kinds`` (newest first); what could
        not be deleted."""
        failures = []
        kept = [c for c in self.created if c[0] not in kinds]
        for kind, _caller, ident in reversed([c for c in self.created if c[0] in kinds]):
            try:
                if kind == "image":
                    path = "/v2/images/" + ident
                    self.raw(
                        "PATCH",
                        path,
                        caller="admin",
                        data=json.dumps([{"op": "replace", "path": "/protected", "value": False}]),
                        headers={"Content-Type": "application/openstack-images-v2.1-json-patch"},
                    )
                    resp = self.raw("DELETE", path, caller="admin")
                    assert resp.status_code in (204, 404), (ident, resp.status_code, resp.text)
                else:
                    self._admin("DELETE", KEYSTONE + "/%ss/%s" % (kind, ident))
            except Exception as exc:  # noqa: BLE001 - report every leftover
                failures.append("%s %s: %s" % (kind, ident, exc))
        self.created = kept
        return failures


def main(argv):
    def fresh(rec):
        # each case starts without the images of the ones before
        leftovers = rec.cleanup(kinds=("image",))
        assert not leftovers, leftovers

    return recording.run(Recorder(), cases.CASES, argv, after_case=fresh)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
