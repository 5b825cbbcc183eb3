"""Compute version discovery and its cache entry (issue 9): a failed or
malformed discovery is never cached, and an unusable cached range is
ignored and replaced, so one bad answer cannot wedge the CLI for the
token's lifetime."""

import json

import pytest
import requests

from .fakes import COMPUTE
from .fakes import load_fixture
from .fakes import requests_to

VERSION = load_fixture("compute", "versions", "v21-version-get-resp.json")
RANGE_KEY = "range:" + COMPUTE

FAILURES = {
    "503": {"status_code": 503, "text": "<html>busy</html>"},
    "malformed": {"status_code": 200, "text": "<html>garbled</html>"},
    "not a version document": {"json": {"choices": "none"}},
    "dropped connection": {"exc": requests.exceptions.ConnectionError("reset by peer")},
}


@pytest.fixture
def flavors(mock_cloud):
    mock_cloud.mock.get(
        COMPUTE + "/flavors/detail",
        json=load_fixture("compute", "flavors", "flavors-detail-resp.json"),
    )


@pytest.fixture(autouse=True)
def no_backoff(monkeypatch):
    monkeypatch.setattr("time.sleep", lambda seconds: None)


def discoveries(mock):
    return [
        r
        for r in mock.request_history
        if r.method == "GET" and r.path.rstrip("/") == "/compute/v2.1"
    ]


def sent_version(mock):
    sent = requests_to(mock, "GET", "/flavors/detail")[-1]
    return sent.headers["OpenStack-API-Version"]


def cache_entry(tmp_path):
    [path] = (tmp_path / "cache" / "tokens").iterdir()
    return path, json.loads(path.read_text())


@pytest.mark.parametrize("failure", FAILURES.values(), ids=FAILURES.keys())
def test_failed_discovery_is_not_cached(cli, mock_cloud, flavors, tmp_path, failure):
    mock_cloud.mock.get(COMPUTE, [failure, {"json": VERSION}])
    code, out, err = cli("--retries", "0", "flavor", "list")
    assert code == 1
    assert err.splitlines() == [
        "Could not read the compute API versions at %s (see --debug)." % COMPUTE
    ]
    assert RANGE_KEY not in cache_entry(tmp_path)[1]["extra"]

    code, out, err = cli("--retries", "0", "flavor", "list")
    assert code == 0, err
    assert sent_version(mock_cloud.mock) == "compute 2.96"
    assert cache_entry(tmp_path)[1]["extra"][RANGE_KEY] == ["2.1", "2.104"]


def test_failed_discovery_is_retried(cli, mock_cloud, flavors, tmp_path):
    mock_cloud.mock.get(COMPUTE, [FAILURES["503"], FAILURES["malformed"], {"json": VERSION}])
    code, out, err = cli("flavor", "list")
    assert code == 0, err
    assert len(discoveries(mock_cloud.mock)) == 3
    assert sent_version(mock_cloud.mock) == "compute 2.96"
    assert cache_entry(tmp_path)[1]["extra"][RANGE_KEY] == ["2.1", "2.104"]


@pytest.mark.parametrize(
    "cached",
    [
        [None, None],
        [],
        ["2.1"],
        "2.1-2.90",
        {"min": "2.1"},
        ["2.1", "x"],
        ["2.90", "2.1"],
        ["2.1", "latest"],
        None,
    ],
)
def test_unusable_cached_range_is_ignored_and_replaced(cli, mock_cloud, flavors, tmp_path, cached):
    assert cli("flavor", "list")[0] == 0
    path, entry = cache_entry(tmp_path)
    entry["extra"][RANGE_KEY] = cached
    path.write_text(json.dumps(entry))
    before = len(discoveries(mock_cloud.mock))

    code, out, err = cli("flavor", "list")
    assert code == 0, err
    assert len(discoveries(mock_cloud.mock)) == before + 1
    assert sent_version(mock_cloud.mock) == "compute 2.96"
    assert cache_entry(tmp_path)[1]["extra"][RANGE_KEY] == ["2.1", "2.104"]


def test_usable_cached_range_needs_no_discovery(cli, mock_cloud, flavors, tmp_path):
    assert cli("flavor", "list")[0] == 0
    path, entry = cache_entry(tmp_path)
    entry["extra"][RANGE_KEY] = ["2.1", "2.60"]
    path.write_text(json.dumps(entry))
    before = len(discoveries(mock_cloud.mock))
    assert cli("flavor", "list")[0] == 0
    assert len(discoveries(mock_cloud.mock)) == before
    assert sent_version(mock_cloud.mock) == "compute 2.60"
