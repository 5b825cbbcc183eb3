"""Authorization of the local Glance's schemas, tasks and metadefs (issue
20, glance 33's default policies): the schemas are any token's; the tasks
API is admin-only (``tasks_api_access``, its ``DELETE`` Glance's 405 even
for admins); an image's tasks are read by whoever sees the image; a
private namespace of A is read by A's tokens and written by admins only
(``metadef_admin``: A's member 403, B 404).

A's task (``task_id``) is a pending one made by the rules module, as the
import flow makes them. A's namespace (``namespace``, re-made for each
allowed write) holds one object, property, tag and association of the
names in :data:`ITEMS`."""

TASK = "/v2/tasks/{task_id}"
IMPORT = {"type": "import", "input": {"import_from": "https://example.com/authz.img"}}
NS = "/v2/metadefs/namespaces"
ONE = NS + "/{namespace}"
ITEMS = {
    "object_name": "authz-object",
    "property_name": "authz-property",
    "tag_name": "authz-tag",
    "resource_type": "OS::Glance::Image",
}


def _new_namespace(world):
    """A fresh private namespace of A with one item of each kind."""
    import uuid

    from occli.localcloud.image import metadefs

    class Admin:
        project_id = world.projects["A"]
        is_admin = True

    name = "Authz::NS%s" % uuid.uuid4().hex[:10]
    body = {
        "namespace": name,
        "visibility": "private",
        "owner": world.projects["A"],
        "objects": [{"name": ITEMS["object_name"]}],
        "properties": {ITEMS["property_name"]: {"title": "T", "type": "string"}},
        "tags": [{"name": ITEMS["tag_name"]}],
        "resource_type_associations": [{"name": ITEMS["resource_type"]}],
    }
    with world.cloud.store.transaction() as db:
        metadefs.create_namespace(db, Admin(), body)
    return world.secret(name)


FACTORIES = {"namespace": _new_namespace}


def setup(world, ids):
    from occli.localcloud.image import tasks

    class Caller:
        project_id = world.projects["A"]
        user_id = None
        is_admin = False

    with world.cloud.store.transaction() as db:
        task = tasks.create_task(db, Caller(), "api_image_import", {}, ids.get("image_id"))
    ids["task_id"] = task["id"]
    world.secret(task["id"])
    ids["namespace"] = _new_namespace(world)
    ids.update(ITEMS)


def rules():
    from occli.localcloud.image import schemas
    from tests.security.test_authz_matrix import rule

    table = {("image", "GET", "/v2/schemas/" + name): rule("any") for name in schemas.SCHEMAS}
    table.update(
        {
            ("image", "GET", "/v2/tasks"): rule("admin"),
            ("image", "POST", "/v2/tasks"): rule("admin", 201, body=lambda ids: IMPORT),
            ("image", "GET", TASK): rule("admin"),
            ("image", "DELETE", TASK): rule("admin", 405),
            ("image", "GET", "/v2/images/{image_id}/tasks"): rule("read"),
        }
    )
    table.update(_metadef_rules())
    return table


def _metadef_rules():
    from tests.security.test_authz_matrix import _unique
    from tests.security.test_authz_matrix import rule

    def write(ok=200, **kw):
        return rule("admin_of", ok, fresh=("namespace",), **kw)

    prop = {"title": "T", "type": "string"}
    table = {
        ("GET", "/v2/metadefs/resource_types"): rule("any"),
        ("GET", NS): rule("any"),
        ("POST", NS): rule("admin", 201, body=lambda ids: {"namespace": _unique("Authz::New")}),
        ("GET", ONE): rule("read"),
        ("PUT", ONE): write(body=lambda ids: {"namespace": ids["namespace"]}),
        ("DELETE", ONE): write(204),
        ("POST", ONE + "/objects"): write(201, body=lambda ids: {"name": _unique("authz")}),
        ("POST", ONE + "/properties"): write(
            201, body=lambda ids: dict(prop, name=_unique("authz"))
        ),
        ("POST", ONE + "/resource_types"): write(
            201, body=lambda ids: {"name": "OS::Nova::Flavor"}
        ),
        ("POST", ONE + "/tags"): write(201, body=lambda ids: {"tags": [{"name": "authz-more"}]}),
        ("PUT", ONE + "/objects/{object_name}"): write(body=lambda ids: {"name": "authz-object"}),
        ("PUT", ONE + "/properties/{property_name}"): write(
            body=lambda ids: dict(prop, name="authz-property")
        ),
        ("PUT", ONE + "/tags/{tag_name}"): write(body=lambda ids: {"name": "authz-tag"}),
        ("POST", ONE + "/tags/{tag_name}"): write(
            201, params=lambda ids: {"tag_name": "authz-new-tag"}
        ),
        ("DELETE", ONE + "/resource_types/{resource_type}"): write(204),
    }
    for kind, param in (("objects", "object_name"), ("properties", "property_name")):
        table[("GET", ONE + "/" + kind)] = rule("read")
        table[("GET", ONE + "/%s/{%s}" % (kind, param))] = rule("read")
        table[("DELETE", ONE + "/%s/{%s}" % (kind, param))] = write(204)
    table[("GET", ONE + "/tags")] = rule("read")
    table[("GET", ONE + "/tags/{tag_name}")] = rule("read")
    table[("DELETE", ONE + "/tags/{tag_name}")] = write(204)
    table[("GET", ONE + "/resource_types")] = rule("read")
    for kind in ("objects", "properties", "tags"):
        table[("DELETE", ONE + "/" + kind)] = write(204)
    return {("image",) + key: value for key, value in table.items()}
