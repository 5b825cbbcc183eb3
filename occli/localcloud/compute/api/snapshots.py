"""``createImage`` and ``createBackup`` (server actions): schemas, the
microversion differences (a ``Location`` header before 2.45, an
``image_id`` body from it) and the rules in
:mod:`occli.localcloud.compute.snapshots`."""

from occli.localcloud.app import Response
from occli.localcloud.compute import quotas
from occli.localcloud.compute import snapshots
from occli.localcloud.compute.api import common
from occli.localcloud.compute.api import schemas

CREATE_BACKUP = schemas.one_member(
    "createBackup",
    {
        "type": "object",
        "properties": {
            "name": schemas.name,
            "backup_type": {"type": "string"},
            "rotation": {"type": ["integer", "string"], "pattern": "^[0-9]+$", "minimum": 0},
            "metadata": schemas.metadata,
        },
        "required": ["name", "backup_type", "rotation"],
        "additionalProperties": False,
    },
)


def owner_names(req, server):
    """``(project name, user name)`` of the server's owner, as nova keeps
    them in its system metadata at build (looked up: the caller's own when
    it built the server)."""
    ctx = req.context
    if (server["project_id"], server["user_id"]) == (ctx.project_id, ctx.user_id):
        return ctx.project_name, ctx.user_name
    identity = req.cloud.identity
    project = identity.project(req.db, server["project_id"]) if identity else None
    user = identity.user(req.db, server["user_id"]) if identity else None
    return (project or {}).get("name"), (user or {}).get("name")


def _check_quota(req, metadata):
    # nova stopped counting image metadata against the quota at 2.39
    if req.microversion < "2.39":
        quotas.check_metadata(metadata, req.db, req.context.project_id)


def create_image(req, server, value):
    data = schemas.validate(schemas.create_image, {"createImage": value})["createImage"]
    metadata = data.get("metadata", {})
    _check_quota(req, metadata)
    image_id = snapshots.snapshot(
        req.db,
        common.caller(req),
        server,
        common.images(req),
        data["name"].strip(),
        metadata,
        owner_names(req, server),
        req.cloud.config.build_time,
    )
    if req.microversion >= "2.45":
        return Response(202, {"image_id": image_id})
    prefix = req.cloud.image.prefix if req.cloud.image is not None else "/image"
    location = "%s%s/v2/images/%s" % (req.base_url, prefix, image_id)
    return Response(202, headers={"Location": location})


def create_backup(req, server, value):
    data = schemas.validate(CREATE_BACKUP, {"createBackup": value})["createBackup"]
    metadata = data.get("metadata", {})
    _check_quota(req, metadata)
    rotation = common.parse_integer(data["rotation"], "rotation")
    image_id = snapshots.backup(
        req.db,
        common.caller(req),
        server,
        common.images(req),
        data["name"].strip(),
        data["backup_type"],
        rotation,
        metadata,
        owner_names(req, server),
        req.cloud.config.build_time,
    )
    if req.microversion >= "2.45":
        return Response(202, {"image_id": image_id})
    # nova: the compute API's own images URL, and only with a rotation
    headers = {}
    if rotation > 0:
        headers["Location"] = "%s%s/images/%s" % (
            common.root_url(req),
            common.API_PREFIX,
            image_id,
        )
    return Response(202, headers=headers)
