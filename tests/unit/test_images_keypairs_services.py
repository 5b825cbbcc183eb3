"""Images, keypairs, compute services and hypervisors: managers and commands."""

import json
import os
import stat

import pytest

from occli import exceptions

from .fakes import COMPUTE
from .fakes import IMAGE
from .fakes import VOLUME
from .fakes import load_fixture
from .fakes import requests_to

CIRROS = {
    "id": "5a2d4f6e-0c5b-4a34-9a7d-1f1e6d8f4a10",
    "name": "cirros-0.6.2-x86_64-disk",
    "status": "active",
    "disk_format": "qcow2",
    "container_format": "bare",
    "size": 21430272,
    "visibility": "public",
    "min_disk": 0,
    "min_ram": 0,
}


@pytest.fixture
def images(mock_cloud):
    m = mock_cloud.mock
    m.get(IMAGE + "/v2/images", json={"images": [CIRROS]})
    m.get(IMAGE + "/v2/images/" + CIRROS["id"], json=CIRROS)
    m.get(
        IMAGE + "/v2/images/cirros-0.6.2-x86_64-disk",
        status_code=404,
        text="<html><h1>404 Not Found</h1></html>",
    )
    m.get(IMAGE + "/v2/images/nope", status_code=404, text="404 Not Found")
    return m


def test_image_find_by_name_uses_server_side_filter(client, images):
    image = client.images.find_resource("cirros-0.6.2-x86_64-disk")
    assert image.id == CIRROS["id"]
    listed = requests_to(images, "GET", "/v2/images?")
    assert listed[-1].qs["name"] == ["cirros-0.6.2-x86_64-disk"]


def test_image_commands(cli, images):
    code, out, err = cli("image", "list", "--long", "-f", "json")
    assert code == 0, err
    assert json.loads(out) == [
        {
            "ID": CIRROS["id"],
            "Name": CIRROS["name"],
            "Status": "active",
            "Disk Format": "qcow2",
            "Container Format": "bare",
            "Size": 21430272,
            "Checksum": None,
            "Visibility": "public",
            "Protected": None,
            "Project": None,
            "Hash Algorithm": None,
            "Hash Value": None,
            "Tags": None,
        }
    ]
    code, out, err = cli("image", "show", CIRROS["name"], "-f", "json")
    assert code == 0 and json.loads(out)["id"] == CIRROS["id"]
    images.get(IMAGE + "/v2/images?name=nope", json={"images": []})
    code, out, err = cli("image", "show", "nope")
    assert code == 1
    assert err.strip() == "No image with a name or ID of 'nope' exists. (HTTP 404)"


def test_keypair_list_unwraps_items(client, mock_cloud):
    sample = load_fixture("compute", "os-keypairs", "v2.35", "keypairs-list-resp.json")
    # the sample page is full (it has a next link); the next page is empty
    mock_cloud.mock.get(COMPUTE + "/os-keypairs", [{"json": sample}, {"json": {"keypairs": []}}])
    got = list(client.keypairs.list())
    assert [k.name for k in got] == [i["keypair"]["name"] for i in sample["keypairs"]]
    assert got[0].fingerprint == sample["keypairs"][0]["keypair"]["fingerprint"]
    assert got[0].id == got[0].name


def test_keypair_import_sends_public_key(cli, mock_cloud, tmp_path):
    sample = load_fixture("compute", "os-keypairs", "v2.10", "keypairs-import-post-resp.json")
    mock_cloud.mock.post(COMPUTE + "/os-keypairs", status_code=201, json=sample)
    pub = tmp_path / "id.pub"
    pub.write_text("ssh-rsa AAAAB3Nza test@host\n")
    code, out, err = cli("keypair", "create", "k1", "--public-key", str(pub), "-f", "json")
    assert code == 0, err
    sent = requests_to(mock_cloud.mock, "POST", "/os-keypairs")[0]
    assert sent.json() == {"keypair": {"name": "k1", "public_key": "ssh-rsa AAAAB3Nza test@host"}}
    assert sent.headers["OpenStack-API-Version"] == "compute 2.96"
    assert json.loads(out)["fingerprint"] == sample["keypair"]["fingerprint"]


def test_keypair_generate_uses_2_91_and_writes_private_key(cli, mock_cloud, tmp_path):
    sample = load_fixture("compute", "os-keypairs", "v2.10", "keypairs-post-resp.json")
    mock_cloud.mock.post(COMPUTE + "/os-keypairs", status_code=201, json=sample)
    key_file = tmp_path / "k2.pem"
    code, out, err = cli("keypair", "create", "k2", "--private-key", str(key_file), "-f", "json")
    assert code == 0, err
    sent = requests_to(mock_cloud.mock, "POST", "/os-keypairs")[0]
    assert sent.headers["OpenStack-API-Version"] == "compute 2.91"
    assert "private_key" not in json.loads(out)
    assert key_file.read_text() == sample["keypair"]["private_key"]
    assert stat.S_IMODE(os.stat(key_file).st_mode) == 0o600
    code, _, err = cli("keypair", "create", "k3", "--private-key", str(key_file))
    assert code == 1 and "not overwriting" in err


def test_keypair_private_key_file_problems_lose_nothing(cli, mock_cloud, tmp_path):
    # an unwritable --private-key is refused before the key pair exists
    code, _, err = cli(
        "keypair", "create", "k4", "--private-key", str(tmp_path / "no-such-dir" / "k4.pem")
    )
    assert code == 1
    assert err.strip().startswith("Cannot create private key file")
    assert not requests_to(mock_cloud.mock, "POST", "/os-keypairs")
    # an API error leaves no empty key file behind
    mock_cloud.mock.post(
        COMPUTE + "/os-keypairs",
        status_code=409,
        json={"conflictingRequest": {"code": 409, "message": "Key pair 'k5' already exists."}},
    )
    key_file = tmp_path / "k5.pem"
    code, _, err = cli("keypair", "create", "k5", "--private-key", str(key_file))
    assert code == 1 and "already exists" in err
    assert not key_file.exists()


def test_keypair_generate_with_pinned_2_92_is_a_clear_error(client, mock_cloud):
    client.requested_compute_version = "2.92"
    with pytest.raises(exceptions.UnsupportedVersion, match="2.91"):
        client.keypairs.create("k")
    assert not requests_to(mock_cloud.mock, "POST", "/os-keypairs")


def test_keypair_delete_reports_each_failure(cli, mock_cloud):
    m = mock_cloud.mock
    m.delete(COMPUTE + "/os-keypairs/a", status_code=204)
    m.delete(
        COMPUTE + "/os-keypairs/b",
        status_code=404,
        json={"itemNotFound": {"code": 404, "message": "Keypair b not found"}},
    )
    m.delete(COMPUTE + "/os-keypairs/c", status_code=204)
    code, out, err = cli("keypair", "delete", "a", "b", "c")
    assert code == 1
    assert err.strip() == ("Failed to delete key pair b: Keypair b not found (HTTP 404)")
    assert len(requests_to(m, "DELETE", "/os-keypairs/")) == 3


def test_compute_service_list_from_sample(cli, mock_cloud):
    sample = load_fixture("compute", "os-services", "v2.53", "services-list-get-resp.json")
    mock_cloud.mock.get(COMPUTE + "/os-services", json=sample)
    code, out, err = cli("compute", "service", "list", "--host", "host1", "-f", "json")
    assert code == 0, err
    rows = json.loads(out)
    assert [r["ID"] for r in rows] == [s["id"] for s in sample["services"]]
    assert rows[0]["Zone"] == sample["services"][0]["zone"]
    sent = requests_to(mock_cloud.mock, "GET", "/os-services")[0]
    assert sent.qs == {"host": ["host1"]}


def test_hypervisor_list_follows_pages(cli, mock_cloud):
    first = load_fixture("compute", "os-hypervisors", "v2.88", "hypervisors-detail-resp.json")
    second = {
        "hypervisors": [
            {"hypervisor_hostname": "host3", "id": "h3", "state": "up", "status": "enabled"}
        ]
    }
    mock_cloud.mock.get(COMPUTE + "/os-hypervisors/detail", [{"json": first}, {"json": second}])
    code, out, err = cli("hypervisor", "list", "-f", "json")
    assert code == 0, err
    assert [r["Hypervisor Hostname"] for r in json.loads(out)] == ["host2", "host3"]


def _image_lists(mock):
    return requests_to(mock, "GET", "/v2/images")


def test_image_list_by_ids_is_one_filtered_request(client, images):
    other = "0b3f8a4e-8f0e-4b8c-9d6b-3c4a5e6f7a8b"
    found = list(client.images.list(ids=[CIRROS["id"], other, CIRROS["id"]]))
    assert [i.id for i in found] == [CIRROS["id"]]
    (request,) = _image_lists(images)
    # one page big enough for the distinct ids, duplicates sent once
    assert request.qs == {"id": ["in:%s,%s" % (CIRROS["id"], other)], "limit": ["2"]}


def test_image_list_by_ids_chunks_long_lists(client, images):
    from occli.v2.image import images as images_api

    ids = ["id-%03d" % i for i in range(images_api.ID_CHUNK + 5)]
    list(client.images.list(ids=ids))
    sent = [r.qs for r in _image_lists(images)]
    assert len(sent) == 2
    assert sent[0]["id"] == ["in:" + ",".join(ids[: images_api.ID_CHUNK])]
    assert sent[0]["limit"] == [str(images_api.ID_CHUNK)]
    assert sent[1]["id"] == ["in:" + ",".join(ids[images_api.ID_CHUNK :])]
    assert sent[1]["limit"] == ["5"]


def test_image_list_by_ids_edge_cases(client, images):
    assert list(client.images.list(ids=[])) == []
    assert _image_lists(images) == []
    # a comma is quoted; a double quote cannot be sent and is left out
    list(client.images.list(ids=["a,b", 'c"d', "e"]))
    (request,) = _image_lists(images)
    assert request.qs["id"] == ['in:"a,b",e']
    with pytest.raises(exceptions.CommandError):
        list(client.images.list(ids=["a"], marker="m"))


def test_limits_show_from_sample(cli, mock_cloud):
    sample = load_fixture("compute", "limits", "v2.57", "limit-get-resp.json")
    mock_cloud.mock.get(COMPUTE + "/limits", json=sample)
    mock_cloud.mock.get(VOLUME + "/limits", json={"limits": {"rate": [], "absolute": {}}})
    project = "5c6a3e8f0b2d4e71a9c3d2f1e0b4a6c8"  # an ID: no name lookup
    code, out, err = cli("limits", "show", "--project", project, "-f", "json")
    assert code == 0, err
    rows = {r["Name"]: r["Value"] for r in json.loads(out)}
    # OSC 10.5's names (openstacksdk's AbsoluteLimits attribute and aka)
    assert rows["max_total_instances"] == rows["instances"]
    assert rows["instances"] == sample["limits"]["absolute"]["maxTotalInstances"]
    sent = requests_to(mock_cloud.mock, "GET", COMPUTE + "/limits")[0]
    assert sent.qs == {"tenant_id": [project]}


def test_keypair_list_and_show_commands(cli, mock_cloud):
    listing = load_fixture("compute", "os-keypairs", "v2.2", "keypairs-list-resp.json")
    one = load_fixture("compute", "os-keypairs", "v2.2", "keypairs-get-resp.json")
    name = one["keypair"]["name"]
    mock_cloud.mock.get(COMPUTE + "/os-keypairs", json=listing)
    mock_cloud.mock.get(COMPUTE + "/os-keypairs/" + name, json=one)
    code, out, err = cli("keypair", "list", "-f", "json")
    assert code == 0, err
    assert [r["Name"] for r in json.loads(out)] == [
        k["keypair"]["name"] for k in listing["keypairs"]
    ]
    code, out, err = cli("keypair", "show", name, "-f", "json")
    assert code == 0, err
    assert json.loads(out)["fingerprint"] == one["keypair"]["fingerprint"]


def test_token_issue_and_configuration_show(cli, mock_cloud):
    from .fakes import PASSWORD
    from .fakes import PROJECT_ID
    from .fakes import TOKEN

    code, out, err = cli("token", "issue", "-f", "json")
    assert code == 0, err
    token = json.loads(out)
    assert token["id"] == TOKEN and token["project_id"] == PROJECT_ID
    before = len(mock_cloud.mock.request_history)
    code, out, err = cli("--no-cache", "configuration", "show", "-f", "json")
    assert code == 0, err
    shown = json.loads(out)
    assert shown["auth.password"] == "***" and PASSWORD not in out
    assert shown["auth_type"] == "password"
    # showing the configuration sends no request at all
    assert len(mock_cloud.mock.request_history) == before
