"""Hypervisors (list, show with servers and uptime, stats), compute
service deletion, key pairs (users, paging, the generated private key on
standard output) and availability zones: managers and commands against
nova's samples and its recorded answers
(tests/fixtures/compute/realcloud/)."""

import json

import pytest

from occli import exceptions

from .fakes import AUTH_URL
from .fakes import COMPUTE
from .fakes import load_fixture
from .fakes import requests_to

HOSTS = load_fixture("compute", "realcloud", "nova-34-hypervisors-services.json")["exchanges"]
KEYS = load_fixture("compute", "realcloud", "nova-34-keypairs.json")["exchanges"]
USER_ID = "e24d6a5137a8438b894744a55db09b1d"


def sample(*parts):
    return load_fixture("compute", *parts)


def recorded_error(exchange):
    ((name, body),) = exchange["body"].items()
    return {"status_code": exchange["status"], "json": {name: body}}


@pytest.fixture
def aggregates(mock_cloud):
    listing = sample("os-aggregates", "aggregates-list-get-resp.json")
    mock_cloud.mock.get(COMPUTE + "/os-aggregates", json=listing)
    return listing


# -- hypervisors ------------------------------------------------------------


def test_hypervisor_list_matching_by_version(cli, mock_cloud):
    m = mock_cloud.mock
    m.get(
        COMPUTE + "/os-hypervisors/detail",
        json=sample("os-hypervisors", "v2.88", "hypervisors-detail-resp.json"),
    )
    code, out, err = cli("hypervisor", "list", "--matching", "host", "-f", "json")
    assert code == 0, err
    assert requests_to(m, "GET", "/os-hypervisors/detail")[0].qs == {
        "hypervisor_hostname_pattern": ["host"]
    }
    assert json.loads(out)[0]["Hypervisor Type"] == "fake"
    # before 2.53: nova's search route (no details)
    m.get(
        COMPUTE + "/os-hypervisors/fake/search",
        json=sample("os-hypervisors", "hypervisors-search-resp.json"),
    )
    code, out, err = cli(
        "--os-compute-api-version", "2.1", "hypervisor", "list", "--matching", "fake", "-f", "json"
    )
    assert code == 0, err
    assert [r["Hypervisor Hostname"] for r in json.loads(out)] == ["fake-mini"]
    code, out, err = cli("hypervisor", "list", "--matching", "x", "--limit", "1")
    assert code == 2
    assert "--matching cannot be combined with --limit or --marker" in err


def test_hypervisor_list_long_until_2_87(cli, mock_cloud):
    m = mock_cloud.mock
    m.get(
        COMPUTE + "/os-hypervisors/detail",
        json=sample("os-hypervisors", "v2.53", "hypervisors-detail-resp.json"),
    )
    code, out, err = cli(
        "--os-compute-api-version", "2.87", "hypervisor", "list", "--long", "-f", "json"
    )
    row = json.loads(out)[0]
    assert (row["vCPUs Used"], row["vCPUs"], row["Memory MB"]) == (0, 2, 8192)
    code, out, err = cli("hypervisor", "list", "--long", "-f", "json")
    assert "vCPUs" not in json.loads(out)[0]
    code, out, err = cli("--os-compute-api-version", "2.32", "hypervisor", "list", "--marker", "1")
    assert code == 1 and "--marker requires compute API version 2.33" in err


def test_hypervisor_show_2_88_with_servers(cli, mock_cloud, aggregates):
    m = mock_cloud.mock
    shown = sample("os-hypervisors", "v2.88", "hypervisors-show-with-servers-resp.json")
    hypervisor = shown["hypervisor"]
    m.get(COMPUTE + "/os-hypervisors", json={"hypervisors": [hypervisor]})
    m.get(COMPUTE + "/os-hypervisors/" + hypervisor["id"], json=shown)
    code, out, err = cli("hypervisor", "show", "fake-mini", "-f", "json")
    assert code == 0, err
    info = json.loads(out)
    assert "servers" not in info  # as OSC: with -c only
    code, out, err = cli("hypervisor", "show", "fake-mini", "-f", "json", "-c", "servers")
    assert json.loads(out).keys() == {"servers"}
    info["servers"] = json.loads(out)["servers"]
    assert info["servers"] == ["%s (%s)" % (s["uuid"], s["name"]) for s in hypervisor["servers"]]
    assert info["service_host"] == "compute"
    assert "uptime" not in info  # null: nothing to read
    got = requests_to(m, "GET", "/os-hypervisors/" + hypervisor["id"])
    assert got[0].qs == {"with_servers": ["true"]}
    assert not requests_to(m, "GET", "/uptime")


def test_hypervisor_show_2_1_servers_and_uptime_routes(cli, mock_cloud, aggregates):
    m = mock_cloud.mock
    m.get(
        COMPUTE + "/os-hypervisors/1", json=sample("os-hypervisors", "hypervisors-show-resp.json")
    )
    m.get(
        COMPUTE + "/os-hypervisors/fake-mini/servers",
        json=sample("os-hypervisors", "hypervisors-with-servers-resp.json"),
    )
    m.get(
        COMPUTE + "/os-hypervisors/1/uptime",
        json=sample("os-hypervisors", "hypervisors-uptime-resp.json"),
    )
    code, out, err = cli(
        "--os-compute-api-version", "2.1", "hypervisor", "show", "1", "-f", "json",
        "-c", "host_time", "-c", "uptime", "-c", "users", "-c", "load_average",
        "-c", "servers", "-c", "cpu_info",
    )  # fmt: skip
    assert code == 0, err
    info = json.loads(out)
    assert (info["host_time"], info["uptime"], info["users"], info["load_average"]) == (
        "08:32:11",
        "93 days, 18:25",
        "12",
        "0.20, 0.12, 0.14",
    )
    assert len(info["servers"]) == 2
    assert info["cpu_info"]["arch"] == "x86_64"  # was JSON text


def test_hypervisor_uptime_of_a_driver_without_it(client, mock_cloud):
    client.requested_compute_version = "2.53"
    uuid = HOSTS["show_2_88"]["body"]["hypervisor"]["id"]
    mock_cloud.mock.get(
        COMPUTE + "/os-hypervisors/%s/uptime" % uuid, **recorded_error(HOSTS["uptime_2_53"])
    )
    assert client.hypervisors.uptime(uuid) is None


def test_hypervisor_stats_show_until_2_87(cli, mock_cloud):
    m = mock_cloud.mock
    m.get(COMPUTE + "/os-hypervisors/statistics", json=HOSTS["stats_2_87"]["body"])
    code, out, err = cli("hypervisor", "stats", "show", "-f", "json")
    assert code == 0, err
    assert json.loads(out) == HOSTS["stats_2_87"]["body"]["hypervisor_statistics"]
    # negotiated 2.96: asked at 2.87, nova's last version with the route
    sent = requests_to(m, "GET", "/os-hypervisors/statistics")[0]
    assert sent.headers["OpenStack-API-Version"] == "compute 2.87"
    code, out, err = cli("--os-compute-api-version", "2.88", "hypervisor", "stats", "show")
    assert code == 1
    assert err.strip() == (
        "Hypervisor statistics requires compute API version between 2.1 "
        "and 2.87 (in use: 2.88); change --os-compute-api-version."
    )
    assert len(requests_to(m, "GET", "/os-hypervisors/statistics")) == 1


# -- compute services -----------------------------------------------------------


def test_compute_service_delete(cli, mock_cloud):
    m = mock_cloud.mock
    busy = HOSTS["svc_delete_with_servers"]
    busy_id = busy["request"]["path"].rsplit("/", 1)[1]
    m.delete(COMPUTE + "/os-services/" + busy_id, **recorded_error(busy))
    m.delete(COMPUTE + "/os-services/other", status_code=204)
    code, out, err = cli("compute", "service", "delete", busy_id, "other")
    assert code == 1
    assert err.strip() == (
        "Failed to delete compute service %s: Unable to delete compute "
        "service that is hosting instances. Migrate or delete the instances "
        "first. (HTTP 409)" % busy_id
    )
    assert len(requests_to(m, "DELETE", "/os-services/")) == 2


# -- key pairs ----------------------------------------------------------------


@pytest.fixture
def users(mock_cloud):
    m = mock_cloud.mock
    m.get(
        AUTH_URL + "/users/probe-demo",
        status_code=404,
        json={"error": {"code": 404, "message": "Could not find user."}},
    )
    m.get(
        AUTH_URL + "/users?name=probe-demo",
        json={"users": [{"id": USER_ID, "name": "probe-demo", "domain_id": "default"}]},
    )
    return m


def test_keypair_create_prints_the_private_key(cli, mock_cloud):
    answer = sample("os-keypairs", "v2.10", "keypairs-post-resp.json")
    mock_cloud.mock.post(COMPUTE + "/os-keypairs", status_code=201, json=answer)
    code, out, err = cli("keypair", "create", "k")
    assert code == 0, err
    # the key file as ssh wants it, nothing else
    assert out == answer["keypair"]["private_key"]
    code, out, err = cli("keypair", "create", "k", "-f", "json")
    shown = json.loads(out)
    assert shown["private_key"] == answer["keypair"]["private_key"]
    assert shown["fingerprint"] == answer["keypair"]["fingerprint"]
    code, out, err = cli("keypair", "create", "k", "-f", "value", "-c", "private_key")
    assert out == answer["keypair"]["private_key"] + "\n"


def test_keypair_create_x509_for_another_user(cli, mock_cloud, users):
    answer = KEYS["gen_x509"]["body"]
    mock_cloud.mock.post(COMPUTE + "/os-keypairs", status_code=201, json=answer)
    code, out, err = cli("keypair", "create", "pk-x509", "--type", "x509", "--user", "probe-demo")
    assert code == 0, err
    assert out == answer["keypair"]["private_key"] + "\n"
    sent = requests_to(mock_cloud.mock, "POST", "/os-keypairs")[0]
    assert sent.json() == {"keypair": {"name": "pk-x509", "type": "x509", "user_id": USER_ID}}
    assert sent.headers["OpenStack-API-Version"] == "compute 2.91"


@pytest.mark.parametrize(
    "version,argv,message",
    [
        ("2.1", ("--type", "x509"), "Key type requires compute API version 2.2"),
        ("2.9", ("--user", "u"), "--user requires compute API version 2.10"),
    ],
)
def test_keypair_create_version_errors_send_nothing(cli, mock_cloud, version, argv, message):
    code, out, err = cli("--os-compute-api-version", version, "keypair", "create", "k", *argv)
    assert code == 1 and message in err
    assert not [
        r
        for r in mock_cloud.mock.request_history
        if r.method == "POST" and "/os-keypairs" in r.url
    ]
    assert not requests_to(mock_cloud.mock, "GET", "/users")


def test_keypair_list_user_and_paging(cli, mock_cloud, users):
    m = mock_cloud.mock
    m.get(
        COMPUTE + "/os-keypairs",
        json=sample("os-keypairs", "v2.35", "keypairs-list-user1-resp.json"),
    )
    code, out, err = cli(
        "keypair", "list", "--user", "probe-demo", "--limit", "1", "--marker", "a", "-f", "json"
    )
    assert code == 0, err
    assert requests_to(m, "GET", "/os-keypairs")[0].qs == {
        "user_id": [USER_ID],
        "limit": ["1"],
        "marker": ["a"],
    }
    m.get(COMPUTE + "/os-keypairs?user_id=" + USER_ID, **recorded_error(KEYS["list_user_member"]))
    code, out, err = cli("keypair", "list", "--user", "probe-demo")
    assert code == 1
    assert "os_compute_api:os-keypairs:index" in err
    code, out, err = cli("--os-compute-api-version", "2.34", "keypair", "list", "--marker", "a")
    assert code == 1 and "--marker requires compute API version 2.35" in err


def test_keypair_show_public_key_and_delete_for_a_user(cli, mock_cloud, users):
    m = mock_cloud.mock
    shown = sample("os-keypairs", "v2.10", "keypairs-get-resp.json")
    name = shown["keypair"]["name"]
    m.get(COMPUTE + "/os-keypairs/" + name, json=shown)
    code, out, err = cli("keypair", "show", name, "--public-key")
    assert code == 0 and out == shown["keypair"]["public_key"]
    code, out, err = cli("keypair", "show", name, "-f", "json")
    assert "public_key" not in json.loads(out)
    m.delete(COMPUTE + "/os-keypairs/" + name, status_code=204)
    code, out, err = cli("keypair", "delete", name, "--user", "probe-demo")
    assert code == 0, err
    assert requests_to(m, "DELETE", "/os-keypairs/")[0].qs == {"user_id": [USER_ID]}


def test_keypair_manager_user_id_needs_2_10(client, mock_cloud):
    client.requested_compute_version = "2.9"
    with pytest.raises(exceptions.UnsupportedVersion, match="user_id"):
        client.keypairs.get("k", user_id="u")
    with pytest.raises(exceptions.UnsupportedVersion):
        client.keypairs.delete("k", user_id="u")


# -- availability zones -------------------------------------------------------


def test_availability_zone_list_long_from_sample(cli, mock_cloud):
    mock_cloud.mock.get(
        COMPUTE + "/os-availability-zone/detail",
        json=sample("os-availability-zone", "availability-zone-detail-resp.json"),
    )
    code, out, err = cli("availability", "zone", "list", "--compute", "--long", "-f", "json")
    assert code == 0, err
    for row in json.loads(out):
        assert row.pop("Zone Resource") == ""  # OSC's column, Neutron's zones fill it
    assert [{k: v for k, v in row.items() if k != "Zone Resource"} for row in json.loads(out)] == [
        {
            "Zone Name": "internal",
            "Zone Status": "available",
            "Host Name": "conductor",
            "Service Name": "nova-conductor",
            "Service Status": "enabled up",
        },
        {
            "Zone Name": "internal",
            "Zone Status": "available",
            "Host Name": "scheduler",
            "Service Name": "nova-scheduler",
            "Service Status": "enabled up",
        },
        {
            "Zone Name": "nova",
            "Zone Status": "available",
            "Host Name": "compute",
            "Service Name": "nova-compute",
            "Service Status": "enabled up",
        },
    ]
