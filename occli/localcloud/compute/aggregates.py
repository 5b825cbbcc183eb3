"""Host aggregates (``/os-aggregates``) and the availability zones they make.

A compute host's availability zone is the ``availability_zone`` metadata of
the aggregates it belongs to, else the default zone ``nova``
(:func:`host_zone`); :func:`hosts_in_zone` answers the reverse question for
scheduling. Behaviour follows nova's aggregates controller and
``AggregateAPI`` (CONTRACT.md §3.10):

* admin only; ``{aggregate_id}`` must be an integer (also at 2.41+, where
  ``uuid`` is shown); create, update, delete and actions answer 200, create
  without ``hosts``/``metadata``, delete with an empty body;
* a host is in at most one zone: an aggregate's zone may not differ from the
  zone another aggregate already gives one of its hosts;
* servers never change zone: adding or removing a host that runs servers,
  or renaming the zone of an aggregate whose hosts run servers, is refused;
* ``set_metadata`` merges, a null value deleting the key, but the
  ``availability_zone`` key can be neither null nor empty.
"""

import re

from occli.localcloud import common
from occli.localcloud.app import Response
from occli.localcloud.compute import base, schemas

DEFAULT_ZONE = "nova"
POLICY = "os_compute_api:os-aggregates:%s"
IMAGES_POLICY = "compute:aggregates:images"

MIGRATIONS = [
    """
    CREATE TABLE compute_aggregates (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        uuid TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        updated_at TEXT
    );
    CREATE TABLE compute_aggregate_hosts (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        aggregate_id INTEGER NOT NULL
            REFERENCES compute_aggregates (id) ON DELETE CASCADE,
        host TEXT NOT NULL,
        UNIQUE (aggregate_id, host)
    );
    CREATE TABLE compute_aggregate_metadata (
        aggregate_id INTEGER NOT NULL
            REFERENCES compute_aggregates (id) ON DELETE CASCADE,
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (aggregate_id, key)
    );
    CREATE INDEX compute_aggregate_hosts_host
        ON compute_aggregate_hosts (host);
    """,
]

# nova's parameter_types: valid_name_regex / valid_az_name_regex
_NAME_REASON = "printable characters. Can not start or end with whitespace."
_AZ_REASON = ("printable characters except :."
              "Can not start or end with whitespace.")
_EDGE_SPACE = re.compile(r"^\s|\s$")

_AZ = {"oneOf": [{"type": "string", "minLength": 1, "maxLength": 255},
                 {"type": "null"}]}
_NAME = {"type": "string", "minLength": 1, "maxLength": 255}
_HOST = {"type": "string", "minLength": 1, "maxLength": 255,
         "pattern": "^[a-zA-Z0-9-._]*$"}

CREATE = {
    "type": "object",
    "properties": {"aggregate": {
        "type": "object",
        "properties": {"name": _NAME, "availability_zone": _AZ},
        "required": ["name"], "additionalProperties": False}},
    "required": ["aggregate"], "additionalProperties": False,
}
UPDATE = {
    "type": "object",
    "properties": {"aggregate": {
        "type": "object",
        "properties": {"name": _NAME, "availability_zone": _AZ},
        "additionalProperties": False,
        "anyOf": [{"required": ["name"]},
                  {"required": ["availability_zone"]}]}},
    "required": ["aggregate"], "additionalProperties": False,
}
ACTIONS = {
    "add_host": {"type": "object", "properties": {"host": _HOST},
                 "required": ["host"], "additionalProperties": False},
    "remove_host": {"type": "object", "properties": {"host": _HOST},
                    "required": ["host"], "additionalProperties": False},
    "set_metadata": {
        "type": "object",
        "properties": {"metadata": {
            "type": "object",
            "patternProperties": {"^[a-zA-Z0-9-_:. ]{1,255}$": {
                "type": ["string", "null"], "maxLength": 255}},
            "additionalProperties": False}},
        "required": ["metadata"], "additionalProperties": False},
}
IMAGES = {
    "type": "object",
    "properties": {"cache": {
        "type": "array", "minItems": 1,
        "items": {"type": "object",
                  "properties": {"id": {"type": "string", "format": "uuid"}},
                  "required": ["id"], "additionalProperties": False}}},
    "required": ["cache"], "additionalProperties": False,
}

# nova's exception.InvalidAggregateAction* message formats, by action
_ADD = "Cannot add host to aggregate %s. Reason: %s."
_UPDATE = "Cannot update aggregate %s. Reason: %s."
_UPDATE_META = "Cannot update metadata of aggregate %s. Reason: %s."
_DELETE = "Cannot remove host from aggregate %s. Reason: %s."


def register(service):
    service.api("GET", "/os-aggregates", list_aggregates)
    service.api("POST", "/os-aggregates", create_aggregate)
    service.api("GET", "/os-aggregates/{aggregate_id}", show_aggregate)
    service.api("PUT", "/os-aggregates/{aggregate_id}", update_aggregate)
    service.api("DELETE", "/os-aggregates/{aggregate_id}", delete_aggregate)
    service.api("POST", "/os-aggregates/{aggregate_id}/action",
                aggregate_action)
    service.api("POST", "/os-aggregates/{aggregate_id}/images", cache_images,
                min_version="2.81")


# ---------------------------------------------------------------------------
# zones: what the rest of the compute API asks

def _zones_by_host(db, hosts=None, exclude=None):
    """``{host: {zone, …}}`` from the aggregates (but ``exclude``) with a
    zone; only for ``hosts`` if given."""
    sql = ("SELECT h.host, m.value FROM compute_aggregate_hosts h"
           " JOIN compute_aggregate_metadata m"
           " ON m.aggregate_id = h.aggregate_id"
           " AND m.key = 'availability_zone' WHERE h.aggregate_id != ?")
    args = [-1 if exclude is None else exclude]
    if hosts is not None:
        sql += " AND h.host IN (%s)" % ",".join("?" * len(hosts))
        args += list(hosts)
    zones = {}
    for row in db.execute(sql, args):
        zones.setdefault(row["host"], set()).add(row["value"])
    return zones


def _zone_name(zones):
    """nova's zone of a host whose aggregates give ``zones``."""
    return ",".join(sorted(zones)) if zones else DEFAULT_ZONE


def host_zone(db, host):
    """The availability zone of compute host ``host`` (default ``nova``)."""
    return _zone_name(_zones_by_host(db, [host]).get(host))


def hosts_in_zone(db, zone):
    """The compute hosts of availability zone ``zone`` (may be empty)."""
    from occli.localcloud import compute
    zones = _zones_by_host(db)
    return [h for h in compute.compute_hosts(db)
            if _zone_name(zones.get(h)) == zone]


def _has_servers(db, host):
    from occli.localcloud import compute
    return compute.servers_on_host(db, host) > 0


# ---------------------------------------------------------------------------
# rows and views

def _metadata(db, agg_id):
    return {r["key"]: r["value"] for r in db.execute(
        "SELECT key, value FROM compute_aggregate_metadata"
        " WHERE aggregate_id = ? ORDER BY key", (agg_id,))}


def _hosts(db, agg_id):
    return [r["host"] for r in db.execute(
        "SELECT host FROM compute_aggregate_hosts WHERE aggregate_id = ?"
        " ORDER BY id", (agg_id,))]


def _parse_id(req):
    """The integer ``{aggregate_id}`` (nova's ``validate_integer``: 400);
    one beyond any row id is nova's 404."""
    raw = req.params["aggregate_id"]
    try:
        agg_id = int(raw)
    except ValueError:
        raise base.bad_request(
            "Invalid input received: id must be an integer") from None
    if not base.sql_int(agg_id):
        raise base.not_found("Aggregate %s could not be found." % agg_id)
    return agg_id


def _load(db, agg_id):
    row = db.execute("SELECT * FROM compute_aggregates WHERE id = ?",
                     (agg_id,)).fetchone()
    if row is None:
        raise base.not_found("Aggregate %s could not be found." % agg_id)
    return row


def view(req, row, full=True):
    """Nova's marshalled aggregate (``uuid`` from 2.41)."""
    metadata = _metadata(req.db, row["id"])
    body = {
        "availability_zone": metadata.get("availability_zone"),
        "created_at": row["created_at"],
        "deleted": False,
        "deleted_at": None,
        "id": row["id"],
        "name": row["name"],
        "updated_at": row["updated_at"],
    }
    if full:
        body["hosts"] = _hosts(req.db, row["id"])
        body["metadata"] = metadata
    if req.microversion >= "2.41":
        body["uuid"] = row["uuid"]
    return dict(sorted(body.items()))


def _reply(req, agg_id):
    return {"aggregate": view(req, _load(req.db, agg_id))}


def _now():
    return common.iso_naive_micro(common.utcnow())


# ---------------------------------------------------------------------------
# nova's AggregateAPI rules

def _check_name(value, reason):
    """nova's ``name``/``az_name`` formats (InvalidName, 400)."""
    if isinstance(value, str) and (
            not value.isprintable() or _EDGE_SPACE.search(value)
            or (reason is _AZ_REASON and ":" in value)):
        raise base.bad_request(
            "An invalid 'name' value was provided. The name must be: %s"
            % reason)


def _check_az_update(db, row, metadata, hosts, message):
    """``AggregateAPI.is_safe_to_update_az`` for a metadata update."""
    if "availability_zone" not in metadata:
        return
    zone = metadata["availability_zone"]
    if not zone:
        raise base.bad_request(message % (
            row["id"], "Aggregate %s does not support empty named "
            "availability zone" % row["name"]))
    conflicting = _conflicting_zones(db, row["id"], zone, hosts)
    if conflicting:
        raise base.bad_request(message % (
            row["id"], "One or more hosts already in availability zone(s) "
            "%s" % conflicting))
    current = _metadata(db, row["id"]).get("availability_zone")
    if zone != current and any(_has_servers(db, h) for h in hosts):
        raise base.bad_request(message % (
            row["id"], "One or more hosts contain instances in this zone"))


def _conflicting_zones(db, agg_id, zone, hosts):
    """Zones other aggregates give ``hosts`` that differ from ``zone``."""
    if not hosts:
        return []
    rows = db.execute(
        "SELECT DISTINCT a.id, m.value FROM compute_aggregates a"
        " JOIN compute_aggregate_hosts h ON h.aggregate_id = a.id"
        " JOIN compute_aggregate_metadata m ON m.aggregate_id = a.id"
        " AND m.key = 'availability_zone'"
        " WHERE a.id != ? AND m.value != ? AND h.host IN (%s) ORDER BY a.id"
        % ",".join("?" * len(hosts)), [agg_id, zone] + list(hosts))
    return [r["value"] for r in rows]


def _update_metadata(db, agg_id, metadata):
    """Merge ``metadata``: a None value deletes the key (absent is fine)."""
    for key, value in metadata.items():
        if value is None:
            db.execute("DELETE FROM compute_aggregate_metadata"
                       " WHERE aggregate_id = ? AND key = ?", (agg_id, key))
        else:
            db.execute(
                "INSERT INTO compute_aggregate_metadata (aggregate_id, key,"
                " value) VALUES (?, ?, ?) ON CONFLICT (aggregate_id, key)"
                " DO UPDATE SET value = excluded.value", (agg_id, key, value))


def _touch(db, agg_id):
    db.execute("UPDATE compute_aggregates SET updated_at = ? WHERE id = ?",
               (_now(), agg_id))


def _name_taken(db, name, agg_id=None):
    row = db.execute("SELECT id FROM compute_aggregates WHERE name = ?",
                     (name,)).fetchone()
    if row is not None and row["id"] != agg_id:
        raise base.conflict("Aggregate %s already exists." % name)


def _require_compute_host(db, host, error):
    from occli.localcloud import compute
    if host not in compute.compute_hosts(db):
        raise error


def _moves_servers(db, host, agg_id, zone=None):
    """Whether ``host`` runs servers and would change zone: to ``zone`` if
    given (joining a zoned aggregate), else to its zone without ``agg_id``."""
    after = zone or _zone_name(
        _zones_by_host(db, [host], exclude=agg_id).get(host))
    return host_zone(db, host) != after and _has_servers(db, host)


# ---------------------------------------------------------------------------
# handlers

def list_aggregates(req):
    base.require_admin(req, POLICY % "index")
    rows = req.db.execute("SELECT * FROM compute_aggregates ORDER BY id")
    return {"aggregates": [view(req, r) for r in rows.fetchall()]}


def create_aggregate(req):
    body = req.json()
    _check_name(_dig(body, "aggregate", "name"), _NAME_REASON)
    _check_name(_dig(body, "aggregate", "availability_zone"), _AZ_REASON)
    schemas.validate(CREATE, body)
    base.require_admin(req, POLICY % "create")
    name = body["aggregate"]["name"]
    zone = body["aggregate"].get("availability_zone")
    db = req.db
    _name_taken(db, name)
    cur = db.execute(
        "INSERT INTO compute_aggregates (uuid, name, created_at)"
        " VALUES (?, ?, ?)", (common.new_uuid(), name, _now()))
    if zone:
        _update_metadata(db, cur.lastrowid, {"availability_zone": zone})
    return {"aggregate": view(req, _load(db, cur.lastrowid), full=False)}


def show_aggregate(req):
    base.require_admin(req, POLICY % "show")
    return _reply(req, _parse_id(req))


def update_aggregate(req):
    body = req.json()
    _check_name(_dig(body, "aggregate", "name"), _NAME_REASON)
    _check_name(_dig(body, "aggregate", "availability_zone"), _AZ_REASON)
    schemas.validate(UPDATE, body)
    base.require_admin(req, POLICY % "update")
    agg_id = _parse_id(req)
    db = req.db
    row = _load(db, agg_id)
    values = dict(body["aggregate"])
    if "name" in values:
        name = values.pop("name").strip()
        _name_taken(db, name, agg_id)
        db.execute("UPDATE compute_aggregates SET name = ?, updated_at = ?"
                   " WHERE id = ?", (name, _now(), agg_id))
    _check_az_update(db, row, values, _hosts(db, agg_id), _UPDATE)
    if values:
        _update_metadata(db, agg_id, values)
        _touch(db, agg_id)
    return _reply(req, agg_id)


def delete_aggregate(req):
    base.require_admin(req, POLICY % "delete")
    agg_id = _parse_id(req)
    _load(req.db, agg_id)
    if _hosts(req.db, agg_id):
        raise base.bad_request(_DELETE % (agg_id,
                                          "Host aggregate is not empty"))
    req.db.execute("DELETE FROM compute_aggregates WHERE id = ?", (agg_id,))
    return Response(200)


def aggregate_action(req):
    body = req.json()
    if not isinstance(body, dict) or len(body) != 1:
        raise base.bad_request("Malformed request body")
    action = next(iter(body))
    if action not in ACTIONS:
        raise base.bad_request("There is no such action: %s" % action)
    schemas.validate({"type": "object",
                      "properties": {action: ACTIONS[action]},
                      "required": [action], "additionalProperties": False},
                     body)
    base.require_admin(req, POLICY % action)
    agg_id = _parse_id(req)
    return _ACTION_HANDLERS[action](req, agg_id, body[action])


def _add_host(req, agg_id, info):
    db, host = req.db, info["host"]
    _require_compute_host(
        db, host, base.not_found("Compute host %s could not be found." % host))
    _load(db, agg_id)
    zone = _metadata(db, agg_id).get("availability_zone")
    if zone:
        conflicting = _conflicting_zones(db, agg_id, zone, [host])
        if conflicting:
            raise base.conflict(_ADD % (
                agg_id, "One or more hosts already in availability zone(s) "
                "%s" % conflicting))
    if host in _hosts(db, agg_id):
        raise base.conflict("Aggregate %s already has host %s."
                            % (agg_id, host))
    if _moves_servers(db, host, agg_id, zone):
        raise base.conflict(_ADD % (
            agg_id, "One or more hosts contain instances in this zone"))
    db.execute("INSERT INTO compute_aggregate_hosts (aggregate_id, host)"
               " VALUES (?, ?)", (agg_id, host))
    return _reply(req, agg_id)


def _remove_host(req, agg_id, info):
    db, host = req.db, info["host"]
    not_found = base.not_found("Cannot remove host %s in aggregate %s"
                               % (host, req.params["aggregate_id"]))
    _require_compute_host(db, host, not_found)
    if host not in _hosts(db, agg_id):   # also when there is no such aggregate
        raise not_found
    if _moves_servers(db, host, agg_id):
        raise base.conflict("Cannot remove host %s in aggregate %s"
                            % (host, req.params["aggregate_id"]))
    db.execute("DELETE FROM compute_aggregate_hosts"
               " WHERE aggregate_id = ? AND host = ?", (agg_id, host))
    return _reply(req, agg_id)


def _set_metadata(req, agg_id, info):
    db, metadata = req.db, info["metadata"]
    row = _load(db, agg_id)
    _check_az_update(db, row, metadata, _hosts(db, agg_id), _UPDATE_META)
    _update_metadata(db, agg_id, metadata)
    _touch(db, agg_id)
    return _reply(req, agg_id)


_ACTION_HANDLERS = {"add_host": _add_host, "remove_host": _remove_host,
                    "set_metadata": _set_metadata}


def cache_images(req):
    """``POST /os-aggregates/{id}/images`` (2.81): checks, then accepts."""
    body = req.json()
    schemas.validate(IMAGES, body)
    base.require_admin(req, IMAGES_POLICY)
    agg_id = _parse_id(req)
    image_ids = [item["id"] for item in body["cache"]]
    if len(image_ids) != len(set(image_ids)):
        raise base.bad_request("Duplicate images in request")
    _load(req.db, agg_id)
    glance = req.cloud.image
    for image_id in image_ids:
        # nova's conductor looks each image up first; its NovaException is 400
        if glance is not None and not glance.image_exists(req.db, image_id):
            raise base.bad_request("Image %s could not be found." % image_id)
    return Response(202)


def _dig(body, *keys):
    for key in keys:
        if not isinstance(body, dict):
            return None
        body = body.get(key)
    return body
