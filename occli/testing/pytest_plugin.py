"""pytest plugin of occli.testing (entry point ``pytest11``: ``occli``).

Fixtures:

* ``local_cloud`` — a fresh local cloud for the test
  (:class:`occli.testing.CloudFixture`), with the environment pointing at
  it for the test's duration (``OS_CLOUD=local``, ``OS_CLIENT_CONFIG_FILE``,
  no other ``OS_*`` variable): ``Client(cloud="local")``,
  ``openstack.connect(cloud="local")`` and ``occli``/``openstack``
  subprocesses find it.
* ``local_cloud_module`` — one cloud shared by the tests of a module (the
  environment points at it for the module's duration); fault rules are
  cleared and the build time is put back after each test.

The marker ``@pytest.mark.local_cloud(services=None, **settings)`` (on a
test, a class or a module's ``pytestmark``) sets the cloud's
:class:`~occli.localcloud.cloud.Config` fields, e.g. ``compute_hosts=5``,
``build_time=1.0`` (0 by default), ``quota_instances=-1`` (nova's default quotas,
10 instances, 20 cores, 51200 MB, apply unless lifted), ``seed="devstack"``
(what DevStack's stack.sh seeds: its projects, flavors, image and networks).

When a test using a cloud fails, the report gets a section with the last
requests that cloud answered.

Loading this module imports neither the local cloud nor the client.
"""

import pytest

#: access-log lines shown in the report of a failed test
REPORT_REQUESTS = 30


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "local_cloud(services=None, **settings): the services and Config "
        "settings (compute_hosts=5, build_time=1.0, ...) of the cloud of "
        "the local_cloud and local_cloud_module fixtures (occli.testing)",
    )
    _leave_occli_unrewritten(config)


def _leave_occli_unrewritten(config):
    """Take occli off pytest's assertion rewriting.

    pytest rewrites every package of a distribution that has a ``pytest11``
    entry point: here all of occli, whose modules hold no test's assertion.
    A rewritten module is parsed and compiled from source, and where
    bytecode is not written (``PYTHONDONTWRITEBYTECODE``, a read-only
    install) that happens in every run: the ~300 modules of the first
    ``local_cloud`` took 1.5-2 s instead of 0.3 s. pytest has no option
    for it; its hook's set of marked names is private, so a pytest
    without it is left as it is.
    """
    hook = getattr(config.pluginmanager, "rewrite_hook", None)
    marked = getattr(hook, "_must_rewrite", None)
    cache = getattr(hook, "_marked_for_rewrite_cache", None)
    if isinstance(marked, set) and "occli" in marked:
        marked.discard("occli")
        if isinstance(cache, dict):
            cache.clear()


def _marker_settings(node):
    marker = node.get_closest_marker("local_cloud")
    if marker is None:
        return None, {}
    if marker.args:
        raise pytest.UsageError(
            "@pytest.mark.local_cloud takes keyword arguments only (services=, Config fields)"
        )
    settings = dict(marker.kwargs)
    return settings.pop("services", None), settings


def _start(request):
    from occli.testing import cloud as testing

    services, settings = _marker_settings(request.node)
    return testing.start_local_cloud(services, **settings)


@pytest.fixture
def local_cloud(request):
    """A fresh local cloud for this test (:class:`occli.testing.CloudFixture`);
    the environment points at it (cloud ``local``) during the test."""
    fixture = _start(request)
    with fixture, fixture.patch_environ():
        yield fixture


@pytest.fixture(scope="module")
def local_cloud_module(request):
    """One local cloud for the tests of this module; the environment points
    at it (cloud ``local``) while they run. Fault rules and the build time
    are reset after each test; anything else a test makes stays."""
    fixture = _start(request)
    with fixture, fixture.patch_environ():
        yield fixture


def pytest_runtest_teardown(item):
    fixture = getattr(item, "funcargs", {}).get("local_cloud_module")
    if fixture is not None:
        fixture.reset()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if report.when != "call" or not report.failed:
        return
    from occli.testing.cloud import CloudFixture

    clouds = [v for v in getattr(item, "funcargs", {}).values() if isinstance(v, CloudFixture)]
    for fixture in clouds:
        try:
            requests = fixture.requests()[-REPORT_REQUESTS:]
        except OSError:
            continue
        lines = [
            "%s %s%s %d %.4f %s"
            % (
                r.method,
                r.path,
                "?" + r.query if r.query else "",
                r.status,
                r.seconds,
                r.request_id,
            )
            for r in requests
        ]
        report.sections.append(
            (
                "local cloud %s: last %d requests" % (fixture.url, len(lines)),
                "\n".join(lines) or "(none)",
            )
        )
