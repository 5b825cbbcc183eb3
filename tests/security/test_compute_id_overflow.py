"""A migration id no SQLite INTEGER holds is no migration (issue 19,
finding 9): ``GET``/``DELETE /servers/{id}/migrations/{n}`` and the
``force_complete`` action answer nova's not-found (404; 400 for the action,
as nova's ``_force_complete`` turns ``MigrationNotFoundForInstance`` into
``HTTPBadRequest``), never a 500 (``OverflowError`` binding the id), and
change nothing."""

import pytest

from tests.unit.localcloud.compute_harness import Nova
from tests.unit.localcloud.compute_harness import fault
from tests.unit.localcloud.compute_harness import make_cloud

LIVE = {"os-migrateLive": {"host": None, "block_migration": "auto"}}
HUGE = ["9223372036854775808", str(10**30), "²"]


@pytest.fixture
def migrating(tmp_path):
    """``(nova, server id)``: a server whose live migration keeps running."""
    nova = Nova(make_cloud(tmp_path / "data", live_migration_time=3600))
    server_id = nova.create(user="admin")
    assert nova.show(server_id, user="admin")["status"] == "ACTIVE"
    result = nova.action(server_id, LIVE, user="admin", version="2.80")
    assert result.status == 202, result.body
    yield nova, server_id
    nova.cloud.close()


def _records(nova):
    with nova.cloud.store.read() as db:
        return [dict(r) for r in db.execute("SELECT id, status FROM compute_migrations")]


@pytest.mark.parametrize("ident", HUGE)
def test_show_of_a_huge_migration_id_is_not_found(migrating, ident):
    nova, server_id = migrating
    result = nova.get(
        "/servers/%s/migrations/%s" % (server_id, ident), user="admin", version="2.80"
    )
    assert (result.status, fault(result)[2]) == (
        404,
        "In-progress live migration %s is not found for server %s." % (ident, server_id),
    )


@pytest.mark.parametrize("ident", HUGE)
def test_abort_of_a_huge_migration_id_is_not_found(migrating, ident):
    nova, server_id = migrating
    before = _records(nova)
    result = nova.delete(
        "/servers/%s/migrations/%s" % (server_id, ident), user="admin", version="2.80"
    )
    assert (result.status, fault(result)[2]) == (
        404,
        "Migration %s not found for instance %s" % (ident, server_id),
    )
    assert _records(nova) == before


@pytest.mark.parametrize("ident", HUGE)
def test_force_complete_of_a_huge_migration_id_is_refused(migrating, ident):
    nova, server_id = migrating
    before = _records(nova)
    result = nova.post(
        "/servers/%s/migrations/%s/action" % (server_id, ident),
        {"force_complete": None},
        user="admin",
        version="2.80",
    )
    assert (result.status, fault(result)[2]) == (
        400,
        "Migration %s not found for instance %s" % (ident, server_id),
    )
    assert _records(nova) == before


def test_the_real_migration_is_still_found(migrating):
    nova, server_id = migrating
    (record,) = _records(nova)
    result = nova.get(
        "/servers/%s/migrations/%d" % (server_id, record["id"]), user="admin", version="2.80"
    )
    assert result.status == 200, result.body
    assert result.json()["migration"]["id"] == record["id"]
