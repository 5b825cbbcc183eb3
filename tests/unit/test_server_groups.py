"""Server group manager, server tag methods and list filter gates
(requests-mock, on nova's api-ref samples)."""

import copy

import pytest
from keystoneauth1 import session

from occli import exceptions
from occli.client import Client

from .fakes import COMPUTE
from .fakes import load_fixture
from .fakes import password_auth
from .fakes import requests_to

GROUPS = COMPUTE + "/os-server-groups"
SERVER = "9168b536-cd40-4630-b43f-b259807c6e87"


def sample(name, version=None):
    parts = ("compute", "os-server-groups") + ((version,) if version else ())
    return copy.deepcopy(load_fixture(*(parts + (name,))))


def pinned(version):
    return Client(session=session.Session(auth=password_auth()), compute_api_version=version)


def test_list_and_get_parse_the_samples(client, mock_cloud):
    body = sample("server-groups-list-resp.json", "v2.64")
    mock_cloud.mock.get(GROUPS, json=body)
    groups = client.server_groups.list()
    assert [g.id for g in groups] == [body["server_groups"][0]["id"]]
    assert groups[0].policy == "anti-affinity"
    shown = sample("server-groups-get-resp.json", "v2.64")["server_group"]
    mock_cloud.mock.get(GROUPS + "/" + shown["id"], json={"server_group": shown})
    assert client.server_groups.get(shown["id"]).rules == {"max_server_per_host": 3}


def test_policy_is_read_from_policies_before_2_64(mock_cloud):
    mock_cloud.mock.get(GROUPS, json=sample("server-groups-list-resp.json"))
    (group,) = pinned("2.1").server_groups.list()
    assert group.policy == "anti-affinity"


def test_list_sends_all_projects_limit_and_offset(client, mock_cloud):
    mock_cloud.mock.get(GROUPS, json={"server_groups": []})
    client.server_groups.list(all_projects=True, limit=5, offset=2)
    (request,) = requests_to(mock_cloud.mock, "GET", "/os-server-groups")
    assert request.qs == {"all_projects": ["true"], "limit": ["5"], "offset": ["2"]}
    with pytest.raises(exceptions.ValidationError):
        client.server_groups.list(offset=-1)


def test_create_body_follows_the_microversion(mock_cloud):
    resp = sample("server-groups-post-resp.json", "v2.64")
    mock_cloud.mock.post(GROUPS, json=resp)
    new = pinned("2.64").server_groups
    group = new.create("test", "anti-affinity", rules={"max_server_per_host": "3"})
    assert group.id == resp["server_group"]["id"]
    old = pinned("2.1").server_groups
    old.create("test", policies=["affinity"])
    bodies = [r.json() for r in requests_to(mock_cloud.mock, "POST", "/os-server-groups")]
    assert bodies[0] == sample("server-groups-post-req.json", "v2.64")
    assert bodies[1] == {"server_group": {"name": "test", "policies": ["affinity"]}}


@pytest.mark.parametrize(
    "version, kwargs, error",
    [
        ("2.64", {"policy": "nope"}, exceptions.ValidationError),
        (
            "2.64",
            {"policy": "affinity", "rules": {"max_server_per_host": 2}},
            exceptions.ValidationError,
        ),
        ("2.64", {"policy": "anti-affinity", "rules": {"other": 1}}, exceptions.ValidationError),
        (
            "2.64",
            {"policy": "anti-affinity", "rules": {"max_server_per_host": 0}},
            exceptions.ValidationError,
        ),
        ("2.14", {"policy": "soft-affinity"}, exceptions.UnsupportedVersion),
        (
            "2.63",
            {"policy": "anti-affinity", "rules": {"max_server_per_host": 2}},
            exceptions.UnsupportedVersion,
        ),
    ],
)
def test_create_checks_before_any_request(mock_cloud, version, kwargs, error):
    with pytest.raises(error):
        pinned(version).server_groups.create("g", **kwargs)
    assert requests_to(mock_cloud.mock, "POST", "/os-server-groups") == []


def test_find_by_name_and_delete(client, mock_cloud):
    body = sample("server-groups-list-resp.json", "v2.64")
    group = body["server_groups"][0]
    mock_cloud.mock.get(GROUPS, json=body)
    mock_cloud.mock.delete(GROUPS + "/" + group["id"], status_code=204)
    found = client.server_groups.find_resource("test")
    client.server_groups.delete(found)
    assert requests_to(mock_cloud.mock, "DELETE", "/os-server-groups/" + group["id"])
    with pytest.raises(exceptions.NotFound):
        client.server_groups.find_resource("nope")


def test_tag_methods(mock_cloud):
    servers = pinned("2.26").servers
    url = COMPUTE + "/servers/%s/tags" % SERVER
    tags = load_fixture("compute", "os-server-tags", "v2.26", "server-tags-index-resp.json")
    mock_cloud.mock.get(url, json=tags)
    mock_cloud.mock.put(url, json=tags)
    mock_cloud.mock.put(url + "/a%20b", status_code=201)
    mock_cloud.mock.delete(url + "/a%20b", status_code=204)
    mock_cloud.mock.delete(url, status_code=204)
    assert servers.tag_list(SERVER) == tags["tags"]
    put_all = load_fixture("compute", "os-server-tags", "v2.26", "server-tags-put-all-req.json")
    assert servers.set_tags(SERVER, put_all["tags"]) == tags["tags"]
    assert requests_to(mock_cloud.mock, "PUT", "/tags")[0].json() == put_all
    servers.add_tag(SERVER, "a b")
    servers.delete_tag(SERVER, "a b")
    servers.delete_all_tags(SERVER)
    assert len(requests_to(mock_cloud.mock, "DELETE", "/tags")) == 2


def test_tags_need_2_26_and_valid_text(mock_cloud):
    with pytest.raises(exceptions.UnsupportedVersion):
        pinned("2.25").servers.tag_list(SERVER)
    for bad in ("", "a,b", "a/b", "x" * 61):
        with pytest.raises(exceptions.ValidationError):
            pinned("2.26").servers.add_tag(SERVER, bad)
    assert requests_to(mock_cloud.mock, "PUT", "/tags") == []


@pytest.mark.parametrize(
    "version, opts",
    [
        ("2.25", {"tags": "a"}),
        ("2.65", {"changes-before": "2020-01-01T00:00:00Z"}),
        ("2.72", {"locked": False}),
    ],
)
def test_list_filters_gated_by_microversion(mock_cloud, version, opts):
    with pytest.raises(exceptions.UnsupportedVersion):
        pinned(version).servers.check_list(opts)
    pinned("2.73").servers.check_list(opts)


# -- commands (in-process CLI against the mocked cloud) ---------------------------


def test_server_list_sends_every_filter(cli, mock_cloud):
    mock_cloud.mock.get(COMPUTE + "/servers/detail", json={"servers": []})
    argv = [
        "--os-compute-api-version", "2.83", "server", "list", "-n",
        "--project", "0123456789abcdef0123456789abcdef", "--user", "u" * 32,
        "--deleted", "--reservation-id", "r-1", "--availability-zone", "az1",
        "--key-name", "k1", "--vm-state", "error", "--task-state", "spawning",
        "--power-state", "shutdown", "--config-drive", "--unlocked", "--tags", "a,b",
        "--tags-any", "c", "--not-tags", "d", "--not-tags-any", "e",
        "--changes-since", "2026-01-01T00:00:00Z", "--changes-before", "2026-02-01T00:00:00Z",
        "--ip", "10\\.", "--ip6", "::1",
    ]  # fmt: skip
    code, _, err = cli(*argv)
    assert code == 0, err
    (request,) = requests_to(mock_cloud.mock, "GET", "/servers/detail")
    assert request.qs == {
        "all_tenants": ["true"],
        "project_id": ["0123456789abcdef0123456789abcdef"],
        "user_id": ["u" * 32],
        "deleted": ["true"],
        "reservation_id": ["r-1"],
        "availability_zone": ["az1"],
        "key_name": ["k1"],
        "vm_state": ["error"],
        "task_state": ["spawning"],
        "power_state": ["4"],
        "config_drive": ["true"],
        "locked": ["false"],
        "tags": ["a,b"],
        "tags-any": ["c"],
        "not-tags": ["d"],
        "not-tags-any": ["e"],
        "changes-since": ["2026-01-01t00:00:00z"],
        "changes-before": ["2026-02-01t00:00:00z"],
        "ip": ["10\\."],
        "ip6": ["::1"],
    }


def test_server_list_version_gates_send_nothing(cli, mock_cloud):
    code, _, err = cli("--os-compute-api-version", "2.72", "server", "list", "--locked")
    assert code == 1 and "requires compute API version 2.73 or later" in err
    code, _, err = cli("server", "list", "--power-state", "sleepy")
    assert code == 2
    assert requests_to(mock_cloud.mock, "GET", "/servers") == []


def test_server_group_commands(cli, mock_cloud):
    resp = sample("server-groups-post-resp.json", "v2.64")
    group = resp["server_group"]
    mock_cloud.mock.post(GROUPS, json=resp)
    mock_cloud.mock.get(GROUPS, json={"server_groups": [group]})
    mock_cloud.mock.delete(GROUPS + "/" + group["id"], status_code=204)
    v = ("--os-compute-api-version", "2.64")
    code, out, err = cli(*v, "server", "group", "create", "test", "--policy", "anti-affinity",
                         "--rule", "max_server_per_host=3", "-f", "json")  # fmt: skip
    assert code == 0, err
    assert requests_to(mock_cloud.mock, "POST", "/os-server-groups")[0].json() == sample(
        "server-groups-post-req.json", "v2.64"
    )
    code, out, err = cli(*v, "server", "group", "list", "--long", "-f", "json")
    assert code == 0 and '"Rules": {' in out.replace("\n", "").replace("  ", " "), out
    code, out, err = cli(*v, "server", "group", "delete", "test")
    assert code == 0, err
    code, out, err = cli(*v, "server", "group", "create", "x", "--rule", "max_server_per_host=2")
    assert code == 2 and "anti-affinity" in err


def test_server_list_config_drive_forms_and_progress(cli, mock_cloud):
    mock_cloud.mock.get(COMPUTE + "/servers/detail", json={"servers": []})
    code, _, err = cli("server", "list", "-n", "--no-config-drive", "--progress", "40")
    assert code == 0, err
    code, _, err = cli("server", "list", "-n", "--config-drive")
    assert code == 0, err
    first, second = requests_to(mock_cloud.mock, "GET", "/servers/detail")
    assert (first.qs["config_drive"], first.qs["progress"]) == (["^$"], ["^40$"])
    assert second.qs["config_drive"] == ["true"] and "progress" not in second.qs
