"""A local cloud with identity and network (and compute, for the server
tests) driven in-process: the ``Neutron`` caller the ``test_network_*``
modules share."""

from occli.localcloud.cloud import Config
from occli.localcloud.cloud import LocalCloud
from occli.localcloud.compute.api.service import ComputeService
from occli.localcloud.identity.api.service import IdentityService
from occli.localcloud.image.api.service import ImageService
from occli.localcloud.network.api.service import NetworkService
from tests.unit.localcloud.wsgi_client import Client

PRIVATE = "4fd44f30-2920-4a4b-a2b0-0e6c2dbd2a4b"


class Neutron:
    """Neutron API calls as ``demo``, ``alt`` or ``admin``."""

    def __init__(self, cloud):
        self.cloud = cloud
        self.client = Client(cloud)
        self.tokens = {u: self.client.token(u) for u in ("demo", "alt", "admin")}

    def project_id(self, name):
        with self.cloud.store.read() as db:
            return self.cloud.identity.project_id(db, name)

    def call(self, method, path, json=None, user="demo", raw=None):
        return self.client.request(
            method, "/network/v2.0" + path, json=json, body=raw, token=self.tokens[user]
        )

    def get(self, path, **kw):
        return self.call("GET", path, **kw)

    def post(self, path, json=None, **kw):
        return self.call("POST", path, json=json, **kw)

    def put(self, path, json=None, **kw):
        return self.call("PUT", path, json=json, **kw)

    def delete(self, path, **kw):
        return self.call("DELETE", path, **kw)

    def create(self, collection, member, body, user="demo", expect=201):
        result = self.post("/" + collection, {member: body}, user=user)
        assert result.status == expect, result.body
        return result.json()[member] if expect == 201 else result

    def public(self):
        (net,) = self.get("/networks?name=public").json()["networks"]
        return net["id"]


def make_cloud(data_dir, **settings):
    settings.setdefault("build_time", 0)
    return LocalCloud(
        Config(data_dir=str(data_dir), **settings),
        services=[IdentityService, NetworkService, ComputeService, ImageService],
    )


def error(result):
    """``(type, message)`` of a NeutronError body."""
    body = result.json()["NeutronError"]
    assert body["detail"] == ""
    return body["type"], body["message"]
