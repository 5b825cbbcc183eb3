"""Record the real Nova's answers into ``tests/fixtures/compute/realcloud/``.

Needs the rig of ``../shared/realcloud``: Keystone on 127.0.0.1:5000, Nova
on :8774 (the fake virt driver), Glance, Neutron and Cinder behind it. Run::

    .venv/bin/python -m tests.fidelity.record_nova [case ...]

The run shares ``record_cinder.py``'s recorder (two projects with a member
user each, ``member`` and ``other``, and the rig's admin as ``caller:
admin``); here the requests go to ``/v2.1`` with an ``OpenStack-API-Version:
compute X`` header, and what the run made (servers, flavors, a project's or
a user's quotas, Neutron security groups) is deleted afterwards, servers
first. The fixture files have record_cinder's format (``path`` relative to
``/v2.1``, ``{placeholders}`` from ``ids``), named ``nova-34-<case>.json``.
"""

import json
import pathlib
import sys
import tempfile
import time

from tests.fidelity import record_cinder
from tests.fidelity import record_nova_cases as cases
from tests.fidelity import recording

NOVA = "http://127.0.0.1:8774/v2.1"
NEUTRON = "http://127.0.0.1:9696/v2.0"
OUT = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "compute" / "realcloud"
SOURCE = (
    "nova 34 (2026.2, from PyPI): API, conductor, scheduler and one compute with the fake virt"
    " driver, Glance, Neutron and Cinder behind it, ../shared/realcloud/start.sh on 127.0.0.1"
    " with default policies. Recorded %s by tests/fidelity/record_nova.py (issue 23). Callers:"
    " 'member' and 'other' = a user with the member role on a project made for the run each;"
    " 'admin' = admin@admin. Ids, names and timestamps are this run's (see 'ids')."
)
# what is deleted once the servers are gone
LAST = ("/flavors/", "/os-quota-sets/")


class Recorder(record_cinder.Recorder):
    """Sends requests to the real Nova and keeps what it answered."""

    def __init__(self):
        super().__init__()
        for caller in ("member", "other"):
            user = self.sessions[caller].get_user_id()
            self.ids[caller + "_user"] = user

    def begin(self, case):
        super().begin(case)
        self.case["source"] = SOURCE % time.strftime("%Y-%m-%d")

    def raw(self, method, path, body=None, caller="member", query="", version="2.75"):
        url = path if path.startswith("http") else NOVA + path
        headers = {"Accept": "application/json"}
        if version is not None and url.startswith(NOVA):
            headers["OpenStack-API-Version"] = "compute " + version
        return self.sessions[caller].request(
            url + ("?" + query if query else ""),
            method,
            json=body,
            headers=headers,
            raise_exc=False,
            timeout=record_cinder.TIMEOUT,
        )

    def call(
        self,
        name,
        method,
        path,
        body=None,
        caller="member",
        query="",
        version="2.75",
        note=None,
        **ids,
    ):
        return super().call(name, method, path, body, caller, query, version, note, **ids)

    def _remember(self, path, caller, answer):
        value = record_cinder._resource(answer)
        if value is None:
            return
        if path == "/os-security-groups":
            self.created.append((caller, "%s/security-groups/%s" % (NEUTRON, value["id"])))
        elif path in ("/servers", "/flavors"):
            self.created.append((caller, "%s/%s" % (path, value["id"])))

    def remember(self, path, caller="admin"):
        """Delete ``path`` (a ``/v2.1`` path or a URL) after the run."""
        self.created.append((caller, path.format(**self.case["ids"])))

    def wait(self, path, statuses, caller="admin", gone=False):
        """Poll ``path`` (not recorded) until its resource's status (or
        it is gone; bounded by record_cinder.WAIT seconds."""
        deadline = time.monotonic() + record_cinder.WAIT
        url = path.format(**self.case["ids"]) if self.case else path
        while time.monotonic() < deadline:
            resp = self.raw("GET", url, caller=caller)
            if resp.status_code == 404 and gone:
                return None
            if resp.status_code == 200 and not gone:
                value = record_cinder._resource(resp.json())
                if value is not None and value.get("status") in statuses:
                    return value
            time.sleep(1)
        raise AssertionError("%s did not reach %s" % (url, statuses or "gone"))

    def save(self, complete=True):
        """Write the case; an incomplete one goes to the temporary directory."""
        folder = OUT if complete else pathlib.Path(tempfile.gettempdir())
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / ("nova-34-%s.json" % self.case_name)
        target.write_text(json.dumps(self.case, indent=1) + "\n")
        print("wrote", target)

    def cleanup(self):
        failures = []
        created = list(reversed(self.created))
        self.created = []
        servers = [p for _, p in created if p.startswith("/servers/")]
        for path in servers:
            self.raw("POST", path + "/action", {"os-resetState": {"state": "active"}}, "admin")
            self.raw("DELETE", path, caller="admin")
        for path in servers:
            try:
                self.wait(path, (), gone=True)
            except AssertionError as error:
                failures.append(str(error))
        rest = [c for c in created if not c[1].startswith("/servers/")]
        ordered = [c for c in rest if not c[1].startswith(LAST + ("http",))]
        ordered += [c for c in rest if c[1].startswith(LAST)]
        keystone = [c for c in rest if c[1].startswith(record_cinder.KEYSTONE)]
        ordered += [c for c in rest if c[1].startswith("http") and c not in keystone]
        ordered += keystone
        for _, path in ordered:
            if path.startswith("http"):
                session = self.sessions["admin"]
                resp = session.request(path, "DELETE", raise_exc=False)
            else:
                resp = self.raw("DELETE", path, caller="admin")
            if resp.status_code not in (202, 204, 404):
                failures.append("%s: %d %s" % (path, resp.status_code, resp.text[:200]))
        return failures


def main(argv):
    return recording.run(Recorder(), cases.CASES, argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
