"""Adversarial tests (issue 9): what an attacker with a member account or a
careless operator can do must not cross projects, stall the cloud, leak a
secret or wedge the client. Harnesses come from the unit and functional
test packages; fixtures shared by several modules live here."""

import pytest

from tests.functional.harness import point_client_at
from tests.functional.harness import start_localcloud


@pytest.fixture(scope="module")
def cloud():
    """A local cloud on a free loopback port, one per module (modules
    driving the in-process client; local-cloud modules define their own)."""
    running = start_localcloud()
    yield running
    running.stop()


@pytest.fixture
def occli(cloud, monkeypatch, tmp_path, capsys):
    """Run ``occli ARGV…`` in-process as the demo user: ``(code, out, err)``."""
    from occli import shell

    point_client_at(cloud, monkeypatch, tmp_path / "cache", cloud="local")

    def run(*argv):
        capsys.readouterr()
        code = shell.main([str(a) for a in argv])
        out, err = capsys.readouterr()
        return code, out, err

    return run
