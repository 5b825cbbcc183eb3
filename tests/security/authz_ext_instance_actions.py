"""Authorization of the routes of issue 11's instance actions, diagnostics
and topology (nova's default policies): ``os-instance-actions`` list and
show for the server project's readers (and admins), diagnostics for admins
only (another project's server is 404 first, as nova looks the server up
before its policy check), the topology (2.78) for readers. A's server's
``create`` action is the ``{request_id}`` shown."""

SERVER = "/v2.1/servers/{server_id}"
_V = "compute 2.96"


def setup(world, ids):
    listed = world.as_(
        "a_member",
        "GET",
        "/compute/v2.1/servers/%s/os-instance-actions" % ids["server_id"],
        headers={"OpenStack-API-Version": _V},
    ).json()["instanceActions"]
    ids["request_id"] = listed[-1]["request_id"]


def rules():
    from tests.security.test_authz_matrix import rule

    return {
        ("compute", "GET", SERVER + "/os-instance-actions"): rule("read"),
        ("compute", "GET", SERVER + "/os-instance-actions/{request_id}"): rule("read"),
        ("compute", "GET", SERVER + "/diagnostics"): rule("admin_of"),
        ("compute", "GET", SERVER + "/topology"): rule("read"),
    }
