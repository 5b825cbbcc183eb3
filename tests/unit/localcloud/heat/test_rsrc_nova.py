"""OS::Nova::Server and the Neutron types in stacks run by the engine:
every resource a real one of the local Nova/Neutron/Swift, in the stack's
project, gone after the delete."""

import json

import pytest
import requests

from occli.localcloud import errors
from tests.unit.localcloud.heat import harness


def tmpl(resources, outputs=None):
    body = {"heat_template_version": "2018-08-31", "resources": resources}
    if outputs:
        body["outputs"] = outputs
    return body


@pytest.fixture(scope="module")
def cloud():
    fixture = harness.start()
    fixture.cloud.seed_image("cirros", disk_format="qcow2", container_format="bare")
    yield fixture
    fixture.stop()


@pytest.fixture
def ctx(cloud):
    return harness.context(cloud)


def run(cloud, ctx, name, template):
    made = harness.engine(cloud).create_stack(
        ctx, name, template, {}, {}, {}, {"disable_rollback": True}
    )
    return made["id"], harness.wait(cloud, made["id"])


def outputs(cloud, ctx, row):
    with cloud.cloud.store.read() as db:
        found = harness.engine(cloud).outputs(db, ctx, row)
    return {o["output_key"]: o.get("output_value") for o in found}


def delete(cloud, ctx, stack_id):
    harness.engine(cloud).delete_stack(ctx, stack_id)
    return harness.wait(cloud, stack_id)


NETWORKED = tmpl(
    {
        "net": {"type": "OS::Neutron::Net", "properties": {"name": "stack-net"}},
        "sub": {
            "type": "OS::Neutron::Subnet",
            "properties": {"network": {"get_resource": "net"}, "cidr": "10.9.0.0/24"},
        },
        "sg": {
            "type": "OS::Neutron::SecurityGroup",
            "properties": {
                "rules": [{"protocol": "tcp", "port_range_min": 22, "port_range_max": 22}]
            },
        },
        "srv": {
            "type": "OS::Nova::Server",
            "depends_on": ["sub"],
            "properties": {
                "image": "cirros",
                "flavor": "m1.tiny",
                "networks": [{"network": {"get_resource": "net"}}],
                "security_groups": [{"get_resource": "sg"}],
                "metadata": {"role": "web", "n": 1},
            },
        },
    },
    {
        "ip": {"value": {"get_attr": ["srv", "first_address"]}},
        "nets": {"value": {"get_attr": ["srv", "networks"]}},
        "addr_port": {"value": {"get_attr": ["srv", "addresses", "stack-net", 0, "port"]}},
        "server": {"value": {"get_resource": "srv"}},
        "net": {"value": {"get_resource": "net"}},
        "sg": {"value": {"get_resource": "sg"}},
    },
)


def test_server_on_a_stack_network_is_real_and_gone_after_delete(cloud, ctx):
    stack_id, row = run(cloud, ctx, "web", NETWORKED)
    assert (row["action"], row["status"]) == ("CREATE", "COMPLETE"), row["status_reason"]
    out = outputs(cloud, ctx, row)
    session = cloud.session("local")
    compute = cloud.url + "/compute/v2.1"
    server = session.get(compute + "/servers/%s" % out["server"]).json()["server"]
    assert server["status"] == "ACTIVE"
    assert server["tenant_id"] == ctx.project_id
    assert server["name"].startswith("web-srv-")
    assert server["metadata"] == {"role": "web", "n": "1"}
    assert [sg["name"] for sg in server["security_groups"]] != ["default"]
    address = server["addresses"]["stack-net"][0]["addr"]
    assert out["ip"] == address
    assert out["nets"] == {"stack-net": [address], out["net"]: [address]}
    network = cloud.url + "/network/v2.0"
    port = session.get(network + "/ports/%s" % out["addr_port"]).json()["port"]
    assert port["device_id"] == out["server"]
    group = session.get(network + "/security-groups/%s" % out["sg"]).json()["security_group"]
    assert any(r["port_range_min"] == 22 for r in group["security_group_rules"])

    row = delete(cloud, ctx, stack_id)
    assert (row["action"], row["status"]) == ("DELETE", "COMPLETE"), row["status_reason"]
    assert session.get(compute + "/servers/%s" % out["server"], raise_exc=False).status_code == 404
    assert session.get(network + "/networks/%s" % out["net"], raise_exc=False).status_code == 404
    assert (
        session.get(network + "/security-groups/%s" % out["sg"], raise_exc=False).status_code
        == 404
    )


def test_software_config_poll_temp_url_serves_the_metadata(cloud, ctx):
    template = tmpl(
        {
            "srv": {
                "type": "OS::Nova::Server",
                "properties": {
                    "image": "cirros",
                    "flavor": "m1.tiny",
                    "user_data_format": "SOFTWARE_CONFIG",
                    "software_config_transport": "POLL_TEMP_URL",
                },
            }
        },
        {"occ": {"value": {"get_attr": ["srv", "os_collect_config"]}}},
    )
    stack_id, row = run(cloud, ctx, "agent", template)
    assert (row["action"], row["status"]) == ("CREATE", "COMPLETE"), row["status_reason"]
    occ = outputs(cloud, ctx, row)["occ"]
    assert occ["collectors"] == ["ec2", "request", "local"]
    url = occ["request"]["metadata_url"]
    assert url.startswith(cloud.url + "/v1/AUTH_%s/" % ctx.project_id)
    # what os-collect-config reads: the metadata, without any token
    polled = requests.get(url, timeout=10)
    assert polled.status_code == 200
    body = json.loads(polled.text)
    assert body["deployments"] == []
    assert body["os-collect-config"]["request"]["metadata_url"] == url

    row = delete(cloud, ctx, stack_id)
    assert row["status"] == "COMPLETE", row["status_reason"]
    assert requests.get(url, timeout=10).status_code in (401, 404)


def test_an_unserved_transport_fails_as_heat_without_the_endpoint(cloud, ctx):
    template = tmpl(
        {
            "srv": {
                "type": "OS::Nova::Server",
                "properties": {
                    "image": "cirros",
                    "flavor": "m1.tiny",
                    "user_data_format": "SOFTWARE_CONFIG",
                    "software_config_transport": "POLL_SERVER_CFN",
                },
            }
        }
    )
    stack_id, row = run(cloud, ctx, "cfn", template)
    assert (row["action"], row["status"]) == ("CREATE", "FAILED")
    assert row["status_reason"] == (
        "Resource CREATE failed: EndpointNotFound: resources.srv: "
        "Could not find requested endpoint in Service Catalog."
    )
    delete(cloud, ctx, stack_id)


def test_server_metadata_and_name_update_in_place(cloud, ctx):
    template = tmpl(
        {
            "srv": {
                "type": "OS::Nova::Server",
                "properties": {"image": "cirros", "flavor": "m1.tiny"},
            }
        },
        {"server": {"value": {"get_resource": "srv"}}},
    )
    stack_id, row = run(cloud, ctx, "upd", template)
    assert row["status"] == "COMPLETE", row["status_reason"]
    before = outputs(cloud, ctx, row)["server"]
    changed = json.loads(json.dumps(template))
    changed["resources"]["srv"]["properties"].update({"name": "renamed", "metadata": {"k": "v"}})
    harness.engine(cloud).update_stack(ctx, stack_id, changed, {}, {}, {}, {}, existing=False)
    row = harness.wait(cloud, stack_id)
    assert (row["action"], row["status"]) == ("UPDATE", "COMPLETE"), row["status_reason"]
    assert outputs(cloud, ctx, row)["server"] == before
    session = cloud.session("local")
    server = session.get(cloud.url + "/compute/v2.1/servers/%s" % before).json()["server"]
    assert (server["name"], server["metadata"]) == ("renamed", {"k": "v"})
    delete(cloud, ctx, stack_id)


def test_security_group_named_default_is_refused(cloud, ctx):
    template = tmpl(
        {"sg": {"type": "OS::Neutron::SecurityGroup", "properties": {"name": "default"}}}
    )
    with pytest.raises(errors.BadRequest) as refused:
        run(cloud, ctx, "sgdefault", template)
    assert refused.value.message == 'Security groups cannot be assigned the name "default".'
    assert refused.value.extra.get("type") == "StackValidationFailed"


def test_a_port_and_a_floating_ip_of_a_stack_and_a_server_on_the_port(cloud, ctx):
    template = tmpl(
        {
            "net": {"type": "OS::Neutron::Net"},
            "sub": {
                "type": "OS::Neutron::Subnet",
                "properties": {"network": {"get_resource": "net"}, "cidr": "10.8.0.0/24"},
            },
            "port": {
                "type": "OS::Neutron::Port",
                "depends_on": ["sub"],
                "properties": {
                    "network": {"get_resource": "net"},
                    "fixed_ips": [{"ip_address": "10.8.0.50"}],
                },
            },
            "srv": {
                "type": "OS::Nova::Server",
                "properties": {
                    "image": "cirros",
                    "flavor": "m1.tiny",
                    "networks": [{"port": {"get_resource": "port"}}],
                },
            },
        },
        {
            "port": {"value": {"get_resource": "port"}},
            "ip": {"value": {"get_attr": ["port", "fixed_ips", 0, "ip_address"]}},
            "server": {"value": {"get_resource": "srv"}},
        },
    )
    stack_id, row = run(cloud, ctx, "ported", template)
    assert (row["action"], row["status"]) == ("CREATE", "COMPLETE"), row["status_reason"]
    out = outputs(cloud, ctx, row)
    assert out["ip"] == "10.8.0.50"
    session = cloud.session("local")
    network = cloud.url + "/network/v2.0"
    port = session.get(network + "/ports/%s" % out["port"]).json()["port"]
    assert (port["device_id"], port["binding:vnic_type"]) == (out["server"], "normal")
    row = delete(cloud, ctx, stack_id)
    assert (row["action"], row["status"]) == ("DELETE", "COMPLETE"), row["status_reason"]
    assert session.get(network + "/ports/%s" % out["port"], raise_exc=False).status_code == 404
