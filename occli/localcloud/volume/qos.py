"""Cinder's QoS specs (``cinder/volume/qos_specs.py``, the db api's
``qos_specs_*``): named sets of limits with a consumer (``front-end``,
``back-end`` — the default — or ``both``), associated with volume types
(a type has at most one: ``volume_types.qos_specs_id``). Nothing enforces
the limits here: the local cloud moves no data."""

import json
import sqlite3
from typing import Any

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud.volume import rows
from occli.localcloud.volume import types

CONSUMERS = ("back-end", "front-end", "both")
DEFAULT_CONSUMER = "back-end"
# what Cinder's InvalidQoSSpecs says of a bad consumer: the str() of its
# oslo.versionedobjects enum field (cinder/objects/qos_specs.py __setattr__)
_BAD_CONSUMER = (
    "Invalid qos specs: Valid consumer of QoS specs are: QoSConsumerValues(default=<class"
    " 'oslo_versionedobjects.fields.UnspecifiedDefault'>,nullable=False,valid_values=%s)"
    % (CONSUMERS,)
)
SORT_KEYS = ("id", "name", "consumer", "created_at")


def view(row: dict[str, Any]) -> dict[str, Any]:
    """Cinder's ``views/qos_specs.py`` detail (without its links)."""
    return {
        "id": row["id"],
        "name": row["name"],
        "consumer": row["consumer"],
        "specs": json.loads(row["specs"]),
    }


def _consumer(value: Any) -> str:
    if value not in CONSUMERS:
        raise errors.BadRequest(_BAD_CONSUMER)
    return value


def _check_text(value: Any, name: str, min_length: int) -> None:
    """oslo's ``strutils.check_string_length`` (at most 255), as Cinder's
    InvalidInput (400)."""
    if not isinstance(value, str):
        reason = "%s is not a string or unicode" % name
    elif len(value) < min_length:
        reason = "%s has %d characters, less than %d." % (name, len(value), min_length)
    elif len(value) > 255:
        reason = "%s has %d characters, more than 255." % (name, len(value))
    else:
        return
    raise errors.BadRequest("Invalid input received: " + reason)


def _check_lengths(specs: dict[str, Any]) -> None:
    """``utils.validate_dictionary_string_length`` of a create's specs
    (an update's are the schema's)."""
    for key, value in specs.items():
        _check_text(key, 'Key "%s"' % key, 1)
        if value is not None:
            _check_text(value, 'Value for key "%s"' % key, 0)


def get(db: sqlite3.Connection, specs_id: str) -> dict[str, Any]:
    """The QoS specs ``specs_id``; 404 ``QoSSpecsNotFound``."""
    row = db.execute("SELECT * FROM volume_qos_specs WHERE id = ?", (specs_id,)).fetchone()
    if row is None:
        raise errors.NotFound("No such QoS spec %s." % specs_id)
    return dict(row)


def listing(db: sqlite3.Connection, filters: dict[str, str]) -> list[dict[str, Any]]:
    """Every QoS specs matching ``filters`` (``id``, ``name``,
    ``consumer``), newest first."""
    where = [("%s = ?" % k, v) for k, v in filters.items() if k in ("id", "name", "consumer")]
    sql = "SELECT * FROM volume_qos_specs"
    if where:
        sql += " WHERE " + " AND ".join(w for w, _ in where)
    sql += " ORDER BY created_at DESC, id DESC"
    return [dict(r) for r in db.execute(sql, [v for _, v in where])]


def create(db: sqlite3.Connection, name: str, specs: dict[str, Any]) -> dict[str, Any]:
    """New QoS specs (``qos_specs.create``): ``consumer`` taken out of
    ``specs``; 409 when the name is taken."""
    _check_lengths(specs)
    specs = dict(specs)
    consumer = specs.pop("consumer", None) or DEFAULT_CONSUMER
    consumer = _consumer(consumer)
    if db.execute("SELECT 1 FROM volume_qos_specs WHERE name = ?", (name,)).fetchone():
        raise errors.Conflict("QoS Specs %s already exists." % name)
    row = {
        "id": common.new_uuid(),
        "name": name,
        "consumer": consumer,
        "specs": json.dumps(specs),
        "created_at": rows.now(),
    }
    db.execute(
        "INSERT INTO volume_qos_specs (id, name, consumer, specs, created_at)"
        " VALUES (:id, :name, :consumer, :specs, :created_at)",
        row,
    )
    return row


def update(db: sqlite3.Connection, specs_id: str, changes: dict[str, Any]) -> None:
    """Merge ``changes`` into the specs (``consumer`` sets the consumer)."""
    current = get(db, specs_id)
    changes = dict(changes)
    consumer = current["consumer"]
    if "consumer" in changes:
        consumer = _consumer(changes.pop("consumer"))
    merged = {**json.loads(current["specs"]), **changes}
    db.execute(
        "UPDATE volume_qos_specs SET consumer = ?, specs = ?, updated_at = ? WHERE id = ?",
        (consumer, json.dumps(merged), rows.now(), specs_id),
    )


def delete_keys(db: sqlite3.Connection, specs_id: str, keys: list[str]) -> None:
    """Remove ``keys``; the first missing one is 404 ``QoSSpecsKeyNotFound``
    (the keys before it stay removed, as Cinder saves in a ``finally``)."""
    current = json.loads(get(db, specs_id)["specs"])
    missing = None
    for key in keys:
        if key not in current:
            missing = key
            break
        del current[key]
    db.execute(
        "UPDATE volume_qos_specs SET specs = ?, updated_at = ? WHERE id = ?",
        (json.dumps(current), rows.now(), specs_id),
    )
    if missing is not None:
        raise errors.NotFound("QoS spec %s has no spec with key %s." % (specs_id, missing))


def associations(db: sqlite3.Connection, specs_id: str) -> list[dict[str, str]]:
    """The volume types using the specs (``get_associations``)."""
    get(db, specs_id)
    return [
        {"association_type": "volume_type", "name": r["name"], "id": r["id"]}
        for r in db.execute(
            "SELECT id, name FROM volume_types WHERE qos_specs_id = ? ORDER BY created_at",
            (specs_id,),
        )
    ]


def _type(db: sqlite3.Connection, type_id: str) -> dict[str, Any]:
    vtype = types.find(db, type_id)
    if vtype is None:
        raise errors.NotFound("Volume type %s could not be found." % type_id)
    return vtype


def associate(db: sqlite3.Connection, specs_id: str, type_id: str) -> None:
    """Give the type these specs; 400 when it has others
    (``associate_qos_with_type``)."""
    get(db, specs_id)
    vtype = _type(db, type_id)
    if vtype["qos_specs_id"] and vtype["qos_specs_id"] != specs_id:
        raise errors.BadRequest(
            "Invalid volume type: Type %s is already associated with another qos specs: %s"
            % (type_id, vtype["qos_specs_id"])
        )
    db.execute(
        "UPDATE volume_types SET qos_specs_id = ?, updated_at = ? WHERE id = ?",
        (specs_id, rows.now(), type_id),
    )


def disassociate(db: sqlite3.Connection, specs_id: str, type_id: str) -> None:
    """Take the specs off the type (nothing when it has others)."""
    get(db, specs_id)
    _type(db, type_id)
    db.execute(
        "UPDATE volume_types SET qos_specs_id = NULL, updated_at = ?"
        " WHERE id = ? AND qos_specs_id = ?",
        (rows.now(), type_id, specs_id),
    )


def disassociate_all(db: sqlite3.Connection, specs_id: str) -> None:
    """Take the specs off every type."""
    get(db, specs_id)
    db.execute(
        "UPDATE volume_types SET qos_specs_id = NULL, updated_at = ? WHERE qos_specs_id = ?",
        (rows.now(), specs_id),
    )


def delete(db: sqlite3.Connection, specs_id: str, force: bool = False) -> None:
    """Delete the specs; while types use them 400 ``Qos specs still in
    use.`` unless ``force``, which disassociates them first."""
    get(db, specs_id)
    if associations(db, specs_id):
        if not force:
            raise errors.BadRequest("Qos specs still in use.")
        disassociate_all(db, specs_id)
    db.execute("DELETE FROM volume_qos_specs WHERE id = ?", (specs_id,))
