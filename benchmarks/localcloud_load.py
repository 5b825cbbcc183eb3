"""Local cloud list path, concurrent reads and start-up time.

Starts ``python -m occli.localcloud serve`` (all services, a free loopback
port, ``--build-time 0``, its own temporary data dir) in a child process,
creates ``--servers`` servers as ``demo`` and measures:

* **page**: ``GET /compute/v2.1/servers/detail?limit=1000`` repeated
  ``--pages`` times; the figure is the *server* time the access log records
  (median; the client-side wall time is printed beside it);
* **walk**: every page of ``/servers/detail`` (1000 a page, following the
  ``next`` links), wall time on the client and summed server time;
* **cli**: ``occli server list -f value`` against that cloud, whole-process
  wall time (median of ``--cli-runs``);
* **load**: ``GET /compute/v2.1/servers/detail?limit=100`` from 1 client and
  from ``--clients`` clients (threads, one keep-alive connection each), each
  sending ``--requests`` requests (or stopping after ``--seconds``):
  throughput and p50/p99 latency;
* **start**: a fresh local cloud (new data dir) from process start to the
  first answered request (``GET /v3``), median of ``--start-runs``
  (:func:`fresh_start`), and a restart on an existing data dir.

Everything is bounded (request counts, time caps) and on loopback; the
server stops with the script. Nothing is asserted: this reports speed
(``python benchmarks/localcloud_load.py``; ``--json`` for one JSON object).
On a shared machine figures are noisy: repeat and compare medians.
:func:`rows` returns the ``make bench`` rows (figure, occli, peer or
floor, ratio, target, pass/fail) of a :func:`measure` result.
"""

import argparse
import http.client
import json
import math
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

BIN = os.path.dirname(sys.executable)
OCCLI = os.path.join(BIN, "occli")
DEMO_PASSWORD = "bench-demo-secret"
ADMIN_PASSWORD = "bench-admin-secret"
PAGE = "/compute/v2.1/servers/detail"
LOCALCLOUD = [sys.executable, "-m", "occli.localcloud"]
IMAGE = "cirros-0.6.2-x86_64-disk"


# -- the server ---------------------------------------------------------------


def scratch():
    """A temporary directory: the data dir is its ``data`` (created by the
    local cloud), the server's output goes to its ``serve.out``."""
    return tempfile.mkdtemp(prefix="occli-bench-localcloud-")


def start_server(root, *extra, timeout=60, command=None, env=None, workers=1):
    """``(process, url, seconds)``: a local cloud serving ``root``/data
    (see :func:`scratch`); ``seconds`` from process start to its first
    answered request. ``command``: the argv starting ``occli-localcloud``
    (default: this Python's ``-m occli.localcloud``); ``env``: extra
    environment; ``workers`` > 1: ``serve --workers N``."""
    if workers > 1:
        extra = ("--workers", str(workers)) + tuple(extra)
    env = dict(
        os.environ,
        OCCLI_LOCALCLOUD_DEMO_PASSWORD=DEMO_PASSWORD,
        OCCLI_LOCALCLOUD_ADMIN_PASSWORD=ADMIN_PASSWORD,
        **(env or {}),
    )
    data_dir = os.path.join(root, "data")
    endpoint = os.path.join(data_dir, "endpoint")
    if os.path.exists(endpoint):
        os.unlink(endpoint)
    output = os.path.join(root, "serve.out")
    with open(output, "a") as log:
        started = time.perf_counter()
        proc = subprocess.Popen(
            list(command or LOCALCLOUD)
            + ["serve", "--data-dir", data_dir, "--port", "0"]
            + list(extra),
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            cwd=root,
        )
    deadline = started + timeout
    url = None
    while time.perf_counter() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("serve exited with %s (see %s)" % (proc.returncode, output))
        if url is None and os.path.exists(endpoint):
            with open(endpoint) as f:
                text = f.read().strip()
            url = text or None
        if url is not None:
            try:
                status, _ = request(url, "GET", "/v3")
                if status == 200:
                    return proc, url, time.perf_counter() - started
            except OSError:
                pass
        time.sleep(0.002)
    stop_server(proc)
    raise RuntimeError("the local cloud did not answer within %ss" % timeout)


def stop_server(proc):
    if proc is None or proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def fresh_start(runs=5, *extra, command=None):
    """Seconds from starting ``occli-localcloud serve`` on a new data dir
    to its first answered request (``GET /v3``), one sample per run, and
    the same for a restart on the data dir the run created: ``(fresh,
    restarted)`` lists. ``extra``: more ``serve`` options; ``command``:
    see :func:`start_server`."""
    fresh, again = [], []
    for _ in range(runs):
        root = scratch()
        try:
            for samples in (fresh, again):
                proc, _, seconds = start_server(root, *extra, command=command)
                stop_server(proc)
                samples.append(seconds)
        finally:
            shutil.rmtree(root, ignore_errors=True)
    return fresh, again


# what ``serve`` imports before it can answer: the floor of a start
_IMPORTS = (
    "from occli.localcloud import cli, server, faults;"
    " from occli.localcloud.identity.api.service import IdentityService;"
    " from occli.localcloud.compute.api.service import ComputeService;"
    " from occli.localcloud.image.api.service import ImageService;"
    " from occli.localcloud.orchestration.api.service import"
    " OrchestrationService;"
    " from occli.localcloud.objectstore.api.service import ObjectStoreService"
)


def import_floor(runs=5):
    """Wall seconds of a Python importing what ``serve`` imports (no
    database, no socket), one sample per run."""
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", _IMPORTS], check=True, cwd=tempfile.gettempdir())
        samples.append(time.perf_counter() - start)
    return samples


# -- HTTP -----------------------------------------------------------------------


def _connection(url):
    parts = urllib.parse.urlsplit(url)
    return http.client.HTTPConnection(parts.hostname, parts.port, timeout=120)


def request(url, method, path, body=None, headers=None, conn=None):
    """``(status, body bytes)``; ``conn``: a keep-alive connection to reuse."""
    own = conn is None
    conn = conn or _connection(url)
    try:
        data = json.dumps(body).encode() if body is not None else None
        hdrs = dict(headers or {})
        if data is not None:
            hdrs["Content-Type"] = "application/json"
        conn.request(method, path, body=data, headers=hdrs)
        resp = conn.getresponse()
        payload = resp.read()
        if method == "POST" and path.startswith("/v3/auth/tokens"):
            payload = (payload, resp.getheader("X-Subject-Token"))
        return resp.status, payload
    finally:
        if own:
            conn.close()


def login(url, user="demo", password=DEMO_PASSWORD):
    status, (body, token) = request(
        url,
        "POST",
        "/v3/auth/tokens",
        {
            "auth": {
                "identity": {
                    "methods": ["password"],
                    "password": {
                        "user": {"name": user, "domain": {"id": "default"}, "password": password}
                    },
                },
                "scope": {"project": {"name": user, "domain": {"id": "default"}}},
            }
        },
    )
    if status != 201:
        raise RuntimeError("login failed: %s %s" % (status, body[:200]))
    return token


def _lift_quota(url, project, path, body):
    """PUT ``body`` to ``path + <project id>`` as the admin (an operator's
    ``quota set``)."""
    admin = {"X-Auth-Token": login(url, "admin", ADMIN_PASSWORD)}
    _, found = request(url, "GET", "/v3/projects?name=" + project, headers=admin)
    project_id = json.loads(found)["projects"][0]["id"]
    status, answer = request(url, "PUT", path + project_id, body, headers=admin)
    if status != 200:
        raise RuntimeError("quota update failed: %s %s" % (status, answer[:300]))


def unlimited_ports(url, project="demo"):
    """Lift ``project``'s Neutron port quota (neutron's default is 500), as
    an operator would before booting thousands of servers on one network."""
    _lift_quota(url, project, "/network/v2.0/quotas/", {"quota": {"port": -1}})


def unlimited_servers(url, project="demo"):
    """Lift ``project``'s instances, cores and RAM quotas (nova's defaults:
    10, 20, 51200), as an operator would (``quota set``)."""
    _lift_quota(
        url,
        project,
        "/compute/v2.1/os-quota-sets/",
        {"quota_set": {"instances": -1, "cores": -1, "ram": -1}},
    )


def seed(url, token, count, batch=1000):
    """Create ``count`` servers (``many-N``, m1.tiny, cirros, automatic
    network) in batches, then read once so their builds are settled."""
    auth = {"X-Auth-Token": token}
    _, body = request(url, "GET", "/image/v2/images?name=" + IMAGE, headers=auth)
    image = json.loads(body)["images"][0]["id"]
    left = count
    while left:
        n = min(batch, left)
        status, body = request(
            url,
            "POST",
            "/compute/v2.1/servers",
            {
                "server": {
                    "name": "many",
                    "flavorRef": "1",
                    "imageRef": image,
                    "min_count": n,
                    "max_count": n,
                    "networks": "auto",
                }
            },
            headers=dict(auth, **{"OpenStack-API-Version": "compute 2.37"}),
        )
        if status != 202:
            raise RuntimeError("create failed: %s %s" % (status, body[:300]))
        left -= n
    request(url, "GET", PAGE + "?limit=1", headers=auth)


# -- the access log ---------------------------------------------------------------


class AccessLog:
    """Server-side durations (``METHOD PATH STATUS SECONDS ID`` lines)."""

    def __init__(self, data_dir):
        self.path = os.path.join(data_dir, "access.log")
        self.mark()

    def mark(self):
        self._offset = os.path.getsize(self.path) if os.path.exists(self.path) else 0

    def seconds(self, contains=""):
        """The durations of the requests logged since :meth:`mark`."""
        with open(self.path) as f:
            f.seek(self._offset)
            lines = f.read().splitlines()
        return [float(line.split(" ")[3]) for line in lines if contains in line.split(" ")[1]]


# -- measurements -----------------------------------------------------------------


def page_times(url, token, log, repeats):
    """Server and client seconds of ``GET /servers/detail?limit=1000``."""
    conn = _connection(url)
    client = []
    log.mark()
    for _ in range(repeats):
        start = time.perf_counter()
        status, body = request(
            url, "GET", PAGE + "?limit=1000", headers={"X-Auth-Token": token}, conn=conn
        )
        client.append(time.perf_counter() - start)
        assert status == 200, body[:300]
    conn.close()
    return log.seconds(PAGE), client, len(body)


def walk(url, token, log):
    """Every page of ``/servers/detail``: ``(client seconds, server seconds
    summed, pages, servers)``."""
    conn = _connection(url)
    log.mark()
    path, pages, count = PAGE, 0, 0
    start = time.perf_counter()
    while path:
        status, body = request(url, "GET", path, headers={"X-Auth-Token": token}, conn=conn)
        assert status == 200, body[:300]
        data = json.loads(body)
        pages += 1
        count += len(data["servers"])
        links = data.get("servers_links")
        path = (
            urllib.parse.urlsplit(links[0]["href"])._replace(scheme="", netloc="").geturl()
            if links
            else None
        )
    elapsed = time.perf_counter() - start
    conn.close()
    return elapsed, sum(log.seconds(PAGE)), pages, count


def cli_list(root, runs, log):
    """Wall seconds of ``occli server list -f value`` against the cloud of
    ``root`` (see :func:`scratch`), one sample per run after a warm-up,
    the number of servers it printed, and for each run the seconds the
    local cloud spent on its pages (``log``: its :class:`AccessLog`), the
    rest of a run being the client's share."""
    env = dict(
        os.environ,
        OS_CLIENT_CONFIG_FILE=os.path.join(root, "data", "clouds.yaml"),
        OS_CLOUD="local",
        OCCLI_CACHE_DIR=os.path.join(root, "cache"),
    )
    env = {
        k: v
        for k, v in env.items()
        if not k.startswith("OS_") or k in ("OS_CLIENT_CONFIG_FILE", "OS_CLOUD")
    }
    samples, lines, pages = [], 0, []
    for i in range(runs + 1):
        log.mark()
        start = time.perf_counter()
        proc = subprocess.run(
            [OCCLI, "server", "list", "-f", "value"], env=env, capture_output=True, text=True
        )
        elapsed = time.perf_counter() - start
        if proc.returncode != 0:
            raise RuntimeError("occli server list failed: %s" % proc.stderr[-500:])
        lines = len(proc.stdout.splitlines())
        if i:
            samples.append(elapsed)
            pages.append(sum(log.seconds(PAGE)))
    return samples, lines, pages


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[max(0, math.ceil(len(ordered) * fraction) - 1)]


def load(url, token, clients, requests_each, seconds, limit=100):
    """``clients`` threads, one keep-alive connection each, sending
    ``requests_each`` ``GET /servers/detail?limit=N`` (stopping early after
    ``seconds``): throughput, latencies, failures."""
    path = "%s?limit=%d" % (PAGE, limit)
    headers = {"X-Auth-Token": token}
    latencies = [[] for _ in range(clients)]
    failures = [0] * clients
    barrier = threading.Barrier(clients + 1)
    deadline = [None]

    def client(i):
        conn = _connection(url)
        request(url, "GET", path, headers=headers, conn=conn)  # warm
        barrier.wait()
        for _ in range(requests_each):
            if time.perf_counter() > deadline[0]:
                break
            start = time.perf_counter()
            try:
                status, _ = request(url, "GET", path, headers=headers, conn=conn)
            except (OSError, http.client.HTTPException):
                status = 0
                conn.close()
                conn = _connection(url)
            latencies[i].append(time.perf_counter() - start)
            if status != 200:
                failures[i] += 1
        conn.close()

    threads = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(clients)]
    for t in threads:
        t.start()
    deadline[0] = time.perf_counter() + seconds + 60
    barrier.wait()
    deadline[0] = time.perf_counter() + seconds
    started = time.perf_counter()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - started
    lat = [x for per in latencies for x in per]
    return {
        "clients": clients,
        "requests": len(lat),
        "failures": sum(failures),
        "seconds": round(elapsed, 3),
        "per_s": round(len(lat) / elapsed, 1),
        "p50_ms": round(statistics.median(lat) * 1000, 2),
        "p99_ms": round(percentile(lat, 0.99) * 1000, 2),
        "max_ms": round(max(lat) * 1000, 2),
    }


# -- the whole run --------------------------------------------------------------


def measure(
    servers=10000,
    pages=15,
    clients=8,
    requests_each=200,
    seconds=20.0,
    cli_runs=3,
    start_runs=5,
    compute_hosts=14,
    skip=(),
    command=None,
    workers=1,
):
    """Run the measurements; a dict of their results (see the module doc).
    ``command``: the local cloud to start (see :func:`start_server`);
    ``workers``: its worker processes (``serve --workers N``; every
    figure but start-up is measured against that one server)."""
    result = {"cpus": os.cpu_count(), "servers": servers, "workers": workers}
    if "start" not in skip:
        fresh, again = fresh_start(start_runs, command=command)
        result["start_fresh_s"] = fresh
        result["start_existing_s"] = again
        result["start_imports_s"] = import_floor(start_runs)
    root = scratch()
    proc = None
    try:
        proc, url, _ = start_server(
            root,
            "--build-time",
            "0",
            "--compute-hosts",
            str(compute_hosts),
            command=command,
            workers=workers,
        )
        token = login(url)
        unlimited_ports(url)
        unlimited_servers(url)
        started = time.perf_counter()
        seed(url, token, servers)
        result["seed_s"] = round(time.perf_counter() - started, 2)
        log = AccessLog(os.path.join(root, "data"))
        if "page" not in skip:
            server_s, client_s, size = page_times(url, token, log, pages)
            result.update(page_server_s=server_s, page_client_s=client_s, page_bytes=size)
        if "walk" not in skip:
            result["walk"] = dict(
                zip(
                    ("client_s", "server_s", "pages", "servers"),
                    walk(url, token, log),
                    strict=True,
                )
            )
        if "cli" not in skip:
            samples, listed, pages = cli_list(root, cli_runs, log)
            result.update(cli_s=samples, cli_listed=listed, cli_server_s=pages)
        if "load" not in skip:
            result["load"] = [
                load(url, token, n, requests_each, seconds) for n in (1, clients, 1, clients)
            ]
    finally:
        stop_server(proc)
        shutil.rmtree(root, ignore_errors=True)
    return result


def _workers_note(result):
    workers = result.get("workers", 1)
    return " (%d workers)" % workers if workers > 1 else ""


def _median(values):
    return statistics.median(values) if values else float("nan")


def rows(result):
    """The ``make bench`` rows of a :func:`measure` result (parts not
    measured are left out): dicts with the arguments of
    ``benchmarks/run.py``'s ``Row`` (``figure``, ``occli``, ``peer``,
    ``ratio``, ``target``, ``better``: "lower" means ratio <= target,
    ``note``); ``ratio`` None is a figure reported without a target."""
    out = []
    if "page_server_s" in result:
        page = _median(result["page_server_s"])
        out.append(
            dict(
                figure="`GET /servers/detail`, a page of 1,000 of %d servers"
                " (server time)" % result["servers"],
                occli="%.1f ms" % (page * 1000),
                peer="60 ms (target)",
                ratio=page / 0.060,
                target=1.0,
                better="lower",
            )
        )
    if "cli_s" in result:
        cli = _median(result["cli_s"])
        server = _median(result.get("cli_server_s", []))
        out.append(
            dict(
                figure="`server list -f value`, %d servers end to end"
                " (the local cloud's pages; the client's share)" % result["cli_listed"],
                occli="%.3f s (pages %.3f s; client %.3f s)" % (cli, server, cli - server),
                peer="0.8 s (target)",
                ratio=cli / 0.8,
                target=1.0,
                better="lower",
            )
        )
    if "load" in result:
        runs = result["load"]
        one = [r for r in runs if r["clients"] == 1]
        many = [r for r in runs if r["clients"] != 1]
        base = _median([r["per_s"] for r in one])
        rate = _median([r["per_s"] for r in many])
        p50 = _median([r["p50_ms"] for r in many])
        p99 = _median([r["p99_ms"] for r in many])
        n = many[0]["clients"]
        out.append(
            dict(
                figure="`servers/detail?limit=100` throughput, %d clients vs 1%s"
                % (n, _workers_note(result)),
                occli="%.0f req/s" % rate,
                peer="%.0f req/s" % base,
                ratio=rate / base,
                target=1.5,
                better="higher",
            )
        )
        out.append(
            dict(
                figure="`servers/detail?limit=100` latency, %d clients: p99 vs p50%s"
                % (n, _workers_note(result)),
                occli="%.0f ms" % p99,
                peer="%.0f ms" % p50,
                ratio=p99 / p50,
                target=5.0,
                better="lower",
            )
        )
    if "start_fresh_s" in result:
        fresh = _median(result["start_fresh_s"])
        again = _median(result["start_existing_s"])
        imports = _median(result["start_imports_s"])
        out.append(
            dict(
                figure="local cloud start, new data dir -> first answer",
                occli="%.3f s" % fresh,
                peer="imports %.3f s, restart %.3f s" % (imports, again),
                ratio=None,
                target=None,
                note="report",
            )
        )
    return out


def cells(row):
    """A :func:`rows` row as the table's cells (as run.py prints them)."""
    if row["ratio"] is None:
        return [row["figure"], row["occli"], row["peer"], "-", "-", row.get("note") or "report"]
    lower = row.get("better", "lower") == "lower"
    ok = row["ratio"] <= row["target"] if lower else row["ratio"] >= row["target"]
    return [
        row["figure"],
        row["occli"],
        row["peer"],
        "%.2f" % row["ratio"],
        "%s %g" % ("≤" if lower else "≥", row["target"]),
        "pass" if ok else "FAIL",
    ]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--servers", type=int, default=10000)
    parser.add_argument(
        "--pages", type=int, default=15, help="repetitions of the 1000-server page"
    )
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument(
        "--requests", type=int, default=200, help="requests per client in the load runs"
    )
    parser.add_argument("--seconds", type=float, default=20.0, help="time cap of each load run")
    parser.add_argument("--cli-runs", type=int, default=3)
    parser.add_argument("--start-runs", type=int, default=5)
    parser.add_argument(
        "--compute-hosts", type=int, default=14, help="enough for every server to be placed"
    )
    parser.add_argument(
        "--skip", action="append", default=[], choices=("start", "page", "walk", "cli", "load")
    )
    parser.add_argument(
        "--localcloud",
        metavar="CMD",
        help="the command starting occli-localcloud (e.g. a"
        " checkout's), default: this Python -m"
        " occli.localcloud",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        help="worker processes of the local cloud (serve --workers N)",
    )
    parser.add_argument(
        "--json", action="store_true", help="print the raw results as one JSON object"
    )
    args = parser.parse_args(argv)
    result = measure(
        args.servers,
        args.pages,
        args.clients,
        args.requests,
        args.seconds,
        args.cli_runs,
        args.start_runs,
        args.compute_hosts,
        set(args.skip),
        shlex.split(args.localcloud) if args.localcloud else None,
        args.workers,
    )
    if args.json:
        print(json.dumps(result))
        return 0
    print(
        "cpus: %s  servers: %d  workers: %d  (medians; noisy on a shared machine)"
        % (result["cpus"], result["servers"], result["workers"])
    )
    if "page_server_s" in result:
        print(
            "page of 1000: server %.1f ms, client %.1f ms, %d bytes"
            % (
                _median(result["page_server_s"]) * 1000,
                _median(result["page_client_s"]) * 1000,
                result["page_bytes"],
            )
        )
    if "walk" in result:
        w = result["walk"]
        print(
            "walk: %d servers in %d pages, client %.2f s, server %.2f s"
            % (w["servers"], w["pages"], w["client_s"], w["server_s"])
        )
    for run in result.get("load", ()):
        print(
            "load: %(clients)d client(s): %(per_s).1f req/s, p50 "
            "%(p50_ms).1f ms, p99 %(p99_ms).1f ms, max %(max_ms).1f ms "
            "(%(requests)d requests, %(failures)d failed, "
            "%(seconds).1f s)" % run
        )
    print()
    print("| figure | occli | peer or floor | ratio | target | pass/fail |")
    print("|---|---|---|---|---|---|")
    for row in rows(result):
        print("| %s |" % " | ".join(cells(row)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
