"""Unit-test fixtures: a mocked cloud (requests-mock, see fakes.py), a Client
over it, and the CLI run in-process."""

import os

import pytest

from tests.unit import fakes


@pytest.fixture
def mock_cloud(requests_mock):
    return fakes.install(requests_mock)


@pytest.fixture
def client(mock_cloud):
    """A Client over a real keystoneauth1 session, against the mocked cloud."""
    from keystoneauth1 import session

    from occli.client import Client

    return Client(session=session.Session(auth=fakes.password_auth()))


@pytest.fixture
def cli(mock_cloud, monkeypatch, tmp_path, capsys):
    """Run ``occli ARGV…`` in-process; returns (exit code, stdout, stderr)."""
    for name in list(os.environ):
        if name.startswith("OS_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("OS_AUTH_URL", fakes.AUTH_URL)
    monkeypatch.setenv("OS_USERNAME", "admin")
    monkeypatch.setenv("OS_PASSWORD", fakes.PASSWORD)
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


@pytest.fixture
def app_run(cli):
    """Like ``cli``, but the App has its own stdout and stderr (StringIO):
    what a command writes to sys.stdout or sys.stderr is not in them."""
    import io

    from occli import shell

    def run(*argv):
        app = shell.OcCLI()
        app.stdout, app.stderr = io.StringIO(), io.StringIO()
        code = app.run(list(argv))
        return code, app.stdout.getvalue(), app.stderr.getvalue()

    return run
