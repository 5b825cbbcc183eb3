"""benchmarks/rusage.py: a command's peak RSS is its own, not the bench's.

Linux counts the parent's resident size in a vfork'd child's ``ru_maxrss``;
the launcher keeps ``make bench``'s size out of every figure it reports."""

import importlib.util
import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).parents[2]
MIB = 1 << 20


@pytest.fixture(scope="module")
def rusage():
    spec = importlib.util.spec_from_file_location("rusage", ROOT / "benchmarks" / "rusage.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_large_parent_does_not_inflate_the_figure(rusage):
    ballast = bytearray(160 * MIB)
    ballast[::4096] = b"x" * len(ballast[::4096])  # resident, not just reserved
    direct = subprocess.Popen(["true"])
    _, _, usage = os.wait4(direct.pid, 0)
    assert usage.ru_maxrss * 1024 > 150 * MIB, "Linux counts the parent in"
    seconds, peak, cpu = rusage.measure(["true"], dict(os.environ))
    assert peak < 40 and seconds > 0 and cpu >= 0
    del ballast


def test_a_command_measures_its_own_memory(rusage):
    code = "x = bytearray(%d); x[::4096] = b'y' * len(x[::4096])" % (96 * MIB)
    _, peak, _ = rusage.measure([sys.executable, "-c", code], dict(os.environ))
    assert 96 <= peak < 140


def test_a_failing_command_is_an_error_with_its_stderr(rusage):
    with pytest.raises(RuntimeError, match="no such thing"):
        rusage.measure(
            [sys.executable, "-c", "import sys; sys.exit('no such thing')"], dict(os.environ)
        )
