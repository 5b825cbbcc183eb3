"""Neutron's quotas on the local Neutron: limits, usage, admin updates,
and the 409 OverQuota (nova's 403 for ports and floating IPs)."""

from tests.unit.localcloud.compute_harness import Nova
from tests.unit.localcloud.compute_harness import fault
from tests.unit.localcloud.network_harness import PRIVATE
from tests.unit.localcloud.network_harness import error


def _set(neutron, project, **limits):
    result = neutron.put("/quotas/" + project, {"quota": limits}, user="admin")
    assert result.status == 200, result.body
    return result.json()["quota"]


def test_defaults_and_usage(neutron):
    demo = neutron.project_id("demo")
    shown = neutron.get("/quotas/" + demo).json()["quota"]
    assert shown["port"] == 500 and shown["floatingip"] == 50 and shown["network"] == 100
    assert neutron.get("/quotas/%s/default" % demo).json()["quota"] == shown
    neutron.create("ports", "port", {"network_id": PRIVATE})
    details = neutron.get("/quotas/%s/details" % demo).json()["quota"]
    assert details["port"] == {"limit": 500, "used": 1, "reserved": 0}
    # the default group was made with the port
    assert details["security_group"]["used"] == 1


def test_another_projects_quota_is_the_admins(neutron):
    demo = neutron.project_id("demo")
    for path in ("/quotas/" + demo, "/quotas/%s/details" % demo, "/quotas"):
        refused = neutron.get(path, user="alt")
        assert refused.status == 403, path
        assert error(refused) == ("PolicyNotAuthorized", "rule:get_quota is disallowed by policy")
    refused = neutron.put("/quotas/" + demo, {"quota": {"port": 1}})
    assert refused.status == 403
    assert neutron.delete("/quotas/" + demo).status == 403
    assert neutron.get("/quotas/" + demo, user="admin").status == 200


def test_limits_are_enforced(neutron):
    demo = neutron.project_id("demo")
    assert _set(neutron, demo, port=1, network=0, floatingip="1")["port"] == 1
    listed = neutron.get("/quotas", user="admin").json()["quotas"]
    assert [q["project_id"] for q in listed] == [demo]
    neutron.create("ports", "port", {"network_id": PRIVATE})
    over = neutron.post("/ports", {"port": {"network_id": PRIVATE}})
    assert over.status == 409
    assert error(over) == ("OverQuota", "Quota exceeded for resources: ['port'].")
    assert neutron.post("/networks", {"network": {"name": "n"}}).status == 409
    neutron.create("floatingips", "floatingip", {"floating_network_id": neutron.public()})
    again = neutron.post("/floatingips", {"floatingip": {"floating_network_id": neutron.public()}})
    assert error(again)[0] == "OverQuota"
    # another project is not concerned
    assert neutron.post("/ports", {"port": {"network_id": PRIVATE}}, user="alt").status == 201
    assert neutron.delete("/quotas/" + demo, user="admin").status == 204
    assert neutron.post("/ports", {"port": {"network_id": PRIVATE}}).status == 201


def test_update_checks(neutron):
    demo = neutron.project_id("demo")
    neutron.create("ports", "port", {"network_id": PRIVATE})
    below = neutron.put("/quotas/" + demo, {"quota": {"port": 0}}, user="admin")
    assert below.status == 400
    assert error(below)[1] == (
        "Quota limit 0 for port must be greater than or equal to already used 1"
    )
    assert _set(neutron, demo, port=0, force=True)["port"] == 0
    assert _set(neutron, demo, port=-1)["port"] == -1
    for bad in ({"ports": 1}, {"port": "many"}, {"port": -2}):
        result = neutron.put("/quotas/" + demo, {"quota": bad}, user="admin")
        assert result.status == 400, bad
    assert neutron.put("/quotas/" + demo, {"quotas": {}}, user="admin").status == 400


def test_nova_meets_the_port_quota(neutron):
    nova = Nova(neutron.cloud)
    _set(neutron, neutron.project_id("demo"), port=0, floatingip=0)
    refused = nova.create(expect=403)
    assert fault(refused) == ("forbidden", 403, "Maximum number of ports exceeded")
    assert nova.get("/servers").json()["servers"] == []
    pool = nova.post("/os-floating-ips", {"pool": "public"})
    assert fault(pool) == ("forbidden", 403, "IP allocation over quota in pool public.")
