"""ServerManager against the upstream Nova server samples (requests-mock)."""

import base64
import copy
import glob
import io
import os
from urllib.parse import parse_qs
from urllib.parse import urlparse

import pytest
from keystoneauth1 import session
from keystoneauth1.identity import v3

from occli import base
from occli import exceptions
from occli.client import Client
from occli.v2.compute import servers as servers_api

from .fakes import AUTH_URL
from .fakes import COMPUTE
from .fakes import FIXTURES
from .fakes import PASSWORD
from .fakes import load_fixture
from .fakes import requests_to

SID = "0e44cc9c-e052-415d-afbf-469b0d384170"  # server-get-resp.json
IMAGE_ID = "70a599e0-31e7-49b7-b260-868f441e862b"
OTHER_ID = "9d7a7e35-9d93-4bc5-8b0a-51e7ad8ec2b2"


def sample(*parts):
    return load_fixture("compute", *parts)


def make_client(version=None):
    auth = v3.Password(
        auth_url=AUTH_URL,
        username="admin",
        password=PASSWORD,
        project_name="admin",
        user_domain_id="default",
        project_domain_id="default",
    )
    return Client(session=session.Session(auth=auth), compute_api_version=version)


def server_max(mock_cloud, version):
    """Make the mocked Nova advertise ``version`` as its maximum."""
    doc = copy.deepcopy(sample("versions", "v21-version-get-resp.json"))
    doc["version"]["version"] = version
    mock_cloud.mock.get(COMPUTE, json=doc)
    mock_cloud.mock.get(COMPUTE + "/", json=doc)


def microversion(request):
    return request.headers["OpenStack-API-Version"]


def query(request):
    return parse_qs(urlparse(request.url).query)


@pytest.fixture
def created(mock_cloud):
    """POST /servers answers the create sample; returns the mock."""
    return mock_cloud.mock.post(
        COMPUTE + "/servers", status_code=202, json=sample("servers", "server-create-resp.json")
    )


def sent(created_mock):
    assert created_mock.call_count == 1
    return created_mock.last_request.json()


# -- parsing the samples ----------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        ("servers", "server-get-resp.json"),
        ("servers", "v2.3", "server-get-resp.json"),
        ("servers", "v2.47", "server-get-resp.json"),
        ("servers", "v2.73", "server-get-resp.json"),
        ("servers", "v2.96", "server-get-resp.json"),
        ("servers", "v2.100", "server-get-resp.json"),
    ],
)
def test_get_parses_server_samples(client, mock_cloud, path):
    body = sample(*path)
    server_id = body["server"]["id"]
    mock_cloud.mock.get(COMPUTE + "/servers/" + server_id, json=body)
    server = client.servers.get(server_id)
    assert isinstance(server, servers_api.Server)
    assert server.to_dict() == body["server"]
    assert server.name == body["server"]["name"]
    assert server.status == "ACTIVE"
    assert server.task_state is None
    assert server.addresses == body["server"]["addresses"]
    assert microversion(mock_cloud.mock.last_request) == "compute 2.96"


_LISTS = ("servers-details-resp.json", "servers-list-resp.json")
_GETS = ("server-get-resp.json", "server-get-down-cell-resp.json")
SAMPLE_DIRS = sorted(
    {
        os.path.relpath(os.path.dirname(path), os.path.join(FIXTURES, "compute"))
        for name in _LISTS + _GETS
        for pattern in ("servers*", os.path.join("servers", "v2.*"))
        for path in glob.glob(os.path.join(FIXTURES, "compute", pattern, name))
    }
)


@pytest.mark.parametrize("folder", SAMPLE_DIRS)
def test_every_server_sample_parses(client, mock_cloud, folder):
    """Each servers-details/servers-list/server-get sample round-trips."""
    for filename, detailed in zip(_LISTS, (True, False), strict=True):
        path = os.path.join(FIXTURES, "compute", folder, filename)
        if not os.path.exists(path):
            continue
        body = sample(folder, filename)
        body.pop("servers_links", None)
        url = COMPUTE + ("/servers/detail" if detailed else "/servers")
        mock_cloud.mock.get(url, json=body)
        got = list(client.servers.list(detailed=detailed))
        assert [s.to_dict() for s in got] == body["servers"]
        assert all(s.id and isinstance(s, servers_api.Server) for s in got)
    for filename in _GETS:
        path = os.path.join(FIXTURES, "compute", folder, filename)
        if os.path.exists(path):
            body = sample(folder, filename)
            mock_cloud.mock.get(COMPUTE + "/servers/" + body["server"]["id"], json=body)
            server = client.servers.get(body["server"]["id"])
            assert server.to_dict() == body["server"]


def test_embedded_flavor_at_2_47(client, mock_cloud):
    body = sample("servers", "v2.47", "server-get-resp.json")
    mock_cloud.mock.get(COMPUTE + "/servers/" + body["server"]["id"], json=body)
    flavor = client.servers.get(body["server"]["id"]).flavor
    assert "id" not in flavor
    assert flavor["original_name"] == "m1.tiny.specs"
    assert flavor["extra_specs"] == {"hw:numa_nodes": "1"}


def test_lock_reason_at_2_73_and_pinned_az_at_2_96(client, mock_cloud):
    locked = sample("servers", "v2.73", "server-get-resp.json")["server"]
    pinned = sample("servers", "v2.96", "server-get-resp.json")["server"]
    mock_cloud.mock.get(COMPUTE + "/servers/" + locked["id"], json={"server": locked})
    mock_cloud.mock.get(COMPUTE + "/servers/" + pinned["id"], json={"server": pinned})
    server = client.servers.get(locked["id"])
    assert server.locked is True
    assert server.locked_reason == "I don't want to work"
    server = client.servers.get(pinned["id"])
    assert server.pinned_availability_zone == "us-west"
    assert server.locked_reason is None


def test_list_detail_parses_samples(client, mock_cloud):
    body = sample("servers", "servers-details-resp.json")
    del body["servers_links"]
    mock_cloud.mock.get(COMPUTE + "/servers/detail", json=body)
    got = list(client.servers.list())
    assert [s.to_dict() for s in got] == body["servers"]
    assert got[0].flavor == {"id": "1", "links": body["servers"][0]["flavor"]["links"]}


def test_list_not_detailed(client, mock_cloud):
    body = sample("servers", "servers-list-resp.json")
    del body["servers_links"]
    mock_cloud.mock.get(COMPUTE + "/servers", json=body)
    got = list(client.servers.list(detailed=False))
    assert [(s.id, s.name) for s in got] == [
        ("22c91117-08de-4894-9aa9-6ef382400985", "new-server-test")
    ]
    assert "/servers/detail" not in mock_cloud.mock.last_request.url


def test_list_follows_servers_links_with_marker(client, mock_cloud):
    page1 = sample("servers", "v2.96", "servers-details-resp.json")
    page2 = sample("servers", "v2.73", "servers-details-resp.json")
    marker = page1["servers"][-1]["id"]
    mock_cloud.mock.get(COMPUTE + "/servers/detail", json=page1)
    mock_cloud.mock.get(COMPUTE + "/servers/detail?marker=" + marker, json=page2)
    got = list(client.servers.list())
    assert [s.id for s in got] == [page1["servers"][0]["id"], page2["servers"][0]["id"]]
    calls = requests_to(mock_cloud.mock, "GET", "/servers/detail")
    assert [query(c).get("marker") for c in calls] == [None, [marker]]


def test_list_limit_caps_total_and_stops_paging(client, mock_cloud):
    page1 = sample("servers", "v2.96", "servers-details-resp.json")
    mock_cloud.mock.get(COMPUTE + "/servers/detail", json=page1)
    got = list(client.servers.list(limit=1))
    assert len(got) == 1
    calls = requests_to(mock_cloud.mock, "GET", "/servers/detail")
    assert len(calls) == 1 and query(calls[0])["limit"] == ["1"]


def test_list_query_filters_sort_and_all_tenants(client, mock_cloud):
    mock_cloud.mock.get(COMPUTE + "/servers/detail", json={"servers": []})
    list(
        client.servers.list(
            search_opts={
                "name": "^web",
                "status": "ACTIVE",
                "all_tenants": True,
                "changes-since": "2024-01-01T00:00:00Z",
                "host": "h1",
            },
            marker="m-1",
            sort_keys=["name", "created_at"],
            sort_dirs=["asc", "desc"],
        )
    )
    q = query(mock_cloud.mock.last_request)
    assert q == {
        "name": ["^web"],
        "status": ["ACTIVE"],
        "all_tenants": ["true"],
        "changes-since": ["2024-01-01T00:00:00Z"],
        "host": ["h1"],
        "marker": ["m-1"],
        "sort_key": ["name", "created_at"],
        "sort_dir": ["asc", "desc"],
    }


# -- name or id -------------------------------------------------------------


@pytest.fixture
def server_sample(mock_cloud):
    body = sample("servers", "server-get-resp.json")
    mock_cloud.mock.get(COMPUTE + "/servers/" + SID, json=body)
    return body


def test_find_resource_by_id_is_one_get(client, mock_cloud, server_sample):
    assert client.servers.find_resource(SID).id == SID
    assert requests_to(mock_cloud.mock, "GET", "/servers/detail") == []


def test_find_resource_by_name_uses_escaped_regex_then_exact_match(
    client, mock_cloud, server_sample
):
    web = dict(server_sample["server"], name="web.1")
    lookalike = dict(server_sample["server"], id=OTHER_ID, name="web.10")
    mock_cloud.mock.get(COMPUTE + "/servers/detail", json={"servers": [web, lookalike]})
    assert client.servers.find_resource("web.1").id == SID
    q = query(mock_cloud.mock.last_request)
    assert q["name"] == [r"^web\.1$"]
    # a name is not a UUID: no GET /servers/web.1 is wasted
    assert requests_to(mock_cloud.mock, "GET", "/servers/web") == []


def test_find_resource_uuid_that_is_a_name(client, mock_cloud, server_sample):
    mock_cloud.mock.get(
        COMPUTE + "/servers/" + OTHER_ID,
        status_code=404,
        json={"itemNotFound": {"code": 404, "message": "x"}},
    )
    named = dict(server_sample["server"], name=OTHER_ID)
    mock_cloud.mock.get(COMPUTE + "/servers/detail", json={"servers": [named]})
    assert client.servers.find_resource(OTHER_ID).id == SID


def test_find_resource_ambiguous_lists_both_ids(client, mock_cloud, server_sample):
    one = server_sample["server"]
    two = dict(one, id=OTHER_ID)
    mock_cloud.mock.get(COMPUTE + "/servers/detail", json={"servers": [one, two]})
    with pytest.raises(exceptions.NoUniqueMatch) as err:
        client.servers.find_resource("new-server-test")
    assert SID in str(err.value) and OTHER_ID in str(err.value)


def test_find_resource_missing(client, mock_cloud):
    mock_cloud.mock.get(COMPUTE + "/servers/detail", json={"servers": []})
    with pytest.raises(exceptions.NotFound) as err:
        client.servers.find_resource("nosuch")
    assert str(err.value) == ("No server with a name or ID of 'nosuch' exists. (HTTP 404)")


# -- create -----------------------------------------------------------------


def test_create_minimal_defaults_networks_auto(client, created):
    server = client.servers.create("vm", IMAGE_ID, "1")
    assert sent(created) == {
        "server": {"name": "vm", "imageRef": IMAGE_ID, "flavorRef": "1", "networks": "auto"}
    }
    assert server.id == "f5dc173b-6804-445a-a6d8-c705dad5b5eb"
    assert server.adminPass == "6NpUwoz2QDRN"
    assert microversion(created.last_request) == "compute 2.96"
    assert "/os-volumes_boot" not in created.last_request.url


def test_create_accepts_resources(client, created):
    image = servers_api.Server(None, {"id": IMAGE_ID})
    flavor = servers_api.Server(None, {"id": 42})
    client.servers.create("vm", image, flavor)
    body = sent(created)["server"]
    assert body["imageRef"] == IMAGE_ID and body["flavorRef"] == "42"


def test_create_below_2_37_sends_no_networks(mock_cloud, created):
    client = make_client("2.36")
    client.servers.create("vm", IMAGE_ID, "1")
    assert "networks" not in sent(created)["server"]
    assert microversion(created.last_request) == "compute 2.36"


def test_create_auto_below_2_37_is_a_clear_error(mock_cloud, created):
    with pytest.raises(exceptions.UnsupportedVersion) as err:
        make_client("2.36").servers.create("vm", IMAGE_ID, "1", nics="auto")
    assert "2.37" in str(err.value)
    assert created.call_count == 0


@pytest.mark.parametrize(
    "nics, expected",
    [
        ("none", "none"),
        ("auto", "auto"),
        (
            [
                {"net-id": "n1", "v4-fixed-ip": "10.0.0.5"},
                {"port-id": "p1"},
                {"net-id": "n2", "v6-fixed-ip": "fd00::5"},
            ],
            [
                {"uuid": "n1", "fixed_ip": "10.0.0.5"},
                {"port": "p1"},
                {"uuid": "n2", "fixed_ip": "fd00::5"},
            ],
        ),
        ([{"uuid": "n1", "fixed_ip": "10.0.0.7"}], [{"uuid": "n1", "fixed_ip": "10.0.0.7"}]),
    ],
)
def test_create_networks(client, created, nics, expected):
    client.servers.create("vm", IMAGE_ID, "1", nics=nics)
    assert sent(created)["server"]["networks"] == expected


def test_create_every_option(client, created):
    client.servers.create(
        "vm",
        IMAGE_ID,
        "1",
        key_name="key",
        availability_zone="az1",
        user_data="#!/bin/sh\necho hi\n",
        metadata={"role": "web"},
        security_groups=["default", "web"],
        scheduler_hints={"group": "g1"},
        config_drive=True,
        disk_config="MANUAL",
        admin_pass="pw",
        access_ip_v4="1.2.3.4",
        access_ip_v6="80fe::",
        min_count=2,
        max_count=3,
        description="d",
        tags=["a", "b"],
        hostname="vm-host",
    )
    assert sent(created) == {
        "server": {
            "name": "vm",
            "imageRef": IMAGE_ID,
            "flavorRef": "1",
            "key_name": "key",
            "availability_zone": "az1",
            "user_data": base64.b64encode(b"#!/bin/sh\necho hi\n").decode(),
            "metadata": {"role": "web"},
            "security_groups": [{"name": "default"}, {"name": "web"}],
            "config_drive": True,
            "OS-DCF:diskConfig": "MANUAL",
            "adminPass": "pw",
            "accessIPv4": "1.2.3.4",
            "accessIPv6": "80fe::",
            "min_count": 2,
            "max_count": 3,
            "description": "d",
            "tags": ["a", "b"],
            "hostname": "vm-host",
            "networks": "auto",
        },
        "os:scheduler_hints": {"group": "g1"},
    }


@pytest.mark.parametrize("user_data", [b"\x00\xffbin", io.BytesIO(b"\x00\xffbin")])
def test_create_user_data_bytes_and_files(client, created, user_data):
    client.servers.create("vm", IMAGE_ID, "1", user_data=user_data)
    assert base64.b64decode(sent(created)["server"]["user_data"]) == b"\x00\xffbin"


def test_create_user_data_too_large(client, created):
    with pytest.raises(exceptions.CommandError, match="65535"):
        client.servers.create("vm", IMAGE_ID, "1", user_data=b"x" * 50000)
    assert created.call_count == 0


def test_create_reservation_id(client, mock_cloud):
    post = mock_cloud.mock.post(
        COMPUTE + "/servers",
        status_code=202,
        json=sample("os-multiple-create", "multiple-create-post-resp.json"),
    )
    rid = client.servers.create(
        "vm", IMAGE_ID, "1", min_count=2, max_count=3, return_reservation_id=True
    )
    assert rid == "r-3fhpjulh"
    body = post.last_request.json()["server"]
    assert body["return_reservation_id"] is True
    assert (body["min_count"], body["max_count"]) == (2, 3)


def test_create_min_greater_than_max(client, created):
    with pytest.raises(exceptions.CommandError, match="min_count"):
        client.servers.create("vm", IMAGE_ID, "1", min_count=3, max_count=2)
    assert created.call_count == 0


def test_create_legacy_bdm_converted_like_novaclient(client, created):
    client.servers.create(
        "vm",
        None,
        "1",
        block_device_mapping={
            "vda": "vol-1:volume:10:true",
            "vdb": "snap-1:snap::0",
            "vdc": "vol-2",
        },
    )
    body = sent(created)["server"]
    assert "imageRef" not in body
    assert body["block_device_mapping"] == [
        {
            "device_name": "vda",
            "volume_id": "vol-1",
            "volume_size": 10,
            "delete_on_termination": True,
        },
        {"device_name": "vdb", "snapshot_id": "snap-1", "delete_on_termination": False},
        {"device_name": "vdc", "volume_id": "vol-2"},
    ]


@pytest.mark.parametrize("mapping", ["v:volume:big", "v:volume:1:maybe"])
def test_create_legacy_bdm_bad_fields(client, created, mapping):
    with pytest.raises(exceptions.CommandError):
        client.servers.create("vm", None, "1", block_device_mapping={"vda": mapping})
    assert created.call_count == 0


def test_create_bdm_v2_with_image_adds_the_image_entry(client, created):
    blank = {
        "source_type": "blank",
        "destination_type": "local",
        "volume_size": 1,
        "boot_index": -1,
    }
    client.servers.create("vm", IMAGE_ID, "1", block_device_mapping_v2=[blank])
    body = sent(created)["server"]
    assert body["imageRef"] == IMAGE_ID
    assert body["block_device_mapping_v2"] == [
        {
            "uuid": IMAGE_ID,
            "source_type": "image",
            "destination_type": "local",
            "boot_index": 0,
            "delete_on_termination": True,
        },
        blank,
    ]


def test_create_bdm_v2_boot_volume_without_image(client, created):
    volume = {
        "source_type": "volume",
        "destination_type": "volume",
        "uuid": "vol-1",
        "boot_index": 0,
    }
    client.servers.create("vm", None, "1", block_device_mapping_v2=[volume])
    body = sent(created)["server"]
    assert "imageRef" not in body
    assert body["block_device_mapping_v2"] == [volume]


def test_create_personality_downgrades_to_2_56(client, created):
    client.servers.create("vm", IMAGE_ID, "1", files={"/etc/motd": "hello", "/b": b"\x01"})
    body = sent(created)["server"]
    assert body["personality"] == [
        {"path": "/etc/motd", "contents": base64.b64encode(b"hello").decode()},
        {"path": "/b", "contents": base64.b64encode(b"\x01").decode()},
    ]
    assert microversion(created.last_request) == "compute 2.56"
    assert body["networks"] == "auto"


@pytest.mark.parametrize("pinned, used", [("latest", "2.56"), ("2.56", "2.56"), ("2.30", "2.30")])
def test_create_personality_with_latest_or_low_pin(mock_cloud, created, pinned, used):
    make_client(pinned).servers.create("vm", IMAGE_ID, "1", files={"/f": io.BytesIO(b"data")})
    assert microversion(created.last_request) == "compute " + used
    assert (
        sent(created)["server"]["personality"][0]["contents"] == base64.b64encode(b"data").decode()
    )


def test_create_personality_with_pinned_2_57_is_an_error(mock_cloud, created):
    with pytest.raises(exceptions.UnsupportedVersion) as err:
        make_client("2.57").servers.create("vm", IMAGE_ID, "1", files={"/f": "x"})
    assert "2.56" in str(err.value) and "2.57" in str(err.value)
    assert created.call_count == 0


def test_create_personality_downgrade_rechecks_other_gates(client, created):
    with pytest.raises(exceptions.UnsupportedVersion, match="2.90"):
        client.servers.create("vm", IMAGE_ID, "1", files={"/f": "x"}, hostname="h")
    assert created.call_count == 0


@pytest.mark.parametrize(
    "files, message",
    [
        ({"/f%d" % i: "x" for i in range(6)}, "At most 5"),
        ({"/big": b"x" * (10 * 1024 + 1)}, "10 KiB"),
        ({"/" + "p" * 300: "x"}, "longer than 255"),
    ],
)
def test_create_personality_limits(client, created, files, message):
    with pytest.raises(exceptions.CommandError, match=message):
        client.servers.create("vm", IMAGE_ID, "1", files=files)
    assert created.call_count == 0


def test_create_file_of_exactly_10_kib_is_fine(client, created):
    client.servers.create("vm", IMAGE_ID, "1", files={"/f": b"x" * 10240})
    assert created.call_count == 1


@pytest.mark.parametrize("metadata", [{"k" * 256: "v"}, {"k": "v" * 256}])
def test_create_metadata_limits(client, created, metadata):
    with pytest.raises(exceptions.CommandError, match="255"):
        client.servers.create("vm", IMAGE_ID, "1", metadata=metadata)
    assert created.call_count == 0


@pytest.mark.parametrize(
    "version, kwargs, needed",
    [
        ("2.18", {"description": "d"}, "2.19"),
        ("2.51", {"tags": ["t"]}, "2.52"),
        ("2.89", {"hostname": "h"}, "2.90"),
        ("2.41", {"nics": [{"net-id": "n", "tag": "t"}]}, "2.42"),
        ("2.62", {"trusted_image_certificates": ["c1"]}, "2.63"),
        ("2.73", {"host": "compute1"}, "2.74"),
        ("2.73", {"hypervisor_hostname": "node1"}, "2.74"),
    ],
)
def test_create_version_gates(mock_cloud, created, version, kwargs, needed):
    with pytest.raises(exceptions.UnsupportedVersion) as err:
        make_client(version).servers.create("vm", IMAGE_ID, "1", **kwargs)
    assert needed + " or later" in str(err.value)
    assert "in use: " + version in str(err.value)
    assert created.call_count == 0


def test_description_gate_with_negotiated_old_server(mock_cloud, created):
    server_max(mock_cloud, "2.18")
    client = make_client()
    with pytest.raises(exceptions.UnsupportedVersion) as err:
        client.servers.create("vm", IMAGE_ID, "1", description="d")
    assert str(err.value).startswith(
        "A server description requires compute API version 2.19 or later (in use: 2.18)"
    )


# -- changes and actions ----------------------------------------------------


def test_delete(client, mock_cloud):
    delete = mock_cloud.mock.delete(COMPUTE + "/servers/" + SID, status_code=204)
    client.servers.delete(SID)
    assert delete.call_count == 1


def test_update_name_and_description(client, mock_cloud):
    body = sample("servers", "v2.75", "server-update-resp.json")
    put = mock_cloud.mock.put(COMPUTE + "/servers/" + SID, json=body)
    server = client.servers.update(SID, name="new", description="desc")
    assert put.last_request.json() == {"server": {"name": "new", "description": "desc"}}
    assert server.name == body["server"]["name"]


def test_create_placement_and_certificates_at_2_74(client, created):
    client.servers.create(
        "vm",
        IMAGE_ID,
        "1",
        trusted_image_certificates=("c1", "c2"),
        host="compute1",
        hypervisor_hostname="node1",
    )
    body = sent(created)["server"]
    assert body["trusted_image_certificates"] == ["c1", "c2"]
    assert (body["host"], body["hypervisor_hostname"]) == ("compute1", "node1")


def test_check_create_needs_no_request_when_pinned(mock_cloud):
    client = make_client("2.62")
    assert str(client.servers.check_create(tags=["t"])) == "2.62"
    with pytest.raises(exceptions.UnsupportedVersion) as err:
        client.servers.check_create(trusted_image_certificates=["c"])
    assert str(err.value).startswith(
        "Trusted image certificates requires compute API version 2.63 or later (in use: 2.62)"
    )
    assert mock_cloud.mock.request_history == []


def test_bdm_builders_match_novaclient_and_osc(client, created):
    bdms = [
        servers_api.boot_volume_bdm(IMAGE_ID, 20, delete_on_termination=True),
        servers_api.swap_bdm(512),
        servers_api.ephemeral_bdm(2, "ext4"),
        servers_api.ephemeral_bdm(1),
    ]
    client.servers.create("vm", None, "1", block_device_mapping_v2=bdms)
    body = sent(created)["server"]
    assert "imageRef" not in body
    assert body["block_device_mapping_v2"] == [
        {
            "uuid": IMAGE_ID,
            "source_type": "image",
            "destination_type": "volume",
            "boot_index": 0,
            "volume_size": 20,
            "delete_on_termination": True,
        },
        {
            "source_type": "blank",
            "destination_type": "local",
            "boot_index": -1,
            "delete_on_termination": True,
            "guest_format": "swap",
            "volume_size": 512,
        },
        {
            "source_type": "blank",
            "destination_type": "local",
            "boot_index": -1,
            "delete_on_termination": True,
            "volume_size": 2,
            "guest_format": "ext4",
        },
        {
            "source_type": "blank",
            "destination_type": "local",
            "boot_index": -1,
            "delete_on_termination": True,
            "volume_size": 1,
        },
    ]
    # without delete_on_termination, Nova's default (keep the volume) holds
    assert "delete_on_termination" not in servers_api.boot_volume_bdm(IMAGE_ID, 1)


@pytest.mark.parametrize(
    "description, expected", [(servers_api.CLEAR, None), ("", ""), ("text", "text")]
)
def test_update_description_clear_empty_or_set(client, mock_cloud, description, expected):
    body = sample("servers", "v2.75", "server-update-resp.json")
    put = mock_cloud.mock.put(COMPUTE + "/servers/" + SID, json=body)
    client.servers.update(SID, description=description)
    assert put.last_request.json() == {"server": {"description": expected}}


def test_update_hostname_at_2_90_and_gate(client, mock_cloud):
    body = sample("servers", "v2.75", "server-update-resp.json")
    put = mock_cloud.mock.put(COMPUTE + "/servers/" + SID, json=body)
    client.servers.update(SID, hostname="new-host")
    assert put.last_request.json() == {"server": {"hostname": "new-host"}}
    with pytest.raises(exceptions.UnsupportedVersion, match="2.90"):
        make_client("2.89").servers.update(SID, hostname="h")
    with pytest.raises(exceptions.UnsupportedVersion, match="2.19"):
        make_client("2.18").servers.update(SID, description=servers_api.CLEAR)
    assert put.call_count == 1


def test_update_description_needs_2_19(mock_cloud):
    with pytest.raises(exceptions.UnsupportedVersion, match="2.19"):
        make_client("2.18").servers.update(SID, description="d")


def test_set_meta_posts_a_merge(client, mock_cloud):
    post = mock_cloud.mock.post(
        COMPUTE + "/servers/%s/metadata" % SID,
        json={"metadata": {"foo": "Foo Value", "old": "kept"}},
    )
    merged = client.servers.set_meta(
        SID, sample("server-metadata", "server-metadata-all-req.json")["metadata"]
    )
    assert post.last_request.json() == sample("server-metadata", "server-metadata-all-req.json")
    assert merged == {"foo": "Foo Value", "old": "kept"}
    assert client.servers.set_metadata == client.servers.set_meta


def test_set_meta_refuses_long_values_before_any_request(client, mock_cloud):
    with pytest.raises(exceptions.CommandError):
        client.servers.set_meta(SID, {"k": "v" * 256})
    assert requests_to(mock_cloud.mock, "POST", "/metadata") == []


def test_delete_meta_quotes_each_key(client, mock_cloud):
    mock_cloud.mock.delete(COMPUTE + "/servers/%s/metadata/a" % SID, status_code=204)
    mock_cloud.mock.delete(COMPUTE + "/servers/%s/metadata/my%%20key%%2Fx" % SID, status_code=204)
    client.servers.delete_meta(SID, ["a", "my key/x"])
    urls = [r.url for r in requests_to(mock_cloud.mock, "DELETE", "/metadata/")]
    assert urls[0].endswith("/metadata/a")
    assert urls[1].endswith("/metadata/my%20key%2Fx")


@pytest.fixture
def action(mock_cloud):
    return mock_cloud.mock.post(COMPUTE + "/servers/%s/action" % SID, status_code=202)


@pytest.mark.parametrize(
    "method, kwargs, expected",
    [
        ("reboot", {}, {"reboot": {"type": "SOFT"}}),
        ("reboot", {"hard": True}, {"reboot": {"type": "HARD"}}),
        ("start", {}, sample("servers", "server-action-start.json")),
        ("stop", {}, sample("servers", "server-action-stop.json")),
        ("pause", {}, sample("os-pause-server", "pause-server.json")),
        ("unpause", {}, sample("os-pause-server", "unpause-server.json")),
        ("suspend", {}, sample("os-suspend-server", "server-suspend.json")),
        ("resume", {}, sample("os-suspend-server", "server-resume.json")),
        ("lock", {}, sample("os-lock-server", "lock-server.json")),
        (
            "lock",
            {"reason": "I don't want to work"},
            sample("os-lock-server", "v2.73", "lock-server-with-reason.json"),
        ),
        ("unlock", {}, sample("os-lock-server", "unlock-server.json")),
        ("resize", {"flavor": "2"}, {"resize": {"flavorRef": "2"}}),
        (
            "resize",
            {"flavor": "2", "disk_config": "AUTO"},
            sample("servers", "server-action-resize.json"),
        ),
        ("confirm_resize", {}, sample("servers", "server-action-confirm-resize.json")),
        ("revert_resize", {}, sample("servers", "server-action-revert-resize.json")),
    ],
)
def test_action_bodies_match_samples(client, action, method, kwargs, expected):
    getattr(client.servers, method)(SID, **kwargs)
    assert action.last_request.json() == expected


def test_reboot_sample_is_what_a_hard_reboot_sends(client, action):
    # the upstream sample is a HARD reboot
    assert sample("servers", "server-action-reboot.json") == {"reboot": {"type": "HARD"}}


def test_lock_reason_needs_2_73(mock_cloud, action):
    with pytest.raises(exceptions.UnsupportedVersion, match="2.73"):
        make_client("2.72").servers.lock(SID, reason="why")
    assert action.call_count == 0


def test_server_methods_delegate_to_the_manager(client, mock_cloud, server_sample, action):
    server = client.servers.get(SID)
    server.stop()
    assert action.last_request.json() == {"os-stop": None}
    server.lock(reason="r")
    assert action.last_request.json() == {"lock": {"locked_reason": "r"}}


def test_rebuild_returns_the_server_from_the_body(client, mock_cloud):
    resp = sample("servers", "v2.75", "server-action-rebuild-resp.json")
    post = mock_cloud.mock.post(COMPUTE + "/servers/%s/action" % SID, status_code=202, json=resp)
    server = client.servers.rebuild(
        SID,
        IMAGE_ID,
        name="foobar",
        admin_pass="seekr3t",
        description="d",
        metadata={"meta_var": "meta_val"},
    )
    assert post.last_request.json() == {
        "rebuild": {
            "imageRef": IMAGE_ID,
            "name": "foobar",
            "adminPass": "seekr3t",
            "description": "d",
            "metadata": {"meta_var": "meta_val"},
        }
    }
    assert isinstance(server, servers_api.Server)
    assert server.to_dict() == resp["server"]


def test_rebuild_gates(mock_cloud):
    with pytest.raises(exceptions.UnsupportedVersion, match="2.57"):
        make_client("2.56").servers.rebuild(SID, IMAGE_ID, user_data="x")


def test_console_output(client, mock_cloud):
    post = mock_cloud.mock.post(
        COMPUTE + "/servers/%s/action" % SID, json={"output": "line1\nline2\n"}
    )
    assert client.servers.get_console_output(SID, length=2) == "line1\nline2\n"
    assert post.last_request.json() == {"os-getConsoleOutput": {"length": 2}}
    client.servers.get_console_output(SID)
    assert post.last_request.json() == {"os-getConsoleOutput": {}}


def test_create_image_2_45_body(client, mock_cloud):
    post = mock_cloud.mock.post(
        COMPUTE + "/servers/%s/action" % SID,
        status_code=202,
        json=sample("servers", "v2.45", "server-action-create-image-resp.json"),
    )
    image_id = client.servers.create_image(SID, "snap", {"k": "v"})
    assert (
        image_id == sample("servers", "v2.45", "server-action-create-image-resp.json")["image_id"]
    )
    assert post.last_request.json() == {"createImage": {"name": "snap", "metadata": {"k": "v"}}}


def test_create_image_location_before_2_45(mock_cloud):
    mock_cloud.mock.post(
        COMPUTE + "/servers/%s/action" % SID,
        status_code=202,
        headers={"Location": "http://glance/images/img-9"},
    )
    assert make_client("2.44").servers.create_image(SID, "snap") == "img-9"


def test_action_conflict_message(client, mock_cloud):
    mock_cloud.mock.post(
        COMPUTE + "/servers/%s/action" % SID,
        status_code=409,
        json={"conflictingRequest": {"code": 409, "message": "Instance %s is locked" % SID}},
        headers={"x-openstack-request-id": "req-1"},
    )
    with pytest.raises(exceptions.Conflict) as err:
        client.servers.stop(SID)
    assert str(err.value) == ("Instance %s is locked (HTTP 409) (Request-ID: req-1)" % SID)


@pytest.mark.parametrize(
    "options, message",
    [
        (
            {"min_count": 3, "max_count": 2},
            "min_count (3) must not be greater than max_count (2).",
        ),
        ({"max_count": 0}, "max_count must be 1 or more."),
        (
            {"metadata": {"k": "v" * 256}},
            "Metadata value '%s…' (metadata) is longer than 255 characters." % ("v" * 40),
        ),
        (
            {"files": {"/f%d" % i: b"x" for i in range(6)}},
            "At most 5 personality files (files) can be injected, got 6.",
        ),
        (
            {"user_data": b"x" * 60000},
            "User data (user_data) is 80000 characters once base64-encoded; the limit is 65535.",
        ),
        ({"nics": "some"}, "nics must be 'auto', 'none' or a list of dicts, got 'some'."),
    ],
)
def test_create_refuses_invalid_options_before_any_request(mock_cloud, created, options, message):
    client = make_client("2.56")
    for call in (
        lambda: client.servers.check_create(**options),
        lambda: client.servers.create("vm", IMAGE_ID, "1", **options),
    ):
        with pytest.raises(exceptions.ValidationError) as err:
            call()
        assert str(err.value) == message
    assert mock_cloud.mock.request_history == []


def test_validation_error_renamed_for_the_cli():
    err = exceptions.ValidationError(
        "{min_count} ({x}) must not be greater than {max_count}.",
        params=("min_count", "max_count"),
    )
    assert str(err) == "min_count ({x}) must not be greater than max_count."
    assert err.exit_code == 2
    err.rename({"min_count": "--min"})
    assert str(err) == "--min ({x}) must not be greater than max_count."
    assert isinstance(err, exceptions.CommandError)


def test_check_update_and_check_metadata_send_nothing(mock_cloud):
    client = make_client("2.18")
    client.servers.check_update(name="n")
    with pytest.raises(exceptions.UnsupportedVersion):
        client.servers.check_update(description="d")
    with pytest.raises(exceptions.ValidationError):
        client.servers.check_metadata({"k" * 256: "v"})
    assert mock_cloud.mock.request_history == []


# -- actions answer a Result with the request id ---------------------------


@pytest.mark.parametrize(
    "method, args, body",
    [
        ("reboot", (), {"reboot": {"type": "SOFT"}}),
        ("start", (), {"os-start": None}),
        ("stop", (), {"os-stop": None}),
        ("pause", (), {"pause": None}),
        ("unpause", (), {"unpause": None}),
        ("suspend", (), {"suspend": None}),
        ("resume", (), {"resume": None}),
        ("lock", (), {"lock": None}),
        ("unlock", (), {"unlock": None}),
        ("resize", ("1",), {"resize": {"flavorRef": "1"}}),
        ("confirm_resize", (), {"confirmResize": None}),
        ("revert_resize", (), {"revertResize": None}),
    ],
)
def test_actions_return_a_result_with_the_request_id(client, mock_cloud, method, args, body):
    post = mock_cloud.mock.post(
        COMPUTE + "/servers/%s/action" % SID,
        status_code=202,
        text="",
        headers={"x-openstack-request-id": "req-%s" % method},
    )
    result = getattr(client.servers, method)(SID, *args)
    assert post.last_request.json() == body
    assert isinstance(result, base.Result)
    assert (result.request_ids, result.body) == (["req-%s" % method], {})


def test_delete_and_delete_meta_return_their_request_ids(client, mock_cloud):
    mock_cloud.mock.delete(
        COMPUTE + "/servers/" + SID, status_code=204, headers={"x-compute-request-id": "req-d"}
    )
    for key in ("a", "b"):
        mock_cloud.mock.delete(
            COMPUTE + "/servers/%s/metadata/%s" % (SID, key),
            status_code=204,
            headers={"x-openstack-request-id": "req-" + key},
        )
    assert client.servers.delete(SID).request_ids == ["req-d"]
    result = client.servers.delete_meta(SID, ["a", "b"])
    assert (result.request_ids, result.body) == (["req-a", "req-b"], {})
