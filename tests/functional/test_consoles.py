"""``occli console url show`` and ``console log show`` against the local
cloud: each console kind (unavailable, as a nova without console proxies
answers), the legacy actions before 2.6, microversion and usage errors, and
the log's --lines."""

import uuid

import pytest

from tests.functional.harness import boot_servers
from tests.functional.harness import ok


@pytest.fixture
def occli(occli_env, run_occli):
    return run_occli


@pytest.fixture(scope="module")
def vm():
    """One server name for the module: booted by the first test using it."""
    return "con-" + uuid.uuid4().hex[:8]


@pytest.fixture
def booted(occli, vm):
    code, _, _ = occli("server", "show", vm)
    if code:
        boot_servers(occli, vm, 1)
    return vm


@pytest.mark.parametrize(
    "flag, console_type",
    [(None, "novnc"), ("--spice", "spice-html5"), ("--serial", "serial"), ("--mks", "webmks")],
)
def test_console_url_kinds_unavailable(occli, booted, flag, console_type):
    # the local cloud runs no console proxy: nova's answer then, one line
    argv = ["console", "url", "show", booted] + ([flag] if flag else [])
    code, out, err = occli(*argv)
    assert (code, out) == (1, "")
    (line,) = err.splitlines()
    assert line.startswith("Unavailable console type %s. (HTTP 400)" % console_type)


def test_console_url_legacy_action_before_2_6(occli, booted):
    code, out, err = occli("--os-compute-api-version", "2.5", "console", "url", "show", booted)
    assert code == 1 and "Unavailable console type novnc." in err


def test_console_url_failures(occli, booted):
    code, _, err = occli(
        "--os-compute-api-version", "2.6", "console", "url", "show", "--mks", booted
    )
    assert code == 1 and "2.8" in err
    code, _, err = occli("console", "url", "show", "--rdp", booted)
    assert code == 1 and "malformed" in err
    code, _, err = occli("console", "url", "show", "--xvpvnc", booted)
    assert code == 1 and "Unavailable console type xvpvnc." in err
    code, _, err = occli("console", "url", "show")
    assert code == 2
    code, _, err = occli("--os-cloud", "local-alt", "console", "url", "show", booted)
    assert code == 1 and "No server" in err


def test_console_log_lines(occli, booted):
    full = ok(occli("console", "log", "show", booted))
    assert "login:" in full
    tail = ok(occli("console", "log", "show", "--lines", "3", booted))
    assert tail.splitlines() == full.splitlines()[-3:]
    assert ok(occli("server", "console", "log", "--lines", "3", booted)) == tail
    code, _, err = occli("console", "log", "show", "--lines", "0", booted)
    assert code == 2
