"""``/v2/tasks`` (Glance's deprecated tasks API, admins only by policy
``tasks_api_access``): list (filters, sort, paging with ``first`` and
``next``), show, create; ``DELETE`` is Glance's 405; and
``GET /v2/images/{id}/tasks``. The rules are in
:mod:`occli.localcloud.image.tasks`."""

import uuid
from urllib.parse import urlencode

from occli.localcloud import errors
from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.image import images
from occli.localcloud.image import tasks
from occli.localcloud.image.api.body import json_body

TASKS = "/v2/tasks"
# glance/api/v2/tasks.py TasksController.delete
NO_DELETE = (
    "This operation is currently not permitted on Glance Tasks. They are auto deleted"
    " after reaching the time based on their expires_at property."
)


def register(service):
    # tasks_api_access is checked before anything else: role=None, then
    # _access in each handler
    service.route("GET", TASKS, list_tasks)
    service.route("POST", TASKS, create_task, role=None)
    service.route("GET", TASKS + "/{task_id}", show_task)
    service.route("DELETE", TASKS + "/{task_id}", delete_task, role=None)
    service.route("GET", "/v2/images/{image_id}/tasks", image_tasks)


def _access(req):
    """Glance's ``tasks_api_access`` policy (``context_is_admin``)."""
    if not req.context.is_admin:
        raise HTTPError(403, "You are not authorized to complete tasks_api_access action.")


def list_tasks(req):
    """``GET /v2/tasks``: the tasks' stubs, newest first by default."""
    _access(req)
    params = {key: values[-1] for key, values in req.query.items()}
    tasks.check_list_query(params)
    marker = params.pop("marker", None)
    if marker is not None:
        try:
            uuid.UUID(marker)
        except ValueError:
            raise HTTPError(400, "Invalid marker format") from None
    limit = MAX = tasks.MAX_LIMIT
    if "limit" in params:
        try:
            limit = int(params.pop("limit"))
        except ValueError:
            raise HTTPError(400, "limit param must be an integer") from None
        if limit < 0:
            raise HTTPError(400, "limit param must be positive")
    limit = min(limit, MAX)
    sort_key = params.pop("sort_key", "created_at")
    sort_dir = params.pop("sort_dir", "desc")
    try:
        found = tasks.page(req.db, req.context, params, sort_key, sort_dir, limit, marker)
    except errors.NotFound as error:
        # an unknown marker: Glance's index answers 400 with its text
        raise HTTPError(400, error.message) from None
    body = {"tasks": found, "first": TASKS + _query(req), "schema": "/v2/schemas/tasks"}
    if found and len(found) == limit:
        body["next"] = TASKS + _query(req, marker=found[-1]["id"])
    return Response(200, body)


def show_task(req):
    _access(req)
    return Response(200, tasks.show(req.db, req.context, req.params["task_id"]))


def create_task(req):
    """``POST /v2/tasks``: 201, the task and its ``Location``."""
    _access(req)
    body = json_body(req)
    task = tasks.create_from_request(req.db, req.context, body, req.request_id)
    return Response(201, task, headers={"Location": task["self"]})


def delete_task(req):
    _access(req)
    raise HTTPError(405, NO_DELETE, headers={"Allow": "GET"})


def image_tasks(req):
    """``GET /v2/images/{id}/tasks``: the image's tasks (an image the caller
    cannot see is Glance's bare 404)."""
    image_id = req.params["image_id"]
    if images.get_visible_image(req.db, req.context, image_id) is None:
        raise req.cloud.image.not_found(req)
    return Response(200, {"tasks": tasks.image_tasks(req.db, req.context, image_id)})


def _query(req, marker=None):
    """The request's query without its marker (``marker``: with this one),
    as Glance's serializer writes ``first`` and ``next``."""
    pairs = [(k, v[-1]) for k, v in req.query.items() if k != "marker"]
    if marker is not None:
        pairs.append(("marker", marker))
    return "?" + urlencode(pairs) if pairs else ""
