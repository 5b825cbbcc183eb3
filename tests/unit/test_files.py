"""occli.v2.commands.files: the one place command options' files are read."""

import io

import pytest

from occli import exceptions
from occli.v2.commands import files
from occli.v2.compute.commands import server_create
from occli.v2.compute.commands import server_options
from occli.v2.orchestration.commands import software_configs
from occli.v2.orchestration.commands import software_deployments


def test_read_bytes_returns_the_bytes(tmp_path):
    path = tmp_path / "blob"
    path.write_bytes(b"\x00\xffdata")
    assert files.read_bytes(str(path), "--file") == b"\x00\xffdata"


def test_read_bytes_refuses_a_file_over_the_limit(tmp_path):
    path = tmp_path / "big"
    path.write_bytes(b"x" * 11)
    assert files.read_bytes(str(path), "--file", limit=11) == b"x" * 11
    with pytest.raises(exceptions.ValidationError) as exc:
        files.read_bytes(str(path), "--file", limit=10)
    assert str(exc.value) == "--file: %s is larger than 10 bytes." % path
    assert exc.value.exit_code == 2


def test_read_text_returns_utf8_text(tmp_path):
    path = tmp_path / "deploy.sh"
    path.write_text("echo héllo\n", encoding="utf-8")
    assert files.read_text(str(path), "--config-file") == "echo héllo\n"


def test_read_text_dash_reads_standard_input(monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("from stdin"))
    assert files.read_text("-", "--stdout") == "from stdin"


@pytest.mark.parametrize("read", [files.read_bytes, files.read_text])
def test_a_missing_file_is_a_usage_error_naming_the_option(read, tmp_path):
    path = tmp_path / "nope"
    with pytest.raises(exceptions.ValidationError) as exc:
        read(str(path), "--user-data")
    assert str(exc.value) == "--user-data: cannot read %s: No such file or directory" % path
    assert exc.value.exit_code == 2


def test_read_text_refuses_what_is_not_utf8(tmp_path):
    path = tmp_path / "latin1.txt"
    path.write_bytes(b"caf\xe9")
    with pytest.raises(exceptions.ValidationError, match="^--stderr: cannot read .*latin1.txt: "):
        files.read_text(str(path), "--stderr")


def test_the_commands_read_through_this_module():
    # one reader each, no private copy in a command module
    for module in (software_configs, software_deployments):
        assert module.files is files
        assert not hasattr(module, "read_file")
    for module in (server_create, server_options):
        assert module.files is files
