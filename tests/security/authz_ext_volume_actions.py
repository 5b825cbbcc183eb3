"""Authorization of Cinder's attachments API writes (3.27+,
``cinder/policies/attachments.py``): a project's members create an
attachment of one of its volumes (another project's volume is 404) and
update, complete and delete its attachments (another project's are 404);
readers are refused the writes (403). Each allowed write gets a fresh
reserved attachment of a fresh volume of A (``{attachment_id}``), so a
delete is not Cinder's 409 for an attachment Nova still uses.
"""

from tests.security.authz_ext_volume import _headers
from tests.security.authz_ext_volume import _new_volume

ONE = "/v3/attachments/{attachment_id}"
SERVER = "11111111-2222-4333-8444-555555555555"
CONNECTOR = {"host": "authz-host", "mountpoint": "/dev/vdb"}


def _new_attachment(world):
    response = world.as_(
        "a_member",
        "POST",
        "/volume/v3/attachments",
        headers=_headers(None),
        json_body={"attachment": {"volume_uuid": _new_volume(world), "instance_uuid": SERVER}},
    )
    assert response.status == 200, response.body
    return world.secret(response.json()["attachment"]["id"])


FACTORIES = {"attachment_id": _new_attachment}


def rules():
    from tests.security.test_authz_matrix import rule

    def r(access, ok=200, **kw):
        return rule(access, ok, headers=_headers, **kw)

    return {
        ("volume", "POST", "/v3/attachments"): r(
            "write",
            fresh=("volume_id",),
            body=lambda ids: {
                "attachment": {"volume_uuid": ids["volume_id"], "instance_uuid": SERVER}
            },
        ),
        ("volume", "PUT", ONE): r(
            "write",
            fresh=("attachment_id",),
            body=lambda ids: {"attachment": {"connector": CONNECTOR}},
        ),
        ("volume", "DELETE", ONE): r("write", fresh=("attachment_id",)),
        ("volume", "POST", ONE + "/action"): r(
            "write", 204, fresh=("attachment_id",), body=lambda ids: {"os-complete": None}
        ),
    }
