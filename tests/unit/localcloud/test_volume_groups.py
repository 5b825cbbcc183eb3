"""The local Cinder's group types and group specs (3.11): Cinder 29's
views, texts and admin policies."""

import pytest

from tests.unit.localcloud.volume_harness import cinder_cloud
from tests.unit.localcloud.volume_harness import message

cinder = pytest.fixture(cinder_cloud, name="cinder")
MISSING = "00000000-0000-4000-8000-000000000000"


def _denied(rule):
    return "Policy doesn't allow %s to be performed." % rule


def make(cinder, expect=202, **body):
    body.setdefault("name", "grp-type")
    result = cinder.post("/group_types", {"group_type": body}, user="admin")
    assert result.status == expect, result.body
    return result.json()["group_type"] if expect == 202 else result


def test_create_show_list_update_delete(cinder):
    created = make(cinder, description="d", group_specs={"consistent_group_snapshot_enabled":
                   "<is> True"})  # fmt: skip
    assert created["name"] == "grp-type" and created["is_public"] is True
    assert created["group_specs"] == {"consistent_group_snapshot_enabled": "<is> True"}
    shown = cinder.get("/group_types/" + created["id"]).json()["group_type"]
    assert "group_specs" not in shown and shown["description"] == "d"
    private = make(cinder, name="hidden", is_public=False)
    names = [t["name"] for t in cinder.get("/group_types").json()["group_types"]]
    assert names == ["grp-type", "default_cgsnapshot_type"]
    admin_names = [
        t["name"] for t in cinder.get("/group_types", user="admin").json()["group_types"]
    ]
    assert set(admin_names) == {"grp-type", "hidden", "default_cgsnapshot_type"}
    body = {"group_type": {"name": "renamed", "is_public": "true"}}
    result = cinder.put("/group_types/" + private["id"], body, user="admin")
    assert result.status == 200, result.body
    assert (result.json()["group_type"]["name"], result.json()["group_type"]["is_public"]) == (
        "renamed",
        True,
    )
    assert cinder.delete("/group_types/" + private["id"], user="admin").status == 202
    result = cinder.get("/group_types/" + private["id"])
    assert (result.status, message(result)) == (
        404,
        "Group type %s could not be found." % private["id"],
    )


def test_group_types_refusals(cinder):
    result = cinder.post("/group_types", {"group_type": {"name": "x"}})
    assert (result.status, message(result)) == (403, _denied("group:group_types:create"))
    created = make(cinder)
    result = make(cinder, expect=409)
    assert message(result) == "Group Type grp-type already exists."
    path = "/group_types/" + created["id"]
    result = cinder.put(path, {"group_type": {"name": "y"}})
    assert (result.status, message(result)) == (403, _denied("group:group_types:update"))
    result = cinder.put(path, {"group_type": {"name": "  "}}, user="admin")
    assert (result.status, message(result)) == (400, "Group type name can not be empty.")
    result = cinder.put(path, {"group_type": {}}, user="admin")
    assert (result.status, message(result)) == (
        400,
        "Specify group type name, description or a combination thereof.",
    )
    result = cinder.delete(path)
    assert (result.status, message(result)) == (403, _denied("group:group_types:delete"))
    assert cinder.delete("/group_types/" + MISSING, user="admin").status == 404
    result = cinder.get("/group_types/default")
    assert (result.status, message(result)) == (404, "Default group type can not be found.")
    assert cinder.post("/group_types", {"group_type": {}}, user="admin").status == 400
    assert cinder.get("/group_types", version="3.10").status == 404


def test_group_specs(cinder):
    created = make(cinder)
    specs = "/group_types/%s/group_specs" % created["id"]
    result = cinder.post(specs, {"group_specs": {"a": "1", "b": "2"}}, user="admin")
    assert (result.status, result.json()) == (202, {"group_specs": {"a": "1", "b": "2"}})
    assert cinder.get(specs, user="admin").json() == {"group_specs": {"a": "1", "b": "2"}}
    assert cinder.get(specs + "/a", user="admin").json() == {"a": "1"}
    result = cinder.put(specs + "/a", {"a": "9"}, user="admin")
    assert (result.status, result.json()) == (200, {"a": "9"})
    assert cinder.delete(specs + "/b", user="admin").status == 202
    assert cinder.get(specs, user="admin").json() == {"group_specs": {"a": "9"}}


def test_group_specs_refusals(cinder):
    created = make(cinder)
    specs = "/group_types/%s/group_specs" % created["id"]
    result = cinder.get(specs)
    assert (result.status, message(result)) == (403, _denied("group:group_types_specs:get_all"))
    result = cinder.post(specs, {"group_specs": {"a": "1"}})
    assert (result.status, message(result)) == (403, _denied("group:group_types_specs:create"))
    result = cinder.put(specs + "/a", {"b": "1"}, user="admin")
    assert (result.status, message(result)) == (400, "Request body and URI mismatch")
    assert cinder.put(specs + "/a", {"a": "1", "b": "2"}, user="admin").status == 400
    result = cinder.get(specs + "/nope", user="admin")
    assert (result.status, message(result)) == (
        404,
        "Group Type %s has no extra spec with key nope." % created["id"],
    )
    result = cinder.delete(specs + "/nope", user="admin")
    assert (result.status, message(result)) == (
        404,
        "Group Type %s has no specs with key nope." % created["id"],
    )
    result = cinder.get("/group_types/%s/group_specs" % MISSING, user="admin")
    assert (result.status, message(result)) == (404, "Group type %s could not be found." % MISSING)
    assert cinder.post(specs, {"group_specs": {"bad key": "1"}}, user="admin").status == 400
