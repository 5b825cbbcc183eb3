"""occli.testing: the pytest plugin's fixtures, the context manager and
decorator, the helpers, and other OpenStack clients against them."""

import json
import os
import re
import sqlite3
import subprocess
import sys
import textwrap
import unittest

import pytest

import occli.testing
from occli import exceptions
from occli.testing import cloud as testing_cloud

CIRROS = "cirros-0.6.2-x86_64-disk"


def boot(client, name="vm", **options):
    image = client.images.find_resource(CIRROS)
    flavor = client.flavors.find_resource("m1.tiny")
    return client.servers.create(name, image=image, flavor=flavor, nics="none", **options)


# -- the fixture ----------------------------------------------------------------


def test_clients_and_environment(local_cloud):
    from occli import Client

    assert local_cloud.url.startswith("http://127.0.0.1:")
    assert local_cloud.auth_url == local_cloud.url + "/v3"
    assert os.environ["OS_CLOUD"] == "local"
    assert os.environ["OS_CLIENT_CONFIG_FILE"] == local_cloud.clouds_yaml
    assert os.environ["OS_AUTH_URL"] == local_cloud.auth_url
    assert os.environ["OS_USERNAME"] == "demo"
    member = local_cloud.client()
    assert [f.name for f in member.flavors.list()][:1] == ["m1.tiny"]
    with pytest.raises(exceptions.Forbidden):
        list(member.services.list())
    admin = local_cloud.admin_client()
    assert sorted(s.host for s in admin.services.list(binary="nova-compute")) == [
        "host1",
        "host2",
        "host3",
    ]
    # the environment alone finds it too
    assert Client(cloud="local").images.find_resource(CIRROS).name == CIRROS
    assert Client().images.find_resource(CIRROS).name == CIRROS


@pytest.mark.parametrize("attempt", [1, 2])
def test_every_test_gets_a_fresh_cloud(local_cloud, attempt):
    client = local_cloud.client()
    assert list(client.servers.list()) == []
    assert [k.name for k in client.keypairs.list()] == []
    boot(client, "leftover")
    client.keypairs.create("leftover")


def test_the_environment_is_restored(monkeypatch):
    monkeypatch.setenv("OS_CLOUD", "production")
    monkeypatch.setenv("OS_PASSWORD", "real-secret")
    monkeypatch.setenv("OS_PROJECT_ID", "real-project")
    monkeypatch.delenv("OCCLI_CACHE_DIR", raising=False)
    with occli.testing.local_cloud() as cloud:
        assert os.environ["OS_CLOUD"] == "local"
        assert os.environ["OS_PASSWORD"] == "demo-secret"
        assert os.environ["OCCLI_CACHE_DIR"].startswith(cloud.data_dir)
        assert "OS_PROJECT_ID" not in os.environ
        assert cloud.env["OS_CLOUD"] == "local"
        assert "OS_PROJECT_ID" not in cloud.env
        data_dir = cloud.data_dir
    assert os.environ["OS_CLOUD"] == "production"
    assert os.environ["OS_PASSWORD"] == "real-secret"
    assert "OCCLI_CACHE_DIR" not in os.environ
    assert not os.path.exists(data_dir)


def test_subprocesses_get_the_environment(local_cloud):
    def occli(env, *argv):
        proc = subprocess.run(
            [sys.executable, "-m", "occli.shell", *argv],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert proc.returncode == 0, proc.stderr
        return json.loads(proc.stdout)

    names = [f["Name"] for f in occli(local_cloud.env, "flavor", "list", "-f", "json")]
    assert names[0] == "m1.tiny"
    hosts = occli(local_cloud.admin_env, "hypervisor", "list", "-f", "json")
    assert len(hosts) == 3
    # plain OS_* variables, for clients that read no clouds.yaml
    plain = {
        k: v
        for k, v in local_cloud.admin_env.items()
        if k not in ("OS_CLOUD", "OS_CLIENT_CONFIG_FILE")
    }
    assert plain["OS_USERNAME"] == "admin"
    assert len(occli(plain, "hypervisor", "list", "-f", "json")) == 3


# -- any OpenStack client -------------------------------------------------------


@pytest.mark.filterwarnings(
    "ignore::PendingDeprecationWarning:openstack", "ignore::DeprecationWarning:openstack"
)
def test_openstacksdk_against_the_fixture(local_cloud):
    import openstack

    conn = openstack.connect(cloud="local")
    image = conn.image.find_image(CIRROS)
    flavor = conn.compute.find_flavor("m1.tiny")
    server = conn.compute.create_server(
        name="sdk-vm", image_id=image.id, flavor_id=flavor.id, networks="none"
    )
    server = conn.compute.wait_for_server(server, interval=0.05, wait=30)
    assert server.status == "ACTIVE"
    assert [s.name for s in conn.compute.servers()] == ["sdk-vm"]
    admin = local_cloud.openstack_connection("local-admin")
    aggregate = admin.compute.create_aggregate(name="fast", availability_zone="az-fast")
    admin.compute.add_host_to_aggregate(aggregate, "host3")
    assert admin.compute.get_aggregate(aggregate).hosts == ["host3"]
    # what the SDK sent is in the access log
    paths = [r.path for r in local_cloud.requests() if r.method == "POST"]
    assert "/compute/v2.1/servers" in paths
    assert "/compute/v2.1/os-aggregates/%s/action" % aggregate.id in paths


# -- helpers ------------------------------------------------------------------------


def test_faults_and_the_access_log(local_cloud):
    client = local_cloud.client()
    list(client.flavors.list())
    mark = local_cloud.mark()
    rule = local_cloud.add_fault(r"/flavors/detail$", status=503, count=3)
    assert rule["remaining"] == 3
    with pytest.raises(exceptions.ClientException) as err:
        list(client.flavors.list())
    assert err.value.http_status == 503
    local_cloud.faults.clear()
    assert list(client.flavors.list())
    logged = local_cloud.requests(since=mark)
    assert [r.status for r in logged if r.path.endswith("/flavors/detail")][-1] == 200
    assert 503 in [r.status for r in logged]
    assert all(r.request_id.startswith("req-") and r.seconds >= 0 for r in logged)


def test_access_log_paths_are_unescaped(local_cloud):
    client = local_cloud.client()
    with pytest.raises(exceptions.NotFound):
        client.servers.get("no such server")
    paths = [r.path for r in local_cloud.requests()]
    assert "/compute/v2.1/servers/no such server" in paths


def test_build_time_and_advance_server(local_cloud):
    assert local_cloud.build_time == 0
    local_cloud.build_time = 600
    client = local_cloud.client()
    server = boot(client, "slow")
    assert client.servers.get(server.id).status == "BUILD"
    vm_state, task_state = local_cloud.advance_server(server.id, 300)
    assert (vm_state, task_state) == ("building", "networking")
    assert local_cloud.advance_server(server.id) == ("active", None)
    assert client.servers.get(server.id).status == "ACTIVE"
    client.servers.reboot(server.id)
    assert client.servers.get(server.id).status == "REBOOT"
    local_cloud.advance_server(server.id)
    assert client.servers.get(server.id).status == "ACTIVE"
    with pytest.raises(LookupError):
        local_cloud.advance_server("no-such-server")


def test_seed_images_flavors_and_hosts(local_cloud):
    image = local_cloud.seed_image("my-os", min_disk=2, properties={"os_distro": "mine"})
    private = local_cloud.seed_image("theirs", visibility="private", owner="admin")
    flavor_id = local_cloud.seed_flavor("g1.huge", ram=65536, vcpus=16, disk=100)
    assert local_cloud.seed_hosts(5) == ["host1", "host2", "host3", "host4", "host5"]
    client = local_cloud.client()
    shown = client.images.find_resource("my-os")
    assert (shown.id, shown.min_disk, shown.os_distro) == (image["id"], 2, "mine")
    assert private["id"] not in [i.id for i in client.images.list()]
    flavor = client.flavors.find_resource("g1.huge")
    assert (flavor.id, flavor.ram, flavor.vcpus) == (flavor_id, 65536, 16)
    admin = local_cloud.admin_client()
    assert len(list(admin.hypervisors.list())) == 5
    server = boot(admin, "on-host5", availability_zone="nova:host5")
    assert getattr(admin.servers.get(server.id), "OS-EXT-SRV-ATTR:host") == "host5"


@pytest.mark.local_cloud(compute_hosts=5, quota_instances=1)
def test_marker_settings(local_cloud):
    admin = local_cloud.admin_client()
    assert len(list(admin.hypervisors.list())) == 5
    client = local_cloud.client()
    boot(client, "first")
    with pytest.raises(exceptions.Forbidden) as err:
        boot(client, "second")
    assert "Quota exceeded for instances" in str(err.value)


@pytest.mark.local_cloud(services=["image"])
def test_marker_services(local_cloud):
    assert local_cloud.cloud.compute is None
    assert local_cloud.client().images.find_resource(CIRROS).name == CIRROS


def test_a_fresh_cloud_is_copied_not_seeded(monkeypatch):
    occli.testing.start_local_cloud().stop()  # the template exists
    from occli.localcloud.compute.api.service import ComputeService
    from occli.localcloud.identity.api.service import IdentityService

    def no_seed(self, db):
        raise AssertionError("seeded")

    monkeypatch.setattr(IdentityService, "seed", no_seed)
    monkeypatch.setattr(ComputeService, "seed", no_seed)
    # its speed is benchmarks/testing_start.py's (make bench), not a test's
    for _ in range(2):
        cloud = occli.testing.start_local_cloud()
        try:
            assert len(list(cloud.client().flavors.list())) == 5
        finally:
            cloud.stop()


def test_settings_the_plugin_chooses_are_refused():
    with pytest.raises(TypeError):
        occli.testing.start_local_cloud(port=8775)
    with pytest.raises(TypeError):
        occli.testing.start_local_cloud(["image", object])


# -- without pytest's fixtures ------------------------------------------------------


class DecoratedTests(unittest.TestCase):
    @occli.testing.local_cloud()
    def test_method_gets_the_cloud(self, cloud):
        self.assertEqual(os.environ["OS_CLIENT_CONFIG_FILE"], cloud.clouds_yaml)
        self.assertEqual(len(list(cloud.client().flavors.list())), 5)


@occli.testing.local_cloud(compute_hosts=4)
class DecoratedClassTests(unittest.TestCase):
    def test_each_method_gets_one(self, cloud):
        admin = cloud.admin_client()
        self.assertEqual(len(list(admin.hypervisors.list())), 4)

    def test_another(self, cloud):
        self.assertEqual(list(cloud.client().servers.list()), [])


@occli.testing.local_cloud()
def test_decorated_function(cloud):
    assert cloud.client().images.find_resource(CIRROS).name == CIRROS


# -- the module-scoped cloud ----------------------------------------------------------


def test_module_cloud_is_shared_a(local_cloud_module):
    local_cloud_module.admin_client().aggregates.create("shared")
    local_cloud_module.add_fault("/never-requested")
    local_cloud_module.build_time = 5


def test_module_cloud_is_shared_b(local_cloud_module):
    names = [a.name for a in local_cloud_module.admin_client().aggregates.list()]
    assert names == ["shared"]
    # faults and build time are reset between tests
    assert local_cloud_module.faults.rules() == []
    assert local_cloud_module.build_time == 0


# -- the plugin as users get it ------------------------------------------------------


def test_plugin_loads_from_its_entry_point_and_reports_requests(tmp_path):
    (tmp_path / "test_user.py").write_text(
        textwrap.dedent("""
        import openstack

        def test_passes(local_cloud):
            conn = openstack.connect(cloud="local")
            assert [f.name for f in conn.compute.flavors()][0] == "m1.tiny"

        def test_fails(local_cloud):
            list(local_cloud.client().flavors.list())
            assert False, "on purpose"
    """)
    )
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            str(tmp_path / "test_user.py"),
        ],
        cwd=str(tmp_path),
        capture_output=True,
        text=True,
        timeout=300,
        env={k: v for k, v in os.environ.items() if not k.startswith(("OS_", "PYTEST_"))},
    )
    assert "1 failed, 1 passed" in proc.stdout, proc.stdout + proc.stderr
    assert "local cloud http://127.0.0.1:" in proc.stdout
    assert "GET /compute/v2.1/flavors/detail 200" in proc.stdout


def test_nothing_heavy_is_imported_by_the_plugin_or_occli_help():
    script = textwrap.dedent("""
        import json, sys
        import occli.testing.pytest_plugin
        plugin = sorted(m for m in sys.modules if m.startswith((
            "occli.localcloud", "occli.client", "keystoneauth1", "yaml",
            "openstack")))
        for name in [m for m in sys.modules if m.startswith("occli")]:
            del sys.modules[name]
        from occli import shell
        try:
            shell.main(["--help"])
        except SystemExit:
            pass
        helped = sorted(m for m in sys.modules
                        if m.startswith("occli.testing"))
        print(json.dumps([plugin, helped]))
    """)
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    plugin, helped = json.loads(proc.stdout.strip().splitlines()[-1])
    assert plugin == []
    assert helped == []


def test_templates_are_per_seeded_settings():
    classes = testing_cloud._service_classes(None)
    one = testing_cloud._template_path(classes, {"build_time": 0})
    assert testing_cloud._template_path(classes, {"build_time": 5}) == one
    timings = {"reclaim_instance_interval": 60, "shelved_offload_time": -1}
    assert testing_cloud._template_path(classes, dict(timings, live_migration_time=3)) == one
    assert testing_cloud._template_path(classes, {"compute_hosts": 2}) != one


# -- the documentation's worked example ------------------------------------------------

TESTING_DOC = os.path.join(
    os.path.dirname(__file__), os.pardir, os.pardir, "doc", "source", "testing.rst"
)


def captioned_blocks(path):
    """``{caption: code}`` of the ``.. code-block:: python`` blocks of an
    rst file that have a ``:caption:``."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    blocks = {}
    pattern = re.compile(
        r"^\.\. code-block:: python\n   :caption: (\S+)\n\n"
        r"((?:   .*\n|\n)+)",
        re.M,
    )
    for match in pattern.finditer(text):
        blocks[match.group(1)] = textwrap.dedent(match.group(2))
    return blocks


def test_the_documented_example_passes(tmp_path):
    blocks = captioned_blocks(TESTING_DOC)
    assert sorted(blocks) == ["deploy.py", "test_deploy.py"]
    for name, code in blocks.items():
        (tmp_path / name).write_text(code)
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-W",
            "ignore::PendingDeprecationWarning",
            "-W",
            "ignore::DeprecationWarning",
            "test_deploy.py",
        ],
        cwd=str(tmp_path),
        capture_output=True,
        text=True,
        timeout=300,
        env={k: v for k, v in os.environ.items() if not k.startswith(("OS_", "PYTEST_"))},
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "7 passed" in proc.stdout, proc.stdout


# -- LocalCloud's templates ----------------------------------------------------------


def _local_cloud(data_dir, services=None, template=None):
    from occli.localcloud.cloud import Config
    from occli.localcloud.cloud import LocalCloud

    return LocalCloud(
        Config(data_dir=str(data_dir), port=0, build_time=0), services=services, template=template
    )


def test_a_template_behind_the_code_is_migrated_and_seeded(tmp_path):
    from occli.localcloud.identity.api.service import IdentityService
    from occli.localcloud.image.api.service import ImageService

    small = _local_cloud(tmp_path / "small", [IdentityService, ImageService])
    small.save_template(str(tmp_path / "small.db"))
    small.close()
    assert oct(os.stat(tmp_path / "small.db").st_mode & 0o777) == "0o600"
    full = _local_cloud(tmp_path / "full", template=str(tmp_path / "small.db"))
    try:
        with full.store.read() as db:
            flavors = db.execute("SELECT count(*) FROM compute_flavors")
            assert flavors.fetchone()[0] == 5
            users = db.execute("SELECT id FROM users WHERE name = 'demo'")
            demo = users.fetchone()[0]
    finally:
        full.close()
    # the identities are the template's
    again = _local_cloud(
        tmp_path / "again", [IdentityService, ImageService], template=str(tmp_path / "small.db")
    )
    try:
        assert again.identity.user_id(again.store._conn(), "demo") == demo
    finally:
        again.close()


def test_a_template_never_replaces_a_database(tmp_path):
    from occli.localcloud.identity.api.service import IdentityService

    first = _local_cloud(tmp_path / "first", [IdentityService])
    first.save_template(str(tmp_path / "first.db"))
    first.close()
    second = _local_cloud(tmp_path / "second", [IdentityService])
    with second.store.read() as db:
        own = second.identity.user_id(db, "demo")
    second.close()
    # a stale WAL beside a missing database is not applied to the copy
    third = tmp_path / "third"
    third.mkdir(mode=0o700)
    conn = sqlite3.connect(str(third / "cloud.db"), isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA wal_autocheckpoint=0")
    conn.execute("CREATE TABLE users (id, name)")
    conn.execute("INSERT INTO users VALUES ('stale', 'demo')")
    wal = (third / "cloud.db-wal").read_bytes()
    conn.close()
    (third / "cloud.db").unlink()
    (third / "cloud.db-wal").write_bytes(wal)
    for data_dir in ("second", "third"):
        cloud = _local_cloud(
            tmp_path / data_dir, [IdentityService], template=str(tmp_path / "first.db")
        )
        try:
            with cloud.store.read() as db:
                found = cloud.identity.user_id(db, "demo")
        finally:
            cloud.close()
        if data_dir == "second":
            assert found == own
        else:
            assert found is not None and found != own
