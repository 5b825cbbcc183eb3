"""The local Glance's image ``PATCH`` (issue 20): Glance's JSON-patch media
types, ``add``/``replace``/``remove`` of attributes, extra properties and
tags, its syntax checks, limits and policies (``glance/api/v2/images.py``
``RequestDeserializer.update``, ``ImagesController._do_*``)."""

import json

import pytest

from occli.localcloud.image import images as image_rules

IMAGES = "/image/v2/images"
V21 = {"Content-Type": "application/openstack-images-v2.1-json-patch"}
V20 = {"Content-Type": "application/openstack-images-v2.0-json-patch"}


def text(result):
    return result.body.decode().split("\n\n")[1]


@pytest.fixture
def tokens(client):
    return {user: client.token(user) for user in ("demo", "alt", "admin")}


@pytest.fixture
def image_id(client, tokens):
    body = {"name": "p", "disk_format": "raw", "container_format": "bare", "kind": "x"}
    return client.post(IMAGES, json=body, token=tokens["demo"]).json()["id"]


def patch(client, image_id, token, changes, headers=V21):
    body = json.dumps(changes).encode()
    return client.request(
        "PATCH", IMAGES + "/" + image_id, body=body, headers=headers, token=token
    )


def test_add_replace_remove(client, tokens, image_id):
    result = patch(
        client,
        image_id,
        tokens["demo"],
        [
            {"op": "replace", "path": "/name", "value": "renamed"},
            {"op": "add", "path": "/os_distro", "value": "cirros"},
            {"op": "replace", "path": "/kind", "value": "y"},
            {"op": "add", "path": "/visibility", "value": "private"},
            {"op": "replace", "path": "/protected", "value": True},
            {"op": "replace", "path": "/min_disk", "value": 2},
            {"op": "replace", "path": "/min_ram", "value": 256},
            {"op": "replace", "path": "/tags", "value": ["t1", "t2", "t1"]},
            {"op": "replace", "path": "/disk_format", "value": "qcow2"},
        ],
    )
    assert result.status == 200, result.body
    image = result.json()
    for key, value in {
        "name": "renamed",
        "os_distro": "cirros",
        "kind": "y",
        "visibility": "private",
        "protected": True,
        "min_disk": 2,
        "min_ram": 256,
        "tags": ["t1", "t2"],
        "disk_format": "qcow2",
    }.items():
        assert image[key] == value, key
    assert client.get(IMAGES + "/" + image_id, token=tokens["demo"]).json() == image
    removed = patch(client, image_id, tokens["demo"], [{"op": "remove", "path": "/kind"}])
    assert "kind" not in removed.json()


@pytest.mark.parametrize(
    ("changes", "status", "message"),
    [
        ({"op": "replace", "path": "/size", "value": 1}, 403, "Attribute 'size' is read-only."),
        ({"op": "add", "path": "/deleted", "value": "x"}, 403, "Attribute 'deleted' is reserved."),
        ({"op": "remove", "path": "/name"}, 403, "Property name may not be removed."),
        ({"op": "remove", "path": "/nope"}, 409, "Property nope does not exist."),
        ({"op": "replace", "path": "/nope", "value": "x"}, 409, "Property nope does not exist."),
        (
            {"op": "replace", "path": "/visibility", "value": "public"},
            403,
            "You are not authorized to complete publicize_image action.",
        ),
        (
            {"op": "replace", "path": "/owner", "value": "x"},
            403,
            "Owner can't be updated by non admin.",
        ),
        (
            {"op": "replace", "path": "/min_ram", "value": -1},
            400,
            "Invalid value '-1' for parameter 'min_ram': Cannot be a negative value",
        ),
        (
            {"op": "replace", "path": "/visibility", "value": "x"},
            400,
            "Provided object does not match schema 'image': 'x' is not one of",
        ),
        ({"op": "move", "path": "/name"}, 400, "Invalid operation: `move`."),
        ({"path": "/name"}, 400, "Unable to find `op` in JSON Schema change."),
        ({"op": "add", "path": "/name"}, 400, 'Operation "add" requires a member named "value".'),
        ({"op": "add", "path": "name", "value": "x"}, 400, "Pointer `name` does not start with"),
        ({"op": "add", "path": "/a/b", "value": "x"}, 400, "Invalid JSON pointer for this"),
        (
            {"op": "add", "path": "/locations/-", "value": {}},
            403,
            "It's not allowed to add locations if locations are invisible.",
        ),
    ],
)
def test_refusals_change_nothing(client, tokens, image_id, changes, status, message):
    before = client.get(IMAGES + "/" + image_id, token=tokens["demo"]).json()
    first = {"op": "replace", "path": "/name", "value": "changed"}
    result = patch(client, image_id, tokens["demo"], [first, changes])
    assert result.status == status, result.body
    assert text(result).startswith(message)
    assert client.get(IMAGES + "/" + image_id, token=tokens["demo"]).json() == before


def test_media_type_and_body(client, tokens, image_id):
    wrong = patch(
        client, image_id, tokens["demo"], [], headers={"Content-Type": "application/json"}
    )
    assert wrong.status == 415
    assert wrong.header("Accept-Patch") == ", ".join(
        sorted([V20["Content-Type"], V21["Content-Type"]])
    )
    not_a_list = patch(client, image_id, tokens["demo"], {"op": "add"})
    assert text(not_a_list) == "Request body must be a JSON array of operation objects."
    assert (
        text(patch(client, image_id, tokens["demo"], ["x"])) == "Operations must be JSON objects."
    )


def test_draft_4_form(client, tokens, image_id):
    result = patch(client, image_id, tokens["demo"], [{"replace": "/name", "value": "d4"}], V20)
    assert result.status == 200 and result.json()["name"] == "d4"
    present = patch(client, image_id, tokens["demo"], [{"add": "/name", "value": "x"}], V20)
    assert present.status == 409 and text(present) == "Property name already present."
    # v2.1's add of a present member replaces it
    replaced = patch(
        client, image_id, tokens["demo"], [{"op": "add", "path": "/name", "value": "v"}]
    )
    assert replaced.json()["name"] == "v"


def test_policies(client, tokens, image_id):
    change = [{"op": "replace", "path": "/name", "value": "x"}]
    assert patch(client, image_id, tokens["alt"], change).status == 404
    community = patch(
        client,
        image_id,
        tokens["demo"],
        [{"op": "replace", "path": "/visibility", "value": "community"}],
    )
    assert community.status == 200
    seen = patch(client, image_id, tokens["alt"], change)
    assert seen.status == 403
    assert text(seen) == "You are not authorized to complete modify_image action."
    public = [{"op": "replace", "path": "/visibility", "value": "public"}]
    assert patch(client, image_id, tokens["admin"], public).json()["visibility"] == "public"


def test_formats_only_while_queued(client, tokens):
    with client.cloud.store.transaction() as db:
        demo = client.cloud.identity.project_id(db, "demo")
        active = image_rules.create_image(db, "a", demo, size=1)["id"]
    change = [{"op": "replace", "path": "/disk_format", "value": "raw"}]
    result = patch(client, active, tokens["demo"], change)
    assert result.status == 403
    assert text(result) == "Attribute disk_format can be only replaced for a queued image."
