"""Tags of the local Neutron (``standard-attr-tag``, ``tag-creation``):
``/v2.0/{collection}/{id}/tags[/{tag}]``, ``tags`` in every taggable view,
the ``tags``/``tags-any``/``not-tags``/``not-tags-any`` filters, a port's
``tags`` on create, and neutron's refusals with its texts
(``neutron/extensions/tagging.py``, ``neutron/services/tag/tag_plugin.py``)."""

import pytest

from tests.unit.localcloud.network_harness import PRIVATE
from tests.unit.localcloud.network_harness import error


def _resources(neutron):
    """One fresh resource of demo's per taggable collection: (path, id, key)."""
    net = neutron.create("networks", "network", {"name": "t"})
    subnet = neutron.create(
        "subnets", "subnet", {"network_id": net["id"], "ip_version": 4, "cidr": "10.7.0.0/24"}
    )
    port = neutron.create("ports", "port", {"network_id": net["id"]})
    router = neutron.create("routers", "router", {"name": "r"})
    group = neutron.create("security-groups", "security_group", {"name": "g"})
    fip = neutron.create("floatingips", "floatingip", {"floating_network_id": neutron.public()})
    return [
        ("networks", net["id"], "network"),
        ("subnets", subnet["id"], "subnet"),
        ("ports", port["id"], "port"),
        ("routers", router["id"], "router"),
        ("security-groups", group["id"], "security_group"),
        ("floatingips", fip["id"], "floatingip"),
    ]


def test_every_taggable_collection_keeps_its_tags(neutron):
    for path, rid, member in _resources(neutron):
        base = "/%s/%s/tags" % (path, rid)
        assert neutron.get(base).json() == {"tags": []}
        put = neutron.put(base, {"tags": ["red", "blue"]})
        assert put.status == 200, put.body
        assert put.json() == {"tags": ["red", "blue"]}
        assert sorted(neutron.get(base).json()["tags"]) == ["blue", "red"]
        # the resource's own view, its list and its update answer show them
        assert sorted(neutron.get("/%s/%s" % (path, rid)).json()[member]["tags"]) == [
            "blue",
            "red",
        ]
        key = path.replace("-", "_")
        (listed,) = [i for i in neutron.get("/" + path).json()[key] if i["id"] == rid]
        assert sorted(listed["tags"]) == ["blue", "red"]
        updated = neutron.put("/%s/%s" % (path, rid), {member: {"description": "d"}})
        assert sorted(updated.json()[member]["tags"]) == ["blue", "red"]


def test_replace_add_check_remove(neutron):
    net = neutron.create("networks", "network", {"name": "t"})
    base = "/networks/%s/tags" % net["id"]
    neutron.put(base, {"tags": ["a", "b"]})
    assert sorted(neutron.put(base, {"tags": ["b", "c"]}).json()["tags"]) == ["b", "c"]
    assert sorted(neutron.get(base).json()["tags"]) == ["b", "c"]
    # tag-creation: POST adds (idempotent), answers the request's tags (200, as
    # neutron 29: tests/fixtures/network/realcloud/neutron-29-networks.json)
    created = neutron.post(base, {"tags": ["c", "d"]})
    assert (created.status, created.json()) == (200, {"tags": ["c", "d"]})
    assert sorted(neutron.get(base).json()["tags"]) == ["b", "c", "d"]
    added = neutron.put(base + "/e")
    assert added.status == 201
    assert neutron.put(base + "/e").status == 201  # once only
    assert sorted(neutron.get(base).json()["tags"]) == ["b", "c", "d", "e"]
    assert neutron.get(base + "/e").status == 204
    missing = neutron.get(base + "/zz")
    assert missing.status == 404
    assert error(missing) == ("TagNotFound", "Tag zz could not be found.")
    assert neutron.delete(base + "/e").status == 204
    gone = neutron.delete(base + "/e")
    assert gone.status == 404
    assert error(gone) == ("TagNotFound", "Tag e could not be found.")
    assert neutron.delete(base).status == 204
    assert neutron.get(base).json() == {"tags": []}


def test_tags_of_a_deleted_resource_are_dropped(neutron):
    net = neutron.create("networks", "network", {"name": "t"})
    neutron.put("/networks/%s/tags" % net["id"], {"tags": ["x"]})
    assert neutron.delete("/networks/%s" % net["id"]).status == 204
    with neutron.cloud.store.read() as db:
        left = db.execute(
            "SELECT COUNT(*) FROM network_tags WHERE resource_id = ?", (net["id"],)
        ).fetchone()[0]
    assert left == 0


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"tag": ["a"]}, "Invalid input for operation: Invalid tags body."),
        ([], "Invalid input for operation: Invalid tags body."),
        ({"tags": "a"}, "Invalid input for operation: 'a' is not a list."),
        ({"tags": ["a", "a"]}, "Invalid input for operation: Duplicate items in the list: 'a'."),
        ({"tags": [1]}, "Invalid input for operation: '1' is not a valid string."),
        (
            {"tags": ["x" * 256]},
            "Invalid input for operation: '%s' exceeds maximum length of 255." % ("x" * 256),
        ),
    ],
)
def test_bad_tag_bodies(neutron, body, message):
    net = neutron.create("networks", "network", {"name": "t"})
    for method in ("PUT", "POST"):
        result = neutron.call(method, "/networks/%s/tags" % net["id"], json=body)
        assert result.status == 400
        assert error(result) == ("InvalidInput", message)


def test_tag_limits(neutron):
    net = neutron.create("networks", "network", {"name": "t"})
    base = "/networks/%s/tags" % net["id"]
    assert neutron.put(base, {"tags": ["t%d" % i for i in range(50)]}).status == 200
    over = neutron.put(base, {"tags": ["t%d" % i for i in range(51)]})
    assert over.status == 400
    assert error(over) == (
        "BadRequest",
        "Bad networks request: The number of tags exceed the per-resource limit of 50.",
    )
    one_more = neutron.put(base + "/t50")
    assert one_more.status == 400
    assert "per-resource limit of 50" in error(one_more)[1]
    assert len(neutron.get(base).json()["tags"]) == 50
    long_tag = neutron.put(base + "/" + "y" * 256)
    assert long_tag.status == 400
    assert error(long_tag)[1].endswith("exceeds maximum length of 255.")
    assert neutron.put(base + "/" + "y" * 255).status == 400  # still over the count


def test_filters(neutron):
    made = {}
    for name, tags in (("n1", ["a", "b"]), ("n2", ["a"]), ("n3", ["c"]), ("n4", [])):
        net = neutron.create("networks", "network", {"name": name})
        neutron.put("/networks/%s/tags" % net["id"], {"tags": tags})
        made[net["id"]] = name

    def names(query):
        result = neutron.get("/networks?" + query)
        assert result.status == 200, result.body
        return sorted(made[n["id"]] for n in result.json()["networks"] if n["id"] in made)

    assert names("tags=a") == ["n1", "n2"]
    assert names("tags=a,b") == ["n1"]
    assert names("tags=a&tags=b") == ["n1"]
    assert names("tags-any=b,c") == ["n1", "n3"]
    assert names("not-tags=a,b") == ["n2", "n3", "n4"]
    assert names("not-tags-any=a&not-tags-any=c") == ["n4"]
    assert names("tags=a&not-tags=b") == ["n2"]
    # the seeded networks (no tags) pass the negative filters only
    assert PRIVATE in [n["id"] for n in neutron.get("/networks?not-tags=a").json()["networks"]]
    assert neutron.get("/networks?tags=a").json()["networks"] != []
    assert PRIVATE not in [n["id"] for n in neutron.get("/networks?tags=a").json()["networks"]]


def test_filters_never_show_another_projects_resources(neutron):
    mine = neutron.create("networks", "network", {"name": "alt-net"}, user="alt")
    neutron.put("/networks/%s/tags" % mine["id"], {"tags": ["secret"]}, user="alt")
    assert neutron.get("/networks?tags=secret").json()["networks"] == []
    assert neutron.get("/networks?tags-any=secret,x").json()["networks"] == []
    assert mine["id"] not in [
        n["id"] for n in neutron.get("/networks?not-tags=zz").json()["networks"]
    ]
    assert [
        n["id"] for n in neutron.get("/networks?tags=secret", user="alt").json()["networks"]
    ] == [mine["id"]]


def test_tag_filters_only_where_there_are_tags(neutron):
    rules = neutron.get("/networks?tags-anyx=a")
    assert rules.status == 400
    assert error(rules)[1] == "['tags-anyx'] is invalid attribute for filtering"


def test_another_projects_resource_is_its_404(neutron):
    net = neutron.create("networks", "network", {"name": "t"})
    base = "/networks/%s/tags" % net["id"]
    for method, path, body in (
        ("GET", base, None),
        ("PUT", base, {"tags": ["a"]}),
        ("POST", base, {"tags": ["a"]}),
        ("DELETE", base, None),
        ("GET", base + "/a", None),
        ("PUT", base + "/a", None),
        ("DELETE", base + "/a", None),
    ):
        result = neutron.call(method, path, json=body, user="alt")
        assert result.status == 404, (method, path)
        assert error(result) == ("NetworkNotFound", "Network %s could not be found." % net["id"])
    assert neutron.get(base).json() == {"tags": []}


def test_a_shared_network_is_read_not_tagged_by_others(neutron):
    base = "/networks/%s/tags" % PRIVATE
    assert neutron.put(base, {"tags": ["ops"]}, user="admin").status == 200
    assert neutron.get(base).json() == {"tags": ["ops"]}
    assert neutron.get(base + "/ops").status == 204
    for method, path, body, rule in (
        ("PUT", base, {"tags": ["mine"]}, "update"),
        ("POST", base, {"tags": ["mine"]}, "create"),
        ("PUT", base + "/mine", None, "update"),
        ("DELETE", base, None, "delete"),
        ("DELETE", base + "/ops", None, "delete"),
    ):
        result = neutron.call(method, path, json=body)
        assert result.status == 403, (method, path)
        assert error(result) == (
            "PolicyNotAuthorized",
            "rule:%s_network:tags is disallowed by policy" % rule,
        )
    assert neutron.get(base).json() == {"tags": ["ops"]}


def test_a_ports_tags_on_create_are_checked_then_ignored(neutron):
    # as neutron 29 without ML2's tag_ports_during_bulk_creation driver
    # (tests/fixtures/network/realcloud/neutron-29-ports.json)
    port = neutron.create("ports", "port", {"network_id": PRIVATE, "tags": ["p1", "p2"]})
    assert port["tags"] == []
    assert neutron.get("/ports/%s/tags" % port["id"]).json() == {"tags": []}
    bad = neutron.post("/ports", {"port": {"network_id": PRIVATE, "tags": ["p", "p"]}})
    assert bad.status == 400
    assert error(bad)[1] == "Invalid input for tags. Reason: Duplicate items in the list: 'p'."
    update = neutron.put("/ports/%s" % port["id"], {"port": {"tags": ["x"]}})
    assert update.status == 400
    assert error(update)[1] == "Cannot update read-only attribute tags"
    network = neutron.post("/networks", {"network": {"name": "n", "tags": ["x"]}})
    assert network.status == 400
    assert error(network)[1] == "Attribute 'tags' not allowed in POST"
    update = neutron.put("/networks/%s" % PRIVATE, {"network": {"tags": ["x"]}}, user="admin")
    assert error(update)[1] == "Cannot update read-only attribute tags"


def test_the_extensions_are_listed(neutron):
    aliases = {e["alias"] for e in neutron.get("/extensions").json()["extensions"]}
    assert {"standard-attr-tag", "tag-creation"} <= aliases
    assert "tag-ports-during-bulk-creation" not in aliases  # as neutron 29's defaults
