"""The parsed form of a clouds.yaml kept in the cache directory
(:func:`occli.clouds_yaml.read`): a file read before is not parsed again
(no yaml import), any change to it is seen, and the cached copy (which holds
the file's passwords) is a private file, a loose or tampered one ignored."""

import datetime
import json
import os
import stat
import sys

import pytest

from occli import clouds_yaml

CLOUDS = """clouds:
  one:
    auth:
      auth_url: http://cloud.test/v3
      password: secret-1
    identity_api_version: 3
    verify: false
"""


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """The cache directory's ``config/``, where parsed forms go."""
    monkeypatch.setenv("OCCLI_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache" / "config"


@pytest.fixture
def clouds(tmp_path):
    path = tmp_path / "clouds.yaml"
    path.write_text(CLOUDS)
    return path


def no_yaml(monkeypatch):
    """Make ``import yaml`` fail from now on."""
    monkeypatch.delitem(sys.modules, "yaml", raising=False)
    monkeypatch.setitem(sys.modules, "yaml", None)


def test_second_read_parses_no_yaml(cache, clouds, monkeypatch):
    first = clouds_yaml.read(str(clouds))
    assert first["clouds"]["one"]["auth"]["password"] == "secret-1"
    assert first["clouds"]["one"]["identity_api_version"] == 3
    no_yaml(monkeypatch)
    assert clouds_yaml.read(str(clouds)) == first


def test_cached_copy_is_private(cache, clouds):
    clouds_yaml.read(str(clouds))
    [entry] = cache.iterdir()  # no temporary file left
    assert stat.S_IMODE(entry.stat().st_mode) == 0o600
    assert stat.S_IMODE(cache.stat().st_mode) == 0o700
    assert stat.S_IMODE(cache.parent.stat().st_mode) == 0o700


def test_an_edit_of_the_same_size_is_seen(cache, clouds, monkeypatch):
    clouds_yaml.read(str(clouds))
    before = clouds.stat()
    clouds.write_text(CLOUDS.replace("secret-1", "secret-2"))
    # the same size and modification time: only the change time tells
    os.utime(clouds, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert clouds.stat().st_size == before.st_size
    data = clouds_yaml.read(str(clouds))
    assert data["clouds"]["one"]["auth"]["password"] == "secret-2"
    no_yaml(monkeypatch)
    assert clouds_yaml.read(str(clouds)) == data  # cached again


def tampered(cache, password):
    """Write ``password`` into the cached copy, keeping its source key."""
    [entry] = cache.iterdir()
    data = json.loads(entry.read_text())
    data["data"]["clouds"]["one"]["auth"]["password"] = password
    entry.write_text(json.dumps(data))
    return entry


def test_a_loose_cached_copy_is_ignored(cache, clouds):
    clouds_yaml.read(str(clouds))
    entry = tampered(cache, "planted")
    entry.chmod(0o644)
    data = clouds_yaml.read(str(clouds))
    assert data["clouds"]["one"]["auth"]["password"] == "secret-1"
    assert stat.S_IMODE(entry.stat().st_mode) == 0o600  # written again


def test_the_copy_is_what_is_read(cache, clouds):
    """A private copy matching the source is trusted as the parsed form:
    what keeps others from planting one is the private directory."""
    clouds_yaml.read(str(clouds))
    tampered(cache, "mine")
    assert clouds_yaml.read(str(clouds))["clouds"]["one"]["auth"]["password"] == "mine"


def test_a_cache_dir_others_may_write_is_not_used(cache, clouds, caplog):
    cache.parent.mkdir(mode=0o700)
    cache.mkdir(mode=0o700)
    cache.chmod(0o777)
    data = clouds_yaml.read(str(clouds))
    assert data["clouds"]["one"]["auth"]["password"] == "secret-1"
    assert list(cache.iterdir()) == []
    assert "writable by other users" in caplog.text


def test_what_json_cannot_hold_is_parsed_every_time(cache, tmp_path, monkeypatch):
    path = tmp_path / "clouds.yaml"
    path.write_text("clouds:\n  one:\n    created: 2024-01-02\n    1: int-key\n")
    for _ in range(2):
        data = clouds_yaml.read(str(path))
        assert data["clouds"]["one"]["created"] == datetime.date(2024, 1, 2)
        assert data["clouds"]["one"][1] == "int-key"
    assert not cache.exists() or list(cache.iterdir()) == []


def test_a_broken_file_is_not_cached(cache, tmp_path):
    path = tmp_path / "clouds.yaml"
    path.write_text("clouds: [unclosed\n")
    for _ in range(2):
        with pytest.raises(ValueError):
            clouds_yaml.read(str(path))
    assert not cache.exists() or list(cache.iterdir()) == []
