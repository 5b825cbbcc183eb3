"""Authorization of the APIs nova removed (issue 23): nova 34 keeps their
routes and answers 410 Gone for every project token, member or not, at
every microversion, before any policy
(tests/fixtures/compute/realcloud/nova-34-removed.json); an ``/action``
route is asked one of its own actions."""

# values of the path parameters these routes alone have
_PARAMS = {
    "agent_id": "1",
    "cell_id": "c1",
    "certificate_id": "root",
    "cloudpipe_id": "configure-project",
    "fixed_ip": "10.0.0.1",
    "domain_id": "example.org",
    "entry_id": "a",
    "bulk_id": "host1",
    "fping_id": "1",
    "rule_id": "1",
    "console_id": "1",
}
_ACTION_BODIES = {
    "/os-fixed-ips/{fixed_ip}/action": {"reserve": None},
    "/os-networks/{network_id}/action": {"disassociate": None},
}


def _params(ids):
    return dict(_PARAMS)


def rules():
    from occli.localcloud.compute.api import removed
    from tests.security.test_authz_matrix import rule

    table = {
        ("compute", method, "/v2.1" + pattern): rule("any", 410, params=_params)
        for method, pattern in removed.ROUTES
    }
    for pattern in removed.ACTIONS:
        body = _ACTION_BODIES[pattern]
        table[("compute", "POST", "/v2.1" + pattern)] = rule(
            "any", 410, params=_params, body=lambda ids, body=body: body
        )
    return table
