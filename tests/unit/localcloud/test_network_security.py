"""Security groups, their rules and floating IPs of the local Neutron."""

import pytest

from tests.unit.localcloud.network_harness import PRIVATE
from tests.unit.localcloud.network_harness import error


def _group(neutron, name="web", user="demo"):
    return neutron.create("security-groups", "security_group", {"name": name}, user=user)


def _rule(neutron, group_id, **body):
    body.setdefault("direction", "ingress")
    return neutron.post(
        "/security-group-rules", {"security_group_rule": {"security_group_id": group_id, **body}}
    )


def test_default_group_is_made_on_first_list(neutron):
    (group,) = neutron.get("/security-groups").json()["security_groups"]
    assert (group["name"], group["description"]) == ("default", "Default security group")
    rules = {
        (r["direction"], r["ethertype"], r["remote_group_id"])
        for r in group["security_group_rules"]
    }
    assert rules == {
        ("egress", "IPv4", None),
        ("egress", "IPv6", None),
        ("ingress", "IPv4", group["id"]),
        ("ingress", "IPv6", group["id"]),
    }
    # once per project
    assert len(neutron.get("/security-groups").json()["security_groups"]) == 1
    (alt_group,) = neutron.get("/security-groups", user="alt").json()["security_groups"]
    assert alt_group["id"] != group["id"]
    assert neutron.get("/security-groups/" + alt_group["id"]).status == 404


def test_create_update_delete_group(neutron):
    group = _group(neutron)
    assert {(r["direction"], r["ethertype"]) for r in group["security_group_rules"]} == {
        ("egress", "IPv4"),
        ("egress", "IPv6"),
    }
    assert group["stateful"] is True
    renamed = neutron.put("/security-groups/" + group["id"], {"security_group": {"name": "www"}})
    assert renamed.json()["security_group"]["name"] == "www"
    assert neutron.delete("/security-groups/" + group["id"]).status == 204
    assert neutron.get("/security-groups/" + group["id"]).status == 404
    refused = neutron.post("/security-groups", {"security_group": {"name": "default"}})
    assert refused.status == 409
    assert error(refused) == (
        "SecurityGroupDefaultAlreadyExists",
        "Default security group already exists.",
    )


def test_default_group_is_kept(neutron):
    (default,) = neutron.get("/security-groups").json()["security_groups"]
    refused = neutron.delete("/security-groups/" + default["id"])
    assert refused.status == 409
    assert error(refused) == (
        "SecurityGroupCannotRemoveDefault",
        "Insufficient rights for removing default security group.",
    )
    renamed = neutron.put("/security-groups/" + default["id"], {"security_group": {"name": "x"}})
    assert renamed.status == 409
    assert error(renamed)[0] == "SecurityGroupCannotUpdateDefault"


def test_group_in_use(neutron):
    group = _group(neutron)
    port = neutron.create(
        "ports", "port", {"network_id": PRIVATE, "security_groups": [group["id"]]}
    )
    refused = neutron.delete("/security-groups/" + group["id"])
    assert refused.status == 409
    assert error(refused) == ("SecurityGroupInUse", "Security Group %s in use." % group["id"])
    neutron.delete("/ports/" + port["id"])
    assert neutron.delete("/security-groups/" + group["id"]).status == 204


def test_rules(neutron):
    group = _group(neutron)
    made = _rule(
        neutron,
        group["id"],
        protocol="tcp",
        port_range_min=22,
        port_range_max=22,
        remote_ip_prefix="10.0.0.0/8",
    )
    assert made.status == 201
    rule = made.json()["security_group_rule"]
    assert (rule["protocol"], rule["port_range_min"], rule["remote_ip_prefix"]) == (
        "tcp",
        22,
        "10.0.0.0/8",
    )
    shown = neutron.get("/security-groups/" + group["id"]).json()["security_group"]
    assert rule["id"] in [r["id"] for r in shown["security_group_rules"]]
    again = _rule(
        neutron,
        group["id"],
        protocol="tcp",
        port_range_min=22,
        port_range_max=22,
        remote_ip_prefix="10.0.0.0/8",
    )
    assert again.status == 409
    assert error(again) == (
        "SecurityGroupRuleExists",
        "Security group rule already exists. Rule id is %s." % rule["id"],
    )
    assert neutron.get("/security-group-rules/" + rule["id"], user="alt").status == 404
    assert neutron.delete("/security-group-rules/" + rule["id"], user="alt").status == 404
    assert neutron.delete("/security-group-rules/" + rule["id"]).status == 204
    missing = neutron.get("/security-group-rules/" + rule["id"])
    assert error(missing) == (
        "SecurityGroupRuleNotFound",
        "Security group rule %s does not exist" % rule["id"],
    )


@pytest.mark.parametrize(
    "body,kind",
    [
        (
            {"protocol": "tcp", "port_range_min": 90, "port_range_max": 80},
            "SecurityGroupInvalidPortRange",
        ),
        ({"port_range_min": 80}, "SecurityGroupProtocolRequiredWithPorts"),
        ({"protocol": "carrier-pigeon"}, "SecurityGroupRuleInvalidProtocol"),
        ({"protocol": "icmp", "port_range_min": 300}, "SecurityGroupInvalidIcmpValue"),
        ({"protocol": "icmp", "port_range_max": 3}, "SecurityGroupMissingIcmpType"),
        ({"remote_ip_prefix": "::/0"}, "SecurityGroupRuleParameterConflict"),
        ({"remote_ip_prefix": "nonsense"}, "InvalidCIDR"),
        ({"direction": "sideways"}, "HTTPBadRequest"),
        ({"ethertype": "IPv5"}, "HTTPBadRequest"),
        ({"port_range_min": 70000, "protocol": "tcp"}, "SecurityGroupInvalidPortValue"),
    ],
)
def test_bad_rules(neutron, body, kind):
    group = _group(neutron)
    result = _rule(neutron, group["id"], **body)
    assert result.status == 400, result.body
    assert error(result)[0] == kind


def test_rule_in_another_projects_group(neutron):
    alt_group = _group(neutron, user="alt")
    result = _rule(neutron, alt_group["id"])
    assert result.status == 404
    assert error(result)[0] == "SecurityGroupNotFound"
    mine = _group(neutron)
    remote = _rule(neutron, mine["id"], remote_group_id=alt_group["id"])
    assert remote.status == 404


def test_remote_prefix_and_group_exclude_each_other(neutron):
    group = _group(neutron)
    result = _rule(
        neutron, group["id"], remote_group_id=group["id"], remote_ip_prefix="10.0.0.0/8"
    )
    assert result.status == 400
    assert error(result)[0] == "SecurityGroupMultipleRemoteEntites"


# -- floating IPs ------------------------------------------------------------------------


def test_floating_ip_lifecycle(neutron):
    public = neutron.public()
    fip = neutron.create("floatingips", "floatingip", {"floating_network_id": public})
    assert fip["floating_ip_address"].startswith("172.24.4.")
    assert (fip["status"], fip["port_id"], fip["router_id"], fip["port_details"]) == (
        "DOWN",
        None,
        None,
        None,
    )
    port = neutron.create("ports", "port", {"network_id": PRIVATE})
    associated = neutron.put(
        "/floatingips/" + fip["id"], {"floatingip": {"port_id": port["id"]}}
    ).json()["floatingip"]
    assert associated["port_id"] == port["id"]
    assert associated["fixed_ip_address"] == port["fixed_ips"][0]["ip_address"]
    assert associated["status"] == "ACTIVE" and associated["router_id"]
    assert associated["port_details"]["mac_address"] == port["mac_address"]
    listed = neutron.get("/floatingips?port_id=" + port["id"]).json()["floatingips"]
    assert [f["id"] for f in listed] == [fip["id"]]
    second = neutron.post(
        "/floatingips", {"floatingip": {"floating_network_id": public, "port_id": port["id"]}}
    )
    assert second.status == 409
    assert error(second)[0] == "FloatingIPPortAlreadyAssociated"
    released = neutron.put("/floatingips/" + fip["id"], {"floatingip": {"port_id": None}})
    assert released.json()["floatingip"]["port_id"] is None
    assert neutron.delete("/floatingips/" + fip["id"]).status == 204
    missing = neutron.get("/floatingips/" + fip["id"])
    assert error(missing) == (
        "FloatingIPNotFound",
        "Floating IP %s could not be found" % fip["id"],
    )
    # its address is free again
    assert (
        neutron.get(
            "/ports?fixed_ips=ip_address%3D" + fip["floating_ip_address"], user="admin"
        ).json()["ports"]
        == []
    )


def test_deleting_the_port_disassociates(neutron):
    port = neutron.create("ports", "port", {"network_id": PRIVATE})
    fip = neutron.create(
        "floatingips",
        "floatingip",
        {"floating_network_id": neutron.public(), "port_id": port["id"]},
    )
    neutron.delete("/ports/" + port["id"])
    kept = neutron.get("/floatingips/" + fip["id"]).json()["floatingip"]
    assert (kept["port_id"], kept["fixed_ip_address"], kept["status"]) == (None, None, "DOWN")


def test_floating_ip_refusals(neutron):
    private = neutron.post("/floatingips", {"floatingip": {"floating_network_id": PRIVATE}})
    assert private.status == 400
    assert error(private)[1] == (
        "Bad floatingip request: Network %s is not a valid external network." % PRIVATE
    )
    chosen = neutron.post(
        "/floatingips",
        {
            "floatingip": {
                "floating_network_id": neutron.public(),
                "floating_ip_address": "172.24.4.99",
            }
        },
    )
    assert chosen.status == 403
    alt_port = neutron.create("ports", "port", {"network_id": PRIVATE}, user="alt")
    foreign = neutron.post(
        "/floatingips",
        {"floatingip": {"floating_network_id": neutron.public(), "port_id": alt_port["id"]}},
    )
    assert foreign.status == 404
    assert error(foreign)[0] == "PortNotFound"
    port = neutron.create("ports", "port", {"network_id": PRIVATE})
    wrong_fixed = neutron.post(
        "/floatingips",
        {
            "floatingip": {
                "floating_network_id": neutron.public(),
                "port_id": port["id"],
                "fixed_ip_address": "10.0.99.99",
            }
        },
    )
    assert wrong_fixed.status == 400
    assert error(wrong_fixed)[1] == (
        "Bad floatingip request: Port %s does not have fixed ip 10.0.99.99." % port["id"]
    )
    # nothing was kept of the refused ones
    assert neutron.get("/floatingips").json()["floatingips"] == []


def test_floating_ips_of_others(neutron):
    fip = neutron.create("floatingips", "floatingip", {"floating_network_id": neutron.public()})
    assert neutron.get("/floatingips", user="alt").json()["floatingips"] == []
    for method in ("GET", "PUT", "DELETE"):
        result = neutron.call(
            method, "/floatingips/" + fip["id"], json={"floatingip": {}}, user="alt"
        )
        assert result.status == 404, method
    assert neutron.get("/floatingips/" + fip["id"], user="admin").status == 200
    chosen = neutron.post(
        "/floatingips",
        {
            "floatingip": {
                "floating_network_id": neutron.public(),
                "floating_ip_address": "172.24.4.99",
            }
        },
        user="admin",
    )
    assert chosen.json()["floatingip"]["floating_ip_address"] == "172.24.4.99"


def test_the_rules_neutron_makes_have_no_description(neutron):
    """As Neutron 29's (neutron-29-security_groups.json): a group's own
    rules (egress, the default group's ingress) have a null description, a
    rule created without one an empty text; a listing of groups leaves
    ``belongs_to_default_sg`` null, a group's show and the rules' list
    fill it."""
    (default,) = neutron.get("/security-groups").json()["security_groups"]
    assert {
        (r["description"], r["belongs_to_default_sg"]) for r in default["security_group_rules"]
    } == {(None, None)}
    shown = neutron.get("/security-groups/" + default["id"]).json()["security_group"]
    assert {r["belongs_to_default_sg"] for r in shown["security_group_rules"]} == {True}
    group = _group(neutron)
    assert {
        (r["description"], r["belongs_to_default_sg"]) for r in group["security_group_rules"]
    } == {(None, False)}
    made = _rule(neutron, group["id"], protocol="tcp").json()["security_group_rule"]
    assert (made["description"], made["belongs_to_default_sg"]) == ("", False)
    listed = neutron.get("/security-group-rules?security_group_id=" + default["id"]).json()
    assert {r["belongs_to_default_sg"] for r in listed["security_group_rules"]} == {True}


def test_upgrade_keeps_the_rules_and_their_descriptions(tmp_path):
    """A data directory written before the rules' description could be
    null keeps its rules (and their texts) through the table's rebuild."""
    from occli.localcloud.network import migrations
    from occli.localcloud.store import Store

    store = Store(str(tmp_path / "cloud.db"))
    store.migrate("network.core", migrations.CORE)
    store.migrate("network.security", migrations.SECURITY[:1])
    with store.transaction() as db:
        db.execute(
            "INSERT INTO network_security_groups (id, project_id, created_at, updated_at)"
            " VALUES ('g', 'p', 't', 't')"
        )
        db.execute(
            "INSERT INTO network_security_group_rules (id, security_group_id, project_id,"
            " direction, ethertype, description, created_at, updated_at)"
            " VALUES ('r', 'g', 'p', 'egress', 'IPv4', 'kept', 't', 't')"
        )
    store.migrate("network.security", migrations.SECURITY)
    with store.transaction() as db:
        rows = db.execute("SELECT seq, id, description FROM network_security_group_rules")
        assert [tuple(r) for r in rows] == [(1, "r", "kept")]
        db.execute(
            "INSERT INTO network_security_group_rules (id, security_group_id, project_id,"
            " direction, ethertype, created_at, updated_at)"
            " VALUES ('n', 'g', 'p', 'egress', 'IPv6', 't', 't')"
        )
        db.execute("DELETE FROM network_security_groups WHERE id = 'g'")
        assert db.execute("SELECT COUNT(*) FROM network_security_group_rules").fetchone()[0] == 0
    store.close()
