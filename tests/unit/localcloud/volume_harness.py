"""A cloud with Cinder (and identity, network, compute, image) driven
in-process: the ``Cinder`` caller the ``test_volume_*`` modules share."""

from occli.localcloud.cloud import Config
from occli.localcloud.cloud import LocalCloud
from occli.localcloud.cloud import service_classes
from occli.localcloud.image import images
from tests.unit.localcloud.wsgi_client import Client

CIRROS = images.seed_image_id("cirros-0.6.2-x86_64-disk")
UBUNTU = images.seed_image_id("ubuntu-24.04")
MISSING = "00000000-0000-4000-8000-000000000000"
USERS = ("demo", "admin", "alt")


class Cinder:
    """Block storage and compute calls as ``demo``, ``alt`` or ``admin``."""

    def __init__(self, cloud):
        self.cloud = cloud
        self.client = Client(cloud)
        self.tokens = {u: self.client.token(u) for u in USERS}
        with cloud.store.read() as db:
            self.projects = {u: cloud.identity.project_id(db, u) for u in USERS}

    def call(self, method, path, json=None, user="demo", version="3.70", project=True, **kw):
        headers = dict(kw.pop("headers", {}))
        if version is not None:
            headers["OpenStack-API-Version"] = "volume " + version
        prefix = "/volume/v3/" + self.projects[user] if project else "/volume/v3"
        return self.client.request(
            method, prefix + path, json=json, headers=headers, token=self.tokens[user], **kw
        )

    def get(self, path, **kw):
        return self.call("GET", path, **kw)

    def post(self, path, json=None, **kw):
        return self.call("POST", path, json=json, **kw)

    def put(self, path, json=None, **kw):
        return self.call("PUT", path, json=json, **kw)

    def delete(self, path, **kw):
        return self.call("DELETE", path, **kw)

    def create(self, user="demo", expect=202, **volume):
        volume.setdefault("size", 1)
        result = self.post("/volumes", {"volume": volume}, user=user)
        assert result.status == expect, result.body
        return result.json()["volume"] if expect == 202 else result

    def show(self, volume_id, user="demo", **kw):
        result = self.get("/volumes/" + volume_id, user=user, **kw)
        assert result.status == 200, result.body
        return result.json()["volume"]

    def snapshot(self, volume_id, user="demo", **snap):
        snap["volume_id"] = volume_id
        result = self.post("/snapshots", {"snapshot": snap}, user=user)
        assert result.status == 202, result.body
        return result.json()["snapshot"]

    # -- compute ---------------------------------------------------------------------

    def nova(self, method, path, json=None, user="demo", version="2.96"):
        headers = {"OpenStack-API-Version": "compute " + version}
        return self.client.request(
            method, "/compute/v2.1" + path, json=json, headers=headers, token=self.tokens[user]
        )

    def server(self, user="demo", **server):
        server.setdefault("name", "vm")
        server.setdefault("flavorRef", "1")
        server.setdefault("imageRef", CIRROS)
        server.setdefault("networks", "none")
        server = {k: v for k, v in server.items() if v is not None}  # imageRef=None: none
        result = self.nova("POST", "/servers", {"server": server}, user=user)
        assert result.status == 202, result.body
        return result.json()["server"]["id"]

    def show_server(self, server_id, user="demo", version="2.96"):
        result = self.nova("GET", "/servers/" + server_id, user=user, version=version)
        assert result.status == 200, result.body
        return result.json()["server"]

    def attach(self, server_id, volume_id, user="demo", version="2.96", **extra):
        body = {"volumeAttachment": dict(extra, volumeId=volume_id)}
        return self.nova(
            "POST", "/servers/%s/os-volume_attachments" % server_id, body, user, version
        )


def make_cloud(data_dir, **settings):
    settings.setdefault("build_time", 0)
    return LocalCloud(
        Config(data_dir=str(data_dir), **settings),
        services=service_classes(("identity", "compute", "image", "volume")),
    )


def cinder_cloud(tmp_path):
    """The ``cinder`` fixture of the test modules
    (``cinder = pytest.fixture(cinder_cloud, name="cinder")``)."""
    cloud = make_cloud(tmp_path / "data")
    yield Cinder(cloud)
    cloud.close()


def message(result):
    """The message of a Cinder or Nova fault body."""
    body = result.json()
    return next(iter(body.values()))["message"]
