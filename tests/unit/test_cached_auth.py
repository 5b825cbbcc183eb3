"""occli.cached_auth: the cached token answers as the real plugin would."""

import datetime
import json

import pytest
from keystoneauth1 import plugin as ks_plugin
from keystoneauth1 import session

from occli import cached_auth
from occli.client import Client

from .fakes import AUTH_URL
from .fakes import COMPUTE
from .fakes import HEAT
from .fakes import IMAGE
from .fakes import PASSWORD
from .fakes import TOKEN
from .fakes import password_auth
from .fakes import requests_to
from .fakes import token_body


def state(seconds=3600):
    """A keystoneauth1 auth state string for the mocked cloud's token."""
    body = token_body()
    expires = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=seconds)
    body["token"]["expires_at"] = expires.strftime("%Y-%m-%dT%H:%M:%S.000000Z")
    return json.dumps({"auth_token": TOKEN, "body": body})


def pair(seconds=3600):
    """(stand-in, real plugin) holding the same token."""
    built = []

    def factory():
        built.append(password_auth())
        return built[-1]

    real = password_auth()
    real.set_auth_state(state(seconds))
    return (
        cached_auth.CachedTokenAuth(cached_auth.from_state(state(seconds)), factory),
        real,
        built,
    )


ENDPOINT_QUERIES = [
    {"service_type": "compute"},
    {"service_type": "compute", "interface": "internal"},
    {"service_type": "image", "interface": "public", "region_name": "RegionOne"},
    {"service_type": "image", "region_name": "Elsewhere"},
    {"service_type": "orchestration", "interface": ["internal", "public"]},
    {"service_type": "identity", "interface": "admin"},
    {"service_type": "compute", "skip_discovery": True},
    {"service_type": "compute", "min_version": "2.0", "max_version": "2.latest"},
    {"service_type": "identity", "version": "3"},
    {"service_type": "nothing-like-it"},
]


@pytest.mark.parametrize("query", ENDPOINT_QUERIES)
def test_endpoints_are_the_real_plugins(mock_cloud, query):
    for unversioned in (IMAGE, HEAT):  # no version document: the catalog's
        mock_cloud.mock.get(unversioned, status_code=404)
    stand_in, real, built = pair()
    sess = session.Session()
    assert outcome(stand_in.get_endpoint, sess, **query) == outcome(
        real.get_endpoint, sess, **query
    )
    kwargs = {k: v for k, v in query.items() if k != "version"}

    def data(plugin):
        found = plugin.get_endpoint_data(sess, **kwargs)
        return found and (
            found.url,
            found.catalog_url,
            found.api_version,
            found.min_microversion,
            found.max_microversion,
        )

    assert outcome(data, stand_in) == outcome(data, real)
    assert built == []


def outcome(func, *args, **kwargs):
    """What a call returns, or the type and text of what it raises."""
    try:
        return "returned", func(*args, **kwargs)
    except Exception as exc:  # noqa: BLE001 - compared, not handled
        return "raised", type(exc), str(exc)


def test_token_user_project_and_state_are_the_real_plugins(mock_cloud):
    stand_in, real, built = pair()
    sess = session.Session()
    assert stand_in.get_token(sess) == real.get_token(sess) == TOKEN
    assert stand_in.get_headers(sess) == real.get_headers(sess)
    assert stand_in.get_user_id(sess) == real.get_user_id(sess)
    assert stand_in.get_project_id(sess) == real.get_project_id(sess)
    assert stand_in.get_connection_params(sess) == real.get_connection_params(sess)
    assert stand_in.get_auth_state() == real.get_auth_state()
    assert stand_in.auth_ref.auth_token == TOKEN
    assert built == []
    assert requests_to(mock_cloud.mock, "POST", "/auth/tokens") == []


def test_the_auth_interface_and_overrides_build_the_real_plugin(mock_cloud):
    stand_in, real, built = pair()
    sess = session.Session()
    assert stand_in.get_endpoint(sess, interface=ks_plugin.AUTH_INTERFACE) == real.get_endpoint(
        sess, interface=ks_plugin.AUTH_INTERFACE
    )
    assert len(built) == 1
    assert built[0].auth_ref.auth_token == TOKEN  # it kept the cached token
    assert requests_to(mock_cloud.mock, "POST", "/auth/tokens") == []


def test_a_401_authenticates_again_once(mock_cloud):
    stand_in, _real, built = pair()
    sess = session.Session(auth=stand_in)
    mock_cloud.mock.get(
        COMPUTE + "/flavors",
        [{"status_code": 401, "json": {"error": {"code": 401}}}, {"json": {"flavors": []}}],
    )
    response = sess.get(COMPUTE + "/flavors")
    assert response.status_code == 200
    assert len(built) == 1
    assert len(requests_to(mock_cloud.mock, "POST", "/auth/tokens")) == 1
    refused, retried = mock_cloud.mock.request_history[-3::2]
    assert refused.url == retried.url == COMPUTE + "/flavors"
    assert refused.headers["X-Auth-Token"] == TOKEN
    assert PASSWORD in json.dumps(requests_to(mock_cloud.mock, "POST", "/auth/tokens")[0].json())


def test_a_token_about_to_expire_is_renewed_by_the_real_plugin(mock_cloud):
    stand_in, _real, built = pair(seconds=60)
    sess = session.Session(auth=stand_in)
    mock_cloud.mock.get(IMAGE + "/v2/images", json={"images": []})
    assert sess.get(IMAGE + "/v2/images").status_code == 200
    assert len(built) == 1
    assert len(requests_to(mock_cloud.mock, "POST", "/auth/tokens")) == 1


def test_client_uses_the_cached_token_without_building_the_plugin(
    mock_cloud, monkeypatch, tmp_path
):
    monkeypatch.setenv("OCCLI_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("OS_CLIENT_CONFIG_FILE", str(tmp_path / "none.yaml"))
    auth = dict(
        auth_url=AUTH_URL,
        username="admin",
        password=PASSWORD,
        project_name="admin",
        user_domain_id="default",
        project_domain_id="default",
    )
    mock_cloud.mock.get(COMPUTE + "/flavors/detail", json={"flavors": []})
    first = Client(use_cache=True, **auth)
    assert list(first.flavors.list()) == []
    first.save_cache()
    built = []
    from occli import config

    real_plugin = config.CloudConfig.auth_plugin
    monkeypatch.setattr(
        config.CloudConfig, "auth_plugin", lambda self: built.append(1) or real_plugin(self)
    )
    second = Client(use_cache=True, **auth)
    assert isinstance(second.session.auth, cached_auth.CachedTokenAuth)
    assert list(second.flavors.list()) == []
    second.save_cache()
    assert built == []
    assert len(requests_to(mock_cloud.mock, "POST", "/auth/tokens")) == 1
    # an auth type whose plugin may answer otherwise is always built
    third = Client(
        use_cache=True,
        auth_type="v3oidcpassword",
        identity_provider="idp",
        protocol="oidc",
        client_id="c",
        client_secret="s",
        discovery_endpoint="http://idp.test",
        **auth,
    )
    assert not isinstance(third.session.auth, cached_auth.CachedTokenAuth)


def test_an_endpoint_asked_again_copies_no_catalog(mock_cloud, monkeypatch):
    from keystoneauth1.access import service_catalog

    mock_cloud.mock.get(IMAGE, status_code=404)
    stand_in, real, built = pair()
    sess = session.Session()
    copies = []
    normalize = service_catalog.ServiceCatalog.normalize_catalog
    monkeypatch.setattr(
        service_catalog.ServiceCatalog,
        "normalize_catalog",
        lambda self: copies.append(1) or normalize(self),
    )
    first = [stand_in.get_endpoint(sess, service_type=t) for t in ("compute", "image")]
    asked = len(copies)
    for _ in range(3):
        again = [stand_in.get_endpoint(sess, service_type=t) for t in ("compute", "image")]
        assert again == first
        data = stand_in.get_endpoint_data(sess, service_type="compute", skip_discovery=True)
        data.service_url = "http://elsewhere.test/"  # the caller's copy
    assert len(copies) == asked == 2
    assert first == [real.get_endpoint(sess, service_type=t) for t in ("compute", "image")]
    assert stand_in.get_endpoint(sess, service_type="compute", skip_discovery=True) == first[0]
    assert built == []


def test_a_token_nearing_its_end_while_running_is_renewed(mock_cloud, monkeypatch):
    stand_in, _real, built = pair(seconds=600)
    sess = session.Session(auth=stand_in)
    mock_cloud.mock.get(IMAGE + "/v2/images", json={"images": []})
    assert sess.get(IMAGE + "/v2/images").status_code == 200
    assert built == []
    monkeypatch.setattr(stand_in, "MIN_TOKEN_LIFE_SECONDS", 700)  # 10 minutes later
    assert sess.get(IMAGE + "/v2/images").status_code == 200
    assert len(built) == 1
