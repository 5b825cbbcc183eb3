"""The local Glance's image list as the real Glance 33 answered it
(``tests/fixtures/image/realcloud/glance-33-listing.json``): community
images, the ``visibility`` values, filters, sorting, the marker and the
``next`` link; and Glance's texts for a body that is not JSON
(``glance-33-create.json``)."""

import urllib.parse

import pytest

from tests.unit.localcloud.test_image_write_data import text

IMAGES = "/image/v2/images"


@pytest.fixture
def tokens(client):
    return {user: client.token(user) for user in ("demo", "alt", "admin")}


def make(client, token, name, **fields):
    result = client.post(IMAGES, json=dict(fields, name=name), token=token)
    assert result.status == 201, result.body
    return result.json()["id"]


def names(client, token, query=""):
    result = client.get(IMAGES + "?" + query, token=token)
    assert result.status == 200, result.body
    return [i["name"] for i in result.json()["images"] if (i["name"] or "").startswith("t-")]


def refused(client, token, query):
    result = client.get(IMAGES + "?" + query, token=token)
    return result.status, text(result)


def test_community_images_of_others_only_when_asked_for(client, tokens):
    make(client, tokens["demo"], "t-demo", visibility="community")
    make(client, tokens["admin"], "t-admin", visibility="community")
    # the owner's own are listed; other projects' are not, admins' either
    assert names(client, tokens["demo"]) == ["t-demo"]
    assert names(client, tokens["alt"]) == []
    assert names(client, tokens["admin"]) == ["t-admin"]
    for token in tokens.values():
        assert names(client, token, "visibility=community") == ["t-admin", "t-demo"]
        assert names(client, token, "visibility=all") == ["t-admin", "t-demo"]


def test_visibility_values(client, tokens):
    make(client, tokens["demo"], "t-private", visibility="private")
    make(client, tokens["demo"], "t-shared")  # Glance's default visibility
    assert names(client, tokens["demo"], "visibility=private") == ["t-private"]
    assert names(client, tokens["demo"], "visibility=shared") == ["t-shared"]
    assert names(client, tokens["demo"], "visibility=all") == ["t-shared", "t-private"]
    assert refused(client, tokens["demo"], "visibility=bogus") == (
        400,
        "Invalid visibility value: bogus",
    )


def test_sorting(client, tokens):
    token = tokens["demo"]
    for name, disk_format in (("t-b", None), ("t-a", "raw"), ("t-c", None)):
        make(client, token, name, disk_format=disk_format)
    # made in the same second: newest first all the same
    assert names(client, token) == ["t-c", "t-a", "t-b"]
    assert names(client, token, "sort_key=name&sort_dir=asc") == ["t-a", "t-b", "t-c"]
    assert names(client, token, "sort=name:desc") == ["t-c", "t-b", "t-a"]
    # a null first going up, last going down; each key its direction
    query = "sort_key=disk_format&sort_key=name&sort_dir=asc&sort_dir=desc"
    assert names(client, token, query) == ["t-c", "t-b", "t-a"]
    assert names(client, token, "sort=disk_format,name:asc") == ["t-a", "t-b", "t-c"]
    assert refused(client, token, "sort_key=nope") == (
        400,
        "Invalid sort key: nope. It must be one of the following: name, status,"
        " container_format, disk_format, size, id, created_at, updated_at.",
    )
    assert refused(client, token, "sort=name:up") == (400, "Invalid sort direction: up")
    assert refused(client, token, "sort=name&sort_key=name") == (
        400,
        "Old and new sorting syntax cannot be combined",
    )
    assert refused(
        client, token, "sort_key=name&sort_key=id&sort_key=size&sort_dir=asc&sort_dir=desc"
    ) == (
        400,
        "Number of sort dirs does not match the number of sort keys",
    )


def test_marker_in_any_order_and_full_pages(client, tokens):
    token = tokens["demo"]
    made = {name: make(client, token, name) for name in ("t-b", "t-a", "t-c")}
    query = (
        "sort=name:asc&limit=2&owner="
        + client.get(IMAGES + "/" + made["t-a"], token=token).json()["owner"]
    )
    first = client.get(IMAGES + "?" + query, token=token).json()
    assert [i["name"] for i in first["images"]] == ["t-a", "t-b"]
    second = client.get("/image" + first["next"], token=token).json()
    assert [i["name"] for i in second["images"]] == ["t-c"]
    assert "next" not in second
    # a page as full as the limit has a next link, even with nothing after
    after = client.get(IMAGES + "?" + query + "&marker=" + made["t-a"], token=token).json()
    assert [i["name"] for i in after["images"]] == ["t-b", "t-c"]
    assert client.get("/image" + after["next"], token=token).json()["images"] == []
    unknown = "0b0c1e3a-0000-4000-8000-000000000000"
    assert refused(client, token, "marker=" + unknown) == (
        400,
        "No image found with ID %s" % unknown,
    )
    private = make(client, token, "t-private", visibility="private")
    assert refused(client, tokens["alt"], "marker=" + private) == (
        403,
        "Forbidding request, image %s not visible" % private,
    )


def test_filters(client, tokens):
    token = tokens["demo"]
    make(client, token, "t-0", tags=["t1", "t2"], container_format="bare")
    make(client, token, "t-1", disk_format="raw", hw_x="1")
    make(client, token, "t-2", min_ram=5, protected=True)
    assert names(client, token, "tag=t1&tag=t2") == ["t-0"]
    assert names(client, token, "tag=t1&tag=t3") == []
    assert names(client, token, "hw_x=1") == ["t-1"]
    assert names(client, token, "nope=1") == []
    assert names(client, token, "disk_format=raw") == ["t-1"]
    assert names(client, token, "container_format=bare") == ["t-0"]
    assert names(client, token, "protected=true") == ["t-2"]
    assert names(client, token, "min_ram=5") == ["t-2"]
    assert names(client, token, "min_ram_min=1") == ["t-2"]
    assert names(client, token, "size_max=10") == []
    quote = urllib.parse.quote
    assert names(client, token, "name=" + quote("in:t-0,t-2")) == ["t-2", "t-0"]
    assert names(client, token, "created_at=" + quote("gt:2000-01-01T00:00:00Z")) == [
        "t-2",
        "t-1",
        "t-0",
    ]
    assert names(client, token, "created_at=lt:2000-01-01") == []
    assert refused(client, token, "name=gt:x") == (
        400,
        "Unable to filter by unknown operator 'gt'.",
    )
    assert refused(client, token, "id=gt:x") == (400, "Unable to filter by unknown operator 'gt'.")
    assert refused(client, token, "size_min=x") == (
        400,
        "Unable to filter on a range with a non-numeric value.",
    )
    assert refused(client, token, "created_at=gt:yesterday") == (
        400,
        'Bad "created_at" query filter format. Use ISO 8601 DateTime notation.',
    )
    assert refused(client, token, "changes-since=2020-01-01") == (
        400,
        'The "changes-since" filter is no longer available on v2.',
    )


@pytest.mark.parametrize(
    "body, message",
    [
        (b"{bad", "Malformed JSON in request body."),
        (b"3", "Unexpected body type. Expected list/dict."),
        (b"", "Body expected in request."),
    ],
)
def test_bodies_that_are_not_json_objects(client, tokens, body, message):
    headers = {"Content-Type": "application/json"}
    created = client.request("POST", IMAGES, body=body, headers=headers, token=tokens["demo"])
    assert (created.status, text(created)) == (400, message)
    image_id = make(client, tokens["demo"], "t-shared")
    members = IMAGES + "/%s/members" % image_id
    added = client.request("POST", members, body=body, headers=headers, token=tokens["demo"])
    assert (added.status, text(added)) == (400, message)
