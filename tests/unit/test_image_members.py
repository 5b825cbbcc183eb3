"""Image sharing: ``client.image_members`` and ``image add/remove project``,
``image member list/get``, ``image set --accept/--reject/--pending``, on
Glance's api-ref samples (tests/fixtures/image/image-member*.json)."""

import json

import pytest

from .fakes import AUTH_URL
from .fakes import IMAGE
from .fakes import PROJECT_ID
from .fakes import load_fixture
from .fakes import requests_to

CREATE_REQUEST = load_fixture("image", "image-member-create-request.json")
CREATED = load_fixture("image", "image-member-create-response.json")
DETAILS = load_fixture("image", "image-member-details-response.json")
UPDATE_REQUEST = load_fixture("image", "image-member-update-request.json")
UPDATED = load_fixture("image", "image-member-update-response.json")
LISTED = load_fixture("image", "image-members-list-response.json")
IMAGE_ID = CREATED["image_id"]
MEMBER = CREATE_REQUEST["member"]
IMAGES = IMAGE + "/v2/images"
MEMBERS = IMAGES + "/" + IMAGE_ID + "/members"
# OSC's columns of a membership (every member of Glance's body, sorted)
SHOWN = ["created_at", "image_id", "member_id", "schema", "status", "updated_at"]


@pytest.fixture
def glance(mock_cloud):
    """The shared image ``IMAGE_ID`` (by id) and its members."""
    m = mock_cloud.mock
    m.get(IMAGES + "/" + IMAGE_ID, json={"id": IMAGE_ID, "name": "shared", "tags": []})
    return m


@pytest.fixture
def keystone(mock_cloud):
    """Project ``alt`` (id MEMBER), found by name after a 404 by id."""
    m = mock_cloud.mock
    m.get(AUTH_URL + "/projects/alt", status_code=404, json={"error": {"code": 404}})
    m.get(
        AUTH_URL + "/projects?name=alt",
        json={"projects": [{"id": MEMBER, "name": "alt", "domain_id": "default"}]},
    )
    m.get(AUTH_URL + "/projects/" + MEMBER, json={"project": {"id": MEMBER, "name": "alt"}})
    return m


def test_manager_add_list_get_update_delete(client, glance):
    glance.post(MEMBERS, json=CREATED)
    glance.get(MEMBERS, json=LISTED)
    glance.get(MEMBERS + "/" + MEMBER, json=DETAILS)
    glance.put(MEMBERS + "/" + MEMBER, json=UPDATED)
    glance.delete(MEMBERS + "/" + MEMBER, status_code=204)
    created = client.image_members.create(IMAGE_ID, MEMBER)
    assert created.to_dict() == CREATED
    assert requests_to(glance, "POST", "/members")[0].json() == CREATE_REQUEST
    listed = client.image_members.list(IMAGE_ID)
    assert [(m.member_id, m.status) for m in listed] == [
        ("123456789", "pending"),
        ("987654321", "accepted"),
    ]
    assert client.image_members.get(IMAGE_ID, MEMBER).status == "pending"
    assert client.image_members.update(IMAGE_ID, MEMBER, "accepted").status == "accepted"
    assert requests_to(glance, "PUT", "/members/")[0].json() == UPDATE_REQUEST
    client.image_members.delete(IMAGE_ID, MEMBER)
    assert len(requests_to(glance, "DELETE", "/members/" + MEMBER)) == 1


def test_add_project_resolves_the_name_and_shows_osc_columns(cli, glance, keystone):
    glance.post(MEMBERS, json=CREATED)
    code, out, err = cli("image", "add", "project", IMAGE_ID, "alt", "-f", "json")
    assert code == 0, err
    assert requests_to(glance, "POST", "/members")[0].json() == {"member": MEMBER}
    shown = json.loads(out)
    assert sorted(shown) == SHOWN
    assert shown == CREATED


def test_add_project_a_member_may_not_look_up_is_taken_as_an_id(cli, glance, mock_cloud):
    # keystone refuses a project member's lookups: OSC sends what it got
    glance.get(AUTH_URL + "/projects/other", status_code=403, json={"error": {"code": 403}})
    glance.post(MEMBERS, json=dict(CREATED, member_id="other"))
    code, out, err = cli("image", "add", "project", IMAGE_ID, "other", "-f", "json")
    assert code == 0, err
    assert requests_to(glance, "POST", "/members")[0].json() == {"member": "other"}


def test_add_project_that_keystone_does_not_know_fails(cli, glance, mock_cloud):
    glance.get(AUTH_URL + "/projects/nope", status_code=404, json={"error": {"code": 404}})
    glance.get(AUTH_URL + "/projects?name=nope", json={"projects": []})
    code, out, err = cli("image", "add", "project", IMAGE_ID, "nope")
    assert code == 1
    assert "No project with a name or ID of 'nope' exists." in err
    assert requests_to(glance, "POST", "/members") == []


def test_add_project_shows_glances_refusal(cli, glance, keystone):
    glance.post(
        MEMBERS,
        status_code=403,
        text="403 Forbidden\n\nNot allowed to create members for image %s.\n\n   " % IMAGE_ID,
        headers={"Content-Type": "text/plain; charset=UTF-8"},
    )
    code, out, err = cli("image", "add", "project", IMAGE_ID, MEMBER)
    assert code == 1
    assert "Not allowed to create members for image %s." % IMAGE_ID in err


def test_remove_project(cli, glance, keystone):
    glance.delete(MEMBERS + "/" + MEMBER, status_code=204)
    code, out, err = cli("image", "remove", "project", IMAGE_ID, "alt")
    assert code == 0, err
    assert out == ""
    assert len(requests_to(glance, "DELETE", "/members/" + MEMBER)) == 1


def test_member_list_columns(cli, glance):
    glance.get(MEMBERS, json=LISTED)
    code, out, err = cli("image", "member", "list", IMAGE_ID, "-f", "json")
    assert code == 0, err
    assert json.loads(out) == [
        {"Image ID": m["image_id"], "Member ID": m["member_id"], "Status": m["status"]}
        for m in LISTED["members"]
    ]


def test_member_get(cli, glance, keystone):
    glance.get(MEMBERS + "/" + MEMBER, json=DETAILS)
    code, out, err = cli("image", "member", "get", IMAGE_ID, "alt", "-f", "json")
    assert code == 0, err
    assert json.loads(out) == DETAILS


@pytest.mark.parametrize(
    ("flag", "status"),
    [("--accept", "accepted"), ("--reject", "rejected"), ("--pending", "pending")],
)
def test_set_membership_of_the_token_project_without_a_patch(cli, glance, flag, status):
    glance.put(MEMBERS + "/" + PROJECT_ID, json=dict(UPDATED, status=status))
    code, out, err = cli("image", "set", flag, IMAGE_ID)
    assert code == 0, err
    (put,) = requests_to(glance, "PUT", "/members/" + PROJECT_ID)
    assert put.json() == {"status": status}
    assert requests_to(glance, "PATCH", "/v2/images") == []


def test_set_membership_of_a_project_then_the_other_changes(cli, glance, keystone):
    glance.put(MEMBERS + "/" + MEMBER, json=UPDATED)
    glance.patch(IMAGES + "/" + IMAGE_ID, json={"id": IMAGE_ID, "name": "renamed"})
    code, out, err = cli(
        "image", "set", "--accept", "--project", "alt", "--name", "renamed", IMAGE_ID
    )
    assert code == 0, err
    assert requests_to(glance, "PUT", "/members/" + MEMBER)[0].json() == UPDATE_REQUEST
    (patch,) = requests_to(glance, "PATCH", "/v2/images/")
    assert patch.json() == [{"op": "replace", "path": "/name", "value": "renamed"}]
    methods = [r.method for r in glance.request_history if "/image/" in r.url]
    assert methods.index("PUT") < methods.index("PATCH")


def test_set_membership_flags_exclude_each_other(cli, glance):
    code, out, err = cli("image", "set", "--accept", "--reject", IMAGE_ID)
    assert code == 2
    assert "not allowed with argument --accept" in err
    assert requests_to(glance, "PUT", "/members") == []


def test_set_project_needs_a_membership_flag(cli, glance):
    code, out, err = cli("image", "set", "--project", "alt", IMAGE_ID)
    assert code == 2
    assert "--project needs --accept, --reject or --pending." in err
    assert [r for r in glance.request_history if "/image/" in r.url] == []
