"""Local cloud: nova's image proxy (``/images`` up to 2.35, their metadata
up to 2.38) answers as nova 34 over Glance, as the caller
(tests/fixtures/compute/realcloud/nova-34-proxies.json): nova's views,
filters and paging, another project's private image never shown, Glance's
refusals in nova's words."""

import json
import uuid
from pathlib import Path

import pytest

RECORDED = json.loads(
    (Path(__file__).parents[2] / "fixtures/compute/realcloud/nova-34-proxies.json").read_text()
)
REAL = RECORDED["exchanges"]
V = "2.35"


def _glance(nova, user, method, path, body=None):
    answer = nova.client.request(method, "/image/v2" + path, json=body, token=nova.tokens[user])
    assert answer.status < 300, answer.body
    return answer.json() if answer.body else None


def _image(nova, user="demo", **extra):
    body = {
        "name": "px-" + uuid.uuid4().hex[:6],
        "disk_format": "raw",
        "container_format": "bare",
        **extra,
    }
    return _glance(nova, user, "POST", "/images", body)["id"]


def _shape(value):
    """Keys and value types, recursively (ids and times differ per run)."""
    if isinstance(value, dict):
        return {k: _shape(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_shape(v) for v in value]
    return type(value).__name__


@pytest.fixture(scope="module")
def mine(shared_nova):
    return _image(shared_nova, min_ram=128, min_disk=1, k1="v1")


def test_show_is_novas_view(shared_nova, mine):
    shown = shared_nova.get("/images/" + mine, version=V)
    assert shown.status == 200
    image = shown.json()["image"]
    real = REAL["images_show_mine"]["body"]["image"]
    assert _shape(image) == _shape(real)
    assert (image["status"], image["progress"], image["metadata"]) == ("SAVING", 25, {"k1": "v1"})
    assert (image["minRam"], image["minDisk"]) == (128, 1)
    assert [link["rel"] for link in image["links"]] == ["self", "bookmark", "alternate"]
    assert image["links"][0]["href"].endswith("/compute/v2.1/images/" + mine)
    assert image["links"][2]["href"].endswith("/image/images/" + mine)


def test_the_seeded_public_image_is_active(shared_nova):
    listed = shared_nova.get("/images/detail?name=cirros-0.6.2-x86_64-disk", version=V).json()
    (image,) = listed["images"]
    real = REAL["images_detail_name"]["body"]["images"][0]
    assert (image["status"], image["progress"]) == (real["status"], real["progress"])
    assert set(image) == set(real)


def test_another_projects_private_image_is_never_seen(shared_nova):
    private = _image(shared_nova, user="admin", visibility="private")
    for method, path, name in (
        ("GET", "/images/" + private, "images_show_admin_private"),
        ("DELETE", "/images/" + private, "images_delete_admin_private"),
        ("GET", "/images/%s/metadata" % private, "meta_admin_private"),
        ("GET", "/images/" + str(uuid.uuid4()), "images_show_unknown"),
    ):
        answer = shared_nova.call(method, path, version=V)
        assert (answer.status, answer.json()) == (REAL[name]["status"], REAL[name]["body"])
    for path in ("/images", "/images/detail"):
        ids = [i["id"] for i in shared_nova.get(path, version=V).json()["images"]]
        assert private not in ids
    assert private in [
        i["id"] for i in shared_nova.get("/images", user="admin", version=V).json()["images"]
    ]


def test_filters_and_paging(shared_nova, mine):
    def ids(query):
        answer = shared_nova.get("/images/detail" + query, version=V)
        assert answer.status == 200, answer.body
        return [i["id"] for i in answer.json()["images"]]

    assert mine in ids("?status=QUEUED")
    assert mine not in ids("?status=ACTIVE")
    assert ids("?minRam=100") == []
    assert mine in ids("?minRam=128&minDisk=1")
    assert ids("?type=snapshot") == []
    assert mine in ids("?changes-since=2000-01-01T00:00:00Z")
    everything = ids("")
    first = shared_nova.get("/images/detail?limit=1", version=V).json()
    assert [i["id"] for i in first["images"]] == everything[:1]
    (link,) = first["images_links"]
    real = REAL["images_detail_limit"]["body"]["images_links"][0]
    assert link["rel"] == real["rel"] and "images/detail?limit=1&marker=" in link["href"]
    assert ids("?marker=%s" % everything[0]) == everything[1:]
    bad = shared_nova.get(
        "/images/detail?marker=%s" % RECORDED["ids"]["public_image_id"], version=V
    )
    assert bad.status == 400
    assert bad.json()["badRequest"]["message"].startswith("HTTP 400 Bad Request: No image found")


def test_a_snapshot_names_its_server(shared_nova):
    server_id = shared_nova.create()
    shared_nova.show(server_id)
    answer = shared_nova.action(server_id, {"createImage": {"name": "px-snap"}}, version="2.45")
    image_id = answer.json()["image_id"]
    image = shared_nova.get("/images/" + image_id, version=V).json()["image"]
    real = REAL["images_show_snapshot"]["body"]["image"]
    assert image["server"]["id"] == server_id
    assert _shape(image["server"]) == _shape(real["server"])
    assert image["metadata"]["image_type"] == "snapshot"
    listed = shared_nova.get("/images/detail?server=%s" % server_id, version=V).json()["images"]
    assert [i["id"] for i in listed] == [image_id]


def test_gone_from_2_36(shared_nova, mine):
    for path, name in (("/images", "images_list_2.36"), ("/images/" + mine, "images_show_2.36")):
        answer = shared_nova.get(path, version="2.36")
        assert (answer.status, answer.json()) == (REAL[name]["status"], REAL[name]["body"])
    # the metadata routes last until 2.38
    assert shared_nova.get("/images/%s/metadata" % mine, version="2.38").status == 200
    assert shared_nova.get("/images/%s/metadata" % mine, version="2.39").status == 404


def test_metadata_answers_as_nova(shared_nova):
    image = _image(shared_nova, k1="v1")
    base = "/images/%s/metadata" % image
    for name in (
        "meta_list",
        "meta_show",
        "meta_show_missing",
        "meta_update_key",
        "meta_update_key_mismatch",
        "meta_update_key_two",
        "meta_create",
        "meta_replace",
        "meta_delete",
        "meta_delete_missing",
    ):
        request = REAL[name]["request"]
        path = request["path"].replace("/images/{member_image_id}/metadata", base)
        answer = shared_nova.call(request["method"], path, json=request["body"], version=V)
        got = (answer.status, answer.json() if answer.body else None)
        assert got == (REAL[name]["status"], REAL[name]["body"]), name
    assert _glance(shared_nova, "demo", "GET", "/images/" + image).get("k5") is None


def test_glance_refusals_in_novas_words(shared_nova):
    public = shared_nova.get("/images/detail?name=cirros-0.6.2-x86_64-disk", version=V)
    public_id = public.json()["images"][0]["id"]
    for method, path, body, name in (
        ("PUT", "/images/%s/metadata/k" % public_id, {"meta": {"k": "v"}}, "meta_public_update"),
        ("DELETE", "/images/" + public_id, None, "images_delete_public"),
    ):
        answer = shared_nova.call(method, path, json=body, version=V)
        expected = json.dumps(REAL[name]["body"]).replace(
            RECORDED["ids"]["public_image_id"], public_id
        )
        assert (answer.status, answer.json()) == (REAL[name]["status"], json.loads(expected))


def test_delete_own_image(shared_nova):
    image = _image(shared_nova)
    deleted = shared_nova.delete("/images/" + image, version=V)
    assert (deleted.status, deleted.body) == (204, b"")
    gone = shared_nova.get("/images/" + image, version=V)
    real = REAL["images_show_deleted"]
    assert (gone.status, gone.json()) == (real["status"], real["body"])


def test_image_metadata_counts_against_metadata_items(nova):
    image = _image(nova)
    nova.put(
        "/os-quota-sets/%s" % nova.project_id("demo"),
        {"quota_set": {"metadata_items": 2}},
        user="admin",
    )
    base = "/images/%s/metadata" % image
    assert nova.post(base, {"metadata": {"a": "1", "b": "2"}}, version=V).status == 200
    for method, path, body in (
        ("POST", base, {"metadata": {"c": "3"}}),
        ("PUT", base + "/c", {"meta": {"c": "3"}}),
        ("PUT", base, {"metadata": {"a": "1", "b": "2", "c": "3"}}),
    ):
        refused = nova.call(method, path, json=body, version=V)
        assert (refused.status, refused.json()) == (
            403,
            {"forbidden": {"code": 403, "message": "Image metadata limit exceeded"}},
        )
    assert nova.get(base, version=V).json() == {"metadata": {"a": "1", "b": "2"}}
