"""occli.testing's fresh cloud per test: what keeps it cheap (issue 26),
checked by what it does, not by how long it takes (benchmarks/testing_start.py
times it)."""

import os

import pytest

import occli.testing


def test_a_fresh_cloud_writes_nothing_at_start():
    """A cloud copied from the template with no fault rules writes no page
    (its WAL stays empty): no sync at start, none at its stop."""
    occli.testing.start_local_cloud().stop()  # the template exists
    with occli.testing.start_local_cloud() as cloud:
        wal = os.path.join(cloud.data_dir, "cloud.db-wal")
        assert not os.path.exists(wal) or os.path.getsize(wal) == 0
        assert cloud.faults.rules() == []


def test_a_restart_still_drops_the_rules_left_behind(tmp_path):
    """A cloud starting on a data dir with rules replaces them, ids from 1."""
    from occli.localcloud.cloud import Config
    from occli.localcloud.cloud import LocalCloud
    from occli.localcloud.identity.api.service import IdentityService

    config = Config(data_dir=str(tmp_path / "d"), port=0, build_time=0)
    first = LocalCloud(config, services=[IdentityService])
    first.faults.add({"path": "^/v3$", "kind": "malformed"})
    first.faults.add({"path": "^/v3$", "kind": "malformed"})
    first.close()
    again = LocalCloud(config, services=[IdentityService])
    try:
        assert again.faults.rules() == []
        assert again.faults.add({"path": "^/v3$", "kind": "malformed"})["id"] == "1"
    finally:
        again.close()


def test_a_test_cloud_never_fsyncs_and_a_served_one_does(tmp_path):
    """occli.testing's clouds are throwaway (``durable=False``: SQLite's
    synchronous=OFF on every connection); a cloud otherwise keeps
    synchronous=NORMAL."""
    from occli.localcloud.cloud import Config
    from occli.localcloud.cloud import LocalCloud
    from occli.localcloud.identity.api.service import IdentityService

    with occli.testing.start_local_cloud() as cloud:
        assert cloud.config.durable is False
        with cloud.cloud.store.read() as db:
            assert db.execute("PRAGMA synchronous").fetchone()[0] == 0
        with cloud.cloud.store.transaction() as db:
            assert db.execute("PRAGMA synchronous").fetchone()[0] == 0
    served = LocalCloud(Config(data_dir=str(tmp_path / "d"), port=0), services=[IdentityService])
    try:
        with served.store.read() as db:
            assert db.execute("PRAGMA synchronous").fetchone()[0] == 1
    finally:
        served.close()


def test_the_fixture_reads_the_clouds_it_wrote():
    """``cloud_entry``/``environ`` use what was written to clouds.yaml
    without parsing it again: the same entries as the file's."""
    import yaml

    with occli.testing.start_local_cloud() as cloud:
        with open(cloud.clouds_yaml) as f:
            written = yaml.safe_load(f)
        assert written == cloud.cloud.client_config
        for name in written["clouds"]:
            assert cloud.cloud_entry(name) == written["clouds"][name]
        assert cloud.environ("local-admin")["OS_USERNAME"] == "admin"


def test_a_route_compiles_its_pattern_when_first_matched():
    """Mounting a route compiles nothing (a process's first cloud mounts
    ~1,000); its regex is compiled on first use, once per pattern."""
    from occli.localcloud.app import Route

    route = Route("GET", "/p5-lazy/{thing_id}/parts", None)
    assert "regex" not in vars(route)
    match = route.regex.match("/p5-lazy/abc/parts")
    assert match is not None and match.groupdict() == {"thing_id": "abc"}
    assert route.regex.match("/p5-lazy/abc/parts/x") is None
    assert Route("GET", "/p5-lazy/{thing_id}/parts", None).regex is route.regex
    with pytest.raises(AttributeError):
        route.missing  # noqa: B018 - any other attribute is still an error


def test_pytest_leaves_occli_unrewritten(tmp_path):
    """The plugin takes occli off pytest's assertion rewriting (which
    compiled all of its modules from source in every run that writes no
    bytecode); a test module's own assertions are still rewritten."""
    import subprocess
    import sys
    import textwrap

    (tmp_path / "test_user.py").write_text(
        textwrap.dedent("""
        import sys

        def test_loaders(local_cloud):
            hook = "AssertionRewritingHook"
            cloud = sys.modules["occli.localcloud.cloud"]
            assert type(cloud.__loader__).__name__ != hook
            assert type(sys.modules[__name__].__loader__).__name__ == hook
            x = 1
            assert x == 2
    """)
    )
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_user.py"],
        cwd=str(tmp_path),
        capture_output=True,
        text=True,
        timeout=300,
        env={k: v for k, v in os.environ.items() if not k.startswith(("OS_", "PYTEST_"))},
    )
    # the last assertion fails, explained as rewritten assertions are
    assert "1 failed" in proc.stdout, proc.stdout + proc.stderr
    assert "assert 1 == 2" in proc.stdout, proc.stdout


def test_a_stopped_clouds_data_dir_is_gone_at_once_and_removed_after(monkeypatch):
    """A stop takes the data dir from its place at once (moved into the
    process's private template dir) and a thread removes it: every file of
    the cloud (its database, tokens included) goes; with too many waiting,
    a stop removes its own before returning."""
    import stat
    import time

    from occli.testing import cloud as testing

    testing.start_local_cloud().stop()  # the template dir exists
    cloud = testing.start_local_cloud()
    data_dir = cloud.data_dir
    cloud.client().flavors.list()  # a token stored
    cloud.stop()
    assert not os.path.exists(data_dir)
    parent = testing._template_dir
    assert parent is not None
    assert stat.S_IMODE(os.stat(parent).st_mode) == 0o700
    moved = os.path.join(parent, "stopped-" + os.path.basename(data_dir))
    deadline = time.monotonic() + 10
    while os.path.exists(moved):
        assert time.monotonic() < deadline, "%s never removed" % moved
        time.sleep(0.01)
    monkeypatch.setattr(testing, "REMOVAL_BACKLOG", 0)
    with testing.start_local_cloud() as cloud:
        data_dir = cloud.data_dir
    assert not os.path.exists(data_dir)
    assert not os.path.exists(os.path.join(parent, "stopped-" + os.path.basename(data_dir)))


def test_a_template_is_found_again_by_its_seeded_settings():
    """The template key is memoised per given settings, yet still means
    every seeded field: a setting given at its default shares the default
    template, another value has its own, found again on the next cloud."""
    from occli.localcloud.cloud import Config
    from occli.testing import cloud as testing

    classes = testing._service_classes(["identity"])
    default = Config(data_dir="").compute_hosts
    one = testing._template_path(classes, {"build_time": 0})
    assert testing._template_path(classes, {"compute_hosts": default}) == one
    other = testing._template_path(classes, {"compute_hosts": default + 1})
    assert other != one
    again = {"compute_hosts": default + 1, "build_time": 3}
    assert testing._template_path(classes, again) == other


def test_a_cloud_knows_its_migrations_in_one_query():
    """Store.versions is each component's version; a template copy one step
    behind any component is not taken as migrated."""
    with occli.testing.start_local_cloud(services=["identity"]) as cloud:
        store = cloud.cloud.store
        versions = store.versions()
        assert versions and all(store.version(c) == v for c, v in versions.items())
        assert cloud.cloud._migrated()
        component = sorted(versions)[0]
        with store.transaction() as db:
            db.execute(
                "UPDATE schema_versions SET version = version - 1 WHERE component = ?",
                (component,),
            )
        assert store.versions()[component] == versions[component] - 1
        assert not cloud.cloud._migrated()
