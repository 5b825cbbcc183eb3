"""Fault injection: rules, each kind, counting, admin API, dropped sockets."""

import threading
import time

import pytest
import requests

from occli.localcloud.faults import parse_spec
from occli.localcloud.faults import validate_spec
from occli.localcloud.server import BackgroundServer


def test_parse_spec():
    assert parse_spec("GET:^/compute/v2.1/servers:2:status:503") == {
        "method": "GET",
        "path": "^/compute/v2.1/servers",
        "count": 2,
        "kind": "status",
        "status": "503",
    }
    assert parse_spec("*:(?:a|b):1:close") == {
        "method": "*",
        "path": "(?:a|b)",
        "count": 1,
        "kind": "close",
    }
    assert parse_spec("POST:/x:3:delay:0.5")["seconds"] == "0.5"


@pytest.mark.parametrize(
    "spec",
    [
        "GET:/x:2:explode",
        "GET:/x:two:close",
        "GET:/x:0:close",
        "GET:/x:1:close:5",
        "GET:(:1:close",
        "GET:/x:1:status:200",
        "GET:/x:1:delay:soon",
        "nonsense",
    ],
)
def test_invalid_specs(spec):
    with pytest.raises(ValueError):
        validate_spec(spec)


def test_status_fault_uses_service_error_shape_and_exhausts(client, cloud):
    cloud.faults.add(
        {"method": "GET", "path": "^/v3$", "count": 2, "kind": "status", "status": 503}
    )
    for _ in range(2):
        result = client.get("/v3")
        assert result.status == 503
        assert result.json()["error"]["title"] == "Service Unavailable"
    assert client.get("/v3").status == 200
    assert cloud.faults.rules()[0]["remaining"] == 0


def test_status_fault_in_image_service(client, cloud):
    cloud.faults.add({"path": "^/image/", "kind": "status", "status": 500})
    result = client.get("/image/v2/images")
    assert result.status == 500
    assert result.body.startswith(b"500 Internal Server Error")


def test_method_must_match(client, cloud):
    cloud.faults.add({"method": "POST", "path": "^/v3", "kind": "malformed"})
    assert client.get("/v3").status == 200
    assert cloud.faults.rules()[0]["remaining"] == 1


def test_delay_then_normal_handling(client, cloud):
    cloud.faults.add({"path": "^/v3$", "kind": "delay", "seconds": 0.3})
    started = time.monotonic()
    result = client.get("/v3")
    assert time.monotonic() - started >= 0.3
    assert result.status == 200 and result.json()["version"]["id"] == "v3.14"


def test_malformed(client, cloud):
    cloud.faults.add({"path": "^/v3$", "kind": "malformed"})
    result = client.get("/v3")
    assert result.status == 200
    assert result.header("Content-Type") == "application/json"
    with pytest.raises(ValueError):
        result.json()


def test_close_drops_the_connection(cloud):
    cloud.faults.add({"path": "^/v3$", "kind": "close"})
    with BackgroundServer(cloud) as server:
        with pytest.raises(requests.ConnectionError):
            requests.get(server.url + "/v3", timeout=5)
        assert requests.get(server.url + "/v3", timeout=5).status_code == 200
    with open(cloud.access_log_path) as f:
        statuses = [line.split()[2] for line in f]
    assert statuses == ["0", "200"]


def test_initial_rules_from_config(tmp_path):
    from tests.unit.localcloud.wsgi_client import Client
    from tests.unit.localcloud.wsgi_client import make_cloud

    c = make_cloud(tmp_path / "d", faults=["GET:^/v3$:1:status:502"])
    assert Client(c).get("/v3").status == 502
    c.close()


def test_counting_is_thread_safe(client, cloud):
    cloud.faults.add({"path": "^/v3$", "count": 40, "kind": "status", "status": 503})
    statuses = []
    lock = threading.Lock()

    def worker():
        for _ in range(10):
            status = client.get("/v3").status
            with lock:
                statuses.append(status)

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert statuses.count(503) == 40 and statuses.count(200) == 40


def test_admin_api(client, cloud):
    admin = client.token("admin")
    rule = {
        "method": "GET",
        "path": "^/compute/v2.1/servers",
        "count": 2,
        "kind": "status",
        "status": 503,
    }
    created = client.post("/localcloud/faults", json=rule, token=admin)
    assert created.status == 201
    fault = created.json()["fault"]
    assert fault["id"] and fault["remaining"] == 2
    listed = client.get("/localcloud/faults", token=admin).json()["faults"]
    assert [f["id"] for f in listed] == [fault["id"]]
    bad = client.post("/localcloud/faults", json={"path": "x", "kind": "nope"}, token=admin)
    assert bad.status == 400
    assert client.delete("/localcloud/faults/" + fault["id"], token=admin).status == 204
    assert client.delete("/localcloud/faults/" + fault["id"], token=admin).status == 404
    client.post("/localcloud/faults", json=rule, token=admin)
    assert client.delete("/localcloud/faults", token=admin).status == 204
    assert cloud.faults.rules() == []


def test_admin_api_paths_are_never_faulted(client, cloud):
    token = client.token("admin")
    cloud.faults.add({"path": ".*", "count": 5, "kind": "status"})
    assert client.get("/localcloud/faults", token=token).status == 200
    assert client.delete("/localcloud/faults", token=token).status == 204
    assert client.get("/v3").status == 200


def test_admin_api_is_admin_only(client):
    demo = client.token("demo")
    result = client.get("/localcloud/faults", token=demo)
    assert result.status == 403
    assert (
        client.post("/localcloud/faults", token=demo, json={"path": "x", "kind": "close"}).status
        == 403
    )
    assert client.get("/localcloud/faults").status == 401


def test_paths_are_matched_in_linear_time(client, cloud):
    """A catastrophic pattern (minutes with Python's ``re``) answers at once:
    rule paths are searched with RE2."""
    cloud.faults.add({"path": "^/(a+)+$", "kind": "status", "status": 502})
    started = time.monotonic()
    assert client.get("/" + "a" * 5000 + "!").status == 404
    assert time.monotonic() - started < 2
    assert client.get("/aaaa").status == 502


@pytest.mark.parametrize("path", ["(a)\\1", "^/v3(?=x)", "a[b"])
def test_patterns_re2_cannot_run_are_refused(client, path):
    admin = client.token("admin")
    result = client.post("/localcloud/faults", token=admin, json={"path": path, "kind": "close"})
    assert result.status == 400
    assert "path is not a valid regular expression" in result.json()["error"]["message"]
    assert client.get("/localcloud/faults", token=admin).json() == {"faults": []}


def test_rules_are_shared_by_clouds_on_one_database(tmp_path):
    """What the workers of ``serve --workers N`` rely on: the rules and their
    counts live in the database, a count-1 rule fires once in all."""
    from occli.localcloud.cloud import LocalCloud
    from tests.unit.localcloud.wsgi_client import Client
    from tests.unit.localcloud.wsgi_client import make_cloud

    first = make_cloud(tmp_path / "d", faults=["GET:^/v3$:1:status:502"])
    second = LocalCloud(first.config, services=first.service_classes, attach=True)
    try:
        assert second.faults.rules()[0]["remaining"] == 1
        assert Client(second).get("/v3").status == 502
        assert Client(first).get("/v3").status == 200
        assert Client(second).get("/v3").status == 200
        assert first.faults.rules()[0]["remaining"] == 0
        rule = first.faults.add({"path": "^/v3$", "kind": "malformed"})
        assert [r["id"] for r in second.faults.rules()] == ["1", rule["id"]]
        assert second.faults.remove(rule["id"])
        assert not first.faults.remove(rule["id"])
    finally:
        second.close()
        first.close()
    # a cloud starting up (not attached) replaces the rules left behind
    again = make_cloud(tmp_path / "d")
    try:
        assert again.faults.rules() == []
    finally:
        again.close()
