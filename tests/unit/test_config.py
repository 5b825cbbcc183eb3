"""occli.config: clouds.yaml/secure.yaml/env/options resolution and plugins."""

import json
import os
import subprocess
import sys

import pytest
import yaml

from occli import clouds_yaml
from occli import config
from occli.config import ConfigError
from occli.config import resolve

AUTH_URL = "http://keystone.test/identity/v3"
PASSWORD = "s3cr3t-Pa55w0rd"


@pytest.fixture
def dirs(tmp_path, monkeypatch):
    """Isolated search dirs (cwd, user, etc) and no OS_* / OCCLI_* in os.environ."""
    for name in list(os.environ):
        if name.startswith(("OS_", "OCCLI_")):
            monkeypatch.delenv(name)
    paths = {}
    for name in ("cwd", "user", "etc", "local"):
        paths[name] = tmp_path / name
        paths[name].mkdir()
    monkeypatch.setattr(
        clouds_yaml, "SEARCH_DIRS", [str(paths[n]) for n in ("cwd", "user", "etc")]
    )
    monkeypatch.setenv("OCCLI_LOCALCLOUD_DIR", str(paths["local"]))
    return paths


def write(path, clouds):
    path.write_text(yaml.safe_dump({"clouds": clouds}))
    return str(path)


def env(dirs, **values):
    """An environ mapping for resolve(): the local cloud dir plus OS_* values."""
    values.setdefault("OCCLI_LOCALCLOUD_DIR", str(dirs["local"]))
    return values


PW_CLOUD = {
    "auth": {
        "auth_url": AUTH_URL,
        "username": "alice",
        "project_name": "demo",
        "user_domain_name": "Default",
        "project_domain_name": "Default",
    },
    "region_name": "RegionOne",
}


# -- files: search order, secure merge, local cloud --------------------------


def test_named_cloud_merges_secure_file(dirs):
    clouds = write(dirs["cwd"] / "clouds.yaml", {"c": PW_CLOUD})
    secure = write(dirs["user"] / "secure.yaml", {"c": {"auth": {"password": PASSWORD}}})
    cfg = resolve("c", environ=env(dirs))
    assert cfg.name == "c"
    assert cfg.auth == dict(PW_CLOUD["auth"], password=PASSWORD)
    assert cfg.auth_type == "password"
    assert cfg.region_name == "RegionOne"
    assert cfg.interface == "public"
    assert cfg.verify is True and cfg.cert is None
    assert cfg.source_files == [clouds, secure]


def test_first_clouds_file_wins(dirs):
    write(dirs["user"] / "clouds.yaml", {"c": dict(PW_CLOUD, region_name="user")})
    write(dirs["etc"] / "clouds.yaml", {"c": dict(PW_CLOUD, region_name="etc")})
    assert resolve("c", environ=env(dirs)).region_name == "user"
    write(dirs["cwd"] / "clouds.yml", {"c": dict(PW_CLOUD, region_name="cwd")})
    assert resolve("c", environ=env(dirs)).region_name == "cwd"
    # .yaml beats .yml in the same directory
    write(dirs["cwd"] / "clouds.yaml", {"c": dict(PW_CLOUD, region_name="cwd-yaml")})
    assert resolve("c", environ=env(dirs)).region_name == "cwd-yaml"


def test_first_file_wins_even_without_the_cloud(dirs):
    write(dirs["user"] / "clouds.yaml", {"other": PW_CLOUD})
    write(dirs["etc"] / "clouds.yaml", {"c": PW_CLOUD})
    with pytest.raises(ConfigError) as exc:
        resolve("c", environ=env(dirs))
    msg = str(exc.value)
    assert "'c' was not found" in msg and "it defines: other" in msg
    assert str(dirs["cwd"] / "clouds.yaml") in msg  # the files searched
    assert str(dirs["local"] / "clouds.yaml") in msg


def test_os_client_config_file_comes_first(dirs, tmp_path):
    write(dirs["cwd"] / "clouds.yaml", {"c": dict(PW_CLOUD, region_name="cwd")})
    explicit = write(tmp_path / "explicit.yaml", {"c": dict(PW_CLOUD, region_name="x")})
    cfg = resolve("c", environ=env(dirs, OS_CLIENT_CONFIG_FILE=explicit))
    assert cfg.region_name == "x"
    assert cfg.source_files == [explicit]


def test_os_client_secure_file_comes_first(dirs, tmp_path):
    write(dirs["cwd"] / "clouds.yaml", {"c": PW_CLOUD})
    write(dirs["cwd"] / "secure.yaml", {"c": {"auth": {"password": "cwd"}}})
    explicit = write(tmp_path / "s.yaml", {"c": {"auth": {"password": "explicit"}}})
    cfg = resolve("c", environ=env(dirs, OS_CLIENT_SECURE_FILE=explicit))
    assert cfg.auth["password"] == "explicit"
    assert cfg.auth["username"] == "alice"  # deep merge kept the rest


def test_json_clouds_file(dirs):
    (dirs["cwd"] / "clouds.json").write_text(json.dumps({"clouds": {"c": PW_CLOUD}}))
    assert resolve("c", environ=env(dirs)).auth["username"] == "alice"


def test_broken_file_is_skipped_and_reported(dirs):
    (dirs["cwd"] / "clouds.yaml").write_text("clouds: [unclosed\n")
    write(dirs["user"] / "clouds.yaml", {"c": PW_CLOUD})
    assert resolve("c", environ=env(dirs)).auth["username"] == "alice"
    with pytest.raises(ConfigError, match="Skipped: .*clouds.yaml"):
        resolve("missing", environ=env(dirs))


def test_config_error_is_a_command_error():
    from occli import exceptions

    err = ConfigError("no cloud")
    assert isinstance(err, exceptions.CommandError) and str(err) == "no cloud"


def test_non_mapping_file_is_an_error(dirs):
    (dirs["cwd"] / "clouds.yaml").write_text("- just\n- a list\n")
    with pytest.raises(ConfigError, match="not a mapping"):
        resolve("c", environ=env(dirs))


def test_default_search_dirs(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    monkeypatch.delenv("XDG_CONFIG_DIRS", raising=False)
    monkeypatch.chdir(tmp_path)
    found = clouds_yaml.default_search_dirs()
    assert found[0] == str(tmp_path)
    assert os.path.join(str(tmp_path / "home"), ".config", "openstack") in found
    assert found[-1] == "/etc/openstack"
    assert len(found) == len(set(found))
    files = config.config_files({"OS_CLIENT_CONFIG_FILE": "/x/c.yaml"})
    assert files[0] == "/x/c.yaml"
    assert files[1:4] == [
        os.path.join(str(tmp_path), "clouds" + s) for s in (".yaml", ".yml", ".json")
    ]


def test_localcloud_file_is_the_last_resort(dirs):
    local = write(dirs["local"] / "clouds.yaml", {"local": dict(PW_CLOUD, region_name="L")})
    cfg = resolve("local", environ=env(dirs))
    assert cfg.region_name == "L" and cfg.source_files == [local]
    # A user file defining the same name wins
    write(dirs["cwd"] / "clouds.yaml", {"local": dict(PW_CLOUD, region_name="user")})
    assert resolve("local", environ=env(dirs)).region_name == "user"
    # ... but one that does not still lets the local cloud through
    write(dirs["cwd"] / "clouds.yaml", {"other": PW_CLOUD})
    assert resolve("local", environ=env(dirs)).region_name == "L"


def test_localcloud_default_location(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert config.localcloud_file({}) == str(
        tmp_path / "data" / "occli" / "localcloud" / "clouds.yaml"
    )
    assert config.localcloud_file({"OCCLI_LOCALCLOUD_DIR": "/d"}) == "/d/clouds.yaml"


# -- precedence: file / environment / options --------------------------------


def test_named_cloud_ignores_os_env_like_openstacksdk(dirs):
    write(dirs["cwd"] / "clouds.yaml", {"c": PW_CLOUD})
    cfg = resolve(
        "c",
        environ=env(
            dirs,
            OS_USERNAME="bob",
            OS_AUTH_URL="http://env",
            OS_REGION_NAME="R2",
            OS_INTERFACE="internal",
        ),
    )
    assert cfg.auth["username"] == "alice"
    assert cfg.auth["auth_url"] == AUTH_URL
    assert cfg.region_name == "RegionOne"
    assert cfg.interface == "public"


def test_ignored_env_is_explained_when_an_option_is_missing(dirs):
    write(dirs["cwd"] / "clouds.yaml", {"c": PW_CLOUD})
    cfg = resolve("c", environ=env(dirs, OS_PASSWORD=PASSWORD))
    assert cfg.ignored_env == ["OS_PASSWORD"]
    with pytest.raises(ConfigError, match="OS_PASSWORD is set but ignored") as exc:
        cfg.auth_plugin()
    assert PASSWORD not in str(exc.value)


def test_os_cloud_names_the_cloud(dirs):
    write(dirs["cwd"] / "clouds.yaml", {"c": PW_CLOUD, "d": dict(PW_CLOUD, region_name="D")})
    cfg = resolve(environ=env(dirs, OS_CLOUD="d", OS_PASSWORD="ignored"))
    assert cfg.name == "d" and cfg.region_name == "D"
    assert "password" not in cfg.auth
    # The argument beats OS_CLOUD
    assert resolve("c", environ=env(dirs, OS_CLOUD="d")).name == "c"


def test_environment_cloud_when_nothing_is_named(dirs):
    write(dirs["cwd"] / "clouds.yaml", {"c": PW_CLOUD})
    cfg = resolve(
        environ=env(
            dirs,
            OS_AUTH_URL="http://env/v3",
            OS_USERNAME="bob",
            OS_PASSWORD=PASSWORD,
            OS_TENANT_NAME="proj",
            OS_DOMAIN_NAME="Dom",
            OS_REGION_NAME="R2",
            OS_ENDPOINT_TYPE="internalURL",
            OS_INSECURE="true",
            OS_COMPUTE_API_VERSION="2.79",
            OS_API_TIMEOUT="12.5",
            OS_TEST_SOMETHING="ignored",
        )
    )
    assert cfg.name == "envvars"
    assert cfg.source_files == []
    assert cfg.auth == {
        "auth_url": "http://env/v3",
        "username": "bob",
        "password": PASSWORD,
        "project_name": "proj",
        "user_domain_name": "Dom",
        "project_domain_name": "Dom",
    }
    assert cfg.region_name == "R2"
    assert cfg.interface == "internalURL"
    assert cfg.verify is False
    assert cfg.compute_api_version == "2.79"
    assert cfg.api_timeout == 12.5
    assert cfg.get("test_something") is None


def test_env_cloud_name_from_os_cloud_name(dirs):
    cfg = resolve(environ=env(dirs, OS_CLOUD_NAME="mine", OS_AUTH_URL="http://e"))
    assert cfg.name == "mine"
    assert (
        resolve("mine", environ=env(dirs, OS_CLOUD_NAME="mine", OS_AUTH_URL="http://e")).name
        == "mine"
    )


def test_selector_variables_alone_do_not_make_an_env_cloud(dirs):
    write(dirs["cwd"] / "clouds.yaml", {"only": PW_CLOUD})
    cfg = resolve(environ=env(dirs, OS_REGION_NAME="ignored"))
    assert cfg.name == "only" and cfg.region_name == "RegionOne"


def test_single_cloud_is_the_default_but_not_among_several(dirs):
    write(dirs["cwd"] / "clouds.yaml", {"only": PW_CLOUD})
    assert resolve(environ=env(dirs)).name == "only"
    write(dirs["cwd"] / "clouds.yaml", {"a": PW_CLOUD, "b": PW_CLOUD})
    cfg = resolve(environ=env(dirs))
    assert cfg.name == "" and cfg.auth == {} and cfg.source_files == []


def test_options_override_file_per_key(dirs):
    write(dirs["cwd"] / "clouds.yaml", {"c": dict(PW_CLOUD, interface="internal")})
    write(dirs["cwd"] / "secure.yaml", {"c": {"auth": {"password": "file"}}})
    cfg = resolve(
        "c",
        overrides={
            "username": "carol",
            "password": "opt",
            "os_region_name": "R9",
            "project-name": None,
            "interface": "",
            "auth": {"project_id": "pid"},
            "compute_api_version": "2.1",
            "insecure": True,
        },
        environ=env(dirs),
    )
    assert cfg.auth["username"] == "carol"
    assert cfg.auth["password"] == "opt"
    assert cfg.auth["project_name"] == "demo"  # None means "not given"
    assert cfg.auth["project_id"] == "pid"
    assert cfg.auth["auth_url"] == AUTH_URL
    assert cfg.region_name == "R9"
    assert cfg.interface == "internal"  # "" means "not given"
    assert cfg.compute_api_version == "2.1"
    assert cfg.verify is False


def test_options_override_environment_per_key(dirs):
    cfg = resolve(
        overrides={
            "auth_url": "http://opt/v3",
            "cacert": "/ca.pem",
            "endpoint_type": "admin",
            "timeout": 3,
        },
        environ=env(dirs, OS_AUTH_URL="http://env/v3", OS_USERNAME="bob", OS_PASSWORD="pw"),
    )
    assert cfg.auth == {"auth_url": "http://opt/v3", "username": "bob", "password": "pw"}
    assert cfg.verify == "/ca.pem"
    assert cfg.interface == "admin"
    assert cfg.api_timeout == 3.0


def test_override_cloud_key_names_the_cloud(dirs):
    write(dirs["cwd"] / "clouds.yaml", {"a": PW_CLOUD, "b": dict(PW_CLOUD, region_name="B")})
    assert resolve(overrides={"cloud": "b"}, environ=env(dirs)).region_name == "B"


def test_override_beats_auth_section_and_domain_expansion(dirs):
    cloud = {
        "auth": {
            "auth_url": AUTH_URL,
            "username": "alice",
            "password": "x",
            "project_name": "p",
            "domain_name": "D",
        }
    }
    write(dirs["cwd"] / "clouds.yaml", {"c": cloud})
    cfg = resolve("c", overrides={"user_domain_name": "U"}, environ=env(dirs))
    assert cfg.auth["user_domain_name"] == "U"
    assert cfg.auth["project_domain_name"] == "D"
    assert "domain_name" not in cfg.auth


def test_legacy_and_top_level_keys(dirs):
    cloud = {
        "auth": {
            "auth_url": AUTH_URL,
            "username": "alice",
            "tenant_name": "old",
            "auth-token": "tok",
        },
        "project_name": "top-wins",
        "password": "top-level-pw",
        "endpoint_type": "internal",
        "compute_endpoint_type": "admin",
        "auth_plugin": "v3password",
        "identity_api_version": 3,
        "compute_api_version": "2.60",
    }
    write(dirs["cwd"] / "clouds.yaml", {"c": cloud})
    cfg = resolve("c", environ=env(dirs))
    assert cfg.auth_type == "v3password"
    assert cfg.auth["project_name"] == "top-wins"
    assert cfg.auth["password"] == "top-level-pw"
    assert cfg.auth["token"] == "tok"
    assert cfg.interface == "internal"
    assert cfg.get("compute_interface") == "admin"
    assert cfg.identity_api_version == "3"
    assert cfg.compute_api_version == "2.60"


def test_tls_settings(dirs):
    cloud = dict(PW_CLOUD, cacert="~/ca.pem", cert="/c.pem", key="/k.pem")
    write(
        dirs["cwd"] / "clouds.yaml",
        {"c": cloud, "i": dict(cloud, insecure="True"), "v": dict(PW_CLOUD, verify=False)},
    )
    cfg = resolve("c", environ=env(dirs))
    assert cfg.verify == os.path.expanduser("~/ca.pem")
    assert cfg.cert == ("/c.pem", "/k.pem")
    assert resolve("i", environ=env(dirs)).verify is False
    assert resolve("v", environ=env(dirs)).verify is False
    with pytest.raises(ConfigError, match="insecure"):
        resolve("c", overrides={"insecure": "maybe"}, environ=env(dirs))


def test_regions(dirs):
    cloud = dict(PW_CLOUD)
    del cloud["region_name"]
    cloud["regions"] = [
        "R1",
        {"name": "R2", "values": {"interface": "internal", "compute_api_version": "2.5"}},
    ]
    write(dirs["cwd"] / "clouds.yaml", {"c": cloud})
    cfg = resolve("c", environ=env(dirs))
    assert cfg.region_name == "R1" and cfg.interface == "public"
    cfg = resolve("c", overrides={"region_name": "R2"}, environ=env(dirs))
    assert cfg.region_name == "R2" and cfg.interface == "internal"
    assert cfg.compute_api_version == "2.5"
    with pytest.raises(ConfigError, match="R3 is not a valid region.*R1, R2"):
        resolve("c", overrides={"region_name": "R3"}, environ=env(dirs))


def test_auth_url_may_reference_other_settings(dirs):
    write(
        dirs["cwd"] / "clouds.yaml",
        {"c": {"auth": {"auth_url": "https://{region_name}.k/v3"}, "region_name": "east"}},
    )
    assert resolve("c", environ=env(dirs)).auth["auth_url"] == "https://east.k/v3"


# -- auth type and plugins --------------------------------------------------


@pytest.mark.parametrize(
    "auth, overrides, expected",
    [
        ({"username": "u", "password": "p"}, {}, "password"),
        ({"token": "t"}, {}, "token"),
        ({"token": "t", "username": "u", "password": "p"}, {}, "password"),
        (
            {"application_credential_id": "i", "application_credential_secret": "s"},
            {},
            "v3applicationcredential",
        ),
        (
            {
                "application_credential_name": "n",
                "username": "u",
                "application_credential_secret": "s",
            },
            {},
            "v3applicationcredential",
        ),
        ({"username": "u", "password": "p"}, {"token": "t"}, "token"),
        ({"username": "u", "password": "p"}, {"password": "other"}, "password"),
        ({"token": "t", "auth_type": "v3token"}, {}, "v3token"),
        (
            {"username": "u", "password": "p", "auth_type": "v3password"},
            {"token": "t"},
            "v3password",
        ),
        ({"username": "u"}, {"auth_type": "v3totp"}, "v3totp"),
        ({}, {}, "password"),
    ],
)
def test_auth_type_inference(dirs, auth, overrides, expected):
    auth = dict(auth, auth_url=AUTH_URL)
    cloud = {"auth": auth}
    if "auth_type" in auth:
        cloud["auth_type"] = auth.pop("auth_type")
    write(dirs["cwd"] / "clouds.yaml", {"c": cloud})
    assert resolve("c", overrides=overrides, environ=env(dirs)).auth_type == expected


def test_env_token_gives_token_plugin(dirs):
    from keystoneauth1.identity import generic

    cfg = resolve(environ=env(dirs, OS_AUTH_URL=AUTH_URL, OS_TOKEN="tok", OS_PROJECT_ID="pid"))
    assert cfg.auth_type == "token"
    plugin = cfg.auth_plugin()
    assert isinstance(plugin, generic.Token)
    assert plugin._project_id == "pid"


def test_password_plugin(dirs):
    from keystoneauth1.identity import generic

    write(
        dirs["cwd"] / "clouds.yaml",
        {"c": dict(PW_CLOUD, auth=dict(PW_CLOUD["auth"], password=PASSWORD, junk="dropped"))},
    )
    plugin = resolve("c", environ=env(dirs)).auth_plugin()
    assert isinstance(plugin, generic.Password)
    assert plugin.auth_url == AUTH_URL
    assert plugin._username == "alice"
    assert plugin._password == PASSWORD
    assert plugin._project_name == "demo"


def test_application_credential_plugin(dirs):
    from keystoneauth1.identity import v3

    write(
        dirs["cwd"] / "clouds.yaml",
        {"c": {"auth": {"auth_url": AUTH_URL, "application_credential_id": "ac-id"}}},
    )
    write(
        dirs["cwd"] / "secure.yaml",
        {"c": {"auth": {"application_credential_secret": "ac-secret"}}},
    )
    cfg = resolve("c", environ=env(dirs))
    assert cfg.auth_type == "v3applicationcredential"
    plugin = cfg.auth_plugin()
    assert isinstance(plugin, v3.ApplicationCredential)
    method = plugin.auth_methods[0]
    assert method.application_credential_id == "ac-id"
    assert method.application_credential_secret == "ac-secret"
    assert plugin.auth_url == AUTH_URL


def test_application_credential_from_environment(dirs):
    from keystoneauth1.identity import v3

    cfg = resolve(
        environ=env(
            dirs,
            OS_AUTH_URL=AUTH_URL,
            OS_APPLICATION_CREDENTIAL_NAME="n",
            OS_USERNAME="u",
            OS_USER_DOMAIN_ID="default",
            OS_APPLICATION_CREDENTIAL_SECRET="sec",
        )
    )
    plugin = cfg.auth_plugin()
    assert isinstance(plugin, v3.ApplicationCredential)
    method = plugin.auth_methods[0]
    assert (method.application_credential_name, method.username, method.user_domain_id) == (
        "n",
        "u",
        "default",
    )


@pytest.mark.parametrize(
    "auth, auth_type, missing",
    [
        ({"username": "u", "password": "p"}, None, ["auth_url", "OS_AUTH_URL"]),
        ({"auth_url": AUTH_URL, "password": "p"}, None, ["username"]),
        ({"auth_url": AUTH_URL, "username": "u"}, None, ["password", "OS_PASSWORD"]),
        ({"auth_url": AUTH_URL}, "token", ["token"]),
        (
            {"auth_url": AUTH_URL, "application_credential_id": "i"},
            None,
            ["application_credential_secret"],
        ),
        (
            {"auth_url": AUTH_URL, "application_credential_secret": "s"},
            "v3applicationcredential",
            ["application_credential_id"],
        ),
    ],
)
def test_missing_options_are_named(dirs, auth, auth_type, missing):
    cloud = {"auth": auth}
    if auth_type:
        cloud["auth_type"] = auth_type
    path = write(dirs["cwd"] / "clouds.yaml", {"c": cloud})
    with pytest.raises(ConfigError) as exc:
        resolve("c", environ=env(dirs)).auth_plugin()
    msg = str(exc.value)
    for word in missing:
        assert word in msg
    assert "'c'" in msg and path in msg
    assert "'p'" not in msg and "'s'" not in msg


def test_unknown_auth_type(dirs):
    cfg = resolve(overrides={"auth_type": "nosuch", "auth_url": AUTH_URL}, environ=env(dirs))
    with pytest.raises(ConfigError, match="Unknown auth type 'nosuch'.*v3password"):
        cfg.auth_plugin()


def test_plugin_option_from_top_level_setting(dirs):
    # Options of plugins occli does not know are found outside ``auth`` too.
    cfg = resolve(
        overrides={
            "auth_type": "v3oidcaccesstoken",
            "auth_url": AUTH_URL,
            "identity_provider": "idp",
            "protocol": "oidc",
            "access_token": "at",
        },
        environ=env(dirs),
    )
    plugin = cfg.auth_plugin()
    assert plugin.identity_provider == "idp"


def test_repr_hides_secrets(dirs):
    cfg = resolve(
        overrides={
            "auth_url": AUTH_URL,
            "username": "u",
            "password": PASSWORD,
            "token": "tok-value",
        },
        environ=env(dirs),
    )
    text = repr(cfg)
    assert PASSWORD not in text and "tok-value" not in text and "'u'" in text


# -- identity_key -------------------------------------------------------------


def _key(dirs, **changes):
    values = dict(
        auth_url=AUTH_URL,
        username="alice",
        password=PASSWORD,
        project_name="demo",
        user_domain_id="default",
        project_domain_id="default",
        region_name="RegionOne",
    )
    values.update(changes)
    return resolve(overrides=values, environ=env(dirs)).identity_key()


def test_identity_key_is_stable_and_secret_free(dirs):
    key = _key(dirs)
    assert len(key) == 64 and int(key, 16) >= 0
    assert key == _key(dirs)
    assert PASSWORD not in key
    # Changing only the password reuses the cache entry (documented choice)
    assert _key(dirs, password="another") == key
    assert _key(dirs, auth_url=AUTH_URL + "/") == key


@pytest.mark.parametrize(
    "change",
    [
        {"username": "bob"},
        {"project_name": "other"},
        {"project_domain_id": "d2"},
        {"user_domain_id": "d2"},
        {"auth_url": "http://other/v3"},
        {"region_name": "R2"},
        {"interface": "internal"},
        {"auth_type": "v3password"},
        {"project_name": None, "project_id": "pid"},
        {"system_scope": "all"},
    ],
)
def test_identity_key_differs_per_identity(dirs, change):
    assert _key(dirs, **change) != _key(dirs)


def test_identity_key_for_tokens_and_app_credentials(dirs):
    def key(**auth):
        return resolve(overrides=dict(auth, auth_url=AUTH_URL), environ=env(dirs)).identity_key()

    k1, k2 = key(token="tok-one"), key(token="tok-two")
    assert k1 != k2 and "tok-one" not in k1
    a1 = key(application_credential_id="a", application_credential_secret="s1")
    assert a1 == key(application_credential_id="a", application_credential_secret="s2")
    assert a1 != key(application_credential_id="b", application_credential_secret="s1")


# -- start-up cost --------------------------------------------------------------


def test_env_only_resolution_imports_nothing_heavy(tmp_path):
    code = (
        "import sys, json, occli\n"
        "before = set(sys.modules)\n"
        "from occli import config\n"
        "cfg = config.resolve(environ={'OS_AUTH_URL': 'http://x/v3',"
        " 'OS_USERNAME': 'u', 'OS_PASSWORD': 'p'})\n"
        "cfg.identity_key()\n"
        "new = {m.split('.')[0] for m in set(sys.modules) - before}\n"
        "print(json.dumps(sorted(new & {'yaml', 'openstack', 'jsonschema',"
        " 'keystoneauth1', 'platformdirs', 'requests'})))\n"
    )
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=root, check=True, capture_output=True, text=True
    ).stdout
    assert json.loads(out) == []


# -- same answers as openstacksdk -----------------------------------------------


PLUGIN_KEYS = (
    "auth_url",
    "username",
    "user_id",
    "password",
    "project_name",
    "project_id",
    "user_domain_name",
    "user_domain_id",
    "project_domain_name",
    "project_domain_id",
    "domain_name",
    "domain_id",
    "token",
    "application_credential_id",
    "application_credential_secret",
    "application_credential_name",
    "system_scope",
    "trust_id",
)

SDK_CASES = {
    "named-with-secure-and-stray-env": dict(
        clouds={"c": PW_CLOUD, "other": {"auth": {"auth_url": "http://o"}}},
        secure={"c": {"auth": {"password": PASSWORD}}},
        env={"OS_USERNAME": "bob", "OS_REGION_NAME": "R2"},
        cloud="c",
    ),
    "named-by-os-cloud": dict(
        clouds={"c": PW_CLOUD, "d": dict(PW_CLOUD, region_name="D", interface="admin")},
        secure={"d": {"auth": {"password": "pw"}}},
        env={"OS_CLOUD": "d", "OS_PASSWORD": "x"},
        cloud=None,
    ),
    "environment-only": dict(
        clouds={"c": PW_CLOUD},
        secure={},
        env={
            "OS_AUTH_URL": AUTH_URL,
            "OS_USERNAME": "bob",
            "OS_PASSWORD": "pw",
            "OS_PROJECT_ID": "pid",
            "OS_USER_DOMAIN_NAME": "Default",
            "OS_PROJECT_DOMAIN_ID": "default",
            "OS_REGION_NAME": "R2",
            "OS_INTERFACE": "internal",
        },
        cloud=None,
    ),
    "environment-legacy-names": dict(
        clouds={},
        secure={},
        env={
            "OS_AUTH_URL": AUTH_URL,
            "OS_USERNAME": "bob",
            "OS_PASSWORD": "pw",
            "OS_TENANT_NAME": "t",
            "OS_DOMAIN_NAME": "Dom",
            "OS_ENDPOINT_TYPE": "internal",
        },
        cloud=None,
    ),
    "single-cloud-default": dict(
        clouds={"only": PW_CLOUD},
        secure={"only": {"auth": {"password": "pw"}}},
        env={"OS_REGION_NAME": "ignored"},
        cloud=None,
    ),
    "legacy-and-top-level-keys": dict(
        clouds={
            "c": {
                "auth": {
                    "auth_url": AUTH_URL,
                    "username": "u",
                    "password": "p",
                    "tenant_id": "tid",
                    "domain_id": "dom",
                },
                "project_domain_id": "pd",
                "endpoint_type": "admin",
                "region_name": "R",
            }
        },
        secure={},
        env={},
        cloud="c",
    ),
    "application-credential": dict(
        clouds={
            "c": {
                "auth_type": "v3applicationcredential",
                "auth": {"auth_url": AUTH_URL, "application_credential_id": "i"},
            }
        },
        secure={"c": {"auth": {"application_credential_secret": "s"}}},
        env={},
        cloud="c",
    ),
    "env-token": dict(
        clouds={},
        secure={},
        env={
            "OS_AUTH_TYPE": "v3token",
            "OS_AUTH_URL": AUTH_URL,
            "OS_TOKEN": "t",
            "OS_PROJECT_NAME": "p",
            "OS_PROJECT_DOMAIN_NAME": "Default",
        },
        cloud=None,
    ),
    "regions-list": dict(
        clouds={
            "c": {
                "auth": dict(PW_CLOUD["auth"], password="p"),
                "regions": ["R1", {"name": "R2", "values": {"interface": "admin"}}],
            }
        },
        secure={},
        env={},
        cloud="c",
    ),
    "domain-scoped": dict(
        clouds={
            "c": {
                "auth": {
                    "auth_url": AUTH_URL,
                    "username": "u",
                    "password": "p",
                    "domain_name": "D",
                    "user_domain_name": "UD",
                }
            }
        },
        secure={},
        env={},
        cloud="c",
    ),
}


@pytest.mark.filterwarnings("ignore:Support for InfluxDB")
@pytest.mark.parametrize("case", sorted(SDK_CASES))
def test_matches_openstacksdk(dirs, monkeypatch, case):
    sdk_config = pytest.importorskip("openstack.config")
    spec = SDK_CASES[case]
    if spec["clouds"]:
        write(dirs["cwd"] / "clouds.yaml", spec["clouds"])
    if spec["secure"]:
        write(dirs["user"] / "secure.yaml", spec["secure"])
    for name, value in spec["env"].items():
        monkeypatch.setenv(name, value)

    ours = resolve(spec["cloud"])  # os.environ, as openstacksdk reads it
    sdk = sdk_config.OpenStackConfig(
        config_files=config.config_files({}),
        secure_files=config.secure_files({}),
    ).get_one(cloud=spec["cloud"])

    def pick(auth):
        return {k: auth[k] for k in PLUGIN_KEYS if auth.get(k)}

    assert pick(ours.auth) == pick(sdk.config["auth"])
    assert ours.auth_type == sdk.config["auth_type"]
    assert (ours.region_name or "") == (sdk.region_name or "")
    assert ours.interface == sdk.config["interface"]
    # and both build the same kind of plugin
    assert type(ours.auth_plugin()) is type(sdk.get_auth())
