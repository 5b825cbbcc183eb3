"""Quotas: what a project may have and what it uses, as nova's
``DbQuotaDriver`` (``nova/quota.py``) keeps and enforces them.

A project's limit of a resource is its own (``compute_quotas``, set by an
admin through ``os-quota-sets``), else the ``default`` quota class's
(``compute_quota_classes``, set through ``os-quota-class-sets``), else the
configured default (:func:`config_defaults`: nova's ``[quota]`` defaults,
``instances``, ``cores`` and ``ram`` from ``Config.quota_instances``,
``quota_cores`` and ``quota_ram``, nova's 10, 20 and 51200 unless set).
``-1`` is unlimited. A user's limit is their own (``compute_user_quotas``,
``os-quota-sets?user_id=``), else the project's: nova's per-user quotas,
set within the project's remains (its limit less the sum of its users'
limits) and checked, with the project's, by the boots of a user who has
an ``instances``, ``cores`` or ``ram`` limit of their own.

Usage is counted like nova's default (legacy) counting: every non-deleted
server of the project counts one instance plus its flavor's vCPUs and RAM
(ERROR and shelved servers included); key pairs are counted per user at
creation; server groups per project (``server_groups.py`` checks them and
their members). Nova's reported
``reserved`` is always 0 (reservations are gone since Queens).

The checks raise nova's texts: ``TooManyInstances`` (create, resize),
``MetadataLimitExceeded``, the ``OnsetFile*`` errors and
``KeypairLimitExceeded``, all 403 (:class:`~occli.localcloud.errors.OverLimit`).
``config.max_servers_per_request``, the local cloud's own bound on the work
one create does, trims and refuses like the instances quota. A create made
in several write transactions checks again after each (:func:`recheck`).
"""

import base64
import binascii

from occli.localcloud import common
from occli.localcloud import errors

UNLIMITED = -1
#: nova's ``QUOTAS.resources`` (sorted, as nova lists them)
RESOURCES = (
    "cores",
    "fixed_ips",
    "floating_ips",
    "injected_file_content_bytes",
    "injected_file_path_bytes",
    "injected_files",
    "instances",
    "key_pairs",
    "metadata_items",
    "ram",
    "security_group_rules",
    "security_groups",
    "server_group_members",
    "server_groups",
)
#: the nova-network quotas: kept for the API, never enforced
NETWORK_RESOURCES = ("fixed_ips", "floating_ips", "security_group_rules", "security_groups")
INJECTED_FILE_RESOURCES = (
    "injected_file_content_bytes",
    "injected_file_path_bytes",
    "injected_files",
)
#: resources whose usage ``os-quota-sets/detail`` reports (nova's
#: ``_get_usages``: key pairs and server group members always show 0)
REPORTED_USAGE = ("cores", "instances", "ram", "server_groups")
#: nova's ``[quota]`` option defaults
NOVA_DEFAULTS = {
    "cores": 20,
    "fixed_ips": UNLIMITED,
    "floating_ips": UNLIMITED,
    "injected_file_content_bytes": 10240,
    "injected_file_path_bytes": 255,
    "injected_files": 5,
    "instances": 10,
    "key_pairs": 100,
    "metadata_items": 128,
    "ram": 51200,
    "security_group_rules": UNLIMITED,
    "security_groups": UNLIMITED,
    "server_group_members": 10,
    "server_groups": 10,
}
DEFAULT_CLASS = "default"
#: the largest limit nova's database holds (``nova.db.constants.MAX_INT``)
MAX_LIMIT = 0x7FFFFFFF


# -- limits ----------------------------------------------------------------


def config_defaults(config=None):
    """The configured default of every resource: nova's, ``instances``,
    ``cores`` and ``ram`` as ``config`` sets them (nova's ``[quota]``
    options; without ``config`` nova's own defaults)."""
    values = dict(NOVA_DEFAULTS)
    if config is not None:
        values["instances"] = config.quota_instances
        values["cores"] = config.quota_cores
        values["ram"] = config.quota_ram
    return values


def _rows(db, table, column, key):
    return {
        row["resource"]: row["hard_limit"]
        for row in db.execute(
            "SELECT resource, hard_limit FROM %s WHERE %s = ?" % (table, column), (key,)
        )
    }


def class_limits(db, class_name, config=None):
    """Nova's ``get_class_quotas``: the class's own limits, else the
    configured defaults (``default`` is the class the defaults come from)."""
    values = config_defaults(config)
    values.update(_rows(db, "compute_quota_classes", "class_name", class_name))
    return values


def defaults(db, config=None):
    """Nova's ``get_defaults``: the ``default`` class over the configured
    defaults; what a project without limits of its own gets."""
    return class_limits(db, DEFAULT_CLASS, config)


def limits(db, project_id, config=None):
    """Every resource's limit for ``project_id``. ``config`` is needed for
    correct ``instances``, ``cores`` and ``ram`` (the other defaults are
    constants)."""
    values = defaults(db, config)
    values.update(_rows(db, "compute_quotas", "project_id", project_id))
    return values


def user_limits(db, project_id, user_id, config=None):
    """Nova's ``get_user_quotas``: the user's own limits over the
    project's (see :func:`limits`)."""
    values = limits(db, project_id, config)
    values.update(_user_rows(db, project_id, user_id))
    return values


def _user_rows(db, project_id, user_id):
    return {
        row["resource"]: row["hard_limit"]
        for row in db.execute(
            "SELECT resource, hard_limit FROM compute_user_quotas"
            " WHERE project_id = ? AND user_id = ?",
            (project_id, user_id),
        )
    }


def limit(db, project_id, resource, config=None):
    """One resource's limit for ``project_id`` (see :func:`limits`)."""
    return limits(db, project_id, config)[resource]


# -- usage -----------------------------------------------------------------


def usage(db, project_id, user_id=None):
    """``{"instances", "cores", "ram", "server_groups"}`` the project's (or
    one of its users') non-deleted servers use."""
    sql = (
        "SELECT COUNT(*), TOTAL(json_extract(flavor, '$.vcpus')),"
        " TOTAL(json_extract(flavor, '$.ram')) FROM servers"
        " WHERE project_id = ? AND deleted = 0"
    )
    args = [project_id]
    if user_id is not None:
        sql += " AND user_id = ?"
        args.append(user_id)
    count, cores, ram = db.execute(sql, args).fetchone()
    groups = db.execute(
        "SELECT COUNT(*) FROM compute_server_groups WHERE project_id = ?"
        + (" AND user_id = ?" if user_id is not None else ""),
        args,
    ).fetchone()[0]
    return {"instances": count, "cores": int(cores), "ram": int(ram), "server_groups": groups}


def detail(db, project_id, config=None, user_id=None):
    """``{resource: {"limit", "in_use", "reserved"}}`` (``os-quota-sets/
    {id}/detail``; ``user_id``: that user's limits and servers)."""
    used = usage(db, project_id, user_id)
    if user_id is None:
        values = limits(db, project_id, config)
    else:
        values = user_limits(db, project_id, user_id, config)
    return {
        resource: {
            "limit": value,
            "in_use": used[resource] if resource in REPORTED_USAGE else 0,
            "reserved": 0,
        }
        for resource, value in values.items()
    }


# -- changing limits -------------------------------------------------------


def _unlimited(value):
    return float("inf") if value == UNLIMITED else value


def _upsert(db, table, column, key, values, user_id=None):
    now = common.iso_naive_micro(common.utcnow())
    columns: tuple[str, ...] = (column,)
    keys: tuple[str, ...] = (key,)
    if user_id is not None:
        columns, keys = (column, "user_id"), (key, user_id)
    names = ", ".join(columns)
    for resource, value in values.items():
        db.execute(
            "INSERT INTO %s (%s, resource, hard_limit, created_at)"
            " VALUES (%s?, ?, ?) ON CONFLICT (%s, resource) DO UPDATE"
            " SET hard_limit = excluded.hard_limit, updated_at = ?"
            % (table, names, "?, " * len(keys), names),
            keys + (resource, value, now, now),
        )


def _is_unlimited(value):
    """Nova's ``_is_unlimited_value``: any value at or below -1."""
    return value <= UNLIMITED


def _sum(first, second):
    """Nova's ``_sum_quota_values``."""
    return UNLIMITED if _is_unlimited(first) or _is_unlimited(second) else first + second


def _sub(first, second):
    """Nova's ``_sub_quota_values``."""
    return UNLIMITED if _is_unlimited(first) or _is_unlimited(second) else first - second


def _remains(db, project_id, project_limits):
    """Nova's ``remains``: each project limit less every user limit set in
    the project (subtracted as stored, ``-1`` too, as nova does)."""
    remains = dict(project_limits)
    for row in db.execute(
        "SELECT resource, hard_limit FROM compute_user_quotas WHERE project_id = ?",
        (project_id,),
    ):
        if row["resource"] in remains:
            remains[row["resource"]] -= row["hard_limit"]
    return remains


def _validate(values, settable):
    """Nova's ``_validate_quota_limit`` over ``values`` in the body's
    order: 400 naming the first outside its ``(minimum, maximum)``."""
    for resource, value in values.items():
        minimum, maximum = settable[resource]
        if _unlimited(value) < _unlimited(minimum):
            raise errors.BadRequest(
                "Quota limit %s for %s must be greater than or equal to "
                "already used and reserved %s." % (value, resource, minimum)
            )
        if _unlimited(value) > _unlimited(maximum):
            raise errors.BadRequest(
                "Quota limit %s for %s must be less than or equal to %s."
                % (value, resource, maximum)
            )


def _used(db, project_id, user_id=None):
    used = usage(db, project_id, user_id)
    return {r: used[r] if r in REPORTED_USAGE else 0 for r in RESOURCES}


def update_project(db, project_id, values, force=False, config=None):
    """Set ``values`` (``{resource: int}``, schema-checked) as the
    project's limits. Unless ``force``, each must cover what the project
    uses and what its users' limits take (nova's ``get_settable_quotas``
    and ``_validate_quota_limit``: 400 naming the first one that does
    not, nothing changed)."""
    if not force:
        current = limits(db, project_id, config)
        remains = _remains(db, project_id, current)
        used = _used(db, project_id)
        settable = {r: (max(_sub(current[r], remains[r]), used[r]), UNLIMITED) for r in RESOURCES}
        _validate(values, settable)
    _upsert(db, "compute_quotas", "project_id", project_id, values)


def update_user(db, project_id, user_id, values, force=False, config=None):
    """Set ``values`` as ``user_id``'s limits in ``project_id``. Unless
    ``force``, each must cover what the user uses and fit the project's
    remains plus the user's current limit (nova's ``get_settable_quotas``
    for a user: ``Quota limit 6 for instances must be less than or equal
    to 5.``)."""
    if not force:
        remains = _remains(db, project_id, limits(db, project_id, config))
        own = _user_rows(db, project_id, user_id)
        used = _used(db, project_id, user_id)
        settable = {r: (used[r], _sum(remains[r], own.get(r, 0))) for r in RESOURCES}
        _validate(values, settable)
    _upsert(db, "compute_user_quotas", "project_id", project_id, values, user_id)


def delete_project(db, project_id):
    """Revert the project and its users to the defaults (nova's
    ``destroy_all_by_project``: the per-user limits go too)."""
    db.execute("DELETE FROM compute_quotas WHERE project_id = ?", (project_id,))
    db.execute("DELETE FROM compute_user_quotas WHERE project_id = ?", (project_id,))


def delete_user(db, project_id, user_id):
    """Revert a user to the project's limits (nova's
    ``destroy_all_by_project_and_user``)."""
    db.execute(
        "DELETE FROM compute_user_quotas WHERE project_id = ? AND user_id = ?",
        (project_id, user_id),
    )


def update_class(db, class_name, values):
    """Set ``values`` as the class's limits (no usage check, as nova)."""
    if len(class_name) > 255:
        raise errors.BadRequest(
            "quota_class_name has %d characters, more than 255." % len(class_name)
        )
    _upsert(db, "compute_quota_classes", "class_name", class_name, values)


# -- checks ----------------------------------------------------------------


def _allowed(db, project_id, resource):
    if db is None:
        return config_defaults()[resource]
    return limit(db, project_id, resource)


def check_metadata(metadata, db=None, project_id=None):
    """Nova's ``_check_metadata_properties_quota`` (403) against the
    ``metadata_items`` limit of ``project_id`` (the caller's project; the
    default limit without ``db``)."""
    allowed = _allowed(db, project_id, "metadata_items")
    if allowed >= 0 and len(metadata) > allowed:
        raise errors.OverLimit("Maximum number of metadata items exceeds %d" % allowed)


def check_personality(files, db=None, project_id=None):
    """Nova's personality decoding (400), then its
    ``_check_injected_file_quota`` (403): the number of files, then the
    longest path and the largest content (the path reported first)."""
    decoded = []
    for item in files:
        path = item.get("path", "")
        try:
            contents = base64.b64decode(item.get("contents", ""), validate=True)
        except (binascii.Error, ValueError):
            raise errors.BadRequest(
                "Personality content for %s cannot be decoded" % path
            ) from None
        decoded.append((path, contents))
    if not decoded:
        return
    allowed = _allowed(db, project_id, "injected_files")
    if allowed >= 0 and len(decoded) > allowed:
        raise errors.OverLimit("Personality file limit exceeded")
    max_path = _allowed(db, project_id, "injected_file_path_bytes")
    if max_path >= 0 and max(len(p) for p, _ in decoded) > max_path:
        raise errors.OverLimit("Personality file path exceeds maximum %d" % max_path)
    max_content = _allowed(db, project_id, "injected_file_content_bytes")
    if max_content >= 0 and max(len(c) for _, c in decoded) > max_content:
        raise errors.OverLimit("Personality file content exceeds maximum %d" % max_content)


def keypair_limit(db, project_id):
    """How many key pairs each user may have, from ``project_id``'s
    ``key_pairs`` limit (nova counts per user, limits per project)."""
    return limit(db, project_id, "key_pairs")


def _too_many(overs, requested, used, allowed):
    """Nova's ``TooManyInstances`` text for the resources ``overs``."""

    def join(values):
        return ", ".join(str(values[r]) for r in overs)

    names = ", ".join(overs)
    return errors.OverLimit(
        "Quota exceeded for %s: Requested %s, but already used %s of %s %s"
        % (names, join(requested), join(used), join(allowed), names)
    )


def _headroom(quota, used, deltas):
    """Nova's ``compute.utils.get_headroom``."""
    headroom = {r: quota[r] - used[r] for r in quota}
    instances = headroom.get("instances", 1)
    for resource in ("cores", "ram"):
        if quota.get(resource) == UNLIMITED:
            if deltas.get(resource):
                headroom[resource] = instances * deltas[resource] // deltas.get("instances", 1)
            else:
                headroom[resource] = instances
    return headroom


def _overs(quota, used, deltas):
    return sorted(r for r, delta in deltas.items() if quota[r] >= 0 and used[r] + delta > quota[r])


INSTANCE_RESOURCES = ("instances", "cores", "ram")


def _scopes(db, config, project_id, user_id):
    """``[(limits, usage)]`` a boot is checked against: the project's, then
    the user's when they have an instances, cores or ram limit of their own
    (nova's ``check_num_instances_quota`` counts per user only then)."""
    quota = limits(db, project_id, config)
    scopes = [({r: quota[r] for r in INSTANCE_RESOURCES}, usage(db, project_id))]
    own = _user_rows(db, project_id, user_id) if user_id is not None else {}
    if any(r in own for r in INSTANCE_RESOURCES):
        quota.update(own)
        scopes.append(({r: quota[r] for r in INSTANCE_RESOURCES}, usage(db, project_id, user_id)))
    return scopes


def _exceeded(scopes, deltas):
    """Nova's ``limit_check_project_and_user``: ``(overs, limits, usage)``
    of the scope a boot exceeds (the user's once any resource is over the
    user's limit only), or None."""
    overs, scope = [], scopes[0]
    for resource in sorted(deltas):
        if _overs(scopes[0][0], scopes[0][1], {resource: deltas[resource]}):
            overs.append(resource)
        elif len(scopes) > 1 and _overs(scopes[1][0], scopes[1][1], {resource: deltas[resource]}):
            overs.append(resource)
            scope = scopes[1]
    return (overs, *scope) if overs else None


def instance_count(db, config, project_id, min_count, max_count, flavor=None, user_id=None):
    """How many servers a create makes, checked before anything is created.

    Nova's ``check_num_instances_quota`` over the project's instances,
    cores and RAM (``flavor``: the ``compute_flavors`` row; without it,
    instances only), and ``user_id``'s own limits if they have some: a
    ``max_count`` above the headroom is trimmed to it if
    that still covers ``min_count``, else 403 ``TooManyInstances``
    (``Quota exceeded for cores, instances: Requested 8, 2, but already
    used 18, 9 of 20, 10 cores, instances``). As in nova, an unlimited
    instances quota leaves no headroom to trim to when cores or RAM are
    over: the create is refused. ``config.max_servers_per_request`` then
    trims and refuses the same way.
    """
    requested_text = str(min_count) if min_count == max_count else "%d-%d" % (min_count, max_count)
    vcpus = flavor["vcpus"] if flavor is not None else 0
    ram = flavor["memory_mb"] if flavor is not None else 0
    scopes = _scopes(db, config, project_id, user_id)
    while True:
        deltas = {"instances": max_count, "cores": max_count * vcpus, "ram": max_count * ram}
        exceeded = _exceeded(scopes, deltas)
        if exceeded is None:
            break
        overs, quota, used = exceeded
        headroom = _headroom(quota, used, deltas)
        allowed = headroom["instances"]
        if vcpus:
            allowed = min(allowed, headroom["cores"] // vcpus)
        if ram:
            allowed = min(allowed, headroom["ram"] // ram)
        if allowed > 0 and min_count <= allowed <= max_count:
            max_count = allowed
            continue
        requested = {"instances": requested_text, "cores": deltas["cores"], "ram": deltas["ram"]}
        raise _too_many(overs, requested, {r: quota[r] - headroom[r] for r in overs}, quota)
    ceiling = config.max_servers_per_request
    if max_count > ceiling:
        if min_count > ceiling:
            raise errors.OverLimit(
                "Quota exceeded for instances: Requested %s, but this local"
                " cloud creates at most %d servers per request" % (requested_text, ceiling)
            )
        max_count = ceiling
    return max_count


def recheck(db, config, project_id, flavor, requested, user_id=None):
    """Nova's quota recheck (``check_num_instances_quota`` with no delta,
    once a create's rows are in): 403 ``TooManyInstances`` if the project's
    instances, cores or RAM are now over their limits, as when another
    create took the headroom meanwhile (``Quota exceeded for instances:
    Requested 4, but already used 6 of 6 instances``; ``requested``: the
    create's count, ``flavor`` its ``compute_flavors`` row; ``user_id``'s
    own limits too, as in :func:`instance_count`)."""
    exceeded = _exceeded(
        _scopes(db, config, project_id, user_id), dict.fromkeys(INSTANCE_RESOURCES, 0)
    )
    if exceeded is not None:
        overs, quota, _ = exceeded
        wanted = {
            "instances": requested,
            "cores": requested * flavor["vcpus"],
            "ram": requested * flavor["memory_mb"],
        }
        # nova passes the zero deltas as the headroom: "used" is the limit
        raise _too_many(overs, wanted, quota, quota)


def check_resize(db, project_id, current, new, config=None, user_id=None):
    """Nova's ``_check_quota_for_upsize``: a resize (or the revert of a
    downsize) from flavor ``current`` to ``new`` (dicts with ``vcpus`` and
    ``ram``, as servers keep them) must fit the project's cores and RAM
    (``config``'s defaults), and those of the server's owner ``user_id``
    when they have limits of their own (nova's ``ids_from_instance``);
    only growth is counted. 403 ``TooManyInstances`` otherwise."""
    deltas = {
        "cores": max(0, new["vcpus"] - current["vcpus"]),
        "ram": max(0, new["ram"] - current["ram"]),
    }
    if not any(deltas.values()):
        return
    exceeded = _exceeded(_scopes(db, config, project_id, user_id), deltas)
    if exceeded is not None:
        overs, quota, used = exceeded
        headroom = _headroom(quota, used, deltas)
        raise _too_many(overs, deltas, {r: quota[r] - headroom[r] for r in overs}, quota)
