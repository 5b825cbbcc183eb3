"""``/group_types[/{group_type_id}[/group_specs[/{key}]]]`` (3.11, Cinder's
``cinder/api/v3/group_types.py`` and ``group_specs.py``; policies
``cinder/policies/group_types.py``): writes and spec reads are the
admin's, checked after the body as by Cinder's ``@validation.schema``;
``default`` is Cinder's 404 (no ``default_group_type`` is configured).

``/groups`` (3.13, ``cinder/api/v3/groups.py``, views
``cinder/api/v3/views/groups.py``, policies ``cinder/policies/groups.py``
and ``group_actions.py``) and ``/group_snapshots`` (3.14,
``group_snapshots.py``): the project's; ``reset_status`` (3.20, 3.19) and
the ``project_id`` of the views (3.58) are the admin's."""

from typing import Any

from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.volume import group_snapshots
from occli.localcloud.volume import groups
from occli.localcloud.volume import schemas
from occli.localcloud.volume.api import common
from occli.localcloud.volume.api import microversions
from occli.localcloud.volume.api import views

TYPES = "/group_types"
TYPE = TYPES + "/{group_type_id}"
SPECS = TYPE + "/group_specs"
SPEC = SPECS + "/{key}"
GROUPS = "/groups"
GROUP = GROUPS + "/{volume_group_id}"
GROUP_SNAPSHOTS = "/group_snapshots"
GROUP_SNAPSHOT = GROUP_SNAPSHOTS + "/{group_snapshot_id}"
# cinder/api/microversions.py
GROUP_VOLUME = "3.13"
GROUP_SNAPSHOTS_VERSION = "3.14"
GROUP_SNAPSHOT_RESET_STATUS = "3.19"
GROUP_VOLUME_RESET_STATUS = "3.20"
GROUP_VOLUME_LIST = "3.25"
GROUP_SNAPSHOT_PAGINATION = "3.29"
GROUP_GROUPSNAPSHOT_PROJECT_ID = "3.58"


def register(service):
    gate = microversions.GROUP_TYPE
    service.api("POST", TYPES, create_group_type, min_version=gate, role=None)
    service.api("GET", TYPES, list_group_types, min_version=gate)
    service.api("GET", TYPE, show_group_type, min_version=gate)
    service.api("PUT", TYPE, update_group_type, min_version=gate, role=None)
    service.api("DELETE", TYPE, delete_group_type, min_version=gate, role=None)
    service.api("GET", SPECS, list_group_specs, min_version=gate)
    service.api("POST", SPECS, create_group_specs, min_version=gate, role=None)
    service.api("GET", SPEC, show_group_spec, min_version=gate)
    service.api("PUT", SPEC, update_group_spec, min_version=gate, role=None)
    service.api("DELETE", SPEC, delete_group_spec, min_version=gate, role=None)
    service.api("POST", GROUPS, create_group, min_version=GROUP_VOLUME)
    service.api("GET", GROUPS, list_groups, min_version=GROUP_VOLUME)
    service.api("GET", GROUPS + "/detail", list_groups_detail, min_version=GROUP_VOLUME)
    service.api("POST", GROUPS + "/action", create_group_from_source,
                min_version=GROUP_SNAPSHOTS_VERSION)  # fmt: skip
    service.api("GET", GROUP, show_group, min_version=GROUP_VOLUME)
    service.api("PUT", GROUP, update_group, min_version=GROUP_VOLUME)
    service.api("POST", GROUP + "/action", group_action, min_version=GROUP_VOLUME)
    snaps = GROUP_SNAPSHOTS_VERSION
    service.api("POST", GROUP_SNAPSHOTS, create_group_snapshot, min_version=snaps)
    service.api("GET", GROUP_SNAPSHOTS, list_group_snapshots, min_version=snaps)
    service.api("GET", GROUP_SNAPSHOTS + "/detail", list_group_snapshots_detail,
                min_version=snaps)  # fmt: skip
    service.api("GET", GROUP_SNAPSHOT, show_group_snapshot, min_version=snaps)
    service.api("DELETE", GROUP_SNAPSHOT, delete_group_snapshot, min_version=snaps)
    service.api("POST", GROUP_SNAPSHOT + "/action", group_snapshot_action, min_version=snaps)


def _admin(req, rule):
    if not req.context.is_admin:
        raise common.policy_denied(rule)


def _show(req, row, status=200):
    return Response(status, {"group_type": groups.view(row, req.context.is_admin)})


def create_group_type(req):
    body = schemas.validate(groups.TYPE_CREATE, req.json())["group_type"]
    _admin(req, "group:group_types:create")
    row = groups.create(
        req.db,
        body["name"],
        body.get("description"),
        schemas.truthy(body.get("is_public", True)),
        body.get("group_specs"),
    )
    return _show(req, row, 202)


def list_group_types(req):
    found = groups.listing(req.db, public_only=not req.context.is_admin)
    admin = req.context.is_admin
    return Response(200, {"group_types": [groups.view(r, admin) for r in found]})


def show_group_type(req):
    type_id = req.params["group_type_id"]
    if type_id == "default":
        raise HTTPError(404, "Default group type can not be found.")
    return _show(req, groups.get(req.db, type_id))


def update_group_type(req):
    body = dict(schemas.validate(groups.TYPE_UPDATE, req.json())["group_type"])
    _admin(req, "group:group_types:update")
    if body.get("is_public") is not None:
        body["is_public"] = int(schemas.truthy(body["is_public"]))
    return _show(req, groups.update(req.db, req.params["group_type_id"], body))


def delete_group_type(req):
    _admin(req, "group:group_types:delete")
    groups.delete(req.db, req.params["group_type_id"])
    return Response(202, content_type=common.WEBOB_TYPE)


def list_group_specs(req):
    _admin(req, "group:group_types_specs:get_all")
    return Response(200, {"group_specs": groups.specs(req.db, req.params["group_type_id"])})


def create_group_specs(req):
    body = schemas.validate(groups.SPECS_CREATE, req.json())
    _admin(req, "group:group_types_specs:create")
    groups.set_specs(req.db, req.params["group_type_id"], body["group_specs"])
    return Response(202, body)


def show_group_spec(req):
    _admin(req, "group:group_types_specs:get")
    type_id, key = req.params["group_type_id"], req.params["key"]
    specs = groups.specs(req.db, type_id)
    if key not in specs:
        raise HTTPError(404, "Group Type %s has no extra spec with key %s." % (type_id, key))
    return Response(200, {key: specs[key]})


def update_group_spec(req):
    body = schemas.validate(groups.SPEC_UPDATE, req.json())
    _admin(req, "group:group_types_specs:update")
    type_id, key = req.params["group_type_id"], req.params["key"]
    groups.specs(req.db, type_id)
    if key not in body:
        raise HTTPError(400, "Request body and URI mismatch")
    groups.set_specs(req.db, type_id, body)
    return Response(200, body)


def delete_group_spec(req):
    _admin(req, "group:group_types_specs:delete")
    groups.delete_spec(req.db, req.params["group_type_id"], req.params["key"])
    return Response(202, content_type=common.WEBOB_TYPE)


# -- groups -----------------------------------------------------------------------


def group_detail(req, group):
    """Cinder's detailed group view at the request's microversion."""
    version = req.microversion
    view: dict[str, Any] = {
        "id": group["id"],
        "status": group["status"],
        "availability_zone": group["availability_zone"],
        "created_at": group["created_at"],
        "name": group["name"],
        "description": group["description"],
        "group_type": group["group_type_id"],
        "volume_types": groups.volume_types_of(group),
    }
    if version >= GROUP_SNAPSHOTS_VERSION:
        view["group_snapshot_id"] = group["group_snapshot_id"]
        view["source_group_id"] = group["source_group_id"]
    if version >= GROUP_VOLUME_LIST and schemas.truthy(
        common.query_params(req).get("list_volume", "false")
    ):
        view["volumes"] = groups.volume_ids(req.db, group["id"])
    if version >= microversions.GROUP_REPLICATION:
        view["replication_status"] = group["replication_status"]
    if version >= GROUP_GROUPSNAPSHOT_PROJECT_ID and req.context.is_admin:
        view["project_id"] = group["project_id"]
    return view


def _summary(item):
    return {"id": item["id"], "name": item["name"]}


def _group(req, group_id=None):
    return groups.get_group(req.db, req.context, group_id or req.params["volume_group_id"])


def _text(value):
    return value.strip() if isinstance(value, str) else value


def create_group(req):
    body = schemas.validate(groups.CREATE, req.json())["group"]
    group = groups.create_group(
        req.db,
        req.context,
        _text(body.get("name")),
        _text(body.get("description")),
        body["group_type"],
        body["volume_types"],
        body.get("availability_zone"),
    )
    return Response(202, {"group": _summary(group)})


def _list(req, render):
    params = common.query_params(req)
    params.pop("list_volume", None)
    filters = common.filters(req, params, groups.FILTERS)
    order = groups.sort_order(*common.sort(params))
    limit = common.limit(params)
    found = groups.group_listing(
        req.db, common.scope(req, params), filters, order, params.get("marker"), limit
    )
    body: dict[str, Any] = {"groups": [render(req, g) for g in found]}
    link = views.next_link(req, "groups", found, limit)
    if link:
        body["group_links"] = link
    return Response(200, body)


def list_groups(req):
    return _list(req, lambda _req, g: _summary(g))


def list_groups_detail(req):
    return _list(req, group_detail)


def show_group(req):
    return Response(200, {"group": group_detail(req, _group(req))})


def update_group(req):
    body = schemas.validate(groups.UPDATE, req.json())["group"]
    changes = {k: _text(v) for k, v in body.items()}
    groups.update_group(req.db, _group(req), changes, common.volumes_lazy(req))
    return Response(202, content_type=common.WEBOB_TYPE)


def create_group_from_source(req):
    """``POST /groups/action`` with ``create-from-src`` (3.14)."""
    body = req.json()
    action = common.action_name(body)
    if action != "create-from-src":
        raise common.no_such_action(action)
    spec = schemas.validate(groups.CREATE_FROM_SOURCE, body)["create-from-src"]
    group = group_snapshots.create_from_source(
        req.db,
        req.context,
        req.cloud.store,
        req.cloud.config,
        _text(spec.get("name")),
        _text(spec.get("description")),
        spec.get("group_snapshot_id"),
        spec.get("source_group_id"),
    )
    return Response(202, {"group": _summary(group)})


def _delete(req, body):
    spec = schemas.validate(groups.DELETE, body)["delete"]
    delete_volumes = schemas.truthy(spec.get("delete-volumes", False))
    groups.delete_group(req.db, _group(req), delete_volumes)
    return Response(202, content_type=common.WEBOB_TYPE)


def _reset_group_status(req, body):
    status = schemas.validate(groups.RESET_STATUS, body)["reset_status"]["status"]
    group = _group(req)
    if not req.context.is_admin:
        raise common.policy_denied("group:reset_status")
    groups.reset_group_status(req.db, group, groups.check_status(status))
    return Response(202, content_type=common.WEBOB_TYPE)


def _replication(schema):
    def handler(req, body):
        action = common.action_name(schemas.validate(schema, body))
        answer = groups.replication(req.db, _group(req), action)
        return Response(200, answer) if answer else Response(202, content_type=common.WEBOB_TYPE)

    return handler


# action: (microversion, handler)
GROUP_ACTIONS = {
    "delete": (GROUP_VOLUME, _delete),
    "reset_status": (GROUP_VOLUME_RESET_STATUS, _reset_group_status),
    "enable_replication": (
        microversions.GROUP_REPLICATION,
        _replication(groups.ENABLE_REPLICATION),
    ),
    "disable_replication": (
        microversions.GROUP_REPLICATION,
        _replication(groups.DISABLE_REPLICATION),
    ),
    "failover_replication": (
        microversions.GROUP_REPLICATION,
        _replication(groups.FAILOVER_REPLICATION),
    ),
    "list_replication_targets": (
        microversions.GROUP_REPLICATION,
        _replication(groups.LIST_REPLICATION),
    ),
}


def _dispatch(req, actions):
    body = req.json()
    action = common.action_name(body)
    if action not in actions:
        raise common.no_such_action(action)
    min_version, handler = actions[action]
    if req.microversion < min_version:
        # Cinder's VersionNotFoundForAPIMethod, as for the volume actions
        raise HTTPError(404, "The resource could not be found.")
    return handler(req, body)


def group_action(req):
    """``POST /groups/{id}/action``: ``GROUP_ACTIONS``, each from its
    microversion."""
    return _dispatch(req, GROUP_ACTIONS)


# -- group snapshots ----------------------------------------------------------------


def group_snapshot_detail(req, snap):
    view = {
        "id": snap["id"],
        "group_id": snap["group_id"],
        "group_type_id": snap["group_type_id"],
        "status": snap["status"],
        "created_at": snap["created_at"],
        "name": snap["name"],
        "description": snap["description"],
    }
    if req.microversion >= GROUP_GROUPSNAPSHOT_PROJECT_ID and req.context.is_admin:
        view["project_id"] = snap["project_id"]
    return view


def _snapshot(req):
    return group_snapshots.get(req.db, req.context, req.params["group_snapshot_id"])


def create_group_snapshot(req):
    body = schemas.validate(group_snapshots.CREATE, req.json())["group_snapshot"]
    group = _group(req, body["group_id"])
    snap = group_snapshots.create(
        req.db,
        req.context,
        group,
        body.get("name"),
        body.get("description"),
        common.volumes_lazy(req),
    )
    view = {"id": snap["id"], "name": snap["name"], "group_type_id": snap["group_type_id"]}
    return Response(202, {"group_snapshot": view})


def _list_snapshots(req, render):
    """Filters, sorting and paging from 3.29 (before: every one, newest first)."""
    params = common.query_params(req)
    filters: dict[str, Any] = {}
    order = group_snapshots.sort_order(["created_at"], ["desc"])
    marker = limit = None
    if req.microversion >= GROUP_SNAPSHOT_PAGINATION:
        filters = common.filters(req, params, group_snapshots.FILTERS)
        order = group_snapshots.sort_order(*common.sort(params))
        marker, limit = params.get("marker"), common.limit(params)
    found = group_snapshots.listing(
        req.db, common.scope(req, params), filters, order, marker, limit
    )
    body: dict[str, Any] = {"group_snapshots": [render(req, s) for s in found]}
    # cinder/api/v3/views/group_snapshots.py names it so (groups: group_links)
    link = views.next_link(req, "group_snapshots", found, limit)
    if link:
        body["group_snapshot_links"] = link
    return Response(200, body)


def list_group_snapshots(req):
    return _list_snapshots(req, lambda _req, s: _summary(s))


def list_group_snapshots_detail(req):
    return _list_snapshots(req, group_snapshot_detail)


def show_group_snapshot(req):
    return Response(200, {"group_snapshot": group_snapshot_detail(req, _snapshot(req))})


def delete_group_snapshot(req):
    group_snapshots.delete(req.db, _snapshot(req))
    return Response(202, content_type=common.WEBOB_TYPE)


def _reset_snapshot_status(req, body):
    status = schemas.validate(groups.RESET_STATUS, body)["reset_status"]["status"]
    snap = _snapshot(req)
    if not req.context.is_admin:
        raise common.policy_denied("group:reset_group_snapshot_status")
    group_snapshots.reset_status(req.db, snap, status)
    return Response(202, content_type=common.WEBOB_TYPE)


def group_snapshot_action(req):
    """``POST /group_snapshots/{id}/action``: ``reset_status`` (3.19)."""
    return _dispatch(req, {"reset_status": (GROUP_SNAPSHOT_RESET_STATUS, _reset_snapshot_status)})
