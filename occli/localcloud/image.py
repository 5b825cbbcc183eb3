"""Glance v2 (read-mostly) for the local cloud, mounted at ``/image``.

Serves version discovery, image list/show and two seeded public images.
Other services use :func:`get_image` / :func:`image_exists` /
:func:`create_image` (also reachable as methods of ``cloud.image``).
"""

import hashlib
import json
import re
import uuid
from urllib.parse import urlencode

from occli.localcloud import common
from occli.localcloud.app import HTTPError, Response, Service

VERSIONS = ("2.17", "2.16", "2.15", "2.9", "2.7", "2.6", "2.5", "2.4", "2.3",
            "2.2", "2.1", "2.0")
MAX_LIMIT = 1000
_NAMESPACE = uuid.UUID("1d7b7bd8-1c64-4a46-8d0b-6f8b1d6b0d2e")

# name, size (bytes), virtual size, disk format, properties
SEED_IMAGES = (
    ("cirros-0.6.2-x86_64-disk", 21430272, 117440512, "qcow2",
     {"os_distro": "cirros", "os_version": "0.6.2",
      "hw_architecture": "x86_64"}),
    ("ubuntu-24.04", 614337536, 3758096384, "qcow2",
     {"os_distro": "ubuntu", "os_version": "24.04",
      "hw_architecture": "x86_64"}),
)

MIGRATIONS = [
    """
    CREATE TABLE images (
        id TEXT PRIMARY KEY,
        name TEXT,
        status TEXT NOT NULL,
        visibility TEXT NOT NULL DEFAULT 'private',
        owner TEXT,
        container_format TEXT,
        disk_format TEXT,
        size INTEGER,
        virtual_size INTEGER,
        checksum TEXT,
        os_hash_algo TEXT,
        os_hash_value TEXT,
        min_disk INTEGER NOT NULL DEFAULT 0,
        min_ram INTEGER NOT NULL DEFAULT 0,
        protected INTEGER NOT NULL DEFAULT 0,
        properties TEXT NOT NULL DEFAULT '{}',
        tags TEXT NOT NULL DEFAULT '[]',
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE INDEX images_created_at ON images (created_at, id);
    """,
]


def seed_image_id(name):
    """The stable id of seeded image ``name`` (same in every data dir)."""
    return str(uuid.uuid5(_NAMESPACE, name))


def get_image(db, image_id):
    """The image ``image_id`` in Glance's JSON shape (without links), or None."""
    row = db.execute("SELECT * FROM images WHERE id = ?",
                     (str(image_id),)).fetchone()
    return _view(row) if row else None


def image_exists(db, image_id):
    """Whether image ``image_id`` exists (in any status)."""
    return db.execute("SELECT 1 FROM images WHERE id = ?",
                      (str(image_id),)).fetchone() is not None


def create_image(db, name, owner, status="active", visibility="private",
                 container_format="bare", disk_format="qcow2", size=None,
                 min_disk=0, min_ram=0, properties=None, image_id=None):
    """Insert an image (e.g. a server snapshot) and return it."""
    image_id = image_id or common.new_uuid()
    now = common.iso_z(common.utcnow())
    checksum = hash_algo = hash_value = None
    if size is not None:
        seed = ("%s:%s" % (image_id, size)).encode()
        checksum = hashlib.md5(seed, usedforsecurity=False).hexdigest()
        hash_algo, hash_value = "sha512", hashlib.sha512(seed).hexdigest()
    db.execute(
        "INSERT INTO images (id, name, status, visibility, owner,"
        " container_format, disk_format, size, virtual_size, checksum,"
        " os_hash_algo, os_hash_value, min_disk, min_ram, properties,"
        " created_at, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (image_id, name, status, visibility, owner, container_format,
         disk_format, size, size, checksum, hash_algo, hash_value, min_disk,
         min_ram, json.dumps(properties or {}), now, now))
    return get_image(db, image_id)


def _view(row):
    image = {
        "id": row["id"],
        "name": row["name"],
        "status": row["status"],
        "visibility": row["visibility"],
        "owner": row["owner"],
        "container_format": row["container_format"],
        "disk_format": row["disk_format"],
        "size": row["size"],
        "virtual_size": row["virtual_size"],
        "checksum": row["checksum"],
        "os_hash_algo": row["os_hash_algo"],
        "os_hash_value": row["os_hash_value"],
        "min_disk": row["min_disk"],
        "min_ram": row["min_ram"],
        "protected": bool(row["protected"]),
        "os_hidden": False,
        "tags": json.loads(row["tags"]),
        "created_at": row["created_at"],
        "updated_at": row["updated_at"],
        "self": "/v2/images/%s" % row["id"],
        "file": "/v2/images/%s/file" % row["id"],
        "schema": "/v2/schemas/image",
    }
    image.update(json.loads(row["properties"]))
    return image


class ImageService(Service):
    """Glance v2 images (list, show) and version discovery."""

    name = "image"
    prefix = "/image"

    def __init__(self, cloud):
        super().__init__(cloud)
        self.route("GET", "/", self.versions, auth=False)
        self.route("GET", "/versions", self.versions_ok, auth=False)
        self.route("GET", "/v2/images", self.list_images)
        self.route("GET", "/v2/images/{image_id}", self.show_image)

    get_image = staticmethod(get_image)
    image_exists = staticmethod(image_exists)
    create_image = staticmethod(create_image)

    def migrations(self):
        return MIGRATIONS

    def seed(self, db):
        owner = None
        if self.cloud.identity is not None:
            owner = self.cloud.identity.project_id(db, "admin")
        for name, size, virtual_size, disk_format, props in SEED_IMAGES:
            image_id = seed_image_id(name)
            if image_exists(db, image_id):
                continue
            create_image(db, name, owner, visibility="public",
                         disk_format=disk_format, size=size,
                         properties=props, image_id=image_id)
            db.execute("UPDATE images SET virtual_size = ? WHERE id = ?",
                       (virtual_size, image_id))

    def error_body(self, status, message, extra):
        """Glance errors are webob's plain-text pages."""
        reason = common.reason(status)
        text = "%d %s\n\n%s\n\n   " % (status, reason, message)
        return Response(status, raw=text, content_type="text/plain; charset=UTF-8")

    def _versions(self, req):
        base = req.base_url + self.prefix
        return {"versions": [{
            "id": "v" + v,
            "status": "CURRENT" if i == 0 else "SUPPORTED",
            "links": [{"rel": "self", "href": base + "/v2/"}],
        } for i, v in enumerate(VERSIONS)]}

    def versions(self, req):
        return Response(300, self._versions(req))

    def versions_ok(self, req):
        return self._versions(req)

    def _visible(self, req):
        if req.context.is_admin:
            return "1", []
        return "(visibility IN ('public', 'community') OR owner = ?)", [
            req.context.project_id]

    def list_images(self, req):
        """``GET /v2/images`` with limit/marker/name/status/visibility/id.

        ``id`` is an exact id or ``in:<id>,<id>…`` (glance's operator; a
        value may be double-quoted to hold a comma); any other operator or
        a malformed quote is a 400, as in glance.
        """
        where, visible_args = self._visible(req)
        clauses, args = [where], list(visible_args)
        for key in ("name", "status", "visibility", "owner"):
            value = req.arg(key)
            if value is not None:
                clauses.append("%s = ?" % key)
                args.append(value)
        id_filter = req.arg("id")
        if id_filter is not None:
            ids = id_filter_values(id_filter)
            clauses.append("id IN (%s)" % ", ".join("?" * len(ids))
                           if ids else "0")
            args += ids
        limit = req.arg("limit")
        if limit is not None:
            try:
                limit = int(limit)
            except ValueError:
                raise HTTPError(400, "limit param must be an integer") from None
            if limit < 0:
                raise HTTPError(400, "limit param must be positive")
        page = min(MAX_LIMIT if limit is None else limit, MAX_LIMIT)
        marker = req.arg("marker")
        if marker is not None:
            row = req.db.execute(
                "SELECT created_at, id FROM images WHERE id = ? AND " + where,
                [marker] + visible_args).fetchone()
            if row is None:
                raise HTTPError(400, "marker %s could not be found." % marker)
            clauses.append("(created_at < ? OR (created_at = ? AND id < ?))")
            args += [row["created_at"], row["created_at"], row["id"]]
        rows = req.db.execute(
            "SELECT * FROM images WHERE %s ORDER BY created_at DESC, id DESC"
            " LIMIT ?" % " AND ".join(clauses), args + [page + 1]).fetchall()
        images = [_view(r) for r in rows[:page]]
        body = {"images": images, "schema": "/v2/schemas/images",
                "first": "/v2/images" + _query(req, drop=("marker",))}
        if len(rows) > page and images:
            body["next"] = "/v2/images" + _query(
                req, drop=("marker",), add={"marker": images[-1]["id"]})
        return body

    def show_image(self, req):
        image_id = req.params["image_id"]
        image = get_image(req.db, image_id)
        if image is None or not (
                req.context.is_admin
                or image["visibility"] in ("public", "community")
                or image["owner"] == req.context.project_id):
            raise HTTPError(404, "No image found with ID %s" % image_id)
        return image


_IN_VALUES = re.compile(r'''
    "([^"\\]*(?:\\.[^"\\]*)*)",?   # a double-quoted value (may hold commas)
    | ([^,]+),?                      # or anything up to the next comma
    | ,                              # or an empty value
    ''', re.VERBOSE)


def id_filter_values(value):
    """The ids of an ``id`` filter (``<id>``, ``eq:<id>`` or ``in:<a>,<b>``).

    Glance's ``split_filter_op`` / ``split_filter_value_for_quotes``: an
    unknown operator or a badly placed / unclosed quote is an HTTP 400.
    """
    op, sep, rest = value.partition(":")
    if not sep:
        return [value]
    if op == "eq":
        return [rest]
    if op != "in":
        raise HTTPError(400, "Unable to filter on a unknown operator.")
    _validate_quotes(rest)
    return [m.group(1) or m.group(2) or "" for m in _IN_VALUES.finditer(rest)]


def _validate_quotes(value):
    opening = True
    for i, char in enumerate(value):
        if char != '"' or (i and value[i - 1] == "\\"):
            continue
        if opening and i and value[i - 1] != ",":
            raise HTTPError(400, "Invalid filter value %s. There is no comma "
                            "before opening quotation mark." % value)
        if not opening and i + 1 != len(value) and value[i + 1] != ",":
            raise HTTPError(400, "Invalid filter value %s. There is no comma "
                            "after closing quotation mark." % value)
        opening = not opening
    if not opening:
        raise HTTPError(400, "Invalid filter value %s. The quote is not "
                        "closed." % value)


def _query(req, drop=(), add=None):
    pairs = [(k, v) for k, values in req.query.items() if k not in drop
             for v in values]
    pairs += list((add or {}).items())
    return "?" + urlencode(pairs) if pairs else ""
