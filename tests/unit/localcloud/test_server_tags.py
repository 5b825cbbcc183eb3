"""``/servers/{id}/tags`` (2.26+) and the tag filters of the server list in
the local cloud, compared with what real nova 34 answered
(``tests/fixtures/compute/realcloud/nova-34-server-groups-tags-filters.json``)."""

import pytest

from tests.unit.localcloud.realcloud import Recorded
from tests.unit.localcloud.realcloud import assert_like

REC = Recorded("nova-34-server-groups-tags-filters.json")
V = "2.26"


@pytest.fixture
def server(nova):
    return nova.create(name="tagged")


def replace_ids(nova, server):
    """Real ids in recorded messages → the local ones."""
    return [(REC.ids["tagged"], server), (REC.ids["error_server"], server)]


def put_tags(nova, server, body, version=V):
    return nova.put("/servers/%s/tags" % server, body, version=version)


def tags_of(nova, server):
    return nova.get("/servers/%s/tags" % server, version=V).json()["tags"]


def test_routes_start_at_2_26(nova, server):
    assert_like(nova.get("/servers/%s/tags" % server, version="2.25"), REC, "tags_v225")
    assert nova.put("/servers/%s/tags/a" % server, version="2.25").status == 404


def test_replace_add_show_delete(nova, server):
    result = put_tags(nova, server, {"tags": ["a", "b", "b"]})
    assert result.status == 200 and result.json() == REC["tags_put_all"]["body"]
    added = nova.put("/servers/%s/tags/c" % server, version=V)
    assert added.status == REC["tags_put_one"]["status"] == 201
    assert added.header("Location").endswith("/servers/%s/tags/c" % server)
    again = nova.put("/servers/%s/tags/c" % server, version=V)
    assert again.status == REC["tags_put_one_again"]["status"] == 204
    assert tags_of(nova, server) == REC["tags_list"]["body"]["tags"] == ["a", "b", "c"]
    assert nova.get("/servers/%s/tags/c" % server, version=V).status == 204
    ids = replace_ids(nova, server)
    assert_like(nova.get("/servers/%s/tags/zz" % server, version=V), REC, "tags_show_missing", ids)
    assert_like(
        nova.delete("/servers/%s/tags/zz" % server, version=V), REC, "tags_delete_missing", ids
    )
    assert nova.delete("/servers/%s/tags/c" % server, version=V).status == 204
    shown = nova.show(server, version=V)
    assert shown["tags"] == REC["server_show_v226"]["body"]["server"]["tags"] == ["a", "b"]
    assert "tags" not in nova.show(server, version="2.25")
    assert nova.delete("/servers/%s/tags" % server, version=V).status == 204
    assert tags_of(nova, server) == []


@pytest.mark.parametrize(
    "key",
    [
        "tags_put_all_comma",
        "tags_put_all_slash",
        "tags_put_all_empty_tag",
        "tags_put_all_long",
        "tags_put_all_51",
        "tags_put_all_no_key",
        "tags_put_all_not_list",
    ],
)
def test_bad_tag_lists(nova, server, key):
    put_tags(nova, server, {"tags": ["keep"]})
    result = put_tags(nova, server, REC[key]["request"]["body"])
    if key == "tags_put_all_51":  # the local text shortens the value shown
        status, name, message = REC.fault(key)
        assert result.status == status and message.endswith("is too long")
        assert result.json()[name]["message"].endswith("is too long")
    else:
        assert_like(result, REC, key)
    assert tags_of(nova, server) == ["keep"]


@pytest.mark.parametrize("key", ["tags_put_one_body", "tags_put_one_comma", "tags_put_one_long"])
def test_bad_single_tags(nova, server, key):
    request = REC[key]["request"]
    path = request["path"].replace(REC.ids["tagged"], server)
    assert_like(nova.put(path, request.get("body"), version=V), REC, key)
    assert tags_of(nova, server) == []


def test_fifty_tags_at_most(nova, server):
    assert put_tags(nova, server, {"tags": ["t%d" % i for i in range(50)]}).status == 200
    for key, tag in (("tags_put_one_when_50", "new"), ("tags_put_one_existing_when_50", "t1")):
        assert_like(nova.put("/servers/%s/tags/%s" % (server, tag), version=V), REC, key)
    assert len(tags_of(nova, server)) == 50


def test_error_server_reads_but_never_changes_tags(nova):
    body = {
        "server": {"name": "bad", "flavorRef": "1", "imageRef": "", "networks": "none"},
        "os:scheduler_hints": {"same_host": "3c6b9c8f-7f3a-4e8e-9d1a-0a0b0c0d0e0f"},
    }
    from tests.unit.localcloud.compute_harness import CIRROS

    body["server"]["imageRef"] = CIRROS
    server = nova.post("/servers", body, version="2.64").json()["server"]["id"]
    assert nova.show(server)["status"] == "ERROR"
    ids = replace_ids(nova, server)
    assert_like(
        nova.put("/servers/%s/tags/e" % server, version=V), REC, "tags_error_server_put", ids
    )
    assert_like(put_tags(nova, server, {"tags": ["e"]}), REC, "tags_error_server_put_all", ids)
    assert_like(
        nova.delete("/servers/%s/tags" % server, version=V),
        REC,
        "tags_error_server_delete_all",
        ids,
    )
    listed = nova.get("/servers/%s/tags" % server, version=V)
    assert listed.status == 200 and listed.json() == REC["tags_error_server_list"]["body"]


def test_other_projects_server_is_not_found(nova):
    admins = nova.create(user="admin", name="admins")
    missing = "0c5e4cf5-7f2e-4d4b-8f55-5d9a3c1e2b77"
    real_missing = REC["tags_missing_server"]["request"]["path"].split("/")[2]
    assert_like(
        nova.get("/servers/%s/tags" % missing, version=V),
        REC,
        "tags_missing_server",
        [(real_missing, missing)],
    )
    # nova 34 answers 403 (policy) for another project's server, telling it
    # exists; here it is not found, like a missing one
    for method in ("GET", "PUT"):
        result = nova.call(method, "/servers/%s/tags/x" % admins, version=V)
        assert result.status == 404
        assert "has no mapping to a cell" in result.json()["itemNotFound"]["message"]
    assert nova.call("PUT", "/servers/%s/tags/x" % admins, user="admin", version=V).status == 201


@pytest.mark.parametrize(
    "query",
    [
        "tags=a",
        "tags=a,b",
        "tags=a,zz",
        "tags-any=zz,b",
        "not-tags=a,b",
        "not-tags=a,zz",
        "not-tags-any=zz,a",
        "not-tags-any=zz",
    ],
)
def test_tag_filters_as_nova(nova, query):
    tagged = nova.create(name="tagged")
    other = nova.create(name="other")
    put_tags(nova, tagged, {"tags": ["a", "b"]})
    recorded = {s["name"] for s in REC["filter_" + query]["body"]["servers"]}
    found = nova.get("/servers?" + query, version=V).json()["servers"]
    assert ("tagged" in recorded) == (tagged in {s["id"] for s in found})
    # the real list had untagged servers besides "tagged"
    assert bool(recorded - {"tagged"}) == (other in {s["id"] for s in found})
    # before 2.26 the tag filters are ignored
    assert len(nova.get("/servers?tags=zz", version="2.25").json()["servers"]) == 2
