"""Authorization of the local Glance's schemas, tasks and metadefs (issue
20, glance 33's default policies): the schemas are any token's; the tasks
API is admin-only (``tasks_api_access``, its ``DELETE`` Glance's 405 even
for admins); an image's tasks are read by whoever sees the image.

A's task (``task_id``) is a pending one made by the rules module, as the
import flow makes them."""

TASK = "/v2/tasks/{task_id}"
IMPORT = {"type": "import", "input": {"import_from": "https://example.com/authz.img"}}


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
    return table
