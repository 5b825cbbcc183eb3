"""The Nova (Compute API v2.1) service of the local cloud.

Mounted at ``/compute``: version documents at ``/compute/`` and
``/compute/v2.1/``; the API under ``/compute/v2.1`` with or without a
``/{project_id}`` segment. Each submodule owns its tables and routes:
``MIGRATIONS`` (applied under the store component ``compute.<module>``, so
modules version their schema independently), ``register(service)`` and an
optional ``seed(db, config)``.
"""

from occli.localcloud.app import HTTPError, Route, Service
from occli.localcloud.compute import (actions, aggregates, base, flavors,
                                      hosts, keypairs, limits, metadata,
                                      microversions, servers)

# Order matters: later modules may reference earlier modules' tables.
SUBMODULES = (
    ("flavors", flavors),
    ("hosts", hosts),
    ("keypairs", keypairs),
    ("servers", servers),
    ("actions", actions),
    ("metadata", metadata),
    ("limits", limits),
    ("aggregates", aggregates),
)

FAULT_NAMES = {400: "badRequest", 401: "unauthorized", 403: "forbidden",
               404: "itemNotFound", 405: "badMethod",
               409: "conflictingRequest", 413: "overLimit",
               415: "badMediaType", 429: "overLimit",
               501: "notImplemented", 503: "serviceUnavailable"}

_V20 = {"id": "v2.0", "status": "DEPRECATED", "version": "",
        "min_version": "", "updated": "2025-07-04T12:00:00Z"}
_V21 = {"id": "v2.1", "status": "CURRENT",
        "version": microversions.MAX_VERSION,
        "min_version": microversions.MIN_VERSION,
        "updated": "2013-07-23T11:33:21Z"}

# Interfaces for other modules (see doc/localcloud-internals.md, Compute).
compute_hosts = hosts.compute_hosts
servers_on_host = servers.servers_on_host


def version_gate(handler, min_version=None, max_version=None):
    """Wrap ``handler`` so requests outside [min, max] get nova's bare 404."""
    if min_version is None and max_version is None:
        return handler
    low = min_version or microversions.MIN_VERSION

    def gated(req):
        if not req.microversion.within(low, max_version):
            raise HTTPError(404, "The resource could not be found.")
        return handler(req)
    gated.__name__ = handler.__name__
    gated.__doc__ = handler.__doc__
    return gated


class ComputeService(Service):
    """Nova's API: microversions, fault bodies, routes of the submodules."""

    name = "compute"
    prefix = "/compute"

    def __init__(self, cloud):
        super().__init__(cloud)
        self._project_routes = []
        self.route("GET", "/", self.versions, auth=False)
        self.route("GET", "/v2", self.version_v2, auth=False)
        self.route("GET", base.API_PREFIX, self.version_v21, auth=False)
        for _, module in SUBMODULES:
            module.register(self)
        self.routes.extend(self._project_routes)
        for component, module in SUBMODULES:
            cloud.store.migrate("compute." + component, module.MIGRATIONS)

    def api(self, method, pattern, handler, min_version=None,
            max_version=None):
        """Route ``/v2.1<pattern>`` and ``/v2.1/{project_id}<pattern>``."""
        handler = version_gate(handler, min_version, max_version)
        self.route(method, base.API_PREFIX + pattern, handler)
        self._project_routes.append(Route(
            method, base.API_PREFIX + "/{project_id}" + pattern, handler))

    def seed(self, db):
        for _, module in SUBMODULES:
            seed = getattr(module, "seed", None)
            if seed:
                seed(db, self.cloud.config)

    def before(self, req):
        sub = req.path[len(self.prefix):].rstrip("/")
        if sub != base.API_PREFIX and not sub.startswith(
                base.API_PREFIX + "/"):
            return
        req.microversion = microversions.negotiate(
            microversions.requested(req.header))
        project_id = req.params.get("project_id")
        if project_id is None:
            return
        if not base.valid_project_segment(project_id):
            raise base.not_found()
        if req.context is not None and project_id != req.context.project_id:
            raise base.bad_request(
                "Malformed request URL: URL's project_id '%s' doesn't match "
                "Context's project_id '%s'"
                % (project_id, req.context.project_id))

    def after(self, req, resp):
        resp.headers["X-Compute-Request-Id"] = req.request_id
        if req.microversion is not None:
            resp.headers.update(
                microversions.response_headers(req.microversion))

    def error_body(self, status, message, extra):
        if status == 401:
            return {"error": {"code": 401, "title": "Unauthorized",
                              "message": message}}
        body = {"code": status, "message": message}
        if status in (413, 429) and "retryAfter" in extra:
            body["retryAfter"] = extra["retryAfter"]
        return {FAULT_NAMES.get(status, "computeFault"): body}

    def _version_links(self, req, path):
        return [{"rel": "self",
                 "href": "%s%s/%s/" % (req.base_url, self.prefix, path)}]

    def versions(self, req):
        return {"versions": [
            dict(_V20, links=self._version_links(req, "v2")),
            dict(_V21, links=self._version_links(req, "v2.1"))]}

    def _version_document(self, req, doc, path, media_version):
        links = self._version_links(req, path) + [
            {"rel": "describedby", "type": "text/html",
             "href": "http://docs.openstack.org/"}]
        return {"version": dict(doc, links=links, **{"media-types": [
            {"base": "application/json",
             "type": "application/vnd.openstack.compute+json;version=%s"
                     % media_version}]})}

    def version_v2(self, req):
        return self._version_document(req, _V20, "v2", "2")

    def version_v21(self, req):
        return self._version_document(req, _V21, "v2.1", "2.1")
