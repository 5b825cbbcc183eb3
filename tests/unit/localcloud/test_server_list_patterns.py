"""Server list filters that are patterns (nova's ``format: regex`` query
parameters and its ``_regex_instance_filter``): searched in the stored
value's text, a time as ``2026-12-01 04:00:13.123456``; an empty or
uncompilable pattern is nova's 400, in its schema's property order; from
2.83 members may use the time and progress filters. Replayed from what nova
34 answered the admin (``nova-34-list-pattern-filters.json``, one ACTIVE
server), here asked by the member at 2.83."""

import datetime

import pytest

from tests.unit.fakes import load_fixture
from tests.unit.localcloud.compute_harness import Nova
from tests.unit.localcloud.compute_harness import fault
from tests.unit.localcloud.compute_harness import make_cloud

REAL = load_fixture("compute", "realcloud", "nova-34-list-pattern-filters.json")
EXCHANGES = REAL["exchanges"]
REPLAYED = sorted(EXCHANGES)


@pytest.fixture
def nova(tmp_path):
    return Nova(make_cloud(tmp_path / "data"))


@pytest.fixture
def server(nova):
    server_id = nova.create()
    nova.show(server_id)
    return server_id


def _listed(nova, query, user="demo", version="2.83"):
    result = nova.get("/servers?" + query, user=user, version=version)
    if result.status != 200:
        return result.status, fault(result)[2]
    return 200, [s["id"] for s in result.json()["servers"]]


@pytest.mark.parametrize("query", REPLAYED)
def test_replayed_from_nova(nova, server, query, monkeypatch):
    real = EXCHANGES[query]
    if real["status"] == 200:
        # the real server was created 2026-12-01 04:00:13, launched at 04:00:14
        created = datetime.datetime(2026, 12, 1, 4, 0, 13, 250000)
        with nova.cloud.store.transaction() as db:
            db.execute(
                "UPDATE servers SET created_at = ?, launched_at = ? WHERE id = ?",
                (
                    created.isoformat(),
                    (created + datetime.timedelta(seconds=1)).isoformat(),
                    server,
                ),
            )
        expected = [server] if real["body"]["ids"] else []
        assert _listed(nova, query) == (200, expected)
    else:
        assert _listed(nova, query) == (real["status"], real["body"]["badRequest"]["message"])


def test_progress_is_a_pattern_over_the_number(nova, server):
    # a built server's progress is 0, as nova leaves it
    assert _listed(nova, "progress=0") == (200, [server])
    assert _listed(nova, "progress=^0$") == (200, [server])
    assert _listed(nova, "progress=100") == (200, [])
    assert _listed(nova, "progress=abc") == (200, [])


def test_members_get_the_time_filters_from_2_83(nova, server):
    # before 2.83 nova drops a member's created_at: every server is listed
    assert _listed(nova, "created_at=1999", user="demo", version="2.82") == (200, [server])
    assert _listed(nova, "created_at=1999", user="demo") == (200, [])
    year = nova.show(server)["created"][:4]
    for name in ("created_at", "launched_at"):
        assert _listed(nova, "%s=%s" % (name, year), user="demo") == (200, [server])
    assert _listed(nova, "terminated_at=" + year, user="demo") == (200, [])
    assert _listed(nova, "progress=1", user="demo", version="2.82") == (200, [server])
    # an empty pattern is refused whoever asks, at any version
    status, message = _listed(nova, "launched_at=", user="demo", version="2.1")
    assert (status, message.endswith("'' is not a 'regex'")) == (400, True)


def test_tags_patterns_are_checked_from_2_26(nova, server):
    assert _listed(nova, "tags=", version="2.25") == (200, [server])
    status, message = _listed(nova, "tags=", version="2.26")
    assert status == 400 and "query parameters tags" in message
