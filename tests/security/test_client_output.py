"""Names chosen by another user cannot drive the terminal (issue 9): control
characters (ANSI escape sequences, BEL, CR, C1 controls) are shown as
``\\xNN`` by the table, value, csv and shell formatters, while json and yaml
keep the real value. The real CLI against a local cloud."""

import json
import uuid

import pytest

from tests.functional.harness import ok

# clear the screen, set the window title, ring, CSI as one C1 byte, rewrite
# the line: each would act on a terminal
EVIL = "ev\x1b[2J\x1b]0;owned\x07il\x9b31m\rX\x7f"
SHOWN = "ev\\x1b[2J\\x1b]0;owned\\x07il\\x9b31m\\x0dX\\x7f"
RAW = ("\x1b", "\x07", "\x9b", "\r", "\x7f")


@pytest.fixture
def evil_config(occli, tmp_path):
    """A software config whose name is full of control characters."""
    script = tmp_path / "script.sh"
    script.write_text("#!/bin/sh\n")
    config = json.loads(
        ok(
            occli(
                "software",
                "config",
                "create",
                EVIL + uuid.uuid4().hex[:6],
                "--config-file",
                script,
                "-f",
                "json",
            )
        )
    )
    yield config
    ok(occli("software", "config", "delete", config["id"]))


def assert_escaped(out, shown=SHOWN):
    for char in RAW:
        assert char not in out
    if shown:
        assert shown in out


@pytest.mark.parametrize("formatter", ["table", "value", "csv"])
def test_list_escapes_control_characters(occli, evil_config, formatter):
    out = ok(occli("software", "config", "list", "-f", formatter))
    # the csv writer doubles backslashes
    assert_escaped(out, SHOWN.replace("\\", "\\\\") if formatter == "csv" else SHOWN)


@pytest.mark.parametrize("formatter", ["table", "value", "shell"])
def test_show_escapes_control_characters(occli, evil_config, formatter):
    assert_escaped(ok(occli("software", "config", "show", evil_config["id"], "-f", formatter)))


def test_json_keeps_the_real_value(occli, evil_config):
    assert evil_config["name"].startswith(EVIL)
    rows = json.loads(ok(occli("software", "config", "list", "-f", "json")))
    assert evil_config["name"] in [r["Name"] for r in rows]


def test_structured_cells_are_escaped_too(occli):
    name = "esc-" + uuid.uuid4().hex[:6]
    server = json.loads(
        ok(
            occli(
                "server",
                "create",
                name,
                "--image",
                "cirros-0.6.2-x86_64-disk",
                "--flavor",
                "m1.tiny",
                "--nic",
                "none",
                "--property",
                "motd=" + EVIL,
                "--wait",
                "--wait-interval",
                "0.05",
                "-f",
                "json",
            )
        )
    )
    try:
        assert server["properties"] == {"motd": EVIL}
        shown = ok(occli("server", "show", server["id"]))
        assert_escaped(shown)
        assert "motd='" + SHOWN + "'" in shown
        assert_escaped(ok(occli("server", "list", "--long", "--name", name)))
        # a dict cell's repr in csv: repr escapes controls, occli the rest
        assert_escaped(
            ok(occli("server", "list", "--long", "--name", name, "-f", "csv")), shown=None
        )
    finally:
        ok(occli("server", "delete", server["id"], "--wait", "--wait-interval", "0.05"))


def test_printable_keeps_newlines_and_tabs():
    from occli.columns import printable

    assert printable("a\tb\nc\x1bd\x00\x85é✓") == "a\tb\nc\\x1bd\\x00\\x85é✓"
