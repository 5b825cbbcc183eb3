"""Fixtures running a real local cloud over HTTP for functional tests.

* ``localcloud`` (session): the full cloud (all services) on 127.0.0.1,
  a free port, ``build_time=0``, its own data dir.
* ``localcloud_platform`` (session): identity + image only, for tests of
  the platform that must not depend on the other services.
* ``occli_env``: environment for running the occli client against
  ``localcloud`` (``OS_CLOUD=local``).

Fault rules added during a test are cleared after it.
"""

import dataclasses
import json
import os

import pytest

from occli.localcloud.cloud import Config, LocalCloud
from occli.localcloud.server import BackgroundServer


@dataclasses.dataclass
class RunningCloud:
    """A local cloud served from a background thread."""

    url: str
    auth_url: str
    data_dir: str
    clouds_yaml: str
    cloud: LocalCloud
    server: BackgroundServer

    @property
    def faults(self):
        return self.cloud.faults

    def stop(self):
        self.server.stop()
        self.cloud.close()


def start_localcloud(data_dir, services=None, **settings):
    """Start a local cloud on a free port; ``settings`` override Config."""
    settings.setdefault("build_time", 0)
    config = Config(data_dir=str(data_dir), host="127.0.0.1", port=0,
                    **settings)
    cloud = LocalCloud(config, services=services)
    server = BackgroundServer(cloud, host="127.0.0.1", port=0).start()
    return RunningCloud(url=server.url, auth_url=server.url + "/v3",
                        data_dir=config.data_dir,
                        clouds_yaml=cloud.clouds_yaml_path, cloud=cloud,
                        server=server)


@pytest.fixture(scope="session")
def localcloud(tmp_path_factory):
    running = start_localcloud(tmp_path_factory.mktemp("localcloud"))
    yield running
    running.stop()


@pytest.fixture(scope="session")
def localcloud_platform(tmp_path_factory):
    from occli.localcloud.identity import IdentityService
    from occli.localcloud.image import ImageService

    running = start_localcloud(tmp_path_factory.mktemp("localcloud-platform"),
                               services=[IdentityService, ImageService])
    yield running
    running.stop()


@pytest.fixture(autouse=True)
def _clear_localcloud_faults(request):
    yield
    for name in ("localcloud", "localcloud_platform"):
        if name in request.fixturenames:
            request.getfixturevalue(name).faults.clear()


def point_client_at(running, monkeypatch, cache_dir, cloud=None):
    """Environment for occli against ``running``: its clouds.yaml, no other
    ``OS_*`` variables, a private token cache, and ``OS_CLOUD`` if given."""
    for key in list(os.environ):
        if key.startswith("OS_"):
            monkeypatch.delenv(key)
    monkeypatch.setenv("OS_CLIENT_CONFIG_FILE", running.clouds_yaml)
    if cloud:
        monkeypatch.setenv("OS_CLOUD", cloud)
    monkeypatch.setenv("OCCLI_CACHE_DIR", str(cache_dir))
    monkeypatch.setenv("OCCLI_LOCALCLOUD_DIR", running.data_dir)


@pytest.fixture
def occli_env(localcloud, monkeypatch, tmp_path):
    """Point the client at ``localcloud`` (cloud ``local``)."""
    point_client_at(localcloud, monkeypatch, tmp_path / "occli-cache",
                    cloud="local")
    return localcloud


@pytest.fixture
def run_occli(capsys):
    """Run ``occli ARGV…`` in-process: ``(exit code, stdout, stderr)``."""
    from occli import shell

    def run(*argv):
        capsys.readouterr()
        code = shell.main([str(a) for a in argv])
        out, err = capsys.readouterr()
        return code, out, err
    return run


def ok(result):
    """stdout of a ``run_occli`` result that must have exited 0."""
    code, out, err = result
    assert code == 0, err
    return out


def as_json(result):
    return json.loads(ok(result))
