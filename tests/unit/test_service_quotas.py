"""Neutron's and Cinder's quotas: client.network_quotas and
client.volume_quotas on the upstream samples, and the quota commands
that show and set them with nova's."""

import copy
import json

import pytest

from occli import exceptions

from . import fakes
from .fakes import COMPUTE
from .fakes import NETWORK
from .fakes import PROJECT_ID
from .fakes import load_fixture
from .fakes import requests_to

OTHER = "5c6a3e8f0b2d4e71a9c3d2f1e0b4a6c8"
NEUTRON = NETWORK + "/v2.0/quotas/"
CINDER = fakes.VOLUME + "/os-quota-sets/"
NOVA = COMPUTE + "/os-quota-sets/"


def network_sample(name):
    return copy.deepcopy(load_fixture("network", "quotas", name))


def volume_sample(name):
    return copy.deepcopy(load_fixture("volume", "quota_sets", name))


def nova_sample(name):
    return copy.deepcopy(load_fixture("compute", "os-quota-sets", "v2.57", name))


def answer_all(m, project=PROJECT_ID):
    """Each service's limits of ``project``, as the samples give them."""
    m.get(NOVA + project, json=nova_sample("quotas-show-get-resp.json"))
    m.get(NOVA + project + "/detail", json=nova_sample("quotas-show-detail-get-resp.json"))
    m.get(NOVA + project + "/defaults", json=nova_sample("quotas-show-defaults-get-resp.json"))
    m.get(NEUTRON + project, json=network_sample("quotas-list-for-project-response.json"))
    m.get(
        NEUTRON + project + "/details",
        json=network_sample("quota-details-show-for-project-response.json"),
    )
    m.get(
        NEUTRON + project + "/default",
        json=network_sample("quotas-list-for-project-response.json"),
    )
    body = volume_sample("quotas-show-response.json")
    usage = volume_sample("quotas-show-usage-response.json")
    m.get(
        CINDER + project,
        json=lambda request, context: usage if "usage=true" in request.url.lower() else body,
    )
    m.get(CINDER + project + "/defaults", json=volume_sample("quotas-show-defaults-response.json"))


# -- managers ------------------------------------------------------------------------


def test_network_quotas_of_the_token_project(client, mock_cloud):
    answer_all(mock_cloud.mock)
    found = client.network_quotas.get()
    assert found.port == 50 and found.floatingip == 50
    detail = client.network_quotas.get(detail=True)
    assert detail.port == {"used": 21, "limit": 500, "reserved": 3}
    assert client.network_quotas.defaults().subnetpool == -1


def test_network_quota_update_sends_neutrons_body(client, mock_cloud):
    m = mock_cloud.mock
    m.put(NEUTRON + OTHER, json=network_sample("quotas-update-response.json"))
    updated = client.network_quotas.update(OTHER, network=15, port=50, force=True)
    assert updated.network == 15
    (put,) = requests_to(m, "PUT", "/v2.0/quotas/")
    assert put.json() == {"quota": {"network": 15, "port": 50, "force": True}}


@pytest.mark.parametrize(
    "limits", [{}, {"ports": 1}, {"port": -2}, {"port": "5"}, {"port": True}, {"port": 2**31}]
)
def test_network_quota_bad_limits_cost_no_request(client, mock_cloud, limits):
    with pytest.raises(exceptions.ValidationError):
        client.network_quotas.update(OTHER, **limits)
    assert requests_to(mock_cloud.mock, "PUT", "/quotas/") == []


def test_network_quota_delete(client, mock_cloud):
    mock_cloud.mock.delete(NEUTRON + OTHER, status_code=204)
    client.network_quotas.delete(OTHER)
    with pytest.raises(exceptions.ValidationError):
        client.network_quotas.delete(None)


def test_volume_quotas_of_the_token_project(client, mock_cloud):
    answer_all(mock_cloud.mock)
    assert client.volume_quotas.get().volumes == 10
    used = client.volume_quotas.get(usage=True)
    assert used.gigabytes == {"in_use": 0, "limit": 1000, "reserved": 0}
    (request,) = [r for r in requests_to(mock_cloud.mock, "GET", "/os-quota-sets/") if r.qs]
    assert request.qs == {"usage": ["true"]}
    assert client.volume_quotas.defaults().backups == 10


def test_volume_quota_update_per_type(client, mock_cloud):
    m = mock_cloud.mock
    m.put(CINDER + OTHER, json=volume_sample("quotas-show-response.json"))
    client.volume_quotas.update(OTHER, volumes=5, gigabytes=50)
    client.volume_quotas.update(OTHER, volume_type="__DEFAULT__", volumes=3)
    first, second = requests_to(m, "PUT", "/os-quota-sets/")
    assert first.json() == {"quota_set": {"volumes": 5, "gigabytes": 50}}
    assert second.json() == {"quota_set": {"volumes___DEFAULT__": 3}}
    with pytest.raises(exceptions.ValidationError):
        client.volume_quotas.update(OTHER, volume_type="__DEFAULT__", backups=1)
    assert len(requests_to(m, "PUT", "/os-quota-sets/")) == 2


def test_no_network_or_volume_service(mock_cloud):
    from keystoneauth1 import session

    from occli.client import Client

    body = fakes.token_body()
    body["token"]["catalog"] = [
        s for s in fakes.catalog() if s["type"] not in ("network", "volumev3")
    ]
    mock_cloud.mock.post(
        fakes.AUTH_URL + "/auth/tokens",
        status_code=201,
        json=body,
        headers={"X-Subject-Token": fakes.TOKEN},
    )
    client = Client(session=session.Session(auth=fakes.password_auth()))
    assert not client.network_quotas.available()
    assert not client.volume_quotas.available()


# -- commands --------------------------------------------------------------------------


def rows(out):
    return {r["Resource"]: r for r in json.loads(out)}


def test_quota_show_has_every_service(cli, mock_cloud):
    answer_all(mock_cloud.mock)
    code, out, err = cli("quota", "show", "-f", "json")
    assert code == 0, err
    shown = {name: row["Limit"] for name, row in rows(out).items()}
    # nova's, then Neutron's and Cinder's named as OSC 10.5 shows them
    assert shown["instances"] == 10
    assert (shown["ports"], shown["floating_ips"], shown["security_group_rules"]) == (50, 50, 100)
    assert (shown["networks"], shown["subnet_pools"], shown["rbac_policies"]) == (10, -1, -1)
    assert (shown["volumes"], shown["gigabytes"], shown["per-volume-gigabytes"]) == (10, 1000, -1)
    assert shown["volumes___DEFAULT__"] == -1


def test_quota_show_usage_of_every_service(cli, mock_cloud):
    answer_all(mock_cloud.mock)
    code, out, err = cli("quota", "show", "--usage", "-f", "json")
    assert code == 0, err
    shown = rows(out)
    assert shown["ports"] == {"Resource": "ports", "Limit": 500, "In Use": 21, "Reserved": 3}
    assert shown["gigabytes"] == {
        "Resource": "gigabytes",
        "Limit": 1000,
        "In Use": 0,
        "Reserved": 0,
    }


def test_quota_show_picks_services(cli, mock_cloud):
    m = mock_cloud.mock
    answer_all(m)
    code, out, err = cli("quota", "show", "--default", "--network", "-f", "json")
    assert code == 0, err
    assert "ports" in rows(out) and "instances" not in rows(out) and "volumes" not in rows(out)
    assert requests_to(m, "GET", "/os-quota-sets/") == []
    code, out, err = cli("quota", "show", "--volume", "-f", "json")
    assert code == 0, err
    assert set(rows(out)) >= {"volumes", "snapshots", "backup-gigabytes"}
    assert "ports" not in rows(out)
    code, out, err = cli("quota", "show", "--class", "--network")
    assert code == 2


def test_quota_show_without_network_and_volume(cli, mock_cloud, monkeypatch):
    monkeypatch.setattr(
        fakes,
        "catalog",
        lambda real=fakes.catalog: [s for s in real() if s["type"] not in ("network", "volumev3")],
    )
    fakes.install(mock_cloud.mock)
    answer_all(mock_cloud.mock)
    code, out, err = cli("quota", "show", "-f", "json")
    assert code == 0, err
    assert "instances" in rows(out) and "ports" not in rows(out)
    assert requests_to(mock_cloud.mock, "GET", "/v2.0/quotas") == []
    code, out, err = cli("quota", "set", OTHER, "--ports", "3")
    assert code == 2
    assert "no network service" in err


def test_quota_set_sends_each_limit_to_its_service(cli, mock_cloud):
    m = mock_cloud.mock
    m.put(NOVA + OTHER, json=nova_sample("quotas-update-post-resp.json"))
    m.put(NEUTRON + OTHER, json=network_sample("quotas-update-response.json"))
    m.put(CINDER + OTHER, json=volume_sample("quotas-show-response.json"))
    code, out, err = cli(
        "quota",
        "set",
        OTHER,
        "--instances",
        "4",
        "--ports",
        "20",
        "--floating-ips",
        "2",
        "--secgroups",
        "3",
        "--secgroup-rules",
        "30",
        "--networks",
        "5",
        "--subnets",
        "6",
        "--volumes",
        "7",
        "--gigabytes",
        "70",
        "--snapshots",
        "8",
        "--force",
    )
    assert (code, out) == (0, ""), err
    (nova,) = requests_to(m, "PUT", "/compute/")
    assert nova.json() == {"quota_set": {"instances": 4, "force": True}}
    (neutron,) = requests_to(m, "PUT", "/v2.0/quotas/")
    assert neutron.json() == {
        "quota": {
            "port": 20,
            "floatingip": 2,
            "security_group": 3,
            "security_group_rule": 30,
            "network": 5,
            "subnet": 6,
            "force": True,
        }
    }
    (cinder,) = requests_to(m, "PUT", "/volume/")
    assert cinder.json() == {"quota_set": {"volumes": 7, "gigabytes": 70, "snapshots": 8}}


def test_quota_set_volume_type(cli, mock_cloud):
    m = mock_cloud.mock
    m.put(CINDER + OTHER, json=volume_sample("quotas-show-response.json"))
    code, out, err = cli("quota", "set", OTHER, "--volume-type", "__DEFAULT__", "--volumes", "2")
    assert code == 0, err
    (cinder,) = requests_to(m, "PUT", "/volume/")
    assert cinder.json() == {"quota_set": {"volumes___DEFAULT__": 2}}


def test_nova_network_limits_before_2_36(cli, mock_cloud):
    m = mock_cloud.mock
    m.put(NOVA + OTHER, json=nova_sample("quotas-update-post-resp.json"))
    code, out, err = cli(
        "--os-compute-api-version", "2.35", "quota", "set", OTHER, "--floating-ips", "2"
    )
    assert code == 0, err
    (nova,) = requests_to(m, "PUT", "/compute/")
    assert nova.json() == {"quota_set": {"floating_ips": 2}}
    assert requests_to(m, "PUT", "/v2.0/") == []


@pytest.mark.parametrize(
    "argv",
    [
        ("--class", "default", "--ports", "2"),
        ("--class", "default", "--volumes", "2"),
        (OTHER, "--volume-type", "__DEFAULT__", "--instances", "2"),
        (OTHER, "--ports", "-2"),
        (OTHER, "--volumes", "x"),
    ],
)
def test_quota_set_usage_errors_cost_no_request(cli, mock_cloud, argv):
    code, out, err = cli("quota", "set", *argv)
    assert code == 2, err
    assert [r for r in mock_cloud.mock.request_history if r.method == "PUT"] == []


def test_quota_set_network_refused_by_neutron_policy(cli, mock_cloud):
    mock_cloud.mock.put(
        NEUTRON + OTHER,
        status_code=403,
        json={
            "NeutronError": {
                "type": "PolicyNotAuthorized",
                "message": "rule:update_quota is disallowed by policy",
                "detail": "",
            }
        },
    )
    code, out, err = cli("quota", "set", OTHER, "--ports", "1")
    assert code == 1
    assert "rule:update_quota is disallowed by policy" in err and "HTTP 403" in err
