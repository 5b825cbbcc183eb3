"""The local Glance's tasks (issue 20): Glance 33's deprecated tasks API
(``glance/api/v2/tasks.py``: admins only by ``tasks_api_access``, its
checks and texts), ``GET /v2/images/{id}/tasks`` and the rules the import
flow uses (``image.tasks.create_task``/``update_task``)."""

import datetime

import pytest

from occli.localcloud.image import tasks as task_rules

TASKS = "/image/v2/tasks"
IMPORT = {"type": "import", "input": {"import_from": "https://example.com/x.img"}}


def text(result):
    """The message of glance's plain-text error page."""
    return result.body.decode().split("\n\n")[1]


@pytest.fixture
def tokens(client):
    return {user: client.token(user) for user in ("demo", "alt", "admin")}


def context(client, user):
    """The ``app.Context`` of ``user``'s token (as a handler gets it)."""

    class Caller:
        def __init__(self, project_id, user_id, is_admin):
            self.project_id, self.user_id, self.is_admin = project_id, user_id, is_admin

    with client.cloud.store.read() as db:
        project = client.cloud.identity.project_id(db, user)
    return Caller(project, user + "-id", user == "admin")


def new_task(client, user, image_id=None, task_type="api_image_import"):
    with client.cloud.store.transaction() as db:
        return task_rules.create_task(
            db, context(client, user), task_type, {"image_id": image_id}, image_id, "req-1"
        )


def test_the_tasks_api_is_admin_only_with_glance_text(client, tokens):
    task = new_task(client, "demo")
    for method, path in [
        ("GET", TASKS),
        ("POST", TASKS),
        ("GET", TASKS + "/" + task["id"]),
        ("DELETE", TASKS + "/" + task["id"]),
    ]:
        result = client.request(method, path, json=IMPORT, token=tokens["demo"])
        assert result.status == 403, (method, path)
        assert text(result) == "You are not authorized to complete tasks_api_access action."


def test_create_checks_the_body_then_fails_as_nothing_is_fetched(client, tokens):
    admin = tokens["admin"]
    for body, message in [
        ({"input": {}}, "Task 'type' is required"),
        ({"type": "import"}, "Task 'input' is required"),
        ({"type": "copy", "input": {}}, "Provided object does not match schema 'task': 'copy'"),
        ({"type": "import", "input": {}, "x": 1}, "Provided object does not match schema 'task'"),
        ({"type": "import", "input": {}}, "Invalid location: None"),
        (
            {"type": "import", "input": {"import_from": "file:///etc/passwd"}},
            "File based imports are not allowed.",
        ),
        (
            {"type": "import", "input": {"import_from": "ftp://host/x"}},
            "The given uri is not valid.",
        ),
    ]:
        result = client.post(TASKS, json=body, token=admin)
        assert result.status == 400 and text(result).startswith(message), (body, result.body)
    assert text(client.post(TASKS, token=admin)) == "Body expected in request."
    created = client.post(TASKS, json=IMPORT, token=admin)
    assert created.status == 201, created.body
    task = created.json()
    assert created.header("Location") == "/v2/tasks/" + task["id"]
    assert task["status"] == "failure" and task["message"] == task_rules.NO_FETCH
    assert task["input"] == IMPORT["input"] and task["result"] is None
    assert task["expires_at"] and task["schema"] == "/v2/schemas/task"
    shown = client.get(TASKS + "/" + task["id"], token=admin)
    assert shown.status == 200 and shown.json() == task


def test_show_unknown_and_delete_are_glance_texts(client, tokens):
    missing = "0c7b1a8e-2222-4d1f-9a55-5a1c7b6e9d00"
    result = client.get(TASKS + "/" + missing, token=tokens["admin"])
    assert result.status == 404
    assert text(result) == "Task with the given id %s was not found" % missing
    task = new_task(client, "demo")
    deleted = client.delete(TASKS + "/" + task["id"], token=tokens["admin"])
    assert deleted.status == 405 and deleted.header("Allow") == "GET"
    assert text(deleted).startswith("This operation is currently not permitted on Glance Tasks.")


def test_list_sorts_filters_and_pages_as_glance(client, tokens, clock):
    made = []
    for i in range(3):
        made.append(new_task(client, "demo" if i != 1 else "alt", task_type="import"))
        clock.advance(1)
    with client.cloud.store.transaction() as db:
        task_rules.update_task(db, made[0]["id"], "processing")
    admin = tokens["admin"]
    listing = client.get(TASKS, token=admin).json()
    assert [t["id"] for t in listing["tasks"]] == [t["id"] for t in reversed(made)]
    assert "input" not in listing["tasks"][0] and "message" not in listing["tasks"][0]
    assert listing["first"] == "/v2/tasks" and "next" not in listing
    assert listing["schema"] == "/v2/schemas/tasks"
    ascending = client.get(TASKS + "?sort_dir=asc&limit=2", token=admin).json()
    assert [t["id"] for t in ascending["tasks"]] == [made[0]["id"], made[1]["id"]]
    assert ascending["first"] == "/v2/tasks?sort_dir=asc&limit=2"
    assert ascending["next"] == "/v2/tasks?sort_dir=asc&limit=2&marker=" + made[1]["id"]
    rest = client.get(ascending["next"].replace("/v2", "/image/v2", 1), token=admin).json()
    assert [t["id"] for t in rest["tasks"]] == [made[2]["id"]]
    processing = client.get(TASKS + "?status=processing", token=admin).json()
    assert [t["id"] for t in processing["tasks"]] == [made[0]["id"]]
    owner = context(client, "alt").project_id
    by_owner = client.get(TASKS + "?owner=" + owner, token=admin).json()
    assert [t["id"] for t in by_owner["tasks"]] == [made[1]["id"]]
    by_status = client.get(TASKS + "?sort_key=status&sort_dir=asc", token=admin).json()
    assert [t["status"] for t in by_status["tasks"]] == ["pending", "pending", "processing"]
    for query, message in [
        ("sort_dir=up", "Invalid sort direction: up"),
        ("status=done", "Invalid status value: done"),
        ("type=copy", "Invalid type value: copy"),
        ("marker=nope", "Invalid marker format"),
        ("limit=x", "limit param must be an integer"),
        ("limit=-1", "limit param must be positive"),
        ("sort_key=input", "Sort key supplied was not valid."),
        (
            "marker=0c7b1a8e-2222-4d1f-9a55-5a1c7b6e9d00",
            "Task with the given id 0c7b1a8e-2222-4d1f-9a55-5a1c7b6e9d00 was not found",
        ),
    ]:
        result = client.get(TASKS + "?" + query, token=admin)
        assert result.status == 400 and text(result) == message, query


def test_status_changes_follow_glance_and_finished_tasks_expire(client, tokens, clock):
    task = new_task(client, "demo")
    with client.cloud.store.transaction() as db:
        with pytest.raises(Exception, match="Status transition from pending to success"):
            task_rules.update_task(db, task["id"], "success")
        with pytest.raises(Exception, match="Provided status of task is unsupported: done"):
            task_rules.update_task(db, task["id"], "done")
        task_rules.update_task(db, task["id"], "processing")
        done = task_rules.update_task(db, task["id"], "success", result={"image_id": "x"})
    assert done["status"] == "success" and done["result"] == {"image_id": "x"}
    assert done["expires_at"] is not None and "expires_at" not in task
    path = TASKS + "/" + task["id"]
    assert client.get(path, token=tokens["admin"]).status == 200
    clock.advance(task_rules.TIME_TO_LIVE.total_seconds() + 1)
    admin = client.token("admin")  # the first one has expired too
    assert client.get(path, token=admin).status == 404
    assert client.get(TASKS, token=admin).json()["tasks"] == []


def test_an_image_s_tasks_are_its_owner_s_raw_rows(client, tokens):
    created = client.post("/image/v2/images", json={"name": "t"}, token=tokens["demo"])
    image_id = created.json()["id"]
    task = new_task(client, "demo", image_id)
    path = "/image/v2/images/%s/tasks" % image_id
    result = client.get(path, token=tokens["demo"])
    assert result.status == 200, result.body
    (row,) = result.json()["tasks"]
    assert row["id"] == task["id"] and row["image_id"] == image_id
    assert row["deleted"] is False and row["deleted_at"] is None
    assert row["request_id"] == "req-1" and row["user_id"] == "demo-id"
    assert row["input"] == {"image_id": image_id} and row["message"] == ""
    datetime.datetime.fromisoformat(row["created_at"])
    assert "." in row["created_at"] and not row["created_at"].endswith("Z")
    # another project cannot see the image: Glance's bare 404
    hidden = client.get(path, token=tokens["alt"])
    assert hidden.status == 404 and text(hidden) == "The resource could not be found."
    assert client.get(path, token=tokens["admin"]).json()["tasks"][0]["id"] == task["id"]
