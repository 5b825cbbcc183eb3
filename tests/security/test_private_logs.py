"""The ``--log-file`` and the cache directory are private (issue 19,
finding 13): the log holds the (redacted) debug log, URLs, names and
bodies, so it is created 0600 and refused when others could read it, is
another user's or a symbolic link; the cache directory (``~/.cache/occli``,
``$OCCLI_CACHE_DIR``) holding the token cache and the plugin index is
created 0700 like them, tightened when others may only read it, refused
when they may write it. In-process ``occli.shell.main`` under umask 022."""

import logging
import os
import stat

import pytest

from occli import private_files
from tests.unit import fakes


@pytest.fixture(autouse=True)
def umask_022():
    old = os.umask(0o022)
    yield
    os.umask(old)


@pytest.fixture
def occli(requests_mock, monkeypatch, tmp_path, capsys):
    """Run ``occli ARGV…`` in-process against the unit tests' mocked cloud
    (a flavor list): ``(code, out, err)``."""
    from occli import shell

    fakes.install(requests_mock)
    requests_mock.get(
        fakes.COMPUTE + "/flavors/detail",
        json=fakes.load_fixture("compute", "flavors", "flavors-detail-resp.json"),
    )
    fakes.use_password_env(monkeypatch, tmp_path)

    def run(*argv):
        capsys.readouterr()
        code = shell.main([str(a) for a in argv])
        logging.shutdown()  # flush and close the log file
        out, err = capsys.readouterr()
        return code, out, err

    return run


def mode(path):
    return stat.S_IMODE(os.lstat(path).st_mode)


def test_log_file_is_created_private_then_appended_to(occli, tmp_path):
    log = tmp_path / "occli.log"
    assert occli("--log-file", log, "flavor", "list")[0] == 0
    assert mode(log) == 0o600
    first = log.read_text()
    assert "GET " + fakes.COMPUTE + "/flavors/detail" in first
    assert fakes.PASSWORD not in first
    assert occli("--log-file", log, "flavor", "list")[0] == 0
    assert log.read_text().startswith(first) and len(log.read_text()) > len(first)
    assert mode(log) == 0o600


@pytest.mark.parametrize("loose", [0o644, 0o640, 0o606])
def test_a_log_file_others_may_use_is_refused(occli, tmp_path, loose):
    log = tmp_path / "occli.log"
    log.write_text("")
    os.chmod(log, loose)
    code, out, err = occli("--log-file", log, "flavor", "list")
    assert code == 1
    assert out == ""
    assert "Not using the log file: %s is open to other users" % log in err
    assert log.read_text() == ""
    assert mode(log) == loose


def test_a_symlinked_log_file_is_refused_and_its_target_untouched(occli, tmp_path):
    target = tmp_path / "elsewhere.log"
    target.write_text("")
    os.chmod(target, 0o600)
    link = tmp_path / "occli.log"
    link.symlink_to(target)
    code, _, err = occli("--log-file", link, "flavor", "list")
    assert code == 1
    assert "Not using the log file: %s is a symbolic link." % link in err
    assert target.read_text() == ""


def test_another_users_log_file_is_refused(occli, tmp_path, monkeypatch):
    log = tmp_path / "occli.log"
    log.write_text("")
    os.chmod(log, 0o600)
    inode = os.stat(log).st_ino
    real = private_files._owned
    monkeypatch.setattr(private_files, "_owned", lambda st: st.st_ino != inode and real(st))
    code, _, err = occli("--log-file", log, "flavor", "list")
    assert code == 1
    assert "is owned by another user" in err
    assert log.read_text() == ""


def test_the_cache_directory_is_created_private(occli, tmp_path):
    assert occli("flavor", "list")[0] == 0
    root = tmp_path / "cache"
    assert mode(root) == 0o700
    assert mode(root / "tokens") == 0o700


def test_a_readable_cache_directory_is_tightened(occli, tmp_path):
    root = tmp_path / "cache"
    root.mkdir(mode=0o755)
    os.chmod(root, 0o755)  # as occli made it before
    assert occli("flavor", "list")[0] == 0
    assert mode(root) == 0o700


def test_a_cache_directory_others_may_write_is_refused(tmp_path, caplog):
    root = tmp_path / "cache"
    root.mkdir()
    os.chmod(root, 0o777)
    path = str(root / "tokens" / "entry.json")
    assert private_files.write(path, b"{}", "token cache") is False
    assert not (root / "tokens").exists()
    assert mode(root) == 0o777
    assert [r.getMessage() for r in caplog.records if r.levelname == "WARNING"] == [
        "Not using the token cache: %s is writable by other users." % root
    ]


def test_a_symlinked_cache_directory_is_refused(tmp_path, caplog):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    (elsewhere / "tokens").mkdir(mode=0o700)
    root = tmp_path / "cache"
    root.symlink_to(elsewhere, target_is_directory=True)
    path = str(root / "tokens" / "entry.json")
    assert private_files.write(path, b"{}", "token cache") is False
    assert private_files.read(path, "token cache") is None
    assert list((elsewhere / "tokens").iterdir()) == []
    assert "Not using the token cache: %s is a symbolic link." % root in caplog.text
