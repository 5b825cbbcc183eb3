"""Fixtures for unit tests of the local cloud platform: an identity + image
cloud in a tmp dir, driven in-process through its WSGI app."""

import datetime
import io
import json as jsonlib
import urllib.parse

import pytest

from occli.localcloud import common
from occli.localcloud.cloud import Config
from occli.localcloud.cloud import LocalCloud
from occli.localcloud.identity import IdentityService
from occli.localcloud.image import ImageService

HOST = "cloud.test:8775"
BASE = "http://" + HOST


class Result:
    def __init__(self, status, headers, body):
        self.status = status
        self.headers = {k.lower(): v for k, v in headers}
        self.body = body

    def json(self):
        return jsonlib.loads(self.body)

    def header(self, name):
        return self.headers.get(name.lower())


class Client:
    """Calls a cloud's WSGI app directly (no sockets)."""

    def __init__(self, cloud):
        self.cloud = cloud

    def request(self, method, path, json=None, body=None, headers=None, token=None):
        if json is not None:
            body = jsonlib.dumps(json).encode()
        body = body or b""
        path, _, query = path.partition("?")
        environ = {
            "REQUEST_METHOD": method,
            "PATH_INFO": urllib.parse.unquote(path),
            "QUERY_STRING": query,
            "SERVER_NAME": "cloud.test",
            "SERVER_PORT": "8775",
            "HTTP_HOST": HOST,
            "SERVER_PROTOCOL": "HTTP/1.1",
            "wsgi.url_scheme": "http",
            "wsgi.input": io.BytesIO(body),
            "CONTENT_LENGTH": str(len(body)),
            "CONTENT_TYPE": "application/json",
        }
        for name, value in (headers or {}).items():
            environ["HTTP_" + name.upper().replace("-", "_")] = value
        if token is not None:
            environ["HTTP_X_AUTH_TOKEN"] = token
        captured = {}

        def start_response(status, response_headers):
            captured["status"] = int(status.split()[0])
            captured["headers"] = response_headers

        payload = b"".join(self.cloud.wsgi(environ, start_response))
        return Result(captured["status"], captured["headers"], payload)

    def get(self, path, **kw):
        return self.request("GET", path, **kw)

    def post(self, path, **kw):
        return self.request("POST", path, **kw)

    def delete(self, path, **kw):
        return self.request("DELETE", path, **kw)

    def head(self, path, **kw):
        return self.request("HEAD", path, **kw)

    def authenticate(self, user="demo", password=None, scope="default", query=""):
        """POST a password auth; ``scope`` is a scope object, ``"default"``
        (no scope member) or ``"unscoped"``."""
        if password is None:
            password = getattr(self.cloud.config, user + "_password")
        auth = {
            "identity": {
                "methods": ["password"],
                "password": {
                    "user": {"name": user, "domain": {"id": "default"}, "password": password}
                },
            }
        }
        if scope != "default":
            auth["scope"] = scope
        return self.post("/v3/auth/tokens" + query, json={"auth": auth})

    def token(self, user="demo", **kw):
        result = self.authenticate(user, **kw)
        assert result.status == 201, result.body
        return result.header("X-Subject-Token")


def make_cloud(data_dir, **settings):
    settings.setdefault("build_time", 0)
    return LocalCloud(
        Config(data_dir=str(data_dir), **settings), services=[IdentityService, ImageService]
    )


@pytest.fixture
def cloud(tmp_path):
    c = make_cloud(tmp_path / "data")
    yield c
    c.close()


@pytest.fixture
def client(cloud):
    return Client(cloud)


@pytest.fixture
def clock():
    """Control common.utcnow(): ``clock.advance(seconds)``."""

    class Clock:
        def __init__(self):
            self.now = common.utcnow()

        def __call__(self):
            return self.now

        def advance(self, seconds):
            self.now += datetime.timedelta(seconds=seconds)

    c = Clock()
    common.set_clock(c)
    yield c
    common.set_clock(None)


# -- compute: a cloud with identity, compute and image (see compute_harness) --


@pytest.fixture
def nova(tmp_path):
    from tests.unit.localcloud.compute_harness import Nova
    from tests.unit.localcloud.compute_harness import make_cloud

    cloud = make_cloud(tmp_path / "data")
    yield Nova(cloud)
    cloud.close()


@pytest.fixture(scope="module")
def shared_nova(tmp_path_factory):
    """One cloud for a whole module (tests that tolerate each other's data)."""
    from tests.unit.localcloud.compute_harness import Nova
    from tests.unit.localcloud.compute_harness import make_cloud

    cloud = make_cloud(tmp_path_factory.mktemp("compute"))
    yield Nova(cloud)
    cloud.close()


@pytest.fixture
def slow_nova(tmp_path):
    """A cloud whose operations take 10 (fake-clock) seconds."""
    from tests.unit.localcloud.compute_harness import Nova
    from tests.unit.localcloud.compute_harness import make_cloud

    cloud = make_cloud(tmp_path / "data", build_time=10)
    yield Nova(cloud)
    cloud.close()


# -- Heat and Swift over HTTP (see heat_swift_harness) ---------------------


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    """Identity, Heat and Swift served over HTTP, one cloud per test module
    (tests use distinct names): users ``admin``, ``demo`` and ``alt``."""
    import types

    from tests.unit.localcloud.heat_swift_harness import login
    from tests.unit.localcloud.heat_swift_harness import serve

    cloud, url, stop = serve(tmp_path_factory.mktemp("cloud"))
    users = {}
    for name, password in (
        ("admin", "admin-secret"),
        ("demo", "demo-secret"),
        ("alt", "alt-secret"),
    ):
        token, project = login(url, name, password)
        users[name] = types.SimpleNamespace(
            token=token,
            project=project,
            headers={"X-Auth-Token": token},
            swift=url + "/object-store/v1/AUTH_" + project,
            heat=url + "/orchestration/v1/" + project,
        )
    yield types.SimpleNamespace(cloud=cloud, url=url, **users)
    stop()
