"""Authorization of the local Cinder's manage existing (3.8
``POST /manageable_volumes``, the legacy ``POST /os-volume-manage``;
Cinder 29's ``cinder/policies/manageable_volumes.py`` ``MANAGE_POLICY``:
``RULE_ADMIN_API``). The admin's volume is made ``managing`` (202), bound
for ``error_managing`` as the backend holds no such logical volume;
nothing here is a secret of A."""

_V = {"OpenStack-API-Version": "volume 3.70"}


def rules():
    from tests.security.test_authz_matrix import rule

    def body(ids):
        return {"volume": {"host": "localcloud@lvm#lvm", "ref": {"source-name": "authz-lv"}}}

    return {
        ("volume", "POST", path): rule("admin", 202, headers=lambda ids: _V, body=body)
        for path in ("/v3/manageable_volumes", "/v3/os-volume-manage")
    }
