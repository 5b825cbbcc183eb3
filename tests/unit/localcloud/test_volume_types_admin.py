"""The local Cinder's volume types beyond the seeded one: the admin's
create/update/delete, extra specs, private types and project access, the
default type, and volume creates with a private type (Cinder's
``types_manage``, ``types_extra_specs``, ``volume_type_access``)."""

import json
import pathlib

import pytest

from occli.localcloud.volume.migrations import DEFAULT_TYPE_ID
from tests.shape import assert_same_shape
from tests.unit.localcloud.volume_harness import cinder_cloud
from tests.unit.localcloud.volume_harness import message

cinder = pytest.fixture(cinder_cloud, name="cinder")
FIXTURES = pathlib.Path(__file__).parents[2] / "fixtures" / "volume" / "volume_type"


def load(name):
    return json.loads((FIXTURES / name).read_text())


def make_type(cinder, expect=200, **body):
    body.setdefault("name", "gold")
    result = cinder.post("/types", {"volume_type": body}, user="admin")
    assert result.status == expect, result.body
    return result.json()["volume_type"] if expect == 200 else result


def test_create_show_list_as_the_samples(cinder):
    created = make_type(cinder, **load("volume-type-create-request.json")["volume_type"])
    assert_same_shape(
        {"volume_type": created},
        load("volume-type-create-response.json"),
        ignore=("qos_specs_id",),
    )
    assert created["extra_specs"] == {"capabilities": "gpu"} and created["is_public"]
    shown = cinder.get("/types/" + created["id"], user="admin").json()
    assert_same_shape(shown, load("volume-type-show-response.json"))
    listed = cinder.get("/types", user="admin").json()["volume_types"]
    # newest first, as Cinder sorts (created_at, id descending)
    assert [t["name"] for t in listed] == ["vol-type-001", "__DEFAULT__"]
    # a member sees the type but only the user-visible extra specs
    as_demo = cinder.get("/types/" + created["id"]).json()["volume_type"]
    assert as_demo["extra_specs"] == {} and "qos_specs_id" not in as_demo
    assert as_demo["os-volume-type-access:is_public"] is True


def test_writes_are_the_admins(cinder):
    refused = cinder.post("/types", {"volume_type": {"name": "x"}})
    assert (refused.status, message(refused)) == (
        403,
        "Policy doesn't allow volume_extension:type_create to be performed.",
    )
    gold = make_type(cinder)
    for method, path, body, rule in (
        ("PUT", "", {"volume_type": {"name": "y"}}, "type_update"),
        ("DELETE", "", None, "type_delete"),
        ("POST", "/extra_specs", {"extra_specs": {"a": "b"}}, "types_extra_specs:create"),
        ("PUT", "/extra_specs/a", {"a": "b"}, "types_extra_specs:update"),
        ("POST", "/action", {"addProjectAccess": {"project": "p"}},
         "volume_type_access:addProjectAccess"),
        ("GET", "/os-volume-type-access", None, "volume_type_access:get_all_for_type"),
    ):  # fmt: skip
        result = cinder.call(method, "/types/" + gold["id"] + path, json=body)
        assert (result.status, message(result)) == (
            403,
            "Policy doesn't allow volume_extension:%s to be performed." % rule,
        ), path


def test_create_refusals(cinder):
    make_type(cinder)
    taken = make_type(cinder, expect=409)
    assert message(taken) == "Volume Type gold already exists."
    blank = make_type(cinder, name="  ", expect=400)
    assert message(blank) == "Volume type name can not be empty."
    unknown = make_type(cinder, name="x", colour="red", expect=400)
    assert "Additional properties are not allowed ('colour' was unexpected)" in message(unknown)
    bad_public = make_type(
        cinder, name="x", expect=400, **{"os-volume-type-access:is_public": "maybe"}
    )
    assert message(bad_public).startswith(
        "Invalid input for field/attribute os-volume-type-access:is_public. Value: maybe."
    )


def test_update(cinder):
    gold = make_type(cinder, description="old")
    path = "/types/" + gold["id"]
    updated = cinder.put(path, {"volume_type": {"name": "platinum"}}, user="admin").json()
    assert_same_shape(updated, load("volume-type-update-response.json"), ignore=("qos_specs_id",))
    assert updated["volume_type"]["name"] == "platinum"
    assert updated["volume_type"]["description"] == "old"
    assert "os-volume-type-access:is_public" not in updated["volume_type"]
    nothing = cinder.put(path, {"volume_type": {}}, user="admin")
    assert (nothing.status, message(nothing)) == (
        400,
        "Specify volume type name, description, is_public or a combination thereof.",
    )
    empty = cinder.put(path, {"volume_type": {"name": " "}}, user="admin")
    assert (empty.status, message(empty)) == (400, "Volume type name can not be empty.")
    clash = cinder.put(path, {"volume_type": {"name": "__DEFAULT__"}}, user="admin")
    assert (clash.status, message(clash)) == (409, "Volume Type __DEFAULT__ already exists.")
    missing = cinder.put("/types/nosuch", {"volume_type": {"name": "z"}}, user="admin")
    assert (missing.status, message(missing)) == (404, "Volume type nosuch could not be found.")


def test_rename_carries_the_per_type_quota(cinder):
    gold = make_type(cinder)
    demo = cinder.projects["demo"]
    set_quota = cinder.put(
        "/os-quota-sets/" + demo, {"quota_set": {"volumes_gold": 3}}, user="admin"
    )
    assert set_quota.status == 200, set_quota.body
    cinder.put("/types/" + gold["id"], {"volume_type": {"name": "silver"}}, user="admin")
    quotas = cinder.get("/os-quota-sets/" + demo).json()["quota_set"]
    assert quotas["volumes_silver"] == 3 and "volumes_gold" not in quotas


def test_delete_and_its_refusals(cinder):
    default = cinder.delete("/types/" + DEFAULT_TYPE_ID, user="admin")
    assert (default.status, message(default)) == (
        400,
        "The volume type %s is a default volume type and cannot be deleted." % DEFAULT_TYPE_ID,
    )
    gold = make_type(cinder)
    volume = cinder.create(volume_type="gold")
    in_use = cinder.delete("/types/" + gold["id"], user="admin")
    assert (in_use.status, message(in_use)) == (400, "Target volume type is still in use.")
    assert cinder.delete("/volumes/" + volume["id"]).status == 202
    assert cinder.delete("/types/" + gold["id"], user="admin").status == 202
    gone = cinder.get("/types/" + gold["id"], user="admin")
    assert (gone.status, message(gone)) == (404, "Volume type %s could not be found." % gold["id"])
    again = cinder.delete("/types/" + gold["id"], user="admin")
    assert again.status == 404


def test_extra_specs_routes(cinder):
    gold = make_type(cinder, extra_specs={"capabilities": "gpu"})
    specs = "/types/%s/extra_specs" % gold["id"]
    body = load("volume-type-extra-specs-create-update-request.json")
    created = cinder.post(specs, body, user="admin")
    assert created.json() == load("volume-type-extra-specs-create-update-response.json")
    every = cinder.get(specs, user="admin").json()
    assert every == {"extra_specs": {"capabilities": "gpu", "key1": "value1", "key2": "value2"}}
    one = cinder.get(specs + "/capabilities", user="admin").json()
    assert one == load("volume-type-specific-extra-specs-show-response.json")
    item = load("volume-type-specific-extra-specs-update-request.json")
    updated = cinder.put(specs + "/key1", item, user="admin")
    assert updated.json() == load("volume-type-specific-extra-specs-update-response.json")
    mismatch = cinder.put(specs + "/key2", {"key1": "v"}, user="admin")
    assert (mismatch.status, message(mismatch)) == (400, "Request body and URI mismatch")
    two = cinder.put(specs + "/key1", {"key1": "v", "key2": "w"}, user="admin")
    assert two.status == 400
    assert cinder.delete(specs + "/key2", user="admin").status == 202
    missing = cinder.delete(specs + "/key2", user="admin")
    assert (missing.status, message(missing)) == (
        404,
        "Volume Type %s has no extra specs with key key2." % gold["id"],
    )
    shown = cinder.get(specs + "/key2", user="admin")
    assert shown.status == 404
    # a member reads the user-visible specs only
    cinder.post(specs, {"extra_specs": {"multiattach": "<is> True"}}, user="admin")
    assert cinder.get(specs).json() == {"extra_specs": {"multiattach": "<is> True"}}
    hidden = cinder.get(specs + "/capabilities")
    assert hidden.status == 404
    cacheable = cinder.post(specs, {"extra_specs": {"cacheable": "<is> True"}}, user="admin")
    assert (cacheable.status, message(cacheable)) == (
        400,
        "cacheable cannot be set with multiattach.",
    )
    spaced = cinder.post(specs, {"extra_specs": {"a key": "v"}}, user="admin")
    assert spaced.status == 400


def test_extra_specs_of_a_type_in_use_are_fixed(cinder):
    gold = make_type(cinder)
    cinder.create(volume_type=gold["id"])
    specs = "/types/%s/extra_specs" % gold["id"]
    for result in (
        cinder.post(specs, {"extra_specs": {"a": "b"}}, user="admin"),
        cinder.put(specs + "/a", {"a": "b"}, user="admin"),
        cinder.delete(specs + "/a", user="admin"),
    ):
        assert (result.status, message(result)) == (400, "Volume Type is currently in use.")


def test_private_type_and_project_access(cinder):
    private = make_type(cinder, name="secret", **{"os-volume-type-access:is_public": False})
    assert private["is_public"] is False
    path = "/types/" + private["id"]
    demo, alt = cinder.projects["demo"], cinder.projects["alt"]
    # no access yet: not listed, not found, no volume of it
    assert "secret" not in [t["name"] for t in cinder.get("/types").json()["volume_types"]]
    assert cinder.get(path).status == 404
    refused = cinder.create(volume_type="secret", expect=404)
    assert message(refused) == "Volume type with name secret could not be found."
    by_id = cinder.create(volume_type=private["id"], expect=404)
    assert message(by_id) == "Volume type %s could not be found." % private["id"]
    add = cinder.post(path + "/action", load("volume-type-access-add-request.json"), user="admin")
    assert add.status == 202
    body = {"addProjectAccess": {"project": demo}}
    assert cinder.post(path + "/action", body, user="admin").status == 202
    twice = cinder.post(path + "/action", body, user="admin")
    assert (twice.status, message(twice)) == (
        409,
        "Volume type access for %s / %s combination already exists." % (private["id"], demo),
    )
    access = cinder.get(path + "/os-volume-type-access", user="admin").json()
    assert_same_shape(access, load("volume-type-access-list-response.json"))
    assert [a["project_id"] for a in access["volume_type_access"]] == [
        "6f70656e737461636b20342065766572",
        demo,
    ]
    # demo now sees and uses it; alt still does not
    assert "secret" in [t["name"] for t in cinder.get("/types").json()["volume_types"]]
    assert cinder.get(path).status == 200
    assert cinder.create(volume_type="secret")["volume_type"] == "secret"
    assert cinder.get(path, user="alt").status == 404
    cinder.create(user="alt", volume_type="secret", expect=404)
    remove = {"removeProjectAccess": {"project": demo}}
    assert cinder.post(path + "/action", remove, user="admin").status == 202
    not_there = cinder.post(path + "/action", remove, user="admin")
    assert (not_there.status, message(not_there)) == (
        404,
        "Volume type access not found for %s / %s combination." % (private["id"], demo),
    )
    assert cinder.get(path).status == 404
    public = cinder.get("/types/%s/os-volume-type-access" % DEFAULT_TYPE_ID, user="admin")
    assert (public.status, message(public)) == (
        404,
        "Access list not available for public volume types.",
    )
    unknown = cinder.post(path + "/action", {"grant": {}}, user="admin")
    assert (unknown.status, message(unknown)) == (
        400,
        (
            "There is no such action: grant. Verify the request body and Content-Type header"
            " and try again."
        ),
    )
    missing = cinder.post("/types/nosuch/action", body, user="admin")
    assert missing.status == 404
    assert alt  # alt's project exists (the harness's third user)


def test_admin_is_public_filter(cinder):
    make_type(cinder, name="open")
    make_type(cinder, name="closed", **{"os-volume-type-access:is_public": False})

    def names(query, user="admin"):
        result = cinder.get("/types" + query, user=user)
        assert result.status == 200, result.body
        return sorted(t["name"] for t in result.json()["volume_types"])

    assert names("") == ["__DEFAULT__", "open"]
    assert names("?is_public=false") == ["closed"]
    assert names("?is_public=None") == ["__DEFAULT__", "closed", "open"]
    # a member's is_public is ignored: public types (and its own) only
    assert names("?is_public=false", user="demo") == ["__DEFAULT__", "open"]
    bad = cinder.get("/types?is_public=maybe", user="admin")
    assert (bad.status, message(bad)) == (400, "Invalid is_public filter [maybe]")


def test_default_type(cinder):
    result = cinder.get("/types/default")
    assert result.status == 200
    assert_same_shape(
        result.json(), load("volume-type-default-response.json"), ignore=("qos_specs_id",)
    )
    assert result.json()["volume_type"]["name"] == "__DEFAULT__"
    assert "os-volume-type-access:is_public" not in result.json()["volume_type"]


def test_list_pages_and_sorts(cinder):
    for name in ("a-type", "b-type"):
        make_type(cinder, name=name)
    first = cinder.get("/types?limit=1", user="admin").json()
    assert [t["name"] for t in first["volume_types"]] == ["b-type"]
    (link,) = first["volume_type_links"]
    assert link["rel"] == "next" and "marker=" + first["volume_types"][0]["id"] in link["href"]
    marker = first["volume_types"][0]["id"]
    rest = cinder.get("/types?marker=" + marker, user="admin").json()
    assert [t["name"] for t in rest["volume_types"]] == ["a-type", "__DEFAULT__"]
    assert "volume_type_links" not in rest
    by_name = cinder.get("/types?sort=name:asc", user="admin").json()["volume_types"]
    assert [t["name"] for t in by_name] == ["__DEFAULT__", "a-type", "b-type"]
    bad_key = cinder.get("/types?sort_key=colour", user="admin")
    assert (bad_key.status, message(bad_key)) == (400, "Invalid input received: Invalid sort key")
    missing = cinder.get("/types?marker=nosuch", user="admin")
    assert (missing.status, message(missing)) == (404, "Volume type nosuch could not be found.")


def test_extra_specs_filter(cinder):
    make_type(cinder, name="multi", extra_specs={"multiattach": "<is> True", "tier": "1"})
    make_type(cinder, name="zoned", extra_specs={"RESKEY:availability_zones": "nova,other"})

    def names(query, user="admin", version="3.70"):
        result = cinder.get("/types?extra_specs=" + query, user=user, version=version)
        assert result.status == 200, result.body
        return [t["name"] for t in result.json()["volume_types"]]

    assert names("{'multiattach': '<is> True'}") == ["multi"]
    assert names("{'RESKEY:availability_zones': 'nova'}") == ["zoned"]
    assert names("{'tier': '1', 'multiattach': '<is> True'}") == ["multi"]
    # a member filters from 3.52, on the specs it may read only
    assert names("{'multiattach': '<is> True'}", user="demo") == ["multi"]
    assert names("{'tier': '1'}", user="demo") == []
    assert len(names("{'multiattach': '<is> True'}", user="demo", version="3.51")) == 3
    bad = cinder.get("/types?extra_specs=nodict", user="admin")
    assert bad.status == 400
