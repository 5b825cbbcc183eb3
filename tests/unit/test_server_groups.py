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
