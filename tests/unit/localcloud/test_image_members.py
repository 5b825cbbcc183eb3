"""The local Glance's image members (issue 20): sharing a ``shared`` image
with other projects, the member's status and what each caller sees, with
Glance 33's checks, texts and policies (``glance/api/v2/image_members.py``,
``glance/policies/image.py``, ``glance/db/sqlalchemy/api.py``)."""

import pytest

from occli.localcloud.image import images as image_rules
from occli.localcloud.image import members as member_rules

IMAGES = "/image/v2/images"
PATCH = {"Content-Type": "application/openstack-images-v2.1-json-patch"}


def text(result):
    """The message of glance's plain-text error page."""
    return result.body.decode().split("\n\n")[1]


@pytest.fixture
def world(cloud, client):
    """demo's shared and private images; alt is the other project."""
    with cloud.store.transaction() as db:
        projects = {n: cloud.identity.project_id(db, n) for n in ("demo", "alt", "admin")}
        shared = image_rules.create_image(db, "to-share", projects["demo"], visibility="shared")
        private = image_rules.create_image(db, "mine", projects["demo"], visibility="private")
    tokens = {user: client.token(user) for user in ("demo", "alt", "admin")}
    return {
        "projects": projects,
        "tokens": tokens,
        "shared": shared["id"],
        "private": private["id"],
    }


def members_url(image_id, member=None):
    url = "%s/%s/members" % (IMAGES, image_id)
    return url if member is None else url + "/" + member


def add(client, world, member, image=None, token="demo"):
    return client.post(
        members_url(image or world["shared"]),
        json={"member": member},
        token=world["tokens"][token],
    )


def set_status(client, world, status, token="alt", member=None, image=None):
    return client.request(
        "PUT",
        members_url(image or world["shared"], member or world["projects"]["alt"]),
        json={"status": status},
        token=world["tokens"][token],
    )


def listed(client, world, token="alt", query=""):
    result = client.get(IMAGES + query, token=world["tokens"][token])
    assert result.status == 200, result.body
    return {image["id"] for image in result.json()["images"]}


def test_add_member_is_pending_and_listed(client, world):
    alt = world["projects"]["alt"]
    result = add(client, world, alt)
    assert result.status == 200, result.body
    member = result.json()
    assert set(member) == {"member_id", "image_id", "status", "created_at", "updated_at", "schema"}
    assert member["member_id"] == alt and member["image_id"] == world["shared"]
    assert member["status"] == "pending" and member["schema"] == "/v2/schemas/member"
    assert member["created_at"].endswith("Z") and member["created_at"] == member["updated_at"]
    found = client.get(members_url(world["shared"]), token=world["tokens"]["demo"])
    assert found.status == 200
    assert found.json() == {"members": [member], "schema": "/v2/schemas/members"}
    shown = client.get(members_url(world["shared"], alt), token=world["tokens"]["alt"])
    assert shown.status == 200 and shown.json() == member


def test_a_duplicate_member_is_glances_409(client, world):
    alt = world["projects"]["alt"]
    assert add(client, world, alt).status == 200
    again = add(client, world, alt)
    assert again.status == 409
    assert text(again) == "Member %s is duplicated for image %s" % (alt, world["shared"])


def test_only_shared_images_have_members(client, world):
    private, alt = world["private"], world["projects"]["alt"]
    created = add(client, world, alt, image=private)
    assert created.status == 403
    assert text(created) == "Not allowed to create members for image %s." % private
    found = client.get(members_url(private), token=world["tokens"]["demo"])
    assert found.status == 403
    assert text(found) == (
        "Not allowed to list members for image %s: Only shared images have members." % private
    )
    shown = client.get(members_url(private, alt), token=world["tokens"]["demo"])
    assert shown.status == 404 and text(shown) == "Only shared images have members."
    updated = set_status(client, world, "accepted", token="demo", image=private)
    assert updated.status == 403
    assert text(updated) == "Not allowed to update members for image %s." % private
    removed = client.delete(members_url(private, alt), token=world["tokens"]["demo"])
    assert removed.status == 403
    assert text(removed) == "Not allowed to delete members for image %s." % private


def test_others_do_not_find_the_image(client, world):
    shared, alt = world["shared"], world["projects"]["alt"]
    result = add(client, world, alt, token="alt")
    assert result.status == 404 and text(result) == "Image %s not found." % shared
    found = client.get(members_url(shared), token=world["tokens"]["alt"])
    assert found.status == 404 and text(found) == "Image %s not found." % shared
    with client.cloud.store.read() as db:
        assert db.execute("SELECT count(*) FROM image_members").fetchone()[0] == 0


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({}, "Member to be added not specified"),
        ({"member": ""}, "Member can't be empty"),
        ([], 'Expected a member in the form: {"member": "image_id"}'),
        ({"member": 7}, 'Expected a member in the form: {"member": "image_id"}'),
        ({"member": "x" * 256}, 'Expected a member in the form: {"member": "image_id"}'),
    ],
)
def test_add_body_errors(client, world, body, message):
    result = client.post(members_url(world["shared"]), json=body, token=world["tokens"]["demo"])
    assert result.status == 400 and text(result) == message


def test_an_empty_body_is_glances_400(client, world):
    result = client.post(members_url(world["shared"]), token=world["tokens"]["demo"])
    assert result.status == 400 and text(result) == "Body expected in request."


def test_the_member_sets_its_own_status_only(client, world):
    alt = world["projects"]["alt"]
    assert add(client, world, alt).status == 200
    accepted = set_status(client, world, "accepted")
    assert accepted.status == 200, accepted.body
    assert accepted.json()["status"] == "accepted"
    by_owner = set_status(client, world, "rejected", token="demo")
    assert by_owner.status == 403
    assert text(by_owner) == "You are not authorized to complete modify_member action."
    bad = set_status(client, world, "maybe")
    assert bad.status == 400
    assert text(bad) == 'Incorrect request: Status must be "pending", "accepted" or "rejected".'
    no_status = client.request(
        "PUT", members_url(world["shared"], alt), json={}, token=world["tokens"]["alt"]
    )
    assert no_status.status == 400 and text(no_status) == "Status not specified"
    by_admin = set_status(client, world, "pending", token="admin")
    assert by_admin.status == 200 and by_admin.json()["status"] == "pending"


def test_a_member_sees_only_its_own_membership(client, world):
    alt, admin = world["projects"]["alt"], world["projects"]["admin"]
    assert add(client, world, alt).status == 200
    assert add(client, world, admin).status == 200
    found = client.get(members_url(world["shared"]), token=world["tokens"]["alt"])
    assert [m["member_id"] for m in found.json()["members"]] == [alt]
    other = client.get(members_url(world["shared"], admin), token=world["tokens"]["alt"])
    assert other.status == 404
    assert text(other) == "%s not found in the member list of the image %s." % (
        admin,
        world["shared"],
    )
    by_owner = client.get(members_url(world["shared"]), token=world["tokens"]["demo"])
    assert {m["member_id"] for m in by_owner.json()["members"]} == {alt, admin}


def test_member_status_decides_the_listing(client, world):
    shared, alt = world["shared"], world["projects"]["alt"]
    assert shared not in listed(client, world)
    assert add(client, world, alt).status == 200
    assert shared not in listed(client, world)
    assert shared in listed(client, world, query="?member_status=pending")
    assert shared in listed(client, world, query="?member_status=all")
    assert shared in listed(client, world, query="?visibility=shared&member_status=all")
    assert shared not in listed(client, world, query="?member_status=rejected")
    assert set_status(client, world, "accepted").status == 200
    assert shared in listed(client, world)
    assert shared in listed(client, world, query="?visibility=shared")
    assert shared not in listed(client, world, query="?member_status=pending")
    assert set_status(client, world, "rejected").status == 200
    assert shared not in listed(client, world)
    assert shared in listed(client, world, query="?member_status=rejected")
    # the owner lists its shared image whatever its members say
    assert shared in listed(client, world, token="demo", query="?member_status=pending")
    bad = client.get(IMAGES + "?member_status=maybe", token=world["tokens"]["alt"])
    assert bad.status == 400 and text(bad) == "Invalid status: maybe"


def test_a_member_gets_the_image_in_any_status_but_cannot_change_it(client, world):
    shared, alt = world["shared"], world["projects"]["alt"]
    url, token = IMAGES + "/" + shared, world["tokens"]["alt"]
    assert client.get(url, token=token).status == 404
    assert add(client, world, alt).status == 200
    assert set_status(client, world, "rejected").status == 200
    shown = client.get(url, token=token)
    assert shown.status == 200 and shown.json()["id"] == shared
    with client.cloud.store.read() as db:
        caller = type("Caller", (), {"project_id": alt, "is_admin": False})()
        # what Nova and Cinder see: the member may boot from it
        found = image_rules.get_visible_image(db, caller, shared)
        assert found is not None and found["id"] == shared
    patched = client.request(
        "PATCH",
        url,
        json=[{"op": "replace", "path": "/name", "value": "taken"}],
        headers=PATCH,
        token=token,
    )
    assert patched.status == 403
    assert text(patched) == "You are not authorized to complete modify_image action."
    deleted = client.delete(url, token=token)
    assert deleted.status == 403
    assert text(deleted) == "You are not authorized to complete delete_image action."
    added = add(client, world, world["projects"]["admin"], token="alt")
    assert added.status == 403
    assert text(added) == "You are not authorized to complete add_member action."
    removed = client.delete(members_url(shared, alt), token=token)
    assert removed.status == 403
    assert text(removed) == "You are not authorized to complete delete_member action."
    assert client.get(url, token=token).json()["name"] == "to-share"


def test_removing_a_member_hides_the_image_again(client, world):
    shared, alt = world["shared"], world["projects"]["alt"]
    assert add(client, world, alt).status == 200
    assert set_status(client, world, "accepted").status == 200
    removed = client.delete(members_url(shared, alt), token=world["tokens"]["demo"])
    assert removed.status == 204
    assert client.get(IMAGES + "/" + shared, token=world["tokens"]["alt"]).status == 404
    assert shared not in listed(client, world, query="?member_status=all")
    gone = client.delete(members_url(shared, alt), token=world["tokens"]["demo"])
    assert gone.status == 404


def test_deleting_the_image_deletes_its_members(client, world):
    assert add(client, world, world["projects"]["alt"]).status == 200
    deleted = client.delete(IMAGES + "/" + world["shared"], token=world["tokens"]["demo"])
    assert deleted.status == 204
    with client.cloud.store.read() as db:
        assert db.execute("SELECT count(*) FROM image_members").fetchone()[0] == 0


def test_the_member_quota_is_glances_413(client, world, monkeypatch):
    assert member_rules.QUOTA == 128
    monkeypatch.setattr(member_rules, "QUOTA", 2)
    assert add(client, world, "project-1").status == 200
    assert add(client, world, "project-2").status == 200
    over = add(client, world, "project-3")
    assert over.status == 413
    assert text(over) == (
        "Image member limit exceeded for image %s: The limit has been exceeded on the number"
        " of allowed image members for this image. Attempted: 3, Maximum: 2:" % world["shared"]
    )
    # Glance counts before it looks for a duplicate
    assert add(client, world, "project-1").status == 413
