"""``volume attachment create/set/complete/delete/list/show`` in-process
against requests-mock: the requests they make at volume API 3.27 (complete
3.44, ``--mode`` 3.54), OSC's columns, OSC's usage error for connector
options without ``--connect``."""

import copy
import json

import pytest

from .fakes import COMPUTE
from .fakes import VOLUME
from .fakes import load_fixture
from .fakes import requests_to

SERVER_ID = "7696780b-3f53-4688-ab25-019bfcbbd806"
VOLUME_ID = "f7223234-1afc-4d19-bfa3-d19deb6235ef"
ATTACHMENT_ID = "3b8b6631-1cf7-4fd7-9afb-c01e541a073c"
ATTACHMENT = {
    "id": ATTACHMENT_ID,
    "status": "attaching",
    "instance": SERVER_ID,
    "volume_id": VOLUME_ID,
    "attached_at": "2026-12-02T03:20:00.000000",
    "detached_at": "",
    "attach_mode": "rw",
    "connection_info": {"driver_volume_type": "iscsi", "access_mode": "rw"},
}
SHOWN = ["ID", "Volume ID", "Instance ID", "Status", "Attach Mode", "Attached At",
         "Detached At", "Properties"]  # fmt: skip


@pytest.fixture
def volume(mock_cloud):
    body = copy.deepcopy(load_fixture("volume", "volumes", "volume-show-response.json"))
    body["volume"].update(id=VOLUME_ID, name="data")
    mock_cloud.mock.get(VOLUME + "/volumes/" + VOLUME_ID, json=body)
    return body["volume"]


@pytest.fixture
def server(mock_cloud):
    body = copy.deepcopy(load_fixture("compute", "servers", "v2.96", "server-get-resp.json"))
    body["server"].update(id=SERVER_ID, name="vm")
    mock_cloud.mock.get(COMPUTE + "/servers/" + SERVER_ID, json=body)
    return body["server"]


def test_create_with_a_connector_and_mode(cli, mock_cloud, volume, server):
    m = mock_cloud.mock
    m.post(VOLUME + "/attachments", json={"attachment": ATTACHMENT})
    code, out, err = cli(
        "volume", "attachment", "create", VOLUME_ID, SERVER_ID, "--connect", "--host", "node1",
        "--mountpoint", "/dev/vdb", "--mode", "ro", "-f", "json",
    )  # fmt: skip
    assert code == 0, err
    shown = json.loads(out)
    assert list(shown) == SHOWN
    assert shown["Properties"]["driver_volume_type"] == "iscsi"
    (request,) = requests_to(m, "POST", "/attachments")
    assert request.headers["OpenStack-API-Version"] == "volume 3.54"
    assert request.json() == {
        "attachment": {
            "volume_uuid": VOLUME_ID,
            "instance_uuid": SERVER_ID,
            "mode": "ro",
            "connector": {
                "initiator": None, "ip": None, "platform": None, "host": "node1",
                "os_type": None, "multipath": False, "mountpoint": "/dev/vdb",
            },
        }
    }  # fmt: skip


def test_create_reserves_at_327(cli, mock_cloud, volume, server):
    m = mock_cloud.mock
    m.post(VOLUME + "/attachments", json={"attachment": dict(ATTACHMENT, status="reserved")})
    code, out, err = cli("volume", "attachment", "create", VOLUME_ID, SERVER_ID, "-f", "json")
    assert code == 0, err
    (request,) = requests_to(m, "POST", "/attachments")
    assert request.headers["OpenStack-API-Version"] == "volume 3.27"
    assert request.json()["attachment"]["connector"] is None


def test_connector_options_need_connect(cli, mock_cloud):
    code, out, err = cli("volume", "attachment", "create", VOLUME_ID, SERVER_ID, "--host", "h")
    assert code == 1
    assert "You must specify the --connect option" in err
    assert not requests_to(mock_cloud.mock, "POST", "/attachments")


def test_set_sends_the_connector(cli, mock_cloud):
    m = mock_cloud.mock
    m.put(VOLUME + "/attachments/" + ATTACHMENT_ID, json={"attachment": ATTACHMENT})
    code, out, err = cli(
        "volume", "attachment", "set", ATTACHMENT_ID, "--initiator", "iqn.x", "--multipath",
        "-f", "json",
    )  # fmt: skip
    assert code == 0, err
    (request,) = requests_to(m, "PUT", "/attachments/" + ATTACHMENT_ID)
    connector = request.json()["attachment"]["connector"]
    assert (connector["initiator"], connector["multipath"]) == ("iqn.x", True)
    assert request.headers["OpenStack-API-Version"] == "volume 3.27"


def test_complete_at_344_and_delete(cli, mock_cloud):
    m = mock_cloud.mock
    m.post(VOLUME + "/attachments/%s/action" % ATTACHMENT_ID, status_code=204)
    m.delete(VOLUME + "/attachments/" + ATTACHMENT_ID, json={"attachments": []})
    code, out, err = cli("volume", "attachment", "complete", ATTACHMENT_ID)
    assert code == 0, err
    (request,) = requests_to(m, "POST", "/attachments/%s/action" % ATTACHMENT_ID)
    assert request.json() == {"os-complete": None}
    assert request.headers["OpenStack-API-Version"] == "volume 3.44"
    code, out, err = cli("volume", "attachment", "delete", ATTACHMENT_ID)
    assert code == 0, err
    assert requests_to(m, "DELETE", "/attachments/" + ATTACHMENT_ID)


def test_list_filters_and_columns(cli, mock_cloud):
    m = mock_cloud.mock
    summary = {k: ATTACHMENT[k] for k in ("id", "status", "instance", "volume_id")}
    m.get(VOLUME + "/attachments", json={"attachments": [summary]})
    code, out, err = cli(
        "volume", "attachment", "list", "--volume-id", VOLUME_ID, "--status", "attaching",
        "--all-projects", "--limit", "5", "-f", "json",
    )  # fmt: skip
    assert code == 0, err
    (row,) = json.loads(out)
    assert row == {
        "ID": ATTACHMENT_ID, "Volume ID": VOLUME_ID, "Server ID": SERVER_ID, "Status": "attaching",
    }  # fmt: skip
    assert m.last_request.qs == {
        "volume_id": [VOLUME_ID], "status": ["attaching"], "all_tenants": ["1"], "limit": ["5"],
    }  # fmt: skip
    assert m.last_request.headers["OpenStack-API-Version"] == "volume 3.27"


def test_show(cli, mock_cloud):
    m = mock_cloud.mock
    m.get(VOLUME + "/attachments/" + ATTACHMENT_ID, json={"attachment": ATTACHMENT})
    code, out, err = cli("volume", "attachment", "show", ATTACHMENT_ID, "-f", "json")
    assert code == 0, err
    shown = json.loads(out)
    assert (shown["Status"], shown["Attach Mode"]) == ("attaching", "rw")
