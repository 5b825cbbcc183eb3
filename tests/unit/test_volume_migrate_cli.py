"""``volume migrate`` in-process against requests-mock: the
``os-migrate_volume`` action OSC's options make, ``--host`` required
before any request, and Cinder's refusal reported."""

import copy

import pytest

from .fakes import VOLUME
from .fakes import load_fixture
from .fakes import requests_to

VOLUME_ID = "f7223234-1afc-4d19-bfa3-d19deb6235ef"
ACTION = VOLUME + "/volumes/%s/action" % VOLUME_ID


@pytest.fixture
def volume(mock_cloud):
    body = copy.deepcopy(load_fixture("volume", "volumes", "volume-show-response.json"))
    body["volume"].update(id=VOLUME_ID, name="data", size=1)
    mock_cloud.mock.get(VOLUME + "/volumes/" + VOLUME_ID, json=body)
    mock_cloud.mock.get(VOLUME + "/volumes/detail?name=data", json={"volumes": [body["volume"]]})
    return body["volume"]


def _actions(m):
    return [r.json() for r in requests_to(m, "POST", "/action")]


def test_migrate_sends_the_host_and_flags(cli, mock_cloud, volume):
    m = mock_cloud.mock
    m.post(ACTION, status_code=202)
    code, out, err = cli("volume", "migrate", "data", "--host", "localcloud@lvm")
    assert code == 0, err
    code, out, err = cli(
        "volume", "migrate", VOLUME_ID, "--host", "h@b#p", "--force-host-copy", "--lock-volume"
    )
    assert code == 0, err
    assert _actions(m) == [
        {"os-migrate_volume": {"host": "localcloud@lvm", "force_host_copy": False,
                               "lock_volume": False}},
        {"os-migrate_volume": {"host": "h@b#p", "force_host_copy": True, "lock_volume": True}},
    ]  # fmt: skip


def test_host_is_required(cli, mock_cloud, volume):
    code, out, err = cli("volume", "migrate", "data")
    assert code == 2
    assert "--host" in err
    assert requests_to(mock_cloud.mock, "POST", "/action") == []


def test_cinders_refusal_is_reported(cli, mock_cloud, volume):
    text = "Invalid host: No available service named 'other@lvm'"
    mock_cloud.mock.post(
        ACTION, status_code=400, json={"badRequest": {"code": 400, "message": text}}
    )
    code, out, err = cli("volume", "migrate", "data", "--host", "other@lvm")
    assert code == 1
    assert text in err
