"""Authorization of nova's old proxy and service routes (issue 23), nova
34's default policies: ``os-server-external-events`` and
``os-assisted-volume-snapshots`` (``service_or_admin``: the admin here,
everybody else the policy's 403)."""


def _event(ids):
    return {"events": [{"name": "network-changed", "server_uuid": ids["server_id"]}]}


def rules():
    from tests.security.test_authz_matrix import rule

    return {
        ("compute", "POST", "/v2.1/os-server-external-events"): rule("admin", body=_event),
    }
