"""Migration SDK methods (requests-mock, api-ref samples in
tests/fixtures/compute/migrations/)."""

import copy

import pytest
from keystoneauth1 import session

from occli import exceptions
from occli.client import Client

from . import fakes
from .fakes import COMPUTE
from .fakes import requests_to

SERVER = "9128d044-7b61-403e-b766-7547076ff6c1"
ACTION = "/servers/%s/action" % SERVER


def sample(name):
    return copy.deepcopy(fakes.load_fixture("compute", "migrations", name))


def at(version):
    return Client(session=session.Session(auth=fakes.password_auth()), compute_api_version=version)


def sent_action(mock_cloud):
    return requests_to(mock_cloud.mock, "POST", ACTION)[-1].json()


@pytest.fixture
def actions(mock_cloud):
    mock_cloud.mock.post(COMPUTE + ACTION, status_code=202, text="")
    return mock_cloud


# -- ServerManager moves ---------------------------------------------------------


@pytest.mark.parametrize(
    "version,kwargs,name",
    [
        ("2.1", {}, "os-migrate-server_migrate-server.json"),
        ("2.56", {"host": "host1"}, "os-migrate-server_v2.56_migrate-server.json"),
    ],
)
def test_migrate_sends_the_sample(actions, version, kwargs, name):
    at(version).servers.migrate(SERVER, **kwargs)
    assert sent_action(actions) == sample(name)


def test_migrate_host_needs_2_56(actions):
    with pytest.raises(exceptions.UnsupportedVersion, match="2.56 or later"):
        at("2.55").servers.migrate(SERVER, host="host1")
    assert not requests_to(actions.mock, "POST", ACTION)


@pytest.mark.parametrize(
    "version,kwargs,name",
    [
        (
            "2.1",
            {"host": "01c0cadef72d47e28a672a76060d492c", "disk_over_commit": False},
            "os-migrate-server_live-migrate-server.json",
        ),
        (
            "2.25",
            {"host": "01c0cadef72d47e28a672a76060d492c"},
            "os-migrate-server_v2.25_live-migrate-server.json",
        ),
        (
            "2.30",
            {"host": "01c0cadef72d47e28a672a76060d492c", "force": False},
            "os-migrate-server_v2.30_live-migrate-server.json",
        ),
        (
            "2.68",
            {"host": "01c0cadef72d47e28a672a76060d492c"},
            "os-migrate-server_v2.68_live-migrate-server.json",
        ),
    ],
)
def test_live_migrate_sends_the_sample(actions, version, kwargs, name):
    expected = sample(name)
    at(version).servers.live_migrate(
        SERVER, block_migration=expected["os-migrateLive"]["block_migration"], **kwargs
    )
    assert sent_action(actions) == expected


def test_live_migrate_auto_before_2_25_is_false(actions):
    at("2.24").servers.live_migrate(SERVER)
    assert sent_action(actions) == {
        "os-migrateLive": {"host": None, "block_migration": False, "disk_over_commit": False}
    }


@pytest.mark.parametrize(
    "version,kwargs,error",
    [
        ("2.30", {"force": True}, exceptions.ValidationError),
        ("2.25", {"block_migration": "yes"}, exceptions.ValidationError),
        ("2.25", {"disk_over_commit": True}, exceptions.UnsupportedVersion),
        ("2.68", {"host": "h", "force": True}, exceptions.UnsupportedVersion),
        ("2.29", {"host": "h", "force": True}, exceptions.UnsupportedVersion),
    ],
)
def test_live_migrate_checks(actions, version, kwargs, error):
    with pytest.raises(error):
        at(version).servers.live_migrate(SERVER, **kwargs)
    assert not requests_to(actions.mock, "POST", ACTION)


@pytest.mark.parametrize(
    "version,kwargs,name",
    [
        (
            "2.1",
            {
                "host": "b419863b7d814906a68fb31703c0dbd6",
                "password": "MySecretPass",
                "on_shared_storage": False,
            },
            "os-evacuate_server-evacuate-req.json",
        ),
        (
            "2.14",
            {"host": "testHost", "password": "MySecretPass"},
            "os-evacuate_v2.14_server-evacuate-req.json",
        ),
        (
            "2.29",
            {"host": "testHost", "password": "MySecretPass", "force": False},
            "os-evacuate_v2.29_server-evacuate-req.json",
        ),
    ],
)
def test_evacuate_sends_the_sample(mock_cloud, version, kwargs, name):
    mock_cloud.mock.post(COMPUTE + ACTION, json=sample("os-evacuate_server-evacuate-resp.json"))
    result = at(version).servers.evacuate(SERVER, **kwargs)
    expected = sample(name)
    if "onSharedStorage" in expected["evacuate"]:
        # the sample sends nova's string form; occli sends the boolean
        expected["evacuate"]["onSharedStorage"] = False
    assert sent_action(mock_cloud) == expected
    assert result.body["adminPass"] == "MySecretPass"


def test_evacuate_95_sample_and_checks(actions):
    at("2.95").servers.evacuate(SERVER)
    assert sent_action(actions) == {"evacuate": {}}
    for version, kwargs, error in (
        ("2.14", {"on_shared_storage": True}, exceptions.UnsupportedVersion),
        ("2.1", {"on_shared_storage": True, "password": "x"}, exceptions.ValidationError),
        ("2.29", {"force": True}, exceptions.ValidationError),
        ("2.68", {"host": "h", "force": True}, exceptions.UnsupportedVersion),
    ):
        with pytest.raises(error):
            at(version).servers.evacuate(SERVER, **kwargs)
    assert len(requests_to(actions.mock, "POST", ACTION)) == 1


def test_server_resource_delegates(actions):
    server = at("2.56").servers.resource_class(at("2.56").servers, {"id": SERVER})
    server.migrate(host="h2")
    assert sent_action(actions) == {"migrate": {"host": "h2"}}


# -- ServerMigrationManager ------------------------------------------------------


def test_server_migrations_list_and_get(mock_cloud):
    listing = sample("server-migrations_v2.80_migrations-index.json")
    one = sample("server-migrations_v2.80_migrations-get.json")
    base = COMPUTE + "/servers/%s/migrations" % SERVER
    mock_cloud.mock.get(base, json=listing)
    mock_cloud.mock.get(base + "/1", json=one)
    client = at("2.80")
    got = client.server_migrations.list(SERVER)
    assert [m.to_dict() for m in got] == listing["migrations"]
    migration = client.server_migrations.get(SERVER, 1)
    assert migration.memory_total_bytes == one["migration"]["memory_total_bytes"]
    with pytest.raises(exceptions.UnsupportedVersion, match="2.23 or later"):
        at("2.22").server_migrations.list(SERVER)


def test_force_complete_and_abort(mock_cloud):
    base = COMPUTE + "/servers/%s/migrations/1" % SERVER
    mock_cloud.mock.post(base + "/action", status_code=202, text="")
    mock_cloud.mock.delete(base, status_code=202, text="")
    client = at("2.24")
    client.server_migrations.live_migrate_force_complete(SERVER, 1)
    assert mock_cloud.mock.last_request.json() == sample(
        "server-migrations_v2.22_force_complete.json"
    )
    client.server_migrations.live_migration_abort(SERVER, 1)
    assert requests_to(mock_cloud.mock, "DELETE", "/migrations/1")
    with pytest.raises(exceptions.UnsupportedVersion, match="2.24 or later"):
        at("2.23").server_migrations.live_migration_abort(SERVER, 1)
    with pytest.raises(exceptions.UnsupportedVersion, match="2.22 or later"):
        at("2.21").server_migrations.live_migrate_force_complete(SERVER, 1)


def test_abort_refused_is_an_api_error(mock_cloud):
    base = COMPUTE + "/servers/%s/migrations/1" % SERVER
    message = (
        "Migration 1 state of instance %s is queued. Cannot abort live migration while the "
        "migration is in this state." % SERVER
    )
    mock_cloud.mock.delete(
        base, status_code=400, json={"badRequest": {"code": 400, "message": message}}
    )
    with pytest.raises(exceptions.BadRequest, match="is queued"):
        at("2.64").server_migrations.live_migration_abort(SERVER, 1)


# -- MigrationManager ------------------------------------------------------------


def test_migrations_list_sample_and_filters(mock_cloud):
    body = sample("os-migrations_v2.80_migrations-get.json")
    mock_cloud.mock.get(COMPUTE + "/os-migrations", json=body)
    got = at("2.80").migrations.list(
        host="compute10",
        status="migrating",
        migration_type="resize",
        changes_since="2016-06-23T13:42:02Z",
        changes_before="2016-06-24T13:42:02Z",
        user_id="u",
        project_id="p",
        instance_uuid=SERVER,
    )
    assert [m.to_dict() for m in got] == body["migrations"]
    query = mock_cloud.mock.last_request.qs
    assert query["changes-since"] == ["2016-06-23t13:42:02z"]
    assert query["migration_type"] == ["resize"] and query["host"] == ["compute10"]
    assert query["user_id"] == ["u"] and query["project_id"] == ["p"]


def test_migrations_list_follows_pages(mock_cloud):
    first = sample("os-migrations_v2.80_migrations-get-with-limit.json")
    marker = first["migrations"][-1]["uuid"]
    last = {"migrations": [dict(first["migrations"][0], id=1, uuid="u-last")]}
    mock_cloud.mock.get(
        COMPUTE + "/os-migrations",
        [{"json": first}, {"json": last}],
    )
    got = at("2.80").migrations.list()
    assert [m.uuid for m in got] == [marker, "u-last"]
    assert mock_cloud.mock.last_request.qs["marker"] == [marker.lower()]


@pytest.mark.parametrize(
    "version,kwargs",
    [
        ("2.58", {"changes_since": "2016-01-01T00:00:00Z"}),
        ("2.58", {"limit": 1}),
        ("2.65", {"changes_before": "2016-01-01T00:00:00Z"}),
        ("2.79", {"user_id": "u"}),
    ],
)
def test_migrations_list_gates(mock_cloud, version, kwargs):
    with pytest.raises(exceptions.UnsupportedVersion):
        at(version).migrations.list(**kwargs)
    assert not requests_to(mock_cloud.mock, "GET", "/os-migrations")


def test_migrations_list_old_sample(mock_cloud):
    body = sample("os-migrations_migrations-get.json")
    mock_cloud.mock.get(COMPUTE + "/os-migrations", json=body)
    got = at("2.1").migrations.list(status="error")
    assert got[0].old_instance_type_id == body["migrations"][0]["old_instance_type_id"]
    assert "limit" not in mock_cloud.mock.last_request.qs
