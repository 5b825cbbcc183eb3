"""Issue 19, finding 6: ``POST /v1/{project}/validate`` stores nothing, so
it never takes the write lock. Four clients posting 512 KB templates used
to hold it 1.5 s each, and another project's write waited 18 s."""

import sqlite3
import threading

import pytest

from occli.localcloud.cloud import Config
from occli.localcloud.cloud import LocalCloud
from occli.localcloud.identity.api.service import IdentityService
from occli.localcloud.orchestration import templates
from occli.localcloud.orchestration.api.service import OrchestrationService
from occli.localcloud.orchestration.templates import MAX_TEMPLATE_SIZE
from occli.localcloud.store import Store
from tests.security.test_localcloud_locking import _LockHolder
from tests.unit.localcloud.compute_harness import CIRROS
from tests.unit.localcloud.compute_harness import Nova
from tests.unit.localcloud.compute_harness import make_cloud
from tests.unit.localcloud.wsgi_client import Client

TEMPLATE = (
    "heat_template_version: 2013-05-23\n"
    "resources:\n"
    "  config:\n"
    "    type: OS::Heat::SoftwareConfig\n"
    "    properties:\n"
    "      group: script\n"
    "      config: |\n"
)


@pytest.fixture
def heat(tmp_path):
    cloud = LocalCloud(
        Config(data_dir=str(tmp_path / "data")),
        services=[IdentityService, OrchestrationService],
    )
    client = Client(cloud)
    token = client.token("demo")
    shown = client.get("/v3/auth/tokens", headers={"X-Subject-Token": token}, token=token)
    project_id = shown.json()["token"]["project"]["id"]
    client.validate_url = "/orchestration/v1/%s/validate" % project_id
    client.demo = token
    yield client
    cloud.close()


def _big_template():
    """A valid template of almost heat's ``max_template_size``."""
    line = "        echo " + "x" * 60 + "\n"
    count = (MAX_TEMPLATE_SIZE - len(TEMPLATE) - 1024) // len(line)
    return TEMPLATE + line * count


def _count_writes(monkeypatch, store):
    writes = []
    real = store.transaction

    def counting():
        writes.append(1)
        return real()

    monkeypatch.setattr(store, "transaction", counting)
    return writes


def test_validate_opens_no_write_transaction(heat, monkeypatch):
    template = _big_template()
    assert len(template) > MAX_TEMPLATE_SIZE - 2048
    writes = _count_writes(monkeypatch, heat.cloud.store)
    result = heat.post(heat.validate_url, json={"template": template}, token=heat.demo)
    assert result.status == 200, result.body[:300]
    assert result.json()["Parameters"] == {}
    refused = heat.post(heat.validate_url, json={"template": "[1, 2"}, token=heat.demo)
    assert refused.status == 400
    assert writes == []


def test_validate_answers_while_another_request_holds_the_write_lock(heat):
    with _LockHolder(heat.cloud.store) as lock:
        in_time, result = lock.run(
            lambda: heat.post(heat.validate_url, json={"template": TEMPLATE}, token=heat.demo)
        )
    assert in_time, "validate waited for the write lock"
    assert result[0].status == 200, result[0].body


def test_validate_still_checks_the_caller(heat):
    # auth and heat's project check still run (in their own short read)
    assert heat.post(heat.validate_url, json={"template": TEMPLATE}).status == 401
    other = "/orchestration/v1/%s/validate" % ("0" * 32)
    result = heat.post(other, json={"template": TEMPLATE}, token=heat.demo)
    assert result.status == 403
    assert result.json()["error"]["type"] == "HTTPForbidden"


def test_validation_runs_in_the_engine_process(heat, monkeypatch):
    # libyaml holds the GIL for up to ~0.5 s on a large template: the
    # parsing runs in another process (as heat's, in heat-engine), so this
    # process's own loader is never called
    def in_this_process(text):
        raise AssertionError("parsed in the serving process")

    monkeypatch.setattr(templates, "parse_template", in_this_process)
    result = heat.post(heat.validate_url, json={"template": TEMPLATE}, token=heat.demo)
    assert result.status == 200, result.body
    refused = heat.post(heat.validate_url, json={"template": "[1, 2"}, token=heat.demo)
    assert refused.status == 400
    assert refused.json()["error"]["type"] == "HTTPBadRequest"
    assert refused.json()["error"]["message"].startswith(
        "Template not in valid format: Error parsing template"
    )


def test_validate_is_a_slow_route(heat):
    slow = heat.cloud.orchestration.slow_request
    assert slow("POST", heat.validate_url)
    assert slow("POST", heat.validate_url + "/")
    assert not slow("GET", heat.validate_url)
    assert not slow("POST", heat.validate_url.replace("/validate", "/software_configs"))
    assert not slow("POST", heat.validate_url[len("/orchestration") :])


# -- writers take turns -------------------------------------------------------


def test_writers_queue_in_the_process_not_in_sqlites_busy_handler(tmp_path, monkeypatch):
    # SQLite's busy handler polls in growing sleeps and loses the lock to any
    # writer asking in between: a tenant writing in quick successive
    # transactions starved other writers for seconds. This process's writers
    # wait for the store's own lock instead, so one whose connection would
    # not wait at all (busy_timeout 0) still writes once the holder is done.
    store = Store(tmp_path / "cloud.db")
    with store.transaction() as db:
        db.execute("CREATE TABLE t (x)")
    holding, release = threading.Event(), threading.Event()

    def hold():
        with store.transaction() as db:
            db.execute("INSERT INTO t VALUES (1)")
            holding.set()
            release.wait(60)

    real_connect = store._connect

    def impatient():
        conn = real_connect()
        conn.execute("PRAGMA busy_timeout=0")
        return conn

    outcome = []

    def write():
        try:
            with store.transaction() as db:
                db.execute("INSERT INTO t VALUES (2)")
            outcome.append("written")
        except sqlite3.OperationalError as exc:
            outcome.append(str(exc))

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert holding.wait(10)
        monkeypatch.setattr(store, "_connect", impatient)
        writer = threading.Thread(target=write)
        writer.start()
        writer.join(1)  # it asks for the lock while the holder has it
    finally:
        release.set()
        holder.join()
    writer.join()
    assert outcome == ["written"]
    with store.read() as db:
        assert [r[0] for r in db.execute("SELECT x FROM t ORDER BY x")] == [1, 2]
    store.close()


# -- other routes that store nothing --------------------------------------------


def test_nova_routes_that_store_nothing_take_no_write_lock(tmp_path, monkeypatch):
    # an aggregate's image cache request is answered from what is stored;
    # nova stores nothing here either (a remote console is always refused
    # now, in a write transaction that rolls back what reading advanced)
    nova = Nova(make_cloud(tmp_path / "nova"))
    try:
        created = nova.post(
            "/os-aggregates", {"aggregate": {"name": "agg"}}, user="admin", version="2.81"
        )
        aggregate = created.json()["aggregate"]["id"]
        writes = _count_writes(monkeypatch, nova.cloud.store)
        cache = nova.post(
            "/os-aggregates/%s/images" % aggregate,
            {"cache": [{"id": CIRROS}]},
            user="admin",
            version="2.81",
        )
        assert cache.status == 202, cache.body
        assert writes == []
    finally:
        nova.cloud.close()
