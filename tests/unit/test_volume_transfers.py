"""``volume transfer request …`` in-process against requests-mock: the
requests they make (``--no-snapshots`` at volume API 3.55 on the new
route), OSC's columns, and the auth key kept out of the --debug log and
of usage errors while the create still shows it."""

import copy
import json

import pytest

from occli import redaction

from .fakes import VOLUME
from .fakes import load_fixture
from .fakes import requests_to

VOLUME_ID = "f7223234-1afc-4d19-bfa3-d19deb6235ef"
TRANSFER_ID = "b8bbe3d1-a13e-4e71-8c33-ded9ef4a2a6f"
KEY = "a9c3f6e1b2d40875"


@pytest.fixture
def volume(mock_cloud):
    body = copy.deepcopy(load_fixture("volume", "volumes", "volume-show-response.json"))
    body["volume"].update(id=VOLUME_ID, name="data")
    mock_cloud.mock.get(VOLUME + "/volumes/" + VOLUME_ID, json=body)
    mock_cloud.mock.get(VOLUME + "/volumes/detail?name=data", json={"volumes": [body["volume"]]})
    return body["volume"]


def _transfer(**extra):
    return dict(
        id=TRANSFER_ID,
        created_at="2026-12-02T03:20:00.000000",
        name="gift",
        volume_id=VOLUME_ID,
        links=[{"href": "http://x/os-volume-transfer/" + TRANSFER_ID, "rel": "self"}],
        **extra,
    )


def test_create_shows_the_key_once_and_never_logs_it(cli, mock_cloud, volume):
    m = mock_cloud.mock
    m.post(
        VOLUME + "/os-volume-transfer",
        status_code=202,
        json={"transfer": _transfer(auth_key=KEY)},
        headers={"Content-Type": "application/json"},
    )
    code, out, err = cli(
        "--debug", "volume", "transfer", "request", "create", "--name", "gift", "data",
        "-f", "json",
    )  # fmt: skip
    assert code == 0, err
    assert json.loads(out) == {
        "auth_key": KEY,
        "created_at": "2026-12-02T03:20:00.000000",
        "id": TRANSFER_ID,
        "name": "gift",
        "volume_id": VOLUME_ID,
    }
    assert requests_to(m, "POST", "/os-volume-transfer")[0].json() == {
        "transfer": {"volume_id": VOLUME_ID, "name": "gift"}
    }
    # the answer was logged, with the key masked
    assert '"auth_key": "***"' in err and KEY not in err


def test_no_snapshots_uses_the_new_route_at_355(cli, mock_cloud, volume):
    m = mock_cloud.mock
    m.post(
        VOLUME + "/volume-transfers",
        status_code=202,
        json={"transfer": _transfer(auth_key=KEY, no_snapshots=True)},
    )
    code, out, err = cli("volume", "transfer", "request", "create", "--no-snapshots", "data")
    assert code == 0, err
    (sent,) = requests_to(m, "POST", "/volume-transfers")
    assert sent.json() == {"transfer": {"volume_id": VOLUME_ID, "no_snapshots": True}}
    assert sent.headers["OpenStack-API-Version"] == "volume 3.55"


def test_accept_sends_the_key_and_logs_it_masked(cli, mock_cloud):
    m = mock_cloud.mock
    url = VOLUME + "/os-volume-transfer/%s/accept" % TRANSFER_ID
    summary = {k: v for k, v in _transfer().items() if k != "created_at"}
    m.post(url, status_code=202, json={"transfer": summary})
    code, out, err = cli(
        "--debug", "volume", "transfer", "request", "accept", "--auth-key", KEY, TRANSFER_ID,
        "-f", "json",
    )  # fmt: skip
    assert code == 0, err
    assert json.loads(out) == {"id": TRANSFER_ID, "name": "gift", "volume_id": VOLUME_ID}
    assert m.last_request.json() == {"accept": {"auth_key": KEY}}
    assert '"auth_key": "***"' in err and KEY not in err


def test_accept_needs_the_key(cli, mock_cloud):
    code, out, err = cli("volume", "transfer", "request", "accept", TRANSFER_ID)
    assert code == 2
    assert "--auth-key" in err
    assert not [r for r in mock_cloud.mock.request_history if "/volume/" in r.url]


def test_key_masked_in_usage_errors():
    message = redaction.redact_usage("argument --auth-key: invalid choice: '%s'" % KEY)
    assert KEY not in message


def test_list_show_and_delete(cli, mock_cloud):
    m = mock_cloud.mock
    m.get(VOLUME + "/os-volume-transfer/detail", json={"transfers": [_transfer()]})
    code, out, err = cli("volume", "transfer", "request", "list", "--all-projects", "-f", "json")
    assert code == 0, err
    assert json.loads(out) == [{"ID": TRANSFER_ID, "Name": "gift", "Volume": VOLUME_ID}]
    assert m.last_request.qs == {"all_tenants": ["1"]}
    m.get(VOLUME + "/os-volume-transfer/detail?name=gift", json={"transfers": [_transfer()]})
    code, out, err = cli("volume", "transfer", "request", "show", "gift", "-f", "json")
    assert code == 0, err
    assert json.loads(out)["id"] == TRANSFER_ID and "links" not in json.loads(out)
    m.get(VOLUME + "/os-volume-transfer/" + TRANSFER_ID, json={"transfer": _transfer()})
    m.delete(VOLUME + "/os-volume-transfer/" + TRANSFER_ID, status_code=202)
    code, out, err = cli("volume", "transfer", "request", "delete", TRANSFER_ID)
    assert code == 0, err
    assert requests_to(m, "DELETE", "/os-volume-transfer/" + TRANSFER_ID)


def test_delete_of_an_unknown_request_fails(cli, mock_cloud):
    m = mock_cloud.mock
    m.get(VOLUME + "/os-volume-transfer/detail?name=nope", json={"transfers": []})
    code, out, err = cli("volume", "transfer", "request", "delete", "nope")
    assert code == 1
    assert "nope" in err
