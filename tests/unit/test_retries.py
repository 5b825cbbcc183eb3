"""Retries: idempotent requests survive transient failures; POST never repeats."""

import pytest
import requests

from occli import exceptions

from .fakes import COMPUTE
from .fakes import requests_to

UNAVAILABLE = {
    "status_code": 503,
    "json": {"serviceUnavailable": {"code": 503, "message": "Try again later."}},
}


@pytest.fixture(autouse=True)
def no_backoff(monkeypatch):
    monkeypatch.setattr("keystoneauth1.session.time.sleep", lambda s: None)


def test_get_is_retried_on_503_then_succeeds(client, mock_cloud):
    m = mock_cloud.mock
    m.get(COMPUTE + "/flavors/detail", [UNAVAILABLE, UNAVAILABLE, {"json": {"flavors": []}}])
    assert list(client.flavors.list()) == []
    assert len(requests_to(m, "GET", "/flavors/detail")) == 3


def test_get_gives_up_after_the_retries(client, mock_cloud):
    m = mock_cloud.mock
    m.get(COMPUTE + "/flavors/detail", [UNAVAILABLE] * 5)
    with pytest.raises(exceptions.ServiceUnavailable):
        list(client.flavors.list())
    assert len(requests_to(m, "GET", "/flavors/detail")) == 1 + client.retries


def test_connection_failure_on_get_is_retried(client, mock_cloud):
    m = mock_cloud.mock
    m.get(
        COMPUTE + "/flavors/detail",
        [{"exc": requests.exceptions.ConnectionError("reset by peer")}, {"json": {"flavors": []}}],
    )
    assert list(client.flavors.list()) == []


def test_post_is_never_retried(client, mock_cloud):
    m = mock_cloud.mock
    m.post(
        COMPUTE + "/os-keypairs",
        [UNAVAILABLE, {"status_code": 201, "json": {"keypair": {"name": "k"}}}],
    )
    with pytest.raises(exceptions.ServiceUnavailable):
        client.keypairs.create("k", public_key="ssh-rsa AAAA x")
    assert len(requests_to(m, "POST", "/os-keypairs")) == 1


def test_retries_option_zero_disables_them(cli, mock_cloud):
    m = mock_cloud.mock
    m.get(COMPUTE + "/flavors/detail", [UNAVAILABLE, {"json": {"flavors": []}}])
    code, _, err = cli("--retries", "0", "flavor", "list")
    assert code == 1 and "(HTTP 503)" in err
    assert len(requests_to(m, "GET", "/flavors/detail")) == 1


def test_retry_notices_only_with_verbose(cli, mock_cloud):
    m = mock_cloud.mock
    m.get(COMPUTE + "/flavors/detail", [UNAVAILABLE, {"json": {"flavors": []}}])
    code, _, err = cli("flavor", "list")
    assert code == 0 and err == ""
    m.get(COMPUTE + "/flavors/detail", [UNAVAILABLE, {"json": {"flavors": []}}])
    code, _, err = cli("-v", "flavor", "list")
    assert code == 0 and "Retriable status code 503" in err


def test_each_adapter_is_configured_once(client):
    compute = client.adapter("compute")
    assert client.adapter("compute") is compute
    assert (compute.connect_retries, compute.status_code_retries) == (2, 2)
    assert compute.retriable_status_codes == [502, 503, 504]
    assert compute.default_microversion == "2.96"
    image = client.adapter("image")
    assert image.default_microversion is None
    assert image.status_code_retries == 2


def test_a_post_overrides_the_retries_and_keeps_the_microversion(client, mock_cloud):
    m = mock_cloud.mock
    m.post(COMPUTE + "/os-keypairs", status_code=201, json={"keypair": {"name": "k"}})
    client.keypairs.create("k", public_key="ssh-rsa AAAA x")
    sent = requests_to(m, "POST", "/os-keypairs")[0]
    assert sent.headers["OpenStack-API-Version"] == "compute 2.96"
