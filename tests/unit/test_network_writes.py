"""``network``, ``subnet``, ``port`` and ``router`` write commands
in-process against requests-mock (Neutron api-ref samples): the bodies
they send, names resolved with one request, usage errors (exit 2) naming
the option before any request."""

import copy
import json

import pytest

from .fakes import NETWORK
from .fakes import load_fixture

V2 = NETWORK + "/v2.0"


def sample(folder, name):
    return copy.deepcopy(load_fixture("network", folder, name))


def cloud_requests(mock):
    return [r for r in mock.request_history if "/identity/" not in r.url]


@pytest.fixture
def network(mock_cloud):
    """Network ``web`` found by name: ``GET /networks?name=web``."""
    body = sample("networks", "network-show-response.json")["network"]
    body.update(name="web", tags=["blue", "green"])
    mock_cloud.mock.get(V2 + "/networks?name=web", json={"networks": [body]})
    return body


@pytest.fixture
def subnet(mock_cloud):
    """Subnet ``web-subnet`` found by name, with a pool, a DNS server and
    a host route."""
    body = sample("subnets", "subnet-create-response.json")["subnet"]
    body.update(
        name="web-subnet",
        dns_nameservers=["8.8.8.8"],
        host_routes=[{"destination": "10.9.0.0/16", "nexthop": "192.168.199.9"}],
    )
    mock_cloud.mock.get(V2 + "/subnets?name=web-subnet", json={"subnets": [body]})
    return body


def test_network_create_sends_osc_attributes(cli, mock_cloud):
    m = mock_cloud.mock
    m.post(
        V2 + "/networks", status_code=201, json=sample("networks", "network-create-response.json")
    )
    code, out, err = cli(
        "network", "create", "web", "--disable", "--share", "--mtu", "1400", "--external",
        "--provider-network-type", "vlan", "--provider-segment", "42", "-f", "json",
    )  # fmt: skip
    assert code == 0, err
    assert m.last_request.json() == {
        "network": {
            "name": "web",
            "admin_state_up": False,
            "shared": True,
            "mtu": 1400,
            "router:external": True,
            "provider:network_type": "vlan",
            "provider:segmentation_id": 42,
        }
    }
    assert '"name": "net1"' in out


def test_network_create_with_tags_puts_them(cli, mock_cloud):
    m = mock_cloud.mock
    created = sample("networks", "network-create-response.json")
    net_id = created["network"]["id"]
    m.post(V2 + "/networks", status_code=201, json=created)
    tags = m.put(V2 + "/networks/%s/tags" % net_id, json={"tags": ["a", "b"]})
    m.get(V2 + "/networks/" + net_id, json=created)
    code, out, err = cli("network", "create", "web", "--tag", "a", "--tag", "b")
    assert code == 0, err
    assert tags.last_request.json() == {"tags": ["a", "b"]}


def test_network_set_and_unset(cli, mock_cloud, network):
    m = mock_cloud.mock
    url = V2 + "/networks/" + network["id"]
    update = m.put(url, json={"network": network})
    tags = m.put(url + "/tags", json={"tags": []})
    code, out, err = cli("network", "set", "web", "--name", "web2", "--internal", "--no-share")
    assert code == 0, err
    assert update.last_request.json() == {
        "network": {"name": "web2", "router:external": False, "shared": False}
    }
    assert not tags.called
    code, out, err = cli("network", "set", "web", "--no-tag", "--tag", "red")
    assert code == 0, err
    assert tags.last_request.json() == {"tags": ["red"]}
    code, out, err = cli("network", "unset", "web", "--tag", "blue")
    assert code == 0, err
    assert tags.last_request.json() == {"tags": ["green"]}


@pytest.mark.parametrize(
    "argv, message",
    [
        (["network", "set", "web"], "Nothing to set: give --name"),
        (["network", "unset", "web"], "Nothing to unset: give --tag or --all-tag."),
        (["network", "create", "web", "--share", "--no-share"], "not allowed with argument"),
        (["subnet", "create", "s", "--network", "web"], "give --subnet-range or --subnet-pool"),
        (["subnet", "set", "s", "--gateway", "auto"], "Auto option is not available"),
        (["subnet", "set", "s"], "Nothing to set: give --name"),
        (["subnet", "unset", "s"], "Nothing to unset: give --gateway"),
        (["subnet", "create", "s", "--network", "n", "--allocation-pool", "start=10.0.0.2"],
         "--allocation-pool needs end="),
        (["subnet", "set", "s", "--host-route", "destination=10.0.0.0/8,via=1.2.3.4"],
         "--host-route: unknown key 'via'"),
    ],
)  # fmt: skip
def test_usage_errors_before_any_request(cli, mock_cloud, argv, message):
    code, out, err = cli(*argv)
    assert code == 2, (out, err)
    assert message in err
    assert not cloud_requests(mock_cloud.mock)


def test_network_delete_each_reports_failures(cli, mock_cloud, network):
    m = mock_cloud.mock
    m.get(V2 + "/networks?name=gone", json={"networks": []})
    deleted = m.delete(V2 + "/networks/" + network["id"], status_code=204)
    code, out, err = cli("network", "delete", "gone", "web")
    assert code == 1
    assert "Failed to delete network gone" in err
    assert deleted.called


def test_subnet_create_pools_routes_gateway(cli, mock_cloud, network):
    m = mock_cloud.mock
    m.post(V2 + "/subnets", status_code=201, json=sample("subnets", "subnet-create-response.json"))
    code, out, err = cli(
        "subnet", "create", "web-subnet", "--network", "web", "--subnet-range", "10.1.0.0/24",
        "--allocation-pool", "start=10.1.0.10,end=10.1.0.20", "--dns-nameserver", "8.8.8.8",
        "--host-route", "destination=10.9.0.0/16,gateway=10.1.0.254", "--gateway", "none",
        "--no-dhcp", "-f", "json",
    )  # fmt: skip
    assert code == 0, err
    assert m.last_request.json() == {
        "subnet": {
            "name": "web-subnet",
            "network_id": network["id"],
            "cidr": "10.1.0.0/24",
            "ip_version": 4,
            "enable_dhcp": False,
            "gateway_ip": None,
            "allocation_pools": [{"start": "10.1.0.10", "end": "10.1.0.20"}],
            "dns_nameservers": ["8.8.8.8"],
            "host_routes": [{"destination": "10.9.0.0/16", "nexthop": "10.1.0.254"}],
        }
    }
    # the network by name: one request
    assert len([r for r in cloud_requests(m) if "/networks" in r.path]) == 1


def test_subnet_set_adds_unless_no_option(cli, mock_cloud, subnet):
    m = mock_cloud.mock
    update = m.put(V2 + "/subnets/" + subnet["id"], json={"subnet": subnet})
    code, out, err = cli("subnet", "set", "web-subnet", "--dns-nameserver", "1.1.1.1")
    assert code == 0, err
    assert update.last_request.json() == {"subnet": {"dns_nameservers": ["1.1.1.1", "8.8.8.8"]}}
    code, out, err = cli(
        "subnet", "set", "web-subnet", "--no-dns-nameservers", "--no-host-route",
        "--gateway", "192.168.199.5",
    )  # fmt: skip
    assert code == 0, err
    assert update.last_request.json() == {
        "subnet": {"gateway_ip": "192.168.199.5", "dns_nameservers": [], "host_routes": []}
    }


def test_subnet_unset_removes_held_items_only(cli, mock_cloud, subnet):
    m = mock_cloud.mock
    update = m.put(V2 + "/subnets/" + subnet["id"], json={"subnet": subnet})
    code, out, err = cli(
        "subnet", "unset", "web-subnet", "--gateway", "--dns-nameserver", "8.8.8.8",
        "--host-route", "destination=10.9.0.0/16,gateway=192.168.199.9",
    )  # fmt: skip
    assert code == 0, err
    assert update.last_request.json() == {
        "subnet": {"gateway_ip": None, "dns_nameservers": [], "host_routes": []}
    }
    calls = update.call_count
    code, out, err = cli("subnet", "unset", "web-subnet", "--dns-nameserver", "9.9.9.9")
    assert code == 1
    assert "Subnet does not contain dns-nameserver 9.9.9.9" in err
    assert update.call_count == calls


def test_subnet_manager_refuses_a_subnet_without_range(client):
    from occli import exceptions

    with pytest.raises(exceptions.ValidationError, match="needs a range: give cidr"):
        client.subnets.create("net-id")
    with pytest.raises(exceptions.ValidationError, match="ip_version must be 4 or 6"):
        client.subnets.create("net-id", cidr="10.0.0.0/24", ip_version=5)


GROUP_ID = "85cc3048-abc3-43cc-89b3-377341426ac5"


@pytest.fixture
def port(mock_cloud):
    """Port ``p1`` found by name, with a fixed IP, the default group and
    an allowed address pair."""
    body = sample("ports", "port-show-response.json")["port"]
    body.update(
        name="p1",
        security_groups=[GROUP_ID],
        allowed_address_pairs=[{"ip_address": "10.0.0.9", "mac_address": "fa:16:3e:00:00:09"}],
    )
    mock_cloud.mock.get(V2 + "/ports?name=p1", json={"ports": [body]})
    return body


@pytest.fixture
def groups(mock_cloud):
    """Groups ``default`` (GROUP_ID) and ``web`` found by name in one list."""
    default = sample("security-groups", "security-groups-list-response.json")["security_groups"][0]
    web = dict(default, id="11111111-2222-4333-8444-555555555555", name="web")
    mock_cloud.mock.get(V2 + "/security-groups", json={"security_groups": [default, web]})
    return {"default": default["id"], "web": web["id"]}


def test_port_create_resolves_each_kind_once(cli, mock_cloud, network, subnet, groups):
    m = mock_cloud.mock
    m.post(V2 + "/ports", status_code=201, json=sample("ports", "port-create-response.json"))
    code, out, err = cli(
        "port", "create", "p2", "--network", "web",
        "--fixed-ip", "subnet=web-subnet,ip-address=192.168.199.50",
        "--fixed-ip", "subnet=web-subnet",
        "--security-group", "default", "--security-group", "web", "--device-owner", "compute:nova",
        "--allowed-address", "ip-address=10.0.0.7", "--disable", "-f", "json",
    )  # fmt: skip
    assert code == 0, err
    assert m.last_request.json() == {
        "port": {
            "name": "p2",
            "network_id": network["id"],
            "device_owner": "compute:nova",
            "admin_state_up": False,
            "allowed_address_pairs": [{"ip_address": "10.0.0.7"}],
            "fixed_ips": [
                {"subnet_id": subnet["id"], "ip_address": "192.168.199.50"},
                {"subnet_id": subnet["id"]},
            ],
            "security_groups": [groups["default"], groups["web"]],
        }
    }
    paths = [r.path for r in cloud_requests(m)]
    assert [p for p in paths if p.endswith("/subnets")] == ["/network/v2.0/subnets"]
    assert [p for p in paths if p.endswith("/security-groups")] == [
        "/network/v2.0/security-groups"
    ]


def test_port_create_without_fixed_ips_or_groups(cli, mock_cloud, network):
    m = mock_cloud.mock
    m.post(V2 + "/ports", status_code=201, json=sample("ports", "port-create-response.json"))
    code, out, err = cli(
        "port", "create", "p2", "--network", "web", "--no-fixed-ip", "--no-security-group"
    )
    assert code == 0, err
    body = m.last_request.json()["port"]
    assert body["fixed_ips"] == [] and body["security_groups"] == []
    code, out, err = cli(
        "port", "create", "p2", "--network", "web", "--no-fixed-ip", "--fixed-ip", "subnet=s"
    )
    assert code == 2
    assert "--fixed-ip and --no-fixed-ip cannot be given together." in err


def test_port_set_adds_to_current_lists(cli, mock_cloud, port, groups):
    m = mock_cloud.mock
    update = m.put(V2 + "/ports/" + port["id"], json={"port": port})
    code, out, err = cli(
        "port", "set", "p1", "--security-group", "web", "--fixed-ip", "ip-address=10.0.0.5",
        "--no-allowed-address", "--device-owner", "compute:nova",
    )  # fmt: skip
    assert code == 0, err
    assert update.last_request.json() == {
        "port": {
            "device_owner": "compute:nova",
            "fixed_ips": port["fixed_ips"] + [{"ip_address": "10.0.0.5"}],
            "security_groups": [GROUP_ID, groups["web"]],
            "allowed_address_pairs": [],
        }
    }


def test_port_unset_removes_held_items(cli, mock_cloud, port, groups):
    m = mock_cloud.mock
    update = m.put(V2 + "/ports/" + port["id"], json={"port": port})
    code, out, err = cli(
        "port", "unset", "p1", "--fixed-ip", "ip-address=10.0.0.1", "--security-group", "default",
        "--allowed-address", "ip-address=10.0.0.9", "--device",
    )  # fmt: skip
    assert code == 0, err
    assert update.last_request.json() == {
        "port": {
            "device_id": "",
            "fixed_ips": [],
            "security_groups": [],
            "allowed_address_pairs": [],
        }
    }
    calls = update.call_count
    code, out, err = cli("port", "unset", "p1", "--security-group", "web")
    assert code == 1
    assert "Port does not contain security group " + groups["web"] in err
    code, out, err = cli("port", "unset", "p1", "--fixed-ip", "ip-address=10.0.0.99")
    assert code == 1
    assert "Port does not contain fixed-ip" in err
    assert update.call_count == calls


@pytest.mark.parametrize(
    "argv, message",
    [
        (["port", "set", "p1"], "Nothing to set: give --name"),
        (["port", "unset", "p1"], "Nothing to unset: give --fixed-ip"),
        (["port", "create", "p", "--network", "n", "--fixed-ip", "address=1.2.3.4"],
         "--fixed-ip: unknown key 'address'"),
        (["port", "set", "p", "--allowed-address", "mac-address=fa:16:3e:00:00:01"],
         "--allowed-address needs ip-address="),
        (["port", "create", "p", "--network", "n", "--enable", "--disable"],
         "not allowed with argument"),
    ],
)  # fmt: skip
def test_port_usage_errors_before_any_request(cli, mock_cloud, argv, message):
    code, out, err = cli(*argv)
    assert code == 2, (out, err)
    assert message in err
    assert not cloud_requests(mock_cloud.mock)


@pytest.fixture
def router(mock_cloud):
    """Router ``router1`` found by name, with one static route."""
    body = sample("routers", "router-show-response.json")["router"]
    body["routes"] = [{"destination": "179.24.1.0/24", "nexthop": "172.24.3.99"}]
    mock_cloud.mock.get(V2 + "/routers?name=router1", json={"routers": [body]})
    return body


def test_router_create_with_gateway(cli, mock_cloud, network, subnet):
    m = mock_cloud.mock
    m.post(V2 + "/routers", status_code=201, json=sample("routers", "router-create-response.json"))
    code, out, err = cli(
        "router", "create", "r2", "--external-gateway", "web", "--disable-snat",
        "--fixed-ip", "subnet=web-subnet,ip-address=192.168.199.40", "--ha", "-f", "json",
    )  # fmt: skip
    assert code == 0, err
    assert m.last_request.json() == {
        "router": {
            "name": "r2",
            "ha": True,
            "external_gateway_info": {
                "network_id": network["id"],
                "enable_snat": False,
                "external_fixed_ips": [
                    {"subnet_id": subnet["id"], "ip_address": "192.168.199.40"}
                ],
            },
        }
    }
    assert '"status": "ACTIVE"' in out


def test_router_set_routes_gateway_and_unset(cli, mock_cloud, router, network):
    m = mock_cloud.mock
    update = m.put(V2 + "/routers/" + router["id"], json={"router": router})
    code, out, err = cli(
        "router", "set", "router1", "--route", "destination=10.2.0.0/16,gateway=10.0.0.9",
        "--external-gateway", "web", "--enable-snat",
    )  # fmt: skip
    assert code == 0, err
    assert update.last_request.json() == {
        "router": {
            "routes": [
                {"destination": "10.2.0.0/16", "nexthop": "10.0.0.9"},
                {"destination": "179.24.1.0/24", "nexthop": "172.24.3.99"},
            ],
            "external_gateway_info": {"network_id": network["id"], "enable_snat": True},
        }
    }
    code, out, err = cli(
        "router", "unset", "router1", "--external-gateway",
        "--route", "destination=179.24.1.0/24,gateway=172.24.3.99",
    )  # fmt: skip
    assert code == 0, err
    assert update.last_request.json() == {"router": {"routes": [], "external_gateway_info": {}}}
    calls = update.call_count
    code, out, err = cli(
        "router", "unset", "router1", "--route", "destination=1.0.0.0/8,gateway=2.2.2.2"
    )
    assert code == 1
    assert (
        "Router does not contain route {'destination': '1.0.0.0/8', 'nexthop': '2.2.2.2'}" in err
    )
    assert update.call_count == calls


@pytest.mark.parametrize(
    "argv, message",
    [
        (["router", "create", "r", "--disable-snat"],
         "You must specify '--external-gateway' in order to specify SNAT or fixed-ip values"),
        (["router", "set", "r", "--fixed-ip", "ip-address=172.24.4.9"],
         "You must specify '--external-gateway' in order to update the SNAT or fixed-ip values"),
        (["router", "set", "r"], "Nothing to set: give --name"),
        (["router", "unset", "r"], "Nothing to unset: give --route, --external-gateway or --tag."),
        (["router", "set", "r", "--route", "destination=10.0.0.0/8"], "--route needs gateway="),
        (["router", "create", "r", "--ha", "--no-ha"], "not allowed with argument"),
    ],
)  # fmt: skip
def test_router_usage_errors_before_any_request(cli, mock_cloud, argv, message):
    code, out, err = cli(*argv)
    assert code == 2, (out, err)
    assert message in err
    assert not cloud_requests(mock_cloud.mock)


def test_router_list_columns_and_filters(cli, mock_cloud):
    m = mock_cloud.mock
    m.get(V2 + "/routers", json=sample("routers", "routers-list-response.json"))
    code, out, err = cli("router", "list", "--disable", "--name", "router1", "-f", "json")
    assert code == 0, err
    assert m.last_request.qs == {"name": ["router1"], "admin_state_up": ["false"]}
    rows = json.loads(out)
    assert list(rows[0]) == ["ID", "Name", "Status", "State", "Project", "Distributed", "HA"]
    code, out, err = cli("router", "list", "--long", "-c", "External gateway info")
    assert code == 0, err
    assert '"network_id": "ae34051f-aa6c-4c75-abf5-50dc9ac99ef3"' in out


def test_router_add_and_remove_interfaces(cli, mock_cloud, router, subnet, port):
    m = mock_cloud.mock
    info = sample("routers", "router-add-interface-response.json")
    add = m.put(V2 + "/routers/%s/add_router_interface" % router["id"], json=info)
    remove = m.put(V2 + "/routers/%s/remove_router_interface" % router["id"], json=info)
    code, out, err = cli("router", "add", "subnet", "router1", "web-subnet")
    assert code == 0, err
    assert add.last_request.json() == {"subnet_id": subnet["id"]}
    code, out, err = cli("router", "add", "port", "router1", "p1")
    assert code == 0, err
    assert add.last_request.json() == {"port_id": port["id"]}
    code, out, err = cli("router", "remove", "subnet", "router1", "web-subnet")
    assert code == 0, err
    assert remove.last_request.json() == {"subnet_id": subnet["id"]}
    m.put(
        V2 + "/routers/%s/remove_router_interface" % router["id"],
        status_code=409,
        json={"NeutronError": {"type": "RouterInterfaceInUseByFloatingIP", "message": "in use",
                               "detail": ""}},
    )  # fmt: skip
    code, out, err = cli("router", "remove", "port", "router1", "p1")
    assert code == 1
    assert "in use" in err


def test_router_manager_wants_a_subnet_or_a_port(client):
    from occli import exceptions

    with pytest.raises(exceptions.ValidationError, match="Give subnet or port, not both"):
        client.routers.add_interface("r", subnet="s", port="p")
    with pytest.raises(exceptions.ValidationError, match="Give subnet or port"):
        client.routers.remove_interface("r")


@pytest.mark.parametrize("verb, action", [("add", "add"), ("remove", "remove")])
def test_router_add_and_remove_routes_atomically(cli, mock_cloud, router, verb, action):
    m = mock_cloud.mock
    answer = sample("routers", "router-%s-extraroutes-response.json" % action)
    put = m.put(V2 + "/routers/%s/%s_extraroutes" % (router["id"], action), json=answer)
    code, out, err = cli(
        "router", verb, "route", "router1", "--route", "destination=10.0.3.0/24,gateway=10.0.0.13",
        "--route", "destination=10.0.4.0/24,gateway=10.0.0.14", "-f", "json",
    )  # fmt: skip
    assert code == 0, err
    assert put.last_request.json() == load_fixture(
        "network", "routers", "router-add-extraroutes-request.json"
    )
    assert json.loads(out)["routes"] == answer["router"]["routes"]
