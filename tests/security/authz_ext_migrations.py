"""Authorization of the migration routes (nova's defaults: admin only).

``/servers/{id}/migrations…`` look the server up first, as nova does (``admin_of``): B's
member gets A's server's 404, A's own callers the policy's 403. A's server
is not migrating, so the admin's abort and force-complete are refused by
the state check (409) and its show finds no live migration in progress
(404); the success paths are in tests/unit/localcloud/test_migrations.py.
"""

_SERVER_MIGRATIONS = "/v2.1/servers/{server_id}/migrations"


def rules():
    from tests.security.test_authz_matrix import rule

    def one(ids):
        return {"migration_id": "1"}

    return {
        ("compute", "GET", "/v2.1/os-migrations"): rule("admin"),
        ("compute", "GET", _SERVER_MIGRATIONS): rule("admin_of"),
        ("compute", "GET", _SERVER_MIGRATIONS + "/{migration_id}"): rule(
            "admin_of", 404, params=one
        ),
        ("compute", "DELETE", _SERVER_MIGRATIONS + "/{migration_id}"): rule(
            "admin_of", 409, params=one
        ),
        ("compute", "POST", _SERVER_MIGRATIONS + "/{migration_id}/action"): rule(
            "admin_of",
            409,
            params=one,
            body=lambda ids: {"force_complete": None},
        ),
    }
