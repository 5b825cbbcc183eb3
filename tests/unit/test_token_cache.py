"""occli.token_cache: keystoneauth1 auth state cached between invocations."""

import copy
import datetime
import json
import os
import stat

import pytest
from keystoneauth1 import session
from keystoneauth1.identity import v3

from occli import clouds_yaml
from occli import config
from occli import token_cache

FIXTURE = os.path.join(
    os.path.dirname(os.path.dirname(__file__)),
    "fixtures",
    "identity",
    "tokens",
    "responses",
    "project-scoped-password.json",
)
AUTH_URL = "http://keystone.test/identity/v3"
TOKEN_URL = AUTH_URL + "/auth/tokens"
PASSWORD = "s3cr3t-Pa55w0rd"
KEY = "a" * 64


def token_body(seconds=3600):
    with open(FIXTURE) as f:
        body = copy.deepcopy(json.load(f))
    now = datetime.datetime.now(datetime.timezone.utc)
    body["token"]["issued_at"] = now.strftime("%Y-%m-%dT%H:%M:%S.000000Z")
    body["token"]["expires_at"] = (now + datetime.timedelta(seconds=seconds)).strftime(
        "%Y-%m-%dT%H:%M:%S.000000Z"
    )
    return body


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("OCCLI_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache" / "tokens"


@pytest.fixture
def keystone(requests_mock):
    """Token endpoint answering with fresh tokens tok-1, tok-2, ..."""
    state = {"n": 0, "seconds": 3600}

    def respond(request, context):
        state["n"] += 1
        context.status_code = 201
        context.headers["X-Subject-Token"] = "tok-%d" % state["n"]
        return token_body(state["seconds"])

    requests_mock.post(TOKEN_URL, json=respond)
    state["mock"] = requests_mock
    return state


def new_plugin(password=PASSWORD):
    return v3.Password(
        auth_url=AUTH_URL,
        username="admin",
        password=password,
        project_name="admin",
        user_domain_id="default",
        project_domain_id="default",
    )


def authenticate(plugin):
    return session.Session(auth=plugin).get_token()


def posts(keystone):
    return [r for r in keystone["mock"].request_history if r.method == "POST"]


def test_round_trip_needs_no_second_post(cache, keystone):
    first = new_plugin()
    assert token_cache.load(first, KEY) is False
    assert authenticate(first) == "tok-1"
    assert token_cache.save(first, KEY, extra={"compute_microversion": "2.96"}) is True

    second = new_plugin()
    assert token_cache.load(second, KEY) is True
    assert authenticate(second) == "tok-1"
    assert second.auth_ref.project_name == "admin"
    assert len(posts(keystone)) == 1
    assert token_cache.load_extra(KEY) == {"compute_microversion": "2.96"}


def test_modes_and_no_password_in_file(cache, keystone):
    plugin = new_plugin()
    authenticate(plugin)
    old_umask = os.umask(0)
    try:
        assert token_cache.save(plugin, KEY)
    finally:
        os.umask(old_umask)
    path = cache / (KEY + ".json")
    assert stat.S_IMODE(os.stat(cache).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    text = path.read_text()
    assert PASSWORD not in text
    entry = json.loads(text)
    assert entry["version"] == token_cache.FORMAT_VERSION
    assert entry["expires_at"] > entry["saved_at"]
    assert [p.name for p in cache.iterdir()] == [KEY + ".json"]  # no temp files


def test_open_directory_is_tightened(cache, keystone):
    cache.mkdir(parents=True, mode=0o755)
    os.chmod(cache, 0o755)
    plugin = new_plugin()
    authenticate(plugin)
    assert token_cache.save(plugin, KEY)
    assert stat.S_IMODE(os.stat(cache).st_mode) == 0o700


def test_expired_entry_is_ignored_and_replaced(cache, keystone):
    keystone["seconds"] = 60  # below the staleness margin
    plugin = new_plugin()
    authenticate(plugin)
    assert token_cache.save(plugin, KEY)
    stale = new_plugin()
    assert token_cache.load(stale, KEY) is False
    assert stale.auth_ref is None
    assert token_cache.load_extra(KEY) == {}

    keystone["seconds"] = 3600
    assert authenticate(stale) == "tok-2"
    assert token_cache.save(stale, KEY)
    fresh = new_plugin()
    assert token_cache.load(fresh, KEY) is True
    assert authenticate(fresh) == "tok-2"
    assert len(posts(keystone)) == 2


def test_expiry_inside_state_is_checked_too(cache, keystone):
    plugin = new_plugin()
    authenticate(plugin)
    token_cache.save(plugin, KEY)
    path = cache / (KEY + ".json")
    entry = json.loads(path.read_text())
    state = json.loads(entry["auth_state"])
    state["body"]["token"]["expires_at"] = "2015-11-07T02:58:43.578887Z"
    entry["auth_state"] = json.dumps(state)
    path.write_text(json.dumps(entry))
    other = new_plugin()
    assert token_cache.load(other, KEY) is False
    assert other.auth_ref is None


@pytest.mark.parametrize(
    "content",
    [
        "{not json",
        "[]",
        json.dumps({"version": 999, "expires_at": 9e12, "auth_state": "{}"}),
        json.dumps({"version": 1, "expires_at": "soon", "auth_state": "{}"}),
        json.dumps({"version": 1, "expires_at": 9e12, "auth_state": '{"garbage": 1}'}),
        "",
    ],
)
def test_bad_file_is_ignored_and_replaced(cache, keystone, content):
    cache.mkdir(parents=True, mode=0o700)
    path = cache / (KEY + ".json")
    path.write_text(content)
    os.chmod(path, 0o600)
    plugin = new_plugin()
    assert token_cache.load(plugin, KEY) is False
    assert plugin.auth_ref is None
    assert token_cache.load_extra(KEY) == {}
    authenticate(plugin)
    assert token_cache.save(plugin, KEY)
    assert token_cache.load(new_plugin(), KEY) is True


def test_file_readable_by_others_is_ignored(cache, keystone):
    plugin = new_plugin()
    authenticate(plugin)
    token_cache.save(plugin, KEY)
    os.chmod(cache / (KEY + ".json"), 0o644)
    assert token_cache.load(new_plugin(), KEY) is False


def test_invalidate(cache, keystone):
    plugin = new_plugin()
    authenticate(plugin)
    token_cache.save(plugin, KEY)
    token_cache.invalidate(KEY)
    assert not (cache / (KEY + ".json")).exists()
    assert token_cache.load(new_plugin(), KEY) is False
    token_cache.invalidate(KEY)  # nothing there: no error


def test_update_extra(cache, keystone):
    assert token_cache.update_extra(KEY, {"x": 1}) is False
    plugin = new_plugin()
    authenticate(plugin)
    token_cache.save(plugin, KEY, extra={"a": 1})
    assert token_cache.update_extra(KEY, {"compute_microversion": "2.90"})
    assert token_cache.load_extra(KEY) == {"a": 1, "compute_microversion": "2.90"}
    assert token_cache.load(new_plugin(), KEY) is True


def test_unusable_cache_dir_never_breaks(tmp_path, monkeypatch, keystone):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("OCCLI_CACHE_DIR", str(blocker))
    plugin = new_plugin()
    assert token_cache.load(plugin, KEY) is False
    authenticate(plugin)
    assert token_cache.save(plugin, KEY) is False
    assert token_cache.load_extra(KEY) == {}
    token_cache.invalidate(KEY)


def test_bad_keys_and_stateless_plugins(cache, keystone):
    from keystoneauth1 import noauth

    plugin = new_plugin()
    assert token_cache.save(plugin, KEY) is False  # not authenticated yet
    assert token_cache.save(noauth.NoAuth(), KEY) is False
    authenticate(plugin)
    assert token_cache.save(plugin, "../escape") is False
    assert token_cache.load(new_plugin(), "../escape") is False
    assert not (cache.parent / "escape.json").exists()


def test_default_location(monkeypatch, tmp_path):
    monkeypatch.delenv("OCCLI_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert token_cache.cache_dir() == str(tmp_path / "xdg" / "occli" / "tokens")
    assert token_cache.cache_dir({"OCCLI_CACHE_DIR": "/c"}) == "/c/tokens"


def test_with_resolved_config(cache, keystone, monkeypatch, tmp_path):
    """config.resolve() -> auth_plugin() + identity_key() -> cache, end to end."""
    monkeypatch.setattr(clouds_yaml, "SEARCH_DIRS", [str(tmp_path)])
    environ = {
        "OS_AUTH_URL": AUTH_URL,
        "OS_USERNAME": "admin",
        "OS_PASSWORD": PASSWORD,
        "OS_PROJECT_NAME": "admin",
        "OS_USER_DOMAIN_ID": "default",
        "OS_PROJECT_DOMAIN_ID": "default",
        "OS_AUTH_TYPE": "v3password",
    }
    cfg = config.resolve(environ=environ)
    plugin, key = cfg.auth_plugin(), cfg.identity_key()
    assert not token_cache.load(plugin, key)
    authenticate(plugin)
    token_cache.save(plugin, key)
    again = config.resolve(environ=environ)
    plugin2 = again.auth_plugin()
    assert token_cache.load(plugin2, again.identity_key())
    assert authenticate(plugin2) == "tok-1"
    assert len(posts(keystone)) == 1
    assert PASSWORD not in (cache / (key + ".json")).read_text()


# a tokens directory that others control is refused (issue 9)


def cached_token(cache):
    """A valid entry saved under ``cache`` (a private directory)."""
    plugin = new_plugin()
    authenticate(plugin)
    assert token_cache.save(plugin, KEY)
    return cache / (KEY + ".json")


def refusals(caplog):
    return [
        r.getMessage()
        for r in caplog.records
        if r.levelname == "WARNING" and "token cache" in r.getMessage()
    ]


def assert_refused(plugin_cache_dir, caplog, reason):
    """No read, no write, one warning naming the directory and why."""
    for _ in range(2):
        plugin = new_plugin()
        assert token_cache.load(plugin, KEY) is False
        assert plugin.auth_ref is None
        assert token_cache.load_extra(KEY) == {}
        authenticate(plugin)
        assert token_cache.save(plugin, KEY) is False
        assert token_cache.update_extra(KEY, {"x": 1}) is False
    assert refusals(caplog) == ["Not using the token cache: %s %s." % (plugin_cache_dir, reason)]


def test_world_writable_directory_is_refused_not_chmoded(cache, keystone, caplog):
    cached_token(cache)
    os.chmod(cache, 0o777)
    assert_refused(cache, caplog, "is writable by other users")
    assert stat.S_IMODE(os.stat(cache).st_mode) == 0o777


def test_group_writable_directory_is_refused(cache, keystone, caplog):
    cached_token(cache)
    os.chmod(cache, 0o770)
    assert_refused(cache, caplog, "is writable by other users")


def test_foreign_directory_is_refused(cache, keystone, caplog, monkeypatch):
    cached_token(cache)
    uid = os.getuid()
    monkeypatch.setattr(os, "getuid", lambda: uid + 1)
    assert_refused(cache, caplog, "is owned by another user")


def test_symlinked_directory_is_refused_and_its_target_untouched(
    tmp_path, monkeypatch, keystone, caplog
):
    elsewhere = tmp_path / "elsewhere" / "tokens"
    monkeypatch.setenv("OCCLI_CACHE_DIR", str(elsewhere.parent))
    cached_token(elsewhere)
    os.chmod(elsewhere, 0o755)
    (tmp_path / "cache").mkdir()
    link = tmp_path / "cache" / "tokens"
    link.symlink_to(elsewhere, target_is_directory=True)
    monkeypatch.setenv("OCCLI_CACHE_DIR", str(tmp_path / "cache"))
    assert_refused(link, caplog, "is a symbolic link")
    assert stat.S_IMODE(os.stat(elsewhere).st_mode) == 0o755
    assert [p.name for p in elsewhere.iterdir()] == [KEY + ".json"]


def test_token_without_a_catalog_is_a_miss(cache, keystone):
    path = cached_token(cache)
    entry = json.loads(path.read_text())
    state = json.loads(entry["auth_state"])
    del state["body"]["token"]["catalog"]
    entry["auth_state"] = json.dumps(state)
    path.write_text(json.dumps(entry))
    plugin = new_plugin()
    assert token_cache.load(plugin, KEY) is False
    assert plugin.auth_ref is None
    authenticate(plugin)
    assert token_cache.save(plugin, KEY)
    assert token_cache.load(new_plugin(), KEY) is True
