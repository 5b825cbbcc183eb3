"""Authorization of the local Glance's image writes (issue 20, glance 33's
default policies): create for members, update and delete for the owner's members and
admins (others' private images are not found), deactivate and reactivate
alike (glance 33's ``ADMIN_OR_PROJECT_MEMBER``, as the real one answered).
``DELETE /v2/images`` is Glance's 405 for every project token.

Each allowed write gets a fresh active image of A (``image_id``); an
upload's is then put back to ``queued`` (the pseudo-parameter
``queued``), the one status an upload accepts. A's snapshot has no data:
its download is Glance's 204."""

IMAGE = "/v2/images/{image_id}"
OCTETS = {"Content-Type": "application/octet-stream"}
PATCH = {"Content-Type": "application/openstack-images-v2.1-json-patch"}


def _new_image(world):
    """A fresh private, active image of A (its upload is tested apart)."""
    from occli.localcloud.image import images

    with world.cloud.store.transaction() as db:
        image = images.create_image(db, "authz-fresh", world.projects["A"], size=1)
    world.fresh_image = image["id"]
    return world.secret(image["id"])


def _requeue(world):
    """The fresh image made just before, back to ``queued`` without data."""
    from occli.localcloud.image import writes

    with world.cloud.store.transaction() as db:
        writes.set_columns(db, world.fresh_image, status="queued", size=None, checksum=None)
    return "queued"


FACTORIES = {"image_id": _new_image, "queued": _requeue}


def rules():
    from tests.security.test_authz_matrix import _unique
    from tests.security.test_authz_matrix import rule

    return {
        ("image", "POST", "/v2/images"): rule(
            "create", 201, body=lambda ids: {"name": _unique("authz-image")}
        ),
        ("image", "DELETE", "/v2/images"): rule("any", 405),
        ("image", "DELETE", IMAGE): rule("write", 204, fresh=("image_id",)),
        ("image", "PATCH", IMAGE): rule(
            "write",
            fresh=("image_id",),
            body=lambda ids: [{"op": "replace", "path": "/name", "value": "authz"}],
            headers=lambda ids: PATCH,
        ),
        ("image", "PUT", IMAGE + "/file"): rule(
            "write",
            204,
            fresh=("image_id", "queued"),
            body=lambda ids: b"authz-bytes",
            headers=lambda ids: OCTETS,
        ),
        ("image", "GET", IMAGE + "/file"): rule("read", 204),
        ("image", "POST", IMAGE + "/actions/deactivate"): rule("write", 204, fresh=("image_id",)),
        ("image", "POST", IMAGE + "/actions/reactivate"): rule("write", 204, fresh=("image_id",)),
    }
