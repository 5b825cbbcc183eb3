"""The local Cinder's QoS specs (``qos_specs_manage``) and default types
per project (3.62 ``/default-types``): Cinder's samples, texts and rules,
every route the admin's."""

import json
import pathlib

import pytest

from occli.localcloud.volume.migrations import DEFAULT_TYPE_ID
from tests.shape import assert_same_shape
from tests.unit.localcloud.volume_harness import cinder_cloud
from tests.unit.localcloud.volume_harness import message

cinder = pytest.fixture(cinder_cloud, name="cinder")
FIXTURES = pathlib.Path(__file__).parents[2] / "fixtures" / "volume"
POLICY = "Policy doesn't allow volume_extension:qos_specs_manage:%s to be performed."


def load(*parts):
    return json.loads((FIXTURES.joinpath(*parts)).read_text())


def make_qos(cinder, expect=200, **body):
    body.setdefault("name", "reliability-spec")
    result = cinder.post("/qos-specs", {"qos_specs": body}, user="admin")
    assert result.status == expect, result.body
    return result.json()["qos_specs"] if expect == 200 else result


def make_type(cinder, name="gold"):
    result = cinder.post("/types", {"volume_type": {"name": name}}, user="admin")
    assert result.status == 200, result.body
    return result.json()["volume_type"]


def test_create_show_list_update_as_the_samples(cinder):
    created = cinder.post("/qos-specs", load("qos", "qos-create-request.json"), user="admin")
    assert created.status == 200, created.body
    assert_same_shape(created.json(), load("qos", "qos-create-response.json"))
    specs = created.json()["qos_specs"]
    assert (specs["consumer"], specs["specs"]) == ("back-end", {})
    self_link = created.json()["links"][0]["href"]
    assert self_link.endswith(
        "/volume/v3/%s/qos-specs/%s" % (cinder.projects["admin"], specs["id"])
    )
    shown = cinder.get("/qos-specs/" + specs["id"], user="admin")
    assert_same_shape(shown.json(), load("qos", "qos-show-response.json"))
    listed = cinder.get("/qos-specs", user="admin").json()
    assert_same_shape(listed, load("qos", "qos-list-response.json"))
    path = "/qos-specs/" + specs["id"]
    body = load("qos", "qos-update-request.json")
    updated = cinder.put(path, body, user="admin")
    assert updated.json() == load("qos", "qos-update-response.json")
    cinder.put(path, {"qos_specs": {"consumer": "front-end", "key1": "v"}}, user="admin")
    shown = cinder.get(path, user="admin").json()["qos_specs"]
    assert shown["consumer"] == "front-end"
    assert shown["specs"] == {"delay": "1", "key1": "v"}
    unset = cinder.put(path + "/delete_keys", load("qos", "qos-unset-request.json"), user="admin")
    assert unset.status == 202
    assert cinder.get(path, user="admin").json()["qos_specs"]["specs"] == {"delay": "1"}
    gone = cinder.put(path + "/delete_keys", {"keys": ["key1"]}, user="admin")
    assert (gone.status, message(gone)) == (
        404,
        "QoS spec %s has no spec with key key1." % specs["id"],
    )
    by_consumer = cinder.get("/qos-specs?consumer=back-end", user="admin").json()["qos_specs"]
    assert by_consumer == []


def test_create_refusals(cinder):
    make_qos(cinder, consumer="both", total_iops_sec="1000")
    taken = make_qos(cinder, expect=409)
    assert message(taken) == "QoS Specs reliability-spec already exists."
    bad = make_qos(cinder, name="x", consumer="middle", expect=400)
    assert message(bad) == (
        "Invalid qos specs: Valid consumer of QoS specs are: QoSConsumerValues(default=<class"
        " 'oslo_versionedobjects.fields.UnspecifiedDefault'>,nullable=False,valid_values="
        "('back-end', 'front-end', 'both'))"
    )
    blank = make_qos(cinder, name="  ", expect=400)
    assert message(blank) == "An invalid 'name' value was provided. The 'name' can not be empty."
    number = make_qos(cinder, name="n", read_iops_sec=5, expect=400)
    assert message(number) == (
        'Invalid input received: Value for key "read_iops_sec" is not a string or unicode'
    )
    long = make_qos(cinder, name="l", k="v" * 256, expect=400)
    assert message(long) == (
        'Invalid input received: Value for key "k" has 256 characters, more than 255.'
    )
    missing = cinder.get("/qos-specs/nosuch", user="admin")
    assert (missing.status, message(missing)) == (404, "No such QoS spec nosuch.")
    bad_update = cinder.put(
        "/qos-specs/nosuch", {"qos_specs": {"consumer": "middle"}}, user="admin"
    )
    assert bad_update.status == 404


def test_every_route_is_the_admins(cinder):
    specs = make_qos(cinder)
    path = "/qos-specs/" + specs["id"]
    for method, route, body, action in (
        ("GET", "", None, "get"),
        ("GET", "/associations", None, "get_all"),
        ("PUT", "", {"qos_specs": {"a": "b"}}, "update"),
        ("DELETE", "", None, "delete"),
        ("PUT", "/delete_keys", {"keys": ["a"]}, "delete"),
        ("GET", "/associate?vol_type_id=" + DEFAULT_TYPE_ID, None, "update"),
        ("GET", "/disassociate_all", None, "update"),
    ):
        result = cinder.call(method, path + route, json=body)
        assert (result.status, message(result)) == (403, POLICY % action), route
    listed = cinder.get("/qos-specs")
    assert (listed.status, message(listed)) == (403, POLICY % "get_all")
    created = cinder.post("/qos-specs", {"qos_specs": {"name": "x"}})
    assert (created.status, message(created)) == (403, POLICY % "create")


def test_associations_and_delete(cinder):
    specs = make_qos(cinder)
    other = make_qos(cinder, name="other")
    gold, silver = make_type(cinder), make_type(cinder, "silver")
    path = "/qos-specs/" + specs["id"]
    for vtype in (gold, silver):
        result = cinder.get(path + "/associate?vol_type_id=" + vtype["id"], user="admin")
        assert result.status == 202, result.body
    again = cinder.get(path + "/associate?vol_type_id=" + gold["id"], user="admin")
    assert again.status == 202
    taken = cinder.get(
        "/qos-specs/%s/associate?vol_type_id=%s" % (other["id"], gold["id"]), user="admin"
    )
    assert (taken.status, message(taken)) == (
        400,
        "Invalid volume type: Type %s is already associated with another qos specs: %s"
        % (gold["id"], specs["id"]),
    )
    associations = cinder.get(path + "/associations", user="admin").json()
    assert associations == {
        "qos_associations": [
            {"association_type": "volume_type", "name": "gold", "id": gold["id"]},
            {"association_type": "volume_type", "name": "silver", "id": silver["id"]},
        ]
    }
    empty = cinder.get("/qos-specs/%s/associations" % other["id"], user="admin").json()
    assert empty == load("qos", "qos_show_response.json")
    # the admin's type view shows the association
    shown = cinder.get("/types/" + gold["id"], user="admin").json()["volume_type"]
    assert shown["qos_specs_id"] == specs["id"]
    no_type = cinder.get(path + "/associate", user="admin")
    assert (no_type.status, message(no_type)) == (400, "Volume Type id must not be None.")
    unknown = cinder.get(path + "/associate?vol_type_id=nosuch", user="admin")
    assert (unknown.status, message(unknown)) == (404, "Volume type nosuch could not be found.")
    in_use = cinder.delete(path, user="admin")
    assert (in_use.status, message(in_use)) == (400, "Qos specs still in use.")
    off = cinder.get(path + "/disassociate?vol_type_id=" + silver["id"], user="admin")
    assert off.status == 202
    listed = cinder.get(path + "/associations", user="admin").json()["qos_associations"]
    assert [a["name"] for a in listed] == ["gold"]
    bad_force = cinder.delete(path + "?force=maybe", user="admin")
    assert (bad_force.status, message(bad_force)) == (
        400,
        "Value 'maybe' for 'force' is not a boolean.",
    )
    assert cinder.delete(path + "?force=true", user="admin").status == 202
    shown = cinder.get("/types/" + gold["id"], user="admin").json()["volume_type"]
    assert shown["qos_specs_id"] is None
    assert cinder.get(path, user="admin").status == 404
    all_off = cinder.get("/qos-specs/%s/disassociate_all" % other["id"], user="admin")
    assert all_off.status == 202
    assert cinder.delete("/qos-specs/" + other["id"], user="admin").status == 202


def test_default_types_per_project(cinder):
    demo = cinder.projects["demo"]
    gold = make_type(cinder)
    path = "/default-types/" + demo
    assert cinder.get(path, user="admin", version="3.61").status == 404
    missing = cinder.get(path, user="admin")
    assert (missing.status, message(missing)) == (
        404,
        "Default type for project %s not found." % demo,
    )
    body = load("default_types", "set-default-type-request.json")
    unknown = cinder.put(path, body, user="admin")
    assert (unknown.status, message(unknown)) == (
        400,
        "Volume type with name lvm_backend could not be found.",
    )
    result = cinder.put(path, {"default_type": {"volume_type": "gold"}}, user="admin")
    assert result.status == 200, result.body
    assert_same_shape(result.json(), load("default_types", "set-default-type-response.json"))
    assert result.json()["default_type"] == {"project_id": demo, "volume_type_id": gold["id"]}
    shown = cinder.get(path, user="admin").json()
    assert_same_shape(shown, load("default_types", "get-default-type-response.json"))
    listed = cinder.get("/default-types", user="admin").json()
    assert listed == {"default_types": [result.json()["default_type"]]}
    # demo's volumes and GET /types/default now take gold; alt's do not
    assert cinder.create()["volume_type"] == "gold"
    assert cinder.get("/types/default").json()["volume_type"]["name"] == "gold"
    assert cinder.create(user="alt")["volume_type"] == "__DEFAULT__"
    # a project's default cannot be deleted
    refused = cinder.delete("/types/" + gold["id"], user="admin")
    assert (refused.status, message(refused)) == (
        400,
        "The volume type %s is a default volume type and cannot be deleted." % gold["id"],
    )
    for method, route in (("GET", path), ("GET", "/default-types"), ("DELETE", path)):
        denied = cinder.call(method, route)
        assert (denied.status, message(denied)) == (
            403,
            "You are not authorized to perform this operation.",
        ), (method, route)
    denied = cinder.put(path, {"default_type": {"volume_type": "gold"}})
    assert denied.status == 403
    assert cinder.delete(path, user="admin").status == 204
    assert cinder.delete(path, user="admin").status == 204
    assert cinder.get(path, user="admin").status == 404
    assert cinder.create()["volume_type"] == "__DEFAULT__"
