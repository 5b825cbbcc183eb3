"""Network, security group, floating IP and server network commands
in-process against requests-mock: option parsing, the requests they
make, usage errors (exit 2) before any request."""

import copy

import pytest

from .fakes import COMPUTE
from .fakes import NETWORK
from .fakes import load_fixture
from .fakes import requests_to

V2 = NETWORK + "/v2.0"
SERVER_ID = "9ae135f4-b6e0-4dad-9e91-3c223e385824"
GROUP_ID = "85cc3048-abc3-43cc-89b3-377341426ac5"


def sample(folder, name):
    return copy.deepcopy(load_fixture("network", folder, name))


def no_cloud_request(mock):
    return not [r for r in mock.request_history if "/identity/" not in r.url]


@pytest.fixture
def server(mock_cloud):
    """Server vm (SERVER_ID), found by id."""
    body = copy.deepcopy(load_fixture("compute", "servers", "v2.96", "server-get-resp.json"))
    body["server"].update(id=SERVER_ID, name="vm")
    mock_cloud.mock.get(COMPUTE + "/servers/" + SERVER_ID, json=body)
    return body["server"]


def test_network_list_external_and_internal(cli, mock_cloud):
    mock_cloud.mock.get(V2 + "/networks", json=sample("networks", "networks-list-response.json"))
    code, out, err = cli("network", "list", "--internal", "-f", "json")
    assert code == 0, err
    assert mock_cloud.mock.last_request.qs == {"router:external": ["false"]}
    code, out, err = cli("network", "list", "--internal", "--external")
    assert code == 2
    assert "not allowed with argument" in err


def test_port_list_fixed_ip_filter(cli, mock_cloud):
    mock_cloud.mock.get(V2 + "/ports", json=sample("ports", "ports-list-response.json"))
    code, out, err = cli("port", "list", "--fixed-ip", "ip-address=10.0.0.3", "-f", "json")
    assert code == 0, err
    assert mock_cloud.mock.last_request.qs == {"fixed_ips": ["ip_address=10.0.0.3"]}
    code, out, err = cli("port", "list", "--fixed-ip", "10.0.0.3")
    assert code == 2
    assert "--fixed-ip expects ip-address=<ip> or subnet=<subnet-id>" in err


def test_rule_create_defaults_and_remote_group(cli, mock_cloud):
    m = mock_cloud.mock
    group = sample("security-groups", "security-group-show-response.json")["security_group"]
    m.get(V2 + "/security-groups/" + GROUP_ID, json={"security_group": group})
    created = sample("security-groups", "security-group-rule-create-response.json")
    m.post(V2 + "/security-group-rules", status_code=201, json=created)
    code, out, err = cli(
        "security", "group", "rule", "create", GROUP_ID, "--egress", "--ethertype", "IPv6",
        "--protocol", "udp", "--dst-port", "53",
    )  # fmt: skip
    assert code == 0, err
    assert m.last_request.json()["security_group_rule"] == {
        "direction": "egress",
        "ethertype": "IPv6",
        "protocol": "udp",
        "port_range_min": 53,
        "port_range_max": 53,
        "remote_ip_prefix": "::/0",
        "security_group_id": group["id"],
    }
    code, out, err = cli(
        "security", "group", "rule", "create", GROUP_ID, "--remote-group", GROUP_ID
    )
    assert code == 0, err
    body = m.last_request.json()["security_group_rule"]
    assert body["remote_group_id"] == group["id"] and "remote_ip_prefix" not in body


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--dst-port", "22"], "needs a protocol with ports"),
        (["--protocol", "tcp", "--dst-port", "a:b"], "--dst-port expects <port> or <min>:<max>"),
        (["--protocol", "tcp", "--dst-port", "90:80"], "starts above its end"),
        (["--remote-ip", "10.0.0.0/8", "--remote-group", "g"], "--remote-ip or --remote-group"),
        (["--ingress", "--egress"], "not allowed with argument --ingress"),
    ],
)
def test_rule_create_usage_errors(cli, mock_cloud, extra, message):
    code, out, err = cli("security", "group", "rule", "create", "web", *extra)
    assert code == 2
    assert message in err
    assert no_cloud_request(mock_cloud.mock)


def test_add_floating_ip_tries_the_servers_ports(cli, mock_cloud, server):
    m = mock_cloud.mock
    fip = sample("floatingips", "floatingip-show-response.json")["floatingip"]
    m.get(V2 + "/floatingips", json={"floatingips": [fip]})
    ports = sample("ports", "ports-list-response.json")["ports"]
    m.get(V2 + "/ports", json={"ports": ports})
    url = V2 + "/floatingips/" + fip["id"]
    # the first port's network cannot reach the IP (404), the second can
    m.put(
        url,
        [
            {"status_code": 404, "json": {"NeutronError": {"message": "unreachable"}}},
            {"json": {"floatingip": fip}},
        ],
    )
    code, out, err = cli("server", "add", "floating", "ip", SERVER_ID, fip["floating_ip_address"])
    assert code == 0, err
    sent = [r.json() for r in requests_to(m, "PUT", "/floatingips/")]
    assert sent == [{"floatingip": {"port_id": p["id"]}} for p in ports[:2]]
    assert requests_to(m, "GET", "/ports")[0].qs == {"device_id": [SERVER_ID]}


def test_add_floating_ip_to_a_fixed_ip(cli, mock_cloud, server):
    m = mock_cloud.mock
    fip = sample("floatingips", "floatingip-show-response.json")["floatingip"]
    m.get(V2 + "/floatingips", json={"floatingips": [fip]})
    port = sample("ports", "ports-list-response.json")["ports"][0]
    m.get(V2 + "/ports", json={"ports": [port]})
    m.put(V2 + "/floatingips/" + fip["id"], json={"floatingip": fip})
    code, out, err = cli(
        "server", "add", "floating", "ip", SERVER_ID, fip["floating_ip_address"],
        "--fixed-ip-address", "172.24.4.2",
    )  # fmt: skip
    assert code == 0, err
    assert requests_to(m, "GET", "/ports")[0].qs == {
        "device_id": [SERVER_ID],
        "fixed_ips": ["ip_address=172.24.4.2"],
    }
    assert m.last_request.json() == {
        "floatingip": {"port_id": port["id"], "fixed_ip_address": "172.24.4.2"}
    }


def test_remove_fixed_ip_updates_or_detaches_the_port(cli, mock_cloud, server):
    m = mock_cloud.mock
    port = sample("ports", "ports-list-response.json")["ports"][0]
    kept = {"ip_address": "10.0.0.7", "subnet_id": "s"}
    two = dict(port, fixed_ips=port["fixed_ips"] + [kept])
    m.get(V2 + "/ports", json={"ports": [two]})
    m.put(V2 + "/ports/" + port["id"], json={"port": dict(port, fixed_ips=[kept])})
    code, out, err = cli("server", "remove", "fixed", "ip", SERVER_ID, "172.24.4.2")
    assert code == 0, err
    assert m.last_request.json() == {"port": {"fixed_ips": [kept]}}
    m.get(V2 + "/ports", json={"ports": [port]})
    m.delete(COMPUTE + "/servers/%s/os-interface/%s" % (SERVER_ID, port["id"]), status_code=202)
    code, out, err = cli("server", "remove", "fixed", "ip", SERVER_ID, "172.24.4.2")
    assert code == 0, err
    assert m.last_request.method == "DELETE"


def test_add_port_and_network_with_tags(cli, mock_cloud, server):
    m = mock_cloud.mock
    port = sample("ports", "port-show-response.json")
    m.get(V2 + "/ports/" + port["port"]["id"], json=port)
    interface = load_fixture(
        "compute", "os-attach-interfaces", "attach-interfaces-create-resp.json"
    )
    m.post(COMPUTE + "/servers/%s/os-interface" % SERVER_ID, json=interface)
    code, out, err = cli("server", "add", "port", SERVER_ID, port["port"]["id"], "--tag", "t")
    assert code == 0, err
    assert m.last_request.json() == {
        "interfaceAttachment": {"port_id": port["port"]["id"], "tag": "t"}
    }
    code, out, err = cli(
        "--os-compute-api-version", "2.48", "server", "add", "network", SERVER_ID, "private",
        "--tag", "t",
    )  # fmt: skip
    assert code == 1
    assert "2.49" in err
    assert not requests_to(m, "GET", "/networks")


def test_add_security_group_sends_its_id(cli, mock_cloud, server):
    m = mock_cloud.mock
    group = sample("security-groups", "security-group-show-response.json")["security_group"]
    m.get(V2 + "/security-groups", json={"security_groups": [group]})
    m.post(COMPUTE + "/servers/%s/action" % SERVER_ID, status_code=202)
    code, out, err = cli("server", "add", "security", "group", SERVER_ID, group["name"])
    assert code == 0, err
    assert m.last_request.json() == {"addSecurityGroup": {"name": group["id"]}}
    code, out, err = cli("server", "remove", "security", "group", SERVER_ID, group["name"])
    assert code == 0, err
    assert m.last_request.json() == {"removeSecurityGroup": {"name": group["id"]}}
