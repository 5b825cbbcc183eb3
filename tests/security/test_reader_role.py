"""A token whose only role in a project is ``reader`` reads but never
writes, and is told so in each service's words (nova's policy rule, heat's
controller action, Swift's bare 403); key pairs belong to users, so a
reader may still manage its own."""

import pytest

from occli.localcloud.cloud import Config
from occli.localcloud.cloud import LocalCloud
from tests.security import authz_credentials as creds

COMPUTE = "/compute/v2.1"
LATEST = {"OpenStack-API-Version": "compute latest"}
SSH_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG8Bo9d8gkRYyT1tRKc6fPXvLZdJUBwr3x4ZNaGi8S0M reader"


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    cloud = LocalCloud(Config(data_dir=str(tmp_path_factory.mktemp("reader")), build_time=0))
    creds.add_principals(cloud)
    client = creds.Client(cloud)
    member = client.password_token("demo", project=creds.PROJECT_A)
    reader = client.password_token(creds.READER, project=creds.PROJECT_A)
    with cloud.store.read() as db:
        project = cloud.identity.project_id(db, creds.PROJECT_A)
    images = client.call("GET", "/image/v2/images", token=member).json()
    image = next(i["id"] for i in images["images"] if i["name"].startswith("cirros"))
    server = client.call(
        "POST",
        COMPUTE + "/servers",
        token=member,
        headers=LATEST,
        json_body={
            "server": {
                "name": "reader-target",
                "imageRef": image,
                "flavorRef": "1",
                "networks": "none",
            }
        },
    )
    yield {
        "cloud": cloud,
        "client": client,
        "member": member,
        "reader": reader,
        "project": project,
        "image": image,
        "server": server.json()["server"]["id"],
    }
    cloud.close()


def _servers(env):
    with env["cloud"].store.read() as db:
        return db.execute(
            "SELECT id, vm_state, task_state, metadata FROM servers ORDER BY id"
        ).fetchall()


@pytest.mark.parametrize(
    "method, path, body, rule",
    [
        ("POST", "/servers", "create", "servers:create"),
        ("DELETE", "/servers/{s}", None, "servers:delete"),
        ("PUT", "/servers/{s}", {"server": {"name": "x"}}, "servers:update"),
        ("POST", "/servers/{s}/action", {"reboot": {"type": "SOFT"}}, "servers:reboot"),
        ("POST", "/servers/{s}/action", {"pause": None}, "os-pause-server:pause"),
        ("POST", "/servers/{s}/action", {"os-stop": None}, "servers:stop"),
        ("POST", "/servers/{s}/metadata", {"metadata": {"k": "v"}}, "server-metadata:create"),
        ("PUT", "/servers/{s}/metadata/k", {"meta": {"k": "v"}}, "server-metadata:update"),
    ],
)
def test_reader_cannot_change_servers(env, method, path, body, rule):
    if body == "create":
        body = {
            "server": {"name": "r", "imageRef": env["image"], "flavorRef": "1", "networks": "none"}
        }
    before = _servers(env)
    result = env["client"].request(
        method,
        COMPUTE + path.format(s=env["server"]),
        token=env["reader"],
        headers=LATEST,
        json_body=body,
    )
    assert result.status == 403
    assert result.json() == {
        "forbidden": {
            "code": 403,
            "message": "Policy doesn't allow os_compute_api:%s to be performed." % rule,
        }
    }
    assert _servers(env) == before


def test_reader_reads_servers(env):
    result = env["client"].request(
        "GET", COMPUTE + "/servers/" + env["server"], token=env["reader"], headers=LATEST
    )
    assert result.status == 200
    assert result.json()["server"]["name"] == "reader-target"


def test_reader_manages_its_own_keypairs(env):
    client, reader = env["client"], env["reader"]
    created = client.request(
        "POST",
        COMPUTE + "/os-keypairs",
        token=reader,
        headers=LATEST,
        json_body={"keypair": {"name": "reader-key", "public_key": SSH_KEY}},
    )
    assert created.status in (200, 201)
    deleted = client.request(
        "DELETE", COMPUTE + "/os-keypairs/reader-key", token=reader, headers=LATEST
    )
    assert deleted.status in (202, 204)


def test_reader_cannot_create_heat_configs(env):
    path = "/orchestration/v1/%s/software_configs" % env["project"]
    result = env["client"].request(
        "POST",
        path,
        token=env["reader"],
        json_body={"name": "c", "group": "script", "config": "true"},
    )
    assert result.status == 403
    error = result.json()["error"]
    assert error["message"] == "You are not authorized to use create."
    assert error["type"] == "Forbidden"
    listed = env["client"].call("GET", path, token=env["reader"]).json()
    assert listed["software_configs"] == []


def test_reader_cannot_write_to_swift(env):
    client = env["client"]
    account = "/object-store/v1/AUTH_" + env["project"]
    assert client.request("PUT", account + "/readers", token=env["reader"]).status == 403
    assert client.request("PUT", account + "/readers", token=env["member"]).status in (201, 202)
    assert client.request("GET", account + "/readers", token=env["reader"]).status in (200, 204)
    assert client.request("DELETE", account + "/readers", token=env["reader"]).status == 403
