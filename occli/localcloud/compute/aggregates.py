"""Host aggregates and the availability zones they make: nova's
``AggregateAPI`` rules (CONTRACT.md §3.10) over the aggregate tables.

A compute host's availability zone is the ``availability_zone`` metadata of
the aggregates it belongs to, else the default zone ``nova``
(:func:`host_zone`); :func:`hosts_in_zone` answers the reverse question for
scheduling and :func:`zones` lists the zones (os-availability-zone). Rules:

* a host is in at most one zone: an aggregate's zone may not differ from the
  zone another aggregate already gives one of its hosts;
* servers never change zone: adding or removing a host that runs servers,
  or renaming the zone of an aggregate whose hosts run servers, is refused;
* metadata updates merge, a None value deleting the key, but the
  ``availability_zone`` key can be neither None nor empty.
"""

import sqlite3

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud.compute import hosts
from occli.localcloud.compute import server_rows

DEFAULT_ZONE = "nova"

# nova's exception.InvalidAggregateAction* message formats, by action
_ADD = "Cannot add host to aggregate %s. Reason: %s."
_UPDATE = "Cannot update aggregate %s. Reason: %s."
_UPDATE_META = "Cannot update metadata of aggregate %s. Reason: %s."
_DELETE = "Cannot remove host from aggregate %s. Reason: %s."
# nova 34's reason when a host running servers would change zone
_MOVE = (
    "The host cannot be %s the aggregate as the availability zone of the host would change"
    " from '%s' to '%s' but the host already has %d instance(s). Changing the AZ of an"
    " existing instance is not supported by this action. Move the instances away from this"
    " host then try again. If you need to move the instances between AZs then you can use"
    " shelve_offload and unshelve to achieve this."
)


# -- zones: what the rest of compute asks ---------------------------------


def _zones_by_host(db, host_names=None, exclude=None):
    """``{host: {zone, …}}`` from the aggregates (but ``exclude``) with a
    zone; only for ``host_names`` if given."""
    sql = (
        "SELECT h.host, m.value FROM compute_aggregate_hosts h"
        " JOIN compute_aggregate_metadata m"
        " ON m.aggregate_id = h.aggregate_id"
        " AND m.key = 'availability_zone' WHERE h.aggregate_id != ?"
    )
    args = [-1 if exclude is None else exclude]
    if host_names is not None:
        sql += " AND h.host IN (%s)" % ",".join("?" * len(host_names))
        args += list(host_names)
    zones: dict[str, set[str]] = {}
    for row in db.execute(sql, args):
        zones.setdefault(row["host"], set()).add(row["value"])
    return zones


def _zone_name(zones):
    """nova's zone of a host whose aggregates give ``zones``."""
    return ",".join(sorted(zones)) if zones else DEFAULT_ZONE


def host_zone(db, host):
    """The availability zone of compute host ``host`` (default ``nova``)."""
    return _zone_name(_zones_by_host(db, [host]).get(host))


def host_zones(db):
    """``{host: availability zone}`` of the hosts an aggregate gives a zone,
    in one query; any other host is in :data:`DEFAULT_ZONE`."""
    return {host: _zone_name(zones) for host, zones in _zones_by_host(db).items()}


def hosts_in_zone(db, zone):
    """The compute hosts of availability zone ``zone`` (may be empty)."""
    zones = host_zones(db)
    return [h for h in hosts.compute_hosts(db) if zones.get(h, DEFAULT_ZONE) == zone]


def service_zone(db, row):
    """The availability zone of a service row."""
    if row["binary"] == hosts.COMPUTE_BINARY:
        return host_zone(db, row["host"])
    return hosts.INTERNAL_ZONE


def zones(db, include_internal):
    """``[(zone, available, {host: [enabled service rows]} or None)]``:
    nova's ``get_availability_zones`` — a zone is available when it has an
    enabled service, else listed as not available — available zones first
    (each group by name; nova's order comes from sets). As in nova's
    verbose listing, disabled services are left out of ``hosts``."""
    enabled: dict[str, dict[str, list[sqlite3.Row]]] = {}
    disabled = set()
    for row in db.execute("SELECT * FROM compute_services ORDER BY id"):
        zone = service_zone(db, row)
        if zone == hosts.INTERNAL_ZONE and not include_internal:
            continue
        if row["disabled"]:
            disabled.add(zone)
        else:
            enabled.setdefault(zone, {}).setdefault(row["host"], []).append(row)
    return [(name, True, enabled[name]) for name in sorted(enabled)] + [
        (name, False, None) for name in sorted(disabled - set(enabled))
    ]


def _has_servers(db, host):
    return server_rows.servers_on_host(db, host) > 0


# -- rows -----------------------------------------------------------------


def metadata(db, agg_id):
    """``{key: value}`` of aggregate ``agg_id``."""
    return {
        r["key"]: r["value"]
        for r in db.execute(
            "SELECT key, value FROM compute_aggregate_metadata"
            " WHERE aggregate_id = ? ORDER BY key",
            (agg_id,),
        )
    }


def host_names(db, agg_id):
    """The hosts of aggregate ``agg_id``, in the order they were added."""
    return [
        r["host"]
        for r in db.execute(
            "SELECT host FROM compute_aggregate_hosts WHERE aggregate_id = ? ORDER BY id",
            (agg_id,),
        )
    ]


def get(db, agg_id):
    """The aggregate row, or NotFound."""
    row = db.execute("SELECT * FROM compute_aggregates WHERE id = ?", (agg_id,)).fetchone()
    if row is None:
        raise not_found(agg_id)
    return row


def not_found(agg_id):
    return errors.NotFound("Aggregate %s could not be found." % agg_id)


def select(db):
    """Every aggregate row, by id."""
    return db.execute("SELECT * FROM compute_aggregates ORDER BY id").fetchall()


def _now():
    return common.iso_naive_micro(common.utcnow())


# -- nova's AggregateAPI ----------------------------------------------------


def create(db, name, zone=None):
    """A new aggregate (in ``zone`` if given); returns its id."""
    _name_taken(db, name)
    cur = db.execute(
        "INSERT INTO compute_aggregates (uuid, name, created_at) VALUES (?, ?, ?)",
        (common.new_uuid(), name, _now()),
    )
    if zone:
        _update_metadata(db, cur.lastrowid, {"availability_zone": zone})
    return cur.lastrowid


def update(db, agg_id, values):
    """Rename (``name``) and/or re-zone (``availability_zone``).

    Returns the ``updated_at`` the answer shows: as in nova, a rename saves
    the aggregate (its ``updated_at`` is stored) while a metadata change only
    stamps the object it answers with (the stored value is unchanged).
    """
    row = get(db, agg_id)
    values = dict(values)
    if "name" in values:
        name = values.pop("name").strip()
        _name_taken(db, name, agg_id)
        db.execute(
            "UPDATE compute_aggregates SET name = ?, updated_at = ? WHERE id = ?",
            (name, _now(), agg_id),
        )
    _check_az_update(db, row, values, host_names(db, agg_id), _UPDATE)
    if values:
        _update_metadata(db, agg_id, values)
        return _now()
    return None


def delete(db, agg_id):
    """Delete an aggregate that has no hosts."""
    get(db, agg_id)
    if host_names(db, agg_id):
        raise errors.BadRequest(_DELETE % (agg_id, "Host aggregate is not empty"))
    db.execute("DELETE FROM compute_aggregates WHERE id = ?", (agg_id,))


def add_host(db, agg_id, host):
    if host not in hosts.compute_hosts(db):
        raise errors.NotFound("Compute host %s could not be found." % host)
    get(db, agg_id)
    zone = metadata(db, agg_id).get("availability_zone")
    if zone:
        conflicting = _conflicting_zones(db, agg_id, zone, [host])
        if conflicting:
            raise errors.Conflict(
                _ADD
                % (agg_id, "One or more hosts already in availability zone(s) %s" % conflicting)
            )
    if zone:
        _refuse_zone_move(db, host, _ADD, agg_id, "added to", None, zone)
    if host in host_names(db, agg_id):
        raise errors.Conflict("Aggregate %s already has host %s." % (agg_id, host))
    db.execute(
        "INSERT INTO compute_aggregate_hosts (aggregate_id, host) VALUES (?, ?)", (agg_id, host)
    )


def remove_host(db, agg_id, host, shown_id=None):
    """Remove ``host``; ``shown_id`` is the aggregate id as the request
    spelled it (nova's messages repeat it)."""
    shown_id = agg_id if shown_id is None else shown_id
    not_found_error = errors.NotFound("Cannot remove host %s in aggregate %s" % (host, shown_id))
    if host not in hosts.compute_hosts(db):
        raise not_found_error
    if db.execute("SELECT 1 FROM compute_aggregates WHERE id = ?", (agg_id,)).fetchone() is None:
        raise not_found_error
    zone = metadata(db, agg_id).get("availability_zone")
    if zone:
        # nova checks this before membership: a host outside the aggregate
        # that runs servers is refused too
        _refuse_zone_move(db, host, _DELETE, agg_id, "removed from", agg_id, zone)
    if host not in host_names(db, agg_id):
        raise not_found_error
    db.execute(
        "DELETE FROM compute_aggregate_hosts WHERE aggregate_id = ? AND host = ?", (agg_id, host)
    )


def set_metadata(db, agg_id, values):
    """Merge ``values`` into the metadata (None deletes a key); returns the
    ``updated_at`` the answer shows. Nova changes the metadata rows, never
    the aggregate's: its stored ``updated_at`` stays as it was (null for an
    aggregate never renamed), only the answer carries the time."""
    row = get(db, agg_id)
    _check_az_update(db, row, values, host_names(db, agg_id), _UPDATE_META)
    _update_metadata(db, agg_id, values)
    return _now()


def check_cached_images(db, agg_id, image_ids, images):
    """``POST …/images``: the aggregate exists and so does every image
    (``images``: the image service, or None to skip the lookup)."""
    get(db, agg_id)
    for image_id in image_ids:
        # nova's conductor looks each image up first; its NovaException is 400
        if images is not None and not images.image_exists(db, image_id):
            raise errors.BadRequest("Image %s could not be found." % image_id)


def _check_az_update(db, row, values, members, message):
    """``AggregateAPI.is_safe_to_update_az`` for a metadata update."""
    if "availability_zone" not in values:
        return
    zone = values["availability_zone"]
    if not zone:
        raise errors.BadRequest(
            message
            % (
                row["id"],
                "Aggregate %s does not support empty named availability zone" % row["name"],
            )
        )
    conflicting = _conflicting_zones(db, row["id"], zone, members)
    if conflicting:
        raise errors.BadRequest(
            message
            % (row["id"], "One or more hosts already in availability zone(s) %s" % conflicting)
        )
    current = metadata(db, row["id"]).get("availability_zone")
    if zone != current and any(_has_servers(db, h) for h in members):
        raise errors.BadRequest(
            message % (row["id"], "One or more hosts contain instances in this zone")
        )


def _conflicting_zones(db, agg_id, zone, members):
    """Zones other aggregates give ``members`` that differ from ``zone``."""
    if not members:
        return []
    rows = db.execute(
        "SELECT DISTINCT a.id, m.value FROM compute_aggregates a"
        " JOIN compute_aggregate_hosts h ON h.aggregate_id = a.id"
        " JOIN compute_aggregate_metadata m ON m.aggregate_id = a.id"
        " AND m.key = 'availability_zone'"
        " WHERE a.id != ? AND m.value != ? AND h.host IN (%s) ORDER BY a.id"
        % ",".join("?" * len(members)),
        [agg_id, zone] + list(members),
    )
    return [r["value"] for r in rows]


def _update_metadata(db, agg_id, values):
    """Merge ``values``: a None value deletes the key (absent is fine)."""
    for key, value in values.items():
        if value is None:
            db.execute(
                "DELETE FROM compute_aggregate_metadata WHERE aggregate_id = ? AND key = ?",
                (agg_id, key),
            )
        else:
            db.execute(
                "INSERT INTO compute_aggregate_metadata (aggregate_id, key,"
                " value) VALUES (?, ?, ?) ON CONFLICT (aggregate_id, key)"
                " DO UPDATE SET value = excluded.value",
                (agg_id, key, value),
            )


def _name_taken(db, name, agg_id=None):
    row = db.execute("SELECT id FROM compute_aggregates WHERE name = ?", (name,)).fetchone()
    if row is not None and row["id"] != agg_id:
        raise errors.Conflict("Aggregate %s already exists." % name)


def _refuse_zone_move(db, host, template, agg_id, verb, exclude, zone):
    """nova 34's ``ensure_no_instances_need_to_move_az_when_host_added`` /
    ``_removed``: a host running servers must keep its zone as its
    aggregates' metadata name it (None without one, not the default zone).
    Joining: from that zone to ``zone``; leaving aggregate ``exclude``
    (zone ``zone``): from ``zone`` to what the others give."""
    count = server_rows.servers_on_host(db, host)
    if not count:
        return
    others = sorted(_zones_by_host(db, [host], exclude=exclude).get(host, ()))
    other = others[0] if others else None
    before, after = (other, zone) if exclude is None else (zone, other)
    if before != after:
        raise errors.Conflict(template % (agg_id, _MOVE % (verb, before, after, count)))


def _leave_all(db, host):
    """A deleted compute host leaves every aggregate it is in (nova's
    ``ServiceController.delete`` removes it from each one), registered
    with :func:`.hosts.on_delete` since hosts sit below aggregates."""
    for member in db.execute(
        "SELECT aggregate_id FROM compute_aggregate_hosts WHERE host = ?", (host,)
    ).fetchall():
        remove_host(db, member["aggregate_id"], host)


hosts.on_delete(_leave_all)
