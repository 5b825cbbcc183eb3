"""The mocked cloud of the unit tests: its URLs, samples and helpers.

:func:`install` answers Keystone's token POST with the upstream
project-scoped token sample (catalog pointed at the URLs below, expiry moved
to the future) and Nova's version document with the upstream v2.1 sample
(max 2.104). Tests register the API calls they exercise with the URL
constants, e.g. ``mock.get(COMPUTE + "/flavors/detail", json=…)``. The
``mock_cloud``, ``client`` and ``cli`` fixtures (conftest.py) use it.
"""

import copy
import datetime
import json
import os
import types

FIXTURES = os.path.join(os.path.dirname(os.path.dirname(__file__)), "fixtures")

BASE = "http://cloud.test"
AUTH_URL = BASE + "/identity/v3"
PROJECT_ID = "a6944d763bf64ee6a275f1263fae0352"
COMPUTE = BASE + "/compute/v2.1"
IMAGE = BASE + "/image"
HEAT = BASE + "/heat/v1/" + PROJECT_ID
SWIFT = BASE + "/swift/v1/AUTH_" + PROJECT_ID
NETWORK = BASE + "/network"
VOLUME = BASE + "/volume/v3/" + PROJECT_ID
TOKEN = "gAAAAABtokenvalue0123456789"
PASSWORD = "s3cr3t-Pa55w0rd"


def load_fixture(*parts):
    """A sample from tests/fixtures (JSON parsed)."""
    with open(os.path.join(FIXTURES, *parts)) as f:
        return json.load(f)


def catalog():
    """The token's catalog: identity, compute, image, orchestration, Swift,
    Neutron and Cinder (listed as ``volumev3``)."""

    def service(stype, name, url):
        return {
            "id": stype + "-id",
            "type": stype,
            "name": name,
            "endpoints": [
                {
                    "id": "%s-%s" % (stype, i),
                    "interface": i,
                    "region": "RegionOne",
                    "region_id": "RegionOne",
                    "url": url,
                }
                for i in ("public", "internal", "admin")
            ],
        }

    return [
        service("identity", "keystone", BASE + "/identity"),
        service("compute", "nova", COMPUTE),
        service("image", "glance", IMAGE),
        service("orchestration", "heat", HEAT),
        service("object-store", "swift", SWIFT),
        service("network", "neutron", NETWORK),
        service("volumev3", "cinderv3", VOLUME),
    ]


def token_body():
    body = copy.deepcopy(
        load_fixture("identity", "tokens", "responses", "project-scoped-password.json")
    )
    expires = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(hours=1)
    body["token"]["expires_at"] = expires.strftime("%Y-%m-%dT%H:%M:%S.000000Z")
    body["token"]["catalog"] = catalog()
    return body


def install(mock):
    """Answer identity and compute discovery and the token POST on ``mock``
    (a requests-mock Mocker); returns a namespace with ``mock``."""
    mock.post(
        AUTH_URL + "/auth/tokens",
        status_code=201,
        json=token_body(),
        headers={"X-Subject-Token": TOKEN},
    )
    # Keystone's check of a token (occli validates a cached one before
    # building URLs from its user id): TOKEN is valid
    mock.head(AUTH_URL + "/auth/tokens", status_code=200, headers={"X-Subject-Token": TOKEN})
    mock.get(
        BASE + "/identity",
        status_code=300,
        json=load_fixture("identity", "versions", "identity-versions-response.json"),
    )
    v3 = load_fixture("identity", "versions", "identity-version-response.json")
    v3["version"]["links"] = [{"rel": "self", "href": AUTH_URL + "/"}]
    mock.get(AUTH_URL, json=v3)
    version = load_fixture("compute", "versions", "v21-version-get-resp.json")
    mock.get(COMPUTE, json=version)
    mock.get(COMPUTE + "/", json=version)
    return types.SimpleNamespace(mock=mock)


def password_auth():
    """keystoneauth1 password auth for the mocked cloud's admin."""
    from keystoneauth1.identity import v3

    return v3.Password(
        auth_url=AUTH_URL,
        username="admin",
        password=PASSWORD,
        project_name="admin",
        user_domain_id="default",
        project_domain_id="default",
    )


def use_password_env(monkeypatch, tmp_path):
    """The mocked cloud's admin as the only ``OS_*`` settings, with the
    cache, clouds.yaml and local cloud directories under ``tmp_path``."""
    import os

    for name in list(os.environ):
        if name.startswith("OS_"):
            monkeypatch.delenv(name)
    for name, value in {
        "OS_AUTH_URL": AUTH_URL,
        "OS_USERNAME": "admin",
        "OS_PASSWORD": PASSWORD,
        "OS_PROJECT_NAME": "admin",
        "OS_USER_DOMAIN_ID": "default",
        "OS_PROJECT_DOMAIN_ID": "default",
        "OCCLI_CACHE_DIR": str(tmp_path / "cache"),
        "OS_CLIENT_CONFIG_FILE": str(tmp_path / "none.yaml"),
        "OCCLI_LOCALCLOUD_DIR": str(tmp_path / "no-localcloud"),
    }.items():
        monkeypatch.setenv(name, value)


def requests_to(mock, method, url_part):
    """The requests-mock history entries matching a method and URL fragment."""
    return [r for r in mock.request_history if r.method == method and url_part in r.url]
