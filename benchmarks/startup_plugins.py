"""Start-up cost of plugins: ``occli --help`` and ``occli server list``.

Writes 20 generated plugin distributions (``*.dist-info`` with entry points,
plus a package with five ``do_*`` commands and a manager mapping each) into a
temporary directory and times the two commands with and without it on
``PYTHONPATH``. ``server list`` goes to ``http://127.0.0.1:9/v3``, a closed
port: the figure is import + dispatch + one refused connection. Times are
whole-process wall seconds, median of N runs after warm-ups (the plugin
index warm); "first run" is the index-miss run that imports every plugin.

It also times entry point scanning in a fresh process: ``importlib.metadata``
(what occli uses) against stevedore's cache, and the whole registry build
from the index.

Run it alone (``python benchmarks/startup_plugins.py``) or from
benchmarks/run.py, which calls :func:`main` (``(label, value, note)`` rows)
or :func:`run`.
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

BIN = os.path.dirname(sys.executable)
OCCLI = os.path.join(BIN, "occli")
PLUGINS = 20
AUTH = {
    "OS_AUTH_URL": "http://127.0.0.1:9/v3",
    "OS_USERNAME": "bench",
    "OS_PASSWORD": "bench",
    "OS_PROJECT_NAME": "bench",
    "OS_USER_DOMAIN_ID": "default",
    "OS_PROJECT_DOMAIN_ID": "default",
}

_COMMANDS = '''"""Generated benchmark plugin %(n)d."""

from occli import utils

'''
_COMMAND = '''
@utils.arg("--count", type=int, default=1)
@utils.output("list")
def do_bench%(n)d_thing%(i)d(client, args):
    """Benchmark command %(i)d of plugin %(n)d."""
    return ("ID",), [(j,) for j in range(args.count)]
'''
_MANAGERS = """
def manager_mapping():
    return {"bench%(n)d": "occli_bench_plugin%(n)d.managers:BenchManager"}
"""

_SCAN = r"""
import sys, time
import importlib.metadata, stevedore._cache
from occli import plugins
kind = sys.argv[1]
start = time.perf_counter()
if kind == "importlib":
    plugins._entry_point_plugins()
elif kind == "stevedore":
    for group in (plugins.COMMAND_GROUP, plugins.MANAGER_GROUP):
        stevedore._cache.get_group_all(group)
else:
    assert plugins.registry().from_index
print(time.perf_counter() - start)
"""


def make_plugins(site, count=PLUGINS):
    """``count`` plugin distributions (dist-info + package) in ``site``."""
    for n in range(count):
        package = os.path.join(site, "occli_bench_plugin%d" % n)
        os.makedirs(package)
        _write(os.path.join(package, "__init__.py"), "")
        _write(
            os.path.join(package, "commands.py"),
            _COMMANDS % {"n": n} + "".join(_COMMAND % {"n": n, "i": i} for i in range(5)),
        )
        _write(
            os.path.join(package, "managers.py"),
            _MANAGERS
            % {"n": n}
            + "\nfrom occli import base\n\n\nclass BenchManager(base.Manager):"
            "\n    service_type = 'bench'\n",
        )
        info = os.path.join(site, "occli_bench_plugin%d-1.0.dist-info" % n)
        os.makedirs(info)
        _write(
            os.path.join(info, "METADATA"),
            "Metadata-Version: 2.1\nName: occli-bench-plugin%d\nVersion: 1.0\n" % n,
        )
        _write(
            os.path.join(info, "entry_points.txt"),
            "[occli.commands]\nbench%d = occli_bench_plugin%d.commands\n\n"
            "[occli.managers]\nbench%d = occli_bench_plugin%d.managers:"
            "manager_mapping\n" % (n, n, n, n),
        )


def _write(path, text):
    with open(path, "w") as f:
        f.write(text)


def timed(argv, env, runs, warmup=2):
    """Median and min wall seconds of ``argv`` (any exit code)."""
    samples = []
    for i in range(warmup + runs):
        start = time.perf_counter()
        subprocess.run(
            argv,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            cwd=env["OCCLI_CACHE_DIR"],
        )
        if i >= warmup:
            samples.append(time.perf_counter() - start)
    return statistics.median(samples), min(samples)


def first_run(argv, env, cache, runs):
    """Median wall seconds of ``argv`` with an empty plugin index."""
    samples = []
    for _ in range(runs):
        shutil.rmtree(os.path.join(cache, "plugins"), ignore_errors=True)
        start = time.perf_counter()
        subprocess.run(
            argv,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            cwd=env["OCCLI_CACHE_DIR"],
        )
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def in_process(kind, env, runs):
    """Median and min ms of a scan variant, each run in a fresh interpreter."""
    samples = []
    for i in range(runs + 1):
        out = subprocess.run(
            [sys.executable, "-c", _SCAN, kind],
            env=env,
            capture_output=True,
            text=True,
            check=True,
            cwd=env["OCCLI_CACHE_DIR"],
        ).stdout
        if i:
            samples.append(float(out.strip().splitlines()[-1]) * 1000)
    return statistics.median(samples), min(samples)


def _scenarios(tmp, site):
    base = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("OS_", "OCCLI_")) and k != "PYTHONPATH"
    }
    for label, count, pythonpath in (
        ("0 plugins", 0, None),
        ("%d plugins" % PLUGINS, PLUGINS, site),
    ):
        cache = os.path.join(tmp, "cache-%d" % count)
        os.makedirs(cache)  # also the working directory of the runs
        env = dict(
            base, OCCLI_CACHE_DIR=cache, XDG_CACHE_HOME=os.path.join(tmp, "xdg-%d" % count), **AUTH
        )
        if pythonpath:
            env["PYTHONPATH"] = pythonpath
        yield label, env, cache


def main(quiet=False, runs=9):
    """Time the start-up with 0 and 20 plugins; ``[(label, value, note)]``."""
    rows = []
    tmp = tempfile.mkdtemp(prefix="occli-bench-plugins-")
    try:
        site = os.path.join(tmp, "site")
        os.makedirs(site)
        make_plugins(site)
        for label, env, cache in _scenarios(tmp, site):
            for what, argv in (
                ("--help", [OCCLI, "--help"]),
                ("server list", [OCCLI, "server", "list"]),
            ):
                median, best = timed(argv, env, runs)
                cold = first_run(argv, env, cache, max(3, runs // 3))
                rows.append(
                    (
                        "occli %s, %s" % (what, label),
                        "%.3f s" % median,
                        "min %.3f s; first run (index miss) %.3f s" % (best, cold),
                    )
                )
            timed([OCCLI, "--version"], env, 1, warmup=0)  # warm the index
            for kind, what in (
                ("importlib", "importlib.metadata scan"),
                ("stevedore", "stevedore cache read"),
                ("registry", "registry from index"),
            ):
                median, best = in_process(kind, env, runs)
                rows.append(
                    (
                        "%s, %s" % (what, label),
                        "%.2f ms" % median,
                        "min %.2f ms; in-process, fresh interpreter" % best,
                    )
                )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if not quiet:
        width = max(len(r[0]) for r in rows)
        for label, value, note in rows:
            print("%-*s  %-10s %s" % (width, label, value, note))
    return rows


def run(report, runs=9):
    """Append ``("plugins", label, value, note)`` rows to benchmarks/run.py's report."""
    for label, value, note in main(quiet=True, runs=runs):
        report.append(("plugins", label, value, note))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    main(runs=parser.parse_args().runs)
