"""``occli server …`` commands in-process against a requests-mock cloud."""

import ast
import base64
import copy
import io
import json
import sys
from urllib.parse import parse_qs
from urllib.parse import urlparse

import pytest

from .fakes import COMPUTE
from .fakes import IMAGE
from .fakes import NETWORK
from .fakes import load_fixture
from .fakes import requests_to

SID = "0e44cc9c-e052-415d-afbf-469b0d384170"
SID2 = "9d7a7e35-9d93-4bc5-8b0a-51e7ad8ec2b2"
IMAGE_ID = "70a599e0-31e7-49b7-b260-868f441e862b"
IMAGE2_ID = "155d900f-4e14-4e4c-a73d-069cbf4541e6"
NOT_FOUND = {"itemNotFound": {"code": 404, "message": "Not found"}}


def sample(*parts):
    return load_fixture("compute", *parts)


def server_body(**changes):
    """The 2.96 server-get sample with ``changes`` (``task_state`` maps)."""
    server = copy.deepcopy(sample("servers", "v2.96", "server-get-resp.json")["server"])
    if "task_state" in changes:
        server["OS-EXT-STS:task_state"] = changes.pop("task_state")
    server.update(changes)
    return {"server": server}


def query(request):
    return parse_qs(urlparse(request.url).query)


@pytest.fixture
def cloud(mock_cloud):
    """Images, flavors and one server (SID, named new-server-test)."""
    m = mock_cloud.mock
    cirros = {"id": IMAGE_ID, "name": "cirros", "status": "active"}
    m.get(IMAGE + "/v2/images/" + IMAGE_ID, json=cirros)
    m.get(
        IMAGE + "/v2/images/cirros",
        status_code=404,
        json={"code": 404, "title": "Not Found", "message": "no"},
    )
    m.get(IMAGE + "/v2/images", json={"images": [cirros, {"id": IMAGE2_ID, "name": "fedora"}]})
    m.get(IMAGE + "/v2/images?name=cirros", json={"images": [cirros]})
    flavors = sample("flavors", "flavors-detail-resp.json")
    m.get(COMPUTE + "/flavors/detail", json=flavors)
    m.get(COMPUTE + "/flavors", json=flavors)
    for name in ("m1.tiny", "m1.small"):
        m.get(COMPUTE + "/flavors/" + name, status_code=404, json=NOT_FOUND)
    m.get(COMPUTE + "/flavors/1", json={"flavor": flavors["flavors"][0]})
    m.get(COMPUTE + "/servers/" + SID, json=server_body())
    return mock_cloud


def servers_sequence(cloud, *states, server_id=SID):
    """GET /servers/{id} answers these bodies in turn (the last repeats)."""
    responses = [
        {"status_code": 404, "json": NOT_FOUND} if s is None else {"json": s} for s in states
    ]
    return cloud.mock.get(COMPUTE + "/servers/" + server_id, responses)


def action(cloud, server_id=SID, **kwargs):
    kwargs.setdefault("status_code", 202)
    return cloud.mock.post(COMPUTE + "/servers/%s/action" % server_id, **kwargs)


# -- list -------------------------------------------------------------------


@pytest.fixture
def listing(cloud):
    body = sample("servers", "v2.96", "servers-details-resp.json")
    del body["servers_links"]
    second = copy.deepcopy(body["servers"][0])
    second.update(id=SID2, name="vol-backed", image="", addresses={}, status="SHUTOFF")
    second["OS-EXT-STS:power_state"] = 4
    body["servers"].append(second)
    cloud.mock.get(COMPUTE + "/servers/detail", json=body)
    return body


def test_list_default_columns_json(cli, listing, cloud):
    code, out, err = cli("server", "list", "-f", "json")
    assert code == 0, err
    rows = json.loads(out)
    first = listing["servers"][0]
    assert rows[0] == {
        "ID": first["id"],
        "Name": "new-server-test",
        "Status": "ACTIVE",
        # OSC's shape: {network: [address, …]}
        "Networks": {net: [a["addr"] for a in addrs] for net, addrs in first["addresses"].items()},
        "Image": "cirros",
        "Flavor": "m1.tiny",
    }
    assert rows[1]["Image"] == "N/A (booted from volume)"
    assert rows[1]["Networks"] == {}
    # image names: exactly one image list call, never one per server
    assert len(requests_to(cloud.mock, "GET", "/v2/images")) == 1


def test_list_image_names_one_filtered_request_not_every_page(cli, listing, cloud):
    # many servers on two images; Glance has more images than one page
    first = listing["servers"][0]
    for i in range(5):
        extra = copy.deepcopy(first)
        extra.update(
            id="%08d-0000-4000-8000-000000000000" % i,
            name="web-%d" % i,
            image={"id": IMAGE2_ID if i % 2 else IMAGE_ID},
        )
        listing["servers"].append(extra)
    cloud.mock.get(COMPUTE + "/servers/detail", json=listing)
    cloud.mock.get(
        IMAGE + "/v2/images",
        json={"images": [{"id": "x", "name": "x"}], "next": "/v2/images?marker=x"},
    )
    cloud.mock.get(
        IMAGE + "/v2/images?id=in:%s,%s" % (IMAGE_ID, IMAGE2_ID),
        json={"images": [{"id": IMAGE_ID, "name": "cirros"}, {"id": IMAGE2_ID, "name": "fedora"}]},
    )
    code, out, err = cli("server", "list", "-f", "json")
    assert code == 0, err
    names = {r["Name"]: r["Image"] for r in json.loads(out)}
    assert names["web-0"] == "cirros" and names["web-1"] == "fedora"
    (request,) = requests_to(cloud.mock, "GET", "/v2/images")
    assert query(request) == {"id": ["in:%s,%s" % (IMAGE_ID, IMAGE2_ID)], "limit": ["2"]}


def test_list_without_image_backed_servers_asks_glance_nothing(cli, cloud):
    body = {"servers": [dict(server_body()["server"], image="")]}
    cloud.mock.get(COMPUTE + "/servers/detail", json=body)
    code, out, err = cli("server", "list", "-f", "json")
    assert code == 0, err
    assert requests_to(cloud.mock, "GET", "/v2/images") == []


def test_list_table_renders_addresses(cli, listing):
    code, out, err = cli("server", "list")
    assert code == 0, err
    assert "private=192.168.1.30" in out
    assert "cirros" in out and "m1.tiny" in out


def test_list_long(cli, listing):
    code, out, err = cli("server", "list", "--long", "-f", "json")
    assert code == 0, err
    rows = json.loads(out)
    assert rows[0]["Task State"] is None
    assert rows[0]["Power State"] == 1  # Nova's number in JSON, as OSC's
    assert rows[1]["Power State"] == 4
    assert rows[0]["Availability Zone"] == "us-west"
    assert rows[0]["Host"] == listing["servers"][0].get("OS-EXT-SRV-ATTR:host")
    assert rows[0]["Properties"] == {"My Server Name": "Apache1"}


@pytest.mark.parametrize("fmt", ["value", "csv"])
def test_list_text_formats_give_oscs_python_reprs(cli, listing, fmt):
    # cliff's value and csv formatters print str(machine_readable()), as OSC
    code, out, err = cli(
        "server", "list", "--long", "-f", fmt, "-c", "Networks", "-c", "Properties"
    )
    assert code == 0, err
    line = out.splitlines()[-2 if fmt == "value" else 1]
    if fmt == "csv":
        import csv

        line = " ".join(next(csv.reader([line])))
    first = listing["servers"][0]
    networks = {net: [a["addr"] for a in addrs] for net, addrs in first["addresses"].items()}
    assert line == "%r %r" % (networks, {"My Server Name": "Apache1"})


def test_list_down_cell_records_at_2_69(cli, cloud):
    body = sample("servers", "v2.69", "servers-details-resp.json")
    cloud.mock.get(COMPUTE + "/servers/detail", json=body)
    code, out, err = cli("server", "list", "-f", "json")
    assert code == 0, err
    assert json.loads(out)[-1] == {
        "ID": body["servers"][-1]["id"],
        "Name": None,
        "Status": "UNKNOWN",
        "Networks": {},
        "Image": None,
        "Flavor": None,
    }


def test_list_image_lookup_failure_shows_ids(cli, listing, cloud):
    cloud.mock.get(IMAGE + "/v2/images", status_code=503, text="down")
    code, out, err = cli("server", "list", "-f", "json")
    assert code == 0, err
    assert json.loads(out)[0]["Image"] == IMAGE_ID


def test_list_before_2_47_names_flavors_with_one_call(cli, cloud):
    body = sample("servers", "servers-details-resp.json")
    del body["servers_links"]
    cloud.mock.get(COMPUTE + "/servers/detail", json=body)
    code, out, err = cli("--os-compute-api-version", "2.46", "server", "list", "-f", "json")
    assert code == 0, err
    assert json.loads(out)[0]["Flavor"] == "m1.tiny"
    assert len(requests_to(cloud.mock, "GET", "/flavors")) == 1


def test_list_before_2_47_stops_reading_flavor_pages_once_named(cli, cloud):
    body = sample("servers", "servers-details-resp.json")
    del body["servers_links"]
    cloud.mock.get(COMPUTE + "/servers/detail", json=body)
    page = sample("flavors", "flavors-detail-resp.json")
    page["flavors_links"] = [{"rel": "next", "href": COMPUTE + "/flavors?marker=9"}]
    cloud.mock.get(COMPUTE + "/flavors", json=page)
    code, out, err = cli("--os-compute-api-version", "2.46", "server", "list", "-f", "json")
    assert code == 0, err
    assert json.loads(out)[0]["Flavor"] == "m1.tiny"
    assert len(requests_to(cloud.mock, "GET", "/flavors")) == 1


def test_list_filters_sort_and_paging_options(cli, cloud):
    cloud.mock.get(COMPUTE + "/servers/detail", json={"servers": []})
    code, out, err = cli(
        "server",
        "list",
        "--name",
        "^web",
        "--status",
        "active",
        "--flavor",
        "m1.tiny",
        "--image",
        "cirros",
        "--host",
        "h1",
        "--all-projects",
        "--changes-since",
        "2024-01-01T00:00:00Z",
        "--sort",
        "display_name:asc",
        "--sort",
        "created_at",
        "--limit",
        "5",
        "--marker",
        SID,
        "-f",
        "json",
    )
    assert code == 0, err
    assert json.loads(out) == []
    sent = query(requests_to(cloud.mock, "GET", "/servers/detail")[-1])
    assert sent == {
        "name": ["^web"],
        "status": ["ACTIVE"],
        "flavor": ["1"],
        "image": [IMAGE_ID],
        "host": ["h1"],
        "all_tenants": ["true"],
        "changes-since": ["2024-01-01T00:00:00Z"],
        "sort_key": ["display_name", "created_at"],
        "sort_dir": ["asc", "desc"],
        "limit": ["5"],
        "marker": [SID],
    }


def test_list_all_pages_by_default(cli, cloud):
    page1 = sample("servers", "v2.96", "servers-details-resp.json")
    page2 = sample("servers", "v2.73", "servers-details-resp.json")
    marker = page1["servers"][-1]["id"]
    cloud.mock.get(COMPUTE + "/servers/detail", json=page1)
    cloud.mock.get(COMPUTE + "/servers/detail?marker=" + marker, json=page2)
    code, out, err = cli("server", "list", "--limit", "-1", "-f", "json")
    assert code == 0, err
    assert [r["ID"] for r in json.loads(out)] == [marker, page2["servers"][0]["id"]]


# -- list: requests and streaming ------------------------------------------


@pytest.mark.parametrize(
    "argv, image_requests",
    [
        ([], 1),
        (["-f", "json"], 1),
        (["-c", "image"], 1),
        (["-c", "ID", "--sort-column", "Image"], 1),
        (["-c", "ID", "-c", "Name"], 0),
        (["-f", "value", "-c", "ID"], 0),
        (["-n"], 0),
        (["--no-name-lookup", "-f", "json"], 0),
    ],
)
def test_list_asks_glance_only_for_a_shown_image_column(cli, listing, cloud, argv, image_requests):
    code, out, err = cli("server", "list", *argv)
    assert code == 0, err
    assert len(requests_to(cloud.mock, "GET", "/servers/detail")) == 1
    assert len(requests_to(cloud.mock, "GET", "/v2/images")) == image_requests
    if "--no-name-lookup" in argv:
        assert json.loads(out)[0]["Image"] == listing["servers"][0]["image"]["id"]


def paged_listing(cloud, pages):
    """/servers/detail answering ``pages`` (lists of server bodies) in
    turn, following markers; returns the mock of each page."""
    template = server_body()["server"]
    mocks = []
    marker = None
    for number, names in enumerate(pages):
        servers = [
            dict(copy.deepcopy(template), name=name, id="%08d-0000-4000-8000-%012d" % (number, i))
            for i, name in enumerate(names)
        ]
        body = {"servers": servers}
        if number < len(pages) - 1:
            body["servers_links"] = [
                {"rel": "next", "href": COMPUTE + "/servers/detail?marker=" + servers[-1]["id"]}
            ]
        url = COMPUTE + "/servers/detail" + ("?marker=" + marker if marker else "")
        mocks.append((url, body))
        marker = servers[-1]["id"]
    return mocks


class RecordingStream(io.StringIO):
    """A stream remembering how much of it was flushed."""

    flushed = 0

    def flush(self):
        self.flushed = len(self.getvalue())


@pytest.mark.parametrize("fmt", ["value", "csv", "json"])
def test_list_writes_each_page_before_asking_for_the_one_after_the_next(cli, cloud, fmt):
    from occli import shell

    app = shell.OcCLI()
    app.stdout, app.stderr = RecordingStream(), io.StringIO()
    seen = []
    names = [["a1", "a2"], ["b1", "b2"], ["c1"], ["d1"]]
    pages = paged_listing(cloud, names)
    for number, (url, body) in enumerate(pages):

        def answer(request, context, body=body, number=number):
            seen.append((number, app.stdout.getvalue(), app.stdout.flushed))
            return body

        cloud.mock.get(url, json=answer)
    code = app.run(["server", "list", "-f", fmt, "-c", "Name", "-c", "Image"])
    assert code == 0, app.stderr.getvalue()
    out = app.stdout.getvalue()
    assert [number for number, _, _ in seen] == [0, 1, 2, 3]
    for number, written, flushed in seen[2:]:
        # page N+2 is asked for once page N is written, and flushed (page
        # N+1 is asked for while page N is written: one page ahead)
        assert all(name in written for page in names[: number - 1] for name in page), written
        assert flushed == len(written)
        assert not any(name in written for page in names[number:] for name in page)
    if fmt == "json":
        assert [r["Name"] for r in json.loads(out)] == ["a1", "a2", "b1", "b2", "c1", "d1"]
        assert all(r["Image"] == "cirros" for r in json.loads(out))
    # image names: one Glance request, the image was known after page one
    assert len(requests_to(cloud.mock, "GET", "/v2/images")) == 1


@pytest.mark.parametrize(
    "argv", [["--sort", "name:up"], ["--sort", ":asc"], ["--limit", "-2"], ["--limit", "x"]]
)
def test_list_bad_options_are_usage_errors(cli, cloud, argv):
    code, out, err = cli("server", "list", *argv)
    assert code == 2
    assert cloud.mock.request_history == []


# -- show -------------------------------------------------------------------


def test_show_by_name_hides_links_and_formats(cli, cloud):
    cloud.mock.get(COMPUTE + "/servers/detail", json={"servers": [server_body()["server"]]})
    code, out, err = cli("server", "show", "new-server-test", "-f", "json")
    assert code == 0, err
    shown = json.loads(out)
    assert shown["id"] == SID
    assert "links" not in shown
    assert shown["image"] == "cirros (%s)" % IMAGE_ID  # as OSC's text
    assert shown["flavor"]["original_name"] == "m1.tiny"
    assert shown["properties"] == {"My Server Name": "Apache1"}
    assert shown["addresses"] == {"private": ["192.168.1.30"]}  # as OSC's
    # Nova's name filter answers the whole server; then its image's name
    [lookup, image] = api_requests(cloud)
    assert lookup.path.endswith("/servers/detail")
    assert query(lookup)["name"] == [r"^new\-server\-test$"]
    assert image.path.endswith("/v2/images/" + IMAGE_ID)


def api_requests(cloud):
    """Requests but authentication and the compute version discovery."""
    return [
        r
        for r in cloud.mock.request_history
        if not r.path.startswith("/identity") and not r.path.endswith(("/v2.1", "/v2.1/"))
    ]


def test_show_by_id_is_one_request_and_the_images(cli, cloud):
    code, out, err = cli("server", "show", SID, "-f", "json")
    assert code == 0, err
    assert json.loads(out)["id"] == SID
    [show, image] = api_requests(cloud)
    assert show.method == "GET" and show.path.endswith("/servers/" + SID)
    assert image.method == "GET" and image.path.endswith("/v2/images/" + IMAGE_ID)


def test_show_value_and_shell_give_oscs_python_reprs(cli, cloud):
    code, out, err = cli(
        "server",
        "show",
        SID,
        "-f",
        "value",
        "-c",
        "metadata",
        "-c",
        "security_groups",
        "-c",
        "flavor",
    )
    assert code == 0, err
    values = [ast.literal_eval(line) for line in out.splitlines()]
    assert {"My Server Name": "Apache1"} in values
    assert [{"name": "default"}] in values
    assert any(v.get("original_name") == "m1.tiny" for v in values if isinstance(v, dict))
    code, out, err = cli("server", "show", SID, "-f", "shell", "-c", "metadata", "-c", "name")
    assert code == 0, err
    assert "metadata=\"{'My Server Name': 'Apache1'}\"" in out.splitlines()
    assert 'name="new-server-test"' in out


def test_show_table_is_readable(cli, cloud):
    code, out, err = cli("server", "show", SID)
    assert code == 0, err
    assert "| image " in out and IMAGE_ID in out
    # OSC's DictColumn of openstacksdk's Flavor
    assert "disk='1', ephemeral='0', , id='m1.tiny', is_disabled=, is_public='True'" in out
    assert "name='default'" in out
    assert "private=192.168.1.30" in out
    assert "My Server Name='Apache1'" in out
    assert "http://openstack.example.com" not in out


def test_show_missing_is_one_line_404(cli, cloud):
    cloud.mock.get(COMPUTE + "/servers/detail", json={"servers": []})
    code, out, err = cli("server", "show", "nosuch")
    assert code == 1
    assert err.strip() == ("No server with a name or ID of 'nosuch' exists. (HTTP 404)")
    assert "Traceback" not in err


def test_show_ambiguous_name(cli, cloud):
    one = server_body()["server"]
    cloud.mock.get(COMPUTE + "/servers/detail", json={"servers": [one, dict(one, id=SID2)]})
    code, out, err = cli("server", "show", "new-server-test")
    assert code == 1
    assert SID in err and SID2 in err


# -- create -----------------------------------------------------------------


@pytest.fixture
def boot(cloud):
    """POST /servers → the create sample (server id f5dc…) + its GET."""
    created = sample("servers", "server-create-resp.json")
    new_id = created["server"]["id"]
    post = cloud.mock.post(COMPUTE + "/servers", status_code=202, json=created)
    cloud.mock.get(
        COMPUTE + "/servers/" + new_id,
        json=server_body(id=new_id, status="BUILD", task_state="scheduling"),
    )
    post.new_id = new_id
    return post


def create(cli, *extra):
    return cli("server", "create", "vm", "--image", "cirros", "--flavor", "m1.tiny", *extra)


def test_create_minimal_resolves_names_and_shows_admin_pass(cli, boot):
    code, out, err = create(cli, "-f", "json")
    assert code == 0, err
    assert boot.last_request.json() == {
        "server": {"name": "vm", "imageRef": IMAGE_ID, "flavorRef": "1", "networks": "auto"}
    }
    shown = json.loads(out)
    assert shown["adminPass"] == "6NpUwoz2QDRN"
    assert shown["id"] == boot.new_id
    assert shown["status"] == "BUILD"


RID = "r-3fhpjulh"


def reservation(cloud, *states):
    """POST /servers answers a reservation id; listing it answers ``states``
    (each a list of (suffix, status, task_state, fault)) in turn."""
    post = cloud.mock.post(COMPUTE + "/servers", status_code=202, json={"reservation_id": RID})
    pages = []
    for servers in states:
        page = []
        for index, status, task_state, fault in servers:
            body = server_body(
                id="0000000%d-e052-415d-afbf-469b0d384170" % index,
                name="vm-%d" % index,
                status=status,
                task_state=task_state,
            )["server"]
            if fault:
                body["fault"] = {"code": 500, "message": fault, "created": "2024-01-01T00:00:00Z"}
            page.append(body)
        pages.append({"json": {"servers": page}})
    listing = cloud.mock.get(COMPUTE + "/servers/detail?reservation_id=" + RID, pages)
    return post, listing


def test_create_every_option_request_body(cli, cloud, tmp_path):
    boot, _ = reservation(
        cloud, [(1, "BUILD", "scheduling", None), (2, "BUILD", "scheduling", None)]
    )
    # names resolve through Neutron, one request per kind; Nova gets ids
    neutron = NETWORK + "/v2.0/"
    cloud.mock.get(
        neutron + "networks?name=n1", json={"networks": [{"id": "net-1", "name": "n1"}]}
    )
    cloud.mock.get(neutron + "ports?name=p1", json={"ports": [{"id": "port-1", "name": "p1"}]})
    groups = [{"id": "sg-d", "name": "default"}, {"id": "sg-w", "name": "web"}]
    cloud.mock.get(neutron + "security-groups", json={"security_groups": groups})
    user_data = tmp_path / "cloud-init"
    user_data.write_bytes(b"#cloud-config\n")
    code, out, err = create(
        cli,
        "--key-name",
        "k",
        "--availability-zone",
        "az1",
        "--user-data",
        str(user_data),
        "--property",
        "role=web",
        "--property",
        "tier=",
        "--security-group",
        "default",
        "--security-group",
        "web",
        "--nic",
        "net-id=n1,v4-fixed-ip=10.0.0.5",
        "--nic",
        "port-id=p1",
        "--hint",
        "group=g1",
        "--hint",
        "same_host=a",
        "--hint",
        "same_host=b",
        "--config-drive",
        "true",
        "--disk-config",
        "manual",
        "--admin-pass",
        "pw",
        "--access-ipv4",
        "1.2.3.4",
        "--access-ipv6",
        "80fe::",
        "--min",
        "1",
        "--max",
        "2",
        "--description",
        "d",
        "--tag",
        "a",
        "--tag",
        "b",
        "--hostname",
        "vm-host",
        "-f",
        "json",
    )
    assert code == 0, err
    assert boot.last_request.json() == {
        "server": {
            "name": "vm",
            "imageRef": IMAGE_ID,
            "flavorRef": "1",
            "key_name": "k",
            "availability_zone": "az1",
            "user_data": base64.b64encode(b"#cloud-config\n").decode(),
            "metadata": {"role": "web", "tier": ""},
            "security_groups": [{"name": "sg-d"}, {"name": "sg-w"}],
            "networks": [{"uuid": "net-1", "fixed_ip": "10.0.0.5"}, {"port": "port-1"}],
            "config_drive": True,
            "OS-DCF:diskConfig": "MANUAL",
            "adminPass": "pw",
            "accessIPv4": "1.2.3.4",
            "accessIPv6": "80fe::",
            "min_count": 1,
            "max_count": 2,
            "description": "d",
            "tags": ["a", "b"],
            "hostname": "vm-host",
            "return_reservation_id": True,
        },
        "os:scheduler_hints": {"group": "g1", "same_host": ["a", "b"]},
    }


def test_create_boot_from_volume_swap_ephemeral(cli, boot):
    code, out, err = create(
        cli,
        "--boot-from-volume",
        "20",
        "--delete-on-termination",
        "--swap",
        "512",
        "--ephemeral",
        "size=2,format=ext4",
        "--ephemeral",
        "size=1",
    )
    assert code == 0, err
    body = boot.last_request.json()["server"]
    assert "imageRef" not in body
    blank = {
        "source_type": "blank",
        "destination_type": "local",
        "boot_index": -1,
        "delete_on_termination": True,
    }
    assert body["block_device_mapping_v2"] == [
        {
            "uuid": IMAGE_ID,
            "source_type": "image",
            "destination_type": "volume",
            "boot_index": 0,
            "volume_size": 20,
            "delete_on_termination": True,
        },
        dict(blank, guest_format="swap", volume_size=512),
        dict(blank, volume_size=2, guest_format="ext4"),
        dict(blank, volume_size=1),
    ]


def test_create_boot_from_volume_keeps_volume_by_default(cli, boot):
    code, out, err = create(cli, "--boot-from-volume", "1")
    assert code == 0, err
    (bdm,) = boot.last_request.json()["server"]["block_device_mapping_v2"]
    assert "delete_on_termination" not in bdm


def test_create_swap_with_image_keeps_the_image_boot_disk(cli, boot):
    code, out, err = create(cli, "--swap", "256")
    assert code == 0, err
    body = boot.last_request.json()["server"]
    assert body["imageRef"] == IMAGE_ID
    bdms = body["block_device_mapping_v2"]
    assert [(b["source_type"], b["destination_type"], b["boot_index"]) for b in bdms] == [
        ("image", "local", 0),
        ("blank", "local", -1),
    ]
    assert bdms[1]["guest_format"] == "swap"


def test_create_certificates_host_hypervisor(cli, boot):
    code, out, err = create(
        cli,
        "--trusted-image-cert",
        "c1",
        "--trusted-image-cert",
        "c2",
        "--host",
        "cmp1",
        "--hypervisor-hostname",
        "node1",
    )
    assert code == 0, err
    body = boot.last_request.json()["server"]
    assert body["trusted_image_certificates"] == ["c1", "c2"]
    assert (body["host"], body["hypervisor_hostname"]) == ("cmp1", "node1")


@pytest.mark.parametrize(
    "version, argv, needed",
    [
        (
            "2.51",
            ["--tag", "t"],
            "Server tags on create requires compute API version 2.52 or later (in use: 2.51)",
        ),
        (
            "2.62",
            ["--trusted-image-cert", "c"],
            "Trusted image certificates requires compute API version 2.63 or later (in use: 2.62)",
        ),
        (
            "2.73",
            ["--host", "h"],
            "A requested host requires compute API version 2.74 or later (in use: 2.73)",
        ),
        (
            "2.73",
            ["--hypervisor-hostname", "h"],
            "A requested hypervisor "
            "hostname requires compute API version 2.74 or later (in use: 2.73)",
        ),
        (
            "2.89",
            ["--hostname", "h"],
            "A server hostname requires compute API version 2.90 or later (in use: 2.89)",
        ),
    ],
)
def test_create_gates_name_the_version_before_any_request(cli, cloud, version, argv, needed):
    code, out, err = cli(
        "--os-compute-api-version",
        version,
        "server",
        "create",
        "vm",
        "--image",
        "cirros",
        "--flavor",
        "m1.tiny",
        *argv,
    )
    assert code == 1
    assert err.strip().startswith(needed)
    assert len(err.strip().splitlines()) == 1
    assert cloud.mock.request_history == []


def test_create_return_reservation_id(cli, cloud):
    post, listing = reservation(cloud)
    code, out, err = create(cli, "--return-reservation-id", "-f", "value")
    assert code == 0, err
    assert out == RID + "\n"
    assert post.last_request.json()["server"]["return_reservation_id"] is True
    assert listing.call_count == 0


def test_create_several_shows_them_all_without_waiting(cli, cloud):
    post, listing = reservation(
        cloud, [(2, "BUILD", "scheduling", None), (1, "BUILD", "scheduling", None)]
    )
    code, out, err = create(cli, "--min", "2", "--max", "2", "-f", "json")
    assert code == 0, err
    shown = json.loads(out)
    assert shown["reservation_id"] == RID
    assert [(s["name"], s["status"]) for s in shown["servers"]] == [
        ("vm-1", "BUILD"),
        ("vm-2", "BUILD"),
    ]
    assert listing.call_count == 1


def test_create_several_wait_for_every_server(cli, cloud):
    post, listing = reservation(
        cloud,
        [(1, "BUILD", "scheduling", None), (2, "BUILD", "scheduling", None)],
        [(1, "ACTIVE", None, None), (2, "BUILD", "spawning", None)],
        [(1, "ACTIVE", None, None), (2, "ACTIVE", None, None)],
    )
    code, out, err = create(cli, "--max", "2", "--wait", "--wait-interval", "0", "-f", "json")
    assert code == 0, err
    shown = json.loads(out)
    assert [(s["name"], s["status"]) for s in shown["servers"]] == [
        ("vm-1", "ACTIVE"),
        ("vm-2", "ACTIVE"),
    ]
    # one list request per poll, not one GET per server
    assert listing.call_count == 3
    assert requests_to(cloud.mock, "GET", "/servers/0000000") == []
    table = create(cli, "--max", "2")[1]
    assert "vm-1 (00000001-e052-415d-afbf-469b0d384170) ACTIVE" in table


def test_create_several_wait_one_in_error_exits_1(cli, cloud):
    reservation(
        cloud,
        [(1, "BUILD", "scheduling", None), (2, "BUILD", "scheduling", None)],
        [(1, "ACTIVE", None, None), (2, "ERROR", None, "No valid host was found.")],
    )
    code, out, err = create(cli, "--min", "2", "--max", "2", "--wait", "--wait-interval", "0")
    assert code == 1
    assert out == ""
    assert err.strip() == (
        "1 of 2 servers of reservation %s failed: vm-2 "
        "(00000002-e052-415d-afbf-469b0d384170) is in ERROR state: No valid "
        "host was found." % RID
    )


@pytest.mark.parametrize("nic", ["auto", "none"])
def test_create_nic_auto_none(cli, boot, nic):
    code, out, err = create(cli, "--nic", nic)
    assert code == 0, err
    assert boot.last_request.json()["server"]["networks"] == nic


def test_create_nic_v6(cli, boot, mock_cloud):
    net_id = "3cb9bc59-5699-4588-a4b1-b87f96708bc6"
    code, out, err = create(cli, "--nic", "net-id=%s,v6-fixed-ip=fd00::5" % net_id)
    assert code == 0, err
    assert boot.last_request.json()["server"]["networks"] == [
        {"uuid": net_id, "fixed_ip": "fd00::5"}
    ]
    # an id goes to Nova as it is (Nova checks it): no network lookup
    assert not requests_to(mock_cloud.mock, "GET", "/network/")


def test_create_block_devices(cli, boot):
    code, out, err = cli(
        "server",
        "create",
        "vm",
        "--flavor",
        "m1.tiny",
        "--block-device",
        "source=volume,dest=volume,id=vol-1,boot-index=0,"
        "delete-on-termination=false,device=vda,bus=virtio,type=disk",
        "--block-device",
        "source=blank,dest=local,size=2,format=ext4,boot-index=-1",
    )
    assert code == 0, err
    body = boot.last_request.json()["server"]
    assert "imageRef" not in body
    assert body["block_device_mapping_v2"] == [
        {
            "source_type": "volume",
            "destination_type": "volume",
            "uuid": "vol-1",
            "boot_index": 0,
            "delete_on_termination": False,
            "device_name": "vda",
            "disk_bus": "virtio",
            "device_type": "disk",
        },
        {
            "source_type": "blank",
            "destination_type": "local",
            "volume_size": 2,
            "guest_format": "ext4",
            "boot_index": -1,
        },
    ]


def test_create_block_device_with_image_adds_image_entry(cli, boot):
    code, out, err = create(cli, "--block-device", "source=blank,dest=local,size=1")
    assert code == 0, err
    bdms = boot.last_request.json()["server"]["block_device_mapping_v2"]
    assert bdms[0] == {
        "uuid": IMAGE_ID,
        "source_type": "image",
        "destination_type": "local",
        "boot_index": 0,
        "delete_on_termination": True,
    }
    assert bdms[1] == {"source_type": "blank", "destination_type": "local", "volume_size": 1}


def test_create_legacy_block_device_mapping(cli, boot):
    code, out, err = cli(
        "server", "create", "vm", "--flavor", "m1.tiny", "--block-device-mapping", "vda=vol-1:::1"
    )
    assert code == 0, err
    body = boot.last_request.json()["server"]
    assert body["block_device_mapping"] == [
        {"device_name": "vda", "volume_id": "vol-1", "delete_on_termination": True}
    ]


def test_create_files_use_2_56(cli, boot, tmp_path):
    motd = tmp_path / "motd"
    motd.write_text("hello\n")
    code, out, err = create(cli, "--file", "/etc/motd=%s" % motd)
    assert code == 0, err
    body = boot.last_request.json()["server"]
    assert body["personality"] == [
        {"path": "/etc/motd", "contents": base64.b64encode(b"hello\n").decode()}
    ]
    assert boot.last_request.headers["OpenStack-API-Version"] == "compute 2.56"


def test_create_files_with_pinned_2_57_is_a_clear_error(cli, boot, tmp_path):
    src = tmp_path / "f"
    src.write_text("x")
    code, out, err = cli(
        "--os-compute-api-version",
        "2.57",
        "server",
        "create",
        "vm",
        "--image",
        "cirros",
        "--flavor",
        "m1.tiny",
        "--file",
        "/f=%s" % src,
    )
    assert code == 1
    assert (
        "Personality files (--file) requires compute API version between "
        "2.1 and 2.56 (in use: 2.57)" in err
    )
    assert boot.call_count == 0


def test_create_description_needs_2_19(cli, boot):
    code, out, err = cli(
        "--os-compute-api-version",
        "2.18",
        "server",
        "create",
        "vm",
        "--image",
        "cirros",
        "--flavor",
        "m1.tiny",
        "--description",
        "d",
    )
    assert code == 1
    assert "requires compute API version 2.19 or later (in use: 2.18)" in err
    assert boot.call_count == 0


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--min", "3", "--max", "2"], "--min (3) must not be greater than --max (2)."),
        (
            ["--property", "k=" + "v" * 256],
            "Metadata value '%s…' (--property) is longer than 255 characters." % ("v" * 40),
        ),
        (
            ["--block-device-mapping", "vda=v1:volume:big"],
            "Block device mapping vda=v1:volume:big (--block-device-mapping): "
            "size 'big' is not an integer.",
        ),
        (
            ["--block-device-mapping", "vda=v1:volume:1:maybe"],
            "Block device mapping vda=v1:volume:1:maybe (--block-device-mapping): "
            "delete expects true or false, got 'maybe'.",
        ),
    ],
)
def test_create_arguments_the_manager_refuses_exit_2(cli, cloud, argv, message):
    code, out, err = create(cli, *argv)
    assert (code, out, err.strip()) == (2, "", message)
    assert cloud.mock.request_history == []


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--nic", "auto", "--nic", "net-id=n1"], "--nic auto cannot be combined"),
        (["--file", "/f=/nonexistent/file"], "cannot read"),
        (["--user-data", "/nonexistent/file"], "cannot read"),
        (["--delete-on-termination"], "only applies to --boot-from-volume"),
        (
            [
                "--boot-from-volume",
                "1",
                "--block-device",
                "source=volume,dest=volume,id=v,boot-index=0",
            ],
            "cannot be combined with another boot disk",
        ),
    ],
)
def test_create_usage_errors_before_any_request(cli, cloud, argv, message):
    code, out, err = create(cli, *argv)
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert cloud.mock.request_history == []


def test_create_boot_from_volume_needs_an_image(cli, cloud):
    code, out, err = cli(
        "server", "create", "vm", "--flavor", "m1.tiny", "--boot-from-volume", "10"
    )
    assert code == 2
    assert err.strip() == ("--boot-from-volume makes the boot volume from --image; give --image.")
    assert cloud.mock.request_history == []


def test_create_without_boot_source(cli, cloud):
    code, out, err = cli("server", "create", "vm", "--flavor", "m1.tiny")
    assert code == 2
    assert "--image" in err
    assert cloud.mock.request_history == []


def test_create_too_many_or_too_big_files(cli, cloud, tmp_path):
    small = tmp_path / "small"
    small.write_text("x")
    many = []
    for i in range(6):
        many += ["--file", "/f%d=%s" % (i, small)]
    code, out, err = create(cli, *many)
    assert code == 2
    assert err.strip() == ("At most 5 personality files (--file) can be injected, got 6.")
    big = tmp_path / "big"
    big.write_bytes(b"x" * (10 * 1024 + 1))
    code, out, err = create(cli, "--file", "/big=%s" % big)
    assert code == 2 and "larger than 10240 bytes" in err
    assert cloud.mock.request_history == []


@pytest.mark.parametrize(
    "argv",
    [
        ["--nic", "net-id=n1,bogus=1"],
        ["--nic", "v4-fixed-ip=10.0.0.1"],
        ["--nic", "net-id=n1,port-id=p1"],
        ["--nic", "net-id=n1,v4-fixed-ip=1.1.1.1,v6-fixed-ip=::1"],
        ["--nic", "net-id="],
        ["--property", "novalue"],
        ["--hint", "=v"],
        ["--file", "nodest"],
        ["--block-device", "source=volume,dest=volume"],
        ["--block-device", "source=tape,id=x"],
        ["--block-device", "source=blank,dest=local,size=big"],
        ["--block-device", "source=blank,unknown=1"],
        ["--block-device-mapping", "vda"],
        ["--config-drive", "maybe"],
        ["--disk-config", "sometimes"],
        ["--min", "0"],
        ["--boot-from-volume", "0"],
        ["--boot-from-volume", "big"],
        ["--swap", "0"],
        ["--ephemeral", "size=x"],
        ["--ephemeral", "format=ext4"],
        ["--ephemeral", "size=1,bogus=2"],
    ],
)
def test_create_malformed_options_exit_2(cli, cloud, argv):
    code, out, err = create(cli, *argv)
    assert code == 2, err
    assert cloud.mock.request_history == []


def test_create_wait_until_active_json_stays_parseable(cli, boot, cloud, monkeypatch):
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    servers_sequence(
        cloud,
        server_body(id=boot.new_id, status="BUILD", task_state="scheduling", progress=0),
        server_body(id=boot.new_id, status="BUILD", task_state="spawning", progress=40),
        server_body(id=boot.new_id, status="ACTIVE", task_state="powering-on"),
        server_body(id=boot.new_id, status="ACTIVE", task_state=None),
        server_id=boot.new_id,
    )
    code, out, err = create(cli, "--wait", "--wait-interval", "0", "-f", "json")
    assert code == 0, err
    shown = json.loads(out)
    assert shown["status"] == "ACTIVE"
    assert shown["adminPass"] == "6NpUwoz2QDRN"
    assert "BUILD 40% (spawning)" in err
    assert len(requests_to(cloud.mock, "GET", "/servers/" + boot.new_id)) == 4


def test_create_wait_error_exits_1_with_fault(cli, boot, cloud):
    fault = {"code": 500, "created": "2024-01-01T00:00:00Z", "message": "No valid host was found."}
    servers_sequence(
        cloud,
        server_body(id=boot.new_id, status="BUILD", task_state="scheduling"),
        server_body(id=boot.new_id, status="ERROR", task_state=None, fault=fault),
        server_id=boot.new_id,
    )
    code, out, err = create(cli, "--wait", "--wait-interval", "0")
    assert code == 1
    assert "No valid host was found." in err
    assert "is in ERROR state" in err
    assert out == ""


def test_create_wait_timeout_exits_1(cli, boot):
    code, out, err = create(cli, "--wait", "--wait-timeout", "0", "--wait-interval", "0")
    assert code == 1
    assert "Timed out after 0s" in err
    assert "BUILD" in err


def test_admin_pass_never_in_debug_log(cli, boot, cloud):
    resp = sample("servers", "server-create-resp.json")
    resp["server"]["adminPass"] = "MyAdminSecret"
    cloud.mock.post(COMPUTE + "/servers", status_code=202, json=resp)
    code, out, err = cli(
        "--debug",
        "server",
        "create",
        "vm",
        "--image",
        "cirros",
        "--flavor",
        "m1.tiny",
        "--admin-pass",
        "MyAdminSecret",
    )
    assert code == 0, err
    assert "adminPass" in err  # the request body was logged …
    assert "MyAdminSecret" not in err  # … with the secret masked
    assert "MyAdminSecret" in out  # the user still sees it once


# -- multi-server actions ---------------------------------------------------


@pytest.fixture
def two_servers(cloud):
    cloud.mock.get(COMPUTE + "/servers/" + SID2, json=server_body(id=SID2, name="second"))
    return cloud


def test_stop_partial_failure_reports_each_and_exits_1(cli, two_servers):
    ok = action(two_servers, SID)
    action(
        two_servers,
        SID2,
        status_code=409,
        json={"conflictingRequest": {"code": 409, "message": "Instance %s is locked" % SID2}},
        headers={"x-openstack-request-id": "req-42"},
    )
    two_servers.mock.get(COMPUTE + "/servers/detail", json={"servers": []})
    code, out, err = cli("server", "stop", SID2, SID, "ghost")
    assert code == 1
    lines = err.strip().splitlines()
    assert lines == [
        "Failed to stop server %s: Instance %s is locked (HTTP 409) "
        "(Request-ID: req-42)" % (SID2, SID2),
        "Failed to stop server ghost: No server with a name or ID of 'ghost' exists. (HTTP 404)",
    ]
    assert ok.last_request.json() == {"os-stop": None}
    assert out == ""


def test_stop_all_ok_exits_0(cli, two_servers):
    action(two_servers, SID)
    action(two_servers, SID2)
    code, out, err = cli("server", "stop", SID, SID2)
    assert (code, out, err) == (0, "", "")


@pytest.mark.parametrize(
    "verb, body, status",
    [
        ("start", {"os-start": None}, "ACTIVE"),
        ("stop", {"os-stop": None}, "SHUTOFF"),
        ("pause", {"pause": None}, "PAUSED"),
        ("unpause", {"unpause": None}, "ACTIVE"),
        ("suspend", {"suspend": None}, "SUSPENDED"),
        ("resume", {"resume": None}, "ACTIVE"),
    ],
)
def test_simple_actions_with_wait(cli, cloud, verb, body, status):
    post = action(cloud)
    servers_sequence(
        cloud,
        server_body(),  # the lookup
        server_body(task_state="busy"),
        server_body(status=status, task_state=None),
    )
    code, out, err = cli("server", verb, SID, "--wait", "--wait-interval", "0")
    assert code == 0, err
    assert post.last_request.json() == body


def test_action_wait_settles_in_wrong_status(cli, cloud):
    action(cloud)
    servers_sequence(cloud, server_body(), server_body(status="ACTIVE"))
    code, out, err = cli("server", "stop", SID, "--wait", "--wait-interval", "0")
    assert code == 1
    assert err.strip() == (
        "Failed to stop server %s: Server new-server-test (%s) is ACTIVE, "
        "expected SHUTOFF." % (SID, SID)
    )


def test_reboot_hard_wait(cli, cloud):
    post = action(cloud)
    servers_sequence(
        cloud,
        server_body(),
        server_body(status="HARD_REBOOT", task_state="rebooting_hard"),
        server_body(),
    )
    code, out, err = cli("server", "reboot", "--hard", "--wait", "--wait-interval", "0", SID)
    assert code == 0, err
    assert post.last_request.json() == {"reboot": {"type": "HARD"}}


def test_reboot_soft_without_wait(cli, cloud):
    post = action(cloud)
    code, out, err = cli("server", "reboot", SID)
    assert code == 0, err
    assert post.last_request.json() == {"reboot": {"type": "SOFT"}}


def test_lock_with_reason_and_unlock(cli, cloud):
    post = action(cloud)
    code, out, err = cli("server", "lock", "--reason", "maintenance", SID)
    assert code == 0, err
    assert post.last_request.json() == {"lock": {"locked_reason": "maintenance"}}
    code, out, err = cli("server", "unlock", SID)
    assert code == 0, err
    assert post.last_request.json() == {"unlock": None}


def test_lock_reason_needs_2_73(cli, cloud):
    post = action(cloud)
    code, out, err = cli(
        "--os-compute-api-version", "2.72", "server", "lock", "--reason", "x", SID
    )
    assert code == 1
    assert "2.73" in err and post.call_count == 0


def test_delete_wait_until_404(cli, cloud):
    delete = cloud.mock.delete(COMPUTE + "/servers/" + SID, status_code=204)
    servers_sequence(cloud, server_body(), server_body(task_state="deleting"), None)
    code, out, err = cli("server", "delete", SID, "--wait", "--wait-interval", "0")
    assert (code, err) == (0, "")
    assert delete.call_count == 1


def test_delete_several_one_missing(cli, two_servers):
    two_servers.mock.delete(COMPUTE + "/servers/" + SID, status_code=204)
    two_servers.mock.get(COMPUTE + "/servers/" + SID2, status_code=404, json=NOT_FOUND)
    two_servers.mock.get(COMPUTE + "/servers/detail", json={"servers": []})
    code, out, err = cli("server", "delete", SID, SID2)
    assert code == 1
    assert err.strip() == (
        "Failed to delete server %s: No server with a name "
        "or ID of '%s' exists. (HTTP 404)" % (SID2, SID2)
    )


# -- set / unset ------------------------------------------------------------


def test_set_name_description_properties(cli, cloud):
    put = cloud.mock.put(COMPUTE + "/servers/" + SID, json=server_body())
    meta = cloud.mock.post(COMPUTE + "/servers/%s/metadata" % SID, json={"metadata": {"a": "1"}})
    code, out, err = cli(
        "server", "set", SID, "--name", "n", "--description", "d", "--property", "a=1"
    )
    assert (code, out, err) == (0, "", "")
    assert put.last_request.json() == {"server": {"name": "n", "description": "d"}}
    assert meta.last_request.json() == {"metadata": {"a": "1"}}


def test_set_only_properties_does_not_put(cli, cloud):
    put = cloud.mock.put(COMPUTE + "/servers/" + SID, json=server_body())
    cloud.mock.post(COMPUTE + "/servers/%s/metadata" % SID, json={"metadata": {"a": "1"}})
    code, out, err = cli("server", "set", SID, "--property", "a=1")
    assert code == 0, err
    assert put.call_count == 0


def test_set_nothing_is_an_error(cli, cloud):
    code, out, err = cli("server", "set", SID)
    assert code == 2 and "Nothing to set" in err
    assert cloud.mock.request_history == []


def test_set_hostname(cli, cloud):
    put = cloud.mock.put(COMPUTE + "/servers/" + SID, json=server_body())
    code, out, err = cli("server", "set", SID, "--hostname", "web-1")
    assert (code, out, err) == (0, "", "")
    assert put.last_request.json() == {"server": {"hostname": "web-1"}}


@pytest.mark.parametrize(
    "version, argv, needed",
    [
        ("2.89", ["set", SID, "--hostname", "h"], "2.90"),
        ("2.18", ["set", SID, "--description", "d"], "2.19"),
        ("2.18", ["unset", SID, "--description"], "2.19"),
    ],
)
def test_set_unset_gates_before_any_request(cli, cloud, version, argv, needed):
    code, out, err = cli("--os-compute-api-version", version, "server", *argv)
    assert code == 1
    assert "requires compute API version %s or later (in use: %s)" % (needed, version) in err
    assert cloud.mock.request_history == []


def test_a_pinned_version_is_advised_to_change_not_to_pin(cli, cloud):
    code, out, err = cli(
        "--os-compute-api-version", "2.10", "server", "set", "vm1", "--description", "x"
    )
    assert code == 1
    assert err.strip() == (
        "A server description requires compute API version 2.19 or later "
        "(in use: 2.10); change --os-compute-api-version."
    )
    assert cloud.mock.request_history == []


def test_set_too_long_property_exits_2_before_any_request(cli, cloud):
    code, out, err = cli("server", "set", "vm1", "--property", "k" * 256 + "=v")
    assert code == 2
    assert err.strip() == (
        "Metadata key '%s…' (--property) is longer than 255 characters." % ("k" * 40)
    )
    assert cloud.mock.request_history == []


def test_unset_description_sends_null(cli, cloud):
    put = cloud.mock.put(COMPUTE + "/servers/" + SID, json=server_body())
    delete = cloud.mock.delete(COMPUTE + "/servers/%s/metadata/a" % SID, status_code=204)
    code, out, err = cli("server", "unset", SID, "--description", "--property", "a")
    assert (code, out, err) == (0, "", "")
    assert put.last_request.json() == {"server": {"description": None}}
    assert delete.call_count == 1


def test_unset_nothing_is_an_error(cli, cloud):
    code, out, err = cli("server", "unset", SID)
    assert code == 2 and "Nothing to unset" in err
    assert cloud.mock.request_history == []


def test_unset_properties(cli, cloud):
    first = cloud.mock.delete(COMPUTE + "/servers/%s/metadata/a" % SID, status_code=204)
    second = cloud.mock.delete(COMPUTE + "/servers/%s/metadata/b%%20c" % SID, status_code=204)
    code, out, err = cli("server", "unset", SID, "--property", "a", "--property", "b c")
    assert code == 0, err
    assert first.call_count == second.call_count == 1


def test_unset_missing_key_is_404(cli, cloud):
    cloud.mock.delete(
        COMPUTE + "/servers/%s/metadata/a" % SID,
        status_code=404,
        json={"itemNotFound": {"code": 404, "message": "Metadata item was not found"}},
    )
    code, out, err = cli("server", "unset", SID, "--property", "a")
    assert code == 1
    assert err.strip() == "Metadata item was not found (HTTP 404)"


# -- rebuild / resize / console ----------------------------------------------


def test_rebuild_wait_shows_new_admin_pass(cli, cloud):
    resp = sample("servers", "v2.75", "server-action-rebuild-resp.json")
    resp["server"]["id"] = SID
    post = action(cloud, json=resp)
    servers_sequence(
        cloud,
        server_body(),
        server_body(status="REBUILD", task_state="rebuilding"),
        server_body(name="foobar"),
    )
    code, out, err = cli(
        "server",
        "rebuild",
        SID,
        "--image",
        "cirros",
        "--name",
        "foobar",
        "--admin-pass",
        "seekr3t",
        "--description",
        "d",
        "--wait",
        "--wait-interval",
        "0",
        "-f",
        "json",
    )
    assert code == 0, err
    assert post.last_request.json() == {
        "rebuild": {
            "imageRef": IMAGE_ID,
            "name": "foobar",
            "adminPass": "seekr3t",
            "description": "d",
        }
    }
    shown = json.loads(out)
    assert shown["name"] == "foobar" and shown["status"] == "ACTIVE"
    assert shown["adminPass"] == resp["server"]["adminPass"]


def test_resize_wait_for_verify(cli, cloud):
    post = action(cloud)
    servers_sequence(
        cloud,
        server_body(),
        server_body(status="RESIZE", task_state="resize_prep"),
        server_body(status="VERIFY_RESIZE", task_state=None),
    )
    code, out, err = cli(
        "server", "resize", SID, "--flavor", "m1.tiny", "--wait", "--wait-interval", "0"
    )
    assert (code, err) == (0, "")
    assert post.last_request.json() == {"resize": {"flavorRef": "1"}}


def test_resize_that_ends_active_fails_the_wait(cli, cloud):
    action(cloud)
    servers_sequence(
        cloud,
        server_body(),
        server_body(status="RESIZE", task_state="resize_prep"),
        server_body(status="ACTIVE", task_state=None),
    )
    code, out, err = cli(
        "server", "resize", SID, "--flavor", "m1.tiny", "--wait", "--wait-interval", "0"
    )
    assert code == 1
    assert "is ACTIVE, expected VERIFY_RESIZE" in err


def test_resize_confirm_waits_through_verify_resize(cli, cloud):
    post = action(cloud, status_code=204)
    servers_sequence(
        cloud,
        server_body(status="VERIFY_RESIZE"),
        server_body(status="VERIFY_RESIZE"),
        server_body(),
    )
    code, out, err = cli("server", "resize", "confirm", SID, "--wait", "--wait-interval", "0")
    assert (code, err) == (0, "")
    assert post.last_request.json() == {"confirmResize": None}


def test_resize_revert(cli, cloud):
    post = action(cloud)
    code, out, err = cli("server", "resize", "revert", SID)
    assert (code, err) == (0, "")
    assert post.last_request.json() == {"revertResize": None}


def test_resize_confirm_not_resized_is_reported(cli, cloud):
    action(
        cloud,
        status_code=400,
        json={"badRequest": {"code": 400, "message": "Instance has not been resized."}},
    )
    code, out, err = cli("server", "resize", "confirm", SID)
    assert code == 1
    assert err.strip() == (
        "Failed to confirm the resize of server %s: "
        "Instance has not been resized. (HTTP 400)" % SID
    )


def test_console_log_prints_raw_text(cli, cloud):
    post = action(cloud, status_code=200, json={"output": "boot\nlogin: "})
    code, out, err = cli("server", "console", "log", SID, "--lines", "2")
    assert code == 0, err
    assert out == "boot\nlogin: \n"
    assert post.last_request.json() == {"os-getConsoleOutput": {"length": 2}}


def test_console_log_writes_to_the_app_stdout(app_run, cloud, capsys):
    action(cloud, status_code=200, json={"output": "boot"})
    code, out, err = app_run("server", "console", "log", SID)
    assert (code, out, err) == (0, "boot\n", "")
    assert capsys.readouterr() == ("", "")


def test_wait_progress_goes_to_the_app_stderr(cli, cloud, capsys):
    from occli import shell

    action(cloud)
    servers_sequence(
        cloud,
        server_body(),
        server_body(status="SHUTOFF", task_state="powering-off"),
        server_body(status="SHUTOFF", task_state=None),
    )
    app = shell.OcCLI()
    app.stdout, app.stderr = io.StringIO(), Terminal()
    assert app.run(["server", "stop", SID, "--wait", "--wait-interval", "0"]) == 0
    assert "SHUTOFF (powering-off)" in app.stderr.getvalue()
    assert capsys.readouterr() == ("", "")


class Terminal(io.StringIO):
    """A stderr that says it is a terminal (progress is shown)."""

    def isatty(self):
        return True


def test_console_log_bad_lines(cli, cloud):
    code, out, err = cli("server", "console", "log", SID, "--lines", "0")
    assert code == 2


# -- a failure after the request was accepted names what exists (issue 9) --

BUSY = {"status_code": 503, "json": {"serviceUnavailable": {"code": 503, "message": "Try later."}}}


def create_once(cli, *extra):
    """``server create vm`` without request retries (one 503 is final)."""
    return cli(
        "--retries",
        "0",
        "server",
        "create",
        "vm",
        "--image",
        "cirros",
        "--flavor",
        "m1.tiny",
        *extra,
    )


def test_create_wait_polls_again_after_transient_errors(cli, boot, cloud):
    building = {"json": server_body(id=boot.new_id, status="BUILD", task_state="spawning")}
    active = {"json": server_body(id=boot.new_id, status="ACTIVE", task_state=None)}
    cloud.mock.get(COMPUTE + "/servers/" + boot.new_id, [building, BUSY, BUSY, BUSY, active])
    code, out, err = create_once(cli, "--wait", "--wait-interval", "0", "-f", "json")
    assert code == 0, err
    assert json.loads(out)["status"] == "ACTIVE"
    assert boot.call_count == 1


def test_create_wait_failing_names_the_created_server(cli, boot, cloud):
    cloud.mock.get(COMPUTE + "/servers/" + boot.new_id, [BUSY])
    code, out, err = create_once(cli, "--wait", "--wait-interval", "0")
    assert code == 1
    assert out == ""
    assert err.splitlines() == [
        "Server vm (id %s) was created but waiting failed: Try later. (HTTP 503)" % boot.new_id
    ]
    assert boot.call_count == 1


def test_create_wait_dropped_connection_names_the_created_server(cli, boot, cloud):
    import requests

    cloud.mock.get(
        COMPUTE + "/servers/" + boot.new_id,
        exc=requests.exceptions.ConnectionError("reset by peer"),
    )
    code, out, err = create_once(cli, "--wait", "--wait-interval", "0")
    assert code == 1
    [line] = err.splitlines()
    assert line.startswith(
        "Server vm (id %s) was created but waiting "
        "failed: Unable to establish connection" % boot.new_id
    )


def test_create_wait_timeout_names_the_created_server(cli, boot):
    code, out, err = create(cli, "--wait", "--wait-timeout", "0", "--wait-interval", "0")
    assert code == 1
    assert err.splitlines() == [
        "Server vm (id {0}) was created but waiting failed: Timed out after "
        "0s waiting for server vm ({0}) (last state: BUILD 0% (scheduling)).".format(boot.new_id)
    ]


def test_create_show_failing_names_the_created_server(cli, boot, cloud):
    cloud.mock.get(COMPUTE + "/servers/" + boot.new_id, [BUSY])
    code, out, err = create_once(cli)
    assert code == 1
    assert err.splitlines() == [
        "Server vm (id %s) was created but showing it failed: Try later. (HTTP 503)" % boot.new_id
    ]


def test_create_several_wait_failing_names_every_server(cli, cloud):
    post, _ = reservation(cloud)
    building = [
        server_body(
            id="0000000%d-e052-415d-afbf-469b0d384170" % i,
            name="vm-%d" % i,
            status="BUILD",
            task_state="scheduling",
        )["server"]
        for i in (1, 2)
    ]
    cloud.mock.get(
        COMPUTE + "/servers/detail?reservation_id=" + RID, [{"json": {"servers": building}}, BUSY]
    )
    code, out, err = create_once(cli, "--min", "2", "--max", "2", "--wait", "--wait-interval", "0")
    assert code == 1
    assert err.splitlines() == [
        "2 servers of reservation %s were created (vm-1 "
        "(00000001-e052-415d-afbf-469b0d384170), vm-2 "
        "(00000002-e052-415d-afbf-469b0d384170)) but waiting failed: Try "
        "later. (HTTP 503)" % RID
    ]
    assert post.call_count == 1


def test_create_several_listing_failing_names_the_reservation(cli, cloud):
    reservation(cloud)
    cloud.mock.get(COMPUTE + "/servers/detail?reservation_id=" + RID, [BUSY])
    code, out, err = create_once(cli, "--max", "2")
    assert code == 1
    assert err.splitlines() == [
        "The servers of reservation %s were created but listing them "
        "failed: Try later. (HTTP 503)" % RID
    ]


def test_rebuild_without_image_uses_the_current_one(cli, cloud):
    resp = sample("servers", "v2.75", "server-action-rebuild-resp.json")
    resp["server"]["id"] = SID
    post = action(cloud, json=resp)
    current = server_body()["server"]["image"]["id"]
    cloud.mock.get(IMAGE + "/v2/images/" + current, json={"id": current, "name": "current"})
    code, out, err = cli("server", "rebuild", SID, "-f", "json")
    assert code == 0, err
    assert post.last_request.json()["rebuild"]["imageRef"] == current


def test_rebuild_of_a_volume_backed_server_needs_an_image(cli, cloud):
    cloud.mock.get(COMPUTE + "/servers/" + SID, json=server_body(image=""))
    post = action(cloud)
    code, out, err = cli("server", "rebuild", SID)
    assert code == 2
    assert "--image" in err and len(err.splitlines()) == 1
    assert not post.called


def test_rebuild_wait_failing_says_the_rebuild_is_under_way(cli, cloud):
    resp = sample("servers", "v2.75", "server-action-rebuild-resp.json")
    resp["server"]["id"] = SID
    action(cloud, json=resp)
    cloud.mock.get(COMPUTE + "/servers/" + SID, [{"json": server_body()}, BUSY])
    code, out, err = cli(
        "--retries",
        "0",
        "server",
        "rebuild",
        SID,
        "--image",
        "cirros",
        "--wait",
        "--wait-interval",
        "0",
    )
    assert code == 1
    assert err.splitlines() == [
        "Server new-server-test (id %s) is being rebuilt but waiting failed: "
        "Try later. (HTTP 503)" % SID
    ]


def test_resize_wait_failing_says_the_request_was_accepted(cli, cloud):
    action(cloud)
    cloud.mock.get(COMPUTE + "/servers/" + SID, [{"json": server_body()}, BUSY])
    code, out, err = cli(
        "--retries",
        "0",
        "server",
        "resize",
        SID,
        "--flavor",
        "m1.tiny",
        "--wait",
        "--wait-interval",
        "0",
    )
    assert code == 1
    assert err.splitlines() == [
        "Failed to resize server %s: the request was accepted but waiting "
        "failed: Try later. (HTTP 503)" % SID
    ]
