"""Authorization of the smaller server routes of issue 11 (nova's default
policies): remote consoles (``os-remote-consoles``: member or admin of the
server's project), ``/ips`` (readers), ``/extensions`` (any token) and
``os-server-password`` (show: readers; clear: members). A's matrix server
has no network, so ``/ips/{network}`` answers its 404 to A's own callers
too (``Instance is not a member of specified network``)."""

SERVER = "/v2.1/servers/{server_id}"


def rules():
    from tests.security.test_authz_matrix import rule

    return {
        # no console proxy runs: an allowed caller gets nova's 400
        # "Unavailable console type novnc." (tests/unit/localcloud/test_consoles.py)
        ("compute", "POST", SERVER + "/remote-consoles"): rule(
            "write",
            400,
            body=lambda ids: {"remote_console": {"protocol": "vnc", "type": "novnc"}},
        ),
        ("compute", "GET", SERVER + "/ips"): rule("read"),
        ("compute", "GET", SERVER + "/ips/{network}"): rule(
            "read", 404, params=lambda ids: {"network": "private"}
        ),
        ("compute", "GET", "/v2.1/extensions"): rule("any"),
        ("compute", "GET", "/v2.1/extensions/{alias}"): rule(
            "any", params=lambda ids: {"alias": "os-server-password"}
        ),
        ("compute", "GET", SERVER + "/os-server-password"): rule("read"),
        ("compute", "DELETE", SERVER + "/os-server-password"): rule("write", 204),
    }
