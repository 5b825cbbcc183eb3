"""Volume, snapshot and server volume commands in-process against
requests-mock: the requests they make, usage errors (exit 2) before any
request, microversion gates."""

import copy
import json

import pytest

from .fakes import COMPUTE
from .fakes import VOLUME
from .fakes import load_fixture
from .fakes import requests_to

SERVER_ID = "7696780b-3f53-4688-ab25-019bfcbbd806"
VOLUME_ID = "f7223234-1afc-4d19-bfa3-d19deb6235ef"


def no_cloud_request(mock):
    return not [r for r in mock.request_history if "/identity/" not in r.url]


@pytest.fixture
def volume(mock_cloud):
    """Volume ``data`` (VOLUME_ID), found by id or name."""
    body = copy.deepcopy(load_fixture("volume", "volumes", "volume-show-response.json"))
    body["volume"]["name"] = "data"
    mock_cloud.mock.get(VOLUME + "/volumes/" + VOLUME_ID, json=body)
    mock_cloud.mock.get(VOLUME + "/volumes/detail?name=data", json={"volumes": [body["volume"]]})
    return body["volume"]


@pytest.fixture
def server(mock_cloud):
    body = copy.deepcopy(load_fixture("compute", "servers", "v2.96", "server-get-resp.json"))
    body["server"].update(id=SERVER_ID, name="vm")
    mock_cloud.mock.get(COMPUTE + "/servers/" + SERVER_ID, json=body)
    return body["server"]


def test_create_wait_until_available(cli, mock_cloud, volume):
    m = mock_cloud.mock
    m.post(VOLUME + "/volumes", status_code=202, json={"volume": dict(volume, status="creating")})
    m.get(
        VOLUME + "/volumes/" + VOLUME_ID,
        [{"json": {"volume": dict(volume, status=s)}} for s in ("creating", "available")],
    )
    code, out, err = cli(
        "volume", "create", "data", "--size", "2", "--property", "k=v", "--description", "d",
        "--wait", "--wait-interval", "0", "-f", "json",
    )  # fmt: skip
    assert code == 0, err
    assert json.loads(out)["status"] == "available"
    assert requests_to(m, "POST", "/volumes")[0].json() == {
        "volume": {"size": 2, "name": "data", "description": "d", "metadata": {"k": "v"}}
    }


def test_create_waiting_stops_on_error(cli, mock_cloud, volume):
    m = mock_cloud.mock
    m.post(VOLUME + "/volumes", status_code=202, json={"volume": volume})
    m.get(VOLUME + "/volumes/" + VOLUME_ID, json={"volume": dict(volume, status="error")})
    code, out, err = cli("volume", "create", "data", "--size", "1", "--wait")
    assert code == 1
    assert "went to status error" in err


@pytest.mark.parametrize(
    "argv, message",
    [
        (["volume", "create", "x"], "A volume needs a --size"),
        (["volume", "create", "x", "--size", "0"], "must be 1 or more"),
        (["volume", "create", "x", "--size", "1", "--image", "i", "--source", "v"], "not several"),
        (["volume", "set", "x"], "Nothing to set"),
        (["server", "volume", "update", "vm", "x"], "Nothing to change"),
        (
            ["server", "add", "volume", "vm", "x", "--enable-delete-on-termination",
             "--disable-delete-on-termination"],
            "not allowed with argument",
        ),
    ],
)  # fmt: skip
def test_usage_errors_before_any_request(cli, mock_cloud, argv, message):
    code, out, err = cli(*argv)
    assert code == 2
    assert message in err
    assert no_cloud_request(mock_cloud.mock)


def test_delete_force_and_purge(cli, mock_cloud, volume):
    m = mock_cloud.mock
    m.delete(VOLUME + "/volumes/" + VOLUME_ID, status_code=202)
    assert cli("volume", "delete", "data", "--force", "--purge")[0] == 0
    assert m.last_request.qs == {"cascade": ["true"], "force": ["true"]}
    assert cli("volume", "delete", "data", "--purge")[0] == 0
    assert m.last_request.qs == {"cascade": ["true"]}


def test_snapshot_create_force(cli, mock_cloud, volume):
    m = mock_cloud.mock
    created = load_fixture("volume", "snapshots", "snapshot-create-response.json")
    m.post(VOLUME + "/snapshots", status_code=202, json=created)
    code, out, err = cli("volume", "snapshot", "create", "s1", "--volume", "data", "--force")
    assert code == 0, err
    assert m.last_request.json() == {
        "snapshot": {"volume_id": VOLUME_ID, "force": True, "name": "s1"}
    }


def test_server_add_volume_body_and_output(cli, mock_cloud, volume, server):
    m = mock_cloud.mock
    resp = load_fixture(
        "compute", "os-volume_attachments", "v2.79", "attach-volume-to-server-resp.json"
    )
    m.post(COMPUTE + "/servers/%s/os-volume_attachments" % SERVER_ID, json=resp)
    code, out, err = cli(
        "server", "add", "volume", SERVER_ID, "data", "--device", "/dev/vdb", "--tag", "foo",
        "--enable-delete-on-termination", "-f", "json",
    )  # fmt: skip
    assert code == 0, err
    assert m.last_request.json() == {
        "volumeAttachment": {
            "device": "/dev/vdb",
            "tag": "foo",
            "delete_on_termination": True,
            "volumeId": VOLUME_ID,
        }
    }
    shown = json.loads(out)
    assert shown["Device"] == "/dev/sdb" and shown["Delete On Termination"] is True


def test_attachment_options_gated_before_any_lookup(cli, mock_cloud):
    code, out, err = cli(
        "--os-compute-api-version", "2.78", "server", "add", "volume", "vm", "data",
        "--disable-delete-on-termination",
    )  # fmt: skip
    assert code == 1
    assert err.startswith(
        "A volume attachment's delete_on_termination requires compute API version 2.79 or"
        " later (in use: 2.78)"
    )
    code, out, err = cli(
        "--os-compute-api-version", "2.84", "server", "volume", "update", "vm", "data",
        "--preserve-on-termination",
    )  # fmt: skip
    assert code == 1
    assert "2.85" in err
    assert no_cloud_request(mock_cloud.mock)


def test_server_volume_list_columns_follow_the_version(cli, mock_cloud, server):
    m = mock_cloud.mock
    body = load_fixture(
        "compute", "os-volume_attachments", "v2.89", "list-volume-attachments-resp.json"
    )
    m.get(COMPUTE + "/servers/%s/os-volume_attachments" % SERVER_ID, json=body)
    code, out, err = cli("server", "volume", "list", SERVER_ID, "-f", "json")
    assert code == 0, err
    rows = json.loads(out)
    assert list(rows[0]) == [
        "Device", "Server ID", "Volume ID", "Tag", "Delete On Termination", "Attachment ID",
        "BlockDeviceMapping UUID",
    ]  # fmt: skip
    assert rows[1]["Tag"] == "foo"
    assert rows[1]["Attachment ID"] == body["volumeAttachments"][1]["attachment_id"]
    code, out, err = cli(
        "--os-compute-api-version", "2.60", "server", "volume", "list", SERVER_ID, "-f", "json"
    )
    assert list(json.loads(out)[0]) == ["ID", "Device", "Server ID", "Volume ID"]


def test_volume_list_names_the_attached_servers(cli, mock_cloud, volume):
    m = mock_cloud.mock
    attached = dict(volume, attachments=[{"server_id": SERVER_ID, "device": "/dev/vdb"}])
    m.get(VOLUME + "/volumes/detail", json={"volumes": [volume, attached]})
    m.get(COMPUTE + "/servers", json={"servers": [{"id": SERVER_ID, "name": "vm"}]})
    code, out, err = cli("volume", "list", "-c", "Attached to")
    assert code == 0, err
    assert "| Attached to vm on /dev/vdb |" in out
    assert len(requests_to(m, "GET", "/compute/v2.1/servers")) == 1
    code, out, err = cli("volume", "list", "-n", "-f", "json")
    assert json.loads(out)[1]["Attached to"] == attached["attachments"]
    assert len(requests_to(m, "GET", "/compute/v2.1/servers")) == 1
    # without the column, no server is looked up
    cli("volume", "list", "-c", "ID")
    assert len(requests_to(m, "GET", "/compute/v2.1/servers")) == 1
