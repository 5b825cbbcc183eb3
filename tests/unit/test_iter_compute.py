"""Nova's attachment, migration, extension and usage managers (and
Neutron's extensions): ``list()`` is novaclient's list of every page (a
ListWithMeta with each page's request id), ``iter()`` the same resources
read lazily, one page ahead of the caller."""

from collections.abc import Iterator

import pytest

from occli import base

from .fakes import COMPUTE
from .fakes import NETWORK

SERVER = "9128d044-7b61-403e-b766-7547076ff6c1"

#: (client attribute, positional arguments, URL listed, collection key):
#: Nova and Neutron name the next page in ``<collection>_links`` with
#: ``rel: next``.
MANAGERS = [
    (
        "volume_attachments",
        (SERVER,),
        COMPUTE + "/servers/%s/os-volume_attachments" % SERVER,
        "volumeAttachments",
    ),
    (
        "interface_attachments",
        (SERVER,),
        COMPUTE + "/servers/%s/os-interface" % SERVER,
        "interfaceAttachments",
    ),
    ("server_migrations", (SERVER,), COMPUTE + "/servers/%s/migrations" % SERVER, "migrations"),
    ("migrations", (), COMPUTE + "/os-migrations", "migrations"),
    ("extensions", (), COMPUTE + "/extensions", "extensions"),
    ("network_extensions", (), NETWORK + "/v2.0/extensions", "extensions"),
]


def two_pages(mock_cloud, url, key):
    """Mock ``url`` as two pages (ids a, b then c) and return the ids."""
    mock_cloud.mock.get(
        url,
        [
            {
                "json": {
                    key: [{"id": "a"}, {"id": "b"}],
                    key + "_links": [{"rel": "next", "href": url + "?marker=b"}],
                },
                "headers": {"x-openstack-request-id": "req-1"},
            },
            {
                "json": {key: [{"id": "c"}], key + "_links": []},
                "headers": {"x-openstack-request-id": "req-2"},
            },
        ],
    )
    return ["a", "b", "c"]


def reads(mock_cloud, url):
    return [r for r in mock_cloud.mock.request_history if r.url.split("?")[0] == url]


@pytest.mark.parametrize(("attr", "args", "url", "key"), MANAGERS)
def test_list_reads_every_page_with_their_request_ids(client, mock_cloud, attr, args, url, key):
    ids = two_pages(mock_cloud, url, key)
    got = getattr(client, attr).list(*args)
    assert isinstance(got, base.ListWithMeta)
    assert [r.id for r in got] == ids
    assert got.request_ids == ["req-1", "req-2"]
    assert [r.qs.get("marker") for r in reads(mock_cloud, url)] == [None, ["b"]]


@pytest.mark.parametrize(("attr", "args", "url", "key"), MANAGERS)
def test_iter_asks_for_a_page_one_page_ahead(client, mock_cloud, attr, args, url, key):
    two_pages(mock_cloud, url, key)
    resources = getattr(client, attr).iter(*args)
    assert isinstance(resources, Iterator)
    assert reads(mock_cloud, url) == []
    assert [next(resources).id, next(resources).id] == ["a", "b"]
    # the second page may be on its way (one ahead of the caller)
    assert len(reads(mock_cloud, url)) <= 2
    assert next(resources).id == "c"
    assert [r.qs.get("marker") for r in reads(mock_cloud, url)] == [None, ["b"]]
    assert list(resources) == []


def test_list_and_iter_send_the_same_query(client, mock_cloud):
    attachments = COMPUTE + "/servers/%s/os-volume_attachments" % SERVER
    mock_cloud.mock.get(attachments, json={"volumeAttachments": []})
    mock_cloud.mock.get(COMPUTE + "/os-migrations", json={"migrations": []})
    client.volume_attachments.list(SERVER, limit=2, offset=4)
    list(client.volume_attachments.iter(SERVER, limit=2, offset=4))
    client.migrations.list("compute1", "error", migration_type="resize")
    list(client.migrations.iter("compute1", "error", migration_type="resize"))
    listed, iterated = reads(mock_cloud, attachments)
    assert listed.qs == iterated.qs == {"limit": ["2"], "offset": ["4"]}
    listed, iterated = reads(mock_cloud, COMPUTE + "/os-migrations")
    assert listed.qs == iterated.qs
    assert listed.qs == {"host": ["compute1"], "status": ["error"], "migration_type": ["resize"]}


USAGE = COMPUTE + "/os-simple-tenant-usage"


def usage_pages(mock_cloud):
    """Two pages of usages (nova pages the servers): project p on both."""
    mock_cloud.mock.get(
        USAGE,
        [
            {
                "json": {
                    "tenant_usages": [{"tenant_id": "p", "total_hours": 1.0}],
                    "tenant_usages_links": [{"rel": "next", "href": USAGE + "?marker=s1"}],
                },
                "headers": {"x-openstack-request-id": "req-1"},
            },
            {
                "json": {
                    "tenant_usages": [
                        {"tenant_id": "p", "total_hours": 0.5},
                        {"tenant_id": "q", "total_hours": 2.0},
                    ]
                },
                "headers": {"x-openstack-request-id": "req-2"},
            },
        ],
    )


def test_usage_list_has_every_pages_request_id(client, mock_cloud):
    usage_pages(mock_cloud)
    got = client.usage.list()
    assert isinstance(got, base.ListWithMeta)
    assert [(u.tenant_id, u.total_hours) for u in got] == [("p", 1.5), ("q", 2.0)]
    assert got.request_ids == ["req-1", "req-2"]


def test_usage_iter_yields_each_project_summed_over_the_pages(client, mock_cloud):
    usage_pages(mock_cloud)
    usages = client.usage.iter()
    assert isinstance(usages, Iterator)
    assert [(u.tenant_id, u.total_hours) for u in usages] == [("p", 1.5), ("q", 2.0)]
