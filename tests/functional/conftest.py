"""Fixtures running a real local cloud over HTTP for functional tests.

* ``localcloud`` (session): the full cloud (all services) of
  ``occli.testing`` (harness.start_localcloud) on 127.0.0.1, a free port,
  ``build_time=0``, its own data dir.
* ``localcloud_platform`` (session): identity + image only, for tests of
  the platform that must not depend on the other services.
* ``occli_env``: environment for running the occli client against
  ``localcloud`` (``OS_CLOUD=local``).

Fault rules added during a test are cleared after it.
"""

import pytest

from tests.functional.harness import point_client_at
from tests.functional.harness import start_localcloud


@pytest.fixture(scope="session")
def localcloud():
    # the session's tests add up their servers in project demo: nova's
    # default instances, cores and RAM quotas are lifted
    running = start_localcloud(quota_instances=-1, quota_cores=-1, quota_ram=-1)
    yield running
    running.stop()


@pytest.fixture(scope="session")
def localcloud_platform():
    from occli.localcloud.identity.api.service import IdentityService
    from occli.localcloud.image.api.service import ImageService

    running = start_localcloud(services=[IdentityService, ImageService])
    yield running
    running.stop()


@pytest.fixture(autouse=True)
def _clear_localcloud_faults(request):
    yield
    for name in ("localcloud", "localcloud_platform"):
        if name in request.fixturenames:
            request.getfixturevalue(name).faults.clear()


@pytest.fixture
def occli_env(localcloud, monkeypatch, tmp_path):
    """Point the client at ``localcloud`` (cloud ``local``)."""
    point_client_at(localcloud, monkeypatch, tmp_path / "occli-cache", cloud="local")
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
