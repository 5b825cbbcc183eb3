"""A project's server list page (issue 26) reads its moving servers through
the partial ``servers_pending`` index and walks the settled ones in the
default order (newest first) through ``servers_created``: no statement of
the page scans the project's servers or sorts them in a temporary b-tree,
on the first page and after a marker alike."""

from tests.unit.localcloud.compute_harness import UNLIMITED_QUOTAS
from tests.unit.localcloud.compute_harness import Nova
from tests.unit.localcloud.compute_harness import make_cloud
from tests.unit.localcloud.test_compute_list_path import Trace


def _plans(cloud, statements):
    """``{statement: its EXPLAIN QUERY PLAN details}`` of the ``servers``
    statements of ``statements`` (as SQLite traced them, values inlined)."""
    plans = {}
    with cloud.store.read() as db:
        for sql in statements:
            if " FROM servers " in sql + " " and sql.lstrip().upper().startswith("SELECT"):
                plans[sql] = [row[3] for row in db.execute("EXPLAIN QUERY PLAN " + sql)]
    return plans


def test_a_page_uses_the_list_indexes(tmp_path):
    cloud = make_cloud(tmp_path / "d", **UNLIMITED_QUOTAS)
    try:
        nova = Nova(cloud)
        nova.create(name="vm", min_count=30, max_count=30, networks="none", version="2.37")
        first = nova.get("/servers/detail?limit=10")
        assert first.status == 200, first.body
        trace = Trace(cloud.store)
        for path in ("/servers/detail?limit=10", "/servers/detail?limit=10&marker=%s"):
            trace.clear()
            marker = first.json()["servers"][-1]["id"]
            answer = nova.get(path % marker if "%s" in path else path)
            assert answer.status == 200, answer.body
            assert len(answer.json()["servers"]) == 10
            plans = _plans(cloud, trace.read)
            moving = [p for sql, p in plans.items() if "pending IS NOT NULL" in sql]
            settled = [p for sql, p in plans.items() if "pending IS NULL" in sql]
            assert moving and settled, plans
            assert all(any("servers_pending" in step for step in p) for p in moving), moving
            assert all(any("servers_created" in step for step in p) for p in settled), settled
            for sql, plan in plans.items():
                assert not any("TEMP B-TREE" in step for step in plan), (sql, plan)
                assert not any(step.startswith("SCAN servers") for step in plan), (sql, plan)
    finally:
        cloud.close()
