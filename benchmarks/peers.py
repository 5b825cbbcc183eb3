"""occli beside its peers (``nova``, ``heat``, ``openstack``) on a local cloud.

``make bench`` (``benchmarks/run.py --peers``) installs the peers through
:func:`ensure_venv` and times ``nova list`` beside ``occli server list`` in
its table; the whole side-by-side comparison below runs alone:
``.venv/bin/python benchmarks/peers.py [--runs N]``.

The peers are installed once from PyPI into ``<repo>/.bench-peers`` (never
under /tmp: stevedore turns its entry-point cache off when
``sys.executable`` is under /tmp, which would slow ``openstack`` down
unfairly). The venv is reused when its stamp file says the install
finished. When the install cannot be done (no PyPI, for instance) the
section prints ``skipped: <reason>`` and ``make bench`` goes on.

Against a fresh local cloud started here (a few servers, aggregates and
software configs created first) it reports, for each command, the
whole-process wall time (median of N runs after warm-ups) and the number of
requests the local cloud logged for one run. occli runs as users run it:
token cache on (its ``--no-cache`` request count is shown beside it).
occli and ``openstack`` read the cloud's clouds.yaml (``OS_CLOUD``);
``nova`` and ``heat`` get the same credentials as plain ``OS_*`` variables.

A peer that fails is recorded as ``failed: <first line of its error>``.
After the timings, a few write commands of the peers (``openstack server
create``, ``aggregate create``, ``software deployment create``, ...) are
tried once each, untimed, as a compatibility check of the local cloud.
"""

import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
BIN = os.path.dirname(sys.executable)
OCCLI = os.path.join(BIN, "occli")
PACKAGES = (
    "python-openstackclient",
    "python-novaclient",
    "python-heatclient",
    "python-swiftclient",
)
PEER_COMMANDS = ("openstack", "nova", "heat", "swift")
IMAGE = "cirros-0.6.2-x86_64-disk"
FLAVOR = "m1.tiny"
PIP_TIMEOUT = 1800  # seconds for the whole first-time install


class Skip(Exception):
    """The peers cannot be run here; the message says why."""


def venv_dir():
    """``<repo>/.bench-peers``, or a cache dir if the repo is under /tmp."""
    path = os.path.join(REPO, ".bench-peers")
    if os.path.realpath(path).startswith("/tmp/"):
        path = os.path.join(os.path.expanduser("~"), ".cache", "occli", "bench-peers")
    return path


def _stamp_text():
    return "\n".join(PACKAGES) + "\n"


def ensure_venv(quiet=False):
    """Create (once) the peers venv; return its bin dir, or raise Skip."""
    venv = venv_dir()
    vbin = os.path.join(venv, "bin")
    stamp = os.path.join(venv, ".installed")
    complete = all(os.access(os.path.join(vbin, c), os.X_OK) for c in PEER_COMMANDS + ("python",))
    if complete and os.path.exists(stamp):
        with open(stamp) as f:
            if f.read() == _stamp_text():
                return vbin
    if not quiet:
        print(
            "peers: installing %s into %s (once; a few minutes)" % (", ".join(PACKAGES), venv),
            flush=True,
        )
    python = getattr(sys, "_base_executable", None) or sys.executable
    try:
        if not os.access(os.path.join(vbin, "python"), os.X_OK):
            subprocess.run(
                [python, "-m", "venv", venv],
                check=True,
                capture_output=True,
                text=True,
                timeout=300,
            )
        proc = subprocess.run(
            [
                os.path.join(vbin, "python"),
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
                "--timeout",
                "20",
                "--retries",
                "1",
            ]
            + list(PACKAGES),
            capture_output=True,
            text=True,
            timeout=PIP_TIMEOUT,
        )
    except subprocess.TimeoutExpired:
        raise Skip("pip install took longer than %d s" % PIP_TIMEOUT) from None
    except (OSError, subprocess.CalledProcessError) as exc:
        raise Skip(
            "cannot create %s: %s" % (venv, _first_line(getattr(exc, "stderr", None) or str(exc)))
        ) from None
    if proc.returncode != 0:
        raise Skip("pip install failed (PyPI unreachable?): %s" % _last_error(proc.stderr))
    missing = [c for c in PEER_COMMANDS if not os.access(os.path.join(vbin, c), os.X_OK)]
    if missing:
        raise Skip("pip install left no %s" % ", ".join(missing))
    with open(stamp, "w") as f:
        f.write(_stamp_text())
    return vbin


def _first_line(text):
    """The first meaningful line of a peer's error output."""
    for line in (text or "").splitlines():
        line = line.strip()
        if not line or line.startswith(("WARNING", "Warning:")) or "is deprecated" in line:
            continue
        return line[:160]
    return (text or "").strip()[:160] or "no output"


def _last_error(text):
    lines = [
        line.strip()
        for line in (text or "").splitlines()
        if line.strip() and "is ignored: it is neither" not in line
    ]
    errors = [line for line in lines if line.startswith("ERROR")]
    return ((errors or lines or ["no output"])[-1])[:200]


def _clouds(cloud):
    import yaml

    with open(os.path.join(cloud.dir, "clouds.yaml")) as f:
        return yaml.safe_load(f)["clouds"]


def plain_env(cloud, name):
    """Cloud ``name`` of the clouds.yaml as plain OS_* variables."""
    entry = _clouds(cloud)[name]
    env = {k: v for k, v in cloud.env.items() if not k.startswith("OS_")}
    for key, value in entry["auth"].items():
        env["OS_" + key.upper()] = str(value)
    env["OS_REGION_NAME"] = entry.get("region_name", "RegionOne")
    env["OS_INTERFACE"] = entry.get("interface", "public")
    env["OS_IDENTITY_API_VERSION"] = str(entry.get("identity_api_version", 3))
    env["NOVACLIENT_ISHOULDNTBEDOINGTHIS"] = "1"
    return env


def cloud_env(cloud, name):
    return dict(cloud.env, OS_CLOUD=name)


class Runner:
    """Runs, times and counts requests of one command against the cloud."""

    def __init__(self, cloud, runs, timed):
        self.cloud = cloud
        self.runs = runs
        self.timed = timed

    def once(self, argv, env, timeout=300):
        proc = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=timeout)
        return proc

    def measure(self, argv, env, count=True):
        """(figure, requests): figure is seconds or 'failed: ...'."""
        try:
            for _ in range(2):  # warm caches, check
                proc = self.once(argv, env)
                if proc.returncode != 0:
                    return "failed: " + _first_line(proc.stderr or proc.stdout), None
            requests = None
            if count:
                mark = self.cloud.log_mark()
                self.once(argv, env)
                requests = len(self.cloud.requests_since(mark))
            median, _best = self.timed(argv, self.runs, env=env, warmup=1)
        except (RuntimeError, subprocess.TimeoutExpired) as exc:
            return "failed: " + _first_line(str(exc).split(" failed: ", 1)[-1]), None
        return median, requests


def _seed(cloud):
    """A few servers, aggregates and software configs so lists aren't empty."""
    demo = [OCCLI, "--os-cloud", "local"]
    admin = [OCCLI, "--os-cloud", "local-admin"]
    env = cloud.env

    def run(argv):
        subprocess.run(argv, env=env, check=True, capture_output=True)

    run(
        demo
        + [
            "server",
            "create",
            "peer",
            "--image",
            IMAGE,
            "--flavor",
            FLAVOR,
            "--nic",
            "none",
            "--min",
            "3",
            "--max",
            "3",
            "--wait",
        ]
    )
    script = os.path.join(cloud.dir, "peer-config.sh")
    with open(script, "w") as f:
        f.write("#!/bin/sh\necho peer\n")
    for i in range(3):
        run(admin + ["aggregate", "create", "peer-agg%d" % i, "--zone", "zone%d" % i])
        run(
            demo
            + [
                "software",
                "config",
                "create",
                "peer-config%d" % i,
                "--config-file",
                script,
                "--group",
                "script",
            ]
        )


def _fmt(value):
    if isinstance(value, float):
        return "%.3f" % value
    return value


def timings(cloud, vbin, runs, timed):
    """Rows (command, [(who, figure, requests)...])."""
    r = Runner(cloud, runs, timed)
    peer = lambda name: os.path.join(vbin, name)  # noqa: E731
    base = dict(os.environ, NOVACLIENT_ISHOULDNTBEDOINGTHIS="1")
    demo_cfg, admin_cfg = cloud_env(cloud, "local"), cloud_env(cloud, "local-admin")
    for e in (demo_cfg, admin_cfg):
        e["NOVACLIENT_ISHOULDNTBEDOINGTHIS"] = "1"
    demo_plain, admin_plain = plain_env(cloud, "local"), plain_env(cloud, "local-admin")
    specs = [
        (
            "--version",
            [
                ("occli", [OCCLI, "--version"], base),
                ("nova", [peer("nova"), "--version"], base),
                ("heat", [peer("heat"), "--version"], base),
                ("openstack", [peer("openstack"), "--version"], base),
            ],
            False,
        ),
        (
            "server list",
            [
                ("occli", [OCCLI, "server", "list"], demo_cfg),
                ("nova list", [peer("nova"), "list"], demo_plain),
                ("openstack server list", [peer("openstack"), "server", "list"], demo_cfg),
            ],
            True,
        ),
        (
            "aggregate list (admin)",
            [
                ("occli", [OCCLI, "aggregate", "list"], admin_cfg),
                ("nova aggregate-list", [peer("nova"), "aggregate-list"], admin_plain),
                ("openstack aggregate list", [peer("openstack"), "aggregate", "list"], admin_cfg),
            ],
            True,
        ),
        (
            "software config list",
            [
                ("occli", [OCCLI, "software", "config", "list"], demo_cfg),
                ("heat config-list", [peer("heat"), "config-list"], demo_plain),
                (
                    "openstack software config list",
                    [peer("openstack"), "software", "config", "list"],
                    demo_cfg,
                ),
            ],
            True,
        ),
    ]
    rows = []
    for command, entries, count in specs:
        results = []
        for who, argv, env in entries:
            figure, requests = r.measure(argv, env, count=count)
            results.append((who, figure, requests))
        if count:  # occli without its token cache
            argv = entries[0][1][:1] + ["--no-cache"] + entries[0][1][1:]
            figure, requests = r.measure(argv, entries[0][2], count=True)
            results.insert(1, ("occli --no-cache", figure, requests))
        rows.append((command, results))
    return rows


def _compute_host(cloud):
    """The first nova-compute host of the cloud."""
    proc = subprocess.run(
        [OCCLI, "--os-cloud", "local-admin", "compute", "service", "list", "-f", "json"],
        env=cloud.env,
        capture_output=True,
        text=True,
    )
    try:
        return next(
            s["Host"] for s in json.loads(proc.stdout) if s.get("Binary") == "nova-compute"
        )
    except (ValueError, StopIteration, KeyError):
        return "host1"


def _signal_temp_url(vbin, env, server_id, created):
    """PUT a success signal to a deployment's temp URL, as the agent would;
    then ``heat deployment-show`` must read it as COMPLETE."""
    import urllib.request

    heat = os.path.join(vbin, "heat")
    deployment = json.loads(created)
    proc = subprocess.run(
        [heat, "deployment-metadata-show", server_id],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    signal_url = None
    for config in json.loads(proc.stdout):
        if config.get("id") == deployment["config_id"]:
            signal_url = {i.get("name"): i.get("value") for i in config.get("inputs", [])}.get(
                "deploy_signal_id"
            )
    if not signal_url:
        raise RuntimeError("no deploy_signal_id in the deployment metadata")
    body = json.dumps({"deploy_status_code": 0, "deploy_stdout": "ok"}).encode()
    request = urllib.request.Request(signal_url, data=body, method="PUT")
    urllib.request.urlopen(request, timeout=30).close()
    proc = subprocess.run(
        [heat, "deployment-show", deployment["id"]],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    status = json.loads(proc.stdout)["status"]
    if status != "COMPLETE":
        raise RuntimeError("deployment is %s after the signal" % status)
    return status


def _json_id(text):
    try:
        return json.loads(text)["id"]
    except (TypeError, ValueError, KeyError):
        return None


def compat_checks(cloud, vbin):
    """Untimed write commands of the peers: [(label, 'ok'|'failed: ...')]."""
    peer = lambda name: os.path.join(vbin, name)  # noqa: E731
    demo, admin = cloud_env(cloud, "local"), cloud_env(cloud, "local-admin")
    demo_plain = plain_env(cloud, "local")
    osc = peer("openstack")
    host = _compute_host(cloud)
    script = os.path.join(cloud.dir, "compat-config.sh")
    with open(script, "w") as f:
        f.write("#!/bin/sh\necho hello\n")
    results = []
    found = {}

    def check(label, argv, env, keep=None):
        try:
            proc = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=300)
        except subprocess.TimeoutExpired:
            results.append((label, "failed: timed out"))
            return
        if proc.returncode == 0:
            results.append((label, "ok"))
            if keep:
                found[keep] = proc.stdout.strip()
        else:
            results.append((label, "failed: " + _first_line(proc.stderr or proc.stdout)))

    check(
        "openstack server create --nic none --wait",
        [
            osc,
            "server",
            "create",
            "--image",
            IMAGE,
            "--flavor",
            FLAVOR,
            "--nic",
            "none",
            "vmx",
            "--wait",
            "-f",
            "json",
        ],
        demo,
        keep="server",
    )
    check("openstack server show", [osc, "server", "show", "vmx"], demo)
    check("nova show", [peer("nova"), "show", "vmx"], demo_plain)
    # no --zone: every host runs a server by now, and nova refuses (409) to
    # move a host with instances into an availability zone
    check(
        "openstack aggregate create --property",
        [osc, "aggregate", "create", "aggx", "--property", "ssd=true"],
        admin,
    )
    check("openstack aggregate add host", [osc, "aggregate", "add", "host", "aggx", host], admin)
    check("openstack aggregate show", [osc, "aggregate", "show", "aggx"], admin)
    check(
        "nova aggregate-show",
        [peer("nova"), "aggregate-show", "aggx"],
        plain_env(cloud, "local-admin"),
    )
    check(
        "openstack software config create --config-file",
        [
            osc,
            "software",
            "config",
            "create",
            "--config-file",
            script,
            "--group",
            "script",
            "cfgx",
            "-f",
            "json",
        ],
        demo,
        keep="config",
    )
    server = _json_id(found.get("server")) or "vmx"
    config = _json_id(found.get("config")) or "cfgx"
    for transport in ("TEMP_URL_SIGNAL", "NO_SIGNAL"):
        check(
            "openstack software deployment create (%s)" % transport,
            [
                osc,
                "software",
                "deployment",
                "create",
                "--config",
                config,
                "--server",
                server,
                "--signal-transport",
                transport,
                "dep-" + transport.lower(),
            ],
            demo,
        )
    check(
        "heat deployment-create (TEMP_URL_SIGNAL, swift)",
        [
            peer("heat"),
            "deployment-create",
            "-c",
            config,
            "-s",
            server,
            "--signal-transport",
            "TEMP_URL_SIGNAL",
            "dep-heat",
        ],
        demo_plain,
        keep="heat_deployment",
    )
    label = "signal to the temp URL, then heat deployment-show"
    if "heat_deployment" in found:
        try:
            _signal_temp_url(vbin, demo_plain, server, found["heat_deployment"])
            results.append((label, "ok (COMPLETE)"))
        except (
            subprocess.CalledProcessError,
            RuntimeError,
            OSError,
            ValueError,
            KeyError,
            IndexError,
        ) as exc:
            results.append(
                (label, "failed: " + _first_line(getattr(exc, "stderr", None) or str(exc)))
            )
    check("openstack software deployment list", [osc, "software", "deployment", "list"], demo)
    check(
        "openstack software deployment metadata show",
        [osc, "software", "deployment", "metadata", "show", server],
        demo,
    )
    check("swift stat", [peer("swift"), "--auth-version", "3", "stat"], demo_plain)
    return results


def _print_table(rows, checks):
    print()
    print(
        "peers: occli beside nova / heat / openstack on the local cloud "
        "(median wall s; requests per run)"
    )
    width = max(len(who) for _c, results in rows for who, _f, _r in results)
    cwidth = max(len(c) for c, _r in rows)
    print("%-*s  %-*s  %-40s %s" % (cwidth, "command", width, "client", "wall s", "requests"))
    for command, results in rows:
        for i, (who, figure, requests) in enumerate(results):
            print(
                "%-*s  %-*s  %-40s %s"
                % (
                    cwidth,
                    command if i == 0 else "",
                    width,
                    who,
                    _fmt(figure),
                    "-" if requests is None else requests,
                )
            )
    if checks:
        print()
        print("peers: compatibility of peer write commands with the local cloud (untimed)")
        width = max(len(label) for label, _s in checks)
        for label, status in checks:
            print("%-*s  %s" % (width, label, status))
    print(flush=True)


def run(runs, report, quiet=False):
    """Run the peers section; append (group, what, figure, note) rows."""
    sys.path.insert(0, HERE)
    from run import LocalCloud
    from run import timed

    try:
        vbin = ensure_venv(quiet=quiet)
    except Skip as exc:
        print("\npeers: skipped: %s\n" % exc, flush=True)
        report.append(("peers", "nova / heat / openstack side by side", "skipped", str(exc)))
        return report
    try:
        with LocalCloud() as cloud:
            _seed(cloud)
            rows = timings(cloud, vbin, runs, timed)
            checks = compat_checks(cloud, vbin)
    except (OSError, subprocess.SubprocessError, ValueError) as exc:
        reason = _first_line(
            getattr(exc, "stderr", None) and exc.stderr.decode(errors="replace") or str(exc)
        )
        print("\npeers: failed: %s\n" % reason, flush=True)
        report.append(("peers", "nova / heat / openstack side by side", "failed", reason))
        return report
    _print_table(rows, checks)
    for command, results in rows:
        for who, figure, requests in results:
            figure = "%.3f s" % figure if isinstance(figure, float) else figure
            note = "" if requests is None else "%d request(s)" % requests
            report.append(("peers", "%s: %s" % (command, who), figure, note))
    failed = [label for label, status in checks if not status.startswith("ok")]
    report.append(
        (
            "peers",
            "peer write commands on the local cloud",
            "%d/%d ok" % (len(checks) - len(failed), len(checks)),
            ("failed: " + "; ".join(failed)) if failed else "",
        )
    )
    return report


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    run(args.runs, [])


if __name__ == "__main__":
    main()
