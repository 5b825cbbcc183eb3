"""Authorization of the Cinder routes (``/volume/v3[/{project_id}]/…``) and
of Nova's volume routes (``os-volume_attachments``, the ``os-volumes`` and
``os-snapshots`` proxies: gone at the matrix's latest microversion).

Cinder's defaults: a project's readers read its volumes, snapshots,
attachments and quotas, its members write them; admins see every
project's (another project's volume is 404 to members); quota updates and
deletes are admin-only (``volume_extension:quotas:update``); types are
public. A URL naming another project is Cinder's 400 ``Malformed request
url``. Keys drop the ``/{project_id}`` segment as compute's do. A's volume
``{volume_id}`` carries the metadata key ``{key}`` and a snapshot
``{snapshot_id}``; ``{attachment_id}`` attaches A's ``{attached_volume_id}``
to A's server.
"""

_V = "volume 3.70"
_VOL = "/v3/volumes"
_SNAP = "/v3/snapshots"
_NOVA = "/v2.1/servers/{server_id}/os-volume_attachments"


def _attached(ids):
    return {"volume_id": ids["attached_volume_id"]}


def _headers(ids):
    return {"OpenStack-API-Version": _V}


def _new_volume(world):
    response = world.as_(
        "a_member",
        "POST",
        "/volume/v3/volumes",
        headers={"OpenStack-API-Version": _V},
        json_body={
            "volume": {
                "size": 1,
                "name": world.secret("authz-a-volume-%d" % len(world.secrets)),
                "metadata": {world.ids["key"]: "authz-a-value"},
            }
        },
    )
    volume_id = response.json()["volume"]["id"]
    # build_time=0: the next read makes it available
    world.as_("a_member", "GET", "/volume/v3/volumes/" + volume_id, headers=_headers(None))
    return world.secret(volume_id)


def _new_snapshot(world):
    volume_id = _new_volume(world)
    response = world.as_(
        "a_member",
        "POST",
        "/volume/v3/snapshots",
        headers=_headers(None),
        json_body={
            "snapshot": {
                "volume_id": volume_id,
                "name": world.secret("authz-a-snap-%d" % len(world.secrets)),
            }
        },
    )
    snapshot_id = response.json()["snapshot"]["id"]
    world.as_("a_member", "GET", "/volume/v3/snapshots/" + snapshot_id, headers=_headers(None))
    return world.secret(snapshot_id)


def setup(world, ids):
    # the matrix makes many throwaway volumes of A
    world.as_(
        "admin",
        "PUT",
        "/volume/v3/os-quota-sets/" + world.projects["A"],
        headers=_headers(None),
        json_body={"quota_set": {"volumes": -1, "snapshots": -1, "gigabytes": -1}},
    )
    ids["other_target_id"] = world.projects["B"]
    ids["volume_id"] = _new_volume(world)
    ids["snapshot_id"] = _new_snapshot(world)
    ids["type_id"] = "5fed9d7c-401d-46e2-8e80-f30c70cb7e1d"
    ids["item_id"] = ids["volume_id"]  # the proxies' (gone at the matrix's version)
    ids["target_id"] = world.projects["A"]
    ids["attached_volume_id"] = _new_volume(world)
    _attach(world, ids["server_id"], ids["attached_volume_id"])
    attachments = world.as_(
        "a_member", "GET", "/volume/v3/attachments", headers=_headers(None)
    ).json()["attachments"]
    attachments = [a for a in attachments if a["volume_id"] == ids["attached_volume_id"]]
    ids["attachment_id"] = world.secret(attachments[0]["id"])


def _attach(world, server_id, volume_id):
    response = world.as_(
        "a_member",
        "POST",
        "/compute/v2.1/servers/%s/os-volume_attachments" % server_id,
        headers={"OpenStack-API-Version": "compute 2.96"},
        json_body={"volumeAttachment": {"volumeId": volume_id}},
    )
    assert response.status == 200, response.body


def _attach_newest(world):
    """Attach the newest volume of A to A's newest server (the fresh
    ``server_id`` and ``volume_id`` made just before)."""
    headers = {"OpenStack-API-Version": "compute 2.96"}
    servers = world.as_("a_member", "GET", "/compute/v2.1/servers", headers=headers).json()[
        "servers"
    ]
    volumes = world.as_("a_member", "GET", "/volume/v3/volumes", headers=_headers(None)).json()[
        "volumes"
    ]
    _attach(world, servers[0]["id"], volumes[0]["id"])
    return "attached"


FACTORIES = {
    "volume_id": _new_volume,
    "snapshot_id": _new_snapshot,
    "attached": _attach_newest,
}


def rules():
    from tests.security.test_authz_matrix import _unique
    from tests.security.test_authz_matrix import rule

    def volume_body(ids):
        return {"volume": {"size": 1, "name": _unique("authz-new")}}

    def r(access, ok=200, **kw):
        return rule(access, ok, headers=_headers, **kw)

    return {
        ("volume", "GET", "/"): rule("public", 300),
        ("volume", "GET", "/v3"): rule("any"),
        ("volume", "GET", _VOL): r("any"),
        ("volume", "GET", _VOL + "/detail"): r("any"),
        ("volume", "POST", _VOL): r("create", 202, body=volume_body),
        ("volume", "GET", _VOL + "/{volume_id}"): r("read"),
        ("volume", "PUT", _VOL + "/{volume_id}"): r(
            "write", fresh=("volume_id",), body=lambda ids: {"volume": {"name": "authz-renamed"}}
        ),
        ("volume", "DELETE", _VOL + "/{volume_id}"): r("write", 202, fresh=("volume_id",)),
        ("volume", "POST", _VOL + "/{volume_id}/action"): r(
            "write", 202, fresh=("volume_id",), body=lambda ids: {"os-extend": {"new_size": 2}}
        ),
        ("volume", "GET", _VOL + "/{volume_id}/metadata"): r("read"),
        ("volume", "POST", _VOL + "/{volume_id}/metadata"): r(
            "write", fresh=("volume_id",), body=lambda ids: {"metadata": {"authz": "new"}}
        ),
        ("volume", "PUT", _VOL + "/{volume_id}/metadata"): r(
            "write", fresh=("volume_id",), body=lambda ids: {"metadata": {"authz": "new"}}
        ),
        ("volume", "GET", _VOL + "/{volume_id}/metadata/{key}"): r("read"),
        ("volume", "PUT", _VOL + "/{volume_id}/metadata/{key}"): r(
            "write", fresh=("volume_id",), body=lambda ids: {"meta": {ids["key"]: "new"}}
        ),
        ("volume", "DELETE", _VOL + "/{volume_id}/metadata/{key}"): r(
            "write", fresh=("volume_id",)
        ),
        ("volume", "GET", _SNAP): r("any"),
        ("volume", "GET", _SNAP + "/detail"): r("any"),
        ("volume", "POST", _SNAP): r(
            "write",
            202,
            fresh=("volume_id",),
            body=lambda ids: {"snapshot": {"volume_id": ids["volume_id"]}},
        ),
        ("volume", "GET", _SNAP + "/{snapshot_id}"): r("read"),
        ("volume", "PUT", _SNAP + "/{snapshot_id}"): r(
            "write", fresh=("snapshot_id",), body=lambda ids: {"snapshot": {"name": "renamed"}}
        ),
        ("volume", "DELETE", _SNAP + "/{snapshot_id}"): r("write", 202, fresh=("snapshot_id",)),
        ("volume", "POST", _SNAP + "/{snapshot_id}/action"): r(
            "admin_of", 202, fresh=("snapshot_id",), body=lambda ids: {"os-force_delete": {}}
        ),
        ("volume", "GET", "/v3/types"): r("any"),
        ("volume", "GET", "/v3/types/{type_id}"): r("any"),
        ("volume", "GET", "/v3/attachments"): r("any"),
        ("volume", "GET", "/v3/attachments/detail"): r("any"),
        ("volume", "GET", "/v3/attachments/{attachment_id}"): r("read"),
        ("volume", "GET", "/v3/os-quota-sets/{target_id}"): r("project_read"),
        ("volume", "GET", "/v3/os-quota-sets/{target_id}/defaults"): r("project_read"),
        ("volume", "PUT", "/v3/os-quota-sets/{target_id}"): r(
            "admin", body=lambda ids: {"quota_set": {"backups": 10}}
        ),
        # on B's quotas: deleting A's would bring back the limits A's
        # throwaway volumes exceed
        ("compute", "GET", _NOVA): rule("read"),
        ("compute", "POST", _NOVA): rule(
            "write",
            fresh=("server_id", "volume_id"),
            body=lambda ids: {"volumeAttachment": {"volumeId": ids["volume_id"]}},
        ),
        ("compute", "GET", _NOVA + "/{volume_id}"): rule("read", params=_attached),
        ("compute", "PUT", _NOVA + "/{volume_id}"): rule(
            "write",
            202,
            params=_attached,
            body=lambda ids: {
                "volumeAttachment": {"volumeId": ids["volume_id"], "delete_on_termination": False}
            },
        ),
        ("compute", "DELETE", _NOVA + "/{volume_id}"): rule(
            "write", 202, fresh=("server_id", "volume_id", "attached")
        ),
        **{
            ("compute", method, "/v2.1/" + base + tail): rule("gone")
            for base in ("os-volumes", "os-snapshots")
            for method, tail in (
                ("GET", ""),
                ("POST", ""),
                ("GET", "/detail"),
                ("GET", "/{item_id}"),
                ("DELETE", "/{item_id}"),
            )
        },
        ("volume", "DELETE", "/v3/os-quota-sets/{target_id}"): r(
            "admin", params=lambda ids: {"target_id": ids["other_target_id"]}
        ),
    }
