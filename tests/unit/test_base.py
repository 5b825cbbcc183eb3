"""Resource and Manager: pagination, name-or-id lookup, request ids."""

import inspect

import pytest

from occli import base
from occli import exceptions

from .fakes import COMPUTE
from .fakes import IMAGE
from .fakes import requests_to


def server(i, name=None):
    return {"id": "id-%d" % i, "name": name or "vm-%d" % i}


def page(items, next_marker=None):
    body = {"servers": items}
    if next_marker:
        body["servers_links"] = [
            {"rel": "next", "href": COMPUTE + "/servers/detail?limit=2&marker=%s" % next_marker}
        ]
    return body


class Things(base.Manager):
    service_type = "compute"

    def list(self, limit=None):
        return self._list("/servers/detail", "servers", limit=limit)

    def get(self, thing):
        return self._get("/servers/%s" % base.getid(thing), "server")


@pytest.fixture
def things(client):
    return Things(client)


def test_list_follows_next_links_and_is_lazy(things, mock_cloud):
    m = mock_cloud.mock
    m.get(
        COMPUTE + "/servers/detail",
        [{"json": page([server(1), server(2)], "id-2")}, {"json": page([server(3)])}],
    )
    gen = things.list()
    assert not requests_to(m, "GET", "/servers/detail")
    assert [t.id for t in gen] == ["id-1", "id-2", "id-3"]
    sent = requests_to(m, "GET", "/servers/detail")
    assert len(sent) == 2
    assert sent[1].qs == {"marker": ["id-2"]}


def test_list_limit_caps_total(things, mock_cloud):
    m = mock_cloud.mock
    m.get(
        COMPUTE + "/servers/detail",
        [
            {"json": page([server(1), server(2)], "id-2")},
            {"json": page([server(3), server(4)], "id-4")},
        ],
    )
    assert [t.id for t in things.list(limit=3)] == ["id-1", "id-2", "id-3"]
    sent = requests_to(m, "GET", "/servers/detail")
    assert sent[0].qs["limit"] == ["3"]
    assert sent[1].qs["limit"] == ["1"]


def test_pages_with_a_limit_are_lists_asked_for_one_at_a_time(things, mock_cloud):
    m = mock_cloud.mock
    m.get(
        COMPUTE + "/servers/detail",
        [
            {"json": page([server(1), server(2)], "id-2")},
            {"json": page([server(3), server(4)], "id-4")},
            {"json": page([])},
        ],
    )
    pages = things._pages("/servers/detail", "servers", limit=3)
    assert [t.id for t in next(pages)] == ["id-1", "id-2"]
    assert len(requests_to(m, "GET", "/servers/detail")) == 1
    assert [t.id for t in next(pages)] == ["id-3"]  # the limit
    assert list(pages) == []
    assert len(requests_to(m, "GET", "/servers/detail")) == 2


def test_list_stops_on_repeated_marker(things, mock_cloud):
    mock_cloud.mock.get(COMPUTE + "/servers/detail", json=page([server(1)], "id-1"))
    assert len(list(things.list())) == 2  # one repeat, then stop


def test_resource_behaviour(things, mock_cloud):
    mock_cloud.mock.get(
        COMPUTE + "/servers/id-1",
        [
            {"json": {"server": server(1)}, "headers": {"x-openstack-request-id": "req-a"}},
            {
                "json": {"server": server(1, "renamed")},
                "headers": {"x-openstack-request-id": "req-b"},
            },
        ],
    )
    thing = things.get("id-1")
    assert thing.name == "vm-1" and thing["name"] == "vm-1"
    assert thing.request_ids == ["req-a"]
    assert thing.to_dict() == server(1)
    assert repr(thing) == "<Resource id='id-1', name='vm-1'>"
    with pytest.raises(AttributeError):
        _ = thing.nonexistent
    assert len(requests_to(mock_cloud.mock, "GET", "/servers/id-1")) == 1
    thing.get()
    assert thing.name == "renamed" and thing.request_ids == ["req-b"]
    assert thing == base.Resource(things, server(1, "other"))
    assert base.getid(thing) == "id-1" and base.getid("x") == "x"


def test_find_resource_id_then_name_then_ambiguous(things, mock_cloud):
    m = mock_cloud.mock
    nf = {"status_code": 404, "json": {"itemNotFound": {"code": 404, "message": "nope"}}}
    m.get(COMPUTE + "/servers/vm-2", **nf)
    m.get(COMPUTE + "/servers/twin", **nf)
    m.get(COMPUTE + "/servers/ghost", **nf)
    m.get(
        COMPUTE + "/servers/detail",
        json=page([server(1), server(2), server(3, "twin"), server(4, "twin")]),
    )
    assert things.find_resource("vm-2").id == "id-2"
    with pytest.raises(exceptions.NoUniqueMatch) as err:
        things.find_resource("twin")
    assert "id-3" in str(err.value) and "id-4" in str(err.value)
    assert "use the ID" in str(err.value)
    with pytest.raises(exceptions.NotFound, match="ghost"):
        things.find_resource("ghost")


def test_image_list_follows_glance_next(client, mock_cloud):
    m = mock_cloud.mock
    m.get(
        IMAGE + "/v2/images",
        [
            {"json": {"images": [{"id": "a", "name": "a"}], "next": "/v2/images?marker=a"}},
            {"json": {"images": [{"id": "b", "name": "b"}]}},
        ],
    )
    assert [i.id for i in client.images.list()] == ["a", "b"]
    sent = requests_to(m, "GET", "/v2/images")
    assert "OpenStack-API-Version" not in sent[0].headers
    assert sent[1].qs["marker"] == ["a"]


def test_non_json_success_body_is_a_clear_error(things, mock_cloud):
    mock_cloud.mock.get(COMPUTE + "/servers/bad", text="<html>oops</html>")
    with pytest.raises(exceptions.ClientException, match="not JSON"):
        things.get("bad")


def test_find_and_find_all_match_attributes(things, mock_cloud):
    mock_cloud.mock.get(
        COMPUTE + "/servers/detail", json=page([server(1), server(2, "twin"), server(3, "twin")])
    )
    assert [t.id for t in things.find_all(name="twin")] == ["id-2", "id-3"]
    assert things.find_all(name="nobody") == []
    assert things.find(name="vm-1").id == "id-1"
    assert things.find(id="id-3", name="twin").id == "id-3"
    with pytest.raises(exceptions.NotFound, match="name=nobody"):
        things.find(name="nobody")
    with pytest.raises(exceptions.NoUniqueMatch) as err:
        things.find(name="twin")
    assert "id-2" in str(err.value) and "use the ID" in str(err.value)


def test_resource_equality_and_hash_by_id(things):
    a = base.Resource(things, {"id": "x", "name": "a"})
    b = base.Resource(things, {"id": "x", "name": "b"})
    c = base.Resource(things, {"id": "y", "name": "a"})
    assert a == b and a != c and len({a, b, c}) == 2
    assert a != "x"


def test_base_knows_nothing_of_a_particular_service():
    source = inspect.getsource(base).replace("x-compute-request-id", "")
    assert "compute" not in source
