"""The auth plugins' own options: ``--os-<option>`` and ``OS_<OPTION>``.

occli/auth_options.py is a static table (no keystoneauth1 import at
start-up); the first test keeps it equal to keystoneauth1's loaders.
"""

import json
import os

import pytest

from occli import auth_options
from occli import clouds_yaml
from occli import config
from occli import redaction
from occli import shell
from tests.unit import auth_options_gen
from tests.unit import fakes

SECRET_VALUE = "Zq9-sekrit-Value-42"
#: Values for options that keystoneauth1 types (others take any text).
TYPED_VALUES = {
    "redirect_port": ("4242", 4242),
    "login_timeout": ("2.5", 2.5),
    "auth_methods": ("v3password, v3totp", ["v3password", "v3totp"]),
}
#: The flags that set the v2 plugins' tenant options, as in OSC.
TENANT_FLAGS = {"tenant_id": "--os-project-id", "tenant_name": "--os-project-name"}

PAIRS = [(plugin, name) for plugin, names in auth_options.PLUGINS.items() for name in names]


def _loader_dests(plugin):
    from keystoneauth1 import loading

    loader = loading.get_plugin_loader(plugin)
    return {opt.name.replace("-", "_").lower(): opt.dest for opt in loader.get_options()}


def _value(name):
    text, typed = TYPED_VALUES.get(name, ("value-of-" + name, None))
    return text, typed if typed is not None else text


@pytest.fixture
def no_files(tmp_path, monkeypatch):
    """No clouds.yaml anywhere, no OS_* variable in os.environ."""
    for key in list(os.environ):
        if key.startswith(("OS_", "OCCLI_")):
            monkeypatch.delenv(key)
    monkeypatch.setattr(clouds_yaml, "SEARCH_DIRS", [str(tmp_path)])
    return {"OCCLI_LOCALCLOUD_DIR": str(tmp_path / "lc")}


@pytest.fixture(scope="module")
def parser():
    return shell.OcCLI().parser


def test_table_matches_keystoneauth1():
    """Fails when keystoneauth1's built-in plugins or options change:
    regenerate with ``python -m tests.unit.auth_options_gen``."""
    _, plugins, options = auth_options_gen.table_from_keystoneauth1()
    assert plugins == auth_options.PLUGINS
    assert options == auth_options.OPTIONS


def test_secret_options_are_keystoneauth1s():
    assert {
        "access_token",
        "application_credential_secret",
        "client_secret",
        "code",
        "oauth2_client_secret",
        "passcode",
        "password",
        "token",
    } == auth_options.SECRET


@pytest.mark.parametrize(("plugin", "name"), PAIRS)
def test_every_option_is_a_flag_routed_to_the_plugin(plugin, name, parser, no_files):
    text, expected = _value(name)
    flag = TENANT_FLAGS.get(name, auth_options.flag(name))
    options, _ = parser.parse_known_args(["--os-auth-type", plugin, flag, text, "server", "list"])
    cfg = config.resolve(overrides=shell.client_options(options), environ=no_files)
    assert cfg.auth_type == plugin
    kwargs = cfg.auth_kwargs()
    assert kwargs[_loader_dests(plugin)[name]] == expected


@pytest.mark.parametrize(("plugin", "name"), PAIRS)
def test_every_option_falls_back_to_its_environment_variable(plugin, name, no_files):
    text, expected = _value(name)
    environ = dict(no_files, OS_AUTH_TYPE=plugin)
    environ[auth_options.env_var(name)] = text
    cfg = config.resolve(environ=environ)
    assert cfg.auth_kwargs()[_loader_dests(plugin)[name]] == expected


def test_flags_and_variables_are_named_as_osc_does():
    assert auth_options.flag("application_credential_secret") == (
        "--os-application-credential-secret"
    )
    assert auth_options.env_var("identity_provider") == "OS_IDENTITY_PROVIDER"
    flags = {flag for flag, _, _ in shell._PLUGIN_OPTIONS}
    assert {"--os-passcode", "--os-identity-provider", "--os-protocol", "--os-access-token"} <= (
        flags
    )
    assert not [f for f in flags if "tenant" in f]


def test_a_flag_beats_the_environment(no_files, parser):
    options, _ = parser.parse_known_args(["--os-protocol", "saml2", "server", "list"])
    environ = dict(
        no_files, OS_AUTH_TYPE="v3oidcaccesstoken", OS_PROTOCOL="oidc", OS_ACCESS_TOKEN="t"
    )
    cfg = config.resolve(overrides=shell.client_options(options), environ=environ)
    assert cfg.auth_kwargs()["protocol"] == "saml2"


def test_a_typed_option_with_a_bad_value_is_a_config_error(no_files):
    environ = dict(no_files, OS_AUTH_TYPE="v3websso", OS_REDIRECT_PORT="many")
    with pytest.raises(config.ConfigError, match="redirect-port: expected int, got 'many'"):
        config.resolve(environ=environ).auth_kwargs()


# -- secrets -------------------------------------------------------------------


def _secret_pairs():
    seen = {}
    for plugin, name in PAIRS:
        if name in auth_options.SECRET:
            seen.setdefault(name, plugin)
    return sorted((plugin, name) for name, plugin in seen.items())


@pytest.mark.parametrize(("plugin", "name"), _secret_pairs())
def test_secret_options_are_masked_and_out_of_the_cache_key(plugin, name, no_files):
    environ = dict(no_files, OS_AUTH_TYPE=plugin, OS_AUTH_URL=fakes.AUTH_URL)
    environ[auth_options.env_var(name)] = SECRET_VALUE
    cfg = config.resolve(environ=environ)
    assert cfg.auth[name] == SECRET_VALUE
    assert cfg.masked_auth()[name] == "***"
    assert SECRET_VALUE not in repr(cfg)
    assert SECRET_VALUE not in json.dumps(cfg._identity())
    flag = auth_options.flag(name)
    for line in (
        "occli %s %s server list" % (flag, SECRET_VALUE),
        "occli %s=%s server list" % (flag, SECRET_VALUE),
        'REQ: {"%s": "%s", "other": 1}' % (name, SECRET_VALUE),
        "body: grant_type=x&%s=%s&scope=openid" % (name, SECRET_VALUE),
    ):
        assert SECRET_VALUE not in redaction.redact(line), line


def test_non_secret_options_are_in_the_cache_key(no_files):
    environ = dict(no_files, OS_AUTH_TYPE="v3oidcaccesstoken", OS_ACCESS_TOKEN="t")
    one = config.resolve(environ=dict(environ, OS_IDENTITY_PROVIDER="idp1", OS_PROTOCOL="oidc"))
    two = config.resolve(environ=dict(environ, OS_IDENTITY_PROVIDER="idp2", OS_PROTOCOL="oidc"))
    assert one.identity_key() != two.identity_key()


def _carries_secret(request):
    """Whether a request sent the secret (in its body or a header, maybe
    base64-encoded as in HTTP basic authentication)."""
    import base64

    text = (request.text or "") + json.dumps(dict(request.headers))
    for header in request.headers.values():
        if header.startswith("Basic "):
            text += base64.b64decode(header[6:]).decode()
    return SECRET_VALUE in text


OIDC_TOKEN_URL = fakes.BASE + "/idp/token"
FEDERATED_AUTH = fakes.AUTH_URL + "/OS-FEDERATION/identity_providers/idp/protocols/oidc/auth"
OAUTH2_URL = fakes.BASE + "/oauth2/token"


def _logins(name):
    """Command lines that authenticate with a secret option."""
    secret = ["--os-" + name.replace("_", "-"), SECRET_VALUE]
    url = ["--os-auth-url", fakes.AUTH_URL, "--os-project-name", "admin"]
    url += ["--os-project-domain-id", "default"]
    federated = ["--os-identity-provider", "idp", "--os-protocol", "oidc"]
    return (
        {
            "password": ["--os-auth-type", "password", "--os-username", "admin"]
            + ["--os-user-domain-id", "default"],
            "token": ["--os-auth-type", "token"],
            "application_credential_secret": ["--os-auth-type", "v3applicationcredential"]
            + ["--os-application-credential-id", "ac1"],
            "passcode": ["--os-auth-type", "v3totp", "--os-user-id", "u1"],
            "access_token": ["--os-auth-type", "v3oidcaccesstoken"] + federated,
            "client_secret": ["--os-auth-type", "v3oidcclientcredentials", "--os-client-id", "c1"]
            + ["--os-access-token-endpoint", OIDC_TOKEN_URL]
            + federated,
            "oauth2_client_secret": ["--os-auth-type", "v3oauth2clientcredential"]
            + ["--os-oauth2-endpoint", OAUTH2_URL, "--os-oauth2-client-id", "c1"],
        }[name]
        + url
        + secret
    )


@pytest.mark.parametrize(
    "name",
    [
        "password",
        "token",
        "application_credential_secret",
        "passcode",
        "access_token",
        "client_secret",
        "oauth2_client_secret",
    ],
)
def test_debug_output_never_shows_a_secret_option(name, cli, mock_cloud, monkeypatch):
    for key in ("OS_USERNAME", "OS_PASSWORD", "OS_PROJECT_NAME", "OS_AUTH_URL"):
        monkeypatch.delenv(key)
    token = fakes.token_body()
    mock_cloud.mock.post(
        FEDERATED_AUTH, status_code=201, json=token, headers={"X-Subject-Token": fakes.TOKEN}
    )
    mock_cloud.mock.post(OIDC_TOKEN_URL, json={"access_token": "oidc-access-token"})
    mock_cloud.mock.post(OAUTH2_URL, json={"access_token": "oauth2-access-token"})
    mock_cloud.mock.get(fakes.COMPUTE + "/servers/detail", json={"servers": []})
    code, out, err = cli("--debug", "--no-cache", *_logins(name), "server", "list")
    assert code == 0, err
    sent = [r for r in mock_cloud.mock.request_history if r.method == "POST"]
    assert any(_carries_secret(r) for r in sent), "the secret was not used"
    assert SECRET_VALUE not in out + err
    assert "REQ:" in err or "POST" in err
