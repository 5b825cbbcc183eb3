"""``VolumeService``: Cinder's block storage API v3 at ``/volume``.

Version documents at ``/volume/`` (300) and ``/volume/v3`` (no token); the
API at ``/volume/v3/{project_id}/…`` and, as Cinder routes it, without the
project segment. Microversions from the ``OpenStack-API-Version: volume
3.N`` header (``MAX_VERSION``); Cinder's fault bodies (``{"badRequest":
{"code", "message"}}``); routes, query parameters and views here, the rules
in :mod:`.volumes`, :mod:`.snapshots`, :mod:`.types`, :mod:`.attachments`
and :mod:`.quotas`.

``MAX_VERSION`` is 3.70, the newest microversion whose behaviour is
emulated for what this cloud serves: 3.67 (no project id in URLs) is routed,
3.68 (re-image) and 3.70 (encrypted transfers) concern operations not
served here (their routes answer as at any version), while 3.71 adds the
``os-extend_volume_completion`` action, Nova's callback after a hypervisor
extended an attached volume, which has no meaning without one.
"""

import re

from occli.localcloud import microversions
from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.app import Service
from occli.localcloud.microversions import APIVersion
from occli.localcloud.volume import attachments
from occli.localcloud.volume import migrations
from occli.localcloud.volume import quotas
from occli.localcloud.volume import schemas
from occli.localcloud.volume import snapshots
from occli.localcloud.volume import types
from occli.localcloud.volume import views
from occli.localcloud.volume import volumes

MIN_VERSION = "3.0"
MAX_VERSION = "3.70"
UPDATED = "2023-08-31T00:00:00Z"
HEADER = microversions.HEADER
NEW_ATTACH = "3.27"
RESOURCE_FILTER = "3.34"
EXTEND_ATTACHED = "3.42"
SUPPORT_COUNT_INFO = "3.45"
SNAPSHOT_IN_USE = "3.66"
MAX_LIMIT = 1000

FAULT_NAMES = {
    400: "badRequest",
    401: "unauthorized",
    403: "forbidden",
    404: "itemNotFound",
    405: "badMethod",
    409: "conflictingRequest",
    413: "overLimit",
    415: "badMediaType",
    501: "notImplemented",
    503: "serviceUnavailable",
}
_PROJECT_ID = re.compile(r"^[0-9a-fA-F\-]+$")
# list parameters that are not filters
_PAGING = ("limit", "marker", "offset", "sort", "sort_key", "sort_dir", "all_tenants",
           "project_id", "with_count", "is_public")  # fmt: skip

# cinder's policy rule of each write route: (method, pattern) -> rule
_RULES = {
    ("POST", "/volumes"): "volume:create",
    ("PUT", "/volumes/{volume_id}"): "volume:update",
    ("DELETE", "/volumes/{volume_id}"): "volume:delete",
    ("POST", "/volumes/{volume_id}/action"): "volume:extend",
    ("POST", "/volumes/{volume_id}/metadata"): "volume:create_volume_metadata",
    ("PUT", "/volumes/{volume_id}/metadata"): "volume:update_volume_metadata",
    ("PUT", "/volumes/{volume_id}/metadata/{key}"): "volume:update_volume_metadata",
    ("DELETE", "/volumes/{volume_id}/metadata/{key}"): "volume:delete_volume_metadata",
    ("POST", "/snapshots"): "volume:create_snapshot",
    ("PUT", "/snapshots/{snapshot_id}"): "volume:update_snapshot",
    ("DELETE", "/snapshots/{snapshot_id}"): "volume:delete_snapshot",
}


def _policy(rule):
    return HTTPError(403, "Policy doesn't allow %s to be performed." % rule)


def negotiate(header):
    """The APIVersion a request asks for (Cinder's
    ``set_api_version_request``): none → 3.0, ``latest`` → max, malformed
    → 400, out of range → 406."""
    if header is None:
        return APIVersion(MIN_VERSION)
    text = None
    for item in header.split(","):
        if "volume " in item:
            parts = item.split()
            text = parts[1] if len(parts) == 2 else None
            break
    if not text:
        raise HTTPError(400, "API version %s is not supported on this method." % text)
    if text == "latest":
        return APIVersion(MAX_VERSION)
    return microversions.check(text, MIN_VERSION, MAX_VERSION)


def _name_changes(body):
    """The ``name``/``description`` an update sets, stripped (a
    ``display_*`` alias wins over the plain key)."""
    changes = {}
    for field, column in (
        ("name", "name"),
        ("display_name", "name"),
        ("description", "description"),
        ("display_description", "description"),
    ):
        if field in body:
            value = body[field]
            changes[column] = value.strip() if isinstance(value, str) else value
    return changes


class VolumeService(Service):
    """Cinder's block storage API v3 at ``/volume``."""

    name = "volume"
    prefix = "/volume"
    write_role = "member"

    def __init__(self, cloud):
        super().__init__(cloud)
        self.route("GET", "/", self.versions, auth=False)
        self.route("GET", "/v3", self.version, auth=False)
        self._project_routes = []
        api = self.api
        api("GET", "/volumes", self.list_volumes)
        api("GET", "/volumes/detail", self.list_volumes_detail)
        api("POST", "/volumes", self.create_volume)
        api("GET", "/volumes/{volume_id}", self.show_volume)
        api("PUT", "/volumes/{volume_id}", self.update_volume)
        api("DELETE", "/volumes/{volume_id}", self.delete_volume)
        api("POST", "/volumes/{volume_id}/action", self.volume_action)
        api("GET", "/volumes/{volume_id}/metadata", self.show_metadata)
        api("POST", "/volumes/{volume_id}/metadata", self.create_metadata)
        api("PUT", "/volumes/{volume_id}/metadata", self.replace_metadata)
        api("GET", "/volumes/{volume_id}/metadata/{key}", self.show_metadata_item)
        api("PUT", "/volumes/{volume_id}/metadata/{key}", self.update_metadata_item)
        api("DELETE", "/volumes/{volume_id}/metadata/{key}", self.delete_metadata_item)
        api("GET", "/snapshots", self.list_snapshots)
        api("GET", "/snapshots/detail", self.list_snapshots_detail)
        api("POST", "/snapshots", self.create_snapshot)
        api("GET", "/snapshots/{snapshot_id}", self.show_snapshot)
        api("PUT", "/snapshots/{snapshot_id}", self.update_snapshot)
        api("DELETE", "/snapshots/{snapshot_id}", self.delete_snapshot)
        api("POST", "/snapshots/{snapshot_id}/action", self.snapshot_action)
        api("GET", "/types", self.list_types)
        api("GET", "/types/{type_id}", self.show_type)
        api("GET", "/attachments", self.list_attachments)
        api("GET", "/attachments/detail", self.list_attachments_detail)
        api("GET", "/attachments/{attachment_id}", self.show_attachment)
        api("GET", "/os-quota-sets/{target_id}", self.show_quotas)
        api("GET", "/os-quota-sets/{target_id}/defaults", self.quota_defaults)
        api("PUT", "/os-quota-sets/{target_id}", self.update_quotas, role=None)
        api("DELETE", "/os-quota-sets/{target_id}", self.delete_quotas, role=None)
        self.routes.extend(self._project_routes)

    def api(self, method, pattern, handler, role="auto"):
        """Route ``/v3<pattern>`` and ``/v3/{project_id}<pattern>``."""
        self.route(method, "/v3" + pattern, handler, role=role)
        self._project_routes.append(
            self.make_route(method, "/v3/{project_id}" + pattern, handler, role=role)
        )

    # -- framing ------------------------------------------------------------------

    def migrations(self):
        return list(migrations.COMPONENTS)

    def seed(self, db):
        types.seed(db)

    def before(self, req):
        if not req.path.startswith(self.prefix + "/v3/"):
            return
        req.microversion = negotiate(req.header(HEADER))
        project_id = req.params.get("project_id")
        if project_id is None:
            return
        if not _PROJECT_ID.match(project_id):
            raise HTTPError(404, "The resource could not be found.")
        if req.context is not None and project_id != req.context.project_id:
            raise HTTPError(400, "Malformed request url")

    def after(self, req, resp):
        if req.microversion is not None:
            resp.headers[HEADER] = "volume %s" % req.microversion
            resp.headers["Vary"] = HEADER

    def error_body(self, status, message, extra):
        if status == 401:
            return {"error": {"code": 401, "title": "Unauthorized", "message": message}}
        body = {"code": status, "message": message}
        headers = {}
        if status == 413 and "retryAfter" in extra:
            body["retryAfter"] = extra["retryAfter"]
            headers["Retry-After"] = extra["retryAfter"]
        return Response(status, {FAULT_NAMES.get(status, "computeFault"): body}, headers=headers)

    def policy_denied(self, req, route):
        pattern = route.pattern.replace("/{project_id}", "", 1)[len("/v3") :]
        return _policy(_RULES.get((route.method, pattern), "volume:%s" % route.method.lower()))

    # -- version documents ----------------------------------------------------------

    def _document(self, req):
        return {
            "versions": [
                {
                    "id": "v3.0",
                    "links": [
                        {
                            "href": "https://docs.openstack.org/",
                            "rel": "describedby",
                            "type": "text/html",
                        },
                        {"href": req.base_url + self.prefix + "/v3/", "rel": "self"},
                    ],
                    "media-types": [
                        {
                            "base": "application/json",
                            "type": "application/vnd.openstack.volume+json;version=3",
                        }
                    ],
                    "min_version": MIN_VERSION,
                    "status": "CURRENT",
                    "updated": UPDATED,
                    "version": MAX_VERSION,
                }
            ]
        }

    def versions(self, req):
        return Response(300, self._document(req))

    def version(self, req):
        return self._document(req)

    # -- helpers --------------------------------------------------------------------

    def _volumes_lazy(self, req):
        return volumes.lazy_volumes(req.cloud.store, req.cloud.config)

    def _snapshots_lazy(self, req):
        return snapshots.lazy_snapshots(req.cloud.store, req.cloud.config)

    def _volume(self, req):
        return volumes.get(req.db, req.context, req.params["volume_id"], self._volumes_lazy(req))

    def _volume_view(self, req, volume):
        return views.volume_detail(
            req, volume, types.names(req.db), volumes.attachments(req.db, volume["id"])
        )

    def _params(self, req):
        return {k: v[-1] for k, v in req.query.items()}

    def _limit(self, params):
        raw = params.get("limit")
        if raw is None:
            return None
        try:
            limit = int(raw)
        except ValueError:
            raise HTTPError(400, "limit param must be an integer") from None
        if limit < 0:
            raise HTTPError(400, "limit param must be positive")
        return min(limit, MAX_LIMIT)

    def _sort(self, params):
        if "sort" in params and ("sort_key" in params or "sort_dir" in params):
            raise HTTPError(
                400,
                "The 'sort_key' and 'sort_dir' parameters are deprecated and cannot be used"
                " with the 'sort' parameter.",
            )
        keys, dirs = [], []
        if "sort" in params:
            for item in params["sort"].strip().split(","):
                key, _sep, direction = item.partition(":")
                keys.append(key.strip())
                dirs.append((direction or "desc").strip())
        else:
            keys.append(params.get("sort_key", "created_at").strip())
            dirs.append(params.get("sort_dir", "desc").strip())
        return keys, dirs

    def _scope(self, req, params):
        """The project a list shows (None: every project, admins asking
        ``all_tenants``; a ``project_id`` with it narrows to that one)."""
        ctx = req.context
        if ctx.is_admin and "all_tenants" in params:
            return params.get("project_id")
        return ctx.project_id

    def _filters(self, req, params, allowed):
        candidates = {k: v for k, v in params.items() if k not in _PAGING}
        if req.microversion >= RESOURCE_FILTER:
            unknown = sorted(k for k in candidates if k not in allowed)
            if unknown:
                raise HTTPError(
                    400, "Invalid filters %s are found in query options." % ",".join(unknown)
                )
        return {k: v for k, v in candidates.items() if k in allowed}

    # -- volumes ----------------------------------------------------------------------

    def _list(self, req):
        params = self._params(req)
        filters = volumes.parse_filters(self._filters(req, params, volumes.FILTERS))
        if "display_name" in params and "name" not in filters:
            filters["name"] = params["display_name"]
        order = volumes.sort_order(*self._sort(params))
        limit = self._limit(params)
        found = volumes.listing(
            req.db,
            req.context,
            self._volumes_lazy(req),
            self._scope(req, params),
            filters,
            order,
            params.get("marker"),
            None,
        )
        total = len(found)
        offset = params.get("offset")
        if offset is not None:
            try:
                start = int(offset)
            except ValueError:
                raise HTTPError(400, "offset param must be an integer") from None
            if start < 0:
                raise HTTPError(400, "offset param must be positive")
            found = found[start:]
        page = found if limit is None else found[:limit]
        return page, total, limit, params

    def _list_body(self, req, render, collection):
        """A volume list answer; ``render(page)``: the page's views."""
        page, total, limit, params = self._list(req)
        body = {"volumes": render(page)}
        link = views.next_link(req, collection, page, limit)
        if link:
            body["volumes_links"] = link
        if req.microversion >= SUPPORT_COUNT_INFO and schemas.truthy(params.get("with_count")):
            body["count"] = total
        return body

    def list_volumes(self, req):
        return self._list_body(
            req, lambda page: [views.volume_summary(req, v) for v in page], "volumes"
        )

    def list_volumes_detail(self, req):
        def render(page):
            names = types.names(req.db)
            attached = volumes.attachments_of(req.db, [v["id"] for v in page])
            return [views.volume_detail(req, v, names, attached.get(v["id"], [])) for v in page]

        return self._list_body(req, render, "volumes/detail")

    def create_volume(self, req):
        schema = schemas.VOLUME_CREATE_353 if req.microversion >= "3.53" else schemas.VOLUME_CREATE
        body = schemas.validate(schema, req.json())["volume"]
        if body.get("multiattach") is not None and schemas.truthy(body["multiattach"]):
            raise HTTPError(
                400,
                "multiattach parameter has been removed. The default behavior is to use"
                " multiattach enabled volume types. Contact your administrator to create a"
                " multiattach enabled volume type and use it to create multiattach volumes.",
            )
        spec = {
            "name": body.get("name", body.get("display_name")),
            "description": body.get("description", body.get("display_description")),
            "volume_type": body.get("volume_type"),
            "metadata": body.get("metadata"),
            "snapshot_id": body.get("snapshot_id"),
            "source_volid": body.get("source_volid"),
            "imageRef": body.get("imageRef", body.get("image_id")),
            "availability_zone": body.get("availability_zone"),
            "size": schemas.size(body.get("size")),
        }
        for key in ("name", "description"):
            if isinstance(spec[key], str):
                spec[key] = spec[key].strip()
        volume = volumes.create(req.db, req.context, req.cloud.store, req.cloud.config, spec)
        view = views.volume_detail(req, volume, types.names(req.db), [], extended=False)
        return Response(202, {"volume": view})

    def show_volume(self, req):
        return {"volume": self._volume_view(req, self._volume(req))}

    def update_volume(self, req):
        schema = schemas.VOLUME_UPDATE_353 if req.microversion >= "3.53" else schemas.VOLUME_UPDATE
        body = schemas.validate(schema, req.json())["volume"]
        volume = self._volume(req)
        changes = _name_changes(body)
        if "metadata" in body:
            changes["metadata"] = body["metadata"]
        volumes.update(req.db, volume, changes)
        return {"volume": self._volume_view(req, volume)}

    def delete_volume(self, req):
        params = self._params(req)
        force = schemas.truthy(params.get("force", "false"))
        cascade = schemas.truthy(params.get("cascade", "false"))
        if force and not req.context.is_admin:
            raise _policy("volume:force_delete")
        volume = self._volume(req)
        if cascade:
            for snap in snapshots.listing(
                req.db, self._snapshots_lazy(req), None, {"volume_id": volume["id"]},
                snapshots.sort_order([], []), None, None,
            ):  # fmt: skip
                if not force and snap["status"] not in ("available", "error", "deleting"):
                    raise HTTPError(400, "Invalid volume: Failed to update snapshot.")
                snapshots.delete(req.db, snap, force=True)
        volumes.delete(req.db, volume, force=force)
        return Response(202)

    def volume_action(self, req):
        body = req.json()
        action = next(iter(body), None) if isinstance(body, dict) and len(body) == 1 else None
        if action != "os-extend":
            raise HTTPError(400, "There is no such action: %s" % (action or "None"))
        new_size = schemas.validate(schemas.EXTEND, body)["os-extend"]["new_size"]
        volume = self._volume(req)
        volumes.extend(
            req.db, volume, schemas.size(new_size, "new_size"), req.microversion >= EXTEND_ATTACHED
        )
        return Response(202)

    # -- volume metadata ------------------------------------------------------------

    def show_metadata(self, req):
        return {"metadata": volumes.metadata(self._volume(req))}

    def create_metadata(self, req):
        items = schemas.validate(schemas.METADATA, req.json())["metadata"]
        volume = self._volume(req)
        return {"metadata": volumes.set_metadata(req.db, volume, items)}

    def replace_metadata(self, req):
        items = schemas.validate(schemas.METADATA, req.json())["metadata"]
        volume = self._volume(req)
        return {"metadata": volumes.set_metadata(req.db, volume, items, replace=True)}

    def show_metadata_item(self, req):
        volume, key = self._volume(req), req.params["key"]
        current = volumes.metadata(volume)
        if key not in current:
            raise HTTPError(404, "Volume %s has no metadata with key %s." % (volume["id"], key))
        return {"meta": {key: current[key]}}

    def update_metadata_item(self, req):
        item = schemas.validate(schemas.METADATA_ITEM, req.json())["meta"]
        key = req.params["key"]
        if key not in item:
            raise HTTPError(400, "Request body and URI mismatch")
        if len(item) > 1:
            raise HTTPError(400, "Request body contains too many items")
        volumes.set_metadata(req.db, self._volume(req), item)
        return {"meta": item}

    def delete_metadata_item(self, req):
        volumes.delete_metadata(req.db, self._volume(req), req.params["key"])
        return Response(200)

    # -- snapshots ------------------------------------------------------------------

    def _snapshot(self, req):
        return snapshots.get(
            req.db, req.context, req.params["snapshot_id"], self._snapshots_lazy(req)
        )

    def _snapshot_list(self, req, render, collection):
        params = self._params(req)
        # of its conversions only the metadata one applies to snapshot filters
        filters = volumes.parse_filters(self._filters(req, params, snapshots.FILTERS))
        order = snapshots.sort_order(*self._sort(params))
        limit = self._limit(params)
        found = snapshots.listing(
            req.db,
            self._snapshots_lazy(req),
            self._scope(req, params),
            filters,
            order,
            params.get("marker"),
            limit,
        )
        body = {"snapshots": [render(s) for s in found]}
        link = views.next_link(req, collection, found, limit)
        if link:
            body["snapshots_links"] = link
        return body

    def list_snapshots(self, req):
        return self._snapshot_list(req, lambda s: views.snapshot_summary(req, s), "snapshots")

    def list_snapshots_detail(self, req):
        return self._snapshot_list(req, lambda s: views.snapshot(req, s), "snapshots/detail")

    def create_snapshot(self, req):
        body = schemas.validate(schemas.SNAPSHOT_CREATE, req.json())["snapshot"]
        volume = volumes.get(req.db, req.context, body["volume_id"], self._volumes_lazy(req))
        force = body.get("force")
        force = force is not None and schemas.truthy(force)
        if body.get("force") is not None and not force and req.microversion >= SNAPSHOT_IN_USE:
            raise HTTPError(400, snapshots.SNAPSHOT_IN_USE_FLAG)
        name = body.get("name", body.get("display_name"))
        description = body.get("description", body.get("display_description"))
        snap = snapshots.create(
            req.db,
            req.context,
            volume,
            name.strip() if isinstance(name, str) else name,
            description.strip() if isinstance(description, str) else description,
            body.get("metadata"),
            force or req.microversion >= SNAPSHOT_IN_USE,
        )
        return Response(202, {"snapshot": views.snapshot(req, snap)})

    def show_snapshot(self, req):
        return {"snapshot": views.snapshot(req, self._snapshot(req))}

    def update_snapshot(self, req):
        body = schemas.validate(schemas.SNAPSHOT_UPDATE, req.json())["snapshot"]
        snap = self._snapshot(req)
        changes = _name_changes(body)
        snapshots.update(req.db, snap, changes)
        return {"snapshot": views.snapshot(req, snap)}

    def delete_snapshot(self, req):
        snapshots.delete(req.db, self._snapshot(req))
        return Response(202)

    def snapshot_action(self, req):
        """``os-force_delete`` (Cinder's SnapshotAdminController): the
        snapshot whatever its status; admin only, after the lookup."""
        body = req.json()
        action = next(iter(body), None) if isinstance(body, dict) and len(body) == 1 else None
        if action != "os-force_delete":
            raise HTTPError(400, "There is no such action: %s" % (action or "None"))
        snap = self._snapshot(req)
        if not req.context.is_admin:
            raise _policy("volume_extension:snapshot_admin_actions:force_delete")
        snapshots.delete(req.db, snap, force=True)
        return Response(202)

    # -- types ----------------------------------------------------------------------

    def list_types(self, req):
        return {"volume_types": [types.view(t) for t in types.listing(req.db, req.context)]}

    def show_type(self, req):
        return {"volume_type": types.view(types.get(req.db, req.context, req.params["type_id"]))}

    # -- attachments (3.27) ---------------------------------------------------------

    def _attachments(self, req, detail):
        if req.microversion < NEW_ATTACH:
            raise HTTPError(404, "The resource could not be found.")
        params = self._params(req)
        filters = self._filters(req, params, attachments.FILTERS)
        rows = attachments.listing(req.db, req.context, "all_tenants" in params, filters)
        limit = self._limit(params)
        rows = rows if limit is None else rows[:limit]
        return {"attachments": [attachments.view(r, detail) for r in rows]}

    def list_attachments(self, req):
        return self._attachments(req, False)

    def list_attachments_detail(self, req):
        return self._attachments(req, True)

    def show_attachment(self, req):
        if req.microversion < NEW_ATTACH:
            raise HTTPError(404, "The resource could not be found.")
        row = attachments.get(req.db, req.context, req.params["attachment_id"])
        return {"attachment": attachments.view(row, True)}

    # -- quotas ---------------------------------------------------------------------

    def _quota_target(self, req, rule):
        target = req.params["target_id"]
        if target != req.context.project_id and not req.context.is_admin:
            raise _policy(rule)
        return target

    def show_quotas(self, req):
        target = self._quota_target(req, "volume_extension:quotas:show")
        limits = quotas.limits(req.db, target)
        if schemas.truthy(self._params(req).get("usage", "false")):
            used = quotas.usage(req.db, target)
            body = {
                k: {"limit": v, "in_use": used.get(k, 0), "reserved": 0} for k, v in limits.items()
            }
        else:
            body = dict(limits)
        body["id"] = target
        return {"quota_set": body}

    def quota_defaults(self, req):
        target = self._quota_target(req, "volume_extension:quotas:show")
        return {"quota_set": dict(quotas.defaults(req.db), id=target)}

    def update_quotas(self, req):
        if not req.context.is_admin:
            raise _policy("volume_extension:quotas:update")
        body = schemas.validate(schemas.QUOTA_UPDATE, req.json())["quota_set"]
        target = req.params["target_id"]
        if len(target) > 255:
            raise HTTPError(400, "Invalid input received: quota_set_name exceeds 255 characters")
        quotas.update(req.db, target, body)
        return {"quota_set": quotas.limits(req.db, target)}

    def delete_quotas(self, req):
        if not req.context.is_admin:
            raise _policy("volume_extension:quotas:delete")
        quotas.delete(req.db, req.params["target_id"])
        return Response(200)
