"""Authorization of the local Glance's image members (issue 20, glance
33's default policies): A's shared image (``shared_image_id``) has a member
project outside the matrix (``member_id``, a project id Glance does not
check). Its readers, members and the admin list and show the members; A's
members and the admin add and remove them; only the member project itself
or an admin changes a member's status, so A's own tokens are refused (403)
and others do not find the image (404): ``admin_of``.

Each allowed removal gets a fresh membership (``member_id``); an allowed
add names a new member."""

MEMBERS = "/v2/images/{image_id}/members"
MEMBER = MEMBERS + "/{member_id}"


def _new_member(world):
    """A fresh member project of A's shared image."""
    from tests.security.test_authz_matrix import _unique

    member = world.secret(_unique("authz-member"))
    added = world.as_(
        "a_member",
        "POST",
        "/image" + MEMBERS.format(image_id=world.shared_image_id),
        json_body={"member": member},
    )
    assert added.status == 200, added.body
    return member


FACTORIES = {"member_id": _new_member}


def setup(world, ids):
    from occli.localcloud.image import images

    with world.cloud.store.transaction() as db:
        image = images.create_image(
            db, "authz-shared", world.projects["A"], visibility="shared", size=1
        )
    world.shared_image_id = world.secret(image["id"])
    ids["shared_image_id"] = image["id"]
    ids["member_id"] = _new_member(world)


def _shared(ids):
    return {"image_id": ids["shared_image_id"]}


def rules():
    from tests.security.test_authz_matrix import _unique
    from tests.security.test_authz_matrix import rule

    return {
        ("image", "GET", MEMBERS): rule("read", params=_shared),
        ("image", "POST", MEMBERS): rule(
            "write", params=_shared, body=lambda ids: {"member": _unique("authz-member")}
        ),
        ("image", "GET", MEMBER): rule("read", params=_shared),
        ("image", "PUT", MEMBER): rule(
            "admin_of", params=_shared, body=lambda ids: {"status": "accepted"}
        ),
        ("image", "DELETE", MEMBER): rule("write", 204, params=_shared, fresh=("member_id",)),
    }
