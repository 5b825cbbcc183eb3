"""Project tags in the local Keystone: ``/v3/projects/{id}/tags[/{tag}]``
(admin writes, a project's own tokens read), ``tags`` in project bodies,
the four tag filters of the project list, keystone's limits and texts."""

import pytest

from tests.unit.localcloud.test_identity_admin import ADMIN_SCOPE
from tests.unit.localcloud.test_identity_admin import Admin
from tests.unit.localcloud.test_identity_admin import error
from tests.unit.localcloud.test_identity_app_credentials import pid

DENIED = "You are not authorized to perform the requested action: identity:%s."


@pytest.fixture
def admin(client):
    return Admin(client, client.token("admin", scope=ADMIN_SCOPE))


def new_project(admin, name, tags):
    result = admin("POST", "/v3/projects", {"project": {"name": name, "tags": tags}})
    assert result.status == 201, result.body
    return result.json()["project"]


def tags_of(admin, project_id):
    result = admin("GET", "/v3/projects/%s/tags" % project_id)
    assert result.status == 200, result.body
    return result.json()["tags"]


def test_list_add_check_delete_one_tag(client, admin):
    project = new_project(admin, "tagged", ["a", "b"])
    assert project["tags"] == ["a", "b"]
    listed = admin("GET", "/v3/projects/%s/tags" % project["id"]).json()
    assert listed["links"]["self"].endswith("/v3")
    added = admin("PUT", "/v3/projects/%s/tags/c" % project["id"])
    assert added.status == 201
    assert added.header("Location").endswith("/v3/%s/tags/c" % project["id"])
    assert tags_of(admin, project["id"]) == ["a", "b", "c"]
    assert admin("GET", "/v3/projects/%s/tags/a" % project["id"]).status == 204
    head = client.head("/v3/projects/%s/tags/nope" % project["id"], token=admin.token)
    assert head.status == 404
    assert admin("DELETE", "/v3/projects/%s/tags/a" % project["id"]).status == 204
    again = admin("DELETE", "/v3/projects/%s/tags/a" % project["id"])
    assert again.status == 404 and error(again) == "Could not find project tag: a."
    shown = admin("GET", "/v3/projects/" + project["id"]).json()["project"]
    assert shown["tags"] == ["b", "c"]


def test_replace_and_clear(admin):
    project = new_project(admin, "tagged", ["a"])
    path = "/v3/projects/%s/tags" % project["id"]
    replaced = admin("PUT", path, {"tags": ["x", " y "]})
    assert replaced.status == 200 and replaced.json()["tags"] == ["x", "y"]
    assert admin("DELETE", path).status == 204
    assert tags_of(admin, project["id"]) == []


def test_the_four_filters(admin):
    both = new_project(admin, "both", ["a", "b"])
    one = new_project(admin, "one", ["a"])

    def names(query):
        result = admin("GET", "/v3/projects?" + query)
        assert result.status == 200, result.body
        return {p["name"] for p in result.json()["projects"]} & {"both", "one"}

    assert names("tags=a,b") == {"both"}
    assert names("tags-any=a,b") == {"both", "one"}
    assert names("not-tags=a,b") == {"one"}
    assert names("not-tags-any=a,b") == set()
    assert names("tags=a&tags-any=b") == {"both"}
    assert both and one


def test_limits_and_texts(admin):
    project = new_project(admin, "tagged", [])
    path = "/v3/projects/%s/tags" % project["id"]
    bad = admin("POST", "/v3/projects", {"project": {"name": "bad", "tags": ["a/b"]}})
    assert bad.status == 400
    assert error(bad) == (
        "Invalid input for field/attribute 0. Value: a/b. 'a/b' does not match '^[^,/]*$'"
    )
    long_tag = admin("PUT", path, {"tags": ["x" * 256]})
    assert long_tag.status == 400
    assert error(long_tag) == (
        "Invalid input for field/attribute 0. Value: %s. '%s' is too long" % (("x" * 256,) * 2)
    )
    too_many = admin("PUT", path, {"tags": [str(i) for i in range(81)]})
    assert too_many.status == 400
    message = error(too_many)
    assert message.startswith("['0', '1', '2'") and "is too long" in message
    assert "Failed validating 'maxItems' in schema" in message
    assert admin("PUT", path, {"tags": ["0"]}).status == 200
    twice = admin("PUT", path + "/0")
    assert twice.status == 400 and "has non-unique elements" in error(twice)
    assert admin("PUT", path, {"tags": [str(i) for i in range(80)]}).status == 200
    full = admin("PUT", path + "/extra")
    assert full.status == 400 and "is too long" in error(full)
    assert len(tags_of(admin, project["id"])) == 80


def test_policy_members_read_their_project_admins_write(client, admin):
    demo = client.token("demo")
    mine = "/v3/projects/%s/tags" % pid(client, "demo")
    assert client.get(mine, token=demo).json()["tags"] == []
    denied = client.request("PUT", mine + "/x", token=demo)
    assert denied.status == 403 and error(denied) == DENIED % "create_project_tag"
    for method, path, action in (
        ("PUT", mine, "update_project_tags"),
        ("DELETE", mine, "delete_project_tags"),
        ("DELETE", mine + "/x", "delete_project_tag"),
    ):
        result = client.request(method, path, token=demo, json={"tags": []})
        assert result.status == 403 and error(result) == DENIED % action
    other = "/v3/projects/%s/tags" % pid(client, "alt")
    refused = client.get(other, token=demo)
    assert refused.status == 403 and error(refused) == DENIED % "list_project_tags"
    assert client.get(other + "/x", token=demo).status == 403
    unknown = admin("GET", "/v3/projects/%s/tags" % ("0" * 32))
    assert unknown.status == 404
    assert error(unknown) == "Could not find project: %s." % ("0" * 32)
