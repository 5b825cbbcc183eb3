"""The local Glance's ``/v2/schemas/…`` (issue 20): Glance 33's bodies
(``glance/schema.py``, ``glance/api/v2/schemas.py`` and the resource
modules' ``get_schema``), and an image the local Glance returns valid
against the image schema it serves."""

import jsonschema
import pytest

from occli.localcloud.image import schemas

SCHEMAS = "/image/v2/schemas/"
NAMES = [
    "image",
    "images",
    "member",
    "members",
    "task",
    "tasks",
    "metadefs/namespace",
    "metadefs/namespaces",
    "metadefs/resource_type",
    "metadefs/resource_types",
    "metadefs/property",
    "metadefs/properties",
    "metadefs/object",
    "metadefs/objects",
    "metadefs/tag",
    "metadefs/tags",
]


@pytest.fixture
def token(client):
    return client.token("demo")


def schema(client, token, name):
    result = client.get(SCHEMAS + name, token=token)
    assert result.status == 200, result.body
    return result.json()


def test_every_glance_schema_is_served_and_needs_a_token(client, token):
    assert sorted(schemas.SCHEMAS) == sorted(NAMES)
    for name in NAMES:
        body = schema(client, token, name)
        expected = name.split("/")[-1].replace("resource_type", "resource_type_association")
        assert body["name"] == expected
        jsonschema.Draft4Validator.check_schema(body)
    assert client.get(SCHEMAS + "image").status == 401
    assert client.get(SCHEMAS + "nothing", token=token).status == 404


def test_the_image_schema_is_permissive_with_glance_links(client, token):
    image = schema(client, token, "image")
    assert image["additionalProperties"] == {"type": "string"}
    assert [link["rel"] for link in image["links"]] == ["self", "enclosure", "describedby"]
    assert image["properties"]["disk_format"]["enum"][0] is None
    assert "qcow2" in image["properties"]["disk_format"]["enum"]
    assert image["properties"]["status"]["readOnly"] is True
    # etc/schema-image.json's properties are not base ones
    assert image["properties"]["os_distro"]["is_base"] is False
    assert "is_base" not in image["properties"]["name"]


def test_a_local_image_and_the_image_list_match_their_schemas(client, token):
    created = client.post(
        "/image/v2/images",
        json={"name": "schema", "disk_format": "raw", "os_distro": "x"},
        token=token,
    )
    assert created.status == 201, created.body
    image_schema = schema(client, token, "image")
    jsonschema.validate(created.json(), image_schema)
    # every member the local Glance shows is described (none as a string extra)
    assert set(created.json()) <= set(image_schema["properties"])
    listing = client.get("/image/v2/images", token=token).json()
    jsonschema.validate(listing, schema(client, token, "images"))
    bad = dict(created.json(), visibility="world")
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, image_schema)


def test_collections_carry_the_item_and_its_definitions(client, token):
    namespaces = schema(client, token, "metadefs/namespaces")
    item = namespaces["properties"]["namespaces"]["items"]
    assert item["required"] == ["namespace"] and "definitions" not in item
    assert set(namespaces["definitions"]) == {
        "positiveInteger",
        "positiveIntegerDefault0",
        "stringArray",
        "property",
    }
    assert [link["rel"] for link in namespaces["links"]] == ["first", "next", "describedby"]
    properties = schema(client, token, "metadefs/properties")
    assert properties["properties"]["properties"]["type"] == "object"
    assert properties["properties"]["properties"]["additionalProperties"]["required"] == [
        "type",
        "title",
    ]
    prop = schema(client, token, "metadefs/property")
    assert prop["required"] == ["type", "title", "name"]
    assert prop["definitions"]["stringArray"]["minItems"] == 1


def test_members_and_tasks_are_glance_minimal_schemas(client, token):
    member = schema(client, token, "member")
    assert set(member) == {"name", "properties"}
    assert member["properties"]["status"]["enum"] == ["pending", "accepted", "rejected"]
    tasks = schema(client, token, "tasks")
    assert set(tasks["properties"]) == {"tasks", "schema"}
    stub = tasks["properties"]["tasks"]["items"]["properties"]
    assert "input" not in stub and "result" not in stub and "message" not in stub
    assert "input" in schema(client, token, "task")["properties"]
    assert tasks["links"] == [{"rel": "describedby", "href": "{schema}"}]


def test_a_served_schema_cannot_be_changed_by_a_caller(client, token):
    schemas.get("image")["properties"].clear()
    assert schema(client, token, "image")["properties"]["id"]["type"] == "string"
