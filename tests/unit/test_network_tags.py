"""Neutron's ``standard-attr-tag`` through the commands, in-process
against requests-mock (Neutron api-ref samples): ``--tag``/``--no-tag`` on
create and set, ``--tag``/``--all-tag`` on unset (one ``PUT …/tags``
after the other changes, none when the tags would not change, as OSC's
osc_lib.utils.tags does), the ``--tags`` … list filters as Neutron's
comma-separated query parameters, and the usage errors of OSC's exclusive
tag options (exit 2, before any request)."""

import copy
import json
import urllib.parse

import pytest

from .fakes import NETWORK
from .fakes import load_fixture

V2 = NETWORK + "/v2.0"

#: (command noun words, collection path, sample folder, sample prefix, member key)
KINDS = {
    "network": (["network"], "networks", "networks", "network", "network"),
    "subnet": (["subnet"], "subnets", "subnets", "subnet", "subnet"),
    "port": (["port"], "ports", "ports", "port", "port"),
    "router": (["router"], "routers", "routers", "router", "router"),
    "security group": (
        ["security", "group"], "security-groups", "security-groups", "security-group",
        "security_group",
    ),
    "floating ip": (["floating", "ip"], "floatingips", "floatingips", "floatingip", "floatingip"),
}  # fmt: skip


def sample(folder, name):
    return copy.deepcopy(load_fixture("network", folder, name))


def cloud_requests(mock):
    return [r for r in mock.request_history if "/identity/" not in r.url]


def query(request):
    """The request's query, values as sent (requests-mock lowercases ``qs``)."""
    return urllib.parse.parse_qs(urllib.parse.urlsplit(request.url).query)


def shown(mock_cloud, kind, tags):
    """Register ``kind``'s sample found by name ``tagged`` (or, for a
    floating IP, by its address) holding ``tags``: its body."""
    words, path, folder, prefix, member = KINDS[kind]
    body = sample(folder, "%s-show-response.json" % prefix)[member]
    body["tags"] = list(tags)
    if kind == "floating ip":
        lookup = "?floating_ip_address=" + body["floating_ip_address"]
    else:
        body["name"] = "tagged"
        lookup = "?name=tagged"
    mock_cloud.mock.get(V2 + "/" + path + lookup, json={path.replace("-", "_"): [body]})
    return body


def ref(kind, body):
    return body["floating_ip_address"] if kind == "floating ip" else "tagged"


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_set_adds_tags_after_the_update_in_one_put(cli, mock_cloud, kind):
    m = mock_cloud.mock
    words, path, *_ = KINDS[kind]
    body = shown(mock_cloud, kind, ["blue"])
    tags = m.put(V2 + "/%s/%s/tags" % (path, body["id"]), json={"tags": ["blue", "red"]})
    code, out, err = cli(*words, "set", ref(kind, body), "--tag", "red", "--tag", "blue")
    assert code == 0, err
    assert tags.call_count == 1
    assert sorted(tags.last_request.json()["tags"]) == ["blue", "red"]
    # the name lookup, then the tags: no update of the resource itself
    assert [r.method for r in cloud_requests(m)] == ["GET", "PUT"]


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_set_no_tag_replaces_and_unchanged_tags_send_nothing(cli, mock_cloud, kind):
    m = mock_cloud.mock
    words, path, *_ = KINDS[kind]
    body = shown(mock_cloud, kind, ["blue", "green"])
    tags = m.put(V2 + "/%s/%s/tags" % (path, body["id"]), json={"tags": ["red"]})
    code, out, err = cli(*words, "set", ref(kind, body), "--no-tag", "--tag", "red")
    assert code == 0, err
    assert tags.last_request.json() == {"tags": ["red"]}
    code, out, err = cli(*words, "set", ref(kind, body), "--tag", "green")
    assert code == 0, err
    assert tags.call_count == 1


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_unset_removes_given_tags_or_all(cli, mock_cloud, kind):
    m = mock_cloud.mock
    words, path, *_ = KINDS[kind]
    body = shown(mock_cloud, kind, ["blue", "green"])
    tags = m.put(V2 + "/%s/%s/tags" % (path, body["id"]), json={"tags": []})
    code, out, err = cli(*words, "unset", ref(kind, body), "--tag", "blue", "--tag", "absent")
    assert code == 0, err
    assert tags.last_request.json() == {"tags": ["green"]}
    code, out, err = cli(*words, "unset", ref(kind, body), "--all-tag")
    assert code == 0, err
    assert tags.last_request.json() == {"tags": []}
    code, out, err = cli(*words, "unset", ref(kind, body), "--tag", "absent")
    assert code == 0, err
    assert tags.call_count == 2


CREATES = {
    "network": ["network", "create", "web"],
    "router": ["router", "create", "r1"],
    "security group": ["security", "group", "create", "web"],
    "floating ip": ["floating", "ip", "create", "public"],
}


@pytest.mark.parametrize("kind", sorted(CREATES))
def test_create_puts_the_tags_after_the_post_and_shows_them(cli, mock_cloud, kind):
    m = mock_cloud.mock
    words, path, folder, prefix, member = KINDS[kind]
    created = sample(folder, "%s-create-response.json" % prefix)
    created[member]["tags"] = []
    if kind == "floating ip":
        public = sample("networks", "network-show-response.json")["network"]
        m.get(V2 + "/networks?name=public", json={"networks": [public]})
    post = m.post(V2 + "/" + path, status_code=201, json=created)
    tags = m.put(V2 + "/%s/%s/tags" % (path, created[member]["id"]), json={"tags": ["b", "a"]})
    code, out, err = cli(*CREATES[kind], "--tag", "b", "--tag", "a", "-f", "json")
    assert code == 0, err
    assert "tags" not in post.last_request.json()[member]
    assert tags.last_request.json() == {"tags": ["b", "a"]}
    assert json.loads(out)["tags"] == ["b", "a"]
    methods = [r.method for r in cloud_requests(m)]
    assert methods[-2:] == ["POST", "PUT"]
    assert "GET" not in methods[methods.index("POST") :]


def test_create_without_tags_sends_no_put(cli, mock_cloud):
    m = mock_cloud.mock
    created = sample("routers", "router-create-response.json")
    m.post(V2 + "/routers", status_code=201, json=created)
    code, out, err = cli("router", "create", "r1")
    assert code == 0, err
    assert [r.method for r in cloud_requests(m)] == ["POST"]


def test_subnet_and_port_create_tag_the_new_resource(cli, mock_cloud):
    m = mock_cloud.mock
    network = sample("networks", "network-show-response.json")["network"]
    m.get(V2 + "/networks?name=web", json={"networks": [network]})
    subnet = sample("subnets", "subnet-create-response.json")
    port = sample("ports", "port-create-response.json")
    m.post(V2 + "/subnets", status_code=201, json=subnet)
    m.post(V2 + "/ports", status_code=201, json=port)
    subnet_tags = m.put(V2 + "/subnets/%s/tags" % subnet["subnet"]["id"], json={"tags": ["s"]})
    port_tags = m.put(V2 + "/ports/%s/tags" % port["port"]["id"], json={"tags": ["p"]})
    code, out, err = cli(
        "subnet", "create", "s1", "--network", "web", "--subnet-range", "10.1.0.0/24",
        "--tag", "s",
    )  # fmt: skip
    assert code == 0, err
    assert subnet_tags.last_request.json() == {"tags": ["s"]}
    m.get(V2 + "/extensions/tag-ports-during-bulk-creation", status_code=404)
    code, out, err = cli("port", "create", "p1", "--network", "web", "--tag", "p")
    assert code == 0, err
    assert port_tags.last_request.json() == {"tags": ["p"]}


def test_port_create_puts_tags_in_the_post_where_neutron_takes_them(cli, mock_cloud):
    m = mock_cloud.mock
    network = sample("networks", "network-show-response.json")["network"]
    m.get(V2 + "/networks?name=web", json={"networks": [network]})
    extension = sample("extensions", "extension-show-response.json")
    extension["extension"].update(alias="tag-ports-during-bulk-creation")
    m.get(V2 + "/extensions/tag-ports-during-bulk-creation", json=extension)
    port = sample("ports", "port-create-response.json")
    port["port"]["tags"] = ["p", "q"]
    post = m.post(V2 + "/ports", status_code=201, json=port)
    tags = m.put(V2 + "/ports/%s/tags" % port["port"]["id"], json={"tags": []})
    code, out, err = cli("port", "create", "p1", "--network", "web", "--tag", "p", "--tag", "q")
    assert code == 0, err
    assert post.last_request.json()["port"]["tags"] == ["p", "q"]
    assert not tags.called
    code, out, err = cli("port", "create", "p2", "--network", "web")
    assert code == 0, err
    assert "tags" not in post.last_request.json()["port"]
    assert m.request_history[-1].method == "POST"


LISTS = {
    "network": (["network", "list"], "networks"),
    "subnet": (["subnet", "list"], "subnets"),
    "port": (["port", "list"], "ports"),
    "router": (["router", "list"], "routers"),
    "security group": (["security", "group", "list"], "security-groups"),
    "floating ip": (["floating", "ip", "list"], "floatingips"),
}


@pytest.mark.parametrize("kind", sorted(LISTS))
def test_list_tag_filters_are_neutrons_query(cli, mock_cloud, kind):
    m = mock_cloud.mock
    argv, path = LISTS[kind]
    listed = m.get(V2 + "/" + path, json={path.replace("-", "_"): []})
    code, out, err = cli(
        *argv, "--tags", "Red,blue", "--any-tags", "a", "--not-tags", "b,c",
        "--not-any-tags", "d",
    )  # fmt: skip
    assert code == 0, err
    assert listed.call_count == 1
    sent = query(listed.last_request)
    assert sent["tags"] == ["Red,blue"]
    assert sent["tags-any"] == ["a"]
    assert sent["not-tags"] == ["b,c"]
    assert sent["not-tags-any"] == ["d"]


@pytest.mark.parametrize("kind", ["network", "subnet", "port", "router", "floating ip"])
def test_list_long_shows_tags(cli, mock_cloud, kind):
    argv, path = LISTS[kind]
    words, _, folder, prefix, member = KINDS[kind]
    body = sample(folder, "%s-show-response.json" % prefix)[member]
    body["tags"] = ["blue"]
    mock_cloud.mock.get(V2 + "/" + path, json={path: [body]})
    code, out, err = cli(*argv, "--long", "-f", "json")
    assert code == 0, err
    assert json.loads(out)[0]["Tags"] == ["blue"]


def test_network_list_sends_no_tag_filter_unless_asked(cli, mock_cloud):
    listed = mock_cloud.mock.get(V2 + "/networks", json={"networks": []})
    code, out, err = cli("network", "list")
    assert code == 0, err
    assert not {"tags", "tags-any", "not-tags", "not-tags-any"} & set(query(listed.last_request))


@pytest.mark.parametrize(
    "argv, message",
    [
        (["network", "create", "n", "--tag", "a", "--no-tag"],
         "argument --no-tag: not allowed with argument --tag"),
        (["router", "create", "r", "--no-tag", "--tag", "a"],
         "argument --tag: not allowed with argument --no-tag"),
        (["port", "unset", "p", "--tag", "a", "--all-tag"],
         "argument --all-tag: not allowed with argument --tag"),
        (["security", "group", "unset", "g", "--all-tag", "--tag", "a"],
         "argument --tag: not allowed with argument --all-tag"),
        (["subnet", "unset", "s"], "Nothing to unset: give --gateway"),
        (["security", "group", "unset", "g"], "Nothing to unset: give --tag or --all-tag."),
        (["floating", "ip", "unset", "172.24.4.228"], "Nothing to unset: give --port"),
    ],
)  # fmt: skip
def test_tag_usage_errors_before_any_request(cli, mock_cloud, argv, message):
    code, out, err = cli(*argv)
    assert code == 2, (out, err)
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert not cloud_requests(mock_cloud.mock)


def test_manager_update_tags_reads_an_id_and_keeps_order(client, mock_cloud):
    m = mock_cloud.mock
    body = sample("routers", "router-show-response.json")["router"]
    body["tags"] = ["x", "y"]
    m.get(V2 + "/routers/" + body["id"], json={"router": body})
    tags = m.put(V2 + "/routers/%s/tags" % body["id"], json={"tags": ["y", "z"]})
    assert client.routers.update_tags(body["id"], add=["z", "y"], remove=["x"]) == ["y", "z"]
    assert tags.last_request.json() == {"tags": ["y", "z"]}
    router = client.routers.get(body["id"])
    assert client.routers.update_tags(router, add=["y"]) == ["x", "y"]
    assert tags.call_count == 1


def test_manager_list_joins_tag_filters(client, mock_cloud):
    listed = mock_cloud.mock.get(V2 + "/ports", json={"ports": []})
    client.ports.list(tags=["a", "b"], not_any_tags="c")
    sent = query(listed.last_request)
    assert sent == {"tags": ["a,b"], "not-tags-any": ["c"]}
