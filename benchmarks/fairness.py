"""Fairness: one project's latency while another floods the local cloud.

Starts ``python -m occli.localcloud serve`` (all services, a free loopback
port, ``--build-time 0``, its own temporary data dir) in a child process.
Project ``demo`` (B) owns a server; it sets one metadata item on it in a
loop (``PUT /servers/{id}/metadata/{key}``: a short write) or shows it
(``GET /servers/{id}``: a read), ``--samples`` times, first with the cloud
idle, then while another tenant floods it:

* **validate**: 4 clients of project ``alt`` posting a ~512 KB Heat
  template (heat's ``max_template_size``) to ``/validate`` (it stores
  nothing, so it must not hold the write lock);
* **boots**: 2 clients of ``alt`` booting 200 servers a request (its
  instances, cores and RAM quotas lifted first, as an operator would);
* **swift**: 4 clients of ``alt`` putting 5 MB objects (overwriting 4);
* **logins**: 8 unauthenticated clients posting wrong passwords (B's read
  is measured: scrypt must not take the threads that serve token holders).

The figure is B's p99 under the flood against its idle p99 just before it
(target: at most 10 ×). Everything is bounded (sample counts, a time cap
per phase, flood clients stop with the phase) and on loopback; the server
stops with the script. Nothing is asserted: this reports latency
(``python benchmarks/fairness.py``, ``--json`` for one JSON object;
``make bench`` shows :func:`rows`). On a shared machine figures are noisy.
"""

import argparse
import http.client
import json
import shutil
import statistics
import sys
import threading
import time

from localcloud_load import ADMIN_PASSWORD
from localcloud_load import DEMO_PASSWORD
from localcloud_load import IMAGE
from localcloud_load import _connection
from localcloud_load import login
from localcloud_load import percentile
from localcloud_load import request
from localcloud_load import scratch
from localcloud_load import start_server
from localcloud_load import stop_server
from localcloud_load import unlimited_servers

ALT_PASSWORD = "alt-secret"  # Config.alt_password's default
MICROVERSION = {"OpenStack-API-Version": "compute 2.37"}
FLOODS = ("validate", "boots", "swift", "logins")
TARGET = 10.0
# heat's max_template_size: a template given as text is parsed, then
# ``len(str(parsed))`` checked (the local cloud's templates.check_template_size)
MAX_TEMPLATE_SIZE = 524288
# conditions are among the slowest sections to parse and check (~1 s here)
_TEMPLATE_HEAD = "heat_template_version: 2016-10-14\nconditions:\n"
_CONDITION = "  c%06d: {equals: [a, b]}\n"


def big_template():
    """A valid Heat template just under heat's ``max_template_size`` as
    heat measures it (the parsed template's ``str``, longer than the text)."""
    entry = len(str({"c000000": {"equals": ["a", "b"]}})) + len(", ") - len("{}")
    head = len(str({"heat_template_version": "2016-10-14", "conditions": {}}))
    count = (MAX_TEMPLATE_SIZE - head - 64) // entry
    return _TEMPLATE_HEAD + "".join(_CONDITION % i for i in range(count))


class Cloud:
    """The running cloud and what the probes and floods need: tokens,
    project ids, B's server, the image."""

    def __init__(self, url, demo_password):
        self.url = url
        self.demo = login(url, "demo", demo_password)
        self.alt = login(url, "alt", ALT_PASSWORD)
        self.admin = login(url, "admin", ADMIN_PASSWORD)
        self.project = {name: self._project_id(name) for name in ("demo", "alt")}
        _, body = self.get("/image/v2/images?name=" + IMAGE, self.demo)
        self.image = json.loads(body)["images"][0]["id"]
        self.server = self.boot(self.demo, 1)
        unlimited_servers(url, "alt")

    def get(self, path, token, conn=None):
        return request(self.url, "GET", path, headers={"X-Auth-Token": token}, conn=conn)

    def _project_id(self, name):
        _, body = self.get("/v3/projects?name=" + name, self.admin)
        return json.loads(body)["projects"][0]["id"]

    def boot(self, token, count, conn=None):
        """Boot ``count`` servers (no network); the first one's id."""
        status, body = request(
            self.url,
            "POST",
            "/compute/v2.1/servers",
            {
                "server": {
                    "name": "fair",
                    "flavorRef": "1",
                    "imageRef": self.image,
                    "min_count": count,
                    "max_count": count,
                    "networks": "none",
                }
            },
            headers=dict(MICROVERSION, **{"X-Auth-Token": token}),
            conn=conn,
        )
        if status != 202:
            raise RuntimeError("boot failed: %s %s" % (status, body[:300]))
        return json.loads(body)["server"]["id"] if count == 1 else None


# -- B's probes ------------------------------------------------------------------


def probe(cloud, kind, samples, cap, pause=0.01):
    """Latencies (seconds) of ``samples`` of B's requests (``kind`` "write":
    a metadata item set; "read": the server shown), stopping after ``cap``
    seconds; failures raise."""
    conn = _connection(cloud.url)
    path = "/compute/v2.1/servers/" + cloud.server
    headers = {"X-Auth-Token": cloud.demo}
    latencies = []
    deadline = time.perf_counter() + cap
    for i in range(samples):
        if time.perf_counter() > deadline:
            break
        start = time.perf_counter()
        if kind == "write":
            status, body = request(
                cloud.url,
                "PUT",
                path + "/metadata/probe",
                {"meta": {"probe": str(i)}},
                headers=headers,
                conn=conn,
            )
        else:
            status, body = request(cloud.url, "GET", path, headers=headers, conn=conn)
        latencies.append(time.perf_counter() - start)
        if status != 200:
            raise RuntimeError("B's %s failed: %s %s" % (kind, status, body[:300]))
        time.sleep(pause)
    conn.close()
    return latencies


# -- the floods ------------------------------------------------------------------


def _validate(cloud, index):
    body = {"template": big_template()}
    path = "/orchestration/v1/%s/validate" % cloud.project["alt"]
    headers = {"X-Auth-Token": cloud.alt}

    def send(conn):
        return request(cloud.url, "POST", path, body, headers=headers, conn=conn)[0]

    return send


def _boots(cloud, index):
    def send(conn):
        cloud.boot(cloud.alt, 200, conn=conn)
        return 202

    return send


def _swift(cloud, index):
    account = "/object-store/v1/AUTH_" + cloud.project["alt"]
    headers = {"X-Auth-Token": cloud.alt}
    status, _ = request(cloud.url, "PUT", account + "/flood", headers=headers)
    if status not in (201, 202):
        raise RuntimeError("container create failed: %s" % status)
    data = bytes(5 * 1024 * 1024)
    path = "%s/flood/object-%d" % (account, index)

    def send(conn):
        conn.request("PUT", path, body=data, headers=headers)
        resp = conn.getresponse()
        resp.read()
        return resp.status

    return send


def _logins(cloud, index):
    body = {
        "auth": {
            "identity": {
                "methods": ["password"],
                "password": {
                    "user": {
                        "name": "flood-%d" % index,
                        "domain": {"id": "default"},
                        "password": "wrong",
                    }
                },
            }
        }
    }

    def send(conn):
        return request(cloud.url, "POST", "/v3/auth/tokens", body, conn=conn)[0]

    return send


# flood: (clients, sender factory, the answer expected, B's probe)
FLOOD_SPECS = {
    "validate": (4, _validate, 200, "write"),
    "boots": (2, _boots, 202, "write"),
    "swift": (4, _swift, 201, "write"),
    "logins": (8, _logins, 401, "read"),
}


def flood(cloud, name, samples, cap):
    """B's idle latencies, then its latencies while ``name`` floods:
    ``{"idle": [...], "flood": [...], "requests": n, "failures": n}``."""
    clients, factory, expected, kind = FLOOD_SPECS[name]
    idle = probe(cloud, kind, samples, cap)
    senders = [factory(cloud, i) for i in range(clients)]
    stop = threading.Event()
    sent, failures = [0] * clients, [0] * clients

    def loop(i):
        conn = _connection(cloud.url)
        while not stop.is_set():
            try:
                status = senders[i](conn)
            except (OSError, http.client.HTTPException, RuntimeError):
                status = 0
                conn.close()
                conn = _connection(cloud.url)
            sent[i] += 1
            if status != expected:
                failures[i] += 1
        conn.close()

    threads = [threading.Thread(target=loop, args=(i,), daemon=True) for i in range(clients)]
    for t in threads:
        t.start()
    time.sleep(1.0)  # the flood under way
    try:
        busy = probe(cloud, kind, samples, cap)
    finally:
        stop.set()
        for t in threads:
            t.join(600)
    return {
        "probe": kind,
        "clients": clients,
        "idle": idle,
        "flood": busy,
        "requests": sum(sent),
        "failures": sum(failures),
    }


def measure(floods=FLOODS, samples=300, cap=30.0, extra=()):
    """Start a cloud and run each flood of ``floods``: ``{name: flood()}``."""
    root = scratch()
    proc = None
    try:
        proc, url, _ = start_server(root, "--build-time", "0", *extra, timeout=60)
        cloud = Cloud(url, DEMO_PASSWORD)
        results = {}
        for name in floods:
            print("fairness: %s flood" % name, file=sys.stderr, flush=True)
            results[name] = flood(cloud, name, samples, cap)
        return results
    finally:
        stop_server(proc)
        shutil.rmtree(root, ignore_errors=True)


def summary(result):
    """p50/p99 (ms) of a flood() result's idle and flood latencies."""

    def ms(values, fraction):
        return round(percentile(values, fraction) * 1000, 2)

    return {
        "probe": result["probe"],
        "samples": [len(result["idle"]), len(result["flood"])],
        "idle_p50_ms": round(statistics.median(result["idle"]) * 1000, 2),
        "idle_p99_ms": ms(result["idle"], 0.99),
        "flood_p50_ms": round(statistics.median(result["flood"]) * 1000, 2),
        "flood_p99_ms": ms(result["flood"], 0.99),
        "flood_requests": result["requests"],
        "flood_failures": result["failures"],
    }


_FIGURES = {
    "validate": "4 clients posting 512 KB templates to Heat `/validate`",
    "boots": "2 clients booting 200 servers a request",
    "swift": "4 clients putting 5 MB Swift objects",
    "logins": "8 clients posting wrong passwords",
}


def rows(results):
    """The ``make bench`` rows (arguments of ``benchmarks/run.py``'s
    ``Row``) of :func:`measure`'s results: B's p99 under each flood against
    its idle p99, target at most 10 ×."""
    out = []
    for name, result in results.items():
        s = summary(result)
        note = "%d flood requests" % s["flood_requests"]
        if s["flood_failures"]:
            note += ", %d unexpected answers" % s["flood_failures"]
        out.append(
            dict(
                figure="another project's %s p99 under %s" % (s["probe"], _FIGURES[name]),
                occli="%.1f ms" % s["flood_p99_ms"],
                peer="%.1f ms idle" % s["idle_p99_ms"],
                ratio=s["flood_p99_ms"] / s["idle_p99_ms"],
                target=TARGET,
                better="lower",
                note=note,
                valid=not s["flood_failures"],
            )
        )
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--floods", nargs="+", choices=FLOODS, default=list(FLOODS))
    parser.add_argument("--samples", type=int, default=300, help="B's requests per phase")
    parser.add_argument("--cap", type=float, default=30.0, help="seconds at most per phase")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--serve-option",
        action="append",
        default=[],
        metavar="OPTION",
        help="an option for occli-localcloud serve (repeatable: --serve-option=--workers=2)",
    )
    args = parser.parse_args(argv)
    results = measure(args.floods, args.samples, args.cap, extra=args.serve_option)
    summaries = {name: summary(r) for name, r in results.items()}
    if args.json:
        print(json.dumps(summaries))
        return 0
    for name, s in summaries.items():
        print(
            "%-8s B's %-5s p50 %7.1f ms p99 %7.1f ms idle; p50 %7.1f ms p99 %7.1f ms"
            " under the flood (%.1f ×; %d flood requests, %d unexpected)"
            % (
                name,
                s["probe"],
                s["idle_p50_ms"],
                s["idle_p99_ms"],
                s["flood_p50_ms"],
                s["flood_p99_ms"],
                s["flood_p99_ms"] / s["idle_p99_ms"],
                s["flood_requests"],
                s["flood_failures"],
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
