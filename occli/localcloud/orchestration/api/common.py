"""Helpers of heat's API modules: the project-bound base path, heat errors
(``error.type``), request bodies and query integers, timestamps."""

import json

from occli.localcloud import common
from occli.localcloud.app import HTTPError

# every API route is under the project's segment
BASE = "/v1/{project_id}"
# heat's max_json_body_size: the longest request body it reads
MAX_JSON_BODY_SIZE = 1048576
# webob's HTTPBadRequest explanation (heat's message for a bare 400)
BAD_REQUEST = (
    "The server could not comply with the request since it is either malformed or "
    "otherwise incorrect."
)


def error(status, message, type_):
    """An HTTP error whose heat body says ``error.type`` ``type_``."""
    return HTTPError(status, message, extra={"type": type_})


def _decode_error(raw):
    """The JSON decoder's message for ``raw`` (None: it decodes, or it is
    only too deep, which the cloud's own "Malformed request body." says)."""
    try:
        json.loads(raw)
    except RecursionError:
        return None
    except (ValueError, UnicodeDecodeError) as exc:
        return str(exc)
    return None


def check_json_body_size(req):
    """Heat's ``max_json_body_size``: a longer body is refused before it
    is read (``RequestLimitExceeded``, 400)."""
    if req.content_length > MAX_JSON_BODY_SIZE:
        raise error(
            400,
            "Request limit exceeded: JSON body size (%d bytes) exceeds maximum allowed size "
            "(%d bytes)." % (req.content_length, MAX_JSON_BODY_SIZE),
            "RequestLimitExceeded",
        )


def found_body(location):
    """The body of Heat's ``webob.exc.HTTPFound`` (a lookup's 302) as
    webob's JSON formatter writes it."""
    return {
        "message": 'The resource was found at <a href="%s">%s</a>;\n'
        "you should be redirected automatically.\n\n" % (location, location),
        "code": "302 Found",
        "title": "Found",
    }


# the body of Heat's ``webob.exc.HTTPAccepted`` (an update's 202)
ACCEPTED_BODY = {
    "message": "The request is accepted for processing.<br /><br />\n\n\n",
    "code": "202 Accepted",
    "title": "Accepted",
}


def isotime(ts):
    return common.iso_z(common.from_timestamp(ts))


def json_object(req):
    """The request body: a JSON object (``req.json`` already refuses one
    nested deeper than ``app.MAX_JSON_DEPTH``); text that is not JSON is
    refused with the decoder's message, as Heat's deserializer does."""
    try:
        body = req.json()
    except HTTPError as exc:
        raise error(400, _decode_error(req.body) or exc.message, "HTTPBadRequest") from None
    if not isinstance(body, dict):
        raise error(400, "The request body must be a JSON object.", "HTTPBadRequest")
    return body


def non_negative_int(value, name):
    if value is None:
        return None
    try:
        result = int(value)
    except ValueError:
        raise error(400, "Only integer is acceptable by '%s'." % name, "ValueError") from None
    if result < 0:
        raise error(400, "Only non-negative integer is acceptable by '%s'." % name, "ValueError")
    return result
