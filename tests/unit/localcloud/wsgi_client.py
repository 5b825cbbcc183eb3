"""An in-process client of a local cloud's WSGI application (no sockets),
shared by the local cloud's unit tests and the security tests."""

import io
import json as jsonlib
import urllib.parse

from occli.localcloud.cloud import Config
from occli.localcloud.cloud import LocalCloud
from occli.localcloud.identity.api.service import IdentityService
from occli.localcloud.image.api.service import ImageService

HOST = "cloud.test:8775"
BASE = "http://" + HOST


class Result:
    def __init__(self, status, headers, chunks):
        self.status = status
        self.headers = {k.lower(): v for k, v in headers}
        self.chunks = chunks  # the response iterable's pieces, as sent
        self.body = b"".join(chunks)

    def json(self):
        return jsonlib.loads(self.body)

    def header(self, name):
        return self.headers.get(name.lower())

    def text(self):
        """Body and header values, for leak checks."""
        return self.body.decode("utf-8", "replace") + "\n" + "\n".join(self.headers.values())


def call(
    cloud,
    method,
    path_info,
    query="",
    body=b"",
    headers=None,
    token=None,
    wsgi_input=None,
    length=None,
):
    """One request to ``cloud``'s WSGI application, in-process: a Result.

    ``path_info`` is sent as is (already decoded, as a server passes it).
    ``body`` is sent as JSON with its length; or ``wsgi_input`` (a stream,
    e.g. one that records its reads) is, with ``length`` as the declared
    Content-Length (None: none, as a chunked upload has).
    """
    environ = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path_info,
        "QUERY_STRING": query,
        "SERVER_NAME": "cloud.test",
        "SERVER_PORT": "8775",
        "HTTP_HOST": HOST,
        "SERVER_PROTOCOL": "HTTP/1.1",
        "wsgi.url_scheme": "http",
    }
    if wsgi_input is None:
        body = body or b""
        environ.update(
            {
                "wsgi.input": io.BytesIO(body),
                "CONTENT_LENGTH": str(len(body)),
                "CONTENT_TYPE": "application/json",
            }
        )
    else:
        environ["wsgi.input"] = wsgi_input
        if length is not None:
            environ["CONTENT_LENGTH"] = str(length)
    for name, value in (headers or {}).items():
        key = name.upper().replace("-", "_")
        if key not in ("CONTENT_TYPE", "CONTENT_LENGTH"):
            key = "HTTP_" + key
        environ[key] = value
    if token is not None:
        environ["HTTP_X_AUTH_TOKEN"] = token
    captured = {}

    def start_response(status, response_headers):
        captured["status"] = int(status.split()[0])
        captured["headers"] = response_headers

    chunks = list(cloud.wsgi(environ, start_response))
    return Result(captured["status"], captured["headers"], chunks)


class Client:
    """Calls a cloud's WSGI app directly (no sockets)."""

    def __init__(self, cloud):
        self.cloud = cloud

    def request(self, method, path, json=None, body=None, headers=None, token=None):
        if json is not None:
            body = jsonlib.dumps(json).encode()
        path, _, query = path.partition("?")
        return call(self.cloud, method, urllib.parse.unquote(path), query, body, headers, token)

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
