"""What the stack routes share (Heat's ``heat/api/openstack/v1/util.py``
and ``heat/common/param_utils.py``): the stack a ``/stacks/{name}/{id}``
URL names, links, query parameters with Heat's texts, the next-page
link."""

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode

from occli.localcloud import common as common_rules
from occli.localcloud import errors
from occli.localcloud.orchestration.api import common
from occli.localcloud.orchestration.engine import formats
from occli.localcloud.orchestration.engine import stacks as stack_rows

STACKS = common.BASE + "/stacks"
# /stacks/{stack_name}/{stack_id}: one stack (heat's stack_path)
STACK = STACKS + "/{stack_name}/{stack_id}"
# the deepest nesting a listing walks (heat's max_nested_stack_depth)
MAX_NESTED_DEPTH = 5
# the longest tag heat accepts (param_utils.extract_tags)
MAX_TAG_LENGTH = 80


def bad_request(message: str) -> Exception:
    """Heat's ``webob.exc.HTTPBadRequest(message)``."""
    return common.error(400, message, "HTTPBadRequest")


def api_root(req: Any) -> str:
    """The URL Heat's ``req.relative_url(…, True)`` is relative to."""
    return req.base_url + req.cloud.orchestration.prefix + "/v1"


def make_url(req: Any, ident: Mapping[str, str]) -> str:
    """``util.make_url``: the absolute URL of an identifier."""
    return api_root(req) + "/" + formats.url_path(ident)


def make_link(req: Any, ident: Mapping[str, str], rel: str = "self") -> dict[str, str]:
    """``util.make_link``: ``{"href", "rel"}``."""
    return {"href": make_url(req, ident), "rel": rel}


def not_found(name: str) -> errors.NotFound:
    """Heat's ``EntityNotFound(entity='Stack', name=…)``."""
    return errors.NotFound("The Stack (%s) could not be found." % name, type="EntityNotFound")


def identified_stack(req: Any, db: Any, show_deleted: bool = False) -> dict[str, Any]:
    """The stack row of ``/stacks/{stack_name}/{stack_id}`` (deleted ones
    only with ``show_deleted``, as Heat's show, resources and events ask),
    as Heat's ``_get_stack``: another project's stack, an id
    that is not the stack's, or a name that is not its own is
    ``The Stack (<name in the URL>) could not be found.``"""
    name, stack_id = req.params["stack_name"], req.params["stack_id"]
    try:
        row = stack_rows.get(db, req.context, stack_id, show_deleted=show_deleted)
    except errors.NotFound:
        raise not_found(name) from None
    if row["name"] != name:
        raise not_found(name)
    return row


def extract_bool(name: str, value: Any) -> bool:
    """``param_utils.extract_bool`` (a 400 with Heat's text)."""
    text = str(value).lower()
    if text not in ("true", "false"):
        raise bad_request(
            'Unrecognized value "%s" for "%s", acceptable values are: true, false.' % (value, name)
        )
    return text == "true"


def _int_like(value: Any) -> bool:
    # oslo's strutils.is_int_like: str(int(v)) == str(v)
    try:
        return str(int(value)) == str(value)
    except (TypeError, ValueError):
        return False


def extract_int(name: str, value: Any, allow_zero: bool = True) -> int | None:
    """``param_utils.extract_int`` (no negatives; a 400 with Heat's text)."""
    if value is None:
        return None
    if not _int_like(value):
        raise bad_request("Only integer is acceptable by '%s'." % name)
    result = int(value)
    if result == 0 and not allow_zero:
        raise bad_request("Only non-zero integer is acceptable by '%s'." % name)
    if result < 0:
        raise bad_request(
            "Value '%s' is invalid for '%s' which only accepts non-negative integer."
            % (value, name)
        )
    return result


def sql_limit(limit: int | None) -> int | None:
    """A page size SQLite can bind: one past its INTEGER range is no limit
    (every row, as a database with wider integers would answer)."""
    if limit is None or not common_rules.fits_integer(limit):
        return None
    return limit


def extract_tags(subject: str) -> list[str]:
    """``param_utils.extract_tags``: a comma-separated list."""
    tags = subject.split(",")
    for tag in tags:
        if len(tag) > MAX_TAG_LENGTH:
            raise bad_request('Invalid tag, "%s" is longer than 80 characters' % tag)
    return tags


# oslo.db's paginate_query directions (the nulls variants sort as their
# direction here: SQLite puts NULLs first ascending, as Heat's MySQL does)
_SORT_DIRS = ("asc", "desc") + tuple(
    "%s-%s" % (d, n) for d in ("asc", "desc") for n in ("nullsfirst", "nullslast")
)


def sort_dir(req: Any) -> str | None:
    """The ``sort_dir`` query parameter: ``asc``, ``desc`` or None; any
    other value is oslo.db's ValueError, whose text Heat's FaultWrapper
    hides (400, ``error.type`` ValueError, no message)."""
    value = single(req, "sort_dir")
    if not value:
        return None
    if value not in _SORT_DIRS:
        raise common.error(400, None, "ValueError")
    return value.split("-")[0]


def single(req: Any, name: str) -> str | None:
    """``PARAM_TYPE_SINGLE``: the last value (webob's ``params.get``)."""
    return req.arg(name)


def mixed(req: Any, name: str) -> Any:
    """``PARAM_TYPE_MIXED``: one value, or the list of several."""
    values = req.query.get(name) or []
    return values[0] if len(values) == 1 else list(values)


def multi(req: Any, name: str) -> list[str] | None:
    """``PARAM_TYPE_MULTI``: every value; None if absent."""
    values = req.query.get(name)
    return list(values) if values else None


def allowed(req: Any, types: Mapping[str, str]) -> dict[str, Any]:
    """``util.get_allowed_params``: the query parameters named in
    ``types`` (``single``/``multi``/``mixed``) that have a value."""
    get = {"single": single, "multi": multi, "mixed": mixed}
    result = {}
    for key, kind in types.items():
        value = get[kind](req, key)
        if value:
            result[key] = value
    return result


def collection_links(req: Any, items: list[dict[str, Any]]) -> list[dict[str, str]]:
    """``views_common.get_collection_links``: a ``next`` link when a page
    is full (``limit`` items), its marker the last item's id."""
    try:
        limit = int(req.arg("limit") or 0)
    except ValueError:
        limit = 0
    if not (limit > 0 and limit == len(items)):
        return []
    pairs = [(k, v) for k, values in req.query.items() if k != "marker" for v in values]
    pairs.append(("marker", items[-1]["id"]))
    href = "%s%s?%s" % (req.base_url, req.path, urlencode(pairs))
    return [{"rel": "next", "href": href}]


def split_status(params: dict[str, list[Any]]) -> None:
    """Heat's ``translate_filters`` of a ``status`` filter: a value such as
    ``CREATE_FAILED`` is the status ``FAILED`` and the action ``CREATE``."""
    if "status" not in params:
        return
    actions, statuses = set(), set()
    for value in params["status"]:
        for status in ("COMPLETE", "FAILED", "IN_PROGRESS"):
            index = value.rfind(status)
            if index != -1:
                statuses.add(value[index:])
                if index > 1:
                    actions.add(value[: index - 1])
                break
    params["status"] = sorted(statuses)
    if actions:
        params["action"] = sorted(actions.union(params.get("action", [])))
