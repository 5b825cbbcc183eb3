"""Server list filters and sorting: nova's search options over server rows.

The API layer turns the query into a ``search`` dict of plain values (only
the options the microversion and the caller's role allow); here they
become predicates. ``name``, ``ip`` and ``ip6`` are regular expressions
searched with RE2 (:func:`_regex`).

A sort order is applied in Python (:func:`sort`) or in SQL
(:func:`order_by`, and :func:`after` for the rows past a marker): both
order the same way, NULL first ascending and last descending, text by code
point (SQLite's BINARY collation on UTF-8), ties by ``seq``.
"""

import datetime
import json

from occli.localcloud import errors
from occli.localcloud.compute import states

_SORT_KEYS = {
    "created_at": "created_at",
    "updated_at": "updated_at",
    "display_name": "name",
    "uuid": "id",
    "launched_at": "launched_at",
    "terminated_at": "terminated_at",
    "host": "host",
    "node": "node",
    "vm_state": "vm_state",
    "task_state": "task_state",
    "power_state": "power_state",
    "availability_zone": "availability_zone",
    "display_description": "description",
    "key_name": "key_name",
    "config_drive": "config_drive",
    "image_ref": "image_ref",
    "hostname": "hostname",
    "user_id": "user_id",
    "project_id": "project_id",
    "progress": "progress",
    "launch_index": "launch_index",
    "reservation_id": "reservation_id",
    "access_ip_v4": "access_ipv4",
    "access_ip_v6": "access_ipv6",
    "auto_disk_config": "auto_disk_config",
    "root_device_name": "root_device_name",
    "locked": "locked_by",
    "locked_by": "locked_by",
}
_ADMIN_SORT_KEYS = ("host", "node")
# search options compared with a column as they are (nova's
# exact_match_filter_names)
_EQUAL = (
    ("image", "image_ref"),
    ("user_id", "user_id"),
    ("vm_state", "vm_state"),
    ("task_state", "task_state"),
    ("host", "host"),
    ("node", "node"),
)
# search options that are patterns searched in the column's text as nova
# stores it (its _regex_instance_filter; a NULL matches nothing)
_PATTERNS = (
    ("reservation_id", "reservation_id"),
    ("key_name", "key_name"),
    ("config_drive", "config_drive"),
    ("power_state", "power_state"),
    ("progress", "progress"),
    ("created_at", "created_at"),
    ("launched_at", "launched_at"),
    ("terminated_at", "terminated_at"),
)
_TIMES = ("created_at", "launched_at", "terminated_at")
_TAGS = (
    ("tags", True, False),
    ("tags-any", False, False),
    ("not-tags", True, True),
    ("not-tags-any", False, True),
)
# the columns the predicate of each search option reads (see columns())
_OPTION_COLUMNS = dict(
    {option: (column,) for option, column in _EQUAL + _PATTERNS},
    **{option: ("tags",) for option, _, _ in _TAGS},
    name=("name",),
    status=("vm_state", "task_state"),
    flavor=("flavor",),
    ip=("ports",),
    ip6=(),
    locked=("locked_by",),
    deleted=("deleted",),
    availability_zone=("host", "availability_zone"),
    **{"changes-since": ("updated_at",), "changes-before": ("updated_at",)},
)


def parse_time(text):
    """A stored ``created_at``/``updated_at`` as a naive UTC datetime."""
    return datetime.datetime.fromisoformat(text)


def _stored_text(column, value):
    """``value`` of ``column`` as nova's database holds it, as text (a
    time as ``2026-12-01 04:00:13.123456``), or None for NULL."""
    if value is None or value == "":
        return None if value is None else ""
    if column in _TIMES:
        when = parse_time(value)
        if when.tzinfo is not None:
            when = when.astimezone(datetime.timezone.utc).replace(tzinfo=None)
        return when.strftime("%Y-%m-%d %H:%M:%S.%f")
    return str(value)


def _regex(pattern):
    """A predicate: is ``pattern`` found in a text (nova's REGEXP filters)?

    RE2 matches in linear time, so no pattern can stall the cloud (Python's
    backtracking ``re`` took a minute for ``^a{10}(a+)+$``). A pattern RE2
    cannot parse (invalid, or with backreferences or lookarounds) matches
    literally, as invalid patterns always have here.
    """
    import re2  # the local cloud's dependency, imported only when filtering

    options = re2.Options()
    options.log_errors = False
    try:
        compiled = re2.compile(pattern, options=options)
    except re2.error:
        return lambda text: pattern in text
    return lambda text: compiled.search(text) is not None


def predicates(search, zone_of):
    """``([predicate(server)], include_deleted)`` for the ``search``
    options: ``name``, ``ip``, ``ip6`` (patterns), ``status`` (a list of
    statuses), ``image``, ``flavor``, ``user_id``, ``vm_state``,
    ``task_state``, ``host``, ``node`` (exact), ``reservation_id``,
    ``key_name``, ``config_drive`` (the stored ``True`` or empty),
    ``power_state``, ``progress``, ``created_at``, ``launched_at``,
    ``terminated_at`` (patterns over the stored text, see
    :func:`_stored_text`), ``availability_zone`` (a pattern over
    ``zone_of(server)``, the server's zone),
    ``changes-since``/``changes-before`` (naive UTC datetimes, which widen
    the list to deleted servers), ``tags``/``tags-any``/``not-tags``/
    ``not-tags-any`` (sets), ``locked`` and ``deleted`` (booleans)."""
    preds, include_deleted = [], False
    if "name" in search:
        found = _regex(search["name"])
        preds.append(lambda s: found(s["name"]))
    statuses = search.get("status")
    if statuses:
        include_deleted = "DELETED" in statuses
        preds.append(lambda s: states.status(s["vm_state"], s["task_state"]) in statuses)
    for option, column in _EQUAL:
        if option in search:
            preds.append(_equal_predicate(column, search[option]))
    for option, column in _PATTERNS:
        if option in search:
            preds.append(_pattern_predicate(column, search[option]))
    if "flavor" in search:
        flavor = search["flavor"]
        preds.append(lambda s: json.loads(s["flavor"])["id"] == flavor)
    if "ip" in search:
        found = _regex(search["ip"])
        preds.append(lambda s: any(found(p["addr"]) for p in json.loads(s["ports"])))
    if "ip6" in search:  # servers have IPv4 addresses only
        preds.append(lambda s: False)
    since = search.get("changes-since")
    if since is not None:
        include_deleted = True
        preds.append(lambda s: parse_time(s["updated_at"]) >= since)
    before = search.get("changes-before")
    if before is not None:
        include_deleted = True
        preds.append(lambda s: parse_time(s["updated_at"]) <= before)
    for option, wanted_all, negate in _TAGS:
        if option in search:
            preds.append(_tag_predicate(search[option], wanted_all, negate))
    if "locked" in search:
        locked = search["locked"]
        preds.append(lambda s: (s["locked_by"] is not None) == locked)
    if "availability_zone" in search:
        in_zone = _regex(search["availability_zone"])
        preds.append(lambda s: zone_of(s) is not None and in_zone(zone_of(s)))
    if "deleted" in search:
        # an admin's explicit choice, also over changes-since/-before
        wanted = bool(search["deleted"])
        include_deleted = include_deleted or wanted
        preds.append(lambda s: bool(s["deleted"]) == wanted)
    return preds, include_deleted


def _equal_predicate(column, value):
    return lambda server: server[column] == value


def _pattern_predicate(column, pattern):
    found = _regex(pattern)

    def pred(server):
        text = _stored_text(column, server[column])
        return text is not None and found(text)

    return pred


def columns(search):
    """The columns the :func:`predicates` of ``search`` read (a list
    ordered by name): a listing can filter a projection of the rows."""
    return sorted({column for option in search for column in _OPTION_COLUMNS.get(option, ())})


def _tag_predicate(wanted, wanted_all, negate):
    def pred(s):
        tags = set(json.loads(s["tags"]))
        hit = wanted <= tags if wanted_all else bool(wanted & tags)
        return hit != negate

    return pred


def sort_order(keys, dirs, is_admin):
    """``[(column, direction)]`` for the ``sort_key``/``sort_dir`` lists
    (default: newest first); 400 for an unknown key or direction, 403 for
    an admin-only key."""
    if not keys:
        keys, dirs = ["created_at"], dirs or ["desc"]
    order = []
    for index, key in enumerate(keys):
        column = _SORT_KEYS.get(key)
        if column is None:
            raise errors.BadRequest("Invalid sort_key %s" % key)
        if key in _ADMIN_SORT_KEYS and not is_admin:
            raise errors.Forbidden("Only administrators can sort servers by %s" % key)
        direction = dirs[index] if index < len(dirs) else (dirs[0] if dirs else "desc")
        if direction not in ("asc", "desc"):
            # nova's DB layer (InvalidInput)
            raise errors.BadRequest(
                "Invalid input received: Unknown sort direction, must be 'desc' or 'asc'"
            )
        order.append((column, direction))
    return order


def sort(servers, order):
    """``servers`` sorted by ``order`` (None last), ties by creation."""
    order = list(order) + [("seq", order[0][1])]
    for column, direction in reversed(order):
        servers.sort(key=lambda s, c=column: (s[c] is not None, s[c]), reverse=direction == "desc")
    return servers


def _full_order(order):
    """``order`` with its ``seq`` tie-break (in the first key's direction)."""
    return list(order) + [("seq", order[0][1])]


def order_by(order):
    """The SQL ``ORDER BY`` terms sorting like :func:`sort` (SQLite puts
    NULL first ascending and last descending, as :func:`sort` does)."""
    return ", ".join(
        "%s %s" % (column, direction.upper()) for column, direction in _full_order(order)
    )


def after(order, marker):
    """``(sql, args)``: the rows :func:`sort` puts after the ``marker``
    row (a mapping of its columns) in ``order``; keyset paging."""
    clauses, args = [], []
    equal: list[str] = []
    equal_args: list[object] = []
    for column, direction in _full_order(order):
        value = marker[column]
        if direction == "asc":
            # ascending: NULL first, so everything non-NULL is after a NULL
            cond, cond_args = (
                (column + " IS NOT NULL", []) if value is None else (column + " > ?", [value])
            )
        elif value is not None:
            cond, cond_args = ("(%s < ? OR %s IS NULL)" % (column, column), [value])
        else:
            cond = None  # descending: nothing is after a NULL but ties
        if cond is not None:
            clauses.append("(%s)" % " AND ".join(equal + [cond]))
            args += equal_args + cond_args
        equal.append(column + " IS ?")
        equal_args.append(value)
    return "(%s)" % (" OR ".join(clauses) or "0"), args
