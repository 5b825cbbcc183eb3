"""openstacksdk against the local cloud's images with their bytes, routers
and network writes, and object storage (issue 20), as a user of that
client would call them: the cloud layer's ``create_image`` (it uploads
with PUT /file or imports, by what /v2/info/import says) and
``create_object``, the proxies' downloads, members, routers with their
interfaces and gateway, floating IPs, tags, containers and objects."""

import hashlib
import time
import uuid

import pytest

openstack = pytest.importorskip("openstack")

pytestmark = pytest.mark.filterwarnings(
    "ignore::PendingDeprecationWarning:openstack", "ignore::DeprecationWarning:openstack"
)

#: seconds a wait may take
TIMEOUT = 60


@pytest.fixture
def conn(occli_env):
    connection = openstack.connect(cloud="local")
    yield connection
    connection.close()


@pytest.fixture
def alt(occli_env):
    connection = openstack.connect(cloud="local-alt")
    yield connection
    connection.close()


@pytest.fixture
def admin(occli_env):
    connection = openstack.connect(cloud="local-admin")
    yield connection
    connection.close()


def _name(prefix):
    return "%s-%s" % (prefix, uuid.uuid4().hex[:8])


def test_create_download_and_share_an_image(conn, alt, tmp_path):
    data = b"\x00QFI\xfb" + bytes(range(256)) * 40
    source = tmp_path / "disk.qcow2"
    source.write_bytes(data)
    name = _name("sdk-image")
    image = conn.create_image(
        name,
        filename=str(source),
        disk_format="qcow2",
        container_format="bare",
        visibility="shared",
        validate_checksum=True,
        wait=True,
        timeout=TIMEOUT,
    )
    try:
        assert image.status == "active"
        assert image.size == len(data)
        assert image.checksum == hashlib.md5(data).hexdigest()
        assert image.hash_algo == "sha512"
        assert image.hash_value == hashlib.sha512(data).hexdigest()
        # the cloud layer keeps the file's checksums in the image's properties
        shown = conn.image.get_image(image.id)
        assert shown.properties["owner_specified.openstack.sha256"] == (
            hashlib.sha256(data).hexdigest()
        )

        target = tmp_path / "saved.qcow2"
        conn.image.download_image(image, output=str(target))
        assert target.read_bytes() == data
        # without output: the bytes, checked against the image's checksum
        assert conn.image.download_image(image).content == data

        project = alt.current_project_id
        member = conn.image.add_member(image, member=project)
        assert (member.member_id, member.status) == (project, "pending")
        assert alt.image.get_image(image.id).id == image.id
        assert image.id not in {i.id for i in alt.image.images()}
        accepted = alt.image.update_member(member, image.id, status="accepted")
        assert accepted.status == "accepted"
        assert image.id in {i.id for i in alt.image.images()}
        assert [m.member_id for m in conn.image.members(image)] == [project]
        assert conn.image.get_member(project, image).status == "accepted"
        conn.image.remove_member(project, image)
        assert alt.image.find_image(image.id) is None
    finally:
        conn.image.delete_image(image, ignore_missing=True)
    assert conn.image.find_image(name) is None


def test_create_an_image_through_the_import(conn, tmp_path):
    """``use_import``: the image staged (PUT /stage) and imported with
    glance-direct, a method /v2/info/import lists."""
    methods = conn.image.get_import_info().import_methods["value"]
    assert "glance-direct" in methods
    data = b"staged bytes " * 100
    source = tmp_path / "disk.raw"
    source.write_bytes(data)
    name = _name("sdk-import")
    image = conn.create_image(
        name,
        filename=str(source),
        disk_format="raw",
        container_format="bare",
        use_import=True,
        wait=True,
        timeout=TIMEOUT,
    )
    try:
        deadline = time.monotonic() + TIMEOUT
        while image.status != "active":
            assert time.monotonic() < deadline, image.status
            time.sleep(0.05)
            image = conn.image.get_image(image.id)
        assert (image.size, image.checksum) == (len(data), hashlib.md5(data).hexdigest())
        assert conn.image.download_image(image).content == data
    finally:
        conn.image.delete_image(image, ignore_missing=True)


def test_router_with_an_interface_a_gateway_and_a_floating_ip(conn):
    name = _name("sdk-router")
    network = conn.network.create_network(name=name)
    subnet = conn.network.create_subnet(
        network_id=network.id, name=name, ip_version=4, cidr="10.77.0.0/24"
    )
    router = conn.network.create_router(name=name)
    port = fip = None
    try:
        assert (router.status, router.external_gateway_info) == ("ACTIVE", None)
        added = conn.network.add_interface_to_router(router, subnet=subnet.id)
        assert (added["subnet_id"], added["id"]) == (subnet.id, router.id)
        (interface,) = conn.network.ports(device_id=router.id)
        assert interface.device_owner == "network:router_interface"
        assert interface.fixed_ips == [{"subnet_id": subnet.id, "ip_address": "10.77.0.1"}]

        public = conn.network.find_network("public", ignore_missing=False)
        router = conn.network.update_router(
            router, external_gateway_info={"network_id": public.id}
        )
        gateway = router.external_gateway_info
        assert gateway["network_id"] == public.id and gateway["enable_snat"] is True
        (external,) = gateway["external_fixed_ips"]
        assert external["ip_address"].startswith("172.24.4.")

        # a floating IP reaches a port of the subnet through the router
        port = conn.network.create_port(network_id=network.id)
        fip = conn.network.create_ip(floating_network_id=public.id)
        assert fip.status == "DOWN" and fip.port_id is None
        fip = conn.network.update_ip(fip, port_id=port.id)
        assert (fip.port_id, fip.router_id) == (port.id, router.id)
        assert fip.fixed_ip_address == port.fixed_ips[0]["ip_address"]
        fip = conn.network.update_ip(fip, port_id=None)
        assert (fip.port_id, fip.router_id) == (None, None)

        conn.network.set_tags(network, ["blue", "red"])
        assert sorted(conn.network.get_network(network.id).tags) == ["blue", "red"]
        assert [n.id for n in conn.network.networks(tags="red")] == [network.id]

        # the floating IP unbound, the interface and the gateway come off
        removed = conn.network.remove_interface_from_router(router, subnet=subnet.id)
        assert removed["subnet_id"] == subnet.id
        assert not list(
            conn.network.ports(device_id=router.id, device_owner="network:router_interface")
        )
        router = conn.network.update_router(router, external_gateway_info={})
        assert router.external_gateway_info is None
    finally:
        if fip is not None:
            conn.network.delete_ip(fip, ignore_missing=True)
        if port is not None:
            conn.network.delete_port(port, ignore_missing=True)
        conn.network.delete_router(router, ignore_missing=True)
        conn.network.delete_subnet(subnet, ignore_missing=True)
        conn.network.delete_network(network, ignore_missing=True)
    assert conn.network.find_router(name) is None


def test_the_cloud_layers_router_calls(conn, admin, tmp_path):
    """``create_router`` with its gateway, ``add_router_interface`` and
    ``list_router_interfaces``, as shade's users call them, and the cloud
    layer's ``download_image`` of a named image (by its Content-MD5)."""
    name = _name("sdk-cloud")
    network = conn.create_network(name)
    subnet = conn.create_subnet(network.id, cidr="10.78.0.0/24", subnet_name=name)
    public = conn.get_network("public")
    # enable_snat is the admin's (Neutron's create_router:external_gateway_info:enable_snat)
    with pytest.raises(openstack.exceptions.ForbiddenException):
        conn.create_router(name, ext_gateway_net_id=public.id, enable_snat=False)
    router = conn.create_router(name, ext_gateway_net_id=public.id)
    try:
        gateway = router.external_gateway_info
        assert (gateway["network_id"], gateway["enable_snat"]) == (public.id, True)
        conn.add_router_interface(router, subnet_id=subnet.id)
        (internal,) = conn.list_router_interfaces(router, interface_type="internal")
        assert internal.fixed_ips == [{"subnet_id": subnet.id, "ip_address": "10.78.0.1"}]
        # the gateway port belongs to no project (neutron's _create_gw_port):
        # only the admin lists it
        assert conn.list_router_interfaces(router, interface_type="external") == []
        (external,) = admin.list_router_interfaces(router, interface_type="external")
        assert (external.network_id, external.project_id) == (public.id, "")
        conn.remove_router_interface(router, subnet_id=subnet.id)
        assert conn.list_router_interfaces(router, interface_type="internal") == []
    finally:
        assert conn.delete_router(router.id)
        conn.delete_subnet(subnet.id)
        conn.delete_network(network.id)
    assert conn.get_router(name) is None

    source = tmp_path / "cloud.raw"
    source.write_bytes(b"cloud layer " * 500)
    image = conn.create_image(name, filename=str(source), disk_format="raw", wait=True)
    try:
        conn.download_image(name, output_path=str(tmp_path / "out.raw"))
        assert (tmp_path / "out.raw").read_bytes() == source.read_bytes()
    finally:
        assert conn.delete_image(image.id, wait=True, timeout=TIMEOUT)
    assert conn.get_image(name) is None


def test_containers_and_objects(conn, tmp_path):
    container = _name("sdk-container")
    made = conn.object_store.create_container(name=container)
    try:
        assert made.name == container
        uploaded = conn.object_store.upload_object(
            container=container, name="notes/hello.txt", data=b"hello world"
        )
        assert uploaded.etag == hashlib.md5(b"hello world").hexdigest()
        assert conn.object_store.download_object("notes/hello.txt", container) == b"hello world"
        fetched = conn.object_store.get_object("notes/hello.txt", container, remember_content=True)
        assert fetched.data == "hello world"  # openstacksdk keeps the text

        conn.object_store.set_object_metadata("notes/hello.txt", container, colour="blue")
        meta = conn.object_store.get_object_metadata("notes/hello.txt", container)
        assert meta.metadata == {"colour": "blue"}
        assert meta.content_length == 11

        headers, body = conn.get_object(container, "notes/hello.txt")
        assert (body, headers["x-object-meta-colour"]) == ("hello world", "blue")
        listed = [o.name for o in conn.object_store.objects(container)]
        assert listed == ["notes/hello.txt"]
        assert container in {c.name for c in conn.object_store.containers()}
        assert conn.object_store.get_container_metadata(container).object_count == 1
    finally:
        conn.object_store.delete_object(
            "notes/hello.txt", container=container, ignore_missing=True
        )
        conn.object_store.delete_container(container, ignore_missing=True)
    assert container not in {c.name for c in conn.object_store.containers()}


def test_create_object_from_a_file(conn, tmp_path):
    container = _name("sdk-file")
    conn.object_store.create_container(name=container)
    source = tmp_path / "report.csv"
    source.write_bytes(b"a,b\n1,2\n" * 100)
    try:
        conn.create_object(container, "report.csv", filename=str(source))
        # the cloud layer's get_object answers the body as text
        headers, body = conn.get_object(container, "report.csv")
        assert body == source.read_text()
        assert headers["etag"].strip('"') == hashlib.md5(source.read_bytes()).hexdigest()
    finally:
        conn.object_store.delete_object("report.csv", container=container, ignore_missing=True)
        conn.object_store.delete_container(container, ignore_missing=True)


def test_create_object_in_segments_and_delete_them(conn, tmp_path):
    # a file over segment_size: openstacksdk PUTs its segments
    # (<name>/000000…) then a static large object's manifest
    container = _name("sdk-slo")
    conn.object_store.create_container(name=container)
    source = tmp_path / "big.bin"
    data = bytes(range(256)) * 100  # 25600 bytes: 4 segments of 8000
    source.write_bytes(data)
    try:
        conn.create_object(container, "big.bin", filename=str(source), segment_size=8000)
        names = sorted(o.name for o in conn.object_store.objects(container))
        assert names == ["big.bin"] + ["big.bin/%06d" % i for i in range(4)]
        headers, _ = conn.get_object(container, "big.bin")
        assert headers["x-static-large-object"] == "True"
        assert int(headers["content-length"]) == len(data)
        downloaded = conn.object_store.download_object("big.bin", container=container)
        assert downloaded == data
        # the SDK asks for the segments to go with the manifest
        assert conn.delete_object(container, "big.bin")
        assert list(conn.object_store.objects(container)) == []
    finally:
        for obj in list(conn.object_store.objects(container)):
            conn.object_store.delete_object(obj, container=container, ignore_missing=True)
        conn.object_store.delete_container(container, ignore_missing=True)
