"""The real ``openstack`` CLI against the local cloud's images with their
bytes, routers and objects (issue 20): ``image create --file`` and
``image save`` give the same bytes back, ``router create``, ``router add
subnet`` and ``router set --external-gateway`` build the topology ``router
show`` lists, ``object create``, ``object save`` and ``container list``.

Opt-in: runs when ``OCCLI_OSC`` names an ``openstack`` executable, or one
on PATH has the image and object commands; skipped otherwise (the suite
never needs OSC: tests/unit/localcloud/test_osc_resources_replay.py
replays the requests it sends). E.g. ``python3 -m venv /tmp/oscvenv &&
/tmp/oscvenv/bin/pip install python-openstackclient``, then
``OCCLI_OSC=/tmp/oscvenv/bin/openstack``.
"""

import functools
import hashlib
import json
import os
import shutil
import subprocess
import uuid

import pytest

from tests.functional.harness import start_localcloud

#: seconds one OSC command may take
TIMEOUT = 120


@functools.lru_cache(maxsize=1)
def _openstack():
    """The ``openstack`` executable with the image and object commands, or None."""
    found = os.environ.get("OCCLI_OSC") or shutil.which("openstack")
    if not found:
        return None
    for probe in (["image", "save", "--help"], ["object", "create", "--help"]):
        try:
            done = subprocess.run([found, *probe], capture_output=True, timeout=TIMEOUT)
        except OSError:
            return None
        if done.returncode:
            return None
    return found


pytestmark = pytest.mark.skipif(
    _openstack() is None,
    reason="no openstack CLI with image and object commands (set OCCLI_OSC=/path/to/openstack)",
)


@pytest.fixture(scope="module")
def cloud():
    running = start_localcloud()
    yield running
    running.stop()


@pytest.fixture
def osc(cloud, tmp_path):
    """Run ``openstack ARGV…`` as user demo in ``tmp_path``: the finished
    process (text)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("OS_")}
    env.update(OS_CLIENT_CONFIG_FILE=cloud.clouds_yaml, OS_CLOUD="local")

    def run(*argv):
        return subprocess.run(
            [_openstack(), *argv],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
        )

    return run


def _ok(done):
    assert done.returncode == 0, done.stderr
    return done.stdout


def _json(done):
    return json.loads(_ok(done))


def _name(prefix):
    return "%s-%s" % (prefix, uuid.uuid4().hex[:8])


def test_image_create_from_a_file_and_save(osc, tmp_path):
    data = os.urandom(64 * 1024)
    (tmp_path / "disk.img").write_bytes(data)
    name = _name("osc-image")
    created = _json(
        osc(
            "image", "create", "--file", "disk.img", "--disk-format", "qcow2",
            "--container-format", "bare", "--property", "os_distro=cirros", name, "-f", "json",
        )
    )  # fmt: skip
    try:
        assert (created["status"], created["size"]) == ("active", len(data))
        assert created["checksum"] == hashlib.md5(data).hexdigest()
        assert created["properties"]["os_distro"] == "cirros"
        assert created["properties"]["os_hash_value"] == hashlib.sha512(data).hexdigest()
        _ok(osc("image", "save", "--file", "saved.img", name))
        assert (tmp_path / "saved.img").read_bytes() == data
    finally:
        _ok(osc("image", "delete", name))
    shown = osc("image", "show", name)
    assert shown.returncode == 1
    assert "No Image found for %s" % name in shown.stderr


def test_router_with_a_subnet_and_a_gateway(osc):
    name = _name("osc-router")
    network = _json(osc("network", "create", name, "-f", "json"))
    subnet = _json(
        osc(
            "subnet", "create", "--network", name, "--subnet-range", "10.89.0.0/24", name,
            "-f", "json",
        )
    )  # fmt: skip
    router = _json(osc("router", "create", name, "-f", "json"))
    try:
        assert router["external_gateway_info"] is None
        _ok(osc("router", "add", "subnet", name, subnet["id"]))
        _ok(osc("router", "set", "--external-gateway", "public", name))
        shown = _json(osc("router", "show", name, "-f", "json"))
        (interface,) = shown["interfaces_info"]
        assert (interface["subnet_id"], interface["ip_address"]) == (subnet["id"], "10.89.0.1")
        gateway = shown["external_gateway_info"]
        public = _json(osc("network", "show", "public", "-f", "json"))
        assert (gateway["network_id"], gateway["enable_snat"]) == (public["id"], True)
        assert gateway["external_fixed_ips"][0]["ip_address"].startswith("172.24.4.")
        ports = _json(osc("port", "list", "--router", name, "-f", "json"))
        assert interface["port_id"] in {p["ID"] for p in ports}

        # Neutron refuses to delete a subnet a router is on
        refused = osc("subnet", "delete", subnet["id"])
        assert refused.returncode == 1
        assert "One or more ports have an IP allocation from this subnet" in refused.stderr

        _ok(osc("router", "remove", "subnet", name, subnet["id"]))
        _ok(osc("router", "unset", "--external-gateway", name))
        shown = _json(osc("router", "show", name, "-f", "json"))
        assert (shown["interfaces_info"], shown["external_gateway_info"]) == ([], None)
    finally:
        osc("router", "delete", name)
        osc("subnet", "delete", subnet["id"])
        osc("network", "delete", network["id"])
    assert name not in {r["Name"] for r in _json(osc("router", "list", "-f", "json"))}


def test_object_create_save_and_container_list(osc, tmp_path):
    container = _name("osc-container")
    data = b"hello object\n" * 1000
    (tmp_path / "hello.txt").write_bytes(data)
    (made,) = _json(osc("container", "create", container, "-f", "json"))
    assert made["container"] == container
    try:
        (created,) = _json(osc("object", "create", container, "hello.txt", "-f", "json"))
        assert (created["object"], created["etag"]) == ("hello.txt", hashlib.md5(data).hexdigest())
        _ok(osc("object", "save", "--file", "saved.txt", container, "hello.txt"))
        assert (tmp_path / "saved.txt").read_bytes() == data
        shown = _json(osc("object", "show", container, "hello.txt", "-f", "json"))
        assert (shown["content-length"], shown["content-type"]) == (str(len(data)), "text/plain")

        assert container in {c["Name"] for c in _json(osc("container", "list", "-f", "json"))}
        listed = _json(osc("object", "list", container, "-f", "json"))
        assert listed == [{"Name": "hello.txt"}]
        stats = _json(osc("container", "show", container, "-f", "json"))
        assert (stats["object_count"], stats["bytes_used"]) == ("1", str(len(data)))
        assert stats["storage_policy"] == "Policy-0"
    finally:
        osc("object", "delete", container, "hello.txt")
        osc("container", "delete", container)
    assert container not in {c["Name"] for c in _json(osc("container", "list", "-f", "json"))}
