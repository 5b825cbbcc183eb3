"""Authorization of keystone's EC2 API (keystone/common/policies/
ec2_credential.py and ec2tokens.py).

``/v3/users/{user_id}/credentials/OS-EC2`` (demo's): listing is for
admins, a system reader or the URL's user (any scope, unscoped
included); showing for admins or the credential's owner; creating and
deleting for admins or the owner with the member role (so not unscoped);
a restricted application credential creates none but deletes (keystone
checks ``unrestricted`` on create only). A delegated token reaches only
its project's credentials: the credentials here are on project A, the
application credentials' project. ``{credential_id}`` is the access key:
setup's credential for the reads, a throwaway one per delete.

``POST /v3/ec2tokens``: ``service_or_admin``; the body is a signature v2
request of setup's credential (no timestamp: keystone checks none)."""

_WORLD: list = []


def _new_ec2(world, ids):
    """A new EC2 credential of demo's on project A: its access and secret."""
    path = "/v3/users/%s/credentials/OS-EC2" % ids["user_id"]
    body = {"tenant_id": world.projects["A"]}
    response = world.as_("a_member", "POST", path, json_body=body)
    assert response.status == 201, response.body
    cred = response.json()["credential"]
    world.secret(cred["secret"])
    return cred


def _throwaway(ids):
    return {"credential_id": _new_ec2(_WORLD[0], ids)["access"]}


def _signed(ids):
    from occli.localcloud.identity import ec2_signature

    request = {
        "access": ids["ec2_access"],
        "host": "localhost",
        "verb": "GET",
        "path": "/",
        "params": {"Action": "DescribeRegions", "SignatureVersion": "2"},
    }
    request["signature"] = ec2_signature.generate(ids["ec2_secret"], dict(request))
    return {"credentials": request}


def setup(world, ids):
    _WORLD[:] = [world]
    cred = _new_ec2(world, ids)
    ids["ec2_access"], ids["ec2_secret"] = cred["access"], cred["secret"]


def rules():
    from tests.security.test_authz_matrix import rule

    path = "/v3/users/{user_id}/credentials/OS-EC2"
    access = {"params": lambda ids: {"credential_id": ids["ec2_access"]}}
    admins = {"domain": 200, "admin": 200}
    table = {
        ("GET", path): rule("owner_read", override=admins),
        ("POST", path): rule(
            "owner_write",
            201,
            body=lambda ids: {"tenant_id": _WORLD[0].projects["A"]},
            override={"domain": 201, "admin": 201, "unscoped": 403},
        ),
        ("GET", path + "/{credential_id}"): rule("owner_read", override=admins, **access),
        ("DELETE", path + "/{credential_id}"): rule(
            "owner_write",
            204,
            params=_throwaway,
            override={"domain": 204, "admin": 204, "unscoped": 403, "ac_restricted": 204},
        ),
        ("POST", "/v3/ec2tokens"): rule("admin", body=_signed),
    }
    return {("identity", method, route): value for (method, route), value in table.items()}
