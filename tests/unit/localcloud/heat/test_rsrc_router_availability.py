"""The Neutron router types exist only where the local Neutron serves
routers (``available_resource_mapping``): absent without them, with Heat's
not-found text; mapped, listed and validated as Heat's now that the
routers API is there."""

import pytest

from occli.localcloud import errors
from occli.localcloud.orchestration.engine.resources.openstack.neutron import router
from tests.unit.localcloud.heat import harness

TYPES = ("OS::Neutron::Router", "OS::Neutron::RouterInterface", "OS::Neutron::RouterGateway")


def tmpl(resources):
    return {"heat_template_version": "2018-08-31", "resources": resources}


def create(fixture, name, template):
    made = harness.engine(fixture).create_stack(
        harness.context(fixture), name, template, {}, {}, {}, {"disable_rollback": True}
    )
    return harness.wait(fixture, made["id"])


def test_the_mapping_follows_the_routers_api(monkeypatch):
    monkeypatch.setattr(router, "routers_served", lambda: False)
    assert router.available_resource_mapping() == {}
    monkeypatch.setattr(router, "routers_served", lambda: True)
    mapping = router.available_resource_mapping()
    assert sorted(mapping) == sorted(TYPES)
    assert mapping["OS::Neutron::Router"] is router.Router


def test_routers_are_served_once_the_routers_rules_module_exists(monkeypatch):
    found = []

    def find_spec(name):
        found.append(name)
        return object()

    monkeypatch.setattr(router.importlib.util, "find_spec", find_spec)
    assert router.routers_served() is True
    assert found == ["occli.localcloud.network.routers"]
    monkeypatch.setattr(router.importlib.util, "find_spec", lambda name: None)
    assert router.routers_served() is False


def test_the_local_neutron_serves_routers_so_the_types_are_mapped(tmp_path):
    assert router.routers_served() is True
    fixture = harness.start(heat_plugin_dirs=[str(tmp_path)])
    try:
        types = set(harness.engine(fixture).global_env.get_types())
        assert {"OS::Neutron::Router", "OS::Neutron::RouterInterface"} <= types
    finally:
        fixture.stop()


def test_without_the_routers_api_a_router_is_an_unknown_type(tmp_path, monkeypatch):
    monkeypatch.setattr(router, "routers_served", lambda: False)
    fixture = harness.start(heat_plugin_dirs=[str(tmp_path)])
    try:
        with pytest.raises(errors.Error) as refused:
            create(fixture, "norouter", tmpl({"r": {"type": "OS::Neutron::Router"}}))
        assert "The Resource Type (OS::Neutron::Router) could not be found." in (
            refused.value.message
        )
        types = harness.engine(fixture).global_env.get_types()
        assert not set(TYPES) & set(types)
    finally:
        fixture.stop()


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """A cloud whose registry was built while routers count as served (a
    plugin directory of its own: the registry is cached per directories)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(router, "routers_served", lambda: True)
        fixture = harness.start(heat_plugin_dirs=[str(tmp_path_factory.mktemp("routers"))])
        # the registry is built on first use: now, while routers count as served
        env = harness.engine(fixture).global_env
    assert "OS::Neutron::Router" in env.get_types()
    yield fixture
    fixture.stop()


def test_once_served_the_router_types_are_listed_but_the_gateway_hidden(served):
    types = set(harness.engine(served).global_env.get_types())
    assert {"OS::Neutron::Router", "OS::Neutron::RouterInterface"} <= types
    assert "OS::Neutron::RouterGateway" not in types


INTERFACE_REFS = {
    "net": {"type": "OS::Neutron::Net"},
    "sub": {
        "type": "OS::Neutron::Subnet",
        "properties": {"network": {"get_resource": "net"}, "cidr": "10.5.0.0/24"},
    },
    "port": {"type": "OS::Neutron::Port", "properties": {"network": {"get_resource": "net"}}},
    "r": {"type": "OS::Neutron::Router"},
}


@pytest.mark.parametrize(
    "resources, kind, text",
    [
        (
            dict(
                INTERFACE_REFS,
                ri={
                    "type": "OS::Neutron::RouterInterface",
                    "properties": {
                        "router": {"get_resource": "r"},
                        "subnet": {"get_resource": "sub"},
                        "port": {"get_resource": "port"},
                    },
                },
            ),
            "ResourcePropertyConflict",
            "Cannot define the following properties at the same time: subnet, port.",
        ),
        (
            dict(
                INTERFACE_REFS,
                ri={
                    "type": "OS::Neutron::RouterInterface",
                    "properties": {"router": {"get_resource": "r"}},
                },
            ),
            "PropertyUnspecifiedError",
            "At least one of the following properties must be specified: subnet, port.",
        ),
        (
            {"r": {"type": "OS::Neutron::Router", "properties": {"l3_agent_ids": ["a", "b"]}}},
            "StackValidationFailed",
            "Non HA routers can only have one L3 agent.",
        ),
        (
            {
                "r": {
                    "type": "OS::Neutron::Router",
                    "properties": {"ha": True, "distributed": True},
                }
            },
            "ResourcePropertyConflict",
            "Cannot define the following properties at the same time: distributed, ha.",
        ),
    ],
)
def test_once_served_routers_are_validated_as_heat_does(served, resources, kind, text):
    with pytest.raises(errors.BadRequest) as refused:
        create(served, "badrouter", tmpl(resources))
    assert refused.value.message == text
    assert refused.value.extra.get("type") == kind
