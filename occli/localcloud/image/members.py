"""Glance's image members over SQLite: a shared image's owner shares it
with other projects, each member accepts, rejects or leaves it pending.

Read in glance 33: ``glance/api/v2/image_members.py`` (the controller's
order of checks and its texts, ``RequestDeserializer``), the member
policies of ``glance/policies/image.py`` (secure-RBAC defaults: the owner's
members add and remove, only the member itself changes its status, readers
of either see), ``glance/db/sqlalchemy/api.py`` (``image_member_find``: a
caller other than an admin sees the memberships of its own images and its
own ones only) and ``glance/quota`` (``image_member_quota``). ``caller`` is
an ``app.Context``.
"""

import sqlite3
from typing import Any

from occli.localcloud import common
from occli.localcloud import errors
from occli.localcloud.image import images

STATUSES = ("pending", "accepted", "rejected")
# glance's [DEFAULT] image_member_quota
QUOTA = 128
# the member column's width in Glance's table
MAX_MEMBER = 255


def view(row: sqlite3.Row) -> dict[str, Any]:
    """A membership in Glance's JSON shape."""
    return {
        "member_id": row["member"],
        "image_id": row["image_id"],
        "status": row["status"],
        "created_at": row["created_at"],
        "updated_at": row["updated_at"],
        "schema": "/v2/schemas/member",
    }


def parse_member(body: Any) -> str:
    """The member of a ``POST …/members`` body (``{"member": <project>}``),
    or BadRequest with the deserializer's texts."""
    if not isinstance(body, dict):
        raise errors.BadRequest('Expected a member in the form: {"member": "image_id"}')
    if "member" not in body:
        raise errors.BadRequest("Member to be added not specified")
    member = body["member"]
    if not member:
        raise errors.BadRequest("Member can't be empty")
    if not isinstance(member, str) or len(member) > MAX_MEMBER:
        # Glance stores what it is given in a 255-character column
        raise errors.BadRequest('Expected a member in the form: {"member": "image_id"}')
    return member


def parse_status(body: Any) -> Any:
    """The status of a ``PUT …/members/{member}`` body (checked later, as
    Glance's domain does, after the lookups and the policy)."""
    if not isinstance(body, dict):
        raise errors.BadRequest('Expected a status in the form: {"status": "status"}')
    if "status" not in body:
        raise errors.BadRequest("Status not specified")
    return body["status"]


def _image(db: sqlite3.Connection, caller: Any, image_id: str) -> dict[str, Any]:
    """The image ``caller`` sees (the controller's ``_lookup_image``)."""
    image = images.get_visible_image(db, caller, image_id)
    if image is None:
        raise errors.NotFound("Image %s not found." % image_id)
    return image


def _shared(image: dict[str, Any], refusal: str) -> None:
    """Forbidden with ``refusal`` (its ``%s``: the image id) unless the
    image is shared (``_check_visibility_and_ownership``)."""
    if image["visibility"] != "shared":
        raise errors.Forbidden(refusal % image["id"])


def _owned(caller: Any, image: dict[str, Any], action: str) -> None:
    """Glance's ``ADMIN_OR_PROJECT_MEMBER`` over the image's owner."""
    if not caller.is_admin and image["owner"] != caller.project_id:
        raise errors.Forbidden("You are not authorized to complete %s action." % action)


def _find(
    db: sqlite3.Connection, caller: Any, image: dict[str, Any], member: str | None = None
) -> list[sqlite3.Row]:
    """The memberships of ``image`` (``member``'s only if given) the caller
    may see: all for an admin or the owner, else the caller's own."""
    clauses, args = ["image_id = ?"], [image["id"]]
    if member is not None:
        clauses.append("member = ?")
        args.append(member)
    if not caller.is_admin and image["owner"] != caller.project_id:
        clauses.append("member = ?")
        args.append(caller.project_id)
    return db.execute(
        "SELECT * FROM image_members WHERE %s ORDER BY created_at, rowid" % " AND ".join(clauses),
        args,
    ).fetchall()


def _member(
    db: sqlite3.Connection, caller: Any, image: dict[str, Any], member: str
) -> sqlite3.Row:
    """Membership ``member`` of ``image`` as the caller sees it, or NotFound."""
    rows = _find(db, caller, image, member)
    if not rows:
        raise errors.NotFound(
            "%s not found in the member list of the image %s." % (member, image["id"])
        )
    return rows[0]


def list_members(db: sqlite3.Connection, caller: Any, image_id: str) -> list[dict[str, Any]]:
    """``GET /v2/images/{id}/members``: the memberships the caller sees."""
    image = _image(db, caller, image_id)
    _shared(image, "Not allowed to list members for image %s: Only shared images have members.")
    return [view(row) for row in _find(db, caller, image)]


def show(db: sqlite3.Connection, caller: Any, image_id: str, member: str) -> dict[str, Any]:
    """``GET /v2/images/{id}/members/{member}``; Glance hides an image that
    takes no members as not found."""
    image = _image(db, caller, image_id)
    if image["visibility"] != "shared":
        raise errors.NotFound("Only shared images have members.")
    return view(_member(db, caller, image, member))


def add(db: sqlite3.Connection, caller: Any, image_id: str, member: str) -> dict[str, Any]:
    """``POST /v2/images/{id}/members``: a ``pending`` membership; the
    quota is counted before the duplicate is looked for, as in Glance."""
    image = _image(db, caller, image_id)
    _shared(image, "Not allowed to create members for image %s.")
    _owned(caller, image, "add_member")
    (count,) = db.execute(
        "SELECT count(*) FROM image_members WHERE image_id = ?", (image_id,)
    ).fetchone()
    if QUOTA >= 0 and count + 1 > QUOTA:
        raise errors.TooLarge(
            "Image member limit exceeded for image %s: The limit has been exceeded on the"
            " number of allowed image members for this image. Attempted: %d, Maximum: %d:"
            % (image_id, count + 1, QUOTA)
        )
    exists = db.execute(
        "SELECT 1 FROM image_members WHERE image_id = ? AND member = ?", (image_id, member)
    ).fetchone()
    if exists is not None:
        raise errors.Conflict("Member %s is duplicated for image %s" % (member, image_id))
    now = common.iso_z(common.utcnow())
    db.execute(
        "INSERT INTO image_members (image_id, member, status, created_at, updated_at)"
        " VALUES (?, ?, 'pending', ?, ?)",
        (image_id, member, now, now),
    )
    return view(_member(db, caller, image, member))


def update(
    db: sqlite3.Connection, caller: Any, image_id: str, member: str, status: Any
) -> dict[str, Any]:
    """``PUT /v2/images/{id}/members/{member}``: the member (or an admin)
    sets its status; the owner may not (Glance's ``modify_member``)."""
    image = _image(db, caller, image_id)
    _shared(image, "Not allowed to update members for image %s.")
    _member(db, caller, image, member)
    if not caller.is_admin and image["owner"] == caller.project_id:
        raise errors.Forbidden("You are not authorized to complete modify_member action.")
    if not isinstance(status, str) or status not in STATUSES:
        raise errors.BadRequest(
            'Incorrect request: Status must be "pending", "accepted" or "rejected".'
        )
    db.execute(
        "UPDATE image_members SET status = ?, updated_at = ? WHERE image_id = ? AND member = ?",
        (status, common.iso_z(common.utcnow()), image_id, member),
    )
    return view(_member(db, caller, image, member))


def remove(db: sqlite3.Connection, caller: Any, image_id: str, member: str) -> None:
    """``DELETE /v2/images/{id}/members/{member}``: the owner's (or an
    admin's); a member sees its membership but may not remove it."""
    image = _image(db, caller, image_id)
    _shared(image, "Not allowed to delete members for image %s.")
    _member(db, caller, image, member)
    _owned(caller, image, "delete_member")
    db.execute("DELETE FROM image_members WHERE image_id = ? AND member = ?", (image_id, member))
