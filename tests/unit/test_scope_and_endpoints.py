"""Scope options (--os-domain-*, --os-system-scope, --os-trust-id) reach the
token request, and ``<service>_endpoint_override`` sends a service's
requests to another endpoint than the catalog's (issue 15)."""

import json

from .fakes import AUTH_URL
from .fakes import COMPUTE
from .fakes import requests_to

OTHER = "http://compute.other.test:8774/v2.1"


def _token_request(mock):
    [request] = requests_to(mock, "POST", AUTH_URL + "/auth/tokens")
    return json.loads(request.body)["auth"]


def _unscope(monkeypatch):
    monkeypatch.delenv("OS_PROJECT_NAME")
    monkeypatch.delenv("OS_PROJECT_DOMAIN_ID")


def test_domain_scope_options(cli, mock_cloud, monkeypatch):
    _unscope(monkeypatch)
    cli("--os-domain-name", "Default", "token", "issue")
    assert _token_request(mock_cloud.mock)["scope"] == {"domain": {"name": "Default"}}


def test_system_scope_option(cli, mock_cloud, monkeypatch):
    _unscope(monkeypatch)
    cli("--os-system-scope", "all", "token", "issue")
    assert _token_request(mock_cloud.mock)["scope"] == {"system": {"all": True}}


def test_trust_option(cli, mock_cloud, monkeypatch):
    _unscope(monkeypatch)
    cli("--os-trust-id", "trust-1", "token", "issue")
    assert _token_request(mock_cloud.mock)["scope"] == {"OS-TRUST:trust": {"id": "trust-1"}}


def test_endpoint_override_from_the_environment(cli, mock_cloud, monkeypatch):
    monkeypatch.setenv("OS_COMPUTE_ENDPOINT_OVERRIDE", OTHER)
    mock_cloud.mock.get(OTHER + "/flavors/detail", json={"flavors": []})
    code, out, err = cli("--os-compute-api-version", "2.1", "flavor", "list")
    assert code == 0, err
    assert requests_to(mock_cloud.mock, "GET", OTHER + "/flavors/detail")
    assert not requests_to(mock_cloud.mock, "GET", COMPUTE + "/flavors")


def test_endpoint_override_from_clouds_yaml(cli, mock_cloud, monkeypatch, tmp_path):
    import yaml

    clouds = tmp_path / "clouds.yaml"
    clouds.write_text(
        yaml.safe_dump(
            {
                "clouds": {
                    "elsewhere": {
                        "auth": {
                            "auth_url": AUTH_URL,
                            "username": "admin",
                            "password": "x",
                            "project_name": "admin",
                            "user_domain_id": "default",
                            "project_domain_id": "default",
                        },
                        "compute_endpoint_override": OTHER,
                    }
                }
            }
        )
    )
    monkeypatch.setenv("OS_CLIENT_CONFIG_FILE", str(clouds))
    mock_cloud.mock.get(OTHER + "/flavors/detail", json={"flavors": []})
    code, out, err = cli(
        "--os-cloud", "elsewhere", "--os-compute-api-version", "2.1", "flavor", "list"
    )
    assert code == 0, err
    assert requests_to(mock_cloud.mock, "GET", OTHER + "/flavors/detail")
