"""The suite passes when started with SIGINT ignored, as under ``nohup`` or
from a background job: a slice of it, about plugins and Ctrl-C, is run in a
pytest that inherits SIG_IGN (which Python and occli leave in place)."""

import os
import signal
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SLICE = [
    "tests/unit/test_plugins.py",
    "tests/unit/test_shell.py",
    "-k",
    "raising or interrupt or ctrl_c or sigint",
]


def ignore_sigint():
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def test_plugin_and_ctrl_c_tests_pass_with_sigint_ignored():
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *SLICE],
        cwd=ROOT,
        preexec_fn=ignore_sigint,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert " passed" in run.stdout and "deselected" in run.stdout
