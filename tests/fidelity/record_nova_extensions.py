"""Record what the real Nova answers for each alias of its ``/extensions``
list taken as a path (``GET /v2.1/<alias>`` as the rig's admin, at 2.1 and
at the newest microversion) into
``tests/fixtures/compute/realcloud/nova-34-extension-paths.json``. Needs
the rig of ``../shared/realcloud`` (Keystone on 127.0.0.1:5000, Nova on
:8774). Run::

    .venv/bin/python -m tests.fidelity.record_nova_extensions

Nothing is created. The fixture is ``{"source", "max_version",
"extensions", "paths"}``: ``extensions`` is the ``/extensions`` list's
aliases, ``paths`` maps each alias to ``{"2.1": status, "<max>": status}``.
Loopback only; every request has a timeout.
"""

import datetime
import json
import pathlib

from keystoneauth1 import session as ks_session
from keystoneauth1.identity import v3

KEYSTONE = "http://127.0.0.1:5000/v3"
NOVA = "http://127.0.0.1:8774/v2.1"
TIMEOUT = 30
OUT = (
    pathlib.Path(__file__).resolve().parents[1]
    / "fixtures/compute/realcloud/nova-34-extension-paths.json"
)
SOURCE = (
    "nova 34 (2026.2, from PyPI) with the fake virt driver; ../shared/realcloud/start.sh on"
    " 127.0.0.1 with default policies. Recorded %s by tests/fidelity/record_nova_extensions.py"
    " (issue 23) as admin@admin."
)


def record() -> None:
    auth = v3.Password(
        auth_url=KEYSTONE,
        username="admin",
        password="secret",  # the rig's admin (../shared/realcloud/README.md)
        project_name="admin",
        user_domain_name="Default",
        project_domain_name="Default",
    )
    session = ks_session.Session(auth=auth, timeout=TIMEOUT)

    def get(path: str, version: str) -> int:
        headers = {"OpenStack-API-Version": "compute " + version}
        return session.get(NOVA + path, headers=headers, raise_exc=False).status_code

    max_version = session.get(NOVA + "/", raise_exc=False).json()["version"]["version"]
    listed = session.get(NOVA + "/extensions").json()["extensions"]
    aliases = [extension["alias"] for extension in listed]
    paths = {alias: {v: get("/" + alias, v) for v in ("2.1", max_version)} for alias in aliases}
    body = {
        "source": SOURCE % datetime.date.today().isoformat(),
        "max_version": max_version,
        "extensions": aliases,
        "paths": paths,
    }
    OUT.write_text(json.dumps(body, indent=1) + "\n")
    print("wrote %s (%d aliases)" % (OUT, len(aliases)))


if __name__ == "__main__":
    record()
