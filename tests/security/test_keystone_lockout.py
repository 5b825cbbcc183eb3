"""Issue 19, finding 10: keystone's ``[security_compliance]`` lockout
(``lockout_failure_attempts``, ``lockout_duration``), off by default as in
keystone. A locked user is refused with keystone's ``AccountLocked`` before
any hashing, so a flood against a known user costs no scrypt once locked."""

import datetime

import pytest

from occli.localcloud import common
from occli.localcloud.identity import passwords
from tests.unit.localcloud.wsgi_client import Client
from tests.unit.localcloud.wsgi_client import make_cloud

INVALID = "Invalid username or password"


@pytest.fixture
def clock():
    now = [common.utcnow()]

    class Clock:
        def advance(self, seconds):
            now[0] += datetime.timedelta(seconds=seconds)

    common.set_clock(lambda: now[0])
    yield Clock()
    common.set_clock(None)


def _client(tmp_path, **settings):
    cloud = make_cloud(tmp_path / "data", **settings)
    return Client(cloud)


@pytest.fixture
def keystone(tmp_path, clock):
    client = _client(tmp_path, lockout_failure_attempts=3, lockout_duration=600)
    yield client
    client.cloud.close()


def _message(result):
    return result.json()["error"]["message"]


def _fail(client, times, user="demo"):
    for _ in range(times):
        result = client.authenticate(user, password="wrong")
        assert result.status == 401
        assert _message(result) == INVALID


def _user_id(client, name="demo"):
    with client.cloud.store.read() as db:
        return client.cloud.identity.user_id(db, name)


def _hashes(monkeypatch):
    calls = []
    real = passwords.verify_password

    def counting(password, encoded):
        calls.append(1)
        return real(password, encoded)

    monkeypatch.setattr(passwords, "verify_password", counting)
    return calls


def test_off_by_default_nothing_is_counted(tmp_path):
    client = _client(tmp_path)
    try:
        _fail(client, 12)
        assert client.authenticate("demo").status == 201
        with client.cloud.store.read() as db:
            row = db.execute(
                "SELECT failed_auth_count, failed_auth_at FROM users WHERE name = 'demo'"
            ).fetchone()
        assert tuple(row) == (0, None)
    finally:
        client.cloud.close()


def test_a_locked_user_is_refused_without_hashing(keystone, monkeypatch):
    _fail(keystone, 3)
    hashes = _hashes(monkeypatch)
    result = keystone.authenticate("demo")  # the right password
    assert result.status == 401
    assert _message(result) == "The account is locked for user: %s." % _user_id(keystone)
    assert result.header("WWW-Authenticate") == 'Keystone uri="http://cloud.test:8775"'
    assert keystone.authenticate("demo", password="wrong").status == 401
    assert hashes == []
    # other users are not concerned
    assert keystone.authenticate("alt").status == 201


def test_the_lock_ends_after_lockout_duration(keystone, clock):
    _fail(keystone, 3)
    clock.advance(599)
    assert keystone.authenticate("demo").status == 401
    clock.advance(2)
    assert keystone.authenticate("demo").status == 201
    # the count started again: two failures do not lock
    _fail(keystone, 2)
    assert keystone.authenticate("demo").status == 201


def test_an_expired_lock_counts_again_from_one(keystone, clock):
    _fail(keystone, 3)
    clock.advance(601)
    _fail(keystone, 2)
    assert keystone.authenticate("demo").status == 201


def test_a_success_resets_the_count(keystone):
    _fail(keystone, 2)
    assert keystone.authenticate("demo").status == 201
    _fail(keystone, 2)
    assert keystone.authenticate("demo").status == 201
    _fail(keystone, 3)
    assert keystone.authenticate("demo").status == 401


def test_unknown_users_take_no_write(keystone, monkeypatch):
    writes = []
    store = keystone.cloud.store
    real = store.transaction

    def counting():
        writes.append(1)
        return real()

    monkeypatch.setattr(store, "transaction", counting)
    _fail(keystone, 5, user="nobody")
    assert writes == []
    _fail(keystone, 1)
    assert writes == [1]  # the known user's failure, counted in a short write


def test_without_a_duration_an_admin_update_unlocks(tmp_path, clock):
    client = _client(tmp_path, lockout_failure_attempts=2, lockout_duration=None)
    try:
        _fail(client, 2)
        clock.advance(10 * 365 * 24 * 3600)
        assert client.authenticate("demo").status == 401
        admin = client.token("admin")
        user_id = _user_id(client)
        result = client.request(
            "PATCH", "/v3/users/" + user_id, json={"user": {"enabled": True}}, token=admin
        )
        assert result.status == 200, result.body
        assert "failed_auth_count" not in result.json()["user"]
        assert client.authenticate("demo").status == 201
    finally:
        client.cloud.close()


def test_the_password_change_is_counted_and_refused_when_locked(keystone, monkeypatch):
    user_id = _user_id(keystone)
    url = "/v3/users/%s/password" % user_id

    def change(original):
        return keystone.post(
            url, json={"user": {"original_password": original, "password": "new-secret"}}
        )

    for _ in range(2):
        assert change("wrong").status == 401
    _fail(keystone, 1)
    hashes = _hashes(monkeypatch)
    result = change("demo-secret")
    assert result.status == 401
    assert _message(result) == "The account is locked for user: %s." % user_id
    assert hashes == []
    assert keystone.authenticate("demo").status == 401


def test_the_command_line_sets_the_lockout(tmp_path):
    from occli.localcloud import cli

    def parse(*options):
        return cli.build_parser().parse_args(["start", "--data-dir", str(tmp_path), *options])

    args = parse("--lockout-failure-attempts", "5", "--lockout-duration", "60")
    config = cli._config(args)
    assert (config.lockout_failure_attempts, config.lockout_duration) == (5, 60)
    argv = cli._child_argv(args)
    assert argv[argv.index("--lockout-failure-attempts") + 1] == "5"
    assert argv[argv.index("--lockout-duration") + 1] == "60"
    unset = parse()
    assert cli._config(unset).lockout_failure_attempts is None
    assert "--lockout-failure-attempts" not in cli._child_argv(unset)
