"""Neutron and Cinder managers: ``list()`` is novaclient's list of every
page (a ListWithMeta with each page's request id), ``iter()`` the same
resources read lazily, one page ahead of the caller."""

from collections.abc import Iterator

import pytest

from occli import base

from .fakes import NETWORK
from .fakes import VOLUME

V2 = NETWORK + "/v2.0"

#: (client attribute, URL listed, collection key): both services name the
#: next page in ``<collection>_links`` with ``rel: next``.
MANAGERS = [
    ("networks", V2 + "/networks", "networks"),
    ("subnets", V2 + "/subnets", "subnets"),
    ("ports", V2 + "/ports", "ports"),
    ("security_groups", V2 + "/security-groups", "security_groups"),
    ("security_group_rules", V2 + "/security-group-rules", "security_group_rules"),
    ("floating_ips", V2 + "/floatingips", "floatingips"),
    ("volumes", VOLUME + "/volumes/detail", "volumes"),
    ("volume_snapshots", VOLUME + "/snapshots/detail", "snapshots"),
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


@pytest.mark.parametrize(("attr", "url", "key"), MANAGERS)
def test_list_reads_every_page_with_their_request_ids(client, mock_cloud, attr, url, key):
    ids = two_pages(mock_cloud, url, key)
    got = getattr(client, attr).list()
    assert isinstance(got, base.ListWithMeta)
    assert [r.id for r in got] == ids
    assert got.request_ids == ["req-1", "req-2"]
    assert [r.qs.get("marker") for r in reads(mock_cloud, url)] == [None, ["b"]]


@pytest.mark.parametrize(("attr", "url", "key"), MANAGERS)
def test_iter_asks_for_a_page_one_page_ahead(client, mock_cloud, attr, url, key):
    two_pages(mock_cloud, url, key)
    resources = getattr(client, attr).iter()
    assert isinstance(resources, Iterator)
    assert reads(mock_cloud, url) == []
    assert [next(resources).id, next(resources).id] == ["a", "b"]
    # the second page may be on its way (one ahead of the caller)
    assert len(reads(mock_cloud, url)) <= 2
    assert next(resources).id == "c"
    assert [r.qs.get("marker") for r in reads(mock_cloud, url)] == [None, ["b"]]
    assert list(resources) == []


def test_list_and_iter_send_the_same_filters(client, mock_cloud):
    mock_cloud.mock.get(V2 + "/ports", json={"ports": []})
    mock_cloud.mock.get(VOLUME + "/snapshots/detail", json={"snapshots": []})
    for method in ("list", "iter"):
        list(getattr(client.ports, method)(server="srv-1", network="net-1", fields=["id"]))
        assert mock_cloud.mock.last_request.qs == {
            "device_id": ["srv-1"],
            "network_id": ["net-1"],
            "fields": ["id"],
        }
        list(getattr(client.volume_snapshots, method)(all_projects=True, volume="vol-1"))
        assert mock_cloud.mock.last_request.qs == {"all_tenants": ["1"], "volume_id": ["vol-1"]}
