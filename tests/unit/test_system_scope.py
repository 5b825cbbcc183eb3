"""System scope and implied roles on the client side (requests-mock,
keystone's api-ref samples in ``tests/fixtures/identity``): system grants
through ``client.roles`` (``--system all``), ``role assignment list
--system``, ``client.inference_rules`` and ``implied role …`` with OSC's
columns, ``token issue``'s ``system`` field for a system-scoped token, and
the token cache keeping a system-scoped token apart."""

import copy

import pytest

from occli import exceptions

from .fakes import AUTH_URL
from .fakes import BASE
from .fakes import TOKEN
from .fakes import load_fixture

IDENTITY = BASE + "/identity/v3"
ROLE = "1e443fa8cee3482a8a2b6954dd5c8f12"  # identity/admin/role-show-response.json
USER = "9fe1d3"  # identity/admin/user-show-response.json


def sample(folder, name):
    return copy.deepcopy(load_fixture("identity", folder, name))


@pytest.fixture
def keystone(mock_cloud):
    m = mock_cloud.mock
    m.get(IDENTITY + "/roles/" + ROLE, json=sample("admin", "role-show-response.json"))
    m.get(IDENTITY + "/users/" + USER, json=sample("admin", "user-show-response.json"))
    return m


def test_system_grants_through_the_role_manager(client, keystone):
    path = IDENTITY + "/system/users/u1/roles/r1"
    group_path = IDENTITY + "/system/groups/g1/roles/r1"
    for url in (path, group_path):
        keystone.put(url, status_code=204)
        keystone.head(url, status_code=204)
        keystone.delete(url, status_code=204)
    client.roles.grant("r1", "u1", system="all")
    assert client.roles.has_grant("r1", "u1", system="all")
    client.roles.revoke("r1", "u1", system="all")
    client.roles.grant("r1", group="g1", system="all")
    assert [r.method for r in keystone.request_history if r.url == path] == [
        "PUT",
        "HEAD",
        "DELETE",
    ]
    assert [r.method for r in keystone.request_history if r.url == group_path] == ["PUT"]
    before = len(keystone.request_history)
    for kwargs in ({"project": "p1"}, {"domain": "d1"}):
        with pytest.raises(exceptions.ValidationError):
            client.roles.grant("r1", "u1", system="all", **kwargs)
    assert len(keystone.request_history) == before


def test_role_add_and_remove_on_the_system(cli, keystone):
    path = IDENTITY + "/system/users/%s/roles/%s" % (USER, ROLE)
    keystone.put(path, status_code=204)
    keystone.delete(path, status_code=204)
    code, out, err = cli("role", "add", "--user", USER, "--system", "all", ROLE)
    assert (code, out) == (0, ""), err
    code, out, err = cli("role", "remove", "--user", USER, "--system", "all", ROLE)
    assert (code, out) == (0, ""), err
    assert [r.method for r in keystone.request_history if r.url == path] == ["PUT", "DELETE"]
    before = len(keystone.request_history)
    code, _, err = cli("role", "add", "--user", USER, "--system", "all", "--project", "p", ROLE)
    assert (code, err.strip()) == (2, "Give one of --project, --domain or --system.")
    code, _, err = cli("role", "add", "--user", USER, "--system", "some", ROLE)
    assert code == 2 and "invalid choice: 'some'" in err
    assert not [r for r in keystone.request_history[before:] if "/identity/v3/" in r.url]


def test_role_assignment_list_system(cli, keystone):
    assignment = {
        "user": {"id": USER},
        "role": {"id": ROLE},
        "scope": {"system": {"all": True}},
        "links": {"assignment": IDENTITY + "/system/users/%s/roles/%s" % (USER, ROLE)},
    }
    keystone.get(
        IDENTITY + "/role_assignments", json={"role_assignments": [assignment], "links": {}}
    )
    code, out, err = cli("role", "assignment", "list", "--system", "all", "-f", "csv")
    assert code == 0, err
    assert out.splitlines()[1] == '"%s","%s","","","","all",False' % (ROLE, USER)
    assert keystone.last_request.qs == {"scope.system": ["all"]}
    before = len(keystone.request_history)
    code, _, err = cli("role", "assignment", "list", "--system", "all", "--project", "p")
    assert (code, err.strip()) == (2, "Give --system or --project/--domain, not both.")
    assert not [r for r in keystone.request_history[before:] if "/role_assignments" in r.url]


def test_inference_rules_manager(client, keystone):
    created = sample("system", "create-role-inferences-response.json")
    prior = created["role_inference"]["prior_role"]["id"]
    implied = created["role_inference"]["implies"]["id"]
    url = IDENTITY + "/roles/%s/implies/%s" % (prior, implied)
    keystone.put(url, status_code=201, json=created)
    keystone.get(url, json=created)
    keystone.head(url, status_code=204)
    keystone.delete(url, status_code=204)
    rule = client.inference_rules.create(prior, implied)
    assert (rule.prior_role["name"], rule.implies["name"]) == (
        "prior role name",
        "implied role name",
    )
    assert client.inference_rules.get(prior, implied).implies["id"] == implied
    assert client.inference_rules.check(prior, implied)
    client.inference_rules.delete(prior, implied)
    assert [r.method for r in keystone.request_history if r.url == url] == [
        "PUT",
        "GET",
        "HEAD",
        "DELETE",
    ]
    keystone.head(url, status_code=404, json={"error": {"code": 404, "message": "x"}})
    assert not client.inference_rules.check(prior, implied)
    listed = sample("system", "list-implied-roles-for-role-response.json")
    keystone.get(IDENTITY + "/roles/%s/implies" % prior, json=listed)
    assert len(client.inference_rules.list_implied(prior).implies) == 2


def test_implied_role_commands(cli, keystone):
    rules = sample("system", "role-inferences-response.json")
    keystone.get(IDENTITY + "/role_inferences", json=rules)
    code, out, err = cli("implied", "role", "list", "-f", "csv")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == '"Prior Role ID","Prior Role Name","Implied Role ID","Implied Role Name"'
    expected = [
        (r["prior_role"]["id"], r["prior_role"]["name"], i["id"], i["name"])
        for r in rules["role_inferences"]
        for i in r["implies"]
    ]
    assert lines[1:] == ['"%s","%s","%s","%s"' % row for row in expected]
    created = sample("system", "create-role-inferences-response.json")
    implied = created["role_inference"]["implies"]["id"]
    keystone.get(IDENTITY + "/roles/" + implied, json={"role": {"id": implied, "name": "x"}})
    keystone.put(
        IDENTITY + "/roles/%s/implies/%s" % (ROLE, implied), status_code=201, json=created
    )
    keystone.delete(IDENTITY + "/roles/%s/implies/%s" % (ROLE, implied), status_code=204)
    code, out, err = cli(
        "implied", "role", "create", ROLE, "--implied-role", implied, "-f", "json"
    )
    assert code == 0, err
    assert '"implies": "%s"' % implied in out
    assert '"prior_role": "%s"' % created["role_inference"]["prior_role"]["id"] in out
    code, out, err = cli("implied", "role", "delete", ROLE, "--implied-role", implied)
    assert (code, out) == (0, ""), err
    code, _, err = cli("implied", "role", "create", ROLE)
    assert code == 2 and "--implied-role" in err


def _system_token():
    from .fakes import catalog

    body = sample("tokens", "responses/system-scoped-password.json")
    body["token"]["expires_at"] = "2999-01-01T00:00:00.000000Z"
    body["token"]["catalog"] = catalog()
    return body


def test_token_issue_system_scoped(cli, mock_cloud, monkeypatch):
    mock_cloud.mock.post(
        AUTH_URL + "/auth/tokens",
        status_code=201,
        json=_system_token(),
        headers={"X-Subject-Token": TOKEN},
    )
    monkeypatch.delenv("OS_PROJECT_NAME")
    monkeypatch.delenv("OS_PROJECT_DOMAIN_ID")
    monkeypatch.setenv("OS_SYSTEM_SCOPE", "all")
    code, out, err = cli("token", "issue", "-f", "json")
    assert code == 0, err
    assert '"system": "all"' in out and '"project_id": null' in out
    posts = [r for r in mock_cloud.mock.request_history if r.method == "POST"]
    assert posts[-1].json()["auth"]["scope"] == {"system": {"all": True}}


def test_a_system_token_is_cached_apart():
    from occli.config import CloudConfig

    auth = {"auth_url": AUTH_URL, "username": "admin", "user_domain_id": "default"}

    def key(**scope):
        return CloudConfig(
            "x", {"auth": dict(auth, **scope), "auth_type": "password"}
        ).identity_key()

    assert key(system_scope="all") != key(project_name="admin") != key()
    assert key(system_scope="all") != key()
