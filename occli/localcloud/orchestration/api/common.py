"""Helpers of heat's API modules: the project-bound base path, heat errors
(``error.type``), request bodies and query integers, timestamps."""

from occli.localcloud import common
from occli.localcloud.app import HTTPError

# every API route is under the project's segment
BASE = "/v1/{project_id}"


def error(status, message, type_):
    """An HTTP error whose heat body says ``error.type`` ``type_``."""
    return HTTPError(status, message, extra={"type": type_})


def isotime(ts):
    return common.iso_z(common.from_timestamp(ts))


def json_object(req):
    """The request body: a JSON object (``req.json`` already refuses one
    nested deeper than ``app.MAX_JSON_DEPTH``)."""
    body = req.json()
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
