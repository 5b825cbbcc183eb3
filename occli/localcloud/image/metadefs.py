"""Glance's metadata definitions over SQLite: namespaces and their
objects, properties, resource type associations and tags.

Read in glance 33: ``glance/api/v2/metadef_*.py`` (checks, views, texts),
``glance/db/sqlalchemy/metadef_api/`` (visibility: admins see every
namespace, others public ones and their project's; names unique per
namespace; ``_get_all``'s sort and marker), ``glance/domain/__init__.py``
(a protected namespace's items cannot be deleted), ``glance/policies/
metadef.py`` (``metadef_admin``: only admins write; readers read) and
``glance/db/sqlalchemy/metadata.py`` (``load_metadefs``: the seeded
namespaces of :mod:`.metadef_seeds`, owner ``admin``, their resource
types protected). ``caller`` is an ``app.Context``.
"""

import json
import sqlite3
from typing import Any

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud import validation
from occli.localcloud.image import metadef_seeds
from occli.localcloud.image import schemas

DEFAULT_LIMIT = 25  # [DEFAULT] limit_param_default
MAX_LIMIT = 1000  # [DEFAULT] api_limit_max
_NS_FIELDS = ("display_name", "description", "visibility", "protected", "owner")
_SORT_KEYS = ("namespace", "display_name", "visibility", "owner", "created_at", "updated_at", "id")
_READ_ONLY = ("self", "schema", "created_at", "updated_at")


def _now() -> str:
    return common.iso_z(common.utcnow())


def check_admin(caller: Any) -> None:
    """``metadef_admin``: every metadefs write is an admin's."""
    if not caller.is_admin:
        raise errors.Forbidden("You are not authorized to complete this action.")


def check_body(
    schema: str | dict[str, Any], body: Any, read_only: tuple[str, ...] = _READ_ONLY
) -> None:
    """Glance's deserializers: no read-only member, valid for ``schema``
    (a raw schema, or the name of one under ``metadefs/``), an object."""
    if isinstance(body, dict):
        for key in read_only:
            if key in body:
                raise errors.Forbidden("Attribute '%s' is read-only." % key)
    raw = schemas.SCHEMAS["metadefs/" + schema] if isinstance(schema, str) else schema
    validation.check(
        dict(raw, type="object"),
        body,
        order=validation.BEST,
        draft=validation.DRAFT2020_12,
        text=lambda error: "Provided object does not match schema '%s': %s" % (raw["name"], error),
    )


# metadef_tags.get_schema_for_list: the body of POST …/tags
TAGS_LIST = {
    "name": "tags",
    "properties": {
        "tags": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"name": {"type": "string"}},
                "required": ["name"],
                "additionalProperties": False,
            },
        }
    },
    "additionalProperties": False,
}
# metadef_properties.get_schema(require_name=False): an object's property
OBJECT_PROPERTY = dict(schemas.SCHEMAS["metadefs/property"], required=["type", "title"])


# -- namespaces ---------------------------------------------------------------


def _visible(caller: Any, row: sqlite3.Row) -> bool:
    return (
        caller.is_admin
        or row["owner"] is None
        or row["visibility"] == "public"
        or row["owner"] == caller.project_id
    )


def get_namespace(db: sqlite3.Connection, caller: Any, name: str) -> sqlite3.Row:
    """The namespace row ``name`` the caller sees, else Glance's 404
    (one outside the caller's project reads as not found)."""
    row = db.execute("SELECT * FROM metadef_namespaces WHERE namespace = ?", (name,)).fetchone()
    if row is None or not _visible(caller, row):
        raise errors.NotFound("Metadata definition namespace=%s was not found." % name)
    return row


def namespace_view(row: sqlite3.Row) -> dict[str, Any]:
    """A namespace as Glance's WSME model renders it (unset members left out)."""
    ns = {"namespace": row["namespace"]}
    for key in _NS_FIELDS:
        if row[key] is not None:
            ns[key] = bool(row[key]) if key == "protected" else row[key]
    ns.update(created_at=row["created_at"], updated_at=row["updated_at"])
    ns.update(self="/v2/metadefs/namespaces/%s" % row["namespace"])
    ns["schema"] = "/v2/schemas/metadefs/namespace"
    return ns


def _associations(db: sqlite3.Connection, namespace_id: int) -> list[dict[str, Any]]:
    rows = db.execute(
        "SELECT r.name, a.prefix, a.properties_target, a.created_at, a.updated_at"
        " FROM metadef_associations a JOIN metadef_resource_types r"
        " ON r.id = a.resource_type_id WHERE a.namespace_id = ? ORDER BY a.rowid",
        (namespace_id,),
    ).fetchall()
    return [{k: v for k, v in dict(row).items() if v is not None} for row in rows]


def list_namespaces(
    db: sqlite3.Connection,
    caller: Any,
    filters: dict[str, str],
    limit: int,
    marker: str | None,
    sort_key: str,
    sort_dir: str,
) -> list[dict[str, Any]]:
    """The namespaces the caller sees, with their associations; filters
    ``visibility`` and ``resource_types`` (names, comma-separated)."""
    if sort_key not in _SORT_KEYS:
        raise errors.BadRequest("Sort key supplied was not valid.")
    rows = db.execute("SELECT * FROM metadef_namespaces").fetchall()
    rows = [r for r in rows if _visible(caller, r)]
    if filters.get("visibility") is not None:
        rows = [r for r in rows if r["visibility"] == filters["visibility"]]
    if filters.get("resource_types") is not None:
        names = filters["resource_types"].split(",")
        marks = ",".join("?" * len(names))
        ids = {
            r["namespace_id"]
            for r in db.execute(
                "SELECT a.namespace_id FROM metadef_associations a JOIN"
                " metadef_resource_types r ON r.id = a.resource_type_id"
                " WHERE r.name IN (%s)" % marks,
                names,
            )
        }
        rows = [r for r in rows if r["id"] in ids]
    keys = [sort_key] + [k for k in ("created_at", "id") if k != sort_key]
    rows.sort(key=lambda r: tuple((r[k] is not None, r[k] or "") for k in keys))
    if sort_dir == "desc":
        rows.reverse()
    if marker is not None:
        after = get_namespace(db, caller, marker)
        ids_in_order = [r["id"] for r in rows]
        rows = rows[ids_in_order.index(after["id"]) + 1 :] if after["id"] in ids_in_order else []
    found = []
    for row in rows[:limit]:
        ns = namespace_view(row)
        associations = _associations(db, row["id"])
        if associations:
            ns["resource_type_associations"] = associations
        found.append(ns)
    return found


def show_namespace(
    db: sqlite3.Connection, caller: Any, name: str, resource_type: str | None = None
) -> dict[str, Any]:
    """A namespace with its objects, associations, properties and tags;
    ``resource_type``: property names with that type's prefix."""
    row = get_namespace(db, caller, name)
    ns = namespace_view(row)
    objects = [_object_view(name, r) for r in _items(db, "metadef_objects", row["id"])]
    if objects:
        ns["objects"] = objects
    associations = _associations(db, row["id"])
    if associations:
        ns["resource_type_associations"] = associations
    properties = {
        r["name"]: json.loads(r["json_schema"])
        for r in _items(db, "metadef_properties", row["id"])
    }
    if properties:
        prefix = ""
        for association in associations:
            if resource_type and association["name"] == resource_type:
                prefix = association.get("prefix") or ""
        ns["properties"] = {prefix + key: value for key, value in properties.items()}
    tags = [{"name": r["name"]} for r in _items(db, "metadef_tags", row["id"])]
    if tags:
        ns["tags"] = tags
    return ns


def create_namespace(db: sqlite3.Connection, caller: Any, body: Any) -> dict[str, Any]:
    """``POST /v2/metadefs/namespaces`` with its nested items: 409 for a
    name in use (Glance's texts)."""
    check_admin(caller)
    check_body("namespace", body)
    name = body["namespace"]
    if db.execute("SELECT 1 FROM metadef_namespaces WHERE namespace = ?", (name,)).fetchone():
        raise errors.Conflict("The metadata definition namespace=%s already exists." % name)
    now = _now()
    cursor = db.execute(
        "INSERT INTO metadef_namespaces (namespace, display_name, description,"
        " visibility, protected, owner, created_at, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (
            name,
            body.get("display_name"),
            body.get("description"),
            body.get("visibility") or "private",
            int(bool(body.get("protected"))),
            body.get("owner") or caller.project_id,
            now,
            now,
        ),
    )
    namespace_id = cursor.lastrowid
    for association in body.get("resource_type_associations") or []:
        _associate(db, namespace_id, name, association)
    for obj in body.get("objects") or []:
        _insert_object(db, namespace_id, name, obj)
    for prop_name, prop in (body.get("properties") or {}).items():
        _insert_property(db, namespace_id, name, dict(prop, name=prop_name))
    for tag in body.get("tags") or []:
        _insert_tag(db, namespace_id, name, tag.get("name"))
    return show_namespace(db, caller, name)


def update_namespace(db: sqlite3.Connection, caller: Any, name: str, body: Any) -> dict[str, Any]:
    """``PUT``: every member replaced (unset ones back to their defaults)."""
    try:
        row = get_namespace(db, caller, name)
    except errors.NotFound:
        raise errors.NotFound("Namespace %s not found" % name) from None
    check_admin(caller)
    check_body("namespace", body)
    new_name = body["namespace"]
    if (
        new_name != name
        and db.execute(
            "SELECT 1 FROM metadef_namespaces WHERE namespace = ?", (new_name,)
        ).fetchone()
    ):
        raise errors.Conflict(
            "Invalid update. It would result in a duplicate metadata definition namespace"
            " with the same name of %s" % new_name
        )
    db.execute(
        "UPDATE metadef_namespaces SET namespace = ?, display_name = ?, description = ?,"
        " visibility = ?, protected = ?, owner = ?, updated_at = ? WHERE id = ?",
        (
            new_name,
            body.get("display_name"),
            body.get("description"),
            body.get("visibility") or "private",
            int(bool(body.get("protected"))),
            body.get("owner") or caller.project_id,
            _now(),
            row["id"],
        ),
    )
    return namespace_view(get_namespace(db, caller, new_name))


def delete_namespace(db: sqlite3.Connection, caller: Any, name: str) -> None:
    """``DELETE``: a protected namespace is Glance's 403."""
    try:
        row = get_namespace(db, caller, name)
    except errors.NotFound:
        raise errors.NotFound("Namespace %s not found" % name) from None
    check_admin(caller)
    if row["protected"]:
        raise errors.Forbidden(
            "Metadata definition namespace %s is protected and cannot be deleted." % name
        )
    for table in ("metadef_objects", "metadef_properties", "metadef_tags", "metadef_associations"):
        db.execute("DELETE FROM %s WHERE namespace_id = ?" % table, (row["id"],))
    db.execute("DELETE FROM metadef_namespaces WHERE id = ?", (row["id"],))


def _writable(db: sqlite3.Connection, caller: Any, name: str) -> sqlite3.Row:
    """The namespace an admin changes the items of (404 first, then 403)."""
    try:
        row = get_namespace(db, caller, name)
    except errors.NotFound:
        raise errors.NotFound("Namespace %s not found" % name) from None
    check_admin(caller)
    return row


def _unprotected(row: sqlite3.Row, kind: str, item: str) -> None:
    """Glance's domain: a protected namespace's items are not deleted."""
    if row["protected"]:
        raise errors.Forbidden(
            "Metadata definition %s %s is protected and cannot be deleted." % (kind, item)
        )


def delete_all(db: sqlite3.Connection, caller: Any, name: str, kind: str) -> None:
    """``DELETE …/objects|properties|tags``: every item of that kind."""
    row = _writable(db, caller, name)
    if row["protected"]:
        raise errors.Forbidden(
            "Metadata definition namespace %s is protected and cannot be deleted." % name
        )
    db.execute("DELETE FROM metadef_%s WHERE namespace_id = ?" % kind, (row["id"],))


def _items(db: sqlite3.Connection, table: str, namespace_id: int) -> list[sqlite3.Row]:
    return db.execute(
        "SELECT * FROM %s WHERE namespace_id = ? ORDER BY created_at, id" % table,
        (namespace_id,),
    ).fetchall()


def _item(db, table, row, name, missing):
    found = db.execute(
        "SELECT * FROM %s WHERE namespace_id = ? AND name = ?" % table, (row["id"], name)
    ).fetchone()
    if found is None:
        raise errors.NotFound(missing % (name, row["namespace"]))
    return found


def _duplicate(db, table, namespace_id, name, text):
    if db.execute(
        "SELECT 1 FROM %s WHERE namespace_id = ? AND name = ?" % table, (namespace_id, name)
    ).fetchone():
        raise errors.Conflict(text)


# -- objects ------------------------------------------------------------------

_OBJECT_MISSING = "The metadata definition object with name=%s was not found in namespace=%s."


def _object_view(namespace: str, row: sqlite3.Row) -> dict[str, Any]:
    obj: dict[str, Any] = {"name": row["name"]}
    if row["description"] is not None:
        obj["description"] = row["description"]
    obj["required"] = json.loads(row["required"])
    obj["properties"] = json.loads(row["json_schema"])
    obj.update(created_at=row["created_at"], updated_at=row["updated_at"])
    obj["self"] = "/v2/metadefs/namespaces/%s/objects/%s" % (namespace, row["name"])
    obj["schema"] = "/v2/schemas/metadefs/object"
    return obj


def _insert_object(db, namespace_id, namespace, body):
    name = body["name"]
    _duplicate(
        db,
        "metadef_objects",
        namespace_id,
        name,
        "A metadata definition object with name=%s already exists in namespace=%s."
        % (name, namespace),
    )
    now = _now()
    db.execute(
        "INSERT INTO metadef_objects (namespace_id, name, description, required,"
        " json_schema, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (
            namespace_id,
            name,
            body.get("description"),
            json.dumps(body.get("required") or []),
            json.dumps(body.get("properties") or {}),
            now,
            now,
        ),
    )


def list_objects(db: sqlite3.Connection, caller: Any, namespace: str) -> list[dict[str, Any]]:
    row = get_namespace(db, caller, namespace)
    return [_object_view(namespace, r) for r in _items(db, "metadef_objects", row["id"])]


def show_object(db: sqlite3.Connection, caller: Any, namespace: str, name: str) -> dict[str, Any]:
    row = get_namespace(db, caller, namespace)
    return _object_view(namespace, _item(db, "metadef_objects", row, name, _OBJECT_MISSING))


def create_object(
    db: sqlite3.Connection, caller: Any, namespace: str, body: Any
) -> dict[str, Any]:
    row = _writable(db, caller, namespace)
    check_body("object", body)
    for prop in (body.get("properties") or {}).values():
        check_body(OBJECT_PROPERTY, prop, ())
    _insert_object(db, row["id"], namespace, body)
    return show_object(db, caller, namespace, body["name"])


def update_object(
    db: sqlite3.Connection, caller: Any, namespace: str, name: str, body: Any
) -> dict[str, Any]:
    row = _writable(db, caller, namespace)
    found = _item(db, "metadef_objects", row, name, _OBJECT_MISSING)
    check_body("object", body)
    if body["name"] != name:
        _duplicate(
            db,
            "metadef_objects",
            row["id"],
            body["name"],
            "Invalid update. It would result in a duplicate metadata definition object with"
            " the same name=%s in namespace=%s." % (body["name"], namespace),
        )
    db.execute(
        "UPDATE metadef_objects SET name = ?, description = ?, required = ?, json_schema = ?,"
        " updated_at = ? WHERE id = ?",
        (
            body["name"],
            body.get("description"),
            json.dumps(body.get("required") or []),
            json.dumps(body.get("properties") or {}),
            _now(),
            found["id"],
        ),
    )
    return show_object(db, caller, namespace, body["name"])


def delete_object(db: sqlite3.Connection, caller: Any, namespace: str, name: str) -> None:
    row = _writable(db, caller, namespace)
    found = _item(db, "metadef_objects", row, name, _OBJECT_MISSING)
    _unprotected(row, "object", name)
    db.execute("DELETE FROM metadef_objects WHERE id = ?", (found["id"],))


# -- properties ---------------------------------------------------------------

_PROPERTY_MISSING = "The metadata definition property with name=%s was not found in namespace=%s."


def _insert_property(db, namespace_id, namespace, body):
    name = body["name"]
    _duplicate(
        db,
        "metadef_properties",
        namespace_id,
        name,
        "A metadata definition property with name=%s already exists in namespace=%s."
        % (name, namespace),
    )
    now = _now()
    schema = {k: v for k, v in body.items() if k != "name"}
    db.execute(
        "INSERT INTO metadef_properties (namespace_id, name, json_schema, created_at,"
        " updated_at) VALUES (?, ?, ?, ?, ?)",
        (namespace_id, name, json.dumps(schema), now, now),
    )


def _property_view(row: sqlite3.Row) -> dict[str, Any]:
    return dict(json.loads(row["json_schema"]), name=row["name"])


def list_properties(db: sqlite3.Connection, caller: Any, namespace: str) -> dict[str, Any]:
    row = get_namespace(db, caller, namespace)
    return {
        r["name"]: json.loads(r["json_schema"])
        for r in _items(db, "metadef_properties", row["id"])
    }


def show_property(
    db: sqlite3.Connection, caller: Any, namespace: str, name: str
) -> dict[str, Any]:
    row = get_namespace(db, caller, namespace)
    return _property_view(_item(db, "metadef_properties", row, name, _PROPERTY_MISSING))


def create_property(
    db: sqlite3.Connection, caller: Any, namespace: str, body: Any
) -> dict[str, Any]:
    row = _writable(db, caller, namespace)
    check_body("property", body, ())
    _insert_property(db, row["id"], namespace, body)
    return show_property(db, caller, namespace, body["name"])


def update_property(
    db: sqlite3.Connection, caller: Any, namespace: str, name: str, body: Any
) -> dict[str, Any]:
    row = _writable(db, caller, namespace)
    found = _item(db, "metadef_properties", row, name, _PROPERTY_MISSING)
    check_body("property", body, ())
    if body["name"] != name:
        _duplicate(
            db,
            "metadef_properties",
            row["id"],
            body["name"],
            "Invalid update. It would result in a duplicate metadata definition property"
            " with the same name=%s in namespace=%s." % (body["name"], namespace),
        )
    schema = {k: v for k, v in body.items() if k != "name"}
    db.execute(
        "UPDATE metadef_properties SET name = ?, json_schema = ?, updated_at = ? WHERE id = ?",
        (body["name"], json.dumps(schema), _now(), found["id"]),
    )
    return show_property(db, caller, namespace, body["name"])


def delete_property(db: sqlite3.Connection, caller: Any, namespace: str, name: str) -> None:
    row = _writable(db, caller, namespace)
    found = _item(db, "metadef_properties", row, name, _PROPERTY_MISSING)
    _unprotected(row, "property", name)
    db.execute("DELETE FROM metadef_properties WHERE id = ?", (found["id"],))


# -- resource types -----------------------------------------------------------


def list_resource_types(db: sqlite3.Connection) -> list[dict[str, Any]]:
    """``GET /v2/metadefs/resource_types``: every resource type."""
    rows = db.execute(
        "SELECT name, created_at, updated_at FROM metadef_resource_types ORDER BY id"
    ).fetchall()
    return [dict(row) for row in rows]


def list_associations(db: sqlite3.Connection, caller: Any, namespace: str) -> list[dict[str, Any]]:
    return _associations(db, get_namespace(db, caller, namespace)["id"])


def _associate(db, namespace_id, namespace, body):
    name = body.get("name")
    rt = db.execute("SELECT id FROM metadef_resource_types WHERE name = ?", (name,)).fetchone()
    now = _now()
    if rt is None:
        rt_id = db.execute(
            "INSERT INTO metadef_resource_types (name, protected, created_at, updated_at)"
            " VALUES (?, 0, ?, ?)",
            (name, now, now),
        ).lastrowid
    else:
        rt_id = rt["id"]
    if db.execute(
        "SELECT 1 FROM metadef_associations WHERE namespace_id = ? AND resource_type_id = ?",
        (namespace_id, rt_id),
    ).fetchone():
        raise errors.Conflict(
            "The metadata definition resource-type association of resource-type=%s to"
            " namespace=%s already exists." % (name, namespace)
        )
    db.execute(
        "INSERT INTO metadef_associations (namespace_id, resource_type_id, prefix,"
        " properties_target, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
        (namespace_id, rt_id, body.get("prefix"), body.get("properties_target"), now, now),
    )


def create_association(
    db: sqlite3.Connection, caller: Any, namespace: str, body: Any
) -> dict[str, Any]:
    row = _writable(db, caller, namespace)
    check_body("resource_type", body)
    _associate(db, row["id"], namespace, body)
    (found,) = [a for a in _associations(db, row["id"]) if a["name"] == body["name"]]
    return found


def delete_association(
    db: sqlite3.Connection, caller: Any, namespace: str, resource_type: str
) -> None:
    row = _writable(db, caller, namespace)
    rt = db.execute(
        "SELECT id FROM metadef_resource_types WHERE name = ?", (resource_type,)
    ).fetchone()
    if rt is None:
        raise errors.NotFound(
            "The metadata definition resource-type with name=%s, was not found." % resource_type
        )
    found = db.execute(
        "SELECT rowid FROM metadef_associations WHERE namespace_id = ? AND resource_type_id = ?",
        (row["id"], rt["id"]),
    ).fetchone()
    if found is None:
        raise errors.NotFound(
            "The metadata definition resource-type association of resource-type=%s to"
            " namespace=%s, was not found." % (resource_type, namespace)
        )
    if row["protected"]:
        raise errors.Forbidden(
            "Metadata definition resource-type-association %s is protected and cannot be"
            " deleted." % resource_type
        )
    db.execute("DELETE FROM metadef_associations WHERE rowid = ?", (found["rowid"],))


# -- tags ---------------------------------------------------------------------

_TAG_MISSING = "The metadata definition tag with name=%s was not found in namespace=%s."


def _tag_view(row: sqlite3.Row) -> dict[str, Any]:
    return {"name": row["name"], "created_at": row["created_at"], "updated_at": row["updated_at"]}


def _insert_tag(db, namespace_id, namespace, name):
    _duplicate(
        db,
        "metadef_tags",
        namespace_id,
        name,
        "A metadata tag with name=%s already exists in namespace=%s. (Please note that"
        " metadata tag names are case insensitive)." % (name, namespace),
    )
    now = _now()
    db.execute(
        "INSERT INTO metadef_tags (namespace_id, name, created_at, updated_at)"
        " VALUES (?, ?, ?, ?)",
        (namespace_id, name, now, now),
    )


def list_tags(db: sqlite3.Connection, caller: Any, namespace: str) -> list[dict[str, Any]]:
    row = get_namespace(db, caller, namespace)
    return [_tag_view(r) for r in _items(db, "metadef_tags", row["id"])]


def show_tag(db: sqlite3.Connection, caller: Any, namespace: str, name: str) -> dict[str, Any]:
    row = get_namespace(db, caller, namespace)
    return _tag_view(_item(db, "metadef_tags", row, name, _TAG_MISSING))


def create_tag(db: sqlite3.Connection, caller: Any, namespace: str, name: str) -> dict[str, Any]:
    """``POST …/tags/{tag}``: one tag, named by the URL."""
    row = _writable(db, caller, namespace)
    check_body("tag", {"name": name})
    _insert_tag(db, row["id"], namespace, name)
    return show_tag(db, caller, namespace, name)


def create_tags(
    db: sqlite3.Connection, caller: Any, namespace: str, body: Any, append: bool
) -> list[dict[str, Any]]:
    """``POST …/tags``: the tags of ``body`` replace the namespace's
    (``append``: Glance's ``X-Openstack-Append`` header, added to them)."""
    row = _writable(db, caller, namespace)
    if isinstance(body, dict):
        for key in ("created_at", "updated_at"):
            if key in body:
                raise errors.Forbidden("Attribute '%s' is read-only." % key)
    check_body(TAGS_LIST, body, ())
    names = [tag["name"] for tag in body["tags"]]
    if len(set(n.lower() for n in names)) != len(names):
        raise errors.Conflict("Duplicate tags are not allowed.")
    if not append:
        db.execute("DELETE FROM metadef_tags WHERE namespace_id = ?", (row["id"],))
    for name in names:
        _insert_tag(db, row["id"], namespace, name)
    return [{"name": name} for name in names]


def update_tag(
    db: sqlite3.Connection, caller: Any, namespace: str, name: str, body: Any
) -> dict[str, Any]:
    row = _writable(db, caller, namespace)
    found = _item(db, "metadef_tags", row, name, _TAG_MISSING)
    check_body("tag", body, ("created_at", "updated_at"))
    if body["name"] != name:
        _duplicate(
            db,
            "metadef_tags",
            row["id"],
            body["name"],
            "A metadata tag with name=%s already exists in namespace=%s. (Please note that"
            " metadata tag names are case insensitive)." % (body["name"], namespace),
        )
    db.execute(
        "UPDATE metadef_tags SET name = ?, updated_at = ? WHERE id = ?",
        (body["name"], _now(), found["id"]),
    )
    return show_tag(db, caller, namespace, body["name"])


def delete_tag(db: sqlite3.Connection, caller: Any, namespace: str, name: str) -> None:
    row = _writable(db, caller, namespace)
    found = _item(db, "metadef_tags", row, name, _TAG_MISSING)
    _unprotected(row, "tag", name)
    db.execute("DELETE FROM metadef_tags WHERE id = ?", (found["id"],))


# -- seed ---------------------------------------------------------------------


def seed(db: sqlite3.Connection) -> None:
    """``glance-manage db load_metadefs``: the missing seeded namespaces,
    owner ``admin``, their new resource types protected."""
    for data in metadef_seeds.NAMESPACES:
        name = data["namespace"]
        if db.execute("SELECT 1 FROM metadef_namespaces WHERE namespace = ?", (name,)).fetchone():
            continue
        now = _now()
        namespace_id = db.execute(
            "INSERT INTO metadef_namespaces (namespace, display_name, description,"
            " visibility, protected, owner, created_at, updated_at)"
            " VALUES (?, ?, ?, ?, ?, 'admin', ?, ?)",
            (
                name,
                data.get("display_name"),
                data.get("description"),
                data.get("visibility"),
                int(bool(data.get("protected"))),
                now,
                now,
            ),
        ).lastrowid
        for association in data.get("resource_type_associations", []):
            db.execute(
                "INSERT OR IGNORE INTO metadef_resource_types (name, protected, created_at,"
                " updated_at) VALUES (?, 1, ?, ?)",
                (association["name"], now, now),
            )
            _associate(db, namespace_id, name, association)
        for prop_name, prop in data.get("properties", {}).items():
            _insert_property(db, namespace_id, name, dict(prop, name=prop_name))
        for obj in data.get("objects", []):
            _insert_object(db, namespace_id, name, obj)
        for tag in data.get("tags", []):
            _insert_tag(db, namespace_id, name, tag["name"])
