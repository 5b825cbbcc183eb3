"""Extension lists: Neutron's (``client.network_extensions``) on the
upstream sample, and ``extension list`` over Nova's and Neutron's
(requests-mock)."""

import json

import pytest
from keystoneauth1 import session

from occli import Client
from occli import exceptions

from . import fakes
from .fakes import COMPUTE
from .fakes import NETWORK
from .fakes import load_fixture
from .fakes import requests_to

NEUTRON = load_fixture("network", "extensions", "extensions-list-response.json")
NOVA = load_fixture("compute", "realcloud", "nova-34-server-extras.json")["exchanges"]
NOVA_LIST = NOVA["extensions_member"]["body"]


def test_network_extensions_list_the_sample(client, mock_cloud):
    mock_cloud.mock.get(NETWORK + "/v2.0/extensions", json=NEUTRON)
    listed = list(client.network_extensions.list())
    assert [e.alias for e in listed] == [e["alias"] for e in NEUTRON["extensions"]]
    assert client.network_extensions.available()


def _mock_both(mock_cloud):
    mock_cloud.mock.get(COMPUTE + "/extensions", json=NOVA_LIST)
    mock_cloud.mock.get(NETWORK + "/v2.0/extensions", json=NEUTRON)


def test_extension_list_every_service_by_default(cli, mock_cloud):
    _mock_both(mock_cloud)
    code, out, err = cli("extension", "list", "-f", "json")
    assert code == 0, err
    aliases = [e["Alias"] for e in json.loads(out)]
    expected = [e["alias"] for e in NOVA_LIST["extensions"] + NEUTRON["extensions"]]
    assert aliases == expected


@pytest.mark.parametrize(
    "flag, source",
    [("--compute", NOVA_LIST), ("--network", NEUTRON)],
)
def test_extension_list_one_service(cli, mock_cloud, flag, source):
    _mock_both(mock_cloud)
    code, out, err = cli("extension", "list", flag, "--long", "-f", "json")
    assert code == 0, err
    listed = json.loads(out)
    assert [e["Alias"] for e in listed] == [e["alias"] for e in source["extensions"]]
    assert {"Namespace", "Updated", "Links"} <= set(listed[0])


def test_without_neutron_only_novas_are_listed(mock_cloud):
    without = [s for s in fakes.catalog() if s["type"] != "network"]
    body = fakes.token_body()
    body["token"]["catalog"] = without
    mock_cloud.mock.post(
        fakes.AUTH_URL + "/auth/tokens",
        status_code=201,
        json=body,
        headers={"X-Subject-Token": fakes.TOKEN},
    )
    client = Client(session=session.Session(auth=fakes.password_auth()))
    assert not client.network_extensions.available()
    with pytest.raises(exceptions.ClientException, match="No network endpoint found"):
        list(client.network_extensions.list())
    assert requests_to(mock_cloud.mock, "GET", "/v2.0/extensions") == []
