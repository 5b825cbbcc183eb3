"""Security group and floating IP set/unset and rule show against the
local cloud's Neutron (demo user, cloud ``local``): a stateless group, a
rule shown with the prefix it matches, a floating IP associated through
``router1`` with a port on ``private`` and detached again, and the
refusal of a port no router reaches."""

import uuid

import pytest

from tests.functional.harness import as_json
from tests.functional.harness import ok


@pytest.fixture
def occli(occli_env, run_occli):
    return run_occli


def unique(prefix):
    return "%s-%s" % (prefix, uuid.uuid4().hex[:8])


def test_security_group_set_and_rule_show(occli):
    name = unique("sg")
    group = as_json(occli("security", "group", "create", name, "--stateless", "-f", "json"))
    try:
        assert group["stateful"] is False
        assert group["description"] == name  # OSC describes a group by its name
        ok(occli("security", "group", "set", name, "--stateful", "--description", "web",
                 "--name", name + "-2"))  # fmt: skip
        shown = as_json(occli("security", "group", "show", group["id"], "-f", "json"))
        assert (shown["name"], shown["description"], shown["stateful"]) == (
            name + "-2", "web", True,
        )  # fmt: skip
        rule = as_json(
            occli("security", "group", "rule", "create", group["id"], "--protocol", "tcp",
                  "--dst-port", "22", "--remote-group", group["id"], "-f", "json")
        )  # fmt: skip
        got = as_json(occli("security", "group", "rule", "show", rule["id"], "-f", "json"))
        assert got["id"] == rule["id"] and got["remote_group_id"] == group["id"]
        assert got["port_range_min"] == 22 and got["remote_ip_prefix"] == "0.0.0.0/0"
        code, out, err = occli("security", "group", "rule", "show", str(uuid.uuid4()))
        assert code == 1 and "Security group rule" in err
    finally:
        ok(occli("security", "group", "delete", group["id"]))


def test_floating_ip_set_and_unset_port(occli):
    port = as_json(occli("port", "create", unique("fport"), "--network", "private", "-f", "json"))
    fip = as_json(occli("floating", "ip", "create", "public", "-f", "json"))
    address = fip["floating_ip_address"]
    try:
        ok(occli("floating", "ip", "set", address, "--port", port["name"],
                 "--description", "web"))  # fmt: skip
        shown = as_json(occli("floating", "ip", "show", address, "-f", "json"))
        assert shown["port_id"] == port["id"] and shown["description"] == "web"
        assert shown["fixed_ip_address"] == port["fixed_ips"][0]["ip_address"]
        assert shown["router_id"]
        ok(occli("floating", "ip", "unset", fip["id"], "--port"))
        shown = as_json(occli("floating", "ip", "show", address, "-f", "json"))
        assert shown["port_id"] is None and shown["fixed_ip_address"] is None
    finally:
        ok(occli("floating", "ip", "delete", address))
        ok(occli("port", "delete", port["id"]))


def test_floating_ip_set_refuses_a_port_no_router_reaches(occli):
    net = as_json(occli("network", "create", unique("island"), "-f", "json"))
    subnet = as_json(
        occli("subnet", "create", unique("island-sub"), "--network", net["id"],
              "--subnet-range", "10.77.0.0/24", "-f", "json")
    )  # fmt: skip
    port = as_json(occli("port", "create", unique("iport"), "--network", net["id"], "-f", "json"))
    fip = as_json(occli("floating", "ip", "create", "public", "-f", "json"))
    try:
        code, out, err = occli("floating", "ip", "set", fip["id"], "--port", port["id"])
        assert code == 1
        assert "is not reachable from subnet" in err
    finally:
        ok(occli("floating", "ip", "delete", fip["id"]))
        ok(occli("port", "delete", port["id"]))
        ok(occli("subnet", "delete", subnet["id"]))
        ok(occli("network", "delete", net["id"]))


def test_tags_on_create_set_unset_and_list_filters(occli):
    mark = unique("t")
    net = as_json(
        occli("network", "create", unique("tnet"), "--tag", mark, "--tag", "blue", "-f", "json")
    )
    subnet = as_json(
        occli("subnet", "create", unique("tsub"), "--network", net["id"],
              "--subnet-range", "10.78.0.0/24", "--tag", mark, "-f", "json")
    )  # fmt: skip
    port = as_json(occli("port", "create", unique("tport"), "--network", net["id"],
                         "--tag", mark, "-f", "json"))  # fmt: skip
    router = as_json(occli("router", "create", unique("trouter"), "--tag", mark, "-f", "json"))
    group = as_json(
        occli("security", "group", "create", unique("tsg"), "--tag", mark, "-f", "json")
    )
    fip = as_json(occli("floating", "ip", "create", "public", "--tag", mark, "-f", "json"))
    try:
        assert sorted(net["tags"]) == sorted([mark, "blue"])
        for made in (subnet, port, router, group, fip):
            assert made["tags"] == [mark]
        kinds = {
            ("network",): net, ("subnet",): subnet, ("port",): port, ("router",): router,
            ("security", "group"): group, ("floating", "ip"): fip,
        }  # fmt: skip
        for words, made in kinds.items():
            listed = as_json(occli(*words, "list", "--tags", mark, "-f", "json"))
            assert [r["ID"] for r in listed] == [made["id"]], words
            listed = as_json(occli(*words, "list", "--any-tags", mark + ",x", "-f", "json"))
            assert [r["ID"] for r in listed] == [made["id"]], words
            listed = as_json(occli(*words, "list", "--not-tags", mark, "-f", "json"))
            assert made["id"] not in [r["ID"] for r in listed], words
            ok(occli(*words, "set", made["id"], "--tag", "red"))
            shown = as_json(occli(*words, "show", made["id"], "-f", "json"))
            assert "red" in shown["tags"] and mark in shown["tags"], words
            ok(occli(*words, "unset", made["id"], "--tag", mark))
            shown = as_json(occli(*words, "show", made["id"], "-f", "json"))
            assert mark not in shown["tags"] and "red" in shown["tags"], words
            ok(occli(*words, "set", made["id"], "--no-tag", "--tag", "green"))
            assert as_json(occli(*words, "show", made["id"], "-f", "json"))["tags"] == ["green"]
            ok(occli(*words, "unset", made["id"], "--all-tag"))
            assert as_json(occli(*words, "show", made["id"], "-f", "json"))["tags"] == []
        listed = as_json(occli("network", "list", "--long", "--name", net["name"], "-f", "json"))
        assert listed[0]["Tags"] == []
    finally:
        ok(occli("floating", "ip", "delete", fip["id"]))
        ok(occli("security", "group", "delete", group["id"]))
        ok(occli("router", "delete", router["id"]))
        ok(occli("port", "delete", port["id"]))
        ok(occli("subnet", "delete", subnet["id"]))
        ok(occli("network", "delete", net["id"]))


def test_subnet_host_routes_set_and_unset(occli):
    net = as_json(occli("network", "create", unique("hnet"), "-f", "json"))
    subnet = as_json(
        occli("subnet", "create", unique("hsub"), "--network", net["id"],
              "--subnet-range", "10.79.0.0/24",
              "--host-route", "destination=10.9.0.0/16,gateway=10.79.0.9", "-f", "json")
    )  # fmt: skip
    try:
        first = {"destination": "10.9.0.0/16", "nexthop": "10.79.0.9"}
        second = {"destination": "10.8.0.0/16", "nexthop": "10.79.0.8"}
        assert subnet["host_routes"] == [first]
        ok(occli("subnet", "set", subnet["id"],
                 "--host-route", "destination=10.8.0.0/16,gateway=10.79.0.8"))  # fmt: skip
        shown = as_json(occli("subnet", "show", subnet["id"], "-f", "json"))
        assert sorted(shown["host_routes"], key=str) == sorted([first, second], key=str)
        ok(occli("subnet", "unset", subnet["id"],
                 "--host-route", "destination=10.9.0.0/16,gateway=10.79.0.9"))  # fmt: skip
        assert as_json(occli("subnet", "show", subnet["id"], "-f", "json"))["host_routes"] == [
            second
        ]
        ok(occli("subnet", "set", subnet["id"], "--no-host-route"))
        assert as_json(occli("subnet", "show", subnet["id"], "-f", "json"))["host_routes"] == []
    finally:
        ok(occli("subnet", "delete", subnet["id"]))
        ok(occli("network", "delete", net["id"]))


def test_port_allowed_addresses_set_and_unset(occli):
    # Neutron lets the network's owner give allowed address pairs
    net = as_json(occli("network", "create", unique("anet"), "-f", "json"))
    subnet = as_json(
        occli("subnet", "create", unique("asub"), "--network", net["id"],
              "--subnet-range", "10.0.0.0/24", "-f", "json")
    )  # fmt: skip
    port = as_json(
        occli("port", "create", unique("aport"), "--network", net["id"],
              "--allowed-address", "ip-address=10.0.0.201", "-f", "json")
    )  # fmt: skip
    try:
        pairs = port["allowed_address_pairs"]
        assert [p["ip_address"] for p in pairs] == ["10.0.0.201"]
        assert pairs[0]["mac_address"] == port["mac_address"]  # Neutron fills in the port's
        ok(occli("port", "set", port["id"], "--allowed-address",
                 "ip-address=10.0.0.0/28,mac-address=fa:16:3e:00:00:07"))  # fmt: skip
        shown = as_json(occli("port", "show", port["id"], "-f", "json"))
        assert sorted(p["ip_address"] for p in shown["allowed_address_pairs"]) == [
            "10.0.0.0/28", "10.0.0.201",
        ]  # fmt: skip
        ok(occli("port", "unset", port["id"], "--allowed-address", "ip-address=10.0.0.201"))
        shown = as_json(occli("port", "show", port["id"], "-f", "json"))
        assert shown["allowed_address_pairs"] == [
            {"ip_address": "10.0.0.0/28", "mac_address": "fa:16:3e:00:00:07"}
        ]
        ok(occli("port", "set", port["id"], "--no-allowed-address"))
        shown = as_json(occli("port", "show", port["id"], "-f", "json"))
        assert shown["allowed_address_pairs"] == []
    finally:
        ok(occli("port", "delete", port["id"]))
        ok(occli("subnet", "delete", subnet["id"]))
        ok(occli("network", "delete", net["id"]))
