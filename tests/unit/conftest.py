"""Unit-test fixtures: a mocked cloud (requests-mock) built from real samples.

``mock_cloud`` answers Keystone's token POST with the upstream project-scoped
token sample (catalog pointed at the URLs below, expiry moved to the future)
and Nova's version document with the upstream v2.1 sample (max 2.104).
Tests register the API calls they exercise on ``mock_cloud.mock`` using the
URL constants, e.g. ``mock_cloud.mock.get(COMPUTE + "/flavors/detail", json=…)``.
"""

import copy
import datetime
import json
import os
import types

import pytest

FIXTURES = os.path.join(os.path.dirname(os.path.dirname(__file__)), "fixtures")

BASE = "http://cloud.test"
AUTH_URL = BASE + "/identity/v3"
PROJECT_ID = "a6944d763bf64ee6a275f1263fae0352"
COMPUTE = BASE + "/compute/v2.1"
IMAGE = BASE + "/image"
HEAT = BASE + "/heat/v1/" + PROJECT_ID
SWIFT = BASE + "/swift/v1/AUTH_" + PROJECT_ID
TOKEN = "gAAAAABtokenvalue0123456789"
PASSWORD = "s3cr3t-Pa55w0rd"


def load_fixture(*parts):
    """A sample from tests/fixtures (JSON parsed)."""
    with open(os.path.join(FIXTURES, *parts)) as f:
        return json.load(f)


def _catalog():
    def service(stype, name, url):
        return {"id": stype + "-id", "type": stype, "name": name,
                "endpoints": [{"id": "%s-%s" % (stype, i), "interface": i,
                               "region": "RegionOne", "region_id": "RegionOne",
                               "url": url}
                              for i in ("public", "internal", "admin")]}
    return [service("identity", "keystone", BASE + "/identity"),
            service("compute", "nova", COMPUTE),
            service("image", "glance", IMAGE),
            service("orchestration", "heat", HEAT),
            service("object-store", "swift", SWIFT)]


def token_body():
    body = copy.deepcopy(load_fixture(
        "identity", "tokens", "responses", "project-scoped-password.json"))
    expires = (datetime.datetime.now(datetime.timezone.utc)
               + datetime.timedelta(hours=1))
    body["token"]["expires_at"] = expires.strftime("%Y-%m-%dT%H:%M:%S.000000Z")
    body["token"]["catalog"] = _catalog()
    return body


@pytest.fixture
def mock_cloud(requests_mock):
    requests_mock.post(AUTH_URL + "/auth/tokens", status_code=201,
                       json=token_body(), headers={"X-Subject-Token": TOKEN})
    requests_mock.get(BASE + "/identity", status_code=300,
                      json=load_fixture("identity", "versions",
                                        "identity-versions-response.json"))
    v3 = load_fixture("identity", "versions", "identity-version-response.json")
    v3["version"]["links"] = [{"rel": "self", "href": AUTH_URL + "/"}]
    requests_mock.get(AUTH_URL, json=v3)
    version = load_fixture("compute", "versions", "v21-version-get-resp.json")
    requests_mock.get(COMPUTE, json=version)
    requests_mock.get(COMPUTE + "/", json=version)
    return types.SimpleNamespace(mock=requests_mock)


@pytest.fixture
def client(mock_cloud):
    """A Client over a real keystoneauth1 session, against the mocked cloud."""
    from keystoneauth1 import session
    from keystoneauth1.identity import v3

    from occli.client import Client

    auth = v3.Password(auth_url=AUTH_URL, username="admin", password=PASSWORD,
                       project_name="admin", user_domain_id="default",
                       project_domain_id="default")
    return Client(session=session.Session(auth=auth))


@pytest.fixture
def cli(mock_cloud, monkeypatch, tmp_path, capsys):
    """Run ``occli ARGV…`` in-process; returns (exit code, stdout, stderr)."""
    for name in list(os.environ):
        if name.startswith("OS_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("OS_AUTH_URL", AUTH_URL)
    monkeypatch.setenv("OS_USERNAME", "admin")
    monkeypatch.setenv("OS_PASSWORD", PASSWORD)
    monkeypatch.setenv("OS_PROJECT_NAME", "admin")
    monkeypatch.setenv("OS_USER_DOMAIN_ID", "default")
    monkeypatch.setenv("OS_PROJECT_DOMAIN_ID", "default")
    monkeypatch.setenv("OCCLI_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("OS_CLIENT_CONFIG_FILE", str(tmp_path / "none.yaml"))
    monkeypatch.setenv("OCCLI_LOCALCLOUD_DIR", str(tmp_path / "no-localcloud"))

    from occli import shell

    def run(*argv):
        capsys.readouterr()
        try:
            code = shell.main(list(argv))
        except SystemExit as exc:
            code = exc.code
        out, err = capsys.readouterr()
        return code, out, err
    return run


def requests_to(mock, method, url_part):
    """The requests-mock history entries matching a method and URL fragment."""
    return [r for r in mock.request_history
            if r.method == method and url_part in r.url]


def json_output(out):
    return json.loads(out)
