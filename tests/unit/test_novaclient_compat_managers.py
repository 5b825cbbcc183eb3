"""novaclient's calls on the managers added with the server parity work
(server groups, instance actions, migrations, server migrations, volume
attachments), against a mocked cloud on the upstream samples."""

import copy

import pytest
from keystoneauth1 import session

from occli.client import Client

from . import fakes
from .fakes import COMPUTE
from .fakes import requests_to

SERVER = "2aad99d3-7aa4-41e9-b4e6-3f960b115d68"  # the attachment samples' ids
VOLUME = "a07f71dc-8151-4e7d-a0cc-cd24a3f11113"
OTHER = "227cc671-f30b-4488-96fd-7d0bf13648d8"
ATTACHMENTS = COMPUTE + "/servers/%s/os-volume_attachments" % SERVER


def at(version):
    return Client(session=session.Session(auth=fakes.password_auth()), compute_api_version=version)


def sample(*path):
    return copy.deepcopy(fakes.load_fixture("compute", *path))


# -- server groups: create(name, policies) before 2.64 -----------------------


@pytest.mark.parametrize("policies", [["anti-affinity"], "anti-affinity"])
def test_server_group_create_takes_novaclient_policies_before_2_64(mock_cloud, policies):
    body = sample("os-server-groups", "server-groups-post-resp.json")
    mock_cloud.mock.post(COMPUTE + "/os-server-groups", json=body)
    got = at("2.1").server_groups.create("test", policies)
    sent = requests_to(mock_cloud.mock, "POST", "/os-server-groups")[-1].json()
    assert sent == {"server_group": {"name": "test", "policies": ["anti-affinity"]}}
    assert got.id == body["server_group"]["id"]


def test_server_group_create_takes_novaclient_policy_and_rules_from_2_64(mock_cloud):
    body = sample("os-server-groups", "v2.64", "server-groups-post-resp.json")
    mock_cloud.mock.post(COMPUTE + "/os-server-groups", json=body)
    at("2.64").server_groups.create("test", "anti-affinity", {"max_server_per_host": 3})
    sent = requests_to(mock_cloud.mock, "POST", "/os-server-groups")[-1].json()
    assert sent["server_group"]["policy"] == "anti-affinity"
    assert sent["server_group"]["rules"] == {"max_server_per_host": 3}


# -- migrations: list(host, status, instance_uuid) ---------------------------


def test_migrations_list_takes_novaclient_positional_filters(mock_cloud):
    body = sample("migrations", "os-migrations_migrations-get.json")
    mock_cloud.mock.get(COMPUTE + "/os-migrations", json=body)
    got = at("2.1").migrations.list("compute1", "error", SERVER, migration_type="resize")
    query = mock_cloud.mock.last_request.qs
    assert query["host"] == ["compute1"] and query["status"] == ["error"]
    assert query["instance_uuid"] == [SERVER.lower()] and query["migration_type"] == ["resize"]
    assert len(got) == len(body["migrations"]) and got.request_ids is not None


def test_migrations_list_limit_is_a_keyword(mock_cloud):
    with pytest.raises(TypeError):
        at("2.80").migrations.list("compute1", "error", SERVER, 5)


# -- instance actions and server migrations keep novaclient's signatures -----


def test_instance_action_and_server_migrations_take_novaclient_arguments(mock_cloud):
    mock_cloud.mock.get(
        COMPUTE + "/servers/%s/os-instance-actions" % SERVER, json={"instanceActions": []}
    )
    mock_cloud.mock.get(COMPUTE + "/servers/%s/migrations" % SERVER, json={"migrations": []})
    client = at("2.66")
    assert client.instance_action.list(SERVER, None, 10, "2016-01-01T00:00:00Z", None) == []
    assert mock_cloud.mock.last_request.qs["limit"] == ["10"]
    assert client.server_migrations.list(SERVER) == []


# -- volume attachments under novaclient's names ------------------------------


@pytest.fixture
def attachments(mock_cloud):
    m = mock_cloud.mock
    m.post(
        ATTACHMENTS,
        json=sample("os-volume_attachments", "v2.79", "attach-volume-to-server-resp.json"),
    )
    m.get(
        ATTACHMENTS,
        json=sample("os-volume_attachments", "v2.79", "list-volume-attachments-resp.json"),
    )
    m.get(
        ATTACHMENTS + "/" + VOLUME,
        json=sample("os-volume_attachments", "v2.79", "volume-attachment-detail-resp.json"),
    )
    m.put(ATTACHMENTS + "/" + VOLUME, status_code=202, text="")
    m.delete(ATTACHMENTS + "/" + VOLUME, status_code=202, text="")
    return m


@pytest.mark.parametrize("manager", ["volume_attachments", "volumes"])
def test_novaclient_attachment_calls(attachments, manager):
    """novaclient's ``client.volumes`` calls work on occli's attachment
    manager and on its (Cinder) ``client.volumes``, which hands them over."""
    volumes = getattr(at("2.85"), manager)
    got = volumes.create_server_volume(SERVER, VOLUME, "/dev/sdb")
    assert got.volumeId == VOLUME
    assert requests_to(attachments, "POST", "/os-volume_attachments")[-1].json() == {
        "volumeAttachment": {"volumeId": VOLUME, "device": "/dev/sdb"}
    }
    volumes.create_server_volume(SERVER, VOLUME, None, "t", True)
    assert requests_to(attachments, "POST", "/os-volume_attachments")[-1].json() == {
        "volumeAttachment": {"volumeId": VOLUME, "tag": "t", "delete_on_termination": True}
    }
    assert [a.volumeId for a in volumes.get_server_volumes(SERVER)]
    assert volumes.get_server_volume(SERVER, VOLUME).serverId == SERVER
    assert volumes.get_server_volume(SERVER, attachment_id=VOLUME).serverId == SERVER
    assert attachments.last_request.path.endswith("/os-volume_attachments/" + VOLUME)
    volumes.update_server_volume(SERVER, VOLUME, OTHER)
    assert attachments.last_request.json() == {"volumeAttachment": {"volumeId": OTHER}}
    volumes.update_server_volume(SERVER, VOLUME, VOLUME, delete_on_termination=False)
    assert attachments.last_request.json() == {
        "volumeAttachment": {"volumeId": VOLUME, "delete_on_termination": False}
    }
    volumes.delete_server_volume(SERVER, VOLUME)
    assert attachments.last_request.method == "DELETE"
    assert requests_to(attachments, "GET", "/volume/") == []  # never Cinder


def test_novaclient_attachment_argument_errors(attachments):
    volumes = at("2.85").volume_attachments
    with pytest.raises(TypeError, match="both volume_id and attachment_id"):
        volumes.get_server_volume(SERVER, VOLUME, attachment_id=VOLUME)
    with pytest.raises(TypeError, match="volume_id is required"):
        volumes.delete_server_volume(SERVER)
    assert requests_to(attachments, "DELETE", "/os-volume_attachments") == []


def test_migrations_list_times_are_iso_8601(mock_cloud):
    import datetime

    from occli import exceptions

    mock_cloud.mock.get(COMPUTE + "/os-migrations", json={"migrations": []})
    at("2.80").migrations.list(changes_since=datetime.datetime(2016, 6, 23, 13, 42, 2))
    assert mock_cloud.mock.last_request.qs["changes-since"] == ["2016-06-23t13:42:02"]
    with pytest.raises(exceptions.ValidationError, match="changes_before must be an ISO 8601"):
        at("2.80").migrations.list(changes_before="yesterday")
    assert len(requests_to(mock_cloud.mock, "GET", "/os-migrations")) == 1
