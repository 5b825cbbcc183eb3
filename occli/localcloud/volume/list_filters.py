"""The volume list filters Cinder added after 3.0: ``glance_metadata``
(3.4), like filters ``key~`` (3.34) and the time comparisons of
``created_at``/``updated_at`` (``gt:``, ``lte:`` …, 3.31+ as Cinder
parses them, documented at 3.60). Parsing raises Cinder's 400s
(cinder/api/v3/volumes.py ``_handle_time_comparison_filters``); matching
is Cinder's database filters (cinder/db/api.py ``_process_volume_filters``,
``_filter_time_comparison``, ``_process_model_like_filter``)."""

import ast
import datetime
import json
import re
from collections.abc import Mapping
from typing import Any

from occli.localcloud import errors

GLANCE_METADATA = "glance_metadata"
TIMES = ("created_at", "updated_at")
# cinder/api/common.py get_time_comparison_operators
OPERATORS = ("gt", "gte", "eq", "neq", "lt", "lte")
# the volume columns a like filter compares as text (Cinder's LIKE on a
# column of the volumes table)
LIKE_COLUMNS = ("name", "status", "availability_zone", "size", "migration_status", "group_id")


def like_keys(allowed: tuple[str, ...]) -> tuple[str, ...]:
    """The ``key~`` filters valid with the ``allowed`` ones (Cinder's
    ``reject_invalid_filters``: ``key~`` when ``key`` is configured)."""
    return tuple(key + "~" for key in allowed)


def _parse_time(text: str) -> datetime.datetime:
    """oslo's ``parse_isotime`` then ``normalize_time``: naive UTC."""
    try:
        parsed = datetime.datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise errors.BadRequest("Invalid %s value" % text) from None
    if parsed.tzinfo is not None:
        parsed = parsed.astimezone(datetime.timezone.utc).replace(tzinfo=None)
    return parsed


def time_comparisons(value: str) -> dict[str, datetime.datetime]:
    """``{operator: time}`` of a ``created_at``/``updated_at`` filter such
    as ``gt:2026-01-01T00:00:00,lt:2026-02-01T00:00:00``."""
    comparisons = {}
    for unit in value.split(","):
        operator, sep, time = unit.partition(":")
        if operator not in OPERATORS:
            raise errors.BadRequest("Invalid %s operator" % operator)
        comparisons[operator] = _parse_time(time if sep else unit)
    return comparisons


def literal_dict(value: Any) -> dict[str, Any] | None:
    """A ``glance_metadata`` filter's dict (Cinder's ``literal_eval``);
    None when it is not one (Cinder's query then finds nothing)."""
    if isinstance(value, dict):
        return value
    try:
        parsed = ast.literal_eval(value)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    return parsed if isinstance(parsed, dict) else None


def _compare(stored: datetime.datetime, operator: str, time: datetime.datetime) -> bool:
    return {
        "gt": stored > time,
        "gte": stored >= time,
        "eq": stored == time,
        "neq": stored != time,
        "lt": stored < time,
        "lte": stored <= time,
    }[operator]


def time_matches(stored: str | None, comparisons: Mapping[str, datetime.datetime]) -> bool:
    """Any of the ``comparisons`` holds (Cinder joins them with OR); a
    time never set (NULL) matches none."""
    if stored is None:
        return False
    when = datetime.datetime.fromisoformat(stored)
    return any(_compare(when, op, time) for op, time in comparisons.items())


def glance_matches(image_metadata: str | None, wanted: Mapping[str, Any] | None) -> bool:
    """Every ``key: value`` of ``wanted`` is in the volume's image metadata."""
    if wanted is None:
        return False
    stored = json.loads(image_metadata) if image_metadata else {}
    return all(k in stored and stored[k] == str(v) for k, v in wanted.items())


def like_matches(stored: Any, pattern: str) -> bool:
    """SQL's ``LIKE '%pattern%'`` (``%``/``_`` wildcards, ASCII case
    insensitive as SQLite and MySQL compare); NULL matches nothing."""
    if stored is None:
        return False
    regex = "".join(
        ".*" if ch == "%" else "." if ch == "_" else re.escape(ch) for ch in str(pattern)
    )
    return re.search(regex, str(stored), re.IGNORECASE | re.DOTALL) is not None
