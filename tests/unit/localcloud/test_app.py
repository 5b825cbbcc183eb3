"""Application: routing, errors, transactions, body limits, access log."""

import re

import pytest

from occli.localcloud import app
from occli.localcloud import errors
from occli.localcloud.app import HTTPError
from occli.localcloud.app import Response
from occli.localcloud.app import Service
from occli.localcloud.cloud import Config
from occli.localcloud.cloud import LocalCloud
from occli.localcloud.identity.api.service import IdentityService
from occli.localcloud.image.api.service import ImageService
from tests.unit.localcloud import wsgi_client
from tests.unit.localcloud.wsgi_client import Client


class NovaLikeService(Service):
    """A service with its own error shape, to check 401s come out the same."""

    name = "novalike"
    prefix = "/novalike"

    def __init__(self, cloud):
        super().__init__(cloud)
        self.route("GET", "/things", self.list_things)
        self.route("POST", "/things", self.create_thing)
        self.route("GET", "/boom", self.boom)
        self.route("GET", "/public", lambda req: Response(200, {"ok": True}), auth=False)
        self.route("GET", "/sneaky", self.sneaky_write)
        self.route("GET", "/counted", self.counted_read)
        self.route("DELETE", "/things", lambda req: Response(204))
        self.route("POST", "/bare", self.bare_body)

    def migrations(self):
        return [("novalike", ["CREATE TABLE things (name TEXT NOT NULL)"])]

    def error_body(self, status, message, extra):
        return {
            "itemNotFound" if status == 404 else "computeFault": {
                "code": status,
                "message": message,
            }
        }

    def after(self, req, resp):
        resp.headers["X-Service"] = "novalike"

    def list_things(self, req):
        rows = req.db.execute("SELECT name FROM things ORDER BY name")
        return Response(200, {"things": [r["name"] for r in rows], "who": req.context.user_name})

    def create_thing(self, req):
        body = req.json()
        req.db.execute("INSERT INTO things (name) VALUES (?)", (body["name"],))
        if body.get("fail"):
            raise HTTPError(409, "Conflict after insert.")
        if body.get("rule"):
            raise errors.NotFound("Thing %s could not be found." % body["rule"])
        return Response(201, {"name": body["name"]})

    def boom(self, req):
        raise RuntimeError("internal detail")

    def sneaky_write(self, req):
        req.db.execute("INSERT INTO things (name) VALUES ('sneaky')")
        return Response(200, {})

    def counted_read(self, req):
        """Persists a computed change the way GET handlers must: in a short
        write of its own, then answers from what it read."""
        rows = req.db.execute("SELECT name FROM things").fetchall()
        with req.cloud.store.transaction() as db:
            db.execute("INSERT INTO things (name) VALUES ('counted')")
        return Response(200, {"things": [r["name"] for r in rows]})

    def bare_body(self, req):
        """A bug: a write, then a bare body instead of a Response."""
        req.db.execute("INSERT INTO things (name) VALUES ('bare')")
        return {"name": "bare"}


@pytest.fixture
def nova(tmp_path):
    c = LocalCloud(
        Config(data_dir=str(tmp_path / "data"), build_time=0),
        services=[IdentityService, NovaLikeService, ImageService],
    )
    yield Client(c)
    c.close()


def _count(client, table):
    with client.cloud.store.transaction() as db:
        return db.execute("SELECT COUNT(*) FROM %s" % table).fetchone()[0]


def test_every_response_has_a_request_id(client):
    result = client.get("/v3")
    assert re.fullmatch(r"req-[0-9a-f-]{36}", result.header("x-openstack-request-id"))


def test_unauthenticated_is_keystonemiddleware_shaped_in_every_service(nova):
    for token in (None, "not-a-token"):
        result = nova.get("/novalike/things", token=token)
        assert result.status == 401
        assert result.json() == {
            "error": {
                "code": 401,
                "title": "Unauthorized",
                "message": "The request you have made requires authentication.",
            }
        }
        assert result.header("WWW-Authenticate") == 'Keystone uri="http://cloud.test:8775/v3"'
        assert result.header("X-Service") == "novalike"


def test_other_errors_use_the_service_shape(nova):
    token = nova.token()
    result = nova.get("/novalike/nothing", token=token)
    assert result.status == 404
    assert set(result.json()) == {"itemNotFound"}
    result = nova.request("PUT", "/novalike/things", token=token)
    assert result.status == 405
    assert result.json()["computeFault"]["code"] == 405


def test_authenticated_route_gets_context(nova):
    result = nova.get("/novalike/things", token=nova.token())
    assert result.status == 200
    assert result.json() == {"things": [], "who": "demo"}
    assert nova.get("/novalike/public").json() == {"ok": True}


def test_unscoped_token_is_refused_by_project_services(nova):
    token = nova.token(scope="unscoped")
    result = nova.get("/novalike/things", token=token)
    assert result.status == 403
    assert "project-scoped" in result.json()["computeFault"]["message"]


def test_http_error_rolls_back_the_request(nova):
    token = nova.token()
    result = nova.post("/novalike/things", json={"name": "a", "fail": True}, token=token)
    assert result.status == 409
    assert _count(nova, "things") == 0
    assert nova.post("/novalike/things", json={"name": "b"}, token=token).status == 201
    assert _count(nova, "things") == 1


def test_domain_error_is_its_status_in_the_service_shape(nova):
    result = nova.post("/novalike/things", json={"name": "a", "rule": "x"}, token=nova.token())
    assert result.status == 404
    assert result.json() == {
        "itemNotFound": {"code": 404, "message": "Thing x could not be found."}
    }
    assert _count(nova, "things") == 0


def test_unexpected_exception_is_500_in_service_shape(nova, caplog):
    result = nova.get("/novalike/boom", token=nova.token())
    assert result.status == 500
    assert result.json()["computeFault"]["code"] == 500
    assert "internal detail" not in result.body.decode()
    assert "unhandled error in GET /novalike/boom" in caplog.text


def test_a_handler_not_returning_a_response_is_a_logged_500(nova, caplog):
    result = nova.post("/novalike/bare", token=nova.token())
    assert result.status == 500
    assert result.json()["computeFault"]["code"] == 500
    assert "TypeError: handler bare_body returned dict, not a Response" in caplog.text
    assert _count(nova, "things") == 0


def test_malformed_body_is_400_and_changes_nothing(client):
    before = _count(client, "tokens")
    result = client.post("/v3/auth/tokens", body=b'{"auth": {')
    assert result.status == 400
    assert result.json()["error"]["title"] == "Bad Request"
    assert _count(client, "tokens") == before


def test_oversized_body_is_413_and_changes_nothing(client):
    password = "x" * (app.MAX_BODY + 1)
    result = client.authenticate("demo", password=password)
    assert result.status == 413
    assert result.json()["error"]["code"] == 413
    assert _count(client, "tokens") == 0


def test_head_has_no_body(client):
    result = client.head("/v3")
    assert result.status == 200
    assert result.body == b""


def test_access_log_has_one_line_per_request(client):
    client.get("/v3")
    client.get("/image/v2/images?limit=1")
    with open(client.cloud.access_log_path) as f:
        lines = f.read().splitlines()
    assert len(lines) == 2
    pattern = r"(\S+) (\S+) (\d+) (\d+\.\d{4}) (req-[0-9a-f-]{36})"
    first, second = (re.fullmatch(pattern, line) for line in lines)
    assert first.group(1, 2, 3) == ("GET", "/v3", "200")
    assert second.group(1, 2, 3) == ("GET", "/image/v2/images?limit=1", "401")


def test_passwords_are_not_in_config_repr(cloud):
    assert cloud.config.admin_password not in repr(cloud.config)
    assert cloud.config.demo_password not in repr(cloud.config)


def test_common_time_and_id_helpers():
    import datetime
    import hashlib

    from occli.localcloud import common

    dt = datetime.datetime(2015, 11, 7, 2, 58, 43, 578887, tzinfo=datetime.timezone.utc)
    assert common.iso_z(dt) == "2015-11-07T02:58:43Z"
    assert common.iso_naive_micro(dt) == "2015-11-07T02:58:43.578887"
    assert common.iso_micro_z(dt) == "2015-11-07T02:58:43.578887Z"
    cet = dt.astimezone(datetime.timezone(datetime.timedelta(hours=1)))
    assert common.iso_micro_z(cet) == "2015-11-07T02:58:43.578887Z"
    assert common.from_timestamp(dt.timestamp()) == dt
    assert common.hash_token("t") == hashlib.sha256(b"t").hexdigest()
    assert len(common.new_uuid()) == 36
    assert common.reason(404) == "Not Found" and common.reason(599) == "Error"
    common.set_clock(lambda: dt)
    try:
        assert common.utcnow() == dt
    finally:
        common.set_clock(None)
    assert common.utcnow().tzinfo is datetime.timezone.utc


def test_routes_default_to_read_for_get_and_write_otherwise():
    noop = lambda req: None  # noqa: E731
    assert app.Route("GET", "/x", noop).mode == "read"
    assert app.Route("POST", "/x", noop).mode == "write"
    assert app.Route("DELETE", "/x", noop).mode == "write"
    assert app.Route("GET", "/x", noop, mode=None).mode is None
    with pytest.raises(ValueError):
        app.Route("GET", "/x", noop, mode="sometimes")


def test_get_runs_in_a_read_only_transaction(nova, caplog):
    token = nova.token()
    result = nova.get("/novalike/sneaky", token=token)
    assert result.status == 500
    assert "attempt to write a readonly database" in caplog.text
    assert _count(nova, "things") == 0
    result = nova.get("/novalike/counted", token=token)
    assert result.status == 200 and result.json() == {"things": []}
    assert _count(nova, "things") == 1


def test_get_takes_no_write_lock(nova, monkeypatch):
    token = nova.token()
    writes = []
    real = nova.cloud.store.transaction

    def counting():
        writes.append(1)
        return real()

    monkeypatch.setattr(nova.cloud.store, "transaction", counting)
    assert nova.get("/novalike/things", token=token).status == 200
    assert nova.head("/novalike/things", token=token).status == 200
    assert writes == []
    assert nova.post("/novalike/things", json={"name": "a"}, token=token).status == 201
    assert writes == [1]


class _Unreadable:
    def read(self, *args):
        raise AssertionError("the body was read")


def test_oversized_content_length_is_refused_before_reading(nova):
    token = nova.token()
    for method, path, auth in (
        ("DELETE", "/novalike/things", token),
        ("POST", "/v3/auth/tokens", None),
    ):
        result = wsgi_client.call(
            nova.cloud,
            method,
            path,
            token=auth,
            wsgi_input=_Unreadable(),
            length=app.MAX_BODY + 1,
        )
        assert result.status == 413
        assert result.json()["error" if auth is None else "computeFault"]["code"] == 413


@pytest.mark.parametrize(
    "raw",
    [
        b'{"name": NaN}',
        b'{"name": Infinity}',
        b'{"name": -Infinity}',
        b'{"name": 1e400}',
        b'{"name": "\\udc80"}',
        b'{"\\ud800": 1}',
        b"[" * 100000 + b"]" * 100000,
        b'{"a": ' * (app.MAX_JSON_DEPTH + 1) + b"1" + b"}" * (app.MAX_JSON_DEPTH + 1),
    ],
)
def test_json_that_is_not_strict_is_400_in_the_service_shape(nova, raw):
    result = nova.post("/novalike/things", body=raw, token=nova.token())
    assert result.status == 400, result.body
    assert result.json() == {"computeFault": {"code": 400, "message": "Malformed request body."}}
    assert _count(nova, "things") == 0


def test_json_at_the_depth_limit_and_big_numbers_are_fine(nova):
    token = nova.token()
    nested = {"name": "deep"}
    for _ in range(app.MAX_JSON_DEPTH - 1):
        nested = {"x": nested}
    nested["name"] = "deep"
    assert (
        nova.post(
            "/novalike/things", json={"name": "big", "n": 10**30, "f": 1e300}, token=token
        ).status
        == 201
    )
    assert nova.post("/novalike/things", json=nested, token=token).status == 201


class PartsService(Service):
    """Migrations as (component, steps) pairs: each part versioned apart."""

    name = "parts"
    prefix = "/parts"

    def migrations(self):
        return [
            ("parts.a", ["CREATE TABLE part_a (x TEXT)"]),
            ("parts.b", ["CREATE TABLE part_b (x TEXT)", "ALTER TABLE part_b ADD COLUMN y TEXT"]),
        ]


def test_migrations_are_applied_per_component(tmp_path):
    c = LocalCloud(
        Config(data_dir=str(tmp_path / "data")),
        services=[IdentityService, PartsService, NovaLikeService],
    )
    try:
        store = c.store
        assert (store.version("parts.a"), store.version("parts.b")) == (1, 2)
        assert store.version("parts") == 0
        assert store.version("novalike") == 1
        with store.read() as db:
            db.execute("SELECT x FROM part_a")
            db.execute("SELECT x, y FROM part_b")
    finally:
        c.close()


@pytest.mark.parametrize(
    "migrations",
    [
        ["CREATE TABLE part_a (x TEXT)"],
        {"parts.a": ["CREATE TABLE part_a (x TEXT)"]},
        ["CREATE TABLE part_a (x TEXT)", ("parts.b", [])],
    ],
    ids=["steps", "dict", "mixed"],
)
def test_migrations_other_than_pairs_are_refused(tmp_path, monkeypatch, migrations):
    """One shape: a bare list of steps or a dict no longer passes."""
    monkeypatch.setattr(PartsService, "migrations", lambda self: migrations)
    with pytest.raises(TypeError, match=r"must return \(component, steps\) pairs"):
        LocalCloud(
            Config(data_dir=str(tmp_path / "data")), services=[IdentityService, PartsService]
        )
