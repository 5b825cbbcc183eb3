"""``router show`` lists the router's interfaces as OSC does
(``interfaces_info``: one entry per fixed IP of its ports but the gateway),
against the local cloud's Neutron."""

import uuid

import pytest

from tests.functional.harness import as_json
from tests.functional.harness import ok


@pytest.fixture
def occli(occli_env, run_occli):
    return run_occli


def test_router_show_lists_its_interfaces_but_the_gateway(occli):
    suffix = uuid.uuid4().hex[:8]
    net = as_json(occli("network", "create", "ifnet-" + suffix, "-f", "json"))
    subnet = as_json(
        occli("subnet", "create", "ifsub-" + suffix, "--network", net["id"],
              "--subnet-range", "10.43.0.0/24", "-f", "json")
    )  # fmt: skip
    router = as_json(
        occli("router", "create", "ifrouter-" + suffix, "--external-gateway", "public",
              "-f", "json")
    )  # fmt: skip
    try:
        shown = as_json(occli("router", "show", router["id"], "-f", "json"))
        assert shown["interfaces_info"] == [], "the gateway port is no interface"
        ok(occli("router", "add", "subnet", router["id"], subnet["id"]))
        shown = as_json(occli("router", "show", router["id"], "-f", "json"))
        (port,) = as_json(
            occli("port", "list", "--device-owner", "network:router_interface",
                  "--network", net["id"], "-f", "json")
        )  # fmt: skip
        assert shown["interfaces_info"] == [
            {"port_id": port["ID"], "ip_address": "10.43.0.1", "subnet_id": subnet["id"]}
        ]
        code, out, err = occli("router", "show", router["id"], "-c", "interfaces_info")
        assert code == 0 and '[{"port_id": "%s", "ip_address": "10.43.0.1"' % port["ID"] in out
        ok(occli("router", "remove", "subnet", router["id"], subnet["id"]))
    finally:
        occli("router", "delete", router["id"])
        occli("subnet", "delete", subnet["id"])
        occli("network", "delete", net["id"])
