"""occli benchmarks (``make bench``): start-up, requests per command, list scale.

Figures are whole-process wall times (median of N runs after warm-ups) on
this machine, printed beside ``python -c pass`` and ``python -c "import
requests"`` from the same run, so they can be compared across machines.
Nothing here is asserted against a time limit: the tests check behaviour,
this reports speed.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BIN = os.path.dirname(sys.executable)
OCCLI = os.path.join(BIN, "occli")
LOCALCLOUD = os.path.join(BIN, "occli-localcloud")
FORBIDDEN = ("cmd2", "yaml", "jsonschema", "occli.localcloud", "openstack",
             "prompt_toolkit")


def timed(argv, runs, env=None, warmup=2):
    """Median and min wall seconds of running ``argv`` ``runs`` times."""
    samples = []
    for i in range(warmup + runs):
        start = time.perf_counter()
        proc = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE)
        elapsed = time.perf_counter() - start
        if proc.returncode != 0:
            raise RuntimeError("%s failed: %s" % (" ".join(argv),
                                                  proc.stderr.decode()[-500:]))
        if i >= warmup:
            samples.append(elapsed)
    return statistics.median(samples), min(samples)


def imported_modules(argv, env):
    """Top-level and dotted module names imported by a command."""
    proc = subprocess.run([sys.executable, "-X", "importtime"] + argv,
                          env=env, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    names = set()
    for line in proc.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            names.add(line.rsplit("|", 1)[1].strip())
    return names


class LocalCloud:
    """A local cloud in a temporary data dir, for the request-level benchmarks."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="occli-bench-")

    def __enter__(self):
        out = subprocess.run(
            [LOCALCLOUD, "start", "--port", "0", "--build-time", "0",
             "--data-dir", self.dir], check=True, capture_output=True,
            text=True).stdout
        with open(os.path.join(self.dir, "endpoint")) as f:
            self.url = f.read().strip()
        self.env = dict(os.environ, OS_CLIENT_CONFIG_FILE=os.path.join(
            self.dir, "clouds.yaml"), OS_CLOUD="local",
            OCCLI_CACHE_DIR=os.path.join(self.dir, "cache"))
        self.start_output = out
        return self

    def __exit__(self, *exc):
        subprocess.run([LOCALCLOUD, "stop", "--data-dir", self.dir],
                       capture_output=True)
        shutil.rmtree(self.dir, ignore_errors=True)

    def os_environment(self):
        """The ``local`` cloud as plain OS_* variables (no clouds.yaml)."""
        import yaml
        with open(os.path.join(self.dir, "clouds.yaml")) as f:
            cloud = yaml.safe_load(f)["clouds"]["local"]
        env = {k: v for k, v in self.env.items()
               if not k.startswith("OS_")}
        for key, value in cloud["auth"].items():
            env["OS_" + key.upper()] = str(value)
        env["OS_REGION_NAME"] = cloud.get("region_name", "RegionOne")
        return env

    def requests_since(self, mark):
        with open(os.path.join(self.dir, "access.log")) as f:
            lines = f.readlines()
        return lines[mark:]

    def log_mark(self):
        path = os.path.join(self.dir, "access.log")
        if not os.path.exists(path):
            return 0
        with open(path) as f:
            return len(f.readlines())


def bench_startup(runs, report):
    env = dict(os.environ)
    rows = [
        ("python -c pass", [sys.executable, "-c", "pass"]),
        ("python -c 'import requests'", [sys.executable, "-c", "import requests"]),
        ("occli --version", [OCCLI, "--version"]),
        ("occli --help", [OCCLI, "--help"]),
    ]
    for label, argv in rows:
        median, best = timed(argv, runs, env=env)
        report.append(("startup", label, "%.3f s" % median, "min %.3f s" % best))


def bench_requests(runs, report):
    with LocalCloud() as cloud:
        env = cloud.env
        occli = [OCCLI, "--os-cloud", "local"]
        subprocess.run(occli + ["server", "create", "bench0", "--image",
                                "cirros-0.6.2-x86_64-disk", "--flavor",
                                "m1.tiny", "--nic", "auto", "--wait"],
                       env=env, check=True, capture_output=True)
        for label, extra in (("server list (no token cache)", ["--no-cache"]),
                             ("server list (token cached)", [])):
            subprocess.run(occli + ["server", "list"], env=env, check=True,
                           capture_output=True)
            mark = cloud.log_mark()
            subprocess.run(occli + extra + ["server", "list"], env=env,
                           check=True, capture_output=True)
            count = len(cloud.requests_since(mark))
            median, best = timed(occli + extra + ["server", "list"], runs,
                                 env=env, warmup=1)
            report.append(("requests", label, "%.3f s" % median,
                           "%d request(s)" % count))
        plain = cloud.os_environment()
        modules = imported_modules(["-m", "occli.shell", "server", "list"],
                                   plain)
        bad = sorted(m for m in modules
                     if any(m == f or m.startswith(f + ".") for f in FORBIDDEN))
        report.append(("imports", "server list (OS_* env) imports %d modules"
                       % len(modules),
                       "forbidden: %s" % (", ".join(bad) or "none"), ""))


def bench_list_scale(count, report):
    with LocalCloud() as cloud:
        env = cloud.env
        admin = [OCCLI, "--os-cloud", "local"]
        script = [sys.executable, "-c", _CREATE_MANY, str(count)]
        subprocess.run(script, env=env, check=True)
        mark = cloud.log_mark()
        start = time.perf_counter()
        proc = subprocess.run(admin + ["server", "list", "--limit", "-1",
                                       "-f", "json"], env=env, check=True,
                              capture_output=True, text=True)
        elapsed = time.perf_counter() - start
        listed = len(json.loads(proc.stdout))
        pages = sum(1 for line in cloud.requests_since(mark)
                    if "/servers/detail" in line)
        report.append(("scale", "server list of %d servers" % listed,
                       "%.3f s" % elapsed, "%d page request(s)" % pages))


_CREATE_MANY = """
import sys
from occli import Client
client = Client(cloud="local")
image = client.images.find_resource("cirros-0.6.2-x86_64-disk")
flavor = client.flavors.find_resource("m1.tiny")
client.servers.create("many", image=image, flavor=flavor, nics="none",
                      min_count=int(sys.argv[1]), max_count=int(sys.argv[1]))
"""


def bench_plugins(report):
    sys.path.insert(0, HERE)
    try:
        import startup_plugins
    except ImportError:
        return
    for label, value, note in startup_plugins.main(quiet=True):
        report.append(("plugins", label, value, note))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--servers", type=int, default=1500,
                        help="servers for the list-scale benchmark")
    parser.add_argument("--peers", action="store_true",
                        help="also run nova/heat/openstack side by side "
                        "(benchmarks/peers.py; installs them once into "
                        ".bench-peers)")
    args = parser.parse_args()
    report = []
    bench_startup(args.runs, report)
    bench_requests(args.runs, report)
    bench_list_scale(args.servers, report)
    bench_plugins(report)
    if args.peers:
        sys.path.insert(0, HERE)
        import peers
        peers.run(args.runs, report)
    width = max(len(r[1]) for r in report)
    print("%-9s %-*s %-28s %s" % ("group", width, "what", "figure", "note"))
    for group, what, figure, note in report:
        print("%-9s %-*s %-28s %s" % (group, width, what, figure, note))


if __name__ == "__main__":
    main()
