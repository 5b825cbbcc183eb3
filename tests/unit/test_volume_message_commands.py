"""``volume message list/show/delete`` in-process against requests-mock:
every request at volume API 3.5 (messages need 3.3), OSC's columns, a
failed delete reported while the others still go."""

import json

from .fakes import VOLUME
from .fakes import requests_to

MESSAGE_ID = "4a3bc3f2-1d16-4d70-bb36-dfd6ed5a0d2b"
MESSAGE = {
    "id": MESSAGE_ID,
    "event_id": "VOLUME_VOLUME_BACKUP_013_020",
    "user_message": "create backup:Backup driver failed to create backup.",
    "message_level": "ERROR",
    "created_at": "2026-12-02T03:20:00.000000",
    "guaranteed_until": "2027-01-01T03:20:00.000000",
    "request_id": "req-1",
    "resource_type": "VOLUME_BACKUP",
    "resource_uuid": "9a4b3e2a-30a6-4c4e-9f6d-1d2b9b0c7e11",
    "links": [],
}


def test_list_at_35_with_osc_columns(cli, mock_cloud):
    m = mock_cloud.mock
    m.get(VOLUME + "/messages", json={"messages": [MESSAGE]})
    code, out, err = cli("volume", "message", "list", "--limit", "5", "-f", "json")
    assert code == 0, err
    (row,) = json.loads(out)
    assert list(row) == [
        "ID", "Event ID", "Resource Type", "Resource UUID", "Message Level", "User Message",
        "Request ID", "Created At", "Guaranteed Until",
    ]  # fmt: skip
    assert row["User Message"] == MESSAGE["user_message"]
    assert m.last_request.headers["OpenStack-API-Version"] == "volume 3.5"
    assert m.last_request.qs == {"limit": ["5"]}


def test_show(cli, mock_cloud):
    m = mock_cloud.mock
    m.get(VOLUME + "/messages/" + MESSAGE_ID, json={"message": MESSAGE})
    code, out, err = cli("volume", "message", "show", MESSAGE_ID, "-f", "json")
    assert code == 0, err
    shown = json.loads(out)
    assert shown["Event ID"] == MESSAGE["event_id"] and "links" not in shown
    assert m.last_request.headers["OpenStack-API-Version"] == "volume 3.5"


def test_delete_reports_each_failure(cli, mock_cloud):
    m = mock_cloud.mock
    m.delete(VOLUME + "/messages/" + MESSAGE_ID, status_code=204)
    missing = "00000000-0000-4000-8000-000000000000"
    m.delete(
        VOLUME + "/messages/" + missing,
        status_code=404,
        json={
            "itemNotFound": {"code": 404, "message": "Message %s could not be found." % missing}
        },
    )
    code, out, err = cli("volume", "message", "delete", missing, MESSAGE_ID)
    assert code == 1
    assert "Message %s could not be found." % missing in err
    assert requests_to(m, "DELETE", "/messages/" + MESSAGE_ID)
