"""occli.userdirs names the directories platformdirs names (checked
against the installed platformdirs, for the XDG variables set, unset,
empty, relative and listing several directories), and lets platformdirs
answer where they are not the XDG ones."""

import os
import sys

import platformdirs
import pytest

from occli import userdirs

XDG = ("XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CONFIG_DIRS")

CASES = [
    {},
    {"XDG_CACHE_HOME": "/x/cache", "XDG_CONFIG_HOME": "/x/config", "XDG_DATA_HOME": "/x/data"},
    {"XDG_CACHE_HOME": "", "XDG_CONFIG_HOME": "", "XDG_DATA_HOME": "", "XDG_CONFIG_DIRS": ""},
    {"XDG_CACHE_HOME": "rel/cache", "XDG_CONFIG_HOME": "rel", "XDG_CONFIG_DIRS": "rel:also"},
    {"XDG_CONFIG_DIRS": "/etc/one:/etc/two"},
    {"XDG_CONFIG_DIRS": "relative:/etc/only:"},
    {"HOME": "/home/someone"},
]


def _platformdirs():
    dirs = platformdirs.PlatformDirs("openstack", "OpenStack", multipath=True)
    return {
        "cache": platformdirs.user_cache_dir("occli"),
        "data": platformdirs.user_data_dir("occli"),
        "config": (dirs.user_config_dir, dirs.site_config_dir.split(os.pathsep)),
    }


def _ours():
    return {
        "cache": userdirs.user_cache_dir("occli"),
        "data": userdirs.user_data_dir("occli"),
        "config": userdirs.config_dirs("openstack", "OpenStack"),
    }


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the XDG directories")
@pytest.mark.parametrize("environ", CASES)
def test_the_xdg_directories_are_platformdirs(environ, monkeypatch):
    for name in XDG:
        monkeypatch.delenv(name, raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    assert userdirs._xdg()
    assert _ours() == _platformdirs()


def test_without_home_the_password_database_answers(monkeypatch):
    monkeypatch.delenv("HOME", raising=False)
    for name in XDG:
        monkeypatch.delenv(name, raising=False)
    assert _ours() == _platformdirs()


@pytest.mark.parametrize(
    "change",
    [
        lambda mp: mp.setattr(sys, "platform", "darwin"),
        lambda mp: mp.setenv("HOME", "relative/home"),
        lambda mp: (mp.setenv("ANDROID_DATA", "/data"), mp.setenv("ANDROID_ROOT", "/system")),
    ],
)
def test_elsewhere_platformdirs_answers(change, monkeypatch):
    calls = []
    for name in ("user_cache_dir", "user_data_dir"):
        real = getattr(platformdirs, name)
        monkeypatch.setattr(
            platformdirs, name, lambda app, real=real, name=name: calls.append(name) or real(app)
        )
    change(monkeypatch)
    assert not userdirs._xdg()
    userdirs.user_cache_dir("occli")
    userdirs.user_data_dir("occli")
    user, site = userdirs.config_dirs("openstack", "OpenStack")
    assert calls == ["user_cache_dir", "user_data_dir"]
    dirs = platformdirs.PlatformDirs("openstack", "OpenStack", multipath=True)
    assert (user, site) == (dirs.user_config_dir, dirs.site_config_dir.split(os.pathsep))
