"""``security group create|set|unset``, ``security group rule show``,
``floating ip set|unset`` and the list options of ``subnet set`` and
``port set`` in-process against requests-mock (Neutron api-ref samples):
OSC's bodies, names resolved with one request per kind, usage errors
(exit 2) naming the option before any request."""

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
def group(mock_cloud):
    """Security group ``web`` found by name."""
    body = sample("security-groups", "security-group-show-response.json")["security_group"]
    body.update(name="web", tags=["blue"])
    mock_cloud.mock.get(V2 + "/security-groups?name=web", json={"security_groups": [body]})
    return body


@pytest.fixture
def fip(mock_cloud):
    """The sample floating IP, found by its address."""
    body = sample("floatingips", "floatingip-show-response.json")["floatingip"]
    body["tags"] = []
    mock_cloud.mock.get(
        V2 + "/floatingips?floating_ip_address=" + body["floating_ip_address"],
        json={"floatingips": [body]},
    )
    return body


def test_security_group_create_as_osc(cli, mock_cloud):
    m = mock_cloud.mock
    post = m.post(
        V2 + "/security-groups",
        status_code=201,
        json=sample("security-groups", "security-group-create-response.json"),
    )
    code, out, err = cli("security", "group", "create", "web", "--stateless", "--project", "p1")
    assert code == 0, err
    # OSC describes a group by its name unless told otherwise
    assert post.last_request.json() == {
        "security_group": {
            "name": "web",
            "description": "web",
            "stateful": False,
            "project_id": "p1",
        }
    }
    code, out, err = cli("security", "group", "create", "db", "--description", "")
    assert code == 0, err
    assert post.last_request.json() == {"security_group": {"name": "db", "description": ""}}


def test_security_group_set_sends_what_is_given(cli, mock_cloud, group):
    m = mock_cloud.mock
    url = V2 + "/security-groups/" + group["id"]
    update = m.put(url, json={"security_group": group})
    tags = m.put(url + "/tags", json={"tags": ["blue", "red"]})
    code, out, err = cli(
        "security", "group", "set", "web", "--name", "web2", "--description", "d",
        "--stateless", "--tag", "red",
    )  # fmt: skip
    assert code == 0, err
    assert update.last_request.json() == {
        "security_group": {"name": "web2", "description": "d", "stateful": False}
    }
    assert tags.last_request.json() == {"tags": ["blue", "red"]}
    code, out, err = cli("security", "group", "set", "web", "--stateful")
    assert code == 0, err
    assert update.last_request.json() == {"security_group": {"stateful": True}}
    assert tags.call_count == 1


def test_security_group_unset_removes_tags(cli, mock_cloud, group):
    tags = mock_cloud.mock.put(V2 + "/security-groups/%s/tags" % group["id"], json={"tags": []})
    code, out, err = cli("security", "group", "unset", "web", "--tag", "blue")
    assert code == 0, err
    assert tags.last_request.json() == {"tags": []}


def test_security_group_manager_wants_something_to_change(client):
    from occli import exceptions

    with pytest.raises(exceptions.ValidationError, match="stateful"):
        client.security_groups.update("85cc3048-abc3-43cc-89b3-377341426ac5")


def test_security_group_rule_show_fills_in_the_prefix_it_matches(cli, mock_cloud):
    rule = sample("security-groups", "security-group-rule-show-response.json")
    rule_id = rule["security_group_rule"]["id"]
    assert rule["security_group_rule"]["remote_ip_prefix"] is None
    got = mock_cloud.mock.get(V2 + "/security-group-rules/" + rule_id, json=rule)
    code, out, err = cli("security", "group", "rule", "show", rule_id, "-f", "json")
    assert code == 0, err
    shown = json.loads(out)
    assert shown["remote_ip_prefix"] == "::/0"  # the sample's rule is IPv6
    assert shown["id"] == rule_id
    assert got.call_count == 1
    rule["security_group_rule"].update(ethertype="IPv4", remote_ip_prefix="10.0.0.0/8")
    got = mock_cloud.mock.get(V2 + "/security-group-rules/" + rule_id, json=rule)
    code, out, err = cli("security", "group", "rule", "show", rule_id, "-f", "json")
    assert code == 0, err
    assert json.loads(out)["remote_ip_prefix"] == "10.0.0.0/8"


def test_security_group_rule_show_of_an_unknown_rule(cli, mock_cloud):
    rule_id = "3c0e45ff-adaf-4124-b083-bf390e548200"
    mock_cloud.mock.get(
        V2 + "/security-group-rules/" + rule_id,
        status_code=404,
        json={
            "NeutronError": {
                "type": "SecurityGroupRuleNotFound",
                "message": "Security group rule %s does not exist" % rule_id,
                "detail": "",
            }
        },
    )
    code, out, err = cli("security", "group", "rule", "show", rule_id)
    assert code == 1
    assert "Security group rule %s does not exist" % rule_id in err


def test_floating_ip_set_associates_with_a_port_found_once(cli, mock_cloud, fip):
    m = mock_cloud.mock
    port = sample("ports", "port-show-response.json")["port"]
    port["name"] = "p1"
    ports = m.get(V2 + "/ports?name=p1", json={"ports": [port]})
    update = m.put(V2 + "/floatingips/" + fip["id"], json={"floatingip": fip})
    code, out, err = cli(
        "floating", "ip", "set", fip["floating_ip_address"], "--port", "p1",
        "--fixed-ip-address", "10.0.0.3", "--description", "web",
    )  # fmt: skip
    assert code == 0, err
    assert ports.call_count == 1
    assert update.last_request.json() == {
        "floatingip": {"port_id": port["id"], "fixed_ip_address": "10.0.0.3", "description": "web"}
    }
    assert [r.method for r in cloud_requests(m)] == ["GET", "GET", "PUT"]


def test_floating_ip_unset_port_sends_null(cli, mock_cloud, fip):
    m = mock_cloud.mock
    update = m.put(V2 + "/floatingips/" + fip["id"], json={"floatingip": fip})
    code, out, err = cli("floating", "ip", "unset", "--port", fip["floating_ip_address"])
    assert code == 0, err
    assert update.last_request.json() == {"floatingip": {"port_id": None}}


def test_floating_ip_set_tags_only_sends_no_update(cli, mock_cloud, fip):
    m = mock_cloud.mock
    m.get(V2 + "/floatingips/" + fip["id"], json={"floatingip": fip})
    update = m.put(V2 + "/floatingips/" + fip["id"], json={"floatingip": fip})
    tags = m.put(V2 + "/floatingips/%s/tags" % fip["id"], json={"tags": ["t"]})
    code, out, err = cli("floating", "ip", "set", fip["id"], "--tag", "t")
    assert code == 0, err
    assert not update.called
    assert tags.last_request.json() == {"tags": ["t"]}


def test_floating_ip_manager_update_wants_attributes(client):
    from occli import exceptions

    with pytest.raises(exceptions.ValidationError, match="Nothing to change in floating IP"):
        client.floating_ips.update("2f245a7b-796b-4f26-9cf9-9e82d248fda7")


@pytest.mark.parametrize(
    "argv, message",
    [
        (["security", "group", "set", "web"], "Nothing to set: give --name"),
        (["security", "group", "set", "web", "--stateful", "--stateless"],
         "argument --stateless: not allowed with argument --stateful"),
        (["security", "group", "create", "web", "--stateless", "--stateful"],
         "argument --stateful: not allowed with argument --stateless"),
        (["floating", "ip", "set", "172.24.4.228"], "Nothing to set: give --port"),
        (["security", "group", "rule", "show"], "the following arguments are required: <rule>"),
    ],
)  # fmt: skip
def test_usage_errors_before_any_request(cli, mock_cloud, argv, message):
    code, out, err = cli(*argv)
    assert code == 2, (out, err)
    assert message in err
    assert not cloud_requests(mock_cloud.mock)


def test_subnet_set_host_route_adds_to_the_current_ones(cli, mock_cloud):
    m = mock_cloud.mock
    subnet = sample("subnets", "subnet-show-response.json")["subnet"]
    current = {"destination": "10.9.0.0/16", "nexthop": "192.168.199.9"}
    subnet.update(name="s1", host_routes=[current])
    m.get(V2 + "/subnets?name=s1", json={"subnets": [subnet]})
    update = m.put(V2 + "/subnets/" + subnet["id"], json={"subnet": subnet})
    code, out, err = cli(
        "subnet", "set", "s1", "--host-route", "destination=10.8.0.0/16,gateway=192.168.199.8"
    )
    assert code == 0, err
    assert update.last_request.json() == {
        "subnet": {
            "host_routes": [{"destination": "10.8.0.0/16", "nexthop": "192.168.199.8"}, current]
        }
    }
    code, out, err = cli(
        "subnet", "unset", "s1", "--host-route", "destination=10.7.0.0/16,gateway=192.168.199.7"
    )
    assert code == 1
    assert "Subnet does not contain host-route" in err


def test_port_set_allowed_address_adds_to_the_current_pairs(cli, mock_cloud):
    m = mock_cloud.mock
    port = sample("ports", "port-show-response.json")["port"]
    held = {"ip_address": "10.0.0.9", "mac_address": "fa:16:3e:00:00:09"}
    port.update(name="p1", allowed_address_pairs=[held])
    m.get(V2 + "/ports?name=p1", json={"ports": [port]})
    update = m.put(V2 + "/ports/" + port["id"], json={"port": port})
    code, out, err = cli(
        "port",
        "set",
        "p1",
        "--allowed-address",
        "ip-address=10.0.0.7,mac-address=fa:16:3e:00:00:07",
    )
    assert code == 0, err
    assert update.last_request.json() == {
        "port": {
            "allowed_address_pairs": [
                held, {"ip_address": "10.0.0.7", "mac_address": "fa:16:3e:00:00:07"}
            ]
        }
    }  # fmt: skip
