"""Bulk create in the local Neutron (``neutron/api/v2/base.py``):
``{"<collection>": [...]}`` answers ``{"<collection>": [...]}`` (201), all or
none (one refused item creates nothing), every item counted against the
quotas; views against neutron-lib's bulk samples
(tests/fixtures/network/{networks,ports}/*-bulk-create-*.json)."""

import json
import pathlib

import pytest

from tests.unit.localcloud.network_harness import PRIVATE
from tests.unit.localcloud.network_harness import error

SAMPLES = pathlib.Path(__file__).parents[2] / "fixtures" / "network"
# request keys of extensions not served here
NOT_SERVED = {"qos_policy_id", "hardware_offload_type"}


def sample(folder, name):
    return json.loads((SAMPLES / folder / name).read_text())


def _count(neutron, collection, user="demo"):
    key = collection.replace("-", "_")
    return len(neutron.get("/" + collection, user=user).json()[key])


def _served(items):
    return [{k: v for k, v in item.items() if k not in NOT_SERVED} for item in items]


def test_networks_from_the_sample(neutron):
    items = _served(sample("networks", "networks-bulk-create-request.json")["networks"])
    result = neutron.post("/networks", {"networks": items})
    assert result.status == 201, result.body
    created = result.json()["networks"]
    assert [n["name"] for n in created] == ["sample_network3", "sample_network4"]
    expected = sample("networks", "networks-bulk-create-response.json")["networks"][0]
    for network in created:
        assert set(network) <= set(expected) | {"is_default"}
        assert neutron.get("/networks/" + network["id"]).status == 200
    assert len({n["id"] for n in created}) == 2


def test_ports_from_the_sample_with_tags(neutron):
    items = _served(sample("ports", "ports-bulk-create-request.json")["ports"])
    for item in items:
        item["network_id"] = PRIVATE
    items[0]["tags"] = ["bulk"]
    result = neutron.post("/ports", {"ports": items})
    assert result.status == 201, result.body
    created = result.json()["ports"]
    assert [p["name"] for p in created] == ["sample_port_1", "sample_port_2"]
    assert [p["admin_state_up"] for p in created] == [False, False]
    # checked, then ignored: neutron 29 without ML2's
    # tag_ports_during_bulk_creation driver (realcloud/neutron-29-ports.json)
    assert [p["tags"] for p in created] == [[], []]
    expected = sample("ports", "ports-bulk-create-response.json")["ports"][0]
    assert set(created[0]) <= set(expected) | {"binding:vnic_type"}
    addresses = {p["fixed_ips"][0]["ip_address"] for p in created}
    assert len(addresses) == 2


def test_items_may_name_their_member(neutron):
    body: dict[str, list] = {"subnets": []}
    net = neutron.create("networks", "network", {"name": "b"})
    for cidr in ("10.5.1.0/24", "10.5.2.0/24"):
        body["subnets"].append(
            {"subnet": {"network_id": net["id"], "ip_version": 4, "cidr": cidr}}
        )
    result = neutron.post("/subnets", body)
    assert result.status == 201, result.body
    assert [s["cidr"] for s in result.json()["subnets"]] == ["10.5.1.0/24", "10.5.2.0/24"]


@pytest.mark.parametrize(
    ("collection", "member", "body"),
    [
        ("routers", "router", {"name": "r"}),
        ("security-groups", "security_group", {"name": "g"}),
    ],
)
def test_other_collections(neutron, collection, member, body):
    key = collection.replace("-", "_")
    result = neutron.post("/" + collection, {key: [body, dict(body, name="second")]})
    assert result.status == 201, result.body
    assert [i["name"] for i in result.json()[key]] == [body["name"], "second"]


def test_one_bad_item_creates_none(neutron):
    before = _count(neutron, "networks")
    result = neutron.post("/networks", {"networks": [{"name": "ok"}, {"name": 5}]})
    assert result.status == 400
    assert error(result)[1] == "Invalid input for name. Reason: '5' is not a valid string."
    assert _count(neutron, "networks") == before
    ports_before = _count(neutron, "ports")
    result = neutron.post(
        "/ports",
        {"ports": [{"network_id": PRIVATE}, {"network_id": PRIVATE, "mac_address": "zz"}]},
    )
    assert result.status == 400
    assert _count(neutron, "ports") == ports_before


def test_a_refused_item_creates_none(neutron):
    before = _count(neutron, "networks")
    result = neutron.post("/networks", {"networks": [{"name": "ok"}, {"shared": True}]})
    assert result.status == 403
    assert error(result) == (
        "PolicyNotAuthorized",
        "(rule:create_network and rule:create_network:shared) is disallowed by policy",
    )
    assert _count(neutron, "networks") == before


def test_quotas_count_every_item(neutron):
    project = neutron.project_id("demo")
    used = len(
        [n for n in neutron.get("/networks").json()["networks"] if n["project_id"] == project]
    )
    limit = neutron.put("/quotas/" + project, {"quota": {"network": used + 1}}, user="admin")
    assert limit.status == 200, limit.body
    result = neutron.post("/networks", {"networks": [{"name": "a"}, {"name": "b"}]})
    assert result.status == 409
    assert error(result) == ("OverQuota", "Quota exceeded for resources: ['network'].")
    assert _count(neutron, "networks") == used + 2  # the shared and external seeds
    assert neutron.post("/networks", {"networks": [{"name": "a"}]}).status == 201


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"networks": []}, "Resources required"),
        ({"networks": {"name": "x"}}, "Body contains invalid data"),
        ({"networks": "x"}, "Body contains invalid data"),
    ],
)
def test_bad_bulk_bodies(neutron, body, message):
    before = _count(neutron, "networks")
    result = neutron.post("/networks", body)
    assert result.status == 400
    assert error(result) == ("HTTPBadRequest", message)
    assert _count(neutron, "networks") == before


def test_security_group_rules_from_the_sample(neutron):
    group = neutron.create("security-groups", "security_group", {"name": "web"})
    items = sample("security-groups", "security-group-rule-bulk-create-request.json")
    rules = []
    for item in items["security_group_rules"]:
        item = {k: v for k, v in item.items() if k != "remote_address_group_id"}
        rules.append(dict(item, security_group_id=group["id"], remote_group_id=group["id"]))
    result = neutron.post("/security-group-rules", {"security_group_rules": rules})
    assert result.status == 201, result.body
    created = result.json()["security_group_rules"]
    assert [(r["port_range_min"], r["port_range_max"]) for r in created] == [(80, 80), (443, 443)]
    expected = sample("security-groups", "security-group-rule-bulk-create-response.json")
    # the sample predates remote_address_group_id and normalized_cidr in the
    # view (neutron 29 shows both: neutron-29-security_groups.json)
    assert set(created[0]) <= set(expected["security_group_rules"][0]) | {
        "remote_address_group_id",
        "normalized_cidr",
    }
    shown = neutron.get("/security-groups/" + group["id"]).json()["security_group"]
    assert {r["id"] for r in created} <= {r["id"] for r in shown["security_group_rules"]}
