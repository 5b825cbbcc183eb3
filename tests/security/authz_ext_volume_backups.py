"""Authorization of Cinder's backup routes (``/backups``).

Cinder's defaults (``cinder/policies/backups.py``,
``cinder/policies/backup_actions.py``): a project's readers list and show
its backups, its members create them (of one of its volumes: another
project's volume is 404), update, delete and restore them; admins see every
project's; exporting and importing the record (``backup:export-import``,
``backup:backup-import``) and the ``os-reset_status``/``os-force_delete``
actions are the admin's (another project's backup is 404 first).
``{backup_id}`` is a backup of a volume of A's.
"""

import base64
import json
import uuid

from tests.security.authz_ext_volume import _headers
from tests.security.authz_ext_volume import _new_volume


def _new_backup(world):
    volume_id = _new_volume(world)
    response = world.as_(
        "a_member",
        "POST",
        "/volume/v3/backups",
        headers=_headers(None),
        json_body={
            "backup": {
                "volume_id": volume_id,
                "name": world.secret("authz-a-backup-%d" % len(world.secrets)),
            }
        },
    )
    assert response.status == 202, response.body
    backup_id = response.json()["backup"]["id"]
    # build_time=0: the next read makes it available
    world.as_("a_member", "GET", "/volume/v3/backups/" + backup_id, headers=_headers(None))
    return world.secret(backup_id)


def _record(ids):
    """A record of a backup no one has (a fresh id each time)."""
    fields = {"id": str(uuid.uuid4()), "size": 1}
    url = base64.b64encode(json.dumps(fields).encode()).decode()
    return {
        "backup-record": {
            "backup_service": "cinder.backup.drivers.swift.SwiftBackupDriver",
            "backup_url": url,
        }
    }


FACTORIES = {"backup_id": _new_backup}


def setup(world, ids):
    world.as_(
        "admin",
        "PUT",
        "/volume/v3/os-quota-sets/" + world.projects["A"],
        headers=_headers(None),
        json_body={"quota_set": {"backups": -1, "backup_gigabytes": -1}},
    )
    ids["backup_id"] = _new_backup(world)


def rules():
    from tests.security.test_authz_matrix import rule

    def r(access, ok=200, **kw):
        return rule(access, ok, headers=_headers, **kw)

    one = "/v3/backups/{backup_id}"
    return {
        ("volume", "GET", "/v3/backups"): r("any"),
        ("volume", "GET", "/v3/backups/detail"): r("any"),
        ("volume", "POST", "/v3/backups"): r(
            "write",
            202,
            fresh=("volume_id",),
            body=lambda ids: {"backup": {"volume_id": ids["volume_id"]}},
        ),
        ("volume", "POST", "/v3/backups/import_record"): r("admin", 201, body=_record),
        ("volume", "GET", one): r("read"),
        ("volume", "PUT", one): r("write", body=lambda ids: {"backup": {"name": "authz-b"}}),
        ("volume", "DELETE", one): r("write", 202, fresh=("backup_id",)),
        ("volume", "POST", one + "/restore"): r("write", 202, body=lambda ids: {"restore": {}}),
        ("volume", "GET", one + "/export_record"): r("admin_of"),
        ("volume", "POST", one + "/action"): r(
            "admin_of", 202, body=lambda ids: {"os-reset_status": {"status": "available"}}
        ),
    }
