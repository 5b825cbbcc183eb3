"""``volume backup …`` in-process against requests-mock answering Cinder's
api-ref samples (tests/fixtures/volume/backups/): the requests the
commands make (bodies, microversions: 3.43 for properties, 3.51 for a
zone, 3.9 for a rename), OSC's columns, and the refusals made before any
request (an existing volume without ``--force``, nothing to set)."""

import copy
import json

import pytest

from .fakes import VOLUME
from .fakes import load_fixture
from .fakes import requests_to

SHOW = load_fixture("volume", "backups", "v3.43", "backup-show-response.json")
BACKUP_ID = SHOW["backup"]["id"]
VOLUME_ID = "f7223234-1afc-4d19-bfa3-d19deb6235ef"
JSON = {"Content-Type": "application/json"}


def _json(out):
    return json.loads(out)


@pytest.fixture
def volume(mock_cloud):
    body = copy.deepcopy(load_fixture("volume", "volumes", "volume-show-response.json"))
    body["volume"].update(id=VOLUME_ID, name="data")
    m = mock_cloud.mock
    m.get(VOLUME + "/volumes/" + VOLUME_ID, json=body)
    m.get(VOLUME + "/volumes/detail?name=data", json={"volumes": [body["volume"]]})
    return body["volume"]


@pytest.fixture
def backup(mock_cloud):
    """The v3.43 show sample, found by id (and by its name ``backup001``)."""
    m = mock_cloud.mock
    m.get(VOLUME + "/backups/" + BACKUP_ID, json=SHOW)
    m.get(VOLUME + "/backups/detail?name=backup001", json={"backups": [SHOW["backup"]]})
    return SHOW["backup"]


def test_create_sends_cinders_request_and_shows_oscs_columns(cli, mock_cloud, volume):
    m = mock_cloud.mock
    answer = load_fixture("volume", "backups", "backup-create-response.json")
    m.post(VOLUME + "/backups", status_code=202, json=answer, headers=JSON)
    code, out, err = cli(
        "volume", "backup", "create", "--name", "backup001", "--description", "Test backup",
        "data", "-f", "json",
    )  # fmt: skip
    assert code == 0, err
    assert _json(out) == {
        "id": answer["backup"]["id"],
        "name": answer["backup"]["name"],
        "volume_id": VOLUME_ID,
    }
    sent = requests_to(m, "POST", "/backups")[0]
    expected = load_fixture("volume", "backups", "backup-create-request.json")["backup"]
    expected.update(volume_id=VOLUME_ID)
    for key in ("container", "snapshot_id"):
        expected.pop(key)  # None: not sent
    assert sent.json() == {"backup": expected}
    assert sent.headers["OpenStack-API-Version"] == "volume 3.0"


def test_create_properties_and_zone_need_their_microversions(cli, mock_cloud, volume):
    m = mock_cloud.mock
    answer = load_fixture("volume", "backups", "backup-create-response.json")
    m.post(VOLUME + "/backups", status_code=202, json=answer, headers=JSON)
    code, _out, err = cli(
        "volume", "backup", "create", "--force", "--incremental", "--property", "k=v",
        "--container", "mine", "data",
    )  # fmt: skip
    assert code == 0, err
    sent = requests_to(m, "POST", "/backups")[-1]
    body = sent.json()["backup"]
    assert (body["force"], body["incremental"], body["metadata"], body["container"]) == (
        True,
        True,
        {"k": "v"},
        "mine",
    )
    assert sent.headers["OpenStack-API-Version"] == "volume 3.43"
    code, _out, err = cli("volume", "backup", "create", "--availability-zone", "nova", "data")
    assert code == 0, err
    sent = requests_to(m, "POST", "/backups")[-1]
    assert sent.json()["backup"]["availability_zone"] == "nova"
    assert sent.headers["OpenStack-API-Version"] == "volume 3.51"


def test_show_has_oscs_columns(cli, backup):
    code, out, err = cli("volume", "backup", "show", "backup001", "-f", "json")
    assert code == 0, err
    shown = _json(out)
    assert list(shown) == [
        "availability_zone", "container", "created_at", "data_timestamp", "description",
        "encryption_key_id", "fail_reason", "has_dependent_backups", "id", "is_incremental",
        "metadata", "name", "object_count", "project_id", "size", "snapshot_id", "status",
        "updated_at", "user_id", "volume_id",
    ]  # fmt: skip
    assert shown["project_id"] == backup["os-backup-project-attr:project_id"]
    assert (shown["id"], shown["size"], shown["metadata"]) == (BACKUP_ID, 10, {})


def test_list_filters_and_long_columns(cli, mock_cloud, volume):
    m = mock_cloud.mock
    listed = load_fixture("volume", "backups", "backups-list-detailed-response.json")
    m.get(VOLUME + "/backups/detail", json=listed)
    code, out, err = cli(
        "volume", "backup", "list", "--long", "--volume", "data", "--status", "available",
        "-f", "json",
    )  # fmt: skip
    assert code == 0, err
    rows = _json(out)
    assert list(rows[0]) == [
        "ID", "Name", "Description", "Status", "Size", "Incremental", "Created At",
        "Availability Zone", "Volume", "Container",
    ]  # fmt: skip
    assert [r["ID"] for r in rows] == [b["id"] for b in listed["backups"]]
    query = requests_to(m, "GET", "/backups/detail")[0].qs
    assert (query["volume_id"], query["status"]) == ([VOLUME_ID.lower()], ["available"])
    code, _out, err = cli("volume", "backup", "list", "--status", "gone")
    assert code == 2 and "invalid choice" in err


def test_restore_to_a_new_or_an_existing_volume(cli, mock_cloud, backup, volume):
    m = mock_cloud.mock
    answer = load_fixture("volume", "backups", "backup-restore-response.json")
    m.post(VOLUME + "/backups/%s/restore" % BACKUP_ID, status_code=202, json=answer)
    m.get(VOLUME + "/volumes/detail?name=vol-01", json={"volumes": []})
    code, out, err = cli("volume", "backup", "restore", BACKUP_ID, "vol-01", "-f", "json")
    assert code == 0, err
    assert _json(out) == {
        "id": answer["restore"]["backup_id"],
        "volume_id": answer["restore"]["volume_id"],
        "volume_name": answer["restore"]["volume_name"],
    }
    assert requests_to(m, "POST", "/restore")[0].json() == {"restore": {"name": "vol-01"}}
    code, _out, err = cli("volume", "backup", "restore", BACKUP_ID, "data")
    assert code == 1
    assert "Volume 'data' already exists; if you want to restore the backup to it" in err
    assert len(requests_to(m, "POST", "/restore")) == 1
    code, _out, err = cli("volume", "backup", "restore", "--force", BACKUP_ID, "data")
    assert code == 0, err
    assert requests_to(m, "POST", "/restore")[-1].json() == {"restore": {"volume_id": VOLUME_ID}}


def test_set_state_name_and_properties(cli, mock_cloud, backup):
    m = mock_cloud.mock
    m.post(VOLUME + "/backups/%s/action" % BACKUP_ID, status_code=202)
    m.put(VOLUME + "/backups/" + BACKUP_ID, json={"backup": backup})
    code, _out, err = cli("volume", "backup", "set", "--state", "available", BACKUP_ID)
    assert code == 0, err
    expected = load_fixture("volume", "backups", "backup-reset-status-request.json")
    assert requests_to(m, "POST", "/action")[0].json() == expected
    code, _out, err = cli("volume", "backup", "set", "--name", "n", BACKUP_ID)
    assert code == 0, err
    sent = requests_to(m, "PUT", "/backups/")[-1]
    assert sent.json() == {"backup": {"name": "n"}}
    assert sent.headers["OpenStack-API-Version"] == "volume 3.9"
    code, _out, err = cli("volume", "backup", "set", "--property", "a=b", BACKUP_ID)
    assert code == 0, err
    sent = requests_to(m, "PUT", "/backups/")[-1]
    assert sent.json() == {"backup": {"metadata": {"a": "b"}}}
    assert sent.headers["OpenStack-API-Version"] == "volume 3.43"
    code, _out, err = cli("volume", "backup", "set", BACKUP_ID)
    assert code == 2 and "Nothing to set" in err
    code, _out, err = cli("volume", "backup", "set", "--state", "deleting", BACKUP_ID)
    assert code == 2


def test_unset_removes_only_the_keys_given(cli, mock_cloud):
    m = mock_cloud.mock
    shown = copy.deepcopy(SHOW)
    shown["backup"]["metadata"] = {"a": "1", "b": "2"}
    m.get(VOLUME + "/backups/" + BACKUP_ID, json=shown)
    m.put(VOLUME + "/backups/" + BACKUP_ID, json=shown)
    code, _out, err = cli("volume", "backup", "unset", "--property", "a", BACKUP_ID)
    assert code == 0, err
    assert requests_to(m, "PUT", "/backups/")[0].json() == {"backup": {"metadata": {"b": "2"}}}


def test_delete_and_force_delete(cli, mock_cloud, backup):
    m = mock_cloud.mock
    m.delete(VOLUME + "/backups/" + BACKUP_ID, status_code=202)
    m.post(VOLUME + "/backups/%s/action" % BACKUP_ID, status_code=202)
    code, _out, err = cli("volume", "backup", "delete", "backup001")
    assert code == 0, err
    assert len(requests_to(m, "DELETE", "/backups/")) == 1
    code, _out, err = cli("volume", "backup", "delete", "--force", BACKUP_ID)
    assert code == 0, err
    expected = load_fixture("volume", "backups", "backup-force-delete-request.json")
    assert requests_to(m, "POST", "/action")[0].json() == expected


def test_record_export_and_import(cli, mock_cloud, backup):
    m = mock_cloud.mock
    record = load_fixture("volume", "backups", "backup-record-export-response.json")
    m.get(VOLUME + "/backups/%s/export_record" % BACKUP_ID, json=record)
    code, out, err = cli("volume", "backup", "record", "export", BACKUP_ID, "-f", "json")
    assert code == 0, err
    assert _json(out) == record["backup-record"]
    code, out, err = cli("volume", "backup", "record", "export", BACKUP_ID)
    assert code == 0, err
    assert "Backup Service" in out and "Metadata" in out
    imported = load_fixture("volume", "backups", "backup-record-import-response.json")
    m.post(VOLUME + "/backups/import_record", status_code=201, json=imported)
    request = load_fixture("volume", "backups", "backup-record-import-request.json")
    args = request["backup-record"]
    code, out, err = cli(
        "volume", "backup", "record", "import", args["backup_service"], args["backup_url"],
        "-f", "json",
    )  # fmt: skip
    assert code == 0, err
    assert _json(out) == {"id": imported["backup"]["id"], "name": None}
    assert requests_to(m, "POST", "/import_record")[0].json() == request
