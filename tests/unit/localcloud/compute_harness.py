"""A compute-enabled local cloud driven in-process (identity, compute and
image services): the ``Nova`` caller the ``test_compute_*`` modules share.
Its fixtures (``nova``, ``shared_nova``, ``slow_nova``) are in conftest.py.
"""

from occli.localcloud import microversions
from occli.localcloud.cloud import Config
from occli.localcloud.cloud import LocalCloud
from occli.localcloud.compute.api.service import ComputeService
from occli.localcloud.identity.api.service import IdentityService
from occli.localcloud.image import images
from occli.localcloud.image.api.service import ImageService
from tests.unit.localcloud.wsgi_client import Client

CIRROS = images.seed_image_id("cirros-0.6.2-x86_64-disk")
UBUNTU = images.seed_image_id("ubuntu-24.04")
#: Config fields lifting nova's default instances, cores and RAM quotas
#: (10, 20, 51200) for a cloud whose tests make more servers
UNLIMITED_QUOTAS = {"quota_instances": -1, "quota_cores": -1, "quota_ram": -1}


class Nova:
    """Compute API calls as ``demo`` (member of ``demo``) or ``admin``."""

    def __init__(self, cloud):
        self.cloud = cloud
        self.client = Client(cloud)
        self.tokens = {u: self.client.token(u) for u in ("demo", "admin")}

    def project_id(self, name):
        with self.cloud.store.transaction() as db:
            return self.cloud.identity.project_id(db, name)

    def call(self, method, path, json=None, user="demo", version=None, headers=None, raw=None):
        headers = dict(headers or {})
        if version is not None:
            headers["OpenStack-API-Version"] = "compute " + version
        return self.client.request(
            method,
            "/compute/v2.1" + path,
            json=json,
            body=raw,
            headers=headers,
            token=self.tokens[user],
        )

    def get(self, path, **kw):
        return self.call("GET", path, **kw)

    def post(self, path, json=None, **kw):
        return self.call("POST", path, json=json, **kw)

    def put(self, path, json=None, **kw):
        return self.call("PUT", path, json=json, **kw)

    def delete(self, path, **kw):
        return self.call("DELETE", path, **kw)

    def create(self, user="demo", version=None, expect=202, **server):
        server.setdefault("name", "vm")
        server.setdefault("flavorRef", "1")
        server.setdefault("imageRef", CIRROS)
        if version and microversions.APIVersion(version) >= "2.37":
            server.setdefault("networks", "auto")
        result = self.post("/servers", {"server": server}, user=user, version=version)
        assert result.status == expect, result.body
        return result.json()["server"]["id"] if expect == 202 else result

    def lift_quotas(self, project="demo"):
        """Lift ``project``'s instances, cores and RAM quotas, as an
        operator does before booting many servers (``quota set``)."""
        body = {"quota_set": {"instances": -1, "cores": -1, "ram": -1}}
        result = self.put("/os-quota-sets/" + self.project_id(project), body, user="admin")
        assert result.status == 200, result.body

    def show(self, server_id, user="demo", version=None):
        result = self.get("/servers/" + server_id, user=user, version=version)
        assert result.status == 200, result.body
        return result.json()["server"]

    def action(self, server_id, body, user="demo", version=None):
        return self.post("/servers/%s/action" % server_id, body, user=user, version=version)


def make_cloud(data_dir, **settings):
    settings.setdefault("build_time", 0)
    return LocalCloud(
        Config(data_dir=str(data_dir), **settings),
        services=[IdentityService, ComputeService, ImageService],
    )


def fault(result):
    """``(fault name, code, message)`` of a nova error response."""
    ((name, body),) = result.json().items()
    return name, body["code"], body["message"]
