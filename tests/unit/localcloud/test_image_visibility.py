"""``image.get_visible_image``: the one visibility rule other services use
to turn an image id into an image (issue 19, finding 2), the rule Glance's
``GET /v2/images/{id}`` applies; compute's lookups go through it."""

import pytest

from occli.localcloud import errors
from occli.localcloud.compute import build
from occli.localcloud.compute.caller import Caller
from occli.localcloud.image import images as image_rules

# visibility → which callers see the demo project's image
SEES = {
    "private": {"owner", "admin"},
    # the owner's and admins' ("other" is no member: test_image_members.py)
    "shared": {"owner", "admin"},
    "public": {"owner", "admin", "other"},
    "community": {"owner", "admin", "other"},
}


@pytest.fixture
def world(cloud, client):
    with cloud.store.transaction() as db:
        projects = {name: cloud.identity.project_id(db, name) for name in ("demo", "alt")}
        images = {
            v: image_rules.create_image(db, "vis-" + v, projects["demo"], visibility=v)["id"]
            for v in SEES
        }
    callers = {
        "owner": Caller(projects["demo"], "u-demo"),
        "other": Caller(projects["alt"], "u-alt"),
        "admin": Caller(projects["alt"], "u-admin", is_admin=True),
    }
    tokens = {"owner": client.token("demo"), "other": client.token("alt")}
    return cloud, images, callers, tokens


@pytest.mark.parametrize("visibility", sorted(SEES))
def test_visible_image_is_what_glance_shows(world, client, visibility):
    cloud, images, callers, tokens = world
    image_id = images[visibility]
    with cloud.store.read() as db:
        seen = {
            who
            for who, caller in callers.items()
            if image_rules.get_visible_image(db, caller, image_id) is not None
        }
        assert cloud.image.get_visible_image(db, callers["other"], image_id) == (
            image_rules.get_image(db, image_id) if "other" in seen else None
        )
    assert seen == SEES[visibility]
    for who, token in tokens.items():
        shown = client.get("/image/v2/images/" + image_id, token=token)
        assert shown.status == (200 if who in seen else 404)


def test_unknown_image_is_none(world):
    cloud, _, callers, _ = world
    with cloud.store.read() as db:
        assert image_rules.get_visible_image(db, callers["admin"], "no-such-image") is None


def test_compute_lookups_answer_as_for_an_unknown_image(world):
    cloud, images, callers, _ = world
    private = images["private"]
    with cloud.store.read() as db:
        with pytest.raises(errors.BadRequest) as refused:
            build.resolve_image(db, callers["other"], cloud.image, private)
        assert refused.value.message == "Can not find requested image"
        assert build.find_image(db, callers["other"], cloud.image, private) is None
        for who in ("owner", "admin"):
            assert build.resolve_image(db, callers[who], cloud.image, private)["id"] == private
