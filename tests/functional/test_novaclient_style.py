"""novaclient-style scripts against the local cloud (issue 15).

Each script below is written as for python-novaclient; only the import
and the construction of the client differ::

    # from novaclient import client, exceptions
    # nova = client.Client("2.1", session=sess)
    from occli import Client, exceptions
    nova = Client(session=sess)
"""

import time

import pytest

from occli import Client
from occli import exceptions

IMAGE = "cirros-0.6.2-x86_64-disk"


@pytest.fixture
def nova(local_cloud):
    """The admin's client, built as a novaclient user builds theirs."""
    return Client(session=local_cloud.session("local-admin"))


@pytest.fixture
def image_id(local_cloud):
    # novaclient has no image API left: scripts are given the image id
    return local_cloud.admin_client().images.find_resource(IMAGE).id


# -- the scripts, as written for novaclient -------------------------------


def wait_for_status(nova, server, status, timeout=30):
    deadline = time.time() + timeout
    while True:
        server = nova.servers.get(server.id)
        if server.status == status:
            return server
        if server.status == "ERROR" or time.time() > deadline:
            raise RuntimeError("server %s is %s" % (server.id, server.status))
        time.sleep(0.1)


def boot_and_wait(nova, name, image_id, flavor_name="m1.tiny", **kwargs):
    flavor = nova.flavors.find(name=flavor_name)
    server = nova.servers.create(name, image_id, flavor, meta={"app": name}, nics="none", **kwargs)
    return wait_for_status(nova, server, "ACTIVE")


def delete_and_wait(nova, server, timeout=30):
    nova.servers.delete(server)
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            nova.servers.get(server.id)
        except exceptions.NotFound:
            return True
        time.sleep(0.1)
    return False


# -- the tests --------------------------------------------------------------


def test_boot_and_wait(nova, image_id):
    server = boot_and_wait(
        nova, "web1", image_id, key_name=None, availability_zone="nova", userdata="#cloud-config\n"
    )
    assert server.status == "ACTIVE"
    assert server.metadata == {"app": "web1"}


def test_first_server_of_a_list_with_search_opts(nova, image_id):
    boot_and_wait(nova, "web1", image_id)
    boot_and_wait(nova, "db1", image_id)
    servers = nova.servers.list(search_opts={"name": "^web", "status": "ACTIVE"})
    assert [s.name for s in servers] == ["web1"]
    assert servers[0].name == "web1"
    assert servers.request_ids and servers.request_ids[0].startswith("req-")
    everyone = nova.servers.list(search_opts={"all_tenants": 1})
    assert sorted(s.name for s in everyone) == ["db1", "web1"]
    assert len(nova.servers.list(detailed=False, limit=1)) == 1


def test_rename_via_update(nova, image_id):
    server = boot_and_wait(nova, "old", image_id)
    nova.servers.update(server, name="new")
    assert nova.servers.get(server.id).name == "new"
    assert nova.servers.list(search_opts={"name": "^new$"})[0].id == server.id


def test_metadata_set_and_delete(nova, image_id):
    server = boot_and_wait(nova, "web1", image_id)
    nova.servers.set_meta(server, {"owner": "ops", "tier": "1"})
    assert nova.servers.get(server.id).metadata == {"app": "web1", "owner": "ops", "tier": "1"}
    nova.servers.delete_meta(server, ["owner", "app"])
    assert nova.servers.get(server.id).metadata == {"tier": "1"}


def test_reboot_hard_and_soft(nova, image_id):
    server = boot_and_wait(nova, "web1", image_id)
    nova.servers.reboot(server, reboot_type="HARD")
    wait_for_status(nova, server, "ACTIVE")
    nova.servers.reboot(server, "SOFT")
    assert wait_for_status(nova, server, "ACTIVE").status == "ACTIVE"


def test_stop_and_start(nova, image_id):
    server = boot_and_wait(nova, "web1", image_id)
    nova.servers.stop(server)
    assert wait_for_status(nova, server, "SHUTOFF").status == "SHUTOFF"
    server.start()  # the resource's method, as novaclient's Server has
    assert wait_for_status(nova, server, "ACTIVE").status == "ACTIVE"


def test_pause_lock_and_their_undo(nova, image_id):
    server = boot_and_wait(nova, "web1", image_id)
    nova.servers.pause(server)
    wait_for_status(nova, server, "PAUSED")
    nova.servers.unpause(server)
    wait_for_status(nova, server, "ACTIVE")
    nova.servers.lock(server)
    assert nova.servers.get(server.id).locked is True
    nova.servers.unlock(server)
    assert nova.servers.get(server.id).locked is False


def test_several_servers_by_reservation_id(nova, image_id):
    flavor = nova.flavors.find(name="m1.tiny")
    reservation = nova.servers.create(
        "batch", image_id, flavor, min_count=2, max_count=2, reservation_id=True, nics="none"
    )
    servers = nova.servers.list(search_opts={"reservation_id": reservation})
    assert len(servers) == 2
    assert sorted(s.name for s in servers) == ["batch-1", "batch-2"]


def test_aggregate_add_host_and_set_metadata(nova, image_id):
    server = boot_and_wait(nova, "web1", image_id)
    host = getattr(server, "OS-EXT-SRV-ATTR:host")
    aggregate = nova.aggregates.create("web", None)
    aggregate = nova.aggregates.add_host(aggregate, host)
    assert aggregate.hosts == [host]
    aggregate = nova.aggregates.set_metadata(aggregate, {"ssd": "true"})
    assert aggregate.metadata["ssd"] == "true"
    nova.aggregates.update(aggregate, {"name": "web-hosts"})
    found = [a for a in nova.aggregates.list() if a.name == "web-hosts"]
    assert found and found[0].hosts == [host]
    assert nova.aggregates.list()[0].name == "web-hosts"
    nova.aggregates.remove_host(aggregate, host)
    nova.aggregates.delete(aggregate)
    assert nova.aggregates.list() == []


def test_delete_and_wait(nova, image_id):
    server = boot_and_wait(nova, "web1", image_id)
    assert delete_and_wait(nova, server)
    assert nova.servers.list() == []


def test_keypairs_flavors_hypervisors_services(nova, local_cloud):
    nova.keypairs.create("ops")
    keypairs = nova.keypairs.list()
    assert keypairs[0].name == "ops"
    assert nova.keypairs.get("ops").name == "ops"
    nova.keypairs.delete("ops")
    assert nova.keypairs.list() == []
    assert nova.flavors.get(nova.flavors.find(name="m1.small").id).ram > 0
    hypervisors = nova.hypervisors.list()
    assert len(hypervisors) >= 1 and hypervisors[0].hypervisor_hostname
    services = nova.services.list(binary="nova-compute")
    assert services[0].binary == "nova-compute"


def test_create_with_the_positional_arguments_of_novaclient(nova, image_id):
    flavor = nova.flavors.find(name="m1.tiny")
    # create(name, image, flavor, meta, files, reservation_id, min_count,
    #        max_count, security_groups, userdata, key_name)
    server = nova.servers.create(
        "pos", image_id, flavor, {"a": "b"}, None, False, 1, 1, None, None, None, nics="none"
    )
    server = wait_for_status(nova, server, "ACTIVE")
    assert server.metadata == {"a": "b"}


def test_server_group_members_and_instance_actions(nova, image_id):
    group = nova.server_groups.create("spread", "anti-affinity")
    server = boot_and_wait(nova, "web1", image_id, scheduler_hints={"group": group.id})
    assert nova.server_groups.get(group.id).members == [server.id]
    assert [g.name for g in nova.server_groups.list()] == ["spread"]
    actions = nova.instance_action.list(server)
    assert [a.action for a in actions] == ["create"]
    assert nova.instance_action.get(server, actions[0].request_id).events
    nova.server_groups.delete(group.id)


def test_migrations_list_and_cold_migration(nova, image_id, local_cloud):
    server = boot_and_wait(nova, "web1", image_id)
    source = getattr(nova.servers.get(server.id), "OS-EXT-SRV-ATTR:host")
    nova.servers.migrate(server)
    server = wait_for_status(nova, server, "VERIFY_RESIZE")
    nova.servers.confirm_resize(server)
    wait_for_status(nova, server, "ACTIVE")
    # novaclient's positional filters: host, status, instance_uuid
    migrations = nova.migrations.list(source, None, server.id)
    assert [m.migration_type for m in migrations] == ["migration"]
    assert nova.migrations.list(None, "confirmed")[0].instance_uuid == server.id


def test_attach_and_detach_a_volume_through_nova(nova, image_id, local_cloud):
    """novaclient's ``nova.volumes`` is Nova's os-volume_attachments; the
    volume itself comes from Cinder (cinderclient in a novaclient script)."""
    cinder = local_cloud.admin_client().volumes
    volume = cinder.create(size=1, name="data")
    deadline = time.time() + 30
    while cinder.get(volume.id).status != "available" and time.time() < deadline:
        time.sleep(0.1)
    server = boot_and_wait(nova, "db1", image_id)
    attachment = nova.volumes.create_server_volume(server.id, volume.id, "/dev/vdb")
    assert attachment.volumeId == volume.id
    assert [a.volumeId for a in nova.volumes.get_server_volumes(server.id)] == [volume.id]
    assert nova.volumes.get_server_volume(server.id, volume.id).serverId == server.id
    assert cinder.get(volume.id).status == "in-use"
    nova.volumes.delete_server_volume(server.id, volume.id)
    deadline = time.time() + 30
    while nova.volumes.get_server_volumes(server.id) and time.time() < deadline:
        time.sleep(0.1)
    assert nova.volumes.get_server_volumes(server.id) == []
