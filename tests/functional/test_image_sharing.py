"""Image sharing over HTTP (issue 20): project demo shares a shared image
with project alt, which sees it by id at once, in ``image list`` once it
accepts, and never changes it; the owner removes the member again."""

import uuid

import pytest

from tests.functional.harness import as_json
from tests.functional.harness import ok


@pytest.fixture
def occli(occli_env, run_occli):
    """``occli(argv…, cloud="local")``: as demo, or as ``local-alt``."""

    def run(*argv, cloud="local"):
        return run_occli("--os-cloud", cloud, *argv)

    return run


def listed(occli, cloud="local-alt"):
    return {i["ID"] for i in as_json(occli("image", "list", "-f", "json", cloud=cloud))}


def test_share_accept_and_unshare_an_image(occli, occli_env):
    alt = occli_env.client("local-alt").session.get_project_id()
    name = "shared-" + uuid.uuid4().hex[:8]
    image = as_json(occli("image", "create", "--shared", name, "-f", "json"))["id"]
    assert occli("image", "show", image, cloud="local-alt")[0] == 1

    # keystone lets demo look up no other project: it gives alt's id
    added = as_json(occli("image", "add", "project", image, alt, "-f", "json"))
    assert (added["member_id"], added["image_id"], added["status"]) == (alt, image, "pending")

    # a pending member gets the image by id, but it is not in its list
    assert as_json(occli("image", "show", image, "-f", "json", cloud="local-alt"))["id"] == image
    assert image not in listed(occli)
    members = as_json(occli("image", "member", "list", image, "-f", "json", cloud="local-alt"))
    assert members == [{"Image ID": image, "Member ID": alt, "Status": "pending"}]

    # the owner may not accept for alt; alt accepts for itself
    code, out, err = occli("image", "set", "--accept", "--project", alt, image)
    assert code == 1 and "You are not authorized to complete modify_member action." in err
    ok(occli("image", "set", "--accept", image, cloud="local-alt"))
    assert image in listed(occli)
    shown = as_json(occli("image", "member", "get", image, alt, "-f", "json"))
    assert shown["status"] == "accepted"

    # a member neither changes, shares nor deletes the image
    code, out, err = occli("image", "set", "--name", "taken", image, cloud="local-alt")
    assert code == 1 and "modify_image" in err
    code, out, err = occli("image", "delete", image, cloud="local-alt")
    assert code == 1
    code, out, err = occli("image", "remove", "project", image, alt, cloud="local-alt")
    assert code == 1 and "delete_member" in err
    assert as_json(occli("image", "show", image, "-f", "json"))["name"] == name

    ok(occli("image", "set", "--reject", image, cloud="local-alt"))
    assert image not in listed(occli)
    ok(occli("image", "remove", "project", image, alt))
    assert occli("image", "show", image, cloud="local-alt")[0] == 1
    assert as_json(occli("image", "member", "list", image, "-f", "json")) == []
    ok(occli("image", "delete", image))


def test_only_shared_images_take_members(occli, occli_env):
    name = "private-" + uuid.uuid4().hex[:8]
    image = as_json(occli("image", "create", "--private", name, "-f", "json"))["id"]
    alt = occli_env.client("local-alt").session.get_project_id()
    code, out, err = occli("image", "add", "project", image, alt)
    assert code == 1
    assert "Not allowed to create members for image %s." % image in err
    ok(occli("image", "delete", image))
