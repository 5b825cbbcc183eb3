"""``/v3/projects/{project_id}/tags[/{tag}]``: a project's tags — list,
replace, clear (admin), check one, add one (admin; at most 80), delete one
(admin) — and the ``tags``, ``tags-any``, ``not-tags``, ``not-tags-any``
filters of ``GET /v3/projects`` (keystone/api/projects.py,
keystone/resource/core.py, keystone/common/policies/project.py)."""

import json

from occli.localcloud import errors
from occli.localcloud.app import Response
from occli.localcloud.identity import admin_schemas
from occli.localcloud.identity import policy
from occli.localcloud.identity import projects

PATH = "/v3/projects/{project_id}/tags"
FILTERS = ("tags", "tags-any", "not-tags", "not-tags-any")


def register(service):
    service.route("GET", PATH, list_tags)
    service.route("PUT", PATH, replace_tags)
    service.route("DELETE", PATH, delete_tags)
    service.route("GET", PATH + "/{tag}", check_tag)
    service.route("PUT", PATH + "/{tag}", add_tag)
    service.route("DELETE", PATH + "/{tag}", delete_tag)


def filter_projects(rows, query):
    """``rows`` (projects) kept by the tag filters of ``query``: all of
    ``tags``, any of ``tags-any``, not all of ``not-tags``, none of
    ``not-tags-any`` (comma-separated)."""
    for key in FILTERS:
        if key not in query:
            continue
        wanted = set(query[key][-1].split(","))
        kept = []
        for row in rows:
            tags = set(json.loads(row["tags"]))
            match = {
                "tags": wanted <= tags,
                "tags-any": bool(wanted & tags),
                "not-tags": not wanted <= tags,
                "not-tags-any": not wanted & tags,
            }[key]
            if match:
                kept.append(row)
        rows = kept
    return rows


def _project(req, action, admin=False):
    """The URL's project row after keystone's policy: admin, or (to read)
    a token scoped to it or a reader of its domain."""
    row = projects.get(req.db, req.params["project_id"])
    ctx = req.context
    allowed = ctx.is_admin
    if not admin and not allowed:
        allowed = policy.domain_reader(ctx, row["domain_id"]) or ctx.project_id == row["id"]
    policy.enforce(ctx, action, allowed)
    return row


def _tags_body(req, tags):
    # keystone's wrap_member of a list: its self link is the API root
    return {"links": {"self": req.base_url + "/v3"}, "tags": tags}


def list_tags(req):
    """``GET /v3/projects/{project_id}/tags``."""
    row = _project(req, "list_project_tags")
    return Response(200, _tags_body(req, json.loads(row["tags"])))


def replace_tags(req):
    """``PUT /v3/projects/{project_id}/tags`` ``{"tags": [...]}``."""
    body = req.json()
    row = _project(req, "update_project_tags", admin=True)
    tags = body.get("tags", {}) if isinstance(body, dict) else {}
    admin_schemas.check_tags("PROJECT_TAGS", tags)
    tags = [t.strip() for t in tags]
    projects.update(req.db, row["id"], {"tags": tags})
    return Response(200, _tags_body(req, tags))


def delete_tags(req):
    """``DELETE /v3/projects/{project_id}/tags``: every tag."""
    row = _project(req, "delete_project_tags", admin=True)
    projects.update(req.db, row["id"], {"tags": []})
    return Response(204)


def _not_found(tag):
    return errors.NotFound("Could not find project tag: %s." % tag)


def check_tag(req):
    """``GET``/``HEAD /v3/projects/{project_id}/tags/{tag}``: 204 or 404."""
    row = _project(req, "get_project_tag")
    if req.params["tag"] not in json.loads(row["tags"]):
        raise _not_found(req.params["tag"])
    return Response(204)


def add_tag(req):
    """``PUT /v3/projects/{project_id}/tags/{tag}``: 201, its Location as
    keystone writes it (without ``/projects``)."""
    row = _project(req, "create_project_tag", admin=True)
    tag = req.params["tag"]
    admin_schemas.check_tags("PROJECT_TAG", tag)
    tags = json.loads(row["tags"]) + [tag]
    admin_schemas.check_tags("PROJECT_TAGS", tags)
    projects.update(req.db, row["id"], {"tags": [t.strip() for t in tags]})
    location = "%s/v3/%s/tags/%s" % (req.base_url, row["id"], tag)
    return Response(201, headers={"Location": location})


def delete_tag(req):
    """``DELETE /v3/projects/{project_id}/tags/{tag}``."""
    row = _project(req, "delete_project_tag", admin=True)
    tags = json.loads(row["tags"])
    if req.params["tag"] not in tags:
        raise _not_found(req.params["tag"])
    tags.remove(req.params["tag"])
    projects.update(req.db, row["id"], {"tags": tags})
    return Response(204)
