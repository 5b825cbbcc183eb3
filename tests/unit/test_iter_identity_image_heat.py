"""Keystone, Glance, Heat managers and Nova's zones: ``list()`` is
novaclient's list of every page (a ListWithMeta with each page's request
id), ``iter()`` the same resources read lazily, one page ahead of the
caller."""

from collections.abc import Iterator

import pytest

from occli import base
from occli import exceptions
from occli.v2.image import images

from .fakes import BASE
from .fakes import COMPUTE
from .fakes import HEAT
from .fakes import IMAGE

IDENTITY = BASE + "/identity/v3"


def keystone_links(url, key, marker):
    """Keystone's ``links`` of a collection: the next page's href."""
    following = None if marker is None else url + "?marker=" + marker
    return {"links": {"self": url, "previous": None, "next": following}}


def glance_links(url, key, marker):
    """Glance's ``next``: a relative href, missing on the last page."""
    return {} if marker is None else {"next": "/v2/images?marker=" + marker}


def heat_links(url, key, marker):
    """Heat names no next page: a full page asks for the next one."""
    return {}


#: (client attribute, URL listed, collection key, how it names the next page)
PAGED = [
    ("domains", IDENTITY + "/domains", "domains", keystone_links),
    ("projects", IDENTITY + "/projects", "projects", keystone_links),
    ("users", IDENTITY + "/users", "users", keystone_links),
    ("roles", IDENTITY + "/roles", "roles", keystone_links),
    ("role_assignments", IDENTITY + "/role_assignments", "role_assignments", keystone_links),
    ("images", IMAGE + "/v2/images", "images", glance_links),
    ("software_configs", HEAT + "/software_configs", "software_configs", heat_links),
]
#: (client attribute, URL listed, collection key) of lists of one request
UNPAGED = [
    ("availability_zones", COMPUTE + "/os-availability-zone", "availabilityZoneInfo"),
    ("software_deployments", HEAT + "/software_deployments", "software_deployments"),
]


@pytest.fixture
def paged(client, mock_cloud):
    """Mock a manager's list as two pages (ids a, b then c); the ids."""

    def mock(attr, url, key, links):
        client.software_configs.page_size = 2
        mock_cloud.mock.get(
            url,
            [
                {
                    "json": dict({key: [{"id": "a"}, {"id": "b"}]}, **links(url, key, "b")),
                    "headers": {"x-openstack-request-id": "req-1"},
                },
                {
                    "json": dict({key: [{"id": "c"}]}, **links(url, key, None)),
                    "headers": {"x-openstack-request-id": "req-2"},
                },
            ],
        )
        return ["a", "b", "c"]

    return mock


def reads(mock_cloud, url):
    return [r for r in mock_cloud.mock.request_history if r.url.split("?")[0] == url]


@pytest.mark.parametrize(("attr", "url", "key", "links"), PAGED)
def test_list_reads_every_page_with_their_request_ids(
    client, mock_cloud, paged, attr, url, key, links
):
    ids = paged(attr, url, key, links)
    got = getattr(client, attr).list()
    assert isinstance(got, base.ListWithMeta)
    assert [r.id for r in got] == ids
    assert got.request_ids == ["req-1", "req-2"]
    assert [r.qs.get("marker") for r in reads(mock_cloud, url)] == [None, ["b"]]


@pytest.mark.parametrize(("attr", "url", "key", "links"), PAGED)
def test_iter_asks_for_a_page_one_page_ahead(client, mock_cloud, paged, attr, url, key, links):
    paged(attr, url, key, links)
    resources = getattr(client, attr).iter()
    assert isinstance(resources, Iterator)
    assert reads(mock_cloud, url) == []
    assert [next(resources).id, next(resources).id] == ["a", "b"]
    # the second page may be on its way (one ahead of the caller)
    assert len(reads(mock_cloud, url)) <= 2
    assert next(resources).id == "c"
    assert [r.qs.get("marker") for r in reads(mock_cloud, url)] == [None, ["b"]]
    assert list(resources) == []


USER_PROJECTS = IDENTITY + "/users/u1/projects"


def test_a_users_projects_list_reads_every_page_with_their_request_ids(client, mock_cloud, paged):
    ids = paged("users", USER_PROJECTS, "projects", keystone_links)
    got = client.users.projects("u1")
    assert isinstance(got, base.ListWithMeta)
    assert [p.id for p in got] == ids
    assert got.request_ids == ["req-1", "req-2"]
    assert [r.qs.get("marker") for r in reads(mock_cloud, USER_PROJECTS)] == [None, ["b"]]


def test_a_users_projects_iter_asks_for_a_page_one_page_ahead(client, mock_cloud, paged):
    paged("users", USER_PROJECTS, "projects", keystone_links)
    projects = client.users.iter_projects("u1")
    assert isinstance(projects, Iterator)
    assert reads(mock_cloud, USER_PROJECTS) == []
    assert [next(projects).id, next(projects).id] == ["a", "b"]
    # the second page may be on its way (one ahead of the caller)
    assert len(reads(mock_cloud, USER_PROJECTS)) <= 2
    assert next(projects).id == "c"
    assert [r.qs.get("marker") for r in reads(mock_cloud, USER_PROJECTS)] == [None, ["b"]]
    assert list(projects) == []


@pytest.mark.parametrize(("attr", "url", "key"), UNPAGED)
def test_a_list_of_one_request_is_a_list_or_read_lazily(client, mock_cloud, attr, url, key):
    mock_cloud.mock.get(
        url,
        json={key: [{"id": "a"}, {"id": "b"}]},
        headers={"x-openstack-request-id": "req-1"},
    )
    got = getattr(client, attr).list()
    assert isinstance(got, base.ListWithMeta)
    assert ([r.id for r in got], got.request_ids) == (["a", "b"], ["req-1"])
    resources = getattr(client, attr).iter()
    assert isinstance(resources, Iterator)
    # the second page may be on its way (one ahead of the caller)
    assert len(reads(mock_cloud, url)) <= 2
    assert [r.id for r in resources] == ["a", "b"]
    assert len(reads(mock_cloud, url)) == 2


def test_list_and_iter_send_the_same_filters(client, mock_cloud):
    mock_cloud.mock.get(IDENTITY + "/role_assignments", json={"role_assignments": []})
    mock_cloud.mock.get(IMAGE + "/v2/images", json={"images": []})
    for method in ("list", "iter"):
        list(getattr(client.role_assignments, method)(user="u1", project="p1", effective=True))
        assert mock_cloud.mock.last_request.qs == {
            "user.id": ["u1"],
            "scope.project.id": ["p1"],
            "effective": ["true"],
        }
        list(getattr(client.images, method)(limit=5, name="cirros", status="active"))
        assert mock_cloud.mock.last_request.qs == {
            "limit": ["5"],
            "name": ["cirros"],
            "status": ["active"],
        }


def test_an_image_list_by_ids_gives_the_request_id_of_each_chunk(client, mock_cloud, monkeypatch):
    monkeypatch.setattr(images, "ID_CHUNK", 1)
    mock_cloud.mock.get(
        IMAGE + "/v2/images",
        [
            {"json": {"images": [{"id": "a"}]}, "headers": {"x-openstack-request-id": "req-1"}},
            {"json": {"images": [{"id": "b"}]}, "headers": {"x-openstack-request-id": "req-2"}},
        ],
    )
    got = client.images.list(ids=["a", "b"])
    assert isinstance(got, base.ListWithMeta)
    assert ([i.id for i in got], got.request_ids) == (["a", "b"], ["req-1", "req-2"])


def test_role_assignment_filters_are_checked_before_iterating(client, mock_cloud):
    with pytest.raises(exceptions.ValidationError):
        client.role_assignments.iter(project="p", domain="d")
    assert mock_cloud.mock.request_history == []
