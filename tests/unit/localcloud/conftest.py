"""Fixtures for unit tests of the local cloud platform: an identity + image
cloud in a tmp dir, driven in-process through its WSGI app."""

import datetime

import pytest

from occli.localcloud import common
from tests.unit.localcloud.wsgi_client import Client
from tests.unit.localcloud.wsgi_client import make_cloud


@pytest.fixture
def cloud(tmp_path):
    c = make_cloud(tmp_path / "data")
    yield c
    c.close()


@pytest.fixture
def client(cloud):
    return Client(cloud)


@pytest.fixture
def clock():
    """Control common.utcnow(): ``clock.advance(seconds)``."""

    class Clock:
        def __init__(self):
            self.now = common.utcnow()

        def __call__(self):
            return self.now

        def advance(self, seconds):
            self.now += datetime.timedelta(seconds=seconds)

    c = Clock()
    common.set_clock(c)
    yield c
    common.set_clock(None)


# -- compute: a cloud with identity, compute and image (see compute_harness) --


@pytest.fixture
def nova(tmp_path):
    from tests.unit.localcloud.compute_harness import Nova
    from tests.unit.localcloud.compute_harness import make_cloud

    cloud = make_cloud(tmp_path / "data")
    yield Nova(cloud)
    cloud.close()


@pytest.fixture(scope="module")
def shared_nova(tmp_path_factory):
    """One cloud for a whole module (tests that tolerate each other's data;
    their servers add up, so nova's default quotas are lifted)."""
    from tests.unit.localcloud.compute_harness import UNLIMITED_QUOTAS
    from tests.unit.localcloud.compute_harness import Nova
    from tests.unit.localcloud.compute_harness import make_cloud

    cloud = make_cloud(tmp_path_factory.mktemp("compute"), **UNLIMITED_QUOTAS)
    yield Nova(cloud)
    cloud.close()


@pytest.fixture
def slow_nova(tmp_path):
    """A cloud whose operations take 10 (fake-clock) seconds."""
    from tests.unit.localcloud.compute_harness import Nova
    from tests.unit.localcloud.compute_harness import make_cloud

    cloud = make_cloud(tmp_path / "data", build_time=10)
    yield Nova(cloud)
    cloud.close()


# -- Heat and Swift over HTTP (see heat_swift_harness) ---------------------


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    """Identity, Heat and Swift served over HTTP, one cloud per test module
    (tests use distinct names): users ``admin``, ``demo`` and ``alt``."""
    import types

    from tests.unit.localcloud.heat_swift_harness import login
    from tests.unit.localcloud.heat_swift_harness import serve

    cloud, url, stop = serve(tmp_path_factory.mktemp("cloud"))
    users = {}
    for name, password in (
        ("admin", "admin-secret"),
        ("demo", "demo-secret"),
        ("alt", "alt-secret"),
    ):
        token, project = login(url, name, password)
        users[name] = types.SimpleNamespace(
            token=token,
            project=project,
            headers={"X-Auth-Token": token},
            swift=url + "/object-store/v1/AUTH_" + project,
            heat=url + "/orchestration/v1/" + project,
        )
    yield types.SimpleNamespace(cloud=cloud, url=url, **users)
    stop()


# -- network: identity, network, compute and image (see network_harness) --


@pytest.fixture
def neutron(tmp_path):
    from tests.unit.localcloud.network_harness import Neutron
    from tests.unit.localcloud.network_harness import make_cloud

    cloud = make_cloud(tmp_path / "data")
    yield Neutron(cloud)
    cloud.close()
