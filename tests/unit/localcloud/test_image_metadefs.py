"""The local Glance's metadata definitions (issue 20): Glance 33's
namespaces, objects, properties, resource type associations and tags
(``glance/api/v2/metadef_*.py``, ``glance/db/sqlalchemy/metadef_api/``),
its policies (``metadef_admin`` writes; public namespaces for everyone,
private ones for their project) and the seeded standard namespaces."""

from urllib.parse import quote

import pytest

NS = "/image/v2/metadefs/namespaces"


def text(result):
    """The message of glance's plain-text error page."""
    return result.body.decode().split("\n\n")[1]


@pytest.fixture
def tokens(client):
    return {user: client.token(user) for user in ("demo", "alt", "admin")}


def request(client, method, path, token, body=None, headers=None):
    return client.request(method, path, json=body, token=token, headers=headers)


def make(client, tokens, name="Occli::Test", **extra):
    result = client.post(NS, json=dict({"namespace": name}, **extra), token=tokens["admin"])
    assert result.status == 201, result.body
    return result.json()


def test_seeded_namespaces_as_load_metadefs(client, tokens):
    listing = client.get(NS, token=tokens["demo"]).json()
    names = [ns["namespace"] for ns in listing["namespaces"]]
    assert {"OS::Compute::Hypervisor", "OS::Compute::Libvirt", "OS::Compute::CPUMode"} <= set(
        names
    )
    assert listing["schema"] == "/v2/schemas/metadefs/namespaces"
    assert listing["first"] == "/v2/metadefs/namespaces"
    libvirt = client.get(NS + "/OS::Compute::Libvirt", token=tokens["demo"]).json()
    assert libvirt["owner"] == "admin" and libvirt["protected"] is True
    assert libvirt["visibility"] == "public"
    assert libvirt["self"] == "/v2/metadefs/namespaces/OS::Compute::Libvirt"
    assert {a["name"]: a["prefix"] for a in libvirt["resource_type_associations"]} == {
        "OS::Glance::Image": "hw_",
        "OS::Nova::Flavor": "hw:",
    }
    assert "serial_port_count" in libvirt["properties"]
    prefixed = client.get(
        NS + "/OS::Compute::Libvirt?resource_type=OS::Nova::Flavor", token=tokens["demo"]
    )
    assert "hw:serial_port_count" in prefixed.json()["properties"]
    types = client.get("/image/v2/metadefs/resource_types", token=tokens["demo"]).json()
    assert {"OS::Glance::Image", "OS::Nova::Flavor"} <= {
        t["name"] for t in types["resource_types"]
    }
    hypervisor = client.get(
        NS + "?resource_types=OS::Nova::Flavor&sort_key=namespace&sort_dir=asc",
        token=tokens["demo"],
    ).json()
    assert [n["namespace"] for n in hypervisor["namespaces"]] == [
        "OS::Compute::CPUMode",
        "OS::Compute::Libvirt",
    ]
    # protected: not deletable, even by an admin
    refused = client.delete(NS + "/OS::Compute::Libvirt", token=tokens["admin"])
    assert refused.status == 403
    assert text(refused) == (
        "Metadata definition namespace OS::Compute::Libvirt is protected and cannot be deleted."
    )


def test_only_admins_write_and_private_namespaces_are_their_project_s(client, tokens):
    body = {"namespace": "Occli::Private", "visibility": "private"}
    refused = client.post(NS, json=body, token=tokens["demo"])
    assert refused.status == 403
    assert text(refused) == "You are not authorized to complete this action."
    created = make(client, tokens, "Occli::Private", visibility="private")
    with client.cloud.store.read() as db:
        admin_project = client.cloud.identity.project_id(db, "admin")
    assert created["owner"] == admin_project and created["protected"] is False
    hidden = client.get(NS + "/Occli::Private", token=tokens["demo"])
    assert hidden.status == 404
    assert text(hidden) == "Metadata definition namespace=Occli::Private was not found."
    names = [n["namespace"] for n in client.get(NS, token=tokens["demo"]).json()["namespaces"]]
    assert "Occli::Private" not in names
    # owned by demo's project: demo reads it, alt does not
    with client.cloud.store.read() as db:
        demo_project = client.cloud.identity.project_id(db, "demo")
    make(client, tokens, "Occli::Demo", visibility="private", owner=demo_project)
    assert client.get(NS + "/Occli::Demo", token=tokens["demo"]).status == 200
    assert client.get(NS + "/Occli::Demo", token=tokens["alt"]).status == 404
    assert client.delete(NS + "/Occli::Demo", token=tokens["demo"]).status == 403
    write = client.post(NS + "/Occli::Demo/tags/x", token=tokens["demo"])
    assert write.status == 403
    missing = client.delete(NS + "/Occli::Nothing", token=tokens["admin"])
    assert missing.status == 404 and text(missing) == "Namespace Occli::Nothing not found"


def test_create_checks_and_conflicts(client, tokens):
    admin = tokens["admin"]
    make(client, tokens)
    again = client.post(NS, json={"namespace": "Occli::Test"}, token=admin)
    assert again.status == 409
    assert text(again) == "The metadata definition namespace=Occli::Test already exists."
    for body, status, message in [
        ({"namespace": "x", "self": "y"}, 403, "Attribute 'self' is read-only."),
        ({"display_name": "x"}, 400, "Provided object does not match schema 'namespace'"),
        ({"namespace": "x", "visibility": "world"}, 400, "Provided object does not match"),
        ({"namespace": "x" * 81}, 400, "Provided object does not match schema 'namespace'"),
    ]:
        result = client.post(NS, json=body, token=admin)
        assert result.status == status and text(result).startswith(message), body
    assert text(client.post(NS, token=admin)) == "Body expected in request."


def test_namespace_with_nested_items_update_and_delete(client, tokens):
    admin = tokens["admin"]
    created = make(
        client,
        tokens,
        "Occli::Nested",
        display_name="Nested",
        visibility="public",
        resource_type_associations=[{"name": "OS::Glance::Image", "prefix": "occli_"}],
        properties={"speed": {"title": "Speed", "type": "integer", "minimum": 1}},
        objects=[{"name": "Box", "properties": {"w": {"title": "W", "type": "number"}}}],
        tags=[{"name": "alpha"}],
    )
    assert created["properties"] == {"speed": {"title": "Speed", "type": "integer", "minimum": 1}}
    assert created["objects"][0]["name"] == "Box" and created["tags"] == [{"name": "alpha"}]
    assert created["resource_type_associations"][0]["prefix"] == "occli_"
    updated = request(
        client,
        "PUT",
        NS + "/Occli::Nested",
        admin,
        {"namespace": "Occli::Renamed", "protected": True},
    )
    assert updated.status == 200, updated.body
    assert updated.json()["namespace"] == "Occli::Renamed" and "display_name" not in updated.json()
    assert updated.json()["visibility"] == "private"
    assert client.get(NS + "/Occli::Nested", token=admin).status == 404
    box = NS + "/Occli::Renamed/objects/Box"
    assert client.delete(box, token=admin).status == 403
    request(client, "PUT", NS + "/Occli::Renamed", admin, {"namespace": "Occli::Renamed"})
    assert client.delete(box, token=admin).status == 204
    assert client.delete(NS + "/Occli::Renamed", token=admin).status == 204
    assert client.get(NS + "/Occli::Renamed", token=admin).status == 404


def test_objects_and_properties(client, tokens):
    admin, demo = tokens["admin"], tokens["demo"]
    make(client, tokens, visibility="public")
    objects = NS + "/Occli::Test/objects"
    body = {
        "name": "CPU Limits",
        "required": ["a"],
        "properties": {"a": {"title": "A", "type": "string"}},
    }
    created = client.post(objects, json=body, token=admin)
    assert created.status == 201, created.body
    obj = created.json()
    assert obj["self"] == "/v2/metadefs/namespaces/Occli::Test/objects/CPU Limits"
    assert obj["schema"] == "/v2/schemas/metadefs/object" and obj["required"] == ["a"]
    dup = client.post(objects, json=body, token=admin)
    assert dup.status == 409 and text(dup) == (
        "A metadata definition object with name=CPU Limits already exists in"
        " namespace=Occli::Test."
    )
    bad = client.post(
        objects, json={"name": "x", "properties": {"p": {"title": "P"}}}, token=admin
    )
    assert bad.status == 400 and "'type' is a required property" in text(bad)
    listing = client.get(objects, token=demo).json()
    assert listing["schema"] == "v2/schemas/metadefs/objects"
    assert [o["name"] for o in listing["objects"]] == ["CPU Limits"]
    renamed = request(client, "PUT", objects + "/CPU Limits", admin, {"name": "Limits"})
    assert renamed.status == 200 and renamed.json()["properties"] == {}
    missing = client.get(objects + "/CPU Limits", token=demo)
    assert missing.status == 404 and text(missing) == (
        "The metadata definition object with name=CPU Limits was not found in"
        " namespace=Occli::Test."
    )
    properties = NS + "/Occli::Test/properties"
    prop = {"name": "speed", "title": "Speed", "type": "integer"}
    made = client.post(properties, json=prop, token=admin)
    assert made.status == 201 and made.json() == prop
    nameless = client.post(properties, json={"title": "T", "type": "string"}, token=admin)
    assert nameless.status == 400 and "'name' is a required property" in text(nameless)
    assert client.get(properties, token=demo).json() == {
        "properties": {"speed": {"title": "Speed", "type": "integer"}}
    }
    assert client.get(properties + "/speed", token=demo).json() == prop
    assert client.delete(properties + "/speed", token=demo).status == 403
    assert client.delete(properties + "/speed", token=admin).status == 204
    gone = client.get(properties + "/speed", token=demo)
    assert text(gone) == (
        "The metadata definition property with name=speed was not found in namespace=Occli::Test."
    )
    assert client.delete(objects, token=admin).status == 204
    assert client.get(objects, token=demo).json()["objects"] == []


def test_resource_type_associations(client, tokens):
    admin = tokens["admin"]
    make(client, tokens, visibility="public")
    path = NS + "/Occli::Test/resource_types"
    made = client.post(path, json={"name": "OS::Cinder::Volume", "prefix": "x_"}, token=admin)
    assert made.status == 201, made.body
    assert made.json()["name"] == "OS::Cinder::Volume" and made.json()["prefix"] == "x_"
    again = client.post(path, json={"name": "OS::Cinder::Volume"}, token=admin)
    assert again.status == 409
    listed = client.get(path, token=tokens["demo"]).json()["resource_type_associations"]
    assert [a["name"] for a in listed] == ["OS::Cinder::Volume"]
    types = client.get("/image/v2/metadefs/resource_types", token=admin).json()["resource_types"]
    assert "OS::Cinder::Volume" in [t["name"] for t in types]
    assert client.delete(path + "/OS::Cinder::Volume", token=admin).status == 204
    missing = client.delete(path + "/OS::Cinder::Volume", token=admin)
    assert missing.status == 404 and text(missing) == (
        "The metadata definition resource-type association of resource-type=OS::Cinder::Volume"
        " to namespace=Occli::Test, was not found."
    )


def test_tags(client, tokens):
    admin, demo = tokens["admin"], tokens["demo"]
    make(client, tokens, visibility="public")
    tags = NS + "/Occli::Test/tags"
    one = client.post(tags + "/alpha", token=admin)
    assert one.status == 201 and one.json()["name"] == "alpha" and "created_at" in one.json()
    dup = client.post(tags + "/ALPHA", token=admin)
    assert dup.status == 409 and text(dup).startswith(
        "A metadata tag with name=ALPHA already exists"
    )
    replaced = client.post(tags, json={"tags": [{"name": "b"}, {"name": "c"}]}, token=admin)
    assert replaced.status == 201 and replaced.json() == {"tags": [{"name": "b"}, {"name": "c"}]}
    assert client.get(tags, token=demo).json() == {"tags": [{"name": "b"}, {"name": "c"}]}
    appended = client.post(
        tags, json={"tags": [{"name": "d"}]}, token=admin, headers={"X-Openstack-Append": "True"}
    )
    assert appended.status == 201
    assert [t["name"] for t in client.get(tags, token=demo).json()["tags"]] == ["b", "c", "d"]
    twice = client.post(tags, json={"tags": [{"name": "e"}, {"name": "E"}]}, token=admin)
    assert twice.status == 409 and text(twice) == "Duplicate tags are not allowed."
    renamed = request(client, "PUT", tags + "/b", admin, {"name": "bee"})
    assert renamed.status == 200 and renamed.json()["name"] == "bee"
    assert client.get(tags + "/bee", token=demo).status == 200
    assert client.delete(tags + "/bee", token=admin).status == 204
    missing = client.get(tags + "/bee", token=demo)
    assert text(missing) == (
        "The metadata definition tag with name=bee was not found in namespace=Occli::Test."
    )
    assert client.delete(tags, token=admin).status == 204
    assert client.get(tags, token=demo).json() == {"tags": []}


def test_list_pages_and_filters(client, tokens):
    for i in range(3):
        make(client, tokens, "Occli::P%d" % i, visibility="public")
    admin = tokens["admin"]
    query = "?sort_key=namespace&sort_dir=asc&limit=2"
    page = client.get(NS + query, token=admin).json()
    first = [n["namespace"] for n in page["namespaces"]]
    assert first == sorted(first) and len(first) == 2
    # urlencoded, as Glance's serializer writes it
    assert page["next"].endswith("&marker=" + quote(first[-1], safe=""))
    rest = client.get(page["next"].replace("/v2", "/image/v2", 1), token=admin).json()
    assert [n["namespace"] for n in rest["namespaces"]][0] > first[-1]
    private = client.get(NS + "?visibility=private", token=admin).json()["namespaces"]
    assert all(n["visibility"] == "private" for n in private)
    for query, message in [
        ("?visibility=world", "Invalid visibility value: world"),
        ("?sort_dir=up", "Invalid sort direction: up"),
        ("?limit=x", "limit param must be an integer"),
        ("?limit=-1", "limit param must be positive"),
        ("?sort_key=nothing", "Sort key supplied was not valid."),
    ]:
        result = client.get(NS + query, token=admin)
        assert result.status == 400 and text(result) == message, query
