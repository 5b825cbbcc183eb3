"""Authorization of Cinder's volume transfer routes (``/os-volume-transfer``
and ``/volume-transfers``, the same controller).

Cinder's defaults (``cinder/policies/volume_transfer.py``): a project's
readers list and show the transfers of its volumes, its members create
(a transfer of one of its volumes: another project's is 404) and delete
them; admins see every project's. Any member of any project may accept a
transfer, with its auth key: the matrix sends a wrong one, Cinder's 400
``Invalid auth key`` for every caller allowed to try (the key, not the
project, guards a transfer), and nothing changes. ``{transfer_id}`` is a
transfer of a volume of A's. The volume summary (3.12) is any project
member's own (an admin's ``all_tenants``: every project's); a snapshot's
metadata is read by A's readers and written by its members. User
messages (3.3) are a project's own: ``{message_id}`` is one of A's,
recorded as a failed backup records it.
"""

from occli.localcloud.volume import messages
from tests.security.authz_ext_volume import _headers
from tests.security.authz_ext_volume import _new_snapshot
from tests.security.authz_ext_volume import _new_volume

_BASES = ("/v3/os-volume-transfer", "/v3/volume-transfers")


def _new_transfer(world):
    volume_id = _new_volume(world)
    response = world.as_(
        "a_member",
        "POST",
        "/volume/v3/volume-transfers",
        headers=_headers(None),
        json_body={
            "transfer": {
                "volume_id": volume_id,
                "name": world.secret("authz-a-transfer-%d" % len(world.secrets)),
            }
        },
    )
    assert response.status == 202, response.body
    world.secret(response.json()["transfer"]["auth_key"])
    return world.secret(response.json()["transfer"]["id"])


def _add_metadata(world, snapshot_id):
    response = world.as_(
        "a_member",
        "POST",
        "/volume/v3/snapshots/%s/metadata" % snapshot_id,
        headers=_headers(None),
        json_body={"metadata": {world.ids["key"]: "authz-a-value"}},
    )
    assert response.status == 200, response.body
    return snapshot_id


def _new_snapshot_with_metadata(world):
    """A snapshot of A's whose metadata has ``{key}`` (this module's
    factory replaces authz_ext_volume's, which it extends)."""
    return _add_metadata(world, _new_snapshot(world))


def _new_message(world):
    with world.cloud.store.transaction() as db:
        made = messages.create(db, world.projects["A"], "VOLUME_BACKUP", None, "013", "020")
    return world.secret(made["id"])


FACTORIES = {
    "transfer_id": _new_transfer,
    "snapshot_id": _new_snapshot_with_metadata,
    "message_id": _new_message,
}


def setup(world, ids):
    ids["transfer_id"] = _new_transfer(world)
    ids["message_id"] = _new_message(world)
    _add_metadata(world, ids["snapshot_id"])


def rules():
    from tests.security.test_authz_matrix import rule

    def r(access, ok=200, **kw):
        return rule(access, ok, headers=_headers, **kw)

    table = {
        ("volume", "GET", "/v3/volumes/summary"): r("any"),
        ("volume", "GET", "/v3/messages"): r("any"),
        ("volume", "GET", "/v3/messages/{message_id}"): r("read"),
        ("volume", "DELETE", "/v3/messages/{message_id}"): r("write", 204, fresh=("message_id",)),
    }
    meta = "/v3/snapshots/{snapshot_id}/metadata"
    new = {"metadata": {"authz": "new"}}
    table.update(
        {
            ("volume", "GET", meta): r("read"),
            ("volume", "POST", meta): r("write", fresh=("snapshot_id",), body=lambda ids: new),
            ("volume", "PUT", meta): r("write", fresh=("snapshot_id",), body=lambda ids: new),
            ("volume", "GET", meta + "/{key}"): r("read"),
            ("volume", "PUT", meta + "/{key}"): r(
                "write", fresh=("snapshot_id",), body=lambda ids: {"meta": {ids["key"]: "new"}}
            ),
            ("volume", "DELETE", meta + "/{key}"): r("write", fresh=("snapshot_id",)),
        }
    )
    for base in _BASES:
        one = base + "/{transfer_id}"
        table.update(
            {
                ("volume", "GET", base): r("any"),
                ("volume", "GET", base + "/detail"): r("any"),
                ("volume", "POST", base): r(
                    "write",
                    202,
                    fresh=("volume_id",),
                    body=lambda ids: {"transfer": {"volume_id": ids["volume_id"]}},
                ),
                ("volume", "GET", one): r("read"),
                ("volume", "DELETE", one): r("write", 202, fresh=("transfer_id",)),
                ("volume", "POST", one + "/accept"): r(
                    "create", 400, body=lambda ids: {"accept": {"auth_key": "0" * 16}}
                ),
            }
        )
    return table
