"""Concurrent password logins against the local cloud, with a GET prober.

Starts ``python -m occli.localcloud serve`` (identity + image, a free port,
its own temporary data dir) in a child process, then for ``--seconds``
runs ``--threads`` threads doing ``POST /v3/auth/tokens`` (password) in a
loop while one more thread does ``GET /image/v2/images`` with a token, and
prints logins/s and the GET latency (median, p95, max).

Nothing is asserted: this reports speed (``python benchmarks/localcloud_logins.py``).
Run it before and after a change to the login path; the server is a
separate process so the client threads do not compete with it for the GIL.
"""

import argparse
import json
import math
import os
import shutil
import statistics
import sys
import threading
import time

import requests
from localcloud_load import DEMO_PASSWORD
from localcloud_load import scratch
from localcloud_load import start_server
from localcloud_load import stop_server


def login_body(password=DEMO_PASSWORD):
    return {
        "auth": {
            "identity": {
                "methods": ["password"],
                "password": {
                    "user": {"name": "demo", "domain": {"id": "default"}, "password": password}
                },
            }
        }
    }


def run(url, threads, seconds, probe=True):
    stop = threading.Event()
    logins = [0] * threads
    failures = [0] * threads
    latencies = []

    def login_loop(i):
        sess = requests.Session()
        while not stop.is_set():
            r = sess.post(url + "/v3/auth/tokens?nocatalog", json=login_body(), timeout=60)
            if r.status_code == 201:
                logins[i] += 1
            else:
                failures[i] += 1

    def get_loop(token):
        sess = requests.Session()
        while not stop.is_set():
            start = time.perf_counter()
            r = sess.get(url + "/image/v2/images", headers={"X-Auth-Token": token}, timeout=60)
            latencies.append(time.perf_counter() - start)
            assert r.status_code == 200, r.text
            time.sleep(0.01)

    token = requests.post(url + "/v3/auth/tokens", json=login_body(), timeout=60).headers[
        "X-Subject-Token"
    ]
    workers = [threading.Thread(target=login_loop, args=(i,)) for i in range(threads)]
    if probe:
        workers.append(threading.Thread(target=get_loop, args=(token,)))
    started = time.monotonic()
    for w in workers:
        w.start()
    time.sleep(seconds)
    stop.set()
    for w in workers:
        w.join()
    elapsed = time.monotonic() - started
    lat = sorted(latencies) or [0.0]
    return {
        "threads": threads,
        "seconds": round(elapsed, 2),
        "logins": sum(logins),
        "failures": sum(failures),
        "logins_per_s": round(sum(logins) / elapsed, 1),
        "gets": len(latencies),
        "get_ms_median": round(statistics.median(lat) * 1000, 1),
        "get_ms_p95": round(lat[max(0, math.ceil(len(lat) * 0.95) - 1)] * 1000, 1),
        "get_ms_max": round(lat[-1] * 1000, 1),
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--threads",
        type=int,
        nargs="+",
        default=[1, 2, 4, 6],
        help="login thread counts to try (default: 1 2 4 6; the server hashes on its"
        " Config.slow_threads, 2, apart from its 8 worker threads)",
    )
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument(
        "--no-get", action="store_true", help="logins only, without the GET prober"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object per run")
    args = parser.parse_args(argv)
    root = scratch()
    proc = None
    try:
        proc, url, _ = start_server(root, "--services", "identity,image", timeout=30)
        print("cpus: %d  server: %s" % (os.cpu_count() or 0, url))
        for n in args.threads:
            result = run(url, n, args.seconds, probe=not args.no_get)
            if args.json:
                print(json.dumps(result))
            else:
                line = "%2d login threads: %6.1f logins/s (%d failed)" % (
                    n,
                    result["logins_per_s"],
                    result["failures"],
                )
                if result["gets"]:
                    line += (
                        "   GET /image/v2/images median %6.1f ms  p95"
                        " %6.1f ms  max %6.1f ms  (%d GETs)"
                        % (
                            result["get_ms_median"],
                            result["get_ms_p95"],
                            result["get_ms_max"],
                            result["gets"],
                        )
                    )
                print(line)
    finally:
        stop_server(proc)
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
