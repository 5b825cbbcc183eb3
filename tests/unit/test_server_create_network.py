"""``server create`` with networks, ports, security groups, volumes and
snapshots: names resolved through Neutron and Cinder (one request per
kind), conflicting options refused before any request (exit 2)."""

import copy

import pytest

from .fakes import COMPUTE
from .fakes import IMAGE
from .fakes import NETWORK
from .fakes import VOLUME
from .fakes import load_fixture
from .fakes import requests_to

V2 = NETWORK + "/v2.0"
IMAGE_ID = "70a599e0-31e7-49b7-b260-868f441e862b"
NET_ID = "d32019d3-bc6e-4319-9c1d-6722fc136a22"
PORT_ID = "d80b1a3b-4fc1-49f3-952e-1e2ab7081d8b"
VOLUME_ID = "f7223234-1afc-4d19-bfa3-d19deb6235ef"
SNAPSHOT_ID = "4a584cae-e4ce-429b-9154-d4c9eb8fda4c"


@pytest.fixture
def boot(mock_cloud):
    """Image cirros, flavor m1.tiny, POST /servers and the new server."""
    m = mock_cloud.mock
    cirros = {"id": IMAGE_ID, "name": "cirros", "status": "active"}
    m.get(IMAGE + "/v2/images/cirros", status_code=404, json={"code": 404, "message": "no"})
    m.get(IMAGE + "/v2/images?name=cirros", json={"images": [cirros]})
    flavors = load_fixture("compute", "flavors", "flavors-detail-resp.json")
    m.get(COMPUTE + "/flavors/detail", json=flavors)
    m.get(COMPUTE + "/flavors/m1.tiny", status_code=404, json={"itemNotFound": {"code": 404}})
    created = load_fixture("compute", "servers", "server-create-resp.json")
    server = copy.deepcopy(load_fixture("compute", "servers", "v2.96", "server-get-resp.json"))
    server["server"]["id"] = created["server"]["id"]
    m.get(COMPUTE + "/servers/" + created["server"]["id"], json=server)
    return m.post(COMPUTE + "/servers", status_code=202, json=created)


def create(cli, *extra, image=True):
    base = ["server", "create", "vm", "--flavor", "m1.tiny"]
    if image:
        base += ["--image", "cirros"]
    return cli(*base, *extra)


def sent(boot):
    return boot.last_request.json()["server"]


def test_network_port_and_nic_names_resolve_in_one_request_each(cli, boot, mock_cloud):
    net = load_fixture("network", "networks", "network-show-response.json")["network"]
    port = load_fixture("network", "ports", "ports-list-response.json")["ports"][0]
    m = mock_cloud.mock
    m.get(V2 + "/networks", json={"networks": [dict(net, name="private")]})
    m.get(V2 + "/ports", json={"ports": [dict(port, name="my-port")]})
    code, out, err = create(
        cli,
        "--network", "private",
        "--port", "my-port",
        "--nic", "net-id=private,v4-fixed-ip=10.0.0.5,tag=web",
        "--network", NET_ID,
    )  # fmt: skip
    assert code == 0, err
    assert sent(boot)["networks"] == [
        {"uuid": NET_ID},
        {"port": PORT_ID},
        {"uuid": NET_ID, "fixed_ip": "10.0.0.5", "tag": "web"},
        {"uuid": NET_ID},
    ]
    networks = requests_to(m, "GET", "/v2.0/networks")
    assert len(networks) == 1 and networks[0].qs == {"name": ["private"]}
    assert len(requests_to(m, "GET", "/v2.0/ports")) == 1


def test_unknown_network_name_fails_before_the_boot(cli, boot, mock_cloud):
    mock_cloud.mock.get(V2 + "/networks", json={"networks": []})
    code, out, err = create(cli, "--network", "nosuch")
    assert code == 1
    assert err.strip() == "No network with a name or ID of 'nosuch' exists. (HTTP 404)"
    assert not boot.called


def test_security_groups_resolve_to_ids(cli, boot, mock_cloud):
    groups = load_fixture("network", "security-groups", "security-groups-list-response.json")
    mock_cloud.mock.get(V2 + "/security-groups", json=groups)
    group = groups["security_groups"][0]
    code, out, err = create(cli, "--security-group", group["name"])
    assert code == 0, err
    assert sent(boot)["security_groups"] == [{"name": group["id"]}]
    mock_cloud.mock.get(V2 + "/security-groups", json={"security_groups": []})
    code, out, err = create(cli, "--security-group", "nosuch")
    assert code == 1
    assert "No security group with a name or ID of 'nosuch' exists." in err


def test_no_security_group_sends_an_empty_list(cli, boot):
    code, out, err = create(cli, "--no-security-group")
    assert code == 0, err
    assert sent(boot)["security_groups"] == []


def test_boot_from_volume_and_from_snapshot(cli, boot, mock_cloud):
    volume = load_fixture("volume", "volumes", "volume-show-response.json")
    snapshot = load_fixture("volume", "snapshots", "snapshot-show-response.json")
    mock_cloud.mock.get(
        VOLUME + "/volumes/detail", json={"volumes": [dict(volume["volume"], name="root")]}
    )
    mock_cloud.mock.get(VOLUME + "/snapshots/" + SNAPSHOT_ID, json=snapshot)
    code, out, err = create(cli, "--volume", "root", image=False)
    assert code == 0, err
    assert "imageRef" not in sent(boot)
    assert sent(boot)["block_device_mapping_v2"] == [
        {"uuid": VOLUME_ID, "source_type": "volume", "destination_type": "volume", "boot_index": 0}
    ]
    code, out, err = create(cli, "--snapshot", SNAPSHOT_ID, image=False)
    assert code == 0, err
    assert sent(boot)["block_device_mapping_v2"] == [
        {
            "uuid": SNAPSHOT_ID,
            "source_type": "snapshot",
            "destination_type": "volume",
            "boot_index": 0,
            "delete_on_termination": False,
        }
    ]


@pytest.mark.parametrize(
    "extra, image, message",
    [
        (["--volume", "v"], True, "--image and --volume cannot be combined"),
        (["--volume", "v", "--snapshot", "s"], False, "--volume and --snapshot cannot be"),
        ([], False, "Give --image, --volume or --snapshot"),
        (
            ["--volume", "v", "--block-device", "source=blank,dest=volume,size=1,boot-index=0"],
            False,
            "--volume cannot be combined with another boot disk",
        ),
        (["--no-security-group", "--security-group", "g"], True, "--no-security-group cannot"),
        (["--nic", "auto", "--network", "private"], True, "--nic auto cannot be combined"),
        (["--port", "p", "--nic", "none"], True, "--nic none cannot be combined"),
        (["--nic", "net-id=n,tag="], True, "--nic tag needs a value"),
    ],
)
def test_conflicts_are_usage_errors_before_any_request(cli, mock_cloud, extra, image, message):
    code, out, err = create(cli, *extra, image=image)
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert not [r for r in mock_cloud.mock.request_history if "/identity/" not in r.url]


def test_nic_tag_needs_2_42(cli, mock_cloud):
    code, out, err = cli(
        "--os-compute-api-version", "2.41",
        "server", "create", "vm", "--image", "cirros", "--flavor", "m1.tiny",
        "--network", "private", "--nic", "net-id=private,tag=t",
    )  # fmt: skip
    assert code == 1
    assert "NIC tags" in err and "2.42" in err
    assert not requests_to(mock_cloud.mock, "GET", "/network/")
