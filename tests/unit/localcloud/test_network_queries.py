"""Neutron's list queries on the local Neutron: equality filters on any
attribute (repeated values: any of them), ``fields=``, ``sort_key``/
``sort_dir``, ``limit``/``marker``/``page_reverse`` with
``<collection>_links``, and their 400s."""

import urllib.parse

import pytest

from tests.unit.localcloud.network_harness import error


@pytest.fixture
def nets(neutron):
    made = [
        neutron.create("networks", "network", {"name": name, "admin_state_up": name != "c"})
        for name in ("c", "a", "b")
    ]
    return neutron, made


def _names(result):
    return [n["name"] for n in result.json()["networks"]]


def test_filters(nets):
    neutron, made = nets
    assert _names(neutron.get("/networks?name=a")) == ["a"]
    assert sorted(_names(neutron.get("/networks?name=a&name=b"))) == ["a", "b"]
    assert _names(neutron.get("/networks?admin_state_up=false")) == ["c"]
    assert _names(neutron.get("/networks?admin_state_up=False")) == ["c"]
    assert _names(neutron.get("/networks?router:external=true")) == ["public"]
    assert _names(neutron.get("/networks?id=" + made[1]["id"])) == ["a"]
    assert _names(neutron.get("/networks?name=nope")) == []
    shared = neutron.get("/networks?shared=true&name=private&name=a")
    assert _names(shared) == ["private"]
    mine = neutron.get("/networks?project_id=" + neutron.project_id("demo"))
    assert sorted(_names(mine)) == ["a", "b", "c"]
    assert sorted(_names(neutron.get("/networks?tenant_id=" + neutron.project_id("demo")))) == [
        "a",
        "b",
        "c",
    ]


def test_unknown_filter(nets):
    neutron, _ = nets
    result = neutron.get("/networks?colour=red")
    assert result.status == 400
    assert error(result) == ("HTTPBadRequest", "['colour'] is invalid attribute for filtering")


def test_fields(nets):
    neutron, _ = nets
    result = neutron.get("/networks?fields=id&fields=name&name=a")
    (only,) = result.json()["networks"]
    assert set(only) == {"id", "name"}
    assert set(neutron.get("/networks?fields=nope&name=a").json()["networks"][0]) == set()
    one = neutron.get("/networks/%s?fields=name&fields=shared" % only["id"]).json()
    assert one == {"network": {"name": "a", "shared": False}}


def test_sorting(nets):
    neutron, _ = nets
    up = neutron.get("/networks?sort_key=name&sort_dir=asc")
    assert _names(up) == ["a", "b", "c", "private", "public"]
    down = neutron.get(
        "/networks?sort_key=admin_state_up&sort_dir=asc&sort_key=name&sort_dir=desc"
    )
    assert _names(down) == ["c", "public", "private", "b", "a"]


@pytest.mark.parametrize(
    "query,message",
    [
        ("sort_key=name", "The number of sort_keys and sort_dirs must be same"),
        ("sort_key=subnets&sort_dir=asc", "['subnets'] is invalid attribute for sort_keys"),
        (
            "sort_key=name&sort_dir=up",
            "['up'] is invalid value for sort_dirs, valid value is 'asc' and 'desc'",
        ),
        ("limit=-1", "Bad limit request: Limit must be an integer 0 or greater and not '-1'."),
        ("limit=x", "Bad limit request: Limit must be an integer 0 or greater and not 'x'."),
    ],
)
def test_bad_queries(nets, query, message):
    neutron, _ = nets
    result = neutron.get("/networks?" + query)
    assert result.status == 400
    assert error(result)[1] == message


def _link(links, rel):
    found = [link["href"] for link in links if link["rel"] == rel]
    return found[0] if found else None


def _follow(neutron, href):
    parts = urllib.parse.urlsplit(href)
    assert parts.path == "/network/v2.0/networks"
    return neutron.get("/networks?" + parts.query)


def test_pagination(nets):
    neutron, _ = nets
    ordered = sorted(n["id"] for n in neutron.get("/networks").json()["networks"])
    first = neutron.get("/networks?limit=2")
    body = first.json()
    assert [n["id"] for n in body["networks"]] == ordered[:2]
    links = body["networks_links"]
    assert {link["rel"] for link in links} == {"next", "previous"}
    query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(_link(links, "next")).query))
    assert query == {"limit": "2", "marker": ordered[1]}
    second = _follow(neutron, _link(links, "next")).json()
    assert [n["id"] for n in second["networks"]] == ordered[2:4]
    third = _follow(neutron, _link(second["networks_links"], "next")).json()
    assert [n["id"] for n in third["networks"]] == ordered[4:]
    # a short last page has no next link
    assert _link(third["networks_links"], "next") is None
    back = _follow(neutron, _link(third["networks_links"], "previous")).json()
    assert [n["id"] for n in back["networks"]] == ordered[2:4]
    assert "page_reverse=True" in _link(third["networks_links"], "previous")
    # no limit: no links
    assert "networks_links" not in neutron.get("/networks").json()


def test_sorted_pages(nets):
    neutron, _ = nets
    page = neutron.get("/networks?limit=2&sort_key=name&sort_dir=desc").json()
    assert _names_of(page) == ["public", "private"]
    nxt = _follow(neutron, _link(page["networks_links"], "next")).json()
    assert _names_of(nxt) == ["c", "b"]


def _names_of(body):
    return [n["name"] for n in body["networks"]]


def test_unknown_marker(nets):
    neutron, made = nets
    result = neutron.get("/networks?limit=1&marker=4fd44f30-0000-4a4b-a2b0-0e6c2dbd2a4b")
    assert result.status == 404
    assert error(result)[0] == "NetworkNotFound"
    # another project's network is no marker either
    alt = neutron.get("/networks?limit=1&marker=" + made[0]["id"], user="alt")
    assert alt.status == 404


@pytest.mark.parametrize(
    "collection,key",
    [
        ("subnets", "subnets"),
        ("ports", "ports"),
        ("security-groups", "security_groups"),
        ("security-group-rules", "security_group_rules"),
        ("floatingips", "floatingips"),
    ],
)
def test_every_collection_pages_and_filters(neutron, collection, key):
    neutron.create("ports", "port", {"network_id": "4fd44f30-2920-4a4b-a2b0-0e6c2dbd2a4b"})
    neutron.create("floatingips", "floatingip", {"floating_network_id": neutron.public()})
    everything = neutron.get("/" + collection).json()[key]
    assert everything
    page = neutron.get("/%s?limit=1&fields=id" % collection).json()
    assert len(page[key]) == 1 and set(page[key][0]) == {"id"}
    assert key + "_links" in page
    one = everything[0]["id"]
    assert [i["id"] for i in neutron.get("/%s?id=%s" % (collection, one)).json()[key]] == [one]
    assert neutron.get("/%s?bogus=1" % collection).status == 400


def test_port_fixed_ip_filter(neutron):
    port = neutron.create("ports", "port", {"network_id": "4fd44f30-2920-4a4b-a2b0-0e6c2dbd2a4b"})
    address = port["fixed_ips"][0]["ip_address"]
    found = neutron.get("/ports?fixed_ips=ip_address%3D" + address).json()["ports"]
    assert [p["id"] for p in found] == [port["id"]]
    assert neutron.get("/ports?fixed_ips=ip_address%3D10.0.99.99").json()["ports"] == []
