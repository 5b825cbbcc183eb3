"""Bidirectional controls cannot reorder what the terminal shows (issue 19,
finding 16): U+202E and the other embeddings, overrides, isolates and
marks, the line and paragraph separators and the invisible ZWSP, word
joiner and BOM are shown as ``\\u202e`` wherever C0 and C1 controls are
shown as ``\\xNN`` (table, value, csv and shell output, error lines on
stderr, usage errors), while json and yaml keep the real value (their
encoders escape it). The real CLI against a local cloud, and the unit
tests' mocked cloud for a server's error message."""

import json
import uuid

import pytest

from tests.functional.harness import ok
from tests.unit import fakes

RLO = "\u202e"
# a file name that reads "evil-exe.txt" once the override reverses "txt.exe"
EVIL = "evil-" + RLO + "txt.exe"
SHOWN = "evil-\\u202etxt.exe"
#: Each control escaped, with how it shows.
CONTROLS = {
    "\u061c": "\\u061c",
    "\u200b": "\\u200b",
    "\u200e": "\\u200e",
    "\u200f": "\\u200f",
    "\u2028": "\\u2028",
    "\u2029": "\\u2029",
    "\u202a": "\\u202a",
    "\u202b": "\\u202b",
    "\u202c": "\\u202c",
    "\u202d": "\\u202d",
    "\u202e": "\\u202e",
    "\u2060": "\\u2060",
    "\u2066": "\\u2066",
    "\u2067": "\\u2067",
    "\u2068": "\\u2068",
    "\u2069": "\\u2069",
    "\ufeff": "\\ufeff",
}


def test_printable_escapes_bidirectional_and_invisible_controls():
    from occli.columns import printable

    for char, shown in CONTROLS.items():
        assert printable("a" + char + "b") == "a" + shown + "b"
    # C0/C1 as before; ZWNJ/ZWJ (Persian, emoji sequences), tabs, newlines
    # and other text kept
    assert printable("\x1b\x9b") == "\\x1b\\x9b"
    kept = "می\u200cخواهم 👩\u200d💻 é\tx\ny"
    assert printable(kept) == kept


@pytest.fixture
def evil_config(occli, tmp_path):
    """A software config whose name holds a right-to-left override."""
    script = tmp_path / "script.sh"
    script.write_text("#!/bin/sh\n")
    name = EVIL + uuid.uuid4().hex[:6]
    config = json.loads(
        ok(occli("software", "config", "create", name, "--config-file", script, "-f", "json"))
    )
    yield config
    ok(occli("software", "config", "delete", config["id"]))


@pytest.mark.parametrize("formatter", ["table", "value", "csv"])
def test_list_escapes_bidirectional_controls(occli, evil_config, formatter):
    out = ok(occli("software", "config", "list", "-f", formatter))
    assert RLO not in out
    # the csv writer doubles backslashes
    assert (SHOWN.replace("\\", "\\\\") if formatter == "csv" else SHOWN) in out


def test_show_escapes_them_while_json_and_yaml_keep_the_value(occli, evil_config):
    for formatter in ("table", "value", "shell"):
        out = ok(occli("software", "config", "show", evil_config["id"], "-f", formatter))
        assert RLO not in out
        assert SHOWN in out
    # the encoders escape it: the value is the real one
    assert evil_config["name"].startswith(EVIL)
    out = ok(occli("software", "config", "show", evil_config["id"], "-f", "json"))
    assert RLO not in out
    assert json.loads(out)["name"] == evil_config["name"]
    out = ok(occli("software", "config", "show", evil_config["id"], "-f", "yaml"))
    assert RLO not in out
    assert "evil-\\u202Etxt.exe" in out


@pytest.fixture
def mocked(requests_mock, monkeypatch, tmp_path, capsys):
    """``occli ARGV…`` in-process against the unit tests' mocked cloud."""

    from occli import shell

    fakes.install(requests_mock)
    fakes.use_password_env(monkeypatch, tmp_path)

    def run(*argv):
        capsys.readouterr()
        code = shell.main(list(argv))
        out, err = capsys.readouterr()
        return code, out, err

    return requests_mock, run


def test_a_servers_error_message_is_escaped_on_stderr(mocked):
    mock, run = mocked
    mock.get(
        fakes.COMPUTE + "/flavors/detail",
        status_code=503,
        json={"serviceUnavailable": {"code": 503, "message": "Try " + RLO + "later\x1b[2J"}},
    )
    code, out, err = run("flavor", "list")
    assert code == 1
    assert RLO not in err and "\x1b" not in err
    assert err.strip() == "Try \\u202elater\\x1b[2J (HTTP 503)"


def test_usage_errors_escape_what_was_typed(mocked):
    _, run = mocked
    code, out, err = run("serv" + RLO + "er", "list")
    assert (code, out) == (2, "")
    assert RLO not in err
    assert "'serv\\u202eer' is not an occli command" in err
    code, out, err = run("flavor", "list", "--bogus" + RLO)
    assert (code, out) == (2, "")
    assert RLO not in err
    assert "unrecognized arguments: --bogus\\u202e" in err
