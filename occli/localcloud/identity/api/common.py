"""Helpers of keystone's API modules: URLs, collections with their links,
query flags and the 401 of a rule's ``errors.Unauthorized``."""

from occli.localcloud.app import HTTPError


def url(req, *parts):
    """``<base>/v3/<parts…>``."""
    return req.base_url + "/v3/" + "/".join(parts)


def collection(req, key, items):
    """Keystone's list body: ``items`` and the request's own ``self`` link."""
    self_url = req.base_url + req.path
    if req.query_string:
        self_url += "?" + req.query_string
    return {key: items, "links": {"next": None, "self": self_url, "previous": None}}


def flag(req, name):
    """keystone's ``query_filter_is_true``: present and not ``0``."""
    return name in req.query and req.arg(name) != "0"


def unauthorized(exc, uri):
    """A rule's Unauthorized as keystone's 401 (``WWW-Authenticate:
    Keystone uri="<uri>"``)."""
    return HTTPError(
        401,
        exc.message,
        extra=exc.extra,
        headers={"WWW-Authenticate": 'Keystone uri="%s"' % uri},
    )
