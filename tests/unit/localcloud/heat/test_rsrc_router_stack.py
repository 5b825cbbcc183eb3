"""A stack builds the topology a floating IP needs on the local Neutron:
OS::Neutron::Router with a gateway on ``public`` and OS::Neutron::RouterInterface
on the stack's subnet; a floating IP for a port of that subnet goes through
the router; deleting the stack takes the router and its ports away."""

import pytest

from tests.unit.localcloud.heat import harness

TEMPLATE = {
    "heat_template_version": "2018-08-31",
    "resources": {
        "net": {"type": "OS::Neutron::Net", "properties": {"name": "rnet"}},
        "sub": {
            "type": "OS::Neutron::Subnet",
            "properties": {"network": {"get_resource": "net"}, "cidr": "10.31.0.0/24"},
        },
        "router": {
            "type": "OS::Neutron::Router",
            "properties": {"name": "r", "external_gateway_info": {"network": "public"}},
        },
        "iface": {
            "type": "OS::Neutron::RouterInterface",
            "properties": {
                "router": {"get_resource": "router"},
                "subnet": {"get_resource": "sub"},
            },
        },
    },
    "outputs": {
        "router": {"value": {"get_resource": "router"}},
        "gateway": {"value": {"get_attr": ["router", "external_gateway_info"]}},
        "net": {"value": {"get_resource": "net"}},
        "sub": {"value": {"get_resource": "sub"}},
    },
}


@pytest.fixture(scope="module")
def cloud():
    fixture = harness.start()
    yield fixture
    fixture.stop()


def neutron(cloud, path, method="GET", body=None, user="local"):
    return cloud.session(user).request(
        cloud.url + "/network/v2.0" + path, method, json=body, raise_exc=False
    )


def test_a_stack_routes_its_subnet_to_public(cloud):
    ctx = harness.context(cloud)
    made = harness.engine(cloud).create_stack(
        ctx, "routed", TEMPLATE, {}, {}, {}, {"disable_rollback": True}
    )
    row = harness.wait(cloud, made["id"])
    assert (row["action"], row["status"]) == ("CREATE", "COMPLETE"), row["status_reason"]
    with cloud.cloud.store.read() as db:
        found = harness.engine(cloud).outputs(db, ctx, harness.row(cloud, made["id"]))
    out = {o["output_key"]: o.get("output_value") for o in found}
    public = neutron(cloud, "/networks?name=public").json()["networks"][0]["id"]
    assert out["gateway"]["network_id"] == public
    gateways = neutron(cloud, "/ports?device_id=" + out["router"], user="local-admin")
    owners = sorted(p["device_owner"] for p in gateways.json()["ports"])
    assert owners == ["network:router_gateway", "network:router_interface"]
    port = neutron(cloud, "/ports", "POST", {"port": {"network_id": out["net"]}}).json()["port"]
    body = {"floatingip": {"floating_network_id": public, "port_id": port["id"]}}
    fip = neutron(cloud, "/floatingips", "POST", body).json()["floatingip"]
    assert fip["router_id"] == out["router"] and fip["status"] == "ACTIVE"
    assert neutron(cloud, "/floatingips/" + fip["id"], "DELETE").status_code == 204
    assert neutron(cloud, "/ports/" + port["id"], "DELETE").status_code == 204
    interfaces = neutron(
        cloud, "/ports?device_id=%s&device_owner=network:router_interface" % out["router"]
    ).json()["ports"]
    assert [p["fixed_ips"][0]["subnet_id"] for p in interfaces] == [out["sub"]]

    harness.engine(cloud).delete_stack(ctx, made["id"])
    row = harness.wait(cloud, made["id"])
    assert (row["action"], row["status"]) == ("DELETE", "COMPLETE"), row["status_reason"]
    assert neutron(cloud, "/routers/" + out["router"]).status_code == 404
    # the gateway port (no project's: an admin sees it) went with the router
    left = neutron(cloud, "/ports?device_id=" + out["router"], user="local-admin")
    assert left.status_code == 200 and left.json()["ports"] == []
