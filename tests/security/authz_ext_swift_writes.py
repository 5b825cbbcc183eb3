"""Authorization of the local Swift's metadata writes, copies and
capabilities (issue 20): container and object POST and object COPY need an
operator role on the account, as its other writes do (keystoneauth; a copy
needs a token, never a temp URL); ``GET /info`` is public, as the proxy
serves it."""


def rules():
    from tests.security.test_authz_matrix import CONTAINER
    from tests.security.test_authz_matrix import OBJECT
    from tests.security.test_authz_matrix import rule

    return {
        ("objectstore", "GET", "/info"): rule("public"),
        ("objectstore", "POST", CONTAINER): rule(
            "write",
            204,
            fresh=("container",),
            headers=lambda ids: {"X-Container-Meta-Authz-Probe": "1"},
        ),
        ("objectstore", "COPY", OBJECT): rule(
            "write",
            201,
            fresh=("container", "object"),
            headers=lambda ids: {"Destination": "%s/authz-copy" % ids["container"]},
        ),
        ("objectstore", "POST", OBJECT): rule(
            "write",
            202,
            fresh=("container", "object"),
            headers=lambda ids: {"X-Object-Meta-Authz-Probe": "1"},
        ),
    }
