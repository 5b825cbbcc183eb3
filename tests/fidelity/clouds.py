"""The two clouds of the differential fidelity suite, behind one interface.

``RealCloud`` is the real Keystone + Nova on 127.0.0.1 (``../shared/realcloud``),
reached with keystoneauth1 as ``admin`` or as a ``member`` user of a project
made for the session; ``LocalCloud`` is a fresh one-host local cloud driven
in-process, as ``admin`` or ``demo`` (its member). Both answer
``request(method, path, json, user, version)`` with an :class:`Answer`;
``path`` is relative to the compute endpoint (``/v2.1``), or ``None``-rooted
for the version documents (``root=True``).

Every request has a timeout and goes to 127.0.0.1 only.
"""

import json as jsonlib
import time
import uuid

from tests.unit.localcloud.wsgi_client import Client

KEYSTONE = "http://127.0.0.1:5000/v3"
NOVA = "http://127.0.0.1:8774"
TIMEOUT = 30
# the real rig's admin (/tmp/realcloud/admin-openrc)
ADMIN = {"username": "admin", "password": "secret", "project_name": "admin"}
REAL_CIRROS = "155d900f-4e14-4e4c-a73d-069cbf4541e6"


class Answer:
    """Status, lower-cased headers and JSON body (``None`` when empty)."""

    def __init__(self, status, headers, text):
        self.status = status
        self.headers = {k.lower(): v for k, v in headers.items()}
        self.text = text
        try:
            self.body = jsonlib.loads(text) if text else None
        except ValueError:
            self.body = None

    def __repr__(self):
        return "<%d %s>" % (self.status, self.text[:300])


def _headers(version, extra):
    headers = {"Accept": "application/json"}
    if version is not None:
        headers["OpenStack-API-Version"] = "compute " + version
        headers["X-OpenStack-Nova-API-Version"] = version
    headers.update(extra or {})
    return headers


class RealCloud:
    name = "real"

    def __init__(self):
        from keystoneauth1 import session
        from keystoneauth1.identity import v3

        def login(username, password, project_name):
            auth = v3.Password(
                auth_url=KEYSTONE,
                username=username,
                password=password,
                project_name=project_name,
                user_domain_name="Default",
                project_domain_name="Default",
            )
            return session.Session(auth=auth, timeout=TIMEOUT)

        self._login = login
        self.sessions = {"admin": login(**ADMIN)}
        self.created = []  # (kind, id) deleted at the end, newest first
        self.ids = {"image": REAL_CIRROS, "image2": "a2459075-d96c-40d5-893e-577ff92e721c"}
        self.ids["admin_project"] = self.sessions["admin"].get_project_id()
        self.ids["admin_user"] = self.sessions["admin"].get_user_id()
        self._make_member()
        self.ids["host"] = "realcloud-compute1"

    def _identity(self, method, path, json=None):
        resp = self.sessions["admin"].request(
            KEYSTONE + path, method, json=json, raise_exc=False, timeout=TIMEOUT
        )
        assert resp.status_code < 300, (method, path, resp.status_code, resp.text)
        return resp.json() if resp.text else None

    def _make_member(self):
        tag = "fid-" + uuid.uuid4().hex[:8]
        password = uuid.uuid4().hex
        project = self._identity("POST", "/projects", {"project": {"name": tag}})["project"]
        self.created.append(("project", project["id"]))
        user = self._identity(
            "POST",
            "/users",
            {"user": {"name": tag, "password": password, "default_project_id": project["id"]}},
        )["user"]
        self.created.append(("user", user["id"]))
        roles = self._identity("GET", "/roles?name=member")["roles"]
        self._identity(
            "PUT", "/projects/%s/users/%s/roles/%s" % (project["id"], user["id"], roles[0]["id"])
        )
        self.sessions["member"] = self._login(tag, password, tag)
        self.ids["member_project"] = project["id"]
        self.ids["member_user"] = user["id"]

    def request(self, method, path, json=None, user="admin", version=None, headers=None, raw=None):
        url = NOVA + ("/v2.1" + path if not path.startswith("@") else path[1:])
        resp = self.sessions[user].request(
            url,
            method,
            json=json,
            data=raw,
            headers=_headers(version, headers),
            raise_exc=False,
            timeout=TIMEOUT,
            authenticated=not path.startswith("@"),
        )
        return Answer(resp.status_code, resp.headers, resp.text)

    def cleanup(self):
        """Delete what the session made in the real cloud, newest first."""
        failures = []
        for kind, ident in reversed(self.created):
            try:
                self._delete(kind, ident)
            except Exception as exc:  # noqa: BLE001 - report every leftover
                failures.append("%s %s: %s" % (kind, ident, exc))
        self.created = []
        return failures

    def _delete(self, kind, ident):
        if kind in ("project", "user"):
            self._identity("DELETE", "/%ss/%s" % (kind, ident))
            return
        user, path = {
            "server": ("admin", "/servers/%s"),
            "flavor": ("admin", "/flavors/%s"),
            "keypair": ("admin", "/os-keypairs/%s"),
            "member_keypair": ("member", "/os-keypairs/%s"),
            "aggregate": ("admin", "/os-aggregates/%s"),
        }[kind]
        if kind == "aggregate":
            # hosts first: an aggregate with hosts cannot be deleted
            agg = self.request("GET", path % ident).body
            for host in (agg or {}).get("aggregate", {}).get("hosts", []):
                self.request("POST", path % ident + "/action", {"remove_host": {"host": host}})
        if kind == "server":
            self.request("POST", path % ident + "/action", {"unlock": None}, version="2.1")
        resp = self.request("DELETE", path % ident, user=user)
        assert resp.status in (200, 202, 204, 404), resp
        if kind == "server":
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                if self.request("GET", path % ident).status == 404:
                    return
                time.sleep(0.5)
            raise AssertionError("server %s not deleted in 60 s" % ident)


class LocalCloud:
    name = "local"

    def __init__(self, data_dir):
        from occli.localcloud.image import images
        from tests.unit.localcloud.compute_harness import make_cloud

        self.cloud = make_cloud(data_dir, compute_hosts=1)
        self.client = Client(self.cloud)
        self.tokens = {"admin": self.client.token("admin"), "member": self.client.token("demo")}
        with self.cloud.store.transaction() as db:
            ids = self.cloud.identity
            self.ids = {
                "admin_project": ids.project_id(db, "admin"),
                "member_project": ids.project_id(db, "demo"),
                "member_user": ids.user_id(db, "demo"),
                "admin_user": ids.user_id(db, "admin"),
            }
        self.ids["image"] = images.seed_image_id("cirros-0.6.2-x86_64-disk")
        self.ids["image2"] = images.seed_image_id("ubuntu-24.04")
        self.ids["host"] = "host1"
        self.created = []

    def request(self, method, path, json=None, user="admin", version=None, headers=None, raw=None):
        unauthenticated = path.startswith("@")
        path = "/compute" + (path[1:] if unauthenticated else "/v2.1" + path)
        result = self.client.request(
            method,
            path,
            json=json,
            body=raw,
            headers=_headers(version, headers),
            token=None if unauthenticated else self.tokens[user],
        )
        return Answer(result.status, dict(result.headers), result.body.decode("utf-8"))

    def cleanup(self):
        self.cloud.close()
        return []
