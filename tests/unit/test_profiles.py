"""clouds.yaml ``profile:``: vendor defaults merged under a cloud's own keys."""

import json
import logging
import os
import subprocess
import sys

import pytest
import yaml

from occli import clouds_yaml
from occli import config
from occli import profiles
from occli import vendors
from tests.unit import fakes

CREDS = {"username": "alice", "password": "pw", "project_name": "demo"}


@pytest.fixture
def dirs(tmp_path, monkeypatch):
    """Isolated search dirs, no OS_* variables, occli's own vendor table only."""
    for name in list(os.environ):
        if name.startswith(("OS_", "OCCLI_")):
            monkeypatch.delenv(name)
    paths = {name: tmp_path / name for name in ("cwd", "user", "etc", "local")}
    for path in paths.values():
        path.mkdir()
    monkeypatch.setattr(
        clouds_yaml, "SEARCH_DIRS", [str(paths[n]) for n in ("cwd", "user", "etc")]
    )
    monkeypatch.setattr(profiles, "OPENSTACKSDK_VENDORS", "")
    monkeypatch.setenv("OCCLI_LOCALCLOUD_DIR", str(paths["local"]))
    return paths


def write_clouds(path, clouds, name="clouds.yaml"):
    (path / name).write_text(yaml.safe_dump({"clouds": clouds}))


def write_public(path, public, name="clouds-public.yaml"):
    (path / name).write_text(yaml.safe_dump({"public-clouds": public}))


def resolve(name):
    return config.resolve(cloud=name, environ={"OCCLI_LOCALCLOUD_DIR": os.environ["X_LOCAL"]})


@pytest.fixture(autouse=True)
def _local(dirs, monkeypatch):
    monkeypatch.setenv("X_LOCAL", str(dirs["local"]))


def test_vendor_defaults_under_the_clouds_own_keys(dirs):
    write_clouds(dirs["user"], {"c": {"profile": "otc", "auth": CREDS, "interface": "internal"}})
    cfg = resolve("c")
    # otc's auth_url, formatted with the first of otc's regions
    assert cfg.auth["auth_url"] == "https://iam.eu-de.otc.t-systems.com/v3"
    assert cfg.region_name == "eu-de"
    assert cfg.identity_api_version == "3"
    assert cfg.get("image_format") == "qcow2"
    assert cfg.interface == "internal"  # the cloud's own key wins over otc's "public"
    assert cfg.auth["username"] == "alice"  # auth merged key by key
    assert cfg.source_files == [str(dirs["user"] / "clouds.yaml"), vendors.__file__]


def test_the_clouds_region_replaces_the_vendors_list(dirs):
    write_clouds(dirs["user"], {"c": {"profile": "otc", "auth": CREDS, "region_name": "eu-ch2"}})
    cfg = resolve("c")
    assert cfg.region_name == "eu-ch2"
    assert cfg.auth["auth_url"] == "https://iam.eu-ch2.otc.t-systems.com/v3"


def test_a_vendor_region_is_chosen_with_region_name(dirs):
    write_clouds(dirs["user"], {"c": {"profile": "citycloud", "auth": CREDS}})
    cfg = config.resolve(
        cloud="c",
        overrides={"region_name": "Kna1"},
        environ={"OCCLI_LOCALCLOUD_DIR": str(dirs["local"])},
    )
    assert cfg.auth["auth_url"] == "https://Kna1.citycloud.com:5000/v3/"
    with pytest.raises(config.ConfigError, match="Region Nowhere is not a valid region"):
        config.resolve(
            cloud="c",
            overrides={"region_name": "Nowhere"},
            environ={"OCCLI_LOCALCLOUD_DIR": str(dirs["local"])},
        )


def test_the_legacy_cloud_key_names_a_profile(dirs):
    write_clouds(dirs["user"], {"c": {"cloud": "elastx", "auth": CREDS}})
    cfg = resolve("c")
    assert cfg.auth["auth_url"] == "https://ops.elastx.cloud:5000/v3"
    assert cfg.region_name == "se-sto"
    assert "cloud" not in cfg.config


def test_clouds_public_yaml_comes_first_and_auth_is_deep_merged(dirs):
    write_public(
        dirs["etc"],
        {
            "otc": {
                "auth": {"auth_url": "https://keystone.example.com/v3", "user_domain_name": "D"},
                "region_name": "R1",
                "compute_api_version": "2.60",
                "compute_endpoint_override": "https://nova.example.com/v2.1",
                "block_storage_endpoint_override": "https://cinder.example.com/v3",
            }
        },
    )
    write_clouds(
        dirs["user"],
        {
            "c": {
                "profile": "otc",
                "auth": dict(CREDS, user_domain_name="Mine"),
                "compute_api_version": "2.79",
            }
        },
    )
    cfg = resolve("c")
    assert cfg.auth["auth_url"] == "https://keystone.example.com/v3"
    assert cfg.auth["user_domain_name"] == "Mine"
    assert cfg.auth["project_name"] == "demo"
    assert cfg.region_name == "R1"
    assert cfg.compute_api_version == "2.79"
    assert cfg.get("compute_endpoint_override") == "https://nova.example.com/v2.1"
    assert cfg.get("block_storage_endpoint_override") == "https://cinder.example.com/v3"
    assert cfg.source_files[-1] == str(dirs["etc"] / "clouds-public.yaml")


def test_first_clouds_public_file_found_wins(dirs):
    write_public(dirs["cwd"], {"x": {"auth": {"auth_url": "https://first/v3"}}})
    write_public(dirs["etc"], {"x": {"auth": {"auth_url": "https://last/v3"}}})
    (dirs["user"] / "clouds-public.json").write_text(
        json.dumps({"public-clouds": {"x": {"auth": {"auth_url": "https://json/v3"}}}})
    )
    write_clouds(dirs["user"], {"c": {"profile": "x", "auth": CREDS}})
    assert resolve("c").auth["auth_url"] == "https://first/v3"


def test_endpoint_override_of_a_profile_is_used(dirs, requests_mock):
    """A profile's <service>_endpoint_override sends that service's requests
    there, as the cloud's own key would."""
    from occli.client import Client

    fakes.install(requests_mock)
    override = "http://nova.override.test/v2.1"
    write_public(
        dirs["etc"],
        {"p": {"auth": {"auth_url": fakes.AUTH_URL}, "compute_endpoint_override": override}},
    )
    write_clouds(
        dirs["user"],
        {
            "c": {
                "profile": "p",
                "auth": dict(CREDS, user_domain_id="default", project_domain_id="default"),
            }
        },
    )
    requests_mock.get(override + "/flavors/detail", json={"flavors": []})
    client = Client(cloud="c", compute_api_version="2.1")
    assert list(client.flavors.list()) == []
    assert fakes.requests_to(requests_mock, "GET", "nova.override.test/v2.1/flavors")


def test_unknown_profile_is_a_usage_error(dirs):
    write_clouds(dirs["user"], {"mine": {"profile": "nosuch", "auth": CREDS}})
    with pytest.raises(profiles.ProfileError) as info:
        resolve("mine")
    assert info.value.exit_code == 2
    message = str(info.value)
    assert "'nosuch'" in message and "'mine'" in message
    assert "known: " in message and "otc" in message


def test_unknown_profile_exits_2_from_the_command(dirs, tmp_path, capsys, monkeypatch):
    from occli import shell

    write_clouds(dirs["user"], {"mine": {"profile": "nosuch", "auth": CREDS}})
    monkeypatch.setenv("OCCLI_CACHE_DIR", str(tmp_path / "cache"))
    code = shell.main(["--os-cloud", "mine", "configuration", "show"])
    err = capsys.readouterr().err
    assert code == 2
    assert "Cloud 'mine' names the profile 'nosuch'" in err
    assert len(err.strip().splitlines()) == 1


def test_nested_remote_deprecated_and_shut_down_profiles(dirs, tmp_path, monkeypatch, caplog):
    vendor_dir = tmp_path / "vendors"
    vendor_dir.mkdir()
    files = {
        "alias": {"profile": "real"},
        "real": {"auth": {"auth_url": "https://real/v3"}},
        "remote": {"profile": "https://remote.example.com"},
        "old": {"auth": {"auth_url": "https://old/v3"}, "status": "deprecated", "message": "m"},
        "gone": {"auth": {"auth_url": "https://gone/v3"}, "status": "shutdown", "message": "bye"},
    }
    for name, profile in files.items():
        (vendor_dir / (name + ".json")).write_text(json.dumps({"name": name, "profile": profile}))
    (vendor_dir / "y.yaml").write_text(yaml.safe_dump({"name": "yam", "profile": files["real"]}))
    monkeypatch.setattr(profiles, "OPENSTACKSDK_VENDORS", str(vendor_dir))
    write_clouds(dirs["user"], {n: {"profile": n, "auth": CREDS} for n in list(files) + ["yam"]})
    assert resolve("alias").auth["auth_url"] == "https://real/v3"
    assert resolve("yam").source_files[-1] == str(vendor_dir / "y.yaml")
    with caplog.at_level(logging.WARNING, logger="occli.profiles"):
        assert resolve("old").auth["auth_url"] == "https://old/v3"
    assert "The profile old is deprecated: m" in caplog.text
    with pytest.raises(profiles.ProfileError, match="no longer exists: bye"):
        resolve("gone")
    with pytest.raises(profiles.ProfileError, match="does not fetch remote profiles"):
        resolve("remote")


def test_openstacksdk_vendor_files_come_before_occlis_table(dirs, tmp_path, monkeypatch):
    vendor_dir = tmp_path / "vendors"
    vendor_dir.mkdir()
    (vendor_dir / "otc.json").write_text(
        json.dumps({"name": "otc", "profile": {"auth": {"auth_url": "https://newer/v3"}}})
    )
    monkeypatch.setattr(profiles, "OPENSTACKSDK_VENDORS", str(vendor_dir))
    clouds = {"c": {"profile": "otc", "auth": CREDS}, "d": {"profile": "binero"}}
    write_clouds(dirs["user"], clouds)
    assert resolve("c").auth["auth_url"] == "https://newer/v3"
    assert resolve("d").auth["auth_url"] == "https://auth.binero.cloud:5000/v3"  # occli's


def test_occli_vendor_table_is_openstacksdks():
    """Each profile occli ships equals openstacksdk's file of that name."""
    directory = _installed_openstacksdk_vendors()
    for name, profile in vendors.VENDORS.items():
        with open(os.path.join(directory, name + ".json")) as f:
            assert json.load(f) == {"name": name, "profile": profile}, name


def _installed_openstacksdk_vendors():
    monkey = profiles.OPENSTACKSDK_VENDORS
    profiles.OPENSTACKSDK_VENDORS = None
    try:
        directory = profiles._openstacksdk_vendors()
    finally:
        profiles.OPENSTACKSDK_VENDORS = monkey
    if directory is None:
        pytest.skip("openstacksdk is not installed")
    return directory


@pytest.mark.parametrize("name", sorted(vendors.VENDORS))
def test_same_settings_as_openstacksdk(name, dirs, monkeypatch):
    """occli and openstacksdk resolve a cloud naming each profile alike."""
    _installed_openstacksdk_vendors()
    loader = pytest.importorskip("openstack.config.loader")
    if name == "betacloud":
        write_clouds(dirs["user"], {"c": {"profile": name, "auth": CREDS}})
        with pytest.raises(profiles.ProfileError):
            resolve("c")
        return
    path = dirs["user"] / "clouds.yaml"
    write_clouds(dirs["user"], {"c": {"profile": name, "auth": CREDS}})
    theirs = loader.OpenStackConfig(
        config_files=[str(path)], vendor_files=[], secure_files=[], load_envvars=False
    ).get_one("c")
    ours = resolve("c")
    assert ours.auth["auth_url"] == theirs.auth["auth_url"]
    assert ours.region_name == (theirs.region_name or None)
    assert ours.identity_api_version == theirs.config.get("identity_api_version")
    assert ours.interface == theirs.interface


def test_profiles_are_read_only_when_named(tmp_path):
    """occli.profiles is imported only for a cloud naming a profile, and
    openstacksdk's vendor files are read without importing openstacksdk."""
    (tmp_path / "clouds.yaml").write_text(
        yaml.safe_dump(
            {
                "clouds": {
                    "plain": {"auth": dict(CREDS, auth_url="https://k/v3")},
                    "vendor": {"profile": "otc", "auth": CREDS},
                }
            }
        )
    )
    script = (
        "import sys, json\n"
        "from occli import config\n"
        "config.resolve(cloud=sys.argv[1])\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith(('occli', 'openstack')))))"
    )
    env = {
        "OS_CLIENT_CONFIG_FILE": str(tmp_path / "clouds.yaml"),
        "OCCLI_LOCALCLOUD_DIR": str(tmp_path / "lc"),
        "HOME": str(tmp_path),
        "PATH": "/usr/bin:/bin",
    }
    root = os.path.dirname(os.path.dirname(os.path.dirname(__file__)))
    for cloud, expected in (("plain", False), ("vendor", True)):
        proc = subprocess.run(
            [sys.executable, "-c", script, cloud],
            env=env,
            cwd=root,
            capture_output=True,
            text=True,
            check=True,
        )
        modules = json.loads(proc.stdout)
        assert ("occli.profiles" in modules) is expected
        assert not [m for m in modules if m == "openstack" or m.startswith("openstack.")]
