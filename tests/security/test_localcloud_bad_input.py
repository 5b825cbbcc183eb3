"""No 500 on bad input (issue 9 C, the generic parts and compute): request
JSON must be strict (no NaN/Infinity, no lone surrogate, bounded nesting)
and numbers too large for SQLite get nova's 400/404, on every service in
its own error shape, changing nothing."""

import json
from urllib.parse import quote

import pytest

from occli.localcloud import app
from occli.localcloud.cloud import Config
from occli.localcloud.cloud import LocalCloud
from tests.unit.localcloud.compute_harness import CIRROS
from tests.unit.localcloud.compute_harness import fault
from tests.unit.localcloud.wsgi_client import Client

HUGE = 10**30
NOT_STRICT = {
    "NaN": b"NaN",
    "Infinity": b"Infinity",
    "-Infinity": b"-Infinity",
    "overflowing float": b"1e999",
    "lone surrogate": b'"\\udc80"',
    "deep nesting": b"[" * 50000 + b"]" * 50000,
    "over MAX_JSON_DEPTH": (b'{"a": ' * app.MAX_JSON_DEPTH + b"1" + b"}" * app.MAX_JSON_DEPTH),
}


@pytest.fixture(scope="module")
def cloud(tmp_path_factory):
    cloud = LocalCloud(Config(data_dir=str(tmp_path_factory.mktemp("bad")), build_time=0))
    client = Client(cloud)
    cloud.test_tokens = {u: client.token(u) for u in ("demo", "admin")}
    with cloud.store.read() as db:
        cloud.test_project = cloud.identity.project_id(db, "demo")
    yield cloud
    cloud.close()


def _call(cloud, method, path, raw=None, user="demo"):
    return Client(cloud).request(method, path, body=raw, token=cloud.test_tokens[user])


def _dump(cloud):
    with cloud.store.read() as db:
        tables = [
            r["name"] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        ]
        return {t: db.execute("SELECT * FROM %s" % t).fetchall() for t in tables}


def _bodies(value):
    """JSON bodies carrying ``value`` somewhere any schema lets through."""
    text = value.decode()
    return {
        "compute": (
            "POST",
            "/compute/v2.1/servers",
            (
                '{"server": {"name": "vm", "flavorRef": "1", "imageRef": "%s"},'
                ' "os:scheduler_hints": {"anything": %s}}' % (CIRROS, text)
            ),
        ),
        "identity": (
            "POST",
            "/v3/auth/tokens",
            '{"auth": {"identity": {"methods": [], "x": %s}}}' % text,
        ),
        "orchestration": (
            "POST",
            "/orchestration/v1/{project}/software_configs",
            '{"name": "c", "options": {"x": %s}}' % text,
        ),
        "localcloud": ("POST", "/localcloud/faults", '{"x": %s}' % text),
    }


def _shape(service, body):
    """The message of an error body in ``service``'s shape."""
    if service == "compute":
        return body["badRequest"]["message"]
    return body["error"]["message"]


@pytest.mark.parametrize("kind", sorted(NOT_STRICT))
@pytest.mark.parametrize("service", ["compute", "identity", "orchestration", "localcloud"])
def test_json_that_is_not_strict_is_a_400_that_changes_nothing(cloud, service, kind):
    method, path, text = _bodies(NOT_STRICT[kind])[service]
    path = path.format(project=cloud.test_project)
    before = _dump(cloud)
    result = _call(cloud, method, path, text.encode(), user="admin")
    assert result.status == 400, result.body
    assert _shape(service, result.json()) == "Malformed request body."
    assert _dump(cloud) == before


def test_a_lone_surrogate_in_a_server_description_is_a_400(cloud):
    body = {
        "server": {"name": "vm", "flavorRef": "1", "imageRef": CIRROS, "description": "\udc80"}
    }
    result = Client(cloud).request(
        "POST",
        "/compute/v2.1/servers",
        body=json.dumps(body).encode(),
        headers={"OpenStack-API-Version": "compute 2.19"},
        token=cloud.test_tokens["demo"],
    )
    assert result.status == 400, result.body


@pytest.mark.parametrize(
    "method, path",
    [
        ("GET", "/os-aggregates/%d"),
        ("PUT", "/os-aggregates/%d"),
        ("DELETE", "/os-aggregates/%d"),
        ("POST", "/os-aggregates/%d/action"),
    ],
)
def test_aggregate_ids_beyond_any_row_are_not_found(cloud, method, path):
    body = {"PUT": {"aggregate": {"name": "x"}}, "POST": {"add_host": {"host": "host1"}}}.get(
        method
    )
    for ident in (HUGE, -HUGE):
        result = _call(
            cloud,
            method,
            "/compute/v2.1" + path % ident,
            json.dumps(body).encode() if body else None,
            user="admin",
        )
        assert fault(result) == ("itemNotFound", 404, "Aggregate %d could not be found." % ident)


@pytest.mark.parametrize("param", ["minRam", "minDisk"])
def test_flavor_minimums_beyond_sqlite_are_a_400(cloud, param):
    result = _call(cloud, "GET", "/compute/v2.1/flavors?%s=%d" % (param, HUGE))
    assert fault(result) == ("badRequest", 400, "Invalid %s filter [%d]" % (param, HUGE))
    result = _call(cloud, "GET", "/compute/v2.1/flavors?%s=%d" % (param, 2**63 - 1))
    assert result.status == 200 and result.json()["flavors"] == []


def test_huge_limit_is_capped(cloud):
    result = _call(cloud, "GET", "/compute/v2.1/servers?limit=%d" % HUGE)
    assert result.status == 200


@pytest.mark.parametrize("param", ["changes-since", "changes-before"])
def test_a_time_filter_overflowing_its_year_is_a_400(cloud, param):
    for value in ("9999-12-31T23:59:59-23:59", "0001-01-01T00:00:00+23:59"):
        result = Client(cloud).request(
            "GET",
            "/compute/v2.1/servers?%s=%s" % (param, quote(value)),
            headers={"OpenStack-API-Version": "compute 2.66"},
            token=cloud.test_tokens["demo"],
        )
        assert fault(result) == ("badRequest", 400, "Invalid filter field: %s." % param)


def test_zero_counts_create_one_server_like_nova(cloud):
    before = _dump(cloud)["servers"]
    body = {
        "server": {
            "name": "zero",
            "flavorRef": "1",
            "imageRef": CIRROS,
            "min_count": "0",
            "max_count": "0",
        }
    }
    result = _call(cloud, "POST", "/compute/v2.1/servers", json.dumps(body).encode())
    assert result.status == 202, result.body
    assert len(_dump(cloud)["servers"]) == len(before) + 1
