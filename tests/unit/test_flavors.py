"""Flavor manager and commands against the upstream flavor samples."""

import json

import pytest

from occli import exceptions

from .fakes import COMPUTE
from .fakes import load_fixture
from .fakes import requests_to


@pytest.fixture
def flavors(mock_cloud):
    detail = load_fixture("compute", "flavors", "v2.75", "flavors-detail-resp.json")
    mock_cloud.mock.get(COMPUTE + "/flavors/detail", json=detail)
    one = load_fixture("compute", "flavors", "v2.75", "flavor-get-resp.json")
    mock_cloud.mock.get(COMPUTE + "/flavors/7", json=one)
    mock_cloud.mock.get(
        COMPUTE + "/flavors/nosuch",
        status_code=404,
        json={"itemNotFound": {"code": 404, "message": "Flavor nosuch could not be found."}},
        headers={"x-openstack-request-id": "req-abc"},
    )
    return detail


def test_list_parses_every_sample_flavor(client, flavors):
    got = list(client.flavors.list())
    assert [f.id for f in got] == [f["id"] for f in flavors["flavors"]]
    for flavor, sample in zip(got, flavors["flavors"], strict=True):
        assert flavor.name == sample["name"]
        assert flavor.ram == sample["ram"]
        assert flavor.to_dict() == sample


def test_get_sends_negotiated_microversion(client, flavors, mock_cloud):
    flavor = client.flavors.get("7")
    assert flavor.name == "m1.small.description"
    sent = requests_to(mock_cloud.mock, "GET", "/flavors/7")[0]
    assert sent.headers["OpenStack-API-Version"] == "compute 2.96"
    assert sent.headers["X-OpenStack-Nova-API-Version"] == "2.96"


def test_not_found_carries_status_message_and_request_id(client, flavors):
    with pytest.raises(exceptions.NotFound) as err:
        client.flavors.get("nosuch")
    assert str(err.value) == ("Flavor nosuch could not be found. (HTTP 404) (Request-ID: req-abc)")


def test_flavor_list_command_json(cli, flavors):
    code, out, err = cli("flavor", "list", "-f", "json")
    assert code == 0, err
    rows = json.loads(out)
    assert [r["Name"] for r in rows] == [f["name"] for f in flavors["flavors"]]


def test_flavor_show_by_name(cli, flavors, mock_cloud):
    mock_cloud.mock.get(
        COMPUTE + "/flavors/m1.tiny",
        status_code=404,
        json={"itemNotFound": {"code": 404, "message": "x"}},
    )
    code, out, err = cli("flavor", "show", "m1.tiny", "-f", "json")
    assert code == 0, err
    assert json.loads(out)["id"] == "1"
