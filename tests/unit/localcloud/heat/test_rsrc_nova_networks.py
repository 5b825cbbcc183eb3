"""OS::Nova::Server's ``networks`` updated in place, as Heat does it
(``server_network_mixin.py`` ``calculate_networks``): the entries kept
keep their ports, a removed one's port is detached and gone, an added one
gets a new interface through Nova's os-interface API; the server is the
same one."""

import copy

import pytest

from tests.unit.localcloud.heat import harness


def net(name, cidr):
    return {
        name: {"type": "OS::Neutron::Net", "properties": {"name": name}},
        name + "-sub": {
            "type": "OS::Neutron::Subnet",
            "properties": {"network": {"get_resource": name}, "cidr": cidr},
        },
    }


def tmpl(networks):
    resources = {**net("net-a", "10.21.0.0/24"), **net("net-b", "10.22.0.0/24")}
    resources.update(net("net-c", "10.23.0.0/24"))
    resources["srv"] = {
        "type": "OS::Nova::Server",
        "depends_on": ["net-a-sub", "net-b-sub", "net-c-sub"],
        "properties": {"image": "cirros", "flavor": "m1.tiny", "networks": networks},
    }
    return {
        "heat_template_version": "2018-08-31",
        "resources": resources,
        "outputs": {
            "server": {"value": {"get_resource": "srv"}},
            "nets": {"value": {n: {"get_resource": n} for n in ("net-a", "net-b", "net-c")}},
        },
    }


def on(*names):
    return [{"network": {"get_resource": n}} for n in names]


@pytest.fixture(scope="module")
def cloud():
    fixture = harness.start()
    fixture.cloud.seed_image("cirros", disk_format="qcow2", container_format="bare")
    yield fixture
    fixture.stop()


@pytest.fixture
def ctx(cloud):
    return harness.context(cloud)


def outputs(cloud, ctx, stack_id):
    with cloud.cloud.store.read() as db:
        found = harness.engine(cloud).outputs(db, ctx, harness.row(cloud, stack_id))
    return {o["output_key"]: o.get("output_value") for o in found}


def ports(cloud, server_id):
    """``{network id: port id}`` of the server's ports, as Neutron has them."""
    answer = cloud.session("local").get(
        cloud.url + "/network/v2.0/ports", params={"device_id": server_id}
    )
    return {p["network_id"]: p["id"] for p in answer.json()["ports"]}


def port_status(cloud, port_id):
    url = cloud.url + "/network/v2.0/ports/%s" % port_id
    return cloud.session("local").get(url, raise_exc=False).status_code


def update(cloud, ctx, stack_id, template):
    harness.engine(cloud).update_stack(ctx, stack_id, template, {}, {}, {}, {}, existing=False)
    return harness.wait(cloud, stack_id)


def created(cloud, ctx, name, template):
    made = harness.engine(cloud).create_stack(
        ctx, name, template, {}, {}, {}, {"disable_rollback": True}
    )
    row = harness.wait(cloud, made["id"])
    assert (row["action"], row["status"]) == ("CREATE", "COMPLETE"), row["status_reason"]
    return made["id"]


def test_network_added_and_removed_without_replacing_the_server(cloud, ctx):
    stack_id = created(cloud, ctx, "nets", tmpl(on("net-a", "net-b")))
    out = outputs(cloud, ctx, stack_id)
    server, nets = out["server"], out["nets"]
    before = ports(cloud, server)
    assert set(before) == {nets["net-a"], nets["net-b"]}

    row = update(cloud, ctx, stack_id, tmpl(on("net-a", "net-c")))
    assert (row["action"], row["status"]) == ("UPDATE", "COMPLETE"), row["status_reason"]
    assert outputs(cloud, ctx, stack_id)["server"] == server
    after = ports(cloud, server)
    assert set(after) == {nets["net-a"], nets["net-c"]}
    # the kept network's port untouched, the removed one's gone
    assert after[nets["net-a"]] == before[nets["net-a"]]
    assert port_status(cloud, before[nets["net-b"]]) == 404
    listed = cloud.session("local").get(
        cloud.url + "/compute/v2.1/servers/%s/os-interface" % server
    )
    attached = {i["net_id"]: i["port_id"] for i in listed.json()["interfaceAttachments"]}
    assert attached == after
    events = [
        (e["resource_name"], e["action"], e["status"]) for e in harness.events(cloud, stack_id)
    ]
    assert ("srv", "UPDATE", "COMPLETE") in events
    assert ("srv", "DELETE", "COMPLETE") not in events


def test_subnet_entry_gets_an_internal_port_deleted_when_removed(cloud, ctx):
    stack_id = created(cloud, ctx, "subnets", tmpl(on("net-a")))
    out = outputs(cloud, ctx, stack_id)
    server, nets = out["server"], out["nets"]
    with_subnet = tmpl(on("net-a") + [{"subnet": {"get_resource": "net-c-sub"}}])
    row = update(cloud, ctx, stack_id, with_subnet)
    assert (row["action"], row["status"]) == ("UPDATE", "COMPLETE"), row["status_reason"]
    added = ports(cloud, server)
    assert set(added) == {nets["net-a"], nets["net-c"]}
    port = cloud.session("local").get(cloud.url + "/network/v2.0/ports/%s" % added[nets["net-c"]])
    assert port.json()["port"]["name"].startswith("srv-port-")

    row = update(cloud, ctx, stack_id, copy.deepcopy(tmpl(on("net-a"))))
    assert (row["action"], row["status"]) == ("UPDATE", "COMPLETE"), row["status_reason"]
    assert ports(cloud, server) == {nets["net-a"]: added[nets["net-a"]]}
    assert port_status(cloud, added[nets["net-c"]]) == 404
    assert outputs(cloud, ctx, stack_id)["server"] == server
