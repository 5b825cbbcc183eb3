"""How long occli.testing takes to give a test a fresh local cloud.

Rows:

* the first cloud of a process: migrations, seed and the template saved
  (once per process and seeded settings), in fresh processes (its services
  imported first, untimed; issue 26's target: 0.25 s);
* a fresh cloud per test: what the ``local_cloud`` fixture does, a cloud
  from the template started with the environment pointed at it, then
  restored and the cloud stopped (server, database, data dir removed),
  median over 50 tests (issue 26's target: 5 ms); its start and stop apart;
* the same plus a first authenticated request (``client().flavors.list()``:
  token, version discovery, the list): what a test pays before its first
  assertion;
* for comparison, a cloud seeded from scratch (no template) at the
  local cloud's default scrypt cost, as ``occli-localcloud`` starts;
* pytest end to end: N tests taking ``local_cloud`` against N tests taking
  nothing, in two fresh pytest processes, per test.

Medians of N runs after a warm-up, in-process unless said. Run it alone
(``python benchmarks/testing_start.py``) or from benchmarks/run.py through
:func:`measure` and :func:`rows` (the ``make bench`` rows) or :func:`main`
(``[(label, value, note)]``).
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def _ms(samples):
    return statistics.median(samples) * 1000, min(samples) * 1000


def _timed(func, runs, warmup=1):
    samples = []
    for i in range(warmup + runs):
        start = time.perf_counter()
        func()
        if i >= warmup:
            samples.append(time.perf_counter() - start)
    return samples


#: issue 26's targets (seconds): the first cloud of a process, and a fresh
#: cloud's setup plus teardown per test (median over PER_TEST tests)
TARGETS = {"first": 0.25, "per_test": 0.005}
PER_TEST = 50

# the first cloud of a fresh process: its services imported first (not
# timed), then what the first test of a run pays
_FIRST = """
import time
from occli.testing import cloud as testing
testing._service_classes(None)
start = time.perf_counter()
testing.start_local_cloud().stop()
print(time.perf_counter() - start)
"""


def _environ():
    return {k: v for k, v in os.environ.items() if not k.startswith(("OS_", "PYTEST_"))}


def first_cloud(runs):
    """Seconds of the first cloud of a process, one per fresh process
    (``runs`` of them; the checkout first on the path)."""
    samples = []
    for _ in range(runs):
        proc = subprocess.run(
            [sys.executable, "-c", _FIRST],
            cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
            env=_environ(),
            check=True,
            capture_output=True,
            text=True,
        )
        samples.append(float(proc.stdout.split()[-1]))
    return samples


def per_test(count):
    """``(setup + teardown, setup, teardown)`` seconds of ``count`` tests
    as the ``local_cloud`` fixture runs them (a cloud from the template,
    the environment pointed at it, then restored and the cloud stopped),
    after a warm-up."""
    from occli.testing import cloud as testing

    cycles, starts, stops = [], [], []
    for i in range(count + 1):
        t0 = time.perf_counter()
        with testing.start_local_cloud() as fixture, fixture.patch_environ():
            t1 = time.perf_counter()
        t2 = time.perf_counter()
        if i:
            cycles.append(t2 - t0)
            starts.append(t1 - t0)
            stops.append(t2 - t1)
    return cycles, starts, stops


def with_request(runs):
    """Seconds of a fresh cloud's start, first request and stop."""
    from occli.testing import cloud as testing

    def start_and_list():
        with testing.start_local_cloud() as fixture:
            list(fixture.client().flavors.list())

    return _timed(start_and_list, runs)


def from_scratch(runs):
    """Seconds of a cloud seeded from scratch, served and stopped."""
    from occli.localcloud.cloud import Config
    from occli.localcloud.cloud import LocalCloud
    from occli.localcloud.server import BackgroundServer

    def scratch():
        data_dir = tempfile.mkdtemp(prefix="occli-bench-scratch-")
        try:
            cloud = LocalCloud(Config(data_dir=data_dir, port=0, build_time=0))
            server = BackgroundServer(cloud, port=0).start()
            server.stop()
            cloud.close()
        finally:
            shutil.rmtree(data_dir, ignore_errors=True)

    return _timed(scratch, runs)


_TESTS = """
import pytest

@pytest.mark.parametrize("n", range(%d))
def test_it(%s, n):
    pass
"""


def pytest_per_test(count):
    """Per-test cost of the ``local_cloud`` fixture in a real pytest run:
    ``(seconds per test, total with, total without)``."""
    tmp = tempfile.mkdtemp(prefix="occli-bench-testing-")
    env = _environ()
    try:
        totals = {}
        for kind, args in (("with", "local_cloud"), ("without", "tmp_path")):
            path = os.path.join(tmp, "test_%s.py" % kind)
            with open(path, "w") as f:
                f.write(_TESTS % (count, args))
            start = time.perf_counter()
            subprocess.run(
                [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", path],
                cwd=tmp,
                env=env,
                check=True,
                stdout=subprocess.DEVNULL,
            )
            totals[kind] = time.perf_counter() - start
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    per_test = (totals["with"] - totals["without"]) / count
    return per_test, totals["with"], totals["without"]


def measure(runs=30, tests=PER_TEST, first_runs=5, pytest_tests=200):
    """Every figure's samples (seconds), a dict for :func:`rows` and
    :func:`main`."""
    result = {"first": first_cloud(first_runs)}
    result["cycle"], result["start"], result["stop"] = per_test(tests)
    result["request"] = with_request(runs)
    result["scratch"] = from_scratch(max(3, runs // 5))
    result["pytest"] = pytest_per_test(pytest_tests) if pytest_tests else None
    return result


def rows(result):
    """The ``make bench`` rows (arguments of benchmarks/run.py's ``Row``):
    the first cloud and the per-test cloud against issue 26's targets
    (ratio ≤ 1 passes), the others reported."""
    first = statistics.median(result["first"])
    cycle = statistics.median(result["cycle"])
    out = [
        dict(
            figure="occli.testing: first cloud of a process (migrations, seed, template)",
            occli="%.3f s" % first,
            peer="target %g s" % TARGETS["first"],
            ratio=first / TARGETS["first"],
            target=1.0,
            note="median of %d processes" % len(result["first"]),
        ),
        dict(
            figure="occli.testing: fresh cloud per test, setup + teardown",
            occli="%.1f ms" % (cycle * 1000),
            peer="target %g ms" % (TARGETS["per_test"] * 1000),
            ratio=cycle / TARGETS["per_test"],
            target=1.0,
            note="median of %d; start %.1f + stop %.1f ms"
            % (
                len(result["cycle"]),
                statistics.median(result["start"]) * 1000,
                statistics.median(result["stop"]) * 1000,
            ),
        ),
        dict(
            figure="occli.testing: start + first request + stop",
            occli="%.1f ms" % _ms(result["request"])[0],
            peer="token, discovery, flavor list",
            note="report",
        ),
        dict(
            figure="local cloud seeded from scratch (no template), served, stopped",
            occli="%.1f ms" % _ms(result["scratch"])[0],
            peer="occli-localcloud's way, default scrypt cost",
            note="report",
        ),
    ]
    if result["pytest"] is not None:
        each, with_, without = result["pytest"]
        out.append(
            dict(
                figure="occli.testing: pytest, local_cloud fixture per test",
                occli="%.1f ms" % (each * 1000),
                peer="%.2f s with, %.2f s with tmp_path only" % (with_, without),
                note="report",
            )
        )
    return out


def main(quiet=False, runs=30, tests=PER_TEST, pytest_tests=200):
    """``[(label, value, note)]`` of every figure; printed unless ``quiet``."""
    result = measure(runs, tests, pytest_tests=pytest_tests)
    table = [(r["figure"], r["occli"], r["peer"]) for r in rows(result)]
    if not quiet:
        width = max(len(r[0]) for r in table)
        for label, value, note in table:
            print("%-*s  %-9s %s" % (width, label, value, note))
    return table


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument(
        "--tests", type=int, default=PER_TEST, help="tests of the per-test figure (median)"
    )
    parser.add_argument(
        "--pytest-tests",
        type=int,
        default=200,
        help="tests in the pytest end-to-end measurement (0: skip it)",
    )
    args = parser.parse_args()
    main(runs=args.runs, tests=args.tests, pytest_tests=args.pytest_tests)
