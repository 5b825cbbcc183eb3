"""Neutron managers (networks, subnets, ports, security groups and rules,
floating IPs) against requests-mock, on neutron-lib's api-ref samples."""

import copy

import pytest

from occli import exceptions

from .fakes import NETWORK
from .fakes import load_fixture
from .fakes import requests_to

V2 = NETWORK + "/v2.0"
NET_ID = "d32019d3-bc6e-4319-9c1d-6722fc136a22"


def sample(folder, name):
    return copy.deepcopy(load_fixture("network", folder, name))


def neutron_error(status, kind, message):
    return {
        "status_code": status,
        "json": {"NeutronError": {"type": kind, "message": message, "detail": ""}},
    }


# -- URLs, filters, pages ----------------------------------------------------


def test_list_parses_sample_under_v2_0(client, mock_cloud):
    body = sample("networks", "networks-list-response.json")
    mock_cloud.mock.get(V2 + "/networks", json=body)
    got = list(client.networks.list())
    assert [n.to_dict() for n in got] == body["networks"]
    assert got[0].name == "net1"


def test_a_versioned_endpoint_is_kept(client, mock_cloud, monkeypatch):
    manager = client.networks
    monkeypatch.setattr(manager.api, "get_endpoint", lambda: "http://n.test:9696/v2.0/")
    mock_cloud.mock.get("http://n.test:9696/v2.0/networks", json={"networks": []})
    assert list(manager.list()) == []


def test_list_filters_fields_and_external(client, mock_cloud):
    mock_cloud.mock.get(V2 + "/networks", json={"networks": []})
    list(client.networks.list(external=True, fields=["id", "name"], status="ACTIVE"))
    assert mock_cloud.mock.last_request.qs == {
        "router:external": ["true"],
        "fields": ["id", "name"],
        "status": ["active"],
    }
    list(client.networks.list(external=False, shared=False))
    assert mock_cloud.mock.last_request.qs == {"router:external": ["false"], "shared": ["false"]}


def test_list_follows_next_links(client, mock_cloud):
    first, second = sample("networks", "networks-list-response.json")["networks"][:2]
    mock_cloud.mock.get(
        V2 + "/networks",
        [
            {
                "json": {
                    "networks": [first],
                    "networks_links": [
                        {"rel": "next", "href": V2 + "/networks?limit=1&marker=" + first["id"]}
                    ],
                }
            },
            {"json": {"networks": [second], "networks_links": []}},
        ],
    )
    got = list(client.networks.list())
    assert [n.id for n in got] == [first["id"], second["id"]]
    assert mock_cloud.mock.last_request.qs == {"marker": [first["id"]]}


def test_subnets_of_a_network(client, mock_cloud):
    body = sample("subnets", "subnets-list-response.json")
    mock_cloud.mock.get(V2 + "/subnets", json=body)
    got = list(client.subnets.list(network=NET_ID))
    assert got[0].cidr == body["subnets"][0]["cidr"]
    assert mock_cloud.mock.last_request.qs == {"network_id": [NET_ID]}


# -- name or id in one request ---------------------------------------------


def test_find_by_name_is_one_filtered_list(client, mock_cloud):
    net = sample("networks", "network-show-response.json")["network"]
    mock_cloud.mock.get(V2 + "/networks", json={"networks": [net]})
    assert client.networks.find_resource("private-network").id == NET_ID
    assert len(mock_cloud.mock.request_history) == 2  # the token, then one list
    assert mock_cloud.mock.last_request.qs == {"name": ["private-network"]}


def test_find_by_id_is_one_get(client, mock_cloud):
    mock_cloud.mock.get(
        V2 + "/networks/" + NET_ID, json=sample("networks", "network-show-response.json")
    )
    assert client.networks.find_resource(NET_ID).name == "private-network"
    assert not requests_to(mock_cloud.mock, "GET", "/networks?")


def test_find_unknown_and_ambiguous(client, mock_cloud):
    mock_cloud.mock.get(V2 + "/networks?name=nosuch", json={"networks": []})
    with pytest.raises(exceptions.NotFound, match="No network with a name or ID of 'nosuch'"):
        client.networks.find_resource("nosuch")
    nets = sample("networks", "networks-list-response.json")["networks"]
    twins = [dict(n, name="twin") for n in nets]
    mock_cloud.mock.get(V2 + "/networks?name=twin", json={"networks": twins})
    with pytest.raises(exceptions.NoUniqueMatch, match="More than one network"):
        client.networks.find_resource("twin")


def test_find_many_names_in_one_request(client, mock_cloud):
    nets = sample("networks", "networks-list-response.json")["networks"]
    mock_cloud.mock.get(V2 + "/networks", json={"networks": nets})
    found = client.networks.find_many(["net1", "net2", "net1"])
    assert {k: v.id for k, v in found.items()} == {"net1": nets[0]["id"], "net2": nets[1]["id"]}
    assert len(requests_to(mock_cloud.mock, "GET", "/networks")) == 1
    assert mock_cloud.mock.last_request.qs == {"name": ["net1", "net2"]}


def test_find_many_names_a_missing_one(client, mock_cloud):
    nets = sample("networks", "networks-list-response.json")["networks"]
    mock_cloud.mock.get(V2 + "/networks", json={"networks": nets[:1]})
    with pytest.raises(exceptions.NotFound, match="'nosuch'"):
        client.networks.find_many(["net1", "nosuch"])


def test_neutron_error_message_and_status(client, mock_cloud):
    mock_cloud.mock.get(
        V2 + "/networks/" + NET_ID,
        **neutron_error(404, "NetworkNotFound", "Network %s could not be found." % NET_ID),
    )
    with pytest.raises(exceptions.NotFound) as caught:
        client.networks.get(NET_ID)
    assert str(caught.value).startswith("Network %s could not be found. (HTTP 404)" % NET_ID)


# -- ports --------------------------------------------------------------------


def test_ports_of_a_server_and_fixed_ip_filter(client, mock_cloud):
    body = sample("ports", "ports-list-response.json")
    mock_cloud.mock.get(V2 + "/ports", json=body)
    got = list(client.ports.list(server="srv-1", fixed_ip="ip_address=10.0.0.3"))
    assert got[0].mac_address == body["ports"][0]["mac_address"]
    assert mock_cloud.mock.last_request.qs == {
        "device_id": ["srv-1"],
        "fixed_ips": ["ip_address=10.0.0.3"],
    }


def test_port_update_sends_the_changes(client, mock_cloud):
    body = sample("ports", "port-update-response.json")
    port_id = body["port"]["id"]
    mock_cloud.mock.put(V2 + "/ports/" + port_id, json=body)
    client.ports.update(port_id, fixed_ips=[{"ip_address": "10.0.0.4"}])
    assert mock_cloud.mock.last_request.json() == {
        "port": {"fixed_ips": [{"ip_address": "10.0.0.4"}]}
    }
    with pytest.raises(exceptions.ValidationError):
        client.ports.update(port_id)


# -- security groups and rules ------------------------------------------------


def test_security_group_create_and_delete(client, mock_cloud):
    created = sample("security-groups", "security-group-create-response.json")
    request = sample("security-groups", "security-group-create-request.json")
    mock_cloud.mock.post(V2 + "/security-groups", status_code=201, json=created)
    given = request["security_group"]
    group = client.security_groups.create(
        given["name"], description=given["description"], stateful=given["stateful"]
    )
    assert mock_cloud.mock.last_request.json() == request
    assert group.id == created["security_group"]["id"]
    mock_cloud.mock.delete(V2 + "/security-groups/" + group.id, status_code=204)
    client.security_groups.delete(group)
    assert mock_cloud.mock.last_request.method == "DELETE"


def test_rule_create_body(client, mock_cloud):
    created = sample("security-groups", "security-group-rule-create-response.json")
    mock_cloud.mock.post(V2 + "/security-group-rules", status_code=201, json=created)
    rule = client.security_group_rules.create(
        "a7734e61-b545-452d-a3cd-0189cbd9747a",
        protocol="TCP",
        port_range_min=80,
        remote_group="85cc3048-abc3-43cc-89b3-377341426ac5",
    )
    assert rule.port_range_max == 80
    assert mock_cloud.mock.last_request.json() == {
        "security_group_rule": {
            "direction": "ingress",
            "ethertype": "IPv4",
            "protocol": "tcp",
            "port_range_min": 80,
            "port_range_max": 80,
            "remote_group_id": "85cc3048-abc3-43cc-89b3-377341426ac5",
            "security_group_id": "a7734e61-b545-452d-a3cd-0189cbd9747a",
        }
    }


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"direction": "in"}, "direction must be ingress or egress"),
        ({"ethertype": "ipv4"}, "ethertype must be IPv4 or IPv6"),
        ({"port_range_min": 22}, "needs a protocol with ports"),
        ({"protocol": "gre", "port_range_min": 22}, "needs a protocol with ports"),
        ({"protocol": "tcp", "port_range_min": 90, "port_range_max": 80}, "starts above"),
        ({"protocol": "tcp", "port_range_min": 70000}, "not a port number"),
        ({"remote_ip_prefix": "0.0.0.0/0", "remote_group": "g"}, "not both"),
    ],
)
def test_rule_checks_before_any_request(client, mock_cloud, kwargs, message):
    with pytest.raises(exceptions.ValidationError, match=message):
        client.security_group_rules.create("group-id", **kwargs)
    assert not requests_to(mock_cloud.mock, "POST", "/security-group-rules")


# -- floating IPs -------------------------------------------------------------


def test_floating_ip_create_associate_disassociate(client, mock_cloud):
    created = sample("floatingips", "floatingip-create-response.json")
    fip_id = created["floatingip"]["id"]
    mock_cloud.mock.post(V2 + "/floatingips", status_code=201, json=created)
    fip = client.floating_ips.create("376da547-b977-4cfe-9cba-275c80debf57")
    assert fip.floating_ip_address == "172.24.4.228"
    assert mock_cloud.mock.last_request.json() == {
        "floatingip": {"floating_network_id": "376da547-b977-4cfe-9cba-275c80debf57"}
    }
    mock_cloud.mock.put(
        V2 + "/floatingips/" + fip_id,
        json=sample("floatingips", "floatingip-update-response.json"),
    )
    client.floating_ips.associate(fip, "fc861431-0e6c-4842-a0ed-e2363f9bc3a8")
    assert mock_cloud.mock.last_request.json() == sample(
        "floatingips", "floatingip-update-request.json"
    )
    mock_cloud.mock.put(
        V2 + "/floatingips/" + fip_id,
        json=sample("floatingips", "floatingip-disassociate-response.json"),
    )
    client.floating_ips.disassociate(fip)
    assert mock_cloud.mock.last_request.json() == sample(
        "floatingips", "floatingip-disassociate-request.json"
    )


def test_floating_ip_found_by_address(client, mock_cloud):
    body = sample("floatingips", "floating-ips-list-response.json")
    address = body["floatingips"][0]["floating_ip_address"]
    mock_cloud.mock.get(V2 + "/floatingips", json={"floatingips": body["floatingips"][:1]})
    assert client.floating_ips.find_resource(address).id == body["floatingips"][0]["id"]
    assert mock_cloud.mock.last_request.qs == {"floating_ip_address": [address]}
    mock_cloud.mock.get(V2 + "/floatingips", json={"floatingips": []})
    with pytest.raises(exceptions.NotFound, match="No floating IP with an address or ID"):
        client.floating_ips.find_resource("203.0.113.9")
    mock_cloud.mock.get(
        V2 + "/floatingips/nosuch",
        **neutron_error(404, "FloatingIPNotFound", "Floating IP nosuch could not be found"),
    )
    with pytest.raises(exceptions.NotFound, match="No floating IP with an address or ID of 'n"):
        client.floating_ips.find_resource("nosuch")


def test_no_network_service_in_the_catalog(mock_cloud, monkeypatch):
    from keystoneauth1 import session

    from occli.client import Client

    from . import fakes

    without = [s for s in fakes.catalog() if s["type"] not in ("network", "volumev3")]
    body = fakes.token_body()
    body["token"]["catalog"] = without
    mock_cloud.mock.post(
        fakes.AUTH_URL + "/auth/tokens",
        status_code=201,
        json=body,
        headers={"X-Subject-Token": fakes.TOKEN},
    )
    client = Client(session=session.Session(auth=fakes.password_auth()))
    with pytest.raises(exceptions.ClientException, match="No network endpoint found"):
        list(client.networks.list())
    with pytest.raises(exceptions.ClientException, match="No block-storage"):
        list(client.volumes.list())
