"""The local Glance's image create and delete (issue 20): Glance 33's
checks, texts and policies (``glance/api/v2/images.py``,
``glance/domain/__init__.py``, ``glance/api/v2/policy.py``)."""

import pytest

from occli.localcloud.image import images as image_rules

IMAGES = "/image/v2/images"


def text(result):
    """The message of glance's plain-text error page."""
    return result.body.decode().split("\n\n")[1]


@pytest.fixture
def tokens(client):
    return {user: client.token(user) for user in ("demo", "alt", "admin")}


def create(client, token, **body):
    return client.post(IMAGES, json=body, token=token)


def test_create_is_queued_shared_and_owned_by_the_caller(client, tokens):
    result = create(
        client,
        tokens["demo"],
        name="mine",
        disk_format="raw",
        container_format="bare",
        tags=["a", "b", "a"],
        min_ram=64,
        os_distro="cirros",
    )
    assert result.status == 201, result.body
    image = result.json()
    assert result.header("Location").endswith("/image/v2/images/" + image["id"])
    with client.cloud.store.read() as db:
        demo = client.cloud.identity.project_id(db, "demo")
    for key, value in {
        "name": "mine",
        "status": "queued",
        "visibility": "shared",
        "owner": demo,
        "disk_format": "raw",
        "size": None,
        "checksum": None,
        "min_ram": 64,
        "min_disk": 0,
        "protected": False,
        "tags": ["a", "b"],
        "os_distro": "cirros",
    }.items():
        assert image[key] == value, key
    shown = client.get(IMAGES + "/" + image["id"], token=tokens["demo"])
    assert shown.json() == image


def test_create_with_id_and_a_duplicate(client, tokens):
    image_id = "8a1b7d2c-3f4e-4a5b-9c6d-7e8f9a0b1c2d"
    assert create(client, tokens["demo"], id=image_id).json()["id"] == image_id
    again = create(client, tokens["demo"], id=image_id)
    assert again.status == 409 and text(again) == "Image ID %s already exists!" % image_id


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({"self": "x"}, 403, "Attribute 'self' is read-only."),
        ({"status": "active"}, 403, "Attribute 'status' is read-only."),
        ({"size": 3}, 403, "Attribute 'size' is read-only."),
        ({"location": "x"}, 403, "Attribute 'location' is reserved."),
        ({"os_glance_x": "y"}, 403, "Attribute 'os_glance_x' is reserved."),
        ({"owner": "someone-else"}, 403, "You are not permitted to create images owned by"),
        ({"visibility": "public"}, 403, "You are not authorized to complete publicize_image"),
        ({"min_disk": -1}, 400, "Invalid value '-1' for parameter 'min_disk': Cannot be a"),
        ({"x" * 256: "y"}, 400, "Custom property should not be greater than 255 characters."),
        ({"visibility": "world"}, 400, "Provided object does not match schema 'image': 'world'"),
        ({"disk_format": "zip"}, 400, "Provided object does not match schema 'image': 'zip'"),
        ({"prop": 1}, 400, "Provided object does not match schema 'image': 1 is not of type"),
    ],
)
def test_create_refusals(client, tokens, body, status, message):
    result = create(client, tokens["demo"], **body)
    assert result.status == status, result.body
    assert text(result).startswith(message)
    assert len(client.get(IMAGES, token=tokens["demo"]).json()["images"]) == 2


def test_create_needs_a_body(client, tokens):
    result = client.post(IMAGES, token=tokens["demo"])
    assert result.status == 400 and text(result) == "Body expected in request."


def test_admin_may_publicize_and_name_an_owner(client, tokens):
    with client.cloud.store.read() as db:
        alt = client.cloud.identity.project_id(db, "alt")
    result = create(client, tokens["admin"], visibility="public", owner=alt)
    assert result.status == 201
    assert (result.json()["visibility"], result.json()["owner"]) == ("public", alt)


def test_delete_by_owner_then_gone(client, tokens):
    image_id = create(client, tokens["demo"], name="gone").json()["id"]
    assert client.delete(IMAGES + "/" + image_id, token=tokens["demo"]).status == 204
    shown = client.get(IMAGES + "/" + image_id, token=tokens["demo"])
    assert shown.status == 404
    again = client.delete(IMAGES + "/" + image_id, token=tokens["demo"])
    assert again.status == 404 and text(again) == "Failed to find image %s to delete" % image_id


def test_delete_policies(client, tokens):
    shared = create(client, tokens["demo"]).json()["id"]
    community = create(client, tokens["demo"], visibility="community").json()["id"]
    # alt cannot see the shared image, sees the community one
    hidden = client.delete(IMAGES + "/" + shared, token=tokens["alt"])
    assert hidden.status == 404
    seen = client.delete(IMAGES + "/" + community, token=tokens["alt"])
    assert seen.status == 403
    assert text(seen) == "You are not authorized to complete delete_image action."
    assert client.delete(IMAGES + "/" + shared, token=tokens["admin"]).status == 204


def test_protected_image_cannot_be_deleted(client, tokens):
    image_id = create(client, tokens["demo"], protected=True).json()["id"]
    result = client.delete(IMAGES + "/" + image_id, token=tokens["admin"])
    assert result.status == 403
    assert text(result) == "Image %s is protected and cannot be deleted." % image_id
    assert client.get(IMAGES + "/" + image_id, token=tokens["demo"]).status == 200


def test_empty_image_id_is_404(client, tokens):
    assert client.get(IMAGES + "/", token=tokens["demo"]).status == 404
    assert client.delete(IMAGES + "/", token=tokens["demo"]).status == 404
    assert client.delete(IMAGES, token=tokens["demo"]).status == 405


def test_a_snapshot_is_an_ordinary_deletable_image(client, tokens):
    with client.cloud.store.transaction() as db:
        demo = client.cloud.identity.project_id(db, "demo")
        snap = client.cloud.image.create_image(db, "snap", demo, ready_at=0.0)
    assert client.delete(IMAGES + "/" + snap["id"], token=tokens["demo"]).status == 204
    with client.cloud.store.read() as db:
        assert not image_rules.image_exists(db, snap["id"])


def test_deactivate_and_reactivate(client, tokens):
    with client.cloud.store.transaction() as db:
        demo = client.cloud.identity.project_id(db, "demo")
        image_id = image_rules.create_image(db, "act", demo, size=1)["id"]
    queued = create(client, tokens["demo"]).json()["id"]
    path = IMAGES + "/%s/actions/" % image_id

    def status():
        return client.get(IMAGES + "/" + image_id, token=tokens["demo"]).json()["status"]

    public = IMAGES + "/%s/actions/deactivate" % image_rules.seed_image_id(
        image_rules.SEED_IMAGES[0][0]
    )
    member = client.post(public, token=tokens["demo"])  # seen, not owned
    assert member.status == 403
    assert text(member) == "You are not authorized to complete deactivate action."
    assert client.post(path + "deactivate", token=tokens["alt"]).status == 404
    # the owner's member deactivates and reactivates its own image
    assert client.post(path + "deactivate", token=tokens["demo"]).status == 204
    assert status() == "deactivated"
    assert client.post(path + "reactivate", token=tokens["demo"]).status == 204
    assert status() == "active"
    for _ in range(2):  # the second time a no-op
        assert client.post(path + "deactivate", token=tokens["admin"]).status == 204
        assert status() == "deactivated"
    assert client.post(path + "reactivate", token=tokens["admin"]).status == 204
    assert status() == "active"
    refused = client.post(IMAGES + "/%s/actions/reactivate" % queued, token=tokens["admin"])
    assert refused.status == 403
    assert text(refused) == "Not allowed to reactivate image in status 'queued'"
