"""The server list path (issue 14): a page costs the same SQL statements
whatever its size, settled servers are listed without writing, and paging
in SQL (sort, keyset after the marker, limit) gives what filtering and
sorting every server in Python gives."""

import json
import random
import sqlite3

import pytest

from occli.localcloud.compute import server_filters
from occli.localcloud.compute import servers
from occli.localcloud.compute import states
from occli.localcloud.compute.caller import Caller
from tests.unit.localcloud.compute_harness import UBUNTU
from tests.unit.localcloud.compute_harness import UNLIMITED_QUOTAS
from tests.unit.localcloud.compute_harness import Nova
from tests.unit.localcloud.compute_harness import make_cloud

WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE", "BEGIN IMMEDIATE")


class Trace:
    """The SQL statements the store's connections of this thread run
    (``sqlite3`` ``set_trace_callback``): ``read`` and ``write``."""

    def __init__(self, store):
        self.read, self.write = [], []
        with store.read() as db:
            db.set_trace_callback(self.read.append)
        with store.transaction() as db:
            db.set_trace_callback(self.write.append)
        self.clear()

    def clear(self):
        del self.read[:], self.write[:]

    def writes(self):
        return [s for s in self.read + self.write if s.lstrip().upper().startswith(WRITES)]


def _spread(nova, count, **server):
    """``count`` servers of demo in one request (placed over the hosts)."""
    server.setdefault("name", "vm")
    return nova.create(min_count=count, max_count=count, **server)


def _zone(nova, host, zone):
    agg = nova.post(
        "/os-aggregates",
        {"aggregate": {"name": "agg-" + zone, "availability_zone": zone}},
        user="admin",
    )
    assert agg.status == 200, agg.body
    agg_id = agg.json()["aggregate"]["id"]
    assert (
        nova.post(
            "/os-aggregates/%s/action" % agg_id, {"add_host": {"host": host}}, user="admin"
        ).status
        == 200
    )


def _variety(nova, count):
    """``count`` servers of every kind a view reads something for: ports or
    none, metadata, tags, a locked one, a stopped one, an ERROR one with a
    fault, over every host (host2 in its own zone)."""
    _spread(nova, count, metadata={"k": "v"}, version="2.52", tags=["t"])
    nova.create(name="nonet", networks="none", version="2.37")
    locked = nova.create(name="locked")
    nova.action(locked, {"lock": None})
    stopped = nova.create(name="stopped", imageRef=UBUNTU)
    nova.action(stopped, {"os-stop": None})
    anchor = nova.create(name="anchor")
    bad = nova.post(
        "/servers",
        {
            "server": {"name": "unplaced", "flavorRef": "1", "imageRef": UBUNTU},
            "os:scheduler_hints": {"same_host": anchor, "different_host": anchor},
        },
    )
    assert bad.status == 202, bad.body


LISTS = [
    ("demo", None, "/servers/detail?limit=1000"),
    ("demo", "2.96", "/servers/detail"),
    ("admin", "2.96", "/servers/detail?all_tenants=1"),
    ("admin", "2.1", "/servers/detail?all_tenants=1&sort_key=host"),
    ("demo", "2.96", "/servers/detail?status=ACTIVE&availability_zone=nova"),
    ("demo", "2.96", "/servers?sort_key=display_name&sort_dir=asc"),
]


def _statements(nova, trace):
    counts = []
    for user, version, path in LISTS:
        trace.clear()
        result = nova.get(path, user=user, version=version)
        assert result.status == 200, result.body
        counts.append(len(trace.read) + len(trace.write))
    return counts


def test_a_page_costs_the_same_statements_whatever_its_size(tmp_path):
    """No per-server query: flavors, images, metadata, faults, security
    groups come from the row; a host's zone and status are read once per
    host on the page; the page's rows are read by one query."""
    cloud = make_cloud(tmp_path / "d", **UNLIMITED_QUOTAS)
    try:
        nova = Nova(cloud)
        _zone(nova, "host2", "zone-b")
        _variety(nova, 6)
        trace = Trace(cloud.store)
        nova.get("/servers/detail")  # settles the builds
        small = _statements(nova, trace)
        _variety(nova, 120)
        nova.get("/servers/detail")
        big = _statements(nova, trace)
        assert big == small
        # BEGIN, the token memo's PRAGMA data_version, 4 for a token not
        # memoised yet, moving rows, the sorted seqs, the page's rows, zone
        # and status of 3 hosts, COMMIT
        assert max(big) <= 17, big
    finally:
        cloud.close()


def test_a_page_follows_the_marker_without_reading_other_rows(tmp_path):
    cloud = make_cloud(tmp_path / "d", **UNLIMITED_QUOTAS)
    try:
        nova = Nova(cloud)
        _spread(nova, 40, networks="none", version="2.37")
        page = nova.get("/servers/detail?limit=15").json()
        trace = Trace(cloud.store)
        href = page["servers_links"][0]["href"].split("/v2.1", 1)[1]
        assert len(nova.get(href).json()["servers"]) == 15
        fetched = [s for s in trace.read if "seq IN (" in s]
        assert len(fetched) == 1 and fetched[0].count(",") == 14
    finally:
        cloud.close()


def test_listing_settled_servers_writes_nothing(nova):
    _variety(nova, 5)
    nova.get("/servers/detail")  # the builds end: persisted
    trace = Trace(nova.cloud.store)
    _statements(nova, trace)
    server_id = nova.get("/servers").json()["servers"][0]["id"]
    nova.show(server_id)
    nova.get("/servers/detail?limit=2&marker=" + server_id)
    assert trace.write == []
    assert trace.writes() == []


def test_moving_servers_are_persisted_in_one_short_write(slow_nova, clock):
    _spread(slow_nova, 3)
    clock.advance(3)
    trace = Trace(slow_nova.cloud.store)
    servers_ = slow_nova.get("/servers/detail").json()["servers"]
    assert {s["OS-EXT-STS:task_state"] for s in servers_} == {"block_device_mapping"}
    assert trace.write[0] == "BEGIN IMMEDIATE"
    assert trace.write[-1] == "COMMIT"
    assert [s.split()[0] for s in trace.write[1:-1]] == ["UPDATE"] * 3
    assert not [s for s in trace.read if s.startswith(WRITES)]
    # the same step again: nothing changed, nothing written
    trace.clear()
    slow_nova.get("/servers/detail")
    assert trace.write == []


# -- paging in SQL is sorting and slicing the whole list ------------------------


def _reference(db, caller, projects, search, keys, dirs, marker, limit, build_time):
    """The list as the local cloud computed it before issue 14: every
    server in scope advanced, filtered, the marker added, sorted, sliced."""
    preds, include_deleted = server_filters.predicates(search, lambda s: servers.zone_of(db, s))
    sql, args = "SELECT * FROM servers WHERE 1 = 1", []
    if not include_deleted:
        sql += " AND deleted = 0"
    if projects is not None:
        sql += " AND project_id = ?"
        args.append(projects[0])
    found = []
    for row in db.execute(sql, args):
        server = dict(row)
        states.advance(server, build_time)
        if all(p(server) for p in preds):
            found.append(server)
    if marker is not None and not any(s["id"] == marker for s in found):
        sql, args = "SELECT * FROM servers WHERE id = ?", [marker]
        if projects is not None:
            sql += " AND project_id = ?"
            args.append(projects[0])
        row = db.execute(sql, args).fetchone()
        if row is None:
            return None
        found.append(dict(row))
    order = server_filters.sort_order(list(keys), list(dirs), caller.is_admin)
    found = server_filters.sort(found, order)
    if marker is not None:
        index = [s["id"] for s in found].index(marker)
        found = found[index + 1 :]
    return found[:limit]


SEARCHES = [
    {},
    {"status": ["ACTIVE"]},
    {"status": ["BUILD", "SHUTOFF"]},
    {"name": "^web"},
    {"availability_zone": "zone-b"},
    {"changes-since": server_filters.parse_time("2000-01-01T00:00:00")},
    {"tags-any": {"b", "c"}},
    {"locked": True},
    {"deleted": True},
    {"status": ["DELETED", "ACTIVE"]},
    {"flavor": "2"},
]
ORDERS = [
    ((), ()),
    (("display_name",), ("asc",)),
    (("task_state", "display_name"), ("asc", "desc")),
    (("task_state",), ("desc",)),
    (("launched_at",), ("asc",)),
    (("updated_at",), ()),
    (("locked_by", "progress"), ("desc", "asc")),
    (("host", "power_state"), ("asc", "asc")),
    (("availability_zone",), ()),
]


@pytest.fixture
def busy(tmp_path, clock):
    """Two projects' servers in every state, some still moving (build time
    10 s), some deleted, one project's host in zone ``zone-b``."""
    cloud = make_cloud(tmp_path / "d", build_time=10, **UNLIMITED_QUOTAS)
    nova = Nova(cloud)
    _zone(nova, "host2", "zone-b")
    rng = random.Random(14)
    ids = []
    for n in range(36):
        user = "admin" if n % 5 == 0 else "demo"
        name = rng.choice(["web", "db", "Web", "wéb", "x"]) + "-%d" % n
        tags = rng.sample(["a", "b", "c"], rng.randint(0, 2))
        ids.append(
            nova.create(
                user=user, name=name, version="2.52", tags=tags, flavorRef=rng.choice("12")
            )
        )
        clock.advance(rng.choice([0, 0.4, 1.5, 3]))
    for n, server_id in enumerate(ids[:24]):
        user = "admin" if n % 5 == 0 else "demo"
        action = n % 6
        if action == 0:
            nova.action(server_id, {"os-stop": None}, user=user)
        elif action == 1:
            nova.action(server_id, {"lock": None}, user=user)
        elif action == 2:
            nova.delete("/servers/" + server_id, user=user)
        elif action == 3:
            nova.action(server_id, {"reboot": {"type": "SOFT"}}, user=user)
        clock.advance(rng.choice([0.5, 2, 4]))
    yield cloud, ids
    cloud.close()


def test_pages_are_the_sorted_filtered_list_sliced(busy, clock):
    cloud, ids = busy
    progress = states.Progress(cloud.store, cloud.config)
    with cloud.store.read() as db:
        demo = cloud.identity.project_id(db, "demo")
        admin_user = cloud.identity.user_id(db, "admin")
    rng = random.Random(1414)
    checked = 0
    for search in SEARCHES:
        for keys, dirs in ORDERS:
            admin = rng.random() < 0.5 or "host" in keys
            caller = Caller(demo, admin_user, admin)
            projects = None if admin and rng.random() < 0.6 else [demo]
            marker = rng.choice([None, None] + ids)
            limit = rng.choice([1, 3, 7, 1000])
            clock.advance(rng.choice([0, 0.7, 2.5]))
            with cloud.store.read() as db:
                expected = _reference(
                    db,
                    caller,
                    projects,
                    search,
                    keys,
                    dirs,
                    marker,
                    limit,
                    cloud.config.build_time,
                )
            with cloud.store.read() as db:
                listing = servers.select(db, caller, progress, projects, search, keys, dirs)
                if expected is None:
                    with pytest.raises(Exception, match="marker"):
                        listing.page(marker, limit)
                    continue
                got = listing.page(marker, limit)
            assert got == expected, (search, keys, dirs, marker, limit)
            checked += 1
    assert checked > 60


def test_walking_every_page_lists_every_server_once(busy, clock):
    cloud, ids = busy
    nova = Nova(cloud)
    everything = nova.get(
        "/servers?all_tenants=1&sort_key=task_state&sort_dir=asc", user="admin"
    ).json()["servers"]
    path, walked = ("/servers?all_tenants=1&sort_key=task_state&sort_dir=asc&limit=4"), []
    while path:
        body = nova.get(path, user="admin").json()
        walked += body["servers"]
        links = body.get("servers_links")
        path = links[0]["href"].split("/v2.1", 1)[1] if links else None
    assert [s["id"] for s in walked] == [s["id"] for s in everything]
    assert len(walked) == len(set(s["id"] for s in walked))


# -- SQL orders like Python -------------------------------------------------------

_TEXT = [None, "", "a", "B", "b", "é", "z", "\U0001f600", "a b", "10", "9"]
_INT = [None, 0, 1, 7, 10]


def _typed_columns():
    int_columns = {"power_state", "progress", "launch_index", "auto_disk_config"}
    columns = sorted(set(server_filters._SORT_KEYS.values()))
    return [(c, "INTEGER" if c in int_columns else "TEXT") for c in columns]


def test_sql_order_and_keyset_match_the_python_sort():
    columns = _typed_columns()
    db = sqlite3.connect(":memory:")
    db.row_factory = sqlite3.Row
    db.execute(
        "CREATE TABLE servers (seq INTEGER PRIMARY KEY, %s)"
        % ", ".join("%s %s" % c for c in columns)
    )
    rng = random.Random(7)
    rows = []
    for seq in range(1, 121):
        row = {"seq": seq}
        for column, kind in columns:
            row[column] = rng.choice(_INT if kind == "INTEGER" else _TEXT)
        rows.append(row)
        db.execute(
            "INSERT INTO servers (%s) VALUES (%s)" % (", ".join(row), ", ".join("?" * len(row))),
            list(row.values()),
        )
    keys = sorted(server_filters._SORT_KEYS)
    for _ in range(150):
        picked = rng.sample(keys, rng.randint(1, 3))
        dirs = [rng.choice(["asc", "desc"]) for _ in picked]
        order = server_filters.sort_order(picked, dirs, True)
        expected = [r["seq"] for r in server_filters.sort([dict(r) for r in rows], order)]
        sql = "SELECT seq FROM servers ORDER BY " + server_filters.order_by(order)
        assert [r[0] for r in db.execute(sql)] == expected, order
        marker = rng.choice(rows)
        where, args = server_filters.after(order, marker)
        after = [
            r[0]
            for r in db.execute(
                "SELECT seq FROM servers WHERE %s ORDER BY %s"
                % (where, server_filters.order_by(order)),
                args,
            )
        ]
        assert after == expected[expected.index(marker["seq"]) + 1 :], order


@pytest.mark.parametrize(
    "option,value",
    [
        ("name", "x"),
        ("status", ["ACTIVE"]),
        ("image", "i"),
        ("reservation_id", "r"),
        ("key_name", "k"),
        ("user_id", "u"),
        ("vm_state", "active"),
        ("task_state", "spawning"),
        ("host", "h"),
        ("node", "n"),
        ("flavor", "1"),
        ("ip", "10"),
        ("ip6", "::"),
        ("changes-since", server_filters.parse_time("2000-01-01T00:00:00")),
        ("changes-before", server_filters.parse_time("2000-01-01T00:00:00")),
        ("tags", {"a"}),
        ("tags-any", {"a"}),
        ("not-tags", {"a"}),
        ("not-tags-any", {"a"}),
        ("locked", True),
        ("availability_zone", "z"),
        ("deleted", True),
    ],
)
def test_predicates_read_only_the_columns_they_declare(option, value):
    """A listing filters a projection of the rows (``columns(search)``)."""
    full = {
        "name": "n",
        "vm_state": "active",
        "task_state": None,
        "image_ref": "",
        "reservation_id": "r",
        "key_name": None,
        "user_id": "u",
        "host": None,
        "node": None,
        "flavor": json.dumps({"id": "1"}),
        "ports": "[]",
        "updated_at": "2024-01-01T00:00:00.000000",
        "tags": "[]",
        "locked_by": None,
        "availability_zone": "nova",
        "deleted": 0,
    }
    search = {option: value}
    projected = {c: full[c] for c in server_filters.columns(search)}
    preds, _ = server_filters.predicates(search, lambda s: s["host"] or s["availability_zone"])
    assert preds
    for pred in preds:
        pred(projected)


# -- the views of a page are the views of each server ----------------------------


@pytest.mark.parametrize(
    "user,version",
    [("admin", "2.96"), ("admin", "2.1"), ("demo", "2.96"), ("demo", "2.47"), ("admin", "2.16")],
)
def test_listed_views_equal_shown_ones(nova, user, version):
    _zone(nova, "host2", "zone-b")
    _variety(nova, 4)
    listed = nova.get(
        "/servers/detail?all_tenants=1" if user == "admin" else "/servers/detail",
        user=user,
        version=version,
    ).json()["servers"]
    assert len(listed) > 5
    for server in listed:
        shown = nova.show(server["id"], user=user, version=version)
        shown.pop("server_groups", None)
        assert json.dumps(server) == json.dumps(shown)
