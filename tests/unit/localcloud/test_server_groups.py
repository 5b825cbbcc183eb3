"""``/os-server-groups`` and the ``group`` scheduler hint in the local cloud,
compared with what real nova 34 answered
(``tests/fixtures/compute/realcloud/nova-34-server-groups-tags-filters.json``)."""

import pytest

from tests.shape import DEFAULT_MAPS
from tests.unit.localcloud.compute_harness import CIRROS
from tests.unit.localcloud.compute_harness import Nova
from tests.unit.localcloud.compute_harness import make_cloud
from tests.unit.localcloud.realcloud import Recorded
from tests.unit.localcloud.realcloud import assert_like
from tests.unit.localcloud.realcloud import assert_shape_like
from tests.unit.localcloud.realcloud import fault_of

REC = Recorded("nova-34-server-groups-tags-filters.json")
MAPS = DEFAULT_MAPS | {"rules"}
NO_VALID_HOST = "No valid host was found. There are not enough hosts available."


@pytest.fixture
def two_hosts(tmp_path):
    cloud = make_cloud(tmp_path / "data", compute_hosts=2)
    yield Nova(cloud)
    cloud.close()


def create(nova, key=None, body=None, user="demo", version=None):
    """POST /os-server-groups with the recorded request ``key`` (or ``body``)."""
    if key is not None:
        request = REC[key]["request"]
        body, version = request["body"], version or request["version"]
    return nova.post("/os-server-groups", body, user=user, version=version)


def group_id(result):
    assert result.status == 200, result.body
    return result.json()["server_group"]["id"]


def boot(nova, group, user="demo", version="2.64", expect=202, **server):
    server.setdefault("name", "vm")
    body = {
        "server": dict(server, flavorRef="1", imageRef=CIRROS),
        "os:scheduler_hints": {"group": group},
    }
    if version >= "2.37":
        body["server"]["networks"] = "none"
    result = nova.post("/servers", body, user=user, version=version)
    assert result.status == expect, result.body
    return result


@pytest.mark.parametrize(
    "key",
    [
        "create_v21_soft",
        "create_v21_two",
        "create_v21_empty",
        "create_v21_policy_key",
        "create_v21_no_name",
        "create_v21_blank_name",
        "create_v264_rules_affinity",
        "create_v264_policies",
        "create_v264_bad_policy",
        "create_v264_zero",
        "create_v264_unknown_rule",
        "create_v264_no_policy",
        "create_extra",
    ],
)
def test_bad_create_bodies_are_refused_as_by_nova(shared_nova, key):
    before = shared_nova.get("/os-server-groups", version="2.64").json()
    assert_like(create(shared_nova, key), REC, key)
    assert shared_nova.get("/os-server-groups", version="2.64").json() == before


@pytest.mark.parametrize(
    "key",
    [
        "create_v21",
        "create_v213",
        "create_v215_soft",
        "create_v264",
        "create_v264_norules",
        "create_v264_rules_empty_affinity",
    ],
)
def test_create_shapes_by_microversion(shared_nova, key):
    result = create(shared_nova, key)
    assert_shape_like(result, REC, key)
    group = result.json()["server_group"]
    recorded = REC[key]["body"]["server_group"]
    for name in ("name", "policies", "policy", "rules", "metadata", "members"):
        assert group.get(name) == recorded.get(name)


def test_string_rule_is_stored_as_a_number(nova):
    result = create(nova, "create_v264_string")
    assert result.json()["server_group"]["rules"] == {"max_server_per_host": 3}


def test_list_show_and_paging(nova):
    ids = [
        group_id(create(nova, body=REC[k]["request"]["body"], version="2.64"))
        for k in ("create_v264", "create_v264_norules", "create_v264_rules_empty_affinity")
    ]
    listed = nova.get("/os-server-groups", version="2.64").json()["server_groups"]
    assert [g["id"] for g in listed] == ids
    assert_shape_like(nova.get("/os-server-groups", version="2.64"), REC, "list_v264", maps=MAPS)
    assert_shape_like(nova.get("/os-server-groups", version="2.1"), REC, "list_v21")
    page = nova.get("/os-server-groups?limit=1&offset=1", version="2.64").json()
    assert [g["id"] for g in page["server_groups"]] == ids[1:2]
    assert_like(nova.get("/os-server-groups?limit=-1", version="2.64"), REC, "list_bad_limit")
    assert nova.get("/os-server-groups?foo=1", version="2.74").status == 200
    assert_like(
        nova.get("/os-server-groups?foo=1", version="2.75"), REC, "list_unknown_param_v275"
    )
    assert_shape_like(
        nova.get("/os-server-groups/" + ids[0], version="2.64"), REC, "show_v264", maps=MAPS
    )
    assert_shape_like(nova.get("/os-server-groups/" + ids[0], version="2.1"), REC, "show_v21")


def test_other_projects_groups_are_not_found_and_all_projects_is_for_admins(nova):
    mine = group_id(create(nova, "create_v264"))
    admins = group_id(create(nova, "create_admin", user="admin"))
    missing = REC.ids["missing_group"]
    for key, path in (("show_missing", missing), ("show_not_uuid", "nope")):
        assert_like(nova.get("/os-server-groups/" + path, version="2.64"), REC, key)
    real_admin_group = REC["create_admin"]["body"]["server_group"]["id"]
    replace = [(real_admin_group, admins)]
    assert_like(
        nova.get("/os-server-groups/" + admins, version="2.64"), REC, "show_other_project", replace
    )
    assert_like(
        nova.delete("/os-server-groups/" + admins, version="2.64"),
        REC,
        "delete_other_project",
        replace,
    )
    # a member asking for every project silently gets its own (nova)
    listed = nova.get("/os-server-groups?all_projects=True", version="2.64").json()
    assert [g["id"] for g in listed["server_groups"]] == [mine]
    everything = nova.get("/os-server-groups?all_projects", user="admin", version="2.64").json()
    assert {g["id"] for g in everything["server_groups"]} == {mine, admins}
    assert nova.get("/os-server-groups/" + mine, user="admin").status == 200
    assert nova.delete("/os-server-groups/" + admins, user="admin").status == 204
    assert_like(nova.delete("/os-server-groups/" + missing), REC, "delete_missing")


def test_third_anti_affinity_member_on_two_hosts_is_no_valid_host(two_hosts):
    nova = two_hosts
    group = group_id(
        create(
            nova,
            body={"server_group": {"name": "anti", "policy": "anti-affinity"}},
            version="2.64",
        )
    )
    ids = [boot(nova, group, name="a%d" % i).json()["server"]["id"] for i in range(3)]
    shown = [nova.show(i, version="2.64") for i in ids]
    hosts = {s["OS-EXT-SRV-ATTR:host"] for s in nova_admin_show(nova, ids[:2])}
    assert hosts == {"host1", "host2"}
    assert [s["status"] for s in shown] == ["ACTIVE", "ACTIVE", "ERROR"]
    recorded = REC["server_anti_2_member"]["server"]["fault"]
    assert shown[2]["fault"]["message"] == recorded["message"] == NO_VALID_HOST
    assert shown[2]["fault"]["code"] == recorded["code"]
    members = nova.get("/os-server-groups/" + group, version="2.64").json()["server_group"]
    assert members["members"] == ids  # the ERROR one too, as nova lists it
    # 2.71: the group in the server's view
    assert nova.show(ids[0], version="2.71")["server_groups"] == [group]
    assert nova.show(ids[0], version="2.70").get("server_groups") is None
    # deleting a member frees its host
    assert nova.delete("/servers/" + ids[0]).status == 204
    listed = nova.get("/os-server-groups/" + group).json()["server_group"]["members"]
    assert listed == ids[1:]
    again = boot(nova, group, name="a3").json()["server"]["id"]
    assert nova.show(again)["status"] == "ACTIVE"


def nova_admin_show(nova, ids):
    return [nova.show(i, user="admin", version="2.64") for i in ids]


def test_max_server_per_host_and_affinity(two_hosts):
    nova = two_hosts
    body = {
        "server_group": {
            "name": "g",
            "policy": "anti-affinity",
            "rules": {"max_server_per_host": 2},
        }
    }
    group = group_id(create(nova, body=body, version="2.64"))
    boot(nova, group, min_count=4, max_count=4)
    servers = nova.get("/servers/detail?all_tenants=1", user="admin", version="2.64").json()[
        "servers"
    ]
    hosts = sorted(s["OS-EXT-SRV-ATTR:host"] for s in servers)
    assert hosts == ["host1", "host1", "host2", "host2"]
    boot(nova, group, name="fifth")
    fifth = [s for s in nova.get("/servers/detail").json()["servers"] if s["name"] == "fifth"]
    assert fifth[0]["status"] == "ERROR"
    # affinity: every member on the first member's host
    aff = group_id(
        create(nova, body={"server_group": {"name": "a", "policy": "affinity"}}, version="2.64")
    )
    boot(nova, aff, name="aff", min_count=3, max_count=3)
    placed = [
        s
        for s in nova.get("/servers/detail?all_tenants=1", user="admin").json()["servers"]
        if s["name"].startswith("aff")
    ]
    assert len({s["OS-EXT-SRV-ATTR:host"] for s in placed}) == 1
    assert {s["status"] for s in placed} == {"ACTIVE"}


def test_soft_policies_weigh_but_never_fail(two_hosts):
    nova = two_hosts
    soft = group_id(
        create(
            nova,
            body={"server_group": {"name": "s", "policies": ["soft-anti-affinity"]}},
            version="2.15",
        )
    )
    boot(nova, soft, name="s", min_count=3, max_count=3, version="2.15")
    servers = nova.get("/servers/detail?all_tenants=1", user="admin").json()["servers"]
    assert {s["status"] for s in servers} == {"ACTIVE"}
    assert sorted(s["OS-EXT-SRV-ATTR:host"] for s in servers) == ["host1", "host1", "host2"]
    together = group_id(
        create(
            nova, body={"server_group": {"name": "t", "policy": "soft-affinity"}}, version="2.64"
        )
    )
    boot(nova, together, name="t", min_count=2, max_count=2)
    placed = [
        s
        for s in nova.get("/servers/detail?all_tenants=1", user="admin").json()["servers"]
        if s["name"].startswith("t")
    ]
    assert len({s["OS-EXT-SRV-ATTR:host"] for s in placed}) == 1


def test_group_hint_errors(nova):
    admins = group_id(create(nova, "create_admin", user="admin"))
    real_missing = REC["boot_group_missing"]["request"]["body"]["os:scheduler_hints"]["group"]
    result = boot(nova, real_missing, expect=400)
    assert_like(result, REC, "boot_group_missing")
    # nova reports the oneOf ("… is not valid under any of the given
    # schemas"), the local schema check its best match: the status only
    assert boot(nova, "not-a-uuid", expect=400).status == REC["boot_group_not_uuid"]["status"]
    real_admin_group = REC["create_admin"]["body"]["server_group"]["id"]
    assert_like(
        boot(nova, admins, expect=400),
        REC,
        "boot_group_other_project",
        [(real_admin_group, admins)],
    )
    # nova 34 answers a list with a 500 (DBError); here a one-item list is the group
    assert boot(nova, [admins], expect=400).status == 400
    assert nova.get("/servers").json()["servers"] == []


def test_quotas_on_groups_and_members(nova):
    demo = nova.project_id("demo")
    quota = {"quota_set": {"server_group_members": 2, "server_groups": 1}}
    assert nova.put("/os-quota-sets/" + demo, quota, user="admin").status == 200
    group = group_id(create(nova, "create_v264_norules"))
    assert_like(create(nova, "create_over_quota"), REC, "create_over_groups_quota")
    boot(nova, group, min_count=2, max_count=2)
    assert_like(boot(nova, group, expect=403), REC, "boot_aff_over_members")
    limits = nova.get("/limits").json()["limits"]["absolute"]
    assert limits["totalServerGroupsUsed"] == 1
    assert limits["maxServerGroupMembers"] == 2
    detail = nova.get("/os-quota-sets/%s/detail" % demo).json()["quota_set"]
    assert detail["server_groups"]["in_use"] == 1
    assert detail["server_group_members"]["in_use"] == 0  # as nova reports it
    # a group delete frees the group quota; its servers stay
    assert nova.delete("/os-server-groups/" + group).status == 204
    assert len(nova.get("/servers").json()["servers"]) == 2
    assert create(nova, "create_v264_norules").status == 200


def test_empty_body_is_a_bad_request_and_changes_nothing(nova):
    assert fault_of(nova.post("/os-server-groups", {}, version="2.64"))[:2] == (400, "badRequest")
    assert nova.get("/os-server-groups").json() == {"server_groups": []}
