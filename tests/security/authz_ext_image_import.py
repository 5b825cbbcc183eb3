"""Authorization of the local Glance's interoperable import (issue 20,
glance 33's default policies): the discovery documents for any project
token; staging and importing for the image owner's members and admins
(``modify_image``; others' private images are not found, readers are
refused by the member role).

Each allowed stage gets a fresh active image of A put back to ``queued``
(``image_id`` and ``queued`` of :mod:`authz_ext_image`); each allowed
import a fresh image of A staged the moment before (``staged``)."""

IMAGE = "/v2/images/{image_id}"
OCTETS = {"Content-Type": "application/octet-stream"}


def _stage(world):
    """The fresh image made just before, staged with a few bytes (as
    ``PUT …/stage`` leaves it: ``uploading``, its file under staging)."""
    from occli.localcloud.image import writes

    stored = world.cloud.image.staging.store([b"authz-staged"])
    with world.cloud.store.transaction() as db:
        writes.set_columns(
            db,
            world.fresh_image,
            status="uploading",
            file=stored.name,
            size=stored.size,
            checksum=None,
            os_hash_algo=None,
            os_hash_value=None,
        )
    return "staged"


FACTORIES = {"staged": _stage}


def rules():
    from tests.security.test_authz_matrix import rule

    return {
        ("image", "GET", "/v2/info/import"): rule("any"),
        ("image", "GET", "/v2/info/stores"): rule("any"),
        ("image", "GET", "/v2/info/usage"): rule("any"),
        ("image", "PUT", IMAGE + "/stage"): rule(
            "write",
            204,
            fresh=("image_id", "queued"),
            body=lambda ids: b"authz-bytes",
            headers=lambda ids: OCTETS,
        ),
        ("image", "POST", IMAGE + "/import"): rule(
            "write",
            202,
            fresh=("image_id", "staged"),
            body=lambda ids: {"method": {"name": "glance-direct"}},
        ),
    }
