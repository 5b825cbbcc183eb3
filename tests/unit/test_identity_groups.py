"""Group manager and commands (requests-mock, keystone's api-ref samples in
``tests/fixtures/identity/groups``): ``client.groups``, group grants
through ``client.roles``, ``role assignment list --group``, and
``group …`` with OSC's options, columns and output lines."""

import copy
from typing import Any

import pytest

from occli import exceptions

from .fakes import BASE
from .fakes import load_fixture

IDENTITY = BASE + "/identity/v3"
GROUP = "c0d675eac29945ad9dfd08aa1bb75751"  # group-create-response.json
USER = "9fe1d3"  # identity/admin/user-show-response.json


def sample(name, folder="groups"):
    return copy.deepcopy(load_fixture("identity", folder, name))


def keystone_error(status, message):
    return {
        "status_code": status,
        "json": {"error": {"code": status, "title": "Error", "message": message}},
    }


@pytest.fixture
def keystone(mock_cloud):
    """The samples served: the group by id and by name, one user."""
    m = mock_cloud.mock
    shown = sample("group-create-response.json")
    m.get(IDENTITY + "/groups/" + GROUP, json=shown)
    m.get(IDENTITY + "/groups?name=devs", json={"groups": [dict(shown["group"], name="devs")]})
    m.get(IDENTITY + "/users/" + USER, json=sample("user-show-response.json", "admin"))
    m.get(IDENTITY + "/groups/devs", **keystone_error(404, "Could not find group: devs."))
    for kind in ("groups", "users", "domains"):
        m.get(
            IDENTITY + "/%s/nosuch" % kind,
            **keystone_error(404, "Could not find %s: nosuch." % kind[:-1]),
        )
        m.get(IDENTITY + "/%s?name=nosuch" % kind, json={kind: [], "links": {}})
    return m


def test_group_list_and_user_groups(client, keystone):
    keystone.get(IDENTITY + "/groups", json=sample("groups-list-response.json"))
    groups = client.groups.list(domain="default")
    assert [g.name for g in groups] == ["nonadmins", "admins"]
    assert keystone.last_request.qs == {"domain_id": ["default"]}
    keystone.get(
        IDENTITY + "/users/%s/groups" % USER, json=sample("user-groups-list-response.json")
    )
    mine = client.groups.list(user=USER, name="Developers")
    assert [g.membership_expires_at for g in mine] == [None, "2016-11-06T15:32:17.000000"]
    assert keystone.last_request.path == "/identity/v3/users/%s/groups" % USER
    assert keystone.last_request.qs == {"name": ["developers"]}


def test_group_create_update_and_membership(client, keystone):
    keystone.post(IDENTITY + "/groups", status_code=201, json=sample("group-create-response.json"))
    created = client.groups.create("Contract developers", domain="default", description="d")
    assert created.id == GROUP
    assert keystone.last_request.json() == {
        "group": {"name": "Contract developers", "domain_id": "default", "description": "d"}
    }
    keystone.patch(IDENTITY + "/groups/" + GROUP, json=sample("group-create-response.json"))
    client.groups.update(GROUP, description="new")
    assert keystone.last_request.json() == {"group": {"description": "new"}}
    with pytest.raises(exceptions.ValidationError):
        client.groups.update(GROUP)
    member = IDENTITY + "/groups/%s/users/%s" % (GROUP, USER)
    keystone.put(member, status_code=204)
    keystone.head(member, status_code=204)
    keystone.delete(member, status_code=204)
    client.groups.add_user(GROUP, USER)
    assert client.groups.has_user(GROUP, USER)
    client.groups.remove_user(GROUP, USER)
    assert [r.method for r in keystone.request_history if r.url == member] == [
        "PUT",
        "HEAD",
        "DELETE",
    ]
    keystone.head(IDENTITY + "/groups/%s/users/other" % GROUP, status_code=404)
    assert not client.groups.has_user(GROUP, "other")
    keystone.get(
        IDENTITY + "/groups/%s/users" % GROUP,
        json={"users": [sample("user-show-response.json", "admin")["user"]], "links": {}},
    )
    assert [u.id for u in client.groups.users(GROUP)] == [USER]


def test_group_grants_and_assignments(client, mock_cloud):
    m = mock_cloud.mock
    path = IDENTITY + "/domains/d1/groups/g1/roles/r1"
    m.put(path, status_code=204)
    m.head(path, status_code=204)
    m.delete(path, status_code=204)
    client.roles.grant("r1", group="g1", domain="d1")
    assert client.roles.has_grant("r1", group="g1", domain="d1")
    client.roles.revoke("r1", group="g1", domain="d1")
    assert [r.method for r in m.request_history if r.url == path] == ["PUT", "HEAD", "DELETE"]
    before = len(m.request_history)
    for kwargs in ({"user": "u1", "group": "g1", "project": "p1"}, {"project": "p1"}):
        with pytest.raises(exceptions.ValidationError):
            client.roles.grant("r1", **kwargs)
    assert len(m.request_history) == before
    m.get(IDENTITY + "/role_assignments", json={"role_assignments": [], "links": {}})
    client.role_assignments.list(group="g1", include_names=True)
    assert m.last_request.qs == {"group.id": ["g1"], "include_names": ["true"]}
    before = len(m.request_history)
    refused: list[dict[str, Any]] = [
        {"group": "g1", "effective": True},
        {"group": "g1", "user": "u1"},
    ]
    for filters in refused:
        with pytest.raises(exceptions.ValidationError):
            client.role_assignments.list(**filters)
    assert len(m.request_history) == before


def test_group_show_and_create_columns(cli, keystone):
    code, out, err = cli("group", "show", "-f", "value", "-c", "name", "-c", "domain_id", GROUP)
    assert (code, out) == (0, "default\nContract developers\n"), err
    code, out, err = cli("group", "show", "-f", "json", "devs")
    assert code == 0, err
    assert out.count('"description"') == 1 and '"links"' not in out


def test_group_create_or_show(cli, keystone):
    keystone.post(
        IDENTITY + "/groups",
        **keystone_error(
            409,
            "Conflict occurred attempting to store group - Duplicate entry found with"
            " name devs at domain ID default.",
        ),
    )
    code, out, err = cli("group", "create", "devs")
    assert code == 1
    assert "Duplicate entry found with name devs" in err
    code, out, err = cli("group", "create", "--or-show", "-f", "value", "-c", "id", "devs")
    assert (code, out) == (0, GROUP + "\n"), err


def test_group_list_long_and_by_user(cli, keystone):
    keystone.get(IDENTITY + "/groups", json=sample("groups-list-response.json"))
    code, out, err = cli("group", "list", "--long", "-f", "csv")
    assert code == 0, err
    assert out.splitlines()[0] == '"ID","Name","Domain ID","Description"'
    keystone.get(
        IDENTITY + "/users/%s/groups" % USER, json=sample("user-groups-list-response.json")
    )
    code, out, err = cli("group", "list", "--user", USER, "-f", "value", "-c", "Name")
    assert (code, out) == (0, "Developers\nSecure Developers\n"), err


def test_group_set_needs_a_change(cli, keystone):
    before = len(keystone.request_history)
    code, out, err = cli("group", "set", GROUP)
    assert code == 2
    assert err.strip() == "Nothing to change: give --name or --description."
    assert len(keystone.request_history) == before


def test_group_contains_user_lines(cli, keystone):
    member = IDENTITY + "/groups/%s/users/%s" % (GROUP, USER)
    keystone.head(member, status_code=204)
    code, out, err = cli("group", "contains", "user", GROUP, USER)
    assert (code, out, err) == (0, "%s in group %s\n" % (USER, GROUP), "")
    keystone.head(member, status_code=404)
    code, out, err = cli("group", "contains", "user", GROUP, USER)
    assert (code, out, err) == (0, "", "%s not in group %s\n" % (USER, GROUP))
    keystone.head(member, status_code=403)
    code, out, err = cli("group", "contains", "user", GROUP, USER)
    assert (code, out, err.splitlines()[-1]) == (0, "", "%s not in group %s" % (USER, GROUP))


def test_group_add_and_remove_users_report_each_failure(cli, keystone):
    member = IDENTITY + "/groups/%s/users/%s" % (GROUP, USER)
    keystone.put(member, status_code=204)
    keystone.delete(member, status_code=204)
    code, out, err = cli("group", "add", "user", GROUP, USER, "nosuch")
    assert code == 1
    assert "Failed to add user nosuch to group %s" % GROUP in err
    assert [r.method for r in keystone.request_history if r.url == member] == ["PUT"]
    code, out, err = cli("group", "remove", "user", GROUP, USER)
    assert (code, out) == (0, ""), err
    code, out, err = cli("group", "delete", "nosuch")
    assert code == 1 and "Failed to delete group nosuch" in err


def test_role_add_and_remove_for_a_group(cli, keystone):
    role = "1e443fa8cee3482a8a2b6954dd5c8f12"
    keystone.get(IDENTITY + "/roles/" + role, json=sample("role-show-response.json", "admin"))
    path = IDENTITY + "/domains/default/groups/%s/roles/%s" % (GROUP, role)
    keystone.get(IDENTITY + "/domains/default", json=sample("domain-show-response.json", "admin"))
    keystone.put(path, status_code=204)
    keystone.delete(path, status_code=204)
    code, out, err = cli("role", "add", "--group", GROUP, "--domain", "default", role)
    assert (code, out) == (0, ""), err
    code, out, err = cli("role", "remove", "--group", GROUP, "--domain", "default", role)
    assert (code, out) == (0, ""), err
    assert [r.method for r in keystone.request_history if r.url == path] == ["PUT", "DELETE"]
    before = len(keystone.request_history)
    code, out, err = cli("role", "add", "--group", GROUP, "--user", USER, "--domain", "d", role)
    assert (code, err.strip()) == (2, "Give --user or --group, not both.")
    code, out, err = cli("role", "add", "--domain", "d", role)
    assert (code, err.strip()) == (2, "Give either --user or --group.")
    assert not [r for r in keystone.request_history[before:] if "/identity/v3/" in r.url]


def test_role_assignment_list_group(cli, keystone):
    assignment = {
        "group": {"id": GROUP},
        "role": {"id": "r1"},
        "scope": {"project": {"id": "p1"}},
        "links": {"assignment": "x"},
    }
    keystone.get(
        IDENTITY + "/role_assignments", json={"role_assignments": [assignment], "links": {}}
    )
    code, out, err = cli("role", "assignment", "list", "--group", GROUP, "-f", "csv")
    assert code == 0, err
    assert out.splitlines()[1] == '"r1","","%s","p1","","",False' % GROUP
    assert keystone.last_request.qs == {"group.id": [GROUP]}
    code, out, err = cli("role", "assignment", "list", "--group", GROUP, "--effective")
    assert (code, err.strip()) == (
        2,
        "Give --group or --effective, not both: the effective assignments are the users'.",
    )
