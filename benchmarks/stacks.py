"""The local cloud's Heat: a 100-resource stack, and 1,000 stacks listed.

Starts ``python -m occli.localcloud serve`` (all services, a free loopback
port, ``--build-time 0``, its own temporary data dir) in a child process
and measures, over Heat's API (one keep-alive connection):

* **group**: a stack of one ``OS::Heat::ResourceGroup`` of ``--count``
  (100) ``OS::Heat::RandomString`` (a nested stack of 100 resources)
  created and deleted: seconds from the ``POST /stacks`` to
  ``CREATE_COMPLETE``, and from the ``DELETE`` to ``DELETE_COMPLETE``, as
  a client polling the stack every 20 ms sees them; median of ``--runs``;
* **list**: ``GET /stacks?limit=1000`` once the admin's project holds
  ``--stacks`` (1,000) one-resource stacks (``OS::Heat::None``; the admin,
  as Heat's ``max_stacks_per_tenant`` of 512 binds other users), median of
  ``--lists`` requests.

Real Heat's figures are not measured on this machine, so each figure is
shown beside its own target (:data:`TARGETS`), set after measuring the
local cloud on a shared 2-core machine (0.4 s and 0.065 s) with room for
a busy one: 2 s and 0.25 s. Everything is
bounded (counts, a deadline per wait) and on loopback; the server stops
with the script. Nothing is asserted: this reports speed
(``python benchmarks/stacks.py``, ``--json`` for one JSON object;
``make bench`` shows :func:`rows`).
"""

import argparse
import json
import shutil
import statistics
import sys
import time

from localcloud_load import ADMIN_PASSWORD
from localcloud_load import _connection
from localcloud_load import login
from localcloud_load import request
from localcloud_load import scratch
from localcloud_load import start_server
from localcloud_load import stop_server

# seconds: a 100-resource stack created and deleted; 1,000 stacks listed
TARGETS = {"group": 2.0, "list": 0.25}
# seconds between two polls of a stack, and the longest wait for one
POLL = 0.02
DEADLINE = 120.0


def group_template(count):
    return {
        "heat_template_version": "2018-08-31",
        "resources": {
            "group": {
                "type": "OS::Heat::ResourceGroup",
                "properties": {
                    "count": count,
                    "resource_def": {
                        "type": "OS::Heat::RandomString",
                        "properties": {"length": 16},
                    },
                },
            }
        },
    }


ONE_RESOURCE = {
    "heat_template_version": "2018-08-31",
    "resources": {"nothing": {"type": "OS::Heat::None"}},
}


class Heat:
    """Heat's API of one user's project, over one keep-alive connection."""

    def __init__(self, url, user, password):
        self.url = url
        token = login(url, user, password)
        self.headers = {"X-Auth-Token": token}
        _, body = request(
            url,
            "GET",
            "/v3/auth/tokens",
            headers={"X-Auth-Token": token, "X-Subject-Token": token},
        )
        self.base = "/orchestration/v1/%s" % json.loads(body)["token"]["project"]["id"]
        self.conn = _connection(url)

    def call(self, method, path, body=None, expect=(200,)):
        status, payload = request(
            self.url, method, self.base + path, body, self.headers, conn=self.conn
        )
        if status not in expect:
            raise RuntimeError("%s %s: %s %s" % (method, path, status, payload[:300]))
        return json.loads(payload) if payload else None

    def create(self, name, template):
        """The new stack's ``name/id`` path."""
        body = {"stack_name": name, "template": template, "parameters": {}}
        created = self.call("POST", "/stacks", body, expect=(201,))
        return "/stacks/%s/%s" % (name, created["stack"]["id"])

    def wait(self, path, status):
        """Poll the stack until it is ``status`` (a deleted stack may also
        answer 404); a failure or the deadline raises."""
        deadline = time.perf_counter() + DEADLINE
        while time.perf_counter() < deadline:
            stack = self.call("GET", path, expect=(200, 404))
            now = (stack or {}).get("stack", {}).get("stack_status", "DELETE_COMPLETE")
            if now == status:
                return
            if now.endswith("_FAILED"):
                raise RuntimeError(
                    "%s is %s: %s" % (path, now, stack["stack"]["stack_status_reason"])
                )
            time.sleep(POLL)
        raise RuntimeError("%s not %s within %ss" % (path, status, DEADLINE))


def group(heat, count, runs):
    """``(create seconds, delete seconds)`` of each run's group stack."""
    samples = []
    for i in range(runs):
        print("stacks: %d-resource group, run %d/%d" % (count, i + 1, runs), file=sys.stderr)
        start = time.perf_counter()
        path = heat.create("group-%d" % i, group_template(count))
        heat.wait(path, "CREATE_COMPLETE")
        created = time.perf_counter()
        heat.call("DELETE", path, expect=(204,))
        heat.wait(path, "DELETE_COMPLETE")
        samples.append((created - start, time.perf_counter() - created))
    return samples


def listing(heat, stacks, lists):
    """``(seconds to create the stacks, [seconds of each listing])``."""
    print("stacks: creating %d stacks" % stacks, file=sys.stderr)
    start = time.perf_counter()
    paths = [heat.create("many-%04d" % i, ONE_RESOURCE) for i in range(stacks)]
    for path in paths:
        heat.wait(path, "CREATE_COMPLETE")
    made = time.perf_counter() - start
    times = []
    for _ in range(lists):
        start = time.perf_counter()
        found = heat.call("GET", "/stacks?limit=%d" % stacks)["stacks"]
        times.append(time.perf_counter() - start)
        if len(found) != stacks:
            raise RuntimeError("listed %d stacks, not %d" % (len(found), stacks))
    return made, times


def measure(count=100, runs=3, stacks=1000, lists=10, extra=()):
    """Start a cloud, run both figures: ``{"group": [(create, delete)…],
    "count", "stacks", "made", "list": [seconds…]}``."""
    root = scratch()
    proc = None
    try:
        proc, url, _ = start_server(root, "--build-time", "0", *extra, timeout=60)
        heat = Heat(url, "admin", ADMIN_PASSWORD)
        result = {"count": count, "stacks": stacks, "group": group(heat, count, runs)}
        result["made"], result["list"] = listing(heat, stacks, lists)
        return result
    finally:
        stop_server(proc)
        shutil.rmtree(root, ignore_errors=True)


def rows(result):
    """The ``make bench`` rows (arguments of ``benchmarks/run.py``'s
    ``Row``): each figure against its target (ratio ≤ 1 passes)."""
    totals = [create + delete for create, delete in result["group"]]
    total = statistics.median(totals)
    create = statistics.median(c for c, _ in result["group"])
    listed = statistics.median(result["list"])
    return [
        dict(
            figure="a %d-resource stack (`ResourceGroup` of `RandomString`) created and deleted"
            % result["count"],
            occli="%.2f s" % total,
            peer="target %g s (real Heat not measured here)" % TARGETS["group"],
            ratio=total / TARGETS["group"],
            target=1.0,
            note="create %.2f s" % create,
        ),
        dict(
            figure="%d stacks listed (`GET /stacks?limit=%d`)"
            % (result["stacks"], result["stacks"]),
            occli="%.3f s" % listed,
            peer="target %g s (real Heat not measured here)" % TARGETS["list"],
            ratio=listed / TARGETS["list"],
            target=1.0,
            note="%d creates took %.1f s" % (result["stacks"], result["made"]),
        ),
    ]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100, help="resources of the group")
    parser.add_argument("--runs", type=int, default=3, help="group stacks created and deleted")
    parser.add_argument("--stacks", type=int, default=1000, help="stacks to list")
    parser.add_argument("--lists", type=int, default=10, help="listings timed")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    result = measure(args.count, args.runs, args.stacks, args.lists)
    if args.json:
        print(json.dumps(result))
        return 0
    for row in rows(result):
        print("%s: %s (%s; %s)" % (row["figure"], row["occli"], row["peer"], row["note"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
