"""How long occli.testing takes to give a test a fresh local cloud.

Rows:

* the first cloud of a process: migrations, seed and the template saved
  (once per process and seeded settings);
* a fresh cloud from the template, ready to serve (``start_local_cloud``),
  and its stop (server, database, data dir removed);
* the same plus a first authenticated request (``client().flavors.list()``:
  token, version discovery, the list): what a test pays before its first
  assertion;
* for comparison, a cloud seeded from scratch (no template) at the
  local cloud's default scrypt cost, as ``occli-localcloud`` starts;
* pytest end to end: N tests taking ``local_cloud`` against N tests taking
  nothing, in two fresh pytest processes, per test.

Medians of N runs after a warm-up, in-process unless said. Run it alone
(``python benchmarks/testing_start.py``) or from benchmarks/run.py through
:func:`main` (``[(label, value, note)]``) or :func:`run`.
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


def in_process(runs):
    """``[(label, value, note)]`` of the in-process measurements."""
    from occli.localcloud.cloud import Config
    from occli.localcloud.cloud import LocalCloud
    from occli.localcloud.server import BackgroundServer
    from occli.testing import cloud as testing

    rows = []
    testing._service_classes(None)  # imports, not timed
    start = time.perf_counter()
    testing.start_local_cloud(compute_hosts=7).stop()  # a template of its own
    rows.append(
        (
            "first cloud of a process (template built)",
            "%.1f ms" % ((time.perf_counter() - start) * 1000),
            "migrations + seed + template saved; once per process",
        )
    )

    starts, stops = [], []
    for i in range(runs + 1):
        t0 = time.perf_counter()
        fixture = testing.start_local_cloud()
        t1 = time.perf_counter()
        fixture.stop()
        t2 = time.perf_counter()
        if i:
            starts.append(t1 - t0)
            stops.append(t2 - t1)
    rows.append(
        (
            "fresh cloud per test: start",
            "%.1f ms" % _ms(starts)[0],
            "min %.1f ms; template copied, port bound, serving" % _ms(starts)[1],
        )
    )
    rows.append(
        (
            "fresh cloud per test: stop",
            "%.1f ms" % _ms(stops)[0],
            "min %.1f ms; server, database, data dir" % _ms(stops)[1],
        )
    )

    def start_and_list():
        with testing.start_local_cloud() as fixture:
            list(fixture.client().flavors.list())

    median, best = _ms(_timed(start_and_list, runs))
    rows.append(
        (
            "start + first request + stop",
            "%.1f ms" % median,
            "min %.1f ms; token, discovery, flavor list" % best,
        )
    )

    def scratch():
        data_dir = tempfile.mkdtemp(prefix="occli-bench-scratch-")
        try:
            cloud = LocalCloud(Config(data_dir=data_dir, port=0, build_time=0))
            server = BackgroundServer(cloud, port=0).start()
            server.stop()
            cloud.close()
        finally:
            shutil.rmtree(data_dir, ignore_errors=True)

    median, best = _ms(_timed(scratch, max(3, runs // 5)))
    rows.append(
        (
            "cloud seeded from scratch (no template)",
            "%.1f ms" % median,
            "min %.1f ms; occli-localcloud's way, default scrypt cost" % best,
        )
    )
    return rows


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
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OS_", "PYTEST_"))}
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


def main(quiet=False, runs=30, tests=200):
    """``[(label, value, note)]``; printed unless ``quiet``."""
    rows = in_process(runs)
    per_test, with_, without = pytest_per_test(tests)
    rows.append(
        (
            "pytest: local_cloud fixture, per test",
            "%.1f ms" % (per_test * 1000),
            "%d tests: %.2f s with, %.2f s with tmp_path only" % (tests, with_, without),
        )
    )
    if not quiet:
        width = max(len(r[0]) for r in rows)
        for label, value, note in rows:
            print("%-*s  %-9s %s" % (width, label, value, note))
    return rows


def run(report, runs=30):
    """Append ``("testing", label, value, note)`` rows to benchmarks/run.py's
    report."""
    for label, value, note in main(quiet=True, runs=runs):
        report.append(("testing", label, value, note))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument(
        "--tests", type=int, default=200, help="tests in the pytest end-to-end measurement"
    )
    args = parser.parse_args()
    main(runs=args.runs, tests=args.tests)
