"""Glance v2 emulation: discovery, list/show, pagination, helpers."""

import urllib.parse

from occli.localcloud.image import images as image_rules
from tests.unit.localcloud.wsgi_client import BASE

CIRROS = image_rules.seed_image_id("cirros-0.6.2-x86_64-disk")
UBUNTU = image_rules.seed_image_id("ubuntu-24.04")


def test_versions(client):
    result = client.get("/image/")
    assert result.status == 300
    versions = result.json()["versions"]
    assert versions[0]["status"] == "CURRENT"
    assert versions[0]["id"].startswith("v2.")
    assert {v["status"] for v in versions[1:]} == {"SUPPORTED"}
    for v in versions:
        assert v["links"] == [{"rel": "self", "href": BASE + "/image/v2/"}]
    assert client.get("/image/versions").status == 200


def test_list_needs_token(client):
    assert client.get("/image/v2/images").status == 401


def test_seeded_images(client):
    token = client.token()
    images = client.get("/image/v2/images", token=token).json()["images"]
    by_name = {i["name"]: i for i in images}
    cirros = by_name["cirros-0.6.2-x86_64-disk"]
    assert cirros["id"] == CIRROS
    assert by_name["ubuntu-24.04"]["id"] == UBUNTU
    for key, value in {
        "status": "active",
        "disk_format": "qcow2",
        "visibility": "public",
        "min_disk": 0,
        "min_ram": 0,
        "self": "/v2/images/" + CIRROS,
        "file": "/v2/images/%s/file" % CIRROS,
        "schema": "/v2/schemas/image",
    }.items():
        assert cirros[key] == value, key
    assert cirros["size"] > 0 and len(cirros["checksum"]) == 32
    assert cirros["created_at"].endswith("Z")
    shown = client.get("/image/v2/images/" + CIRROS, token=token)
    assert shown.status == 200 and shown.json() == cirros


def test_pagination_and_filters(client):
    token = client.token()
    with client.cloud.store.transaction() as db:
        for i in range(3):
            image_rules.create_image(db, "extra-%d" % i, None, visibility="public")
    first = client.get("/image/v2/images?limit=2", token=token).json()
    assert len(first["images"]) == 2
    seen = [i["id"] for i in first["images"]]
    url = first["next"]
    while url:
        query = urllib.parse.urlsplit(url).query
        assert "limit=2" in query
        page = client.get("/image" + url, token=token).json()
        seen += [i["id"] for i in page["images"]]
        url = page.get("next")
    assert len(seen) == len(set(seen)) == 5
    named = client.get("/image/v2/images?name=ubuntu-24.04", token=token).json()
    assert [i["id"] for i in named["images"]] == [UBUNTU]
    assert "next" not in named
    queued = client.get("/image/v2/images?status=queued", token=token).json()
    assert queued["images"] == []


def test_bad_limit_and_marker(client):
    token = client.token()
    for query in ("limit=x", "limit=-1", "marker=unknown"):
        assert client.get("/image/v2/images?" + query, token=token).status == 400


def test_404_is_plain_text(client):
    result = client.get("/image/v2/images/nope", token=client.token())
    assert result.status == 404
    assert result.header("Content-Type").startswith("text/plain")
    assert result.body.decode().startswith("404 Not Found\n\n")
    assert "No image found with ID nope" in result.body.decode()


def test_private_images_are_visible_to_their_project_only(client):
    with client.cloud.store.transaction() as db:
        admin_project = client.cloud.identity.project_id(db, "admin")
        snap = image_rules.create_image(db, "snap", admin_project)["id"]
    demo, admin = client.token("demo"), client.token("admin")
    assert client.get("/image/v2/images/" + snap, token=demo).status == 404
    assert client.get("/image/v2/images/" + snap, token=admin).status == 200
    names = [i["name"] for i in client.get("/image/v2/images", token=demo).json()["images"]]
    assert "snap" not in names


def test_helpers_for_other_services(cloud):
    with cloud.store.transaction() as db:
        assert cloud.image.image_exists(db, CIRROS)
        assert not cloud.image.image_exists(db, "nope")
        assert cloud.image.get_image(db, "nope") is None
        created = cloud.image.create_image(
            db, "snapshot", "p1", min_disk=1, properties={"image_type": "snapshot"}
        )
        assert created["owner"] == "p1" and created["min_disk"] == 1
        assert created["image_type"] == "snapshot"
        assert cloud.image.get_image(db, created["id"]) == created


def _ids(client, query, token):
    result = client.get("/image/v2/images?" + query, token=token)
    assert result.status == 200, result.body
    return sorted(i["id"] for i in result.json()["images"])


def test_id_filter_in_and_exact(client):
    token = client.token()
    quote = urllib.parse.quote
    assert _ids(client, "id=" + quote("in:%s,%s" % (CIRROS, UBUNTU)), token) == sorted(
        [CIRROS, UBUNTU]
    )
    assert _ids(client, "id=" + quote("in:%s,nope" % UBUNTU), token) == [UBUNTU]
    assert _ids(client, "id=" + UBUNTU, token) == [UBUNTU]
    assert _ids(client, "id=" + quote('in:"%s",x' % CIRROS), token) == [CIRROS]
    assert _ids(client, "id=nope", token) == []
    # the filter pages like any list (the next link keeps the filter)
    page = client.get(
        "/image/v2/images?limit=1&id=" + quote("in:%s,%s" % (CIRROS, UBUNTU)), token=token
    ).json()
    assert len(page["images"]) == 1 and "id=in" in page["next"]


def test_id_filter_private_image_of_another_project_is_hidden(client):
    with client.cloud.store.transaction() as db:
        admin_project = client.cloud.identity.project_id(db, "admin")
        snap = image_rules.create_image(db, "snap", admin_project)["id"]
    query = "id=" + urllib.parse.quote("in:%s,%s" % (snap, CIRROS))
    assert _ids(client, query, client.token("demo")) == [CIRROS]
    assert _ids(client, query, client.token("admin")) == sorted([snap, CIRROS])


def test_id_filter_bad_operator_or_quotes_is_400(client):
    token = client.token()
    for value in ("gt:" + CIRROS, 'in:"' + CIRROS, 'in:a"b"', 'in:"a"b'):
        result = client.get("/image/v2/images?id=" + urllib.parse.quote(value), token=token)
        assert result.status == 400, value
        assert result.header("Content-Type").startswith("text/plain")
