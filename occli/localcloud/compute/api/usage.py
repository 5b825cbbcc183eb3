"""``/os-simple-tenant-usage`` and ``/os-instance_usage_audit_log``:
nova's ``SimpleTenantUsageController`` and
``InstanceUsageAuditLogController``.

Usage of every project is for admins, a project's own for its readers (and
admins); ``start``/``end`` (nova's three formats, empty or missing: now)
must be in order, the end is clipped to now. From 2.40 the servers are
paged (``limit``, at most 1000, and ``marker``, an instance id) with a
``next`` link when a page is full; before 2.40 the first 1000 count. The
audit log is admin-only; its ``{before_timestamp}`` is ``%Y-%m-%d
%H:%M:%S[.%f]``.
"""

import re
from urllib.parse import urlencode

from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.compute import usage
from occli.localcloud.compute.api import common
from occli.localcloud.compute.api.quotas import reject_unknown

POLICY = "os_compute_api:os-simple-tenant-usage:%s"
AUDIT_POLICY = "os_compute_api:os-instance-usage-audit-log:%s"
PAGING_MIN_VERSION = "2.40"
_DIGITS = re.compile(r"^[0-9]*$")
COLLECTION = "os-simple-tenant-usage"


def register(service):
    service.api("GET", "/" + COLLECTION, list_usage)
    service.api("GET", "/%s/{tenant_id}" % COLLECTION, show_usage)
    service.api("GET", "/os-instance_usage_audit_log", list_audit_log)
    service.api("GET", "/os-instance_usage_audit_log/{before_timestamp}", show_audit_log)


def _first(req, name):
    """The first value of a query parameter (nova reads ``parse_qs(…)[0]``
    for the period)."""
    values = req.query.get(name)
    return values[0] if values else None


def _query(req, allowed):
    """Nova's query schema, before the policy: from 2.40 ``limit`` (digits,
    capped at 1000) and ``marker``; from 2.75 nothing else. ``(limit,
    marker)``; before 2.40 the first 1000 servers count."""
    paged = req.microversion >= PAGING_MIN_VERSION
    if paged:
        allowed += ("limit", "marker")
    if req.microversion >= "2.75":
        reject_unknown(req, allowed)
    if not paged:
        return common.MAX_LIMIT, None
    for value in req.query.get("limit", ()):
        problem = None
        if not value:
            problem = "'' is too short"
        elif not _DIGITS.match(value):
            problem = "%r does not match '^[0-9]*$'" % value
        if problem:
            raise common.bad_request(
                "Invalid input for query parameters limit. Value: %s. %s" % (value, problem)
            )
    raw = req.arg("limit")
    limit = common.MAX_LIMIT if raw is None else min(int(raw), common.MAX_LIMIT)
    return limit, req.arg("marker")


def _servers(req, project_id, limit, marker):
    """The period and its page of servers."""
    start, stop = usage.period(_first(req, "start"), _first(req, "end"))
    servers = usage.servers_in_period(req.db, common.progress(req), start, stop, project_id)
    return start, stop, usage.page(req.db, servers, limit, marker, project_id)


def _links(req, server_usages, path):
    """Nova's ``_get_collection_links`` keyed on ``instance_id``: a
    ``next`` link when the page holds as many servers as asked for."""
    asked = min(int(req.arg("limit", common.MAX_LIMIT)), common.MAX_LIMIT)
    if not asked or asked != len(server_usages):
        return None
    # nova: the request's parameters sorted, then the marker (last unless
    # the request had one)
    params = dict(sorted((k, v[-1]) for k, v in req.query.items()))
    params["marker"] = server_usages[-1]["instance_id"]
    # nova's _get_project_id: the caller's project is in the link whenever
    # it is anywhere in the request's URL (a usage of one's own project)
    project_id = req.context.project_id
    url = "%s?%s" % (req.path, req.query_string)
    segment = "/" + project_id if project_id in url else ""
    href = "%s%s%s/%s?%s" % (
        common.root_url(req),
        common.API_PREFIX,
        segment,
        path,
        urlencode(params),
    )
    return [{"rel": "next", "href": href}]


def list_usage(req):
    limit, marker = _query(req, ("start", "end", "detailed"))
    common.require_admin(req, POLICY % "list")
    start, stop, servers = _servers(req, None, limit, marker)
    detailed = _first(req, "detailed") == "1"
    summaries, server_usages = usage.tenant_usages(servers, start, stop, detailed)
    body = {"tenant_usages": summaries}
    if req.microversion >= PAGING_MIN_VERSION:
        links = _links(req, server_usages, COLLECTION)
        if links:
            body["tenant_usages_links"] = links
    return Response(200, body)


def show_usage(req):
    project_id = req.params["tenant_id"]
    limit, marker = _query(req, ("start", "end"))
    if not req.context.is_admin and project_id != req.context.project_id:
        raise HTTPError(403, "Policy doesn't allow %s to be performed." % (POLICY % "show"))
    start, stop, servers = _servers(req, project_id, limit, marker)
    summaries, server_usages = usage.tenant_usages(servers, start, stop)
    body = {"tenant_usage": summaries[0] if summaries else {}}
    if req.microversion >= PAGING_MIN_VERSION:
        links = _links(req, server_usages, "%s/%s" % (COLLECTION, project_id))
        if links:
            body["tenant_usage_links"] = links
    return Response(200, body)


def list_audit_log(req):
    common.require_admin(req, AUDIT_POLICY % "list")
    return Response(200, {"instance_usage_audit_logs": usage.audit_log(req.db)})


def show_audit_log(req):
    common.require_admin(req, AUDIT_POLICY % "show")
    before = usage.parse_before(req.params["before_timestamp"])
    return Response(200, {"instance_usage_audit_log": usage.audit_log(req.db, before)})
