"""ServerManager's backups, consoles, passwords, ips, soft delete and
rebuild options against the upstream Nova samples (requests-mock)."""

import pytest

from occli import exceptions
from occli.v2.compute import servers as servers_api

from .fakes import COMPUTE
from .fakes import load_fixture
from .test_servers import SID
from .test_servers import make_client

ACTION = COMPUTE + "/servers/%s/action" % SID


def sample(*parts):
    return load_fixture("compute", *parts)


def test_backup_2_45_body(client, mock_cloud):
    answer = sample("os-create-backup", "v2.45", "create-backup-resp.json")
    post = mock_cloud.mock.post(
        ACTION, status_code=202, json=answer, headers={"X-OpenStack-Request-Id": "req-1"}
    )
    request = sample("os-create-backup", "v2.45", "create-backup-req.json")["createBackup"]
    image_id = client.servers.backup(
        SID, request["name"], request["backup_type"], request["rotation"]
    )
    assert image_id == answer["image_id"]
    assert post.last_request.json() == {"createBackup": request}
    assert image_id.request_ids == ["req-1"]


def test_backup_location_before_2_45(mock_cloud):
    mock_cloud.mock.post(
        ACTION, status_code=202, headers={"Location": "http://nova/v2.1/images/img-7"}
    )
    assert make_client("2.44").servers.backup(SID, "b", "daily", 1) == "img-7"
    mock_cloud.mock.post(ACTION, status_code=202)
    assert make_client("2.44").servers.backup(SID, "b", "daily", 0) is None


@pytest.mark.parametrize(
    "args, param",
    [
        (("", "daily", 1), "name"),
        (("b", None, 1), "backup_type"),
        (("b", "daily", -1), "rotation"),
    ],
)
def test_backup_checks_before_any_request(client, mock_cloud, args, param):
    post = mock_cloud.mock.post(ACTION, status_code=202)
    with pytest.raises(exceptions.ValidationError) as caught:
        client.servers.backup(SID, *args)
    assert param in str(caught.value)
    assert not post.called


def test_console_url_remote_consoles(client, mock_cloud):
    answer = sample("os-remote-consoles", "v2.6", "create-vnc-console-resp.json")
    post = mock_cloud.mock.post(COMPUTE + "/servers/%s/remote-consoles" % SID, json=answer)
    console = client.servers.get_console_url(SID, "novnc")
    assert console == answer["remote_console"]
    assert post.last_request.json() == sample(
        "os-remote-consoles", "v2.6", "create-vnc-console-req.json"
    )
    mks = sample("os-remote-consoles", "v2.8", "create-mks-console-resp.json")
    mock_cloud.mock.post(COMPUTE + "/servers/%s/remote-consoles" % SID, json=mks)
    assert client.servers.get_console_url(SID, "webmks")["url"] == mks["remote_console"]["url"]


def test_console_url_legacy_action_before_2_6(mock_cloud):
    answer = sample("os-remote-consoles", "get-serial-console-post-resp.json")
    post = mock_cloud.mock.post(ACTION, json=answer)
    client = make_client("2.5")
    assert client.servers.get_console_url(SID, "serial") == answer["console"]
    assert post.last_request.json() == sample(
        "os-remote-consoles", "get-serial-console-post-req.json"
    )
    with pytest.raises(exceptions.UnsupportedVersion):
        client.servers.get_console_url(SID, "webmks")


def test_console_url_unknown_type(client):
    with pytest.raises(exceptions.ValidationError, match="console_type"):
        client.servers.get_console_url(SID, "telnet")


def test_password_get_and_clear(client, mock_cloud):
    answer = sample("os-server-password", "get-password-resp.json")
    url = COMPUTE + "/servers/%s/os-server-password" % SID
    mock_cloud.mock.get(url, json=answer)
    delete = mock_cloud.mock.delete(url, status_code=204)
    assert client.servers.get_password(SID) == answer["password"]
    client.servers.clear_password(SID)
    assert delete.called


def test_ips(client, mock_cloud):
    addresses = {"private": [{"addr": "192.168.1.30", "version": 4}]}
    mock_cloud.mock.get(COMPUTE + "/servers/%s/ips" % SID, json={"addresses": addresses})
    mock_cloud.mock.get(COMPUTE + "/servers/%s/ips/private" % SID, json=addresses)
    assert client.servers.ips(SID) == addresses
    assert client.servers.ips(SID, "private") == addresses


@pytest.mark.parametrize(
    "method, action",
    [("force_delete", "forceDelete"), ("restore", "restore")],
)
def test_soft_delete_actions(client, mock_cloud, method, action):
    post = mock_cloud.mock.post(ACTION, status_code=202)
    getattr(client.servers, method)(SID)
    assert post.last_request.json() == {action: None}


def test_inject_network_info_sample(client, mock_cloud):
    post = mock_cloud.mock.post(ACTION, status_code=202)
    client.servers.inject_network_info(SID)
    assert post.last_request.json() == sample(
        "os-admin-actions", "admin-actions-inject-network-info.json"
    )


def test_rebuild_clears_and_gates(client, mock_cloud):
    answer = sample("servers", "server-action-rebuild-resp.json")
    post = mock_cloud.mock.post(ACTION, status_code=202, json=answer)
    client.servers.rebuild(
        SID,
        "img",
        key_name=servers_api.CLEAR,
        user_data=servers_api.CLEAR,
        trusted_image_certificates=servers_api.CLEAR,
        preserve_ephemeral=True,
    )
    assert post.last_request.json() == {
        "rebuild": {
            "imageRef": "img",
            "key_name": None,
            "user_data": None,
            "trusted_image_certificates": None,
            "preserve_ephemeral": True,
        }
    }
    client.servers.rebuild(SID, "img", trusted_image_certificates=["c1"], key_name="k")
    body = post.last_request.json()["rebuild"]
    assert (body["trusted_image_certificates"], body["key_name"]) == (["c1"], "k")
    with pytest.raises(exceptions.ValidationError):
        client.servers.rebuild(SID, "img", trusted_image_certificates=[])
    with pytest.raises(exceptions.UnsupportedVersion):
        make_client("2.62").servers.rebuild(SID, "img", trusted_image_certificates=["c"])
    with pytest.raises(exceptions.UnsupportedVersion):
        make_client("2.53").servers.check_rebuild(key_name=servers_api.CLEAR)


def test_extensions_list_and_get(client, mock_cloud):
    """nova 34's answers (tests/fixtures/compute/realcloud/
    nova-34-server-extras.json)."""
    real = load_fixture("compute", "realcloud", "nova-34-server-extras.json")["exchanges"]
    mock_cloud.mock.get(COMPUTE + "/extensions", json=real["extensions_member"]["body"])
    mock_cloud.mock.get(
        COMPUTE + "/extensions/os-server-password", json=real["extension_show"]["body"]
    )
    mock_cloud.mock.get(
        COMPUTE + "/extensions/nope", status_code=404, json=real["extension_unknown"]["body"]
    )
    listed = client.extensions.list()
    assert len(listed) == len(real["extensions_member"]["body"]["extensions"])
    assert "os-server-password" in {e.alias for e in listed}
    assert client.extensions.get("os-server-password").name == "ServerPassword"
    with pytest.raises(exceptions.NotFound):
        client.extensions.get("nope")
