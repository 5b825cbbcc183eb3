"""The recipe of doc/source/testing.rst's "Running a DevStack functional
suite", run against ``occli.testing``: what openstacksdk's functional
tests (``openstack/tests/functional/base.py``'s ``BaseFunctionalTest``)
do against DevStack — read ``OS_CLIENT_CONFIG_FILE``, connect to clouds
``devstack``, ``devstack-alt``, ``devstack-admin`` and
``devstack-system-admin``, take the image of clouds.yaml's ``functional``
section and the smallest flavor with a disk — then a test body of theirs
(a network, a server booted on ``private``), unchanged, on a cloud of the
devstack seed profile."""

import operator
import uuid

import pytest

from occli.testing import start_local_cloud


@pytest.fixture(scope="module")
def cloud():
    running = start_local_cloud(seed="devstack")
    yield running
    running.stop()


def test_an_openstacksdk_functional_test_runs_unchanged(cloud):
    import openstack.config
    from openstack import connection

    with cloud.patch_environ("devstack"):
        # BaseFunctionalTest.setUp: its four clouds, by DevStack's names
        config = openstack.config.OpenStackConfig()
        user_cloud = connection.Connection(config=config.get_one(cloud="devstack"))
        user_cloud_alt = connection.Connection(config=config.get_one(cloud="devstack-alt"))
        operator_cloud = connection.Connection(config=config.get_one(cloud="devstack-admin"))
        system_admin_cloud = connection.Connection(
            config=config.get_one(cloud="devstack-system-admin")
        )
        # _pick_image and _pick_flavor
        image_name = config.get_extra_config("functional").get("image_name")
        (image,) = [i for i in user_cloud.list_images() if i.name == image_name]
        flavors = user_cloud.list_flavors(get_extra=False)
        flavor = next(f for f in sorted(flavors, key=operator.attrgetter("ram")) if f.disk)

        # a test body (openstack/tests/functional/network/v2/test_network.py)
        name = "sdk-func-" + uuid.uuid4().hex[:8]
        network = user_cloud.network.create_network(name=name)
        try:
            found = user_cloud.network.find_network(name)
            assert found is not None and found.id == network.id
            # DevStack's alt_demo is admin of its project (lib/keystone
            # create_keystone_accounts): Neutron's admin sees every network
            seen_by_alt = user_cloud_alt.network.find_network(name)
            assert seen_by_alt is not None and seen_by_alt.id == network.id
        finally:
            user_cloud.network.delete_network(network.id)

        # and a server on DevStack's private network
        private = user_cloud.network.find_network("private")
        assert private is not None
        server = user_cloud.compute.create_server(
            name=name, image_id=image.id, flavor_id=flavor.id, networks=[{"uuid": private.id}]
        )
        try:
            server = user_cloud.compute.wait_for_server(server, wait=60)
            assert server.status == "ACTIVE"
            admin_view = operator_cloud.compute.get_server(server.id)
            assert admin_view.project_id == user_cloud.current_project_id
        finally:
            user_cloud.compute.delete_server(server.id)
            user_cloud.compute.wait_for_delete(server, wait=60)

        assert "demo" in {p.name for p in system_admin_cloud.list_projects()}
        for conn in (user_cloud, user_cloud_alt, operator_cloud, system_admin_cloud):
            conn.close()
