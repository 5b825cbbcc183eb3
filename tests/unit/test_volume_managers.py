"""Cinder (volumes, snapshots) and Nova attachment managers
(os-volume_attachments, os-interface) against requests-mock, on the
upstream api-ref samples."""

import copy

import pytest

from occli import exceptions

from .fakes import COMPUTE
from .fakes import VOLUME
from .fakes import load_fixture
from .fakes import requests_to

VOLUME_ID = "f7223234-1afc-4d19-bfa3-d19deb6235ef"
SERVER_ID = "7696780b-3f53-4688-ab25-019bfcbbd806"


def sample(*parts):
    return copy.deepcopy(load_fixture(*parts))


def cinder_error(status, message):
    key = {400: "badRequest", 404: "itemNotFound"}[status]
    return {"status_code": status, "json": {key: {"code": status, "message": message}}}


# -- volumes ------------------------------------------------------------------


def test_volumev3_catalog_entry_serves_block_storage_with_its_header(client, mock_cloud):
    body = sample("volume", "volumes", "volumes-list-detailed-response.json")
    mock_cloud.mock.get(VOLUME + "/volumes/detail", json=body)
    got = list(client.volumes.list())
    assert [v.to_dict() for v in got] == body["volumes"]
    assert mock_cloud.mock.last_request.headers["OpenStack-API-Version"] == "volume 3.0"


def test_an_unversioned_endpoint_gets_v3(client, mock_cloud, monkeypatch):
    manager = client.volumes
    monkeypatch.setattr(manager.api, "get_endpoint", lambda: "http://c.test/volume/")
    mock_cloud.mock.get("http://c.test/volume/v3/volumes/detail", json={"volumes": []})
    assert list(manager.list()) == []


def test_list_filters_and_all_projects(client, mock_cloud):
    mock_cloud.mock.get(VOLUME + "/volumes/detail", json={"volumes": []})
    list(client.volumes.list(all_projects=True, status="available", limit=5))
    assert mock_cloud.mock.last_request.qs == {
        "all_tenants": ["1"],
        "status": ["available"],
        "limit": ["5"],
    }


def test_find_by_name_is_one_filtered_list(client, mock_cloud):
    volume = sample("volume", "volumes", "volume-show-response.json")["volume"]
    volume["name"] = "data"
    mock_cloud.mock.get(VOLUME + "/volumes/detail", json={"volumes": [volume]})
    assert client.volumes.find_resource("data").id == VOLUME_ID
    assert len(requests_to(mock_cloud.mock, "GET", "/volumes")) == 1
    assert mock_cloud.mock.last_request.qs == {"name": ["data"]}
    mock_cloud.mock.get(VOLUME + "/volumes/detail", json={"volumes": []})
    with pytest.raises(exceptions.NotFound, match="No volume with a name or ID of 'gone'"):
        client.volumes.find_resource("gone")


def test_create_blank_body_and_response(client, mock_cloud):
    created = sample("volume", "volumes", "volume-create-response.json")
    mock_cloud.mock.post(VOLUME + "/volumes", status_code=202, json=created)
    volume = client.volumes.create(size=10, name="data", metadata={"k": "v"})
    assert volume.status == created["volume"]["status"]
    assert mock_cloud.mock.last_request.json() == {
        "volume": {"size": 10, "name": "data", "metadata": {"k": "v"}}
    }


def test_create_from_image_or_snapshot(client, mock_cloud):
    created = sample("volume", "volumes", "volume-create-response.json")
    mock_cloud.mock.post(VOLUME + "/volumes", status_code=202, json=created)
    client.volumes.create(size=1, image="img-1")
    assert mock_cloud.mock.last_request.json() == {"volume": {"imageRef": "img-1", "size": 1}}
    client.volumes.create(snapshot="snap-1")
    assert mock_cloud.mock.last_request.json() == {"volume": {"snapshot_id": "snap-1"}}


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({}, "needs a size"),
        ({"size": 0}, "1 or more"),
        ({"size": "1.5"}, "whole number"),
        ({"size": 1, "image": "i", "snapshot": "s"}, "not several"),
    ],
)
def test_create_checks_before_any_request(client, mock_cloud, kwargs, message):
    with pytest.raises(exceptions.ValidationError, match=message):
        client.volumes.create(**kwargs)
    assert not requests_to(mock_cloud.mock, "POST", "/volumes")


def test_delete_cascade_and_force(client, mock_cloud):
    mock_cloud.mock.delete(VOLUME + "/volumes/" + VOLUME_ID, status_code=202)
    client.volumes.delete(VOLUME_ID, cascade=True)
    assert mock_cloud.mock.last_request.qs == {"cascade": ["true"]}
    assert mock_cloud.mock.last_request.headers["OpenStack-API-Version"] == "volume 3.0"
    client.volumes.delete(VOLUME_ID, force=True, cascade=True)
    assert mock_cloud.mock.last_request.qs == {"cascade": ["true"], "force": ["true"]}
    assert mock_cloud.mock.last_request.headers["OpenStack-API-Version"] == "volume 3.23"


def test_delete_refused_while_attached_is_an_api_error(client, mock_cloud):
    mock_cloud.mock.delete(
        VOLUME + "/volumes/" + VOLUME_ID,
        **cinder_error(400, "Invalid volume: Volume status must be available or error."),
    )
    with pytest.raises(exceptions.BadRequest, match="Invalid volume") as caught:
        client.volumes.delete(VOLUME_ID)
    assert caught.value.exit_code == 1


def test_update_and_metadata(client, mock_cloud):
    mock_cloud.mock.put(
        VOLUME + "/volumes/" + VOLUME_ID,
        json=sample("volume", "volumes", "volume-update-response.json"),
    )
    client.volumes.update(
        VOLUME_ID,
        name="vol-003",
        description="This is yet, another volume.",
        metadata={"name": "metadata0"},
    )
    assert mock_cloud.mock.last_request.json() == sample(
        "volume", "volumes", "volume-update-request.json"
    )
    mock_cloud.mock.post(
        VOLUME + "/volumes/%s/metadata" % VOLUME_ID, json={"metadata": {"a": "1", "b": "2"}}
    )
    assert client.volumes.set_metadata(VOLUME_ID, {"b": "2"}) == {"a": "1", "b": "2"}


# -- snapshots ----------------------------------------------------------------


def test_snapshot_create_body(client, mock_cloud):
    request = sample("volume", "snapshots", "snapshot-create-request.json")
    mock_cloud.mock.post(
        VOLUME + "/snapshots",
        status_code=202,
        json=sample("volume", "snapshots", "snapshot-create-response.json"),
    )
    given = request["snapshot"]
    snap = client.volume_snapshots.create(
        given["volume_id"],
        name=given["name"],
        description=given["description"],
        force=True,
        metadata=given["metadata"],
    )
    assert snap.status == "creating"
    assert mock_cloud.mock.last_request.json() == request


def test_snapshot_delete_and_force_delete(client, mock_cloud):
    snap_id = "4a584cae-e4ce-429b-9154-d4c9eb8fda4c"
    mock_cloud.mock.delete(VOLUME + "/snapshots/" + snap_id, status_code=202)
    client.volume_snapshots.delete(snap_id)
    assert mock_cloud.mock.last_request.method == "DELETE"
    mock_cloud.mock.post(VOLUME + "/snapshots/%s/action" % snap_id, status_code=202)
    client.volume_snapshots.delete(snap_id, force=True)
    assert mock_cloud.mock.last_request.json() == sample(
        "volume", "snapshots", "snapshot-force-delete-request.json"
    )


def test_snapshot_list_of_a_volume(client, mock_cloud):
    body = sample("volume", "snapshots", "snapshots-list-detailed-response.json")
    mock_cloud.mock.get(VOLUME + "/snapshots/detail", json=body)
    got = list(client.volume_snapshots.list(volume=VOLUME_ID))
    assert [s.id for s in got] == [s["id"] for s in body["snapshots"]]
    assert mock_cloud.mock.last_request.qs == {"volume_id": [VOLUME_ID]}


# -- Nova volume attachments --------------------------------------------------


def attachments_sample(version, name):
    return sample("compute", "os-volume_attachments", version, name)


def test_attach_with_tag_and_delete_flag(client, mock_cloud):
    request = attachments_sample("v2.79", "attach-volume-to-server-req.json")
    mock_cloud.mock.post(
        COMPUTE + "/servers/%s/os-volume_attachments" % SERVER_ID,
        json=attachments_sample("v2.79", "attach-volume-to-server-resp.json"),
    )
    given = request["volumeAttachment"]
    got = client.volume_attachments.create(
        SERVER_ID, given["volumeId"], tag="foo", delete_on_termination=True
    )
    assert got.device == "/dev/sdb"
    assert mock_cloud.mock.last_request.json() == request


def test_attach_options_need_their_microversion(client, mock_cloud, monkeypatch):
    monkeypatch.setattr(client, "requested_compute_version", "2.48")
    with pytest.raises(exceptions.UnsupportedVersion, match="2.49"):
        client.volume_attachments.check_create(tag="foo")
    monkeypatch.setattr(client, "requested_compute_version", "2.78")
    client._versions.clear()
    with pytest.raises(exceptions.UnsupportedVersion, match="2.79"):
        client.volume_attachments.create(SERVER_ID, VOLUME_ID, delete_on_termination=False)
    assert not requests_to(mock_cloud.mock, "POST", "/os-volume_attachments")


def test_list_and_update_delete_flag(client, mock_cloud):
    url = COMPUTE + "/servers/%s/os-volume_attachments" % SERVER_ID
    body = attachments_sample("v2.89", "list-volume-attachments-resp.json")
    mock_cloud.mock.get(url, json=body)
    got = client.volume_attachments.list(SERVER_ID)
    assert [a.volumeId for a in got] == [a["volumeId"] for a in body["volumeAttachments"]]
    volume_id = "a07f71dc-8151-4e7d-a0cc-cd24a3f11113"
    mock_cloud.mock.put(url + "/" + volume_id, status_code=202)
    client.volume_attachments.update(SERVER_ID, volume_id, delete_on_termination=True)
    assert mock_cloud.mock.last_request.json() == attachments_sample(
        "v2.85", "update-volume-attachment-delete-flag-req.json"
    )
    with pytest.raises(exceptions.ValidationError, match="Nothing to change"):
        client.volume_attachments.update(SERVER_ID, volume_id)


def test_detach(client, mock_cloud):
    url = COMPUTE + "/servers/%s/os-volume_attachments/%s" % (SERVER_ID, VOLUME_ID)
    mock_cloud.mock.delete(url, status_code=202)
    client.volume_attachments.delete(SERVER_ID, VOLUME_ID)
    assert mock_cloud.mock.last_request.method == "DELETE"


# -- Nova interfaces ----------------------------------------------------------


def test_interface_attach_by_port_with_tag_and_by_network(client, mock_cloud):
    url = COMPUTE + "/servers/%s/os-interface" % SERVER_ID
    mock_cloud.mock.post(
        url,
        json=sample(
            "compute", "os-attach-interfaces", "v2.49", "attach-interfaces-create-resp.json"
        ),
    )
    client.interface_attachments.create(
        SERVER_ID, port="ce531f90-199f-48c0-816c-13e38010b442", tag="foo"
    )
    assert mock_cloud.mock.last_request.json() == sample(
        "compute", "os-attach-interfaces", "v2.49", "attach-interfaces-create-req.json"
    )
    client.interface_attachments.create(
        SERVER_ID, network="3cb9bc59-5699-4588-a4b1-b87f96708bc6", fixed_ip="192.168.1.3"
    )
    assert mock_cloud.mock.last_request.json() == sample(
        "compute", "os-attach-interfaces", "attach-interfaces-create-net_id-req.json"
    )


def test_interface_checks_and_list(client, mock_cloud):
    with pytest.raises(exceptions.ValidationError, match="one of port and network"):
        client.interface_attachments.create(SERVER_ID)
    with pytest.raises(exceptions.ValidationError, match="fixed_ip"):
        client.interface_attachments.create(SERVER_ID, port="p", fixed_ip="10.0.0.3")
    body = sample("compute", "os-attach-interfaces", "v2.70", "attach-interfaces-list-resp.json")
    mock_cloud.mock.get(COMPUTE + "/servers/%s/os-interface" % SERVER_ID, json=body)
    got = client.interface_attachments.list(SERVER_ID)
    assert got[0].tag == "public"


def _recorded_gates():
    """``{(method, API, option): first accepted version}`` from real nova
    34 (each refused with a schema 400 one version before)."""
    recorded = load_fixture("compute", "realcloud", "nova-34-attachment-gates.json")
    accepted = {}
    for exchange in recorded["exchanges"]:
        request = exchange["request"]
        kind = request["path"].rsplit("/", 2)[-1 if request["method"] == "POST" else -2]
        inner = next(iter(request["body"].values())) if request["body"] else {}
        for option in ("tag", "delete_on_termination"):
            if option not in inner:
                continue
            if exchange["status"] == 400:
                message = exchange["body"]["badRequest"]["message"]
                assert "'%s' was unexpected" % option in message
            else:
                accepted.setdefault((request["method"], kind, option), request["microversion"])
    return accepted


def test_gates_match_the_real_nova(client, monkeypatch):
    checks = {
        ("POST", "os-volume_attachments", "tag"): lambda: client.volume_attachments.check_create(
            tag="t"
        ),
        ("POST", "os-volume_attachments", "delete_on_termination"): (
            lambda: client.volume_attachments.check_create(delete_on_termination=True)
        ),
        ("PUT", "os-volume_attachments", "delete_on_termination"): (
            lambda: client.volume_attachments.check_update(delete_on_termination=True)
        ),
        ("POST", "os-interface", "tag"): lambda: client.interface_attachments.check_create(
            port="p", tag="t"
        ),
    }
    gates = _recorded_gates()
    assert set(gates) == set(checks)
    for key, version in gates.items():
        major, minor = version.split(".")
        for pinned, allowed in (("%s.%d" % (major, int(minor) - 1), False), (version, True)):
            monkeypatch.setattr(client, "requested_compute_version", pinned)
            client._versions.clear()
            if allowed:
                checks[key]()
            else:
                with pytest.raises(exceptions.UnsupportedVersion, match=version):
                    checks[key]()
