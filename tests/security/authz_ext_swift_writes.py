"""Authorization of the local Swift's metadata writes and capabilities
(issue 20): container and object POST need an operator role on the
account, as its other writes do (keystoneauth); ``GET /info`` is public,
as the proxy serves it."""


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
        ("objectstore", "POST", OBJECT): rule(
            "write",
            202,
            fresh=("container", "object"),
            headers=lambda ids: {"X-Object-Meta-Authz-Probe": "1"},
        ),
    }
