"""A served local cloud (Keystone, Swift, Glance over real HTTP) with a
Swift container ``c`` of ``demo``'s, and raw HTTP requests to it: shared by
the byte path tests (``test_byte_paths``, ``test_spool``)."""

import contextlib
import http.client

from occli.localcloud.cloud import Config
from occli.localcloud.cloud import LocalCloud
from occli.localcloud.identity.api.service import IdentityService
from occli.localcloud.image.api.service import ImageService
from occli.localcloud.objectstore.api.service import ObjectStoreService
from occli.localcloud.server import BackgroundServer
from tests.unit.localcloud.wsgi_client import Client


@contextlib.contextmanager
def served(data_dir):
    """``(cloud, server, token, account)``: ``demo``'s token and Swift
    account path, its container ``c`` made."""
    cloud = LocalCloud(
        Config(data_dir=str(data_dir)),
        services=[IdentityService, ObjectStoreService, ImageService],
    )
    server = BackgroundServer(cloud).start()
    try:
        client = Client(cloud)
        token = client.token("demo")
        with cloud.store.read() as db:
            account = "/object-store/v1/AUTH_" + cloud.identity.project_id(db, "demo")
        assert client.request("PUT", account + "/c", token=token).status == 201
        yield cloud, server, token, account
    finally:
        server.stop()
        cloud.close()


def request(server, method, path, token, body=b"", headers=None):
    """``(status, headers, body)`` over HTTP from the served cloud."""
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        conn.request(
            method, path, body=body, headers=dict(headers or {}, **{"X-Auth-Token": token})
        )
        answer = conn.getresponse()
        return answer.status, answer.headers, answer.read()
    finally:
        conn.close()
