"""Helpers shared by the compute API modules: the caller, links, paging,
query parameters, nova's 400/404."""

import hashlib
import re
from urllib.parse import urlencode

from occli.localcloud import validation
from occli.localcloud.app import HTTPError
from occli.localcloud.compute import states
from occli.localcloud.compute.caller import Caller

API_PREFIX = "/v2.1"
MAX_LIMIT = 1000

_PROJECT_ID = re.compile(r"^[0-9a-fA-F\-]+$")


def caller(req):
    """The :class:`~occli.localcloud.compute.caller.Caller` of ``req``."""
    ctx = req.context
    return Caller(ctx.project_id, ctx.user_id, ctx.is_admin, tuple(ctx.roles))


def progress(req):
    """Where servers read by ``req`` persist their lazy progress."""
    return states.Progress(req.cloud.store, req.cloud.config)


def images(req):
    """The image service (rules look images up through it), or None."""
    return req.cloud.image


def not_found(message="The resource could not be found."):
    return HTTPError(404, message)


def bad_request(message):
    return HTTPError(400, message)


def require_admin(req, rule):
    """Nova's default admin-only policy: 403 for everybody else."""
    caller(req).require_admin(rule)


def host_id(project_id, host):
    """Nova's ``hostId``: the host hashed with the project ("" without one)."""
    if not host:
        return ""
    return hashlib.sha224((project_id + host).encode()).hexdigest()


def valid_project_segment(value):
    return bool(_PROJECT_ID.match(value))


def _project_part(req):
    pid = req.params.get("project_id")
    return "/" + pid if pid else ""


def root_url(req):
    """``http://host:port/compute`` for this request."""
    return req.base_url + req.cloud.compute.prefix


def api_url(req, *parts):
    """A versioned ``self`` URL; carries the project id if the request did."""
    return "/".join([root_url(req) + API_PREFIX + _project_part(req)] + [str(p) for p in parts])


def bookmark_url(req, *parts):
    """An unversioned ``bookmark`` URL, as nova builds them."""
    return "/".join([root_url(req) + _project_part(req)] + [str(p) for p in parts])


def links(req, collection, ident):
    return [
        {"rel": "self", "href": api_url(req, collection, ident)},
        {"rel": "bookmark", "href": bookmark_url(req, collection, ident)},
    ]


def bookmark(req, collection, ident):
    return [{"rel": "bookmark", "href": bookmark_url(req, collection, ident)}]


def parse_limit(req):
    """The effective page size (``limit`` capped by MAX_LIMIT)."""
    raw = req.arg("limit")
    if raw is None:
        return MAX_LIMIT
    # nova's query schemas (pagination_parameters): each value a
    # non_negative_integer
    for value in req.query["limit"]:
        if not (value.isdigit() and value.isascii()):
            reason = "%r should be non-empty" if value == "" else "%r does not match '^[0-9]*$'"
            raise bad_request(
                "Invalid input for query parameters limit. Value: %s. %s" % (value, reason % value)
            )
    return min(parse_integer(raw, "limit"), MAX_LIMIT)


def parse_integer(raw, name):
    """The digits ``raw`` (of a query parameter or body field ``name`` a
    schema let through) as an int; past Python's digit limit (``int()``'s
    ValueError) refused as nova's ``utils.validate_integer`` refuses a
    non-integer: "Invalid input received: limit must be an integer"
    (oslo's ``strutils.validate_integer``)."""
    try:
        return int(raw)
    except ValueError:
        raise bad_request("Invalid input received: %s must be an integer" % name) from None


def paginate(req, items, key, path, marker_message="marker [%s] not found"):
    """One page of ``items`` after ``?marker=`` plus the ``next`` link if full.

    ``key(item)`` is the marker identity; ``path`` the collection path used in
    the next link (``servers/detail``). Returns ``(page, links_or_None)``.
    """
    limit = parse_limit(req)
    marker = req.arg("marker")
    if marker is not None:
        for index, item in enumerate(items):
            if str(key(item)) == marker:
                items = items[index + 1 :]
                break
        else:
            raise bad_request(marker_message % marker)
    page = items[:limit]
    return page, next_links(req, page, limit, key, path)


def next_links(req, page, limit, key, path):
    """The ``next`` link after ``page`` (a page of at most ``limit`` items
    read for ``req``), or None when the page is not full."""
    if not page or len(page) < limit:
        return None
    params = [(k, v) for k, values in req.query.items() if k != "marker" for v in values]
    params.append(("marker", str(key(page[-1]))))
    href = "%s?%s" % (api_url(req, path), urlencode(params))
    return [{"rel": "next", "href": href}]


def reject_extra_params(req, allowed):
    """A query schema's top-level ``additionalProperties: false``: nova
    gives jsonschema's bare message (the error has no path)."""
    extra = sorted(name for name in req.query if name not in allowed)
    if extra:
        raise bad_request(
            "Additional properties are not allowed (%s %s unexpected)"
            % (", ".join(repr(name) for name in extra), "was" if len(extra) == 1 else "were")
        )


def bool_param(value, name):
    """oslo ``bool_from_string(strict=True)`` for a query parameter."""
    try:
        return validation.bool_from_string(value, strict=True)
    except ValueError as exc:  # oslo's text, as nova passes it on
        raise bad_request(str(exc)) from None
