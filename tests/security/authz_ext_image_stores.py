"""Authorization of the local Glance's store details (issue 20, glance
33's default ``stores_info_detail`` policy, ``ADMIN_OR_SERVICE_ROLE``):
``GET /v2/info/stores/detail`` for admins only, as the real Glance 33
answered (``tests/fixtures/image/realcloud/glance-33-imports.json``)."""


def rules():
    from tests.security.test_authz_matrix import rule

    return {
        ("image", "GET", "/v2/info/stores/detail"): rule("admin"),
    }
