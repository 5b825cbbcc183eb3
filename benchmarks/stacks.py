"""The local cloud's Heat: a group of 100 template resources, 1,000 stacks
listed, and a 100-resource stack's events.

Starts ``python -m occli.localcloud serve`` (all services, a free loopback
port, ``--build-time 0``, its own temporary data dir) in a child process
and measures, over Heat's API (one keep-alive connection) and through
``occli``:

* **group**: a stack of one ``OS::Heat::ResourceGroup`` of ``--count``
  (100) template resources, each a nested stack of the provider template
  ``rand.yaml`` (one ``OS::Heat::RandomString``, passed in ``files``),
  created and deleted: seconds from the ``POST /stacks`` to
  ``CREATE_COMPLETE``, and from the ``DELETE`` to gone, as a client
  polling the stack every 20 ms sees them; median of ``--runs``;
* **list**: ``GET /stacks?limit=1000`` once the admin's project holds
  ``--stacks`` (1,000) one-resource stacks (``OS::Heat::None``; the admin,
  as Heat's ``max_stacks_per_tenant`` of 512 binds other users), median of
  ``--lists`` requests, and ``occli stack list`` end to end;
* **events**: ``occli stack event list`` of a stack of 100
  ``OS::Heat::RandomString`` end to end (202 events).

When the real Heat of ``../shared/realcloud`` answers (Keystone on
127.0.0.1:5000, Heat on 127.0.0.1:8004, admin/secret), the same group
template is created and deleted there once (about two minutes each; a
deadline bounds each wait, and the stack is deleted whatever happens): the
group's target is :data:`REAL_SHARE` of its time, and each at most
:data:`TARGETS`' seconds. The other figures are beside their targets
alone. Everything is bounded and on loopback; the server stops with the
script. Nothing is asserted: this reports speed (``python
benchmarks/stacks.py``, ``--json`` for one JSON object, ``--no-real`` to
skip the real Heat; ``make bench`` shows :func:`rows`).
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

from localcloud_load import ADMIN_PASSWORD
from localcloud_load import OCCLI
from localcloud_load import _connection
from localcloud_load import login
from localcloud_load import request
from localcloud_load import scratch
from localcloud_load import start_server
from localcloud_load import stop_server

# seconds: the group created, and deleted; 1,000 stacks listed (the API
# page and the CLI); a 100-resource stack's events listed by the CLI
TARGETS = {"create": 3.0, "delete": 3.0, "list": 0.5, "events": 0.3}
# the group's local time as a share of the real Heat's, at most
REAL_SHARE = 0.025
# the real Heat of ../shared/realcloud (loopback) and its admin
REAL_KEYSTONE = "http://127.0.0.1:5000"
REAL_HEAT = "http://127.0.0.1:8004"
REAL_USER, REAL_PASSWORD = "admin", "secret"
# seconds between two polls of a stack, and the longest wait for one
POLL = 0.02
DEADLINE = 120.0
REAL_POLL, REAL_DEADLINE = 2.0, 900.0

RAND_YAML = """\
heat_template_version: 2018-08-31
resources:
  rand:
    type: OS::Heat::RandomString
    properties:
      length: 16
outputs:
  value:
    value: {get_attr: [rand, value]}
"""


def group_template(count):
    """The group of ``count`` ``rand.yaml`` template resources."""
    return {
        "heat_template_version": "2018-08-31",
        "resources": {
            "group": {
                "type": "OS::Heat::ResourceGroup",
                "properties": {"count": count, "resource_def": {"type": "rand.yaml"}},
            }
        },
    }


def flat_template(count):
    """A stack of ``count`` ``OS::Heat::RandomString``."""
    return {
        "heat_template_version": "2018-08-31",
        "resources": {
            "rand%03d" % i: {"type": "OS::Heat::RandomString", "properties": {"length": 8}}
            for i in range(count)
        },
    }


ONE_RESOURCE = {
    "heat_template_version": "2018-08-31",
    "resources": {"nothing": {"type": "OS::Heat::None"}},
}


class Heat:
    """Heat's API of one user's project, over one keep-alive connection:
    ``url`` is Keystone's, ``heat`` Heat's (default: the local cloud's,
    under ``/orchestration``)."""

    def __init__(self, url, user, password, heat=None, poll=POLL, deadline=DEADLINE):
        token = login(url, user, password)
        self.headers = {"X-Auth-Token": token}
        _, body = request(
            url,
            "GET",
            "/v3/auth/tokens",
            headers={"X-Auth-Token": token, "X-Subject-Token": token},
        )
        project = json.loads(body)["token"]["project"]["id"]
        self.url = heat or url
        self.base = ("/v1/%s" if heat else "/orchestration/v1/%s") % project
        self.conn = _connection(self.url)
        self.poll, self.deadline = poll, deadline

    def call(self, method, path, body=None, expect=(200,)):
        status, payload = request(
            self.url, method, self.base + path, body, self.headers, conn=self.conn
        )
        if status not in expect:
            raise RuntimeError("%s %s: %s %s" % (method, path, status, payload[:300]))
        return json.loads(payload) if payload else None

    def create(self, name, template, files=None):
        """The new stack's ``name/id`` path."""
        body = {"stack_name": name, "template": template, "parameters": {}}
        if files:
            body["files"] = files
        created = self.call("POST", "/stacks", body, expect=(201,))
        return "/stacks/%s/%s" % (name, created["stack"]["id"])

    def wait(self, path, status):
        """Poll the stack until it is ``status`` (a deleted stack may also
        answer 404); a failure or the deadline raises."""
        deadline = time.perf_counter() + self.deadline
        while time.perf_counter() < deadline:
            stack = self.call("GET", path, expect=(200, 404))
            now = (stack or {}).get("stack", {}).get("stack_status", "DELETE_COMPLETE")
            if now == status:
                return
            if now.endswith("_FAILED"):
                raise RuntimeError(
                    "%s is %s: %s" % (path, now, stack["stack"]["stack_status_reason"])
                )
            time.sleep(self.poll)
        raise RuntimeError("%s not %s within %ss" % (path, status, self.deadline))


def group_once(heat, name, count):
    """``(create seconds, delete seconds)`` of one group stack; the stack
    is deleted even when its create fails."""
    start = time.perf_counter()
    path = heat.create(name, group_template(count), {"rand.yaml": RAND_YAML})
    try:
        heat.wait(path, "CREATE_COMPLETE")
    except Exception:
        heat.call("DELETE", path, expect=(204, 404))
        raise
    created = time.perf_counter()
    heat.call("DELETE", path, expect=(204,))
    heat.wait(path, "DELETE_COMPLETE")
    return created - start, time.perf_counter() - created


def group(heat, count, runs):
    """``(create seconds, delete seconds)`` of each run's group stack."""
    samples = []
    for i in range(runs):
        print("stacks: %d-template group, run %d/%d" % (count, i + 1, runs), file=sys.stderr)
        samples.append(group_once(heat, "group-%d" % i, count))
    return samples


def real_group(count):
    """``(create, delete)`` seconds of the group on the real Heat, or the
    reason it was not measured (a string)."""
    for url in (REAL_KEYSTONE, REAL_HEAT):
        try:
            request(url, "GET", "/")
        except OSError:
            return "real Heat not running (%s)" % url
    print("stacks: the group on the real Heat (minutes)", file=sys.stderr)
    heat = Heat(REAL_KEYSTONE, REAL_USER, REAL_PASSWORD, REAL_HEAT, REAL_POLL, REAL_DEADLINE)
    return group_once(heat, "occli-bench-group-%d" % os.getpid(), count)


def cli_env(root):
    """``occli``'s environment for the cloud of ``root`` (its clouds.yaml)."""
    env = dict(
        os.environ,
        OS_CLIENT_CONFIG_FILE=os.path.join(root, "data", "clouds.yaml"),
        OS_CLOUD="local-admin",
        OCCLI_CACHE_DIR=os.path.join(root, "cache"),
    )
    return {
        k: v
        for k, v in env.items()
        if not k.startswith("OS_") or k in ("OS_CLIENT_CONFIG_FILE", "OS_CLOUD")
    }


def cli(root, argv, runs):
    """Wall seconds of ``occli argv`` (one sample a run after a warm-up)
    and the lines of its last output."""
    samples, lines = [], 0
    for i in range(runs + 1):
        start = time.perf_counter()
        proc = subprocess.run(
            [OCCLI] + list(argv), env=cli_env(root), capture_output=True, text=True
        )
        elapsed = time.perf_counter() - start
        if proc.returncode != 0:
            raise RuntimeError("occli %s failed: %s" % (" ".join(argv), proc.stderr[-500:]))
        lines = len(proc.stdout.splitlines())
        if i:
            samples.append(elapsed)
    return samples, lines


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


def measure(count=100, runs=3, stacks=1000, lists=10, cli_runs=5, real=True, extra=()):
    """Start a cloud, run every figure: ``{"group": [(create, delete)…],
    "real": (create, delete) or why not, "count", "stacks", "made",
    "list": [seconds…], "list_cli": [seconds…], "events": [seconds…],
    "event_lines"}``."""
    root = scratch()
    proc = None
    try:
        proc, url, _ = start_server(root, "--build-time", "0", *extra, timeout=60)
        heat = Heat(url, "admin", ADMIN_PASSWORD)
        result = {"count": count, "stacks": stacks, "group": group(heat, count, runs)}
        heat.wait(heat.create("events", flat_template(count)), "CREATE_COMPLETE")
        print("stacks: occli stack event list", file=sys.stderr)
        result["events"], result["event_lines"] = cli(
            root, ["stack", "event", "list", "events", "-f", "value"], cli_runs
        )
        result["made"], result["list"] = listing(heat, stacks, lists)
        print("stacks: occli stack list", file=sys.stderr)
        result["list_cli"], listed = cli(root, ["stack", "list", "-f", "value"], cli_runs)
        if listed != stacks + 1:
            raise RuntimeError("occli stack list printed %d lines" % listed)
        try:
            result["real"] = real_group(count) if real else "real Heat skipped (--no-real)"
        except (OSError, RuntimeError) as exc:
            result["real"] = "real Heat failed: %s" % str(exc)[:200]
        return result
    finally:
        stop_server(proc)
        shutil.rmtree(root, ignore_errors=True)


def _against(seconds, name, real):
    """``(peer cell, ratio)`` of one group figure: against the real Heat's
    figure when it was measured (the share of its time over
    :data:`REAL_SHARE`, or the seconds over :data:`TARGETS`' if that is
    more: both bounds hold when it is ≤ 1), else against the seconds
    alone."""
    if isinstance(real, (list, tuple)):
        theirs = real[0 if name == "create" else 1]
        ratio = max(seconds / theirs / REAL_SHARE, seconds / TARGETS[name])
        return "real Heat %.1f s (occli %.4f ×; target ≤ %g × and ≤ %g s)" % (
            theirs,
            seconds / theirs,
            REAL_SHARE,
            TARGETS[name],
        ), ratio
    return "target %g s (%s)" % (TARGETS[name], real), seconds / TARGETS[name]


def rows(result):
    """The ``make bench`` rows (arguments of ``benchmarks/run.py``'s
    ``Row``): each figure against its target (ratio ≤ 1 passes)."""
    real = result.get("real", "real Heat not measured")
    out = []
    for i, name in enumerate(("create", "delete")):
        value = statistics.median(sample[i] for sample in result["group"])
        peer, ratio = _against(value, name, real)
        out.append(
            dict(
                figure="`ResourceGroup` of %d template resources (nested stacks): %s"
                % (result["count"], "created" if name == "create" else "deleted"),
                occli="%.2f s" % value,
                peer=peer,
                ratio=ratio,
                target=1.0,
                note="median of %d" % len(result["group"]),
            )
        )
    listed = statistics.median(result["list"])
    out.append(
        dict(
            figure="%d stacks listed (`GET /stacks?limit=%d`, page time)"
            % (result["stacks"], result["stacks"]),
            occli="%.3f s" % listed,
            peer="target %g s" % TARGETS["list"],
            ratio=listed / TARGETS["list"],
            target=1.0,
            note="%d creates took %.1f s" % (result["stacks"], result["made"]),
        )
    )
    for key, figure in (
        ("list_cli", "`occli stack list`, %d stacks, end to end" % result["stacks"]),
        ("events", "`occli stack event list`, %d-resource stack" % result["count"]),
    ):
        value = statistics.median(result[key])
        target = TARGETS["list" if key == "list_cli" else "events"]
        out.append(
            dict(
                figure=figure,
                occli="%.3f s" % value,
                peer="target %g s" % target,
                ratio=value / target,
                target=1.0,
                note="median of %d" % len(result[key]),
            )
        )
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100, help="resources of the group")
    parser.add_argument("--runs", type=int, default=3, help="group stacks created and deleted")
    parser.add_argument("--stacks", type=int, default=1000, help="stacks to list")
    parser.add_argument("--lists", type=int, default=10, help="listings timed")
    parser.add_argument("--cli-runs", type=int, default=5, help="occli runs timed")
    parser.add_argument("--no-real", action="store_true", help="skip the real Heat")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    result = measure(
        args.count, args.runs, args.stacks, args.lists, args.cli_runs, real=not args.no_real
    )
    if args.json:
        print(json.dumps(result))
        return 0
    for row in rows(result):
        print(
            "%s: %s (%s; ratio %.2f; %s)"
            % (row["figure"], row["occli"], row["peer"], row["ratio"], row["note"])
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
