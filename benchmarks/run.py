"""occli benchmarks (``make bench``): the figures of issue 14, one table.

Prints one markdown table: for each figure, occli's value, the peer or
floor it is compared with, their ratio, the target and pass/fail:

* a warm ``occli server list`` (token cache warm, 5 servers) against
  ``python -c "import keystoneauth1.session"`` (the floor: occli cannot
  start faster than its HTTP stack imports) and against ``nova list``
  (novaclient, installed once into ``.bench-peers`` by benchmarks/peers.py;
  the row says "skipped" without PyPI);
* ``occli --help`` and ``occli --version`` against ``python -c "import
  cliff.app"``;
* peak RSS of ``server list -f value|csv|json`` listing 10,000 servers
  against listing 1,000 (Nova pages of 1,000);
* 200 ``server delete`` against a local cloud that delays every compute
  request by 50 ms (its ``delay`` fault), ``--concurrency 8`` against
  ``--concurrency 1``;
* the local cloud: a page of 1,000 of 10,000 servers (server time), the
  10,000-server CLI listing, 8 concurrent readers against 1, start-up
  (``benchmarks/localcloud_load.py``), and ``occli.testing``'s fresh cloud
  per test (``benchmarks/testing_start.py``);
* fairness: another project's write p99 while one tenant floods the local
  cloud (Heat ``/validate``, 200-server boots, 5 MB Swift PUTs) and its
  read p99 under a wrong-password flood, against its idle p99
  (``benchmarks/fairness.py``);
* the local Heat: a ``ResourceGroup`` of 100 template resources (nested
  stacks of a ``RandomString``) created and deleted, beside the real
  Heat's figure when ``../shared/realcloud`` runs; 1,000 stacks listed
  (the API page and ``occli stack list``) and ``occli stack event list``
  of a 100-resource stack, each against its own target
  (``benchmarks/stacks.py``).
* bytes: ``image create --file``/``image save --file`` and ``object
  create``/``object save`` of a 1 GiB file against ``cp`` of it, and the
  peak RSS of occli and of the local cloud at 1 GiB against a 10 MiB
  transfer's (``benchmarks/images.py``).

Times are whole-process wall times; every figure and its comparison run in
interleaved repetitions (one run of each in turn, the order rotating) and
the table shows medians, so that the load of a shared machine weighs on
both alike. Nothing here is asserted: the tests check behaviour (request
counts, imports, ordering), this reports speed. Progress goes to stderr.

``--occli CMD`` times another occli (e.g. a checkout: a script putting it
first on ``sys.path``), ``--localcloud CMD`` another local cloud.
"""

import argparse
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import rusage

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
BIN = os.path.dirname(sys.executable)
IMAGE = "cirros-0.6.2-x86_64-disk"
FLAVOR = "m1.tiny"

OCCLI = [os.path.join(BIN, "occli")]
LOCALCLOUD = [os.path.join(BIN, "occli-localcloud")]


def progress(text):
    print(text, file=sys.stderr, flush=True)


def run_once(argv, env):
    """Wall seconds of one run of ``argv`` (which must succeed)."""
    start = time.perf_counter()
    proc = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise RuntimeError("%s failed: %s" % (" ".join(argv), proc.stderr.decode()[-500:]))
    return elapsed


def timed(argv, runs, env=None, warmup=2):
    """Median and min wall seconds of ``runs`` runs of ``argv`` alone
    (benchmarks/peers.py)."""
    samples = [run_once(argv, env) for _ in range(warmup + runs)][warmup:]
    return statistics.median(samples), min(samples)


def interleaved(commands, runs, warmup=2):
    """``{label: median seconds}`` of ``commands`` (``{label: (argv,
    env)}``), run in turn ``warmup + runs`` times, the order rotating."""
    labels = list(commands)
    samples = {label: [] for label in labels}
    for i in range(warmup + runs):
        shift = i % len(labels)
        for label in labels[shift:] + labels[:shift]:
            argv, env = commands[label]
            elapsed = run_once(argv, env)
            if i >= warmup:
                samples[label].append(elapsed)
    return {label: statistics.median(s) for label, s in samples.items()}


def peak_rss(argv, env):
    """Peak resident set size of one run of ``argv``, in MiB (:mod:`rusage`:
    not this process's own, which Linux would count in it)."""
    return rusage.measure(argv, env)[1]


class LocalCloud:
    """A local cloud in a temporary data dir (``occli-localcloud start``)."""

    def __init__(self, *options):
        self.options = list(options)
        self.dir = tempfile.mkdtemp(prefix="occli-bench-")

    def __enter__(self):
        subprocess.run(
            LOCALCLOUD
            + ["start", "--port", "0", "--build-time", "0", "--data-dir", self.dir]
            + self.options,
            check=True,
            capture_output=True,
            text=True,
        )
        with open(os.path.join(self.dir, "endpoint")) as f:
            self.url = f.read().strip()
        self.env = dict(
            os.environ,
            OS_CLIENT_CONFIG_FILE=os.path.join(self.dir, "clouds.yaml"),
            OS_CLOUD="local",
            OCCLI_CACHE_DIR=os.path.join(self.dir, "cache"),
            NOVACLIENT_ISHOULDNTBEDOINGTHIS="1",
        )
        for key in [
            k
            for k in self.env
            if k.startswith("OS_") and k not in ("OS_CLIENT_CONFIG_FILE", "OS_CLOUD")
        ]:
            del self.env[key]
        return self

    def __exit__(self, *exc):
        subprocess.run(LOCALCLOUD + ["stop", "--data-dir", self.dir], capture_output=True)
        shutil.rmtree(self.dir, ignore_errors=True)

    def log_mark(self):
        """Lines in the access log so far (see :meth:`requests_since`)."""
        path = os.path.join(self.dir, "access.log")
        if not os.path.exists(path):
            return 0
        with open(path) as f:
            return len(f.readlines())

    def requests_since(self, mark):
        with open(os.path.join(self.dir, "access.log")) as f:
            return f.readlines()[mark:]

    def occli(self, *argv, cloud="local"):
        """Run occli against this cloud; its stdout."""
        proc = subprocess.run(
            OCCLI + ["--os-cloud", cloud] + list(argv),
            env=self.env,
            capture_output=True,
            text=True,
        )
        if proc.returncode != 0:
            raise RuntimeError("occli %s failed: %s" % (" ".join(argv), proc.stderr[-500:]))
        return proc.stdout

    def create_servers(self, name, count, batch=1000):
        """``count`` servers named ``name-N`` (SDK creates of ``batch``, at
        most the local cloud's 1000 a request), nova's default quotas lifted
        first as an operator does."""
        self.occli(
            "quota",
            "set",
            "demo",
            "--instances",
            "-1",
            "--cores",
            "-1",
            "--ram",
            "-1",
            cloud="local-admin",
        )
        done = 0
        while done < count:
            size = min(batch, count - done)
            subprocess.run(
                [sys.executable, "-c", _CREATE_MANY, name, str(size)], env=self.env, check=True
            )
            done += size

    def admin_token(self):
        return json.loads(self.occli("token", "issue", "-f", "json", cloud="local-admin"))["id"]

    def add_fault(self, rule):
        import requests

        response = requests.post(
            self.url + "/localcloud/faults",
            json=rule,
            timeout=30,
            headers={"X-Auth-Token": self.admin_token()},
        )
        response.raise_for_status()

    def clear_faults(self):
        import requests

        requests.delete(
            self.url + "/localcloud/faults",
            timeout=30,
            headers={"X-Auth-Token": self.admin_token()},
        )


_CREATE_MANY = """
import sys
from occli import Client
client = Client(cloud="local")
image = client.images.find_resource(%r)
flavor = client.flavors.find_resource(%r)
client.servers.create(sys.argv[1], image=image, flavor=flavor, nics="none",
                      min_count=int(sys.argv[2]), max_count=int(sys.argv[2]))
""" % (IMAGE, FLAVOR)


# -- the figures ------------------------------------------------------------


class Row:
    """One line of the table. ``better``: "lower" (ratio <= target) or
    "higher" (ratio >= target); ``valid`` False: the figure measured the
    wrong thing (a flood answered otherwise than expected), a FAIL."""

    def __init__(
        self, figure, occli, peer, ratio=None, target=None, better="lower", note="", valid=True
    ):
        self.figure, self.occli, self.peer = figure, occli, peer
        self.ratio, self.target, self.better = ratio, target, better
        self.note = note
        self.valid = valid

    def cells(self):
        if self.ratio is None:
            ratio, verdict = "-", self.note or "skipped"
        else:
            ratio = "%.2f" % self.ratio
            if self.note:
                ratio += " (%s)" % self.note
            ok = self.ratio <= self.target if self.better == "lower" else self.ratio >= self.target
            ok = ok and self.valid
            verdict = "pass" if ok else "FAIL"
        sign = "≤" if self.better == "lower" else "≥"
        target = "-" if self.target is None else "%s %g" % (sign, self.target)
        return [self.figure, self.occli, self.peer, ratio, target, verdict]


def seconds(value):
    return "%.3f s" % value


def bench_startup(runs, rows, nova=None):
    """Warm server list, --help and --version against their floors."""
    python = sys.executable
    with LocalCloud() as cloud:
        progress("startup: 5 servers, warm token cache")
        cloud.create_servers("bench", 5)
        env = cloud.env
        cloud.occli("server", "list")  # the token cache and version range
        commands = {
            "list": (OCCLI + ["server", "list"], env),
            "ks": ([python, "-c", "import keystoneauth1.session"], env),
            "help": (OCCLI + ["--help"], env),
            "version": (OCCLI + ["--version"], env),
            "cliff": ([python, "-c", "import cliff.app"], env),
        }
        nova_skip = None
        if nova:
            try:
                nova_env = nova_environment(cloud)
                run_once([nova, "list"], nova_env)
                commands["nova"] = ([nova, "list"], nova_env)
            except (OSError, RuntimeError) as exc:
                nova_skip = "skipped: nova list failed: %s" % str(exc)[:80]
        times = interleaved(commands, runs)
    rows.append(
        Row(
            "warm `server list` (5 servers)",
            seconds(times["list"]),
            "%s `import keystoneauth1.session`" % seconds(times["ks"]),
            times["list"] / times["ks"],
            1.1,  # issue 26
        )
    )
    if "nova" in times:
        rows.append(
            Row(
                "warm `server list` (5 servers)",
                seconds(times["list"]),
                "%s `nova list`" % seconds(times["nova"]),
                times["list"] / times["nova"],
                0.5,
            )
        )
    else:
        rows.append(
            Row(
                "warm `server list` (5 servers)",
                seconds(times["list"]),
                "`nova list`",
                note=nova_skip or "skipped: no peers (PyPI?)",
            )
        )
    cliff = "%s `import cliff.app`" % seconds(times["cliff"])
    rows.append(
        Row("`occli --help`", seconds(times["help"]), cliff, times["help"] / times["cliff"], 1.6)
    )
    rows.append(
        Row(
            "`occli --version`",
            seconds(times["version"]),
            cliff,
            times["version"] / times["cliff"],
            1.3,
        )
    )


def nova_environment(cloud):
    """Cloud ``local`` as the plain OS_* variables novaclient reads."""
    import yaml

    with open(os.path.join(cloud.dir, "clouds.yaml")) as f:
        entry = yaml.safe_load(f)["clouds"]["local"]
    env = {k: v for k, v in cloud.env.items() if not k.startswith("OS_")}
    for key, value in entry["auth"].items():
        env["OS_" + key.upper()] = str(value)
    env["OS_REGION_NAME"] = entry.get("region_name", "RegionOne")
    env["OS_INTERFACE"] = entry.get("interface", "public")
    return env


def bench_memory(runs, rows, many=10000, few=1000):
    """Peak RSS listing ``many`` servers against listing ``few``."""
    with LocalCloud("--max-servers-per-request", "2000") as cloud:
        progress("memory: creating %d servers" % many)
        cloud.create_servers("many", many)
        cloud.occli("server", "list", "--limit", "1", "-f", "value")
        for fmt in ("value", "csv", "json"):
            base = OCCLI + ["server", "list", "-f", fmt]
            samples = {"many": [], "few": []}
            for i in range(runs):
                for label in ("many", "few") if i % 2 else ("few", "many"):
                    argv = base + (["--limit", str(few)] if label == "few" else [])
                    samples[label].append(peak_rss(argv, cloud.env))
            big, small = (statistics.median(samples[k]) for k in ("many", "few"))
            rows.append(
                Row(
                    "peak RSS, `server list -f %s`: %d vs %d servers" % (fmt, many, few),
                    "%.1f MiB" % big,
                    "%.1f MiB" % small,
                    big / small,
                    1.3,
                )
            )


def bench_bulk(runs, rows, count=200, delay=0.05, concurrency=8):
    """``count`` server deletes at ``delay`` s a compute request,
    ``--concurrency N`` against ``--concurrency 1``."""
    samples = {1: [], concurrency: []}
    with LocalCloud() as cloud:
        cloud.occli("server", "list")
        for i in range(runs):
            for level in (1, concurrency) if i % 2 else (concurrency, 1):
                progress(
                    "bulk: %d deletes, --concurrency %d (%d/%d)" % (count, level, i + 1, runs)
                )
                name = "bulk%d-%d" % (i, level)
                cloud.create_servers(name, count)
                ids = cloud.occli(
                    "server", "list", "--name", "^%s-" % name, "-f", "value", "-c", "ID"
                ).split()
                assert len(ids) == count, len(ids)
                cloud.add_fault(
                    {
                        "method": "*",
                        "path": "^/compute/",
                        "count": 100000,
                        "kind": "delay",
                        "seconds": delay,
                    }
                )
                try:
                    samples[level].append(
                        run_once(
                            OCCLI
                            + [
                                "--os-cloud",
                                "local",
                                "server",
                                "delete",
                                "--concurrency",
                                str(level),
                            ]
                            + ids,
                            cloud.env,
                        )
                    )
                finally:
                    cloud.clear_faults()
    serial, parallel = (statistics.median(samples[k]) for k in (1, concurrency))
    rows.append(
        Row(
            "%d `server delete`, %d ms a compute request: "
            "`--concurrency %d` vs 1" % (count, delay * 1000, concurrency),
            seconds(parallel),
            seconds(serial),
            parallel / serial,
            0.2,
            note="%.1f× faster" % (serial / parallel),
        )
    )


def bench_localcloud(rows):
    """The local cloud's list page, a 10,000-server CLI listing, reads
    with 8 clients against 1, and its start-up (benchmarks/localcloud_load.py)."""
    sys.path.insert(0, HERE)
    import localcloud_load

    # one worker process per core: the reads are CPU-bound under the GIL
    workers = min(2, os.cpu_count() or 1)
    result = localcloud_load.measure(command=LOCALCLOUD, skip={"walk"}, workers=workers)
    rows.extend(Row(**r) for r in localcloud_load.rows(result))


def bench_testing(rows):
    """occli.testing: the first cloud of a process (target 0.25 s) and a
    fresh cloud's setup plus teardown per test (target 5 ms, median over
    50 tests), and what is reported beside them
    (benchmarks/testing_start.py)."""
    sys.path.insert(0, HERE)
    import testing_start

    rows.extend(Row(**r) for r in testing_start.rows(testing_start.measure()))


def bench_fairness(rows):
    """Another project's p99 under each flood against its idle p99
    (benchmarks/fairness.py), target at most 10 ×."""
    sys.path.insert(0, HERE)
    import fairness

    rows.extend(Row(**r) for r in fairness.rows(fairness.measure()))


def bench_stacks(rows):
    """The local Heat: a group of 100 template resources created and
    deleted (beside the real Heat when it runs), 1,000 stacks listed and a
    100-resource stack's events (benchmarks/stacks.py)."""
    sys.path.insert(0, HERE)
    import stacks

    rows.extend(Row(**r) for r in stacks.rows(stacks.measure()))


def bench_images(rows):
    """1 GiB of image and object bytes up and down against ``cp``, and
    peak RSS flat from 10 MiB to 1 GiB (benchmarks/images.py)."""
    sys.path.insert(0, HERE)
    import images

    rows.extend(Row(**r) for r in images.rows(images.measure()))


def compile_occli():
    """Write occli's bytecode, as an install does (a PYTHONDONTWRITEBYTECODE
    environment would otherwise compile the edited modules on every run)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", os.path.join(REPO, "occli")],
        env=env,
        stdout=subprocess.DEVNULL,
    )


def print_table(rows):
    header = ["figure", "occli", "peer or floor", "ratio", "target", "pass/fail"]
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join("---" for _ in header) + "|")
    for row in rows:
        print("| " + " | ".join(row.cells()) + " |")


def main():
    global OCCLI, LOCALCLOUD
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--runs", type=int, default=15, help="repetitions of each start-up figure (medians)"
    )
    parser.add_argument("--memory-runs", type=int, default=3)
    parser.add_argument("--bulk-runs", type=int, default=2)
    parser.add_argument(
        "--peers",
        action="store_true",
        help="also time nova list (installs the peers once "
        "into .bench-peers: benchmarks/peers.py)",
    )
    parser.add_argument(
        "--only",
        action="append",
        choices=(
            "startup",
            "memory",
            "bulk",
            "localcloud",
            "testing",
            "fairness",
            "stacks",
            "images",
        ),
        help="run only these figures (repeatable)",
    )
    parser.add_argument("--occli", help="the occli command to time")
    parser.add_argument("--localcloud", help="the occli-localcloud command")
    args = parser.parse_args()
    if args.occli:
        OCCLI = shlex.split(args.occli)
    if args.localcloud:
        LOCALCLOUD = shlex.split(args.localcloud)
    compile_occli()
    nova = None
    if args.peers:
        sys.path.insert(0, HERE)
        import peers

        try:
            nova = os.path.join(peers.ensure_venv(quiet=True), "nova")
        except peers.Skip as exc:
            progress("peers: skipped: %s" % exc)
    only = set(
        args.only
        or (
            "startup",
            "memory",
            "bulk",
            "localcloud",
            "testing",
            "fairness",
            "stacks",
            "images",
        )
    )
    rows = []
    if "startup" in only:
        bench_startup(args.runs, rows, nova)
    if "memory" in only:
        bench_memory(args.memory_runs, rows)
    if "bulk" in only:
        bench_bulk(args.bulk_runs, rows)
    if "localcloud" in only:
        bench_localcloud(rows)
    if "testing" in only:
        bench_testing(rows)
    if "fairness" in only:
        bench_fairness(rows)
    if "stacks" in only:
        bench_stacks(rows)
    if "images" in only:
        bench_images(rows)
    print_table(rows)


if __name__ == "__main__":
    main()
