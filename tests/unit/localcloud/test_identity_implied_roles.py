"""Keystone's implied roles in the local cloud: bootstrap's
admin ⇒ manager ⇒ member ⇒ reader as data,
``/v3/roles/{prior}/implies[/{implied}]`` and ``/v3/role_inferences``
with keystone's bodies and texts (``keystone/api/roles.py``,
``_shared/implied_roles.py``, ``exception.py``), and a token carrying the
roles a new rule implies."""

import json
import os

import pytest

from tests.unit.localcloud.test_identity_admin import ADMIN_SCOPE
from tests.unit.localcloud.test_identity_admin import Admin
from tests.unit.localcloud.test_identity_admin import error
from tests.unit.localcloud.test_identity_admin import new_role
from tests.unit.localcloud.test_identity_admin import role_id

SAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "fixtures", "identity", "system")
DENIED = "You are not authorized to perform the requested action: identity:%s."


def sample(name):
    """A keystone api-ref sample (``tests/fixtures/identity/system``)."""
    with open(os.path.join(SAMPLES, name)) as f:
        return json.load(f)


@pytest.fixture
def admin(client):
    return Admin(client, client.token("admin", scope=ADMIN_SCOPE))


def implies(prior, implied=None):
    path = "/v3/roles/%s/implies" % prior
    return path + "/" + implied if implied else path


def test_bootstrap_inference_rules(admin):
    ids = {name: role_id(admin, name) for name in ("admin", "manager", "member", "reader")}
    rules = admin("GET", "/v3/role_inferences").json()["role_inferences"]
    found = {r["prior_role"]["name"]: [i["name"] for i in r["implies"]] for r in rules}
    assert found == {"admin": ["manager"], "manager": ["member"], "member": ["reader"]}
    listed = admin("GET", implies(ids["admin"])).json()
    assert listed["role_inference"]["prior_role"] == {
        "id": ids["admin"],
        "links": {"self": listed["role_inference"]["prior_role"]["links"]["self"]},
        "name": "admin",
    }
    assert listed["role_inference"]["prior_role"]["links"]["self"].endswith(
        "/v3/roles/" + ids["admin"]
    )
    assert [r["id"] for r in listed["role_inference"]["implies"]] == [ids["manager"]]
    assert listed["links"]["self"].endswith(implies(ids["admin"]))


def test_create_show_check_delete(client, admin):
    prior, implied = new_role(admin, "operator"), new_role(admin, "observer")
    created = admin("PUT", implies(prior, implied))
    assert created.status == 201, created.body
    body = created.json()
    assert body["role_inference"]["prior_role"]["name"] == "operator"
    assert body["role_inference"]["implies"]["name"] == "observer"
    assert body["links"]["self"].endswith(implies(prior, implied))
    assert admin("GET", implies(prior, implied)).json() == body
    assert admin("HEAD", implies(prior, implied)).status == 204
    # keystone 30's answer to the same rule again
    again = admin("PUT", implies(prior, implied))
    assert (again.status, error(again)) == (
        409,
        "Conflict occurred attempting to store implied_role - Duplicate entry.",
    )
    # a user with the prior role gets the implied one in its token
    (demo,) = admin("GET", "/v3/users?name=demo").json()["users"]
    (project,) = admin("GET", "/v3/projects?name=demo").json()["projects"]
    grant = "/v3/projects/%s/users/%s/roles/%s" % (project["id"], demo["id"], prior)
    assert admin("PUT", grant).status == 204
    token = client.authenticate("demo").json()["token"]
    assert {"operator", "observer"} <= {r["name"] for r in token["roles"]}
    effective = admin("GET", "/v3/role_assignments?effective&user.id=" + demo["id"]).json()
    inferred = [a for a in effective["role_assignments"] if a["role"]["id"] == implied]
    assert inferred and inferred[0]["links"]["prior_role"].endswith(
        "/v3/prior_role/%s/implies/%s" % (implied, prior)
    )
    assert admin("DELETE", implies(prior, implied)).status == 204
    token = client.authenticate("demo").json()["token"]
    assert "observer" not in {r["name"] for r in token["roles"]}
    gone = admin("GET", implies(prior, implied))
    assert (gone.status, error(gone)) == (404, "%s does not imply %s." % (prior, implied))
    assert admin("DELETE", implies(prior, implied)).status == 404


def test_a_cycle_ends(client, admin):
    one, two = new_role(admin, "one"), new_role(admin, "two")
    assert admin("PUT", implies(one, two)).status == 201
    assert admin("PUT", implies(two, one)).status == 201
    (demo,) = admin("GET", "/v3/users?name=demo").json()["users"]
    (project,) = admin("GET", "/v3/projects?name=demo").json()["projects"]
    admin("PUT", "/v3/projects/%s/users/%s/roles/%s" % (project["id"], demo["id"], one))
    names = {r["name"] for r in client.authenticate("demo").json()["token"]["roles"]}
    assert {"one", "two"} <= names
    effective = admin("GET", "/v3/role_assignments?effective&user.id=" + demo["id"])
    assert effective.status == 200
    # a role may imply itself, as keystone 30 allows
    assert admin("PUT", implies(one, one)).status == 201
    assert admin("DELETE", implies(one, one)).status == 204


def test_refusals(client, admin):
    prior = new_role(admin, "prior")
    admin_role = role_id(admin, "admin")
    prohibited = admin("PUT", implies(prior, admin_role))
    assert (prohibited.status, error(prohibited)) == (
        403,
        "%s cannot be an implied roles." % admin_role,
    )
    unknown = admin("PUT", implies(prior, "nosuch"))
    assert (unknown.status, error(unknown)) == (404, "Could not find role: nosuch.")
    unknown = admin("GET", implies("nosuch"))
    assert (unknown.status, error(unknown)) == (404, "Could not find role: nosuch.")
    demo = Admin(client, client.token("demo"))
    reader = role_id(admin, "reader")
    for method, path, action in (
        ("PUT", implies(prior, reader), "create_implied_role"),
        ("DELETE", implies(role_id(admin, "member"), reader), "delete_implied_role"),
        ("GET", implies(prior), "list_implied_roles"),
        ("GET", implies(role_id(admin, "member"), reader), "get_implied_role"),
        ("GET", "/v3/role_inferences", "list_role_inference_rules"),
    ):
        refused = demo(method, path)
        assert (refused.status, error(refused)) == (403, DENIED % action), path
    refused = demo("HEAD", implies(role_id(admin, "member"), reader))
    assert refused.status == 403


def test_a_system_reader_reads_rules_but_cannot_write_them(client, admin):
    user = admin("POST", "/v3/users", {"user": {"name": "sr", "password": "pw-pw-pw"}})
    user_id = user.json()["user"]["id"]
    reader = role_id(admin, "reader")
    assert admin("PUT", "/v3/system/users/%s/roles/%s" % (user_id, reader)).status == 204
    token = client.token("sr", password="pw-pw-pw", scope={"system": {"all": True}})
    sr = Admin(client, token)
    assert sr("GET", "/v3/role_inferences").status == 200
    assert sr("GET", implies(role_id(admin, "member"), reader)).status == 200
    refused = sr("PUT", implies(new_role(admin, "x"), reader))
    assert (refused.status, error(refused)) == (403, DENIED % "create_implied_role")


def _shape(value):
    """The keys of a body, recursively (the samples' values are examples)."""
    if isinstance(value, dict):
        return {k: _shape(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_shape(value[0])] if value else []
    return None


def test_bodies_match_keystones_samples(admin):
    prior, implied = new_role(admin, "shape-a"), new_role(admin, "shape-b")
    created = admin("PUT", implies(prior, implied)).json()
    expected = sample("create-role-inferences-response.json")
    assert _shape(created) == _shape(expected)
    listed = admin("GET", implies(prior)).json()
    assert _shape(listed) == _shape(sample("list-implied-roles-for-role-response.json"))
