"""A multi-server create never holds the write lock for its whole plan
(issue 19, finding 6): its servers are made in chunks, each one short write
transaction, so another tenant's write runs between them; the quotas are
counted again after each chunk (nova's recheck), so two creates side
by side never exceed them; and a create whose later chunk fails leaves
nothing behind. The tests make the chunks 2 servers and run the other
request from a hook called when the create's first write transaction has
committed: deterministic, no timing."""

import contextlib
import threading

import pytest

from occli.localcloud.compute import build
from occli.localcloud.compute import quotas
from occli.localcloud.compute import scheduler
from occli.localcloud.compute import servers
from tests.unit.localcloud.compute_harness import CIRROS
from tests.unit.localcloud.compute_harness import Nova
from tests.unit.localcloud.compute_harness import fault
from tests.unit.localcloud.compute_harness import make_cloud

# a bound on waiting for the other request's thread, never reached
JOIN_SECONDS = 60


@pytest.fixture
def small_chunks(monkeypatch):
    monkeypatch.setattr(servers, "CREATE_CHUNK", 2)


def _cloud(tmp_path, **config):
    return Nova(make_cloud(tmp_path / "data", **config))


def _on_first_commit(nova, action):
    """Run ``action()`` in another thread, once, when a write transaction of
    the calling thread that left servers of the create (named ``big*``)
    committed, and wait for it: a create holding the write lock for its
    whole plan reaches that point only when it is done."""
    store = nova.cloud.store
    original = store.transaction
    owner = threading.get_ident()
    fired = []

    @contextlib.contextmanager
    def watched():
        outer = not store.writing()
        with original() as conn:
            yield conn
        if not outer or fired or threading.get_ident() != owner:
            return
        with store.read() as db:
            made = db.execute("SELECT COUNT(*) FROM servers WHERE name LIKE 'big%'").fetchone()[0]
        if made:
            fired.append(made)
            other = threading.Thread(target=action)
            other.start()
            other.join(JOIN_SECONDS)
            assert not other.is_alive()

    store.transaction = watched
    return fired


def _live(nova, pattern="%"):
    with nova.cloud.store.read() as db:
        return db.execute(
            "SELECT COUNT(*) FROM servers WHERE deleted = 0 AND name LIKE ?", (pattern,)
        ).fetchone()[0]


def test_another_tenants_write_runs_between_the_chunks(tmp_path, small_chunks):
    nova = _cloud(tmp_path)
    try:
        theirs, seen = nova.create(name="theirs", user="admin"), {}

        def other_tenant():
            # admin's project sets its server's metadata: a short write
            result = nova.put(
                "/servers/%s/metadata/color" % theirs, {"meta": {"color": "red"}}, user="admin"
            )
            seen["status"] = result.status
            seen["made_by_then"] = _live(nova, "big%")

        fired = _on_first_commit(nova, other_tenant)
        body = {"server": {"name": "big", "flavorRef": "1", "imageRef": CIRROS, "max_count": 5}}
        result = nova.post("/servers", body)
        assert result.status == 202, result.body
        assert seen["status"] == 200
        # the metadata was stored while the create had made 2 of its 5
        assert fired == [2] and seen["made_by_then"] == 2
        # and the create answers as one: the first server, its reservation
        # shared, names and launch indexes in order, one action each
        first = result.json()["server"]
        assert result.header("Location").endswith("/servers/" + first["id"])
        assert set(first) == {"id", "links", "OS-DCF:diskConfig", "security_groups", "adminPass"}
        with nova.cloud.store.read() as db:
            rows = db.execute(
                "SELECT id, name, launch_index, reservation_id FROM servers"
                " WHERE name LIKE 'big%' ORDER BY seq"
            ).fetchall()
            actions = db.execute(
                "SELECT instance_uuid, action, request_id FROM compute_instance_actions"
                " WHERE instance_uuid != ? ORDER BY id",
                (theirs,),
            ).fetchall()
        assert [(r["name"], r["launch_index"]) for r in rows] == [
            ("big-%d" % (n + 1), n) for n in range(5)
        ]
        assert rows[0]["id"] == first["id"]
        assert len({r["reservation_id"] for r in rows}) == 1
        request_id = result.header("x-openstack-request-id")
        assert [tuple(a) for a in actions] == [(r["id"], "create", request_id) for r in rows]
    finally:
        nova.cloud.close()


def test_two_creates_side_by_side_never_exceed_the_quota(tmp_path, small_chunks):
    nova = _cloud(tmp_path, quota_instances=6)
    try:
        other = {}

        def second_create():
            # the same project, while the first create has made 2 of its 4:
            # 2 + 4 fit the quota of 6, so this one is accepted and made
            other["result"] = nova.create(name="other", min_count=4, max_count=4, expect=202)

        fired = _on_first_commit(nova, second_create)
        result = nova.create(name="big", min_count=4, max_count=4, expect=403)
        assert fired == [2] and other["result"]
        # nova's recheck (check_num_instances_quota with no delta): the
        # limit is shown as the usage
        assert fault(result) == (
            "forbidden",
            403,
            "Quota exceeded for instances: Requested 4, but already used 6 of 6 instances",
        )
        assert _live(nova) == 4 == _live(nova, "other%")
        with nova.cloud.store.read() as db:
            made = db.execute("SELECT COUNT(*) FROM servers WHERE name LIKE 'big%'").fetchone()
            assert made[0] == 0
            assert (
                db.execute(
                    "SELECT COUNT(*) FROM compute_instance_actions a LEFT JOIN servers s"
                    " ON s.id = a.instance_uuid WHERE s.id IS NULL"
                ).fetchone()[0]
                == 0
            )
        limits = nova.get("/limits").json()["limits"]["absolute"]
        assert (limits["maxTotalInstances"], limits["totalInstancesUsed"]) == (6, 4)
    finally:
        nova.cloud.close()


def test_a_later_chunk_that_fails_leaves_nothing(tmp_path, small_chunks):
    nova = _cloud(tmp_path)
    try:
        demo = nova.project_id("demo")
        lifted = nova.client.request(
            "PUT",
            "/network/v2.0/quotas/" + demo,
            json={"quota": {"port": 3}},
            token=nova.tokens["admin"],
        )
        assert lifted.status == 200, lifted.body
        seen = {}

        def look():
            with nova.cloud.store.read() as db:
                seen["ports"] = db.execute(
                    "SELECT COUNT(*) FROM network_ports WHERE device_owner LIKE 'compute:%'"
                ).fetchone()[0]

        fired = _on_first_commit(nova, look)
        result = nova.create(name="big", max_count=4, networks="auto", version="2.37", expect=403)
        # Neutron refused the 4th port in the second chunk: nova's answer
        assert fault(result) == ("forbidden", 403, "Maximum number of ports exceeded")
        # the first chunk had been committed with its ports …
        assert fired == [2] and seen["ports"] == 2
        # … and is gone: no server, port, group member or action is left
        with nova.cloud.store.read() as db:
            for sql in (
                "SELECT COUNT(*) FROM servers",
                "SELECT COUNT(*) FROM network_ports WHERE device_owner LIKE 'compute:%'",
                "SELECT COUNT(*) FROM compute_instance_actions",
                "SELECT COUNT(*) FROM compute_server_group_members",
            ):
                assert db.execute(sql).fetchone()[0] == 0, sql
    finally:
        nova.cloud.close()


def test_counts_placement_and_rows_take_no_write_lock(tmp_path, small_chunks, monkeypatch):
    # the project's servers counted and every host's usage summed: tens of
    # ms once a project has thousands of servers, which every other
    # tenant's write waited for
    nova = _cloud(tmp_path)
    try:
        store, seen = nova.cloud.store, []

        def watched(name, real):
            def call(*args):
                seen.append((name, store.writing()))
                return real(*args)

            return call

        monkeypatch.setattr(quotas, "usage", watched("usage", quotas.usage))
        placing = watched("host_states", scheduler.host_states)
        monkeypatch.setattr(scheduler, "host_states", placing)
        monkeypatch.setattr(build, "record", watched("record", build.record))
        nova.create(name="big", max_count=5)
        # counted before the create and after each of its 3 chunks, placed
        # once, each row built before its chunk's write transaction
        assert sorted(seen) == (
            [("host_states", False)] + [("record", False)] * 5 + [("usage", False)] * 4
        )
        assert _live(nova, "big%") == 5
    finally:
        nova.cloud.close()


def test_a_quota_taken_while_a_create_is_placed_is_rechecked(tmp_path, small_chunks, monkeypatch):
    nova = _cloud(tmp_path, quota_instances=6)
    try:
        real, other = scheduler.select_destinations, {}

        def placing(db, spec, server_ids):
            if not other:
                # the same project, after the first create's quota count (4
                # of 6 free): this one's 5 are made meanwhile
                worker = threading.Thread(
                    target=lambda: other.update(
                        result=nova.create(name="other", min_count=5, max_count=5, expect=202)
                    )
                )
                other["started"] = True
                worker.start()
                worker.join(JOIN_SECONDS)
                assert not worker.is_alive()
            return real(db, spec, server_ids)

        monkeypatch.setattr(scheduler, "select_destinations", placing)
        result = nova.create(name="big", min_count=4, max_count=4, expect=403)
        assert other["result"]
        # the recheck after the first chunk (7 of 6): nova's text, the
        # limit shown as the usage
        assert fault(result) == (
            "forbidden",
            403,
            "Quota exceeded for instances: Requested 4, but already used 6 of 6 instances",
        )
        assert _live(nova, "big%") == 0 and _live(nova) == 5
    finally:
        nova.cloud.close()
