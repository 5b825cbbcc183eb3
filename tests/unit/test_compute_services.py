"""Enabling, disabling and forcing down compute services: the manager's
routes by microversion and ``compute service set``."""

import json

import pytest

from occli import exceptions

from .fakes import AUTH_URL
from .fakes import COMPUTE
from .fakes import PASSWORD
from .fakes import load_fixture
from .fakes import requests_to

UUID = "e81d66a4-ddd3-4aba-8a84-171d1cb4d339"
TARGET = {"host": "host1", "binary": "nova-compute"}


def sample(version, name):
    parts = ("compute", "os-services") + (() if version == "2.1" else ("v" + version,)) + (name,)
    return load_fixture(*parts)


def pinned(version):
    """An authenticated client with the compute version pinned."""
    from keystoneauth1 import session
    from keystoneauth1.identity import v3

    from occli.client import Client

    auth = v3.Password(
        auth_url=AUTH_URL,
        username="admin",
        password=PASSWORD,
        project_name="admin",
        user_domain_id="default",
        project_domain_id="default",
    )
    return Client(session=session.Session(auth=auth), compute_api_version=version)


def puts(mock):
    return [
        (r.url[len(COMPUTE) :], r.json(), r.headers["OpenStack-API-Version"])
        for r in mock.request_history
        if r.method == "PUT"
    ]


# -- manager: before 2.53 (host and binary in the body) -----------------------


@pytest.mark.parametrize("version", ["2.1", "2.11"])
def test_enable_disable_before_2_53(mock_cloud, version):
    m = mock_cloud.mock
    for action, resp in (
        ("enable", "service-enable-put-resp.json"),
        ("disable", "service-disable-put-resp.json"),
        ("disable-log-reason", "service-disable-log-put-resp.json"),
    ):
        m.put(COMPUTE + "/os-services/" + action, json=sample(version, resp))
    c = pinned(version)
    assert c.services.enable(("host1", "nova-compute")).status == "enabled"
    assert c.services.disable(("host1", "nova-compute")).status == "disabled"
    got = c.services.disable(("host1", "nova-compute"), reason="test2")
    assert got.disabled_reason == "test2"
    header = "compute " + version
    assert puts(m) == [
        ("/os-services/enable", sample(version, "service-enable-put-req.json"), header),
        ("/os-services/disable", sample(version, "service-disable-put-req.json"), header),
        (
            "/os-services/disable-log-reason",
            sample(version, "service-disable-log-put-req.json"),
            header,
        ),
    ]


def test_a_listed_service_names_itself_before_2_53(mock_cloud):
    m = mock_cloud.mock
    m.get(COMPUTE + "/os-services", json=sample("2.11", "services-list-get-resp.json"))
    m.put(COMPUTE + "/os-services/disable", json=sample("2.11", "service-disable-put-resp.json"))
    c = pinned("2.11")
    service = [s for s in c.services.list() if s.binary == "nova-compute"][0]
    c.services.disable(service)
    assert puts(m)[0][1] == TARGET
    with pytest.raises(exceptions.CommandError) as err:
        c.services.disable(7)
    assert "host and binary" in str(err.value)


def test_force_down_2_11_and_refused_below(mock_cloud):
    m = mock_cloud.mock
    m.put(
        COMPUTE + "/os-services/force-down",
        json=sample("2.11", "service-force-down-put-resp.json"),
    )
    got = pinned("2.11").services.force_down(("host1", "nova-compute"))
    assert got.forced_down is True
    assert puts(m) == [
        (
            "/os-services/force-down",
            sample("2.11", "service-force-down-put-req.json"),
            "compute 2.11",
        )
    ]
    pinned("2.11").services.force_down(("host1", "nova-compute"), forced_down=False)
    assert puts(m)[-1][1] == dict(TARGET, forced_down=False)
    with pytest.raises(exceptions.UnsupportedVersion) as err:
        pinned("2.10").services.force_down(("host1", "nova-compute"))
    assert "2.11 or later" in str(err.value)
    assert len(puts(m)) == 2


# -- manager: 2.53+ (uuid in the URL) ----------------------------------------


@pytest.mark.parametrize("version", ["2.53", "2.96"])
def test_uuid_routes_from_2_53(mock_cloud, version):
    m = mock_cloud.mock
    m.put(
        COMPUTE + "/os-services/" + UUID,
        [
            {"json": sample("2.53", name)}
            for name in (
                "service-enable-put-resp.json",
                "service-disable-put-resp.json",
                "service-disable-log-put-resp.json",
                "service-force-down-put-resp.json",
            )
        ],
    )
    c = pinned(version)
    assert c.services.enable(UUID).id == UUID
    c.services.disable(UUID)
    got = c.services.disable(UUID, reason="maintenance")
    assert got.disabled_reason == "maintenance" and got.state == "up"
    down = c.services.force_down(UUID)
    assert down.forced_down is True and down.state == "down"
    url = "/os-services/" + UUID
    header = "compute " + version
    assert puts(m) == [
        (url, {"status": "enabled"}, header),
        (url, {"status": "disabled"}, header),
        (url, {"status": "disabled", "disabled_reason": "maintenance"}, header),
        (url, {"forced_down": True}, header),
    ]


def test_host_and_binary_resolve_to_the_uuid_from_2_53(client, mock_cloud):
    m = mock_cloud.mock
    listed = sample("2.53", "services-list-get-resp.json")
    m.get(
        COMPUTE + "/os-services",
        json={
            "services": [
                s
                for s in listed["services"]
                if s["host"] == "host1" and s["binary"] == "nova-compute"
            ]
        },
    )
    m.put(COMPUTE + "/os-services/" + UUID, json=sample("2.53", "service-enable-put-resp.json"))
    client.services.enable(("host1", "nova-compute"))
    sent = requests_to(m, "GET", "/os-services")[0]
    assert sent.qs == {"host": ["host1"], "binary": ["nova-compute"]}
    assert puts(m) == [("/os-services/" + UUID, {"status": "enabled"}, "compute 2.96")]


# -- command ----------------------------------------------------------------


def _listing(mock, services):
    mock.get(COMPUTE + "/os-services", json={"services": services})


def _host1():
    return [
        s
        for s in sample("2.53", "services-list-get-resp.json")["services"]
        if s["host"] == "host1" and s["binary"] == "nova-compute"
    ]


def test_set_disable_with_reason_then_down(cli, mock_cloud):
    m = mock_cloud.mock
    _listing(m, _host1())
    m.put(
        COMPUTE + "/os-services/" + UUID, json=sample("2.53", "service-force-down-put-resp.json")
    )
    code, out, err = cli(
        "compute",
        "service",
        "set",
        "host1",
        "nova-compute",
        "--disable",
        "--disable-reason",
        "maintenance",
        "--down",
    )
    assert (code, out, err) == (0, "", "")
    assert [b for _, b, _ in puts(m)] == [
        {"status": "disabled", "disabled_reason": "maintenance"},
        {"forced_down": True},
    ]


def test_set_enable_up_before_2_53(cli, mock_cloud):
    m = mock_cloud.mock
    m.put(COMPUTE + "/os-services/enable", json=sample("2.11", "service-enable-put-resp.json"))
    m.put(
        COMPUTE + "/os-services/force-down",
        json=dict(sample("2.11", "service-force-down-put-resp.json")),
    )
    code, out, err = cli(
        "--os-compute-api-version",
        "2.11",
        "compute",
        "service",
        "set",
        "host1",
        "nova-compute",
        "--enable",
        "--up",
    )
    assert (code, out) == (0, ""), err
    assert [(u, b) for u, b, _ in puts(m)] == [
        ("/os-services/enable", TARGET),
        ("/os-services/force-down", dict(TARGET, forced_down=False)),
    ]
    assert not requests_to(m, "GET", "/os-services")


@pytest.mark.parametrize(
    "argv,message",
    [
        (
            ("--disable-reason", "x"),
            "Cannot specify option --disable-reason without --disable specified.",
        ),
        (
            ("--enable", "--disable-reason", "x"),
            "Cannot specify option --disable-reason without --disable specified.",
        ),
        ((), "Nothing to set: give --enable, --disable, --up or --down."),
    ],
)
def test_set_option_errors_send_nothing(cli, mock_cloud, argv, message):
    code, out, err = cli("compute", "service", "set", "host1", "nova-compute", *argv)
    assert (code, out, err.strip()) == (2, "", message)
    assert not [r for r in mock_cloud.mock.request_history if "/os-services" in r.url]


@pytest.mark.parametrize("argv", [("--enable", "--disable"), ("--down", "--up"), ()])
def test_set_usage_errors(cli, mock_cloud, argv):
    if not argv:
        argv = ("--disable",)  # the host and binary are required
        code, out, err = cli("compute", "service", "set", "host1", *argv)
    else:
        code, out, err = cli("compute", "service", "set", "host1", "nova-compute", *argv)
    assert code == 2
    assert out == ""
    if len(argv) == 2:
        assert "argument %s: not allowed with argument %s" % (argv[1], argv[0]) in err
    assert not mock_cloud.mock.request_history


def test_set_down_below_2_11_is_refused_before_any_change(cli, mock_cloud):
    code, out, err = cli(
        "--os-compute-api-version",
        "2.10",
        "compute",
        "service",
        "set",
        "host1",
        "nova-compute",
        "--disable",
        "--down",
    )
    assert code == 1
    assert err.strip() == (
        "Forcing a compute service down or up requires compute API version "
        "2.11 or later (in use: 2.10); change --os-compute-api-version."
    )
    assert not puts(mock_cloud.mock)


def test_set_unknown_service(cli, mock_cloud):
    _listing(mock_cloud.mock, [])
    code, out, err = cli("compute", "service", "set", "host9", "nova-compute", "--disable")
    assert code == 1 and out == ""
    assert err.strip() == ("No compute service nova-compute on host 'host9'. (HTTP 404)")
    assert not puts(mock_cloud.mock)


def test_set_unknown_host_before_2_53_is_the_server_404(cli, mock_cloud):
    mock_cloud.mock.put(
        COMPUTE + "/os-services/disable",
        status_code=404,
        json={"itemNotFound": {"code": 404, "message": "Host 'host9' is not mapped to any cell"}},
    )
    code, out, err = cli(
        "--os-compute-api-version",
        "2.52",
        "compute",
        "service",
        "set",
        "host9",
        "nova-compute",
        "--disable",
    )
    assert code == 1
    lines = err.strip().splitlines()
    assert len(lines) == 1
    assert "Host 'host9' is not mapped to any cell" in lines[0]
    assert "(HTTP 404)" in lines[0]


def test_service_list_shows_forced_down_from_2_11(cli, mock_cloud):
    mock_cloud.mock.get(
        COMPUTE + "/os-services", json=sample("2.53", "services-list-get-resp.json")
    )
    code, out, err = cli("compute", "service", "list", "--long", "-f", "json")
    rows = json.loads(out)
    assert rows[1]["Forced Down"] is False
    assert (rows[1]["Status"], rows[1]["State"], rows[1]["Disabled Reason"]) == (
        "disabled",
        "up",
        "test2",
    )
    mock_cloud.mock.get(
        COMPUTE + "/os-services", json=sample("2.1", "services-list-get-resp.json")
    )
    code, out, err = cli(
        "--os-compute-api-version", "2.10", "compute", "service", "list", "--long", "-f", "json"
    )
    assert "Forced Down" not in json.loads(out)[0]
    # without --long: OpenStackClient's columns
    code, out, err = cli("compute", "service", "list", "-f", "json")
    assert list(json.loads(out)[0]) == [
        "ID",
        "Binary",
        "Host",
        "Zone",
        "Status",
        "State",
        "Updated At",
    ]
