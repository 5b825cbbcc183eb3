"""The devstack seed profile (``Config.seed = "devstack"``) as an
openstacksdk functional test written against DevStack sees it: DevStack's
flavors, image, networks and router, its users, a server booted on
``private`` by network id with a floating IP from ``public``. The values
are devstack's (tests/fixtures/SOURCES.md, "devstack seed profile")."""

import openstack
import pytest

pytestmark = [
    pytest.mark.local_cloud(seed="devstack"),
    pytest.mark.filterwarnings(
        "ignore::PendingDeprecationWarning:openstack", "ignore::DeprecationWarning:openstack"
    ),
]

# devstack lib/nova create_flavors and lib/tempest: id → (name, ram, vcpus, disk)
FLAVORS = {
    "c1": ("cirros256", 256, 1, 1),
    "d1": ("ds512M", 512, 1, 5),
    "d2": ("ds1G", 1024, 1, 10),
    "d3": ("ds2G", 2048, 2, 10),
    "d4": ("ds4G", 4096, 4, 20),
    "1": ("m1.tiny", 512, 1, 1),
    "2": ("m1.small", 2048, 1, 20),
    "3": ("m1.medium", 4096, 2, 40),
    "4": ("m1.large", 8192, 4, 80),
    "5": ("m1.xlarge", 16384, 8, 160),
    "42": ("m1.nano", 192, 1, 1),
    "84": ("m1.micro", 256, 1, 1),
}


@pytest.fixture(scope="module")
def conn(local_cloud_module):
    return openstack.connect(cloud="devstack")


@pytest.fixture(scope="module")
def admin(local_cloud_module):
    return openstack.connect(cloud="devstack-admin")


def test_flavors_are_devstacks_with_hw_rng_allowed(conn):
    flavors = {f.id: f for f in conn.compute.flavors()}
    assert {i: (f.name, f.ram, f.vcpus, f.disk) for i, f in flavors.items()} == FLAVORS
    for flavor in flavors.values():
        assert conn.compute.fetch_flavor_extra_specs(flavor).extra_specs == {
            "hw_rng:allowed": "True"
        }


def test_the_image_is_devstacks_cirros(conn, local_cloud_module):
    (image,) = conn.image.images()
    assert (image.name, image.visibility, image.disk_format, image.container_format) == (
        "cirros-0.6.3-x86_64-disk",
        "public",
        "qcow2",
        "bare",
    )
    assert image.hw_rng_model == "virtio"
    # clouds.yaml's functional section names it, as devstack's does
    config = openstack.config.OpenStackConfig(config_files=[local_cloud_module.clouds_yaml])
    assert config.cloud_config["functional"]["image_name"] == image.name


def test_networks_and_router_as_the_demo_user_sees_them(conn, admin):
    demo = conn.current_project_id
    admin_project = admin.current_project_id
    nets = {n.name: n for n in conn.network.networks()}
    assert set(nets) == {"private", "public", "shared"}
    assert (nets["private"].project_id, nets["private"].is_shared) == (demo, False)
    assert (nets["public"].project_id, nets["public"].is_router_external) == (admin_project, True)
    assert (nets["shared"].project_id, nets["shared"].is_shared) == (admin_project, True)
    subnets = {s.name: s for s in conn.network.subnets()}
    assert {n: (s.cidr, s.network_id) for n, s in subnets.items()} == {
        "private-subnet": ("10.0.0.0/26", nets["private"].id),
        "public-subnet": ("172.24.4.0/24", nets["public"].id),
        "shared-subnet": ("192.168.233.0/24", nets["shared"].id),
    }
    assert subnets["public-subnet"].is_dhcp_enabled is False
    (router,) = conn.network.routers()
    assert (router.name, router.project_id) == ("router1", demo)
    assert router.external_gateway_info["network_id"] == nets["public"].id
    interfaces = conn.network.ports(device_id=router.id, device_owner="network:router_interface")
    assert [ip["subnet_id"] for p in interfaces for ip in p.fixed_ips] == [
        subnets["private-subnet"].id
    ]


def test_devstacks_projects_and_users(admin):
    projects = {p.name for p in admin.identity.projects()}
    assert {"admin", "service", "demo", "alt_demo", "invisible_to_admin"} <= projects
    assert {"alt", "alt_demo"} & {u.name for u in admin.identity.users()} == {"alt_demo"}
    assert {"ResellerAdmin", "anotherrole"} <= {r.name for r in admin.identity.roles()}
    alt = openstack.connect(cloud="devstack-alt")
    assert alt.current_project.name == "alt_demo"


def test_boot_on_private_by_id_with_a_floating_ip_from_public(conn):
    private = conn.network.find_network("private")
    public = conn.network.find_network("public")
    server = conn.create_server(
        "devstack-seed",
        image="cirros-0.6.3-x86_64-disk",
        flavor="m1.nano",
        network=private.id,
        auto_ip=False,
        wait=True,
        timeout=60,
    )
    try:
        assert server.status == "ACTIVE"
        (port,) = conn.network.ports(device_id=server.id)
        assert port.network_id == private.id
        fip = conn.network.create_ip(floating_network_id=public.id, port_id=port.id)
        assert fip.floating_ip_address.startswith("172.24.4.")
        assert fip.fixed_ip_address == port.fixed_ips[0]["ip_address"]
        conn.network.delete_ip(fip)
    finally:
        conn.delete_server(server.id, wait=True, timeout=60)
